import { describe, expect, it } from 'vitest';
import { createRateMeter, formatDuration, renderBar } from './progress.ts';

describe('backfill progress', () => {
  it('measures block and transaction rates and the ETA over the samples', () => {
    let t = 0;
    const meter = createRateMeter(100, 30_000, () => t);
    meter({ blocks: 0, transactions: 0 });
    t = 10_000;
    const r = meter({ blocks: 20, transactions: 500 });
    expect(r).toEqual({ blocksPerSecond: 2, txPerSecond: 50, etaSeconds: 40 });
    expect(renderBar(100, { blocks: 20, transactions: 500 }, r, 10)).toBe(
      '[##--------] 20/100 blocks  50.0 tx/s  ETA 40s',
    );
  });

  it('formats durations', () => {
    expect(formatDuration(59)).toBe('59s');
    expect(formatDuration(61)).toBe('1m01s');
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3h05m');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('?');
  });
});
