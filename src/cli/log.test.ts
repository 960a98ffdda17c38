// The commands' one log format: JSON records (level name, ISO time, pid, fields, msg) or, on a terminal, one
// readable line per record.
import { describe, expect, it } from 'vitest';
import { cliLogger, logTo, readableLine } from './log.ts';

function capture(pretty: boolean, level: 'debug' | 'info' = 'info') {
  const lines: string[] = [];
  const log = logTo(cliLogger({ level, pretty, write: (l) => lines.push(l) }));
  return { lines, log };
}

describe('cli log', () => {
  it('writes one JSON record per call: level by name, ISO time, pid, fields, msg; bigints and buffers as text', () => {
    const { lines, log } = capture(false);
    log('info', 'Indexed block', { mcSeqno: 5, lt: 12n, hash: Buffer.from([1, 2]), nested: { a: 1 } });
    log('debug', 'not shown at info');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(r).toMatchObject({
      level: 'info',
      pid: process.pid,
      mcSeqno: 5,
      lt: '12',
      hash: '0102',
      msg: 'Indexed block',
    });
    expect(r.nested).toEqual({ a: 1 });
    expect(String(r.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('shows debug records when asked', () => {
    const { lines, log } = capture(false, 'debug');
    log('debug', 'Polled the head');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'debug', msg: 'Polled the head' });
  });

  it('on a terminal, writes time, level, message and key=value fields; an error object ends with its stack', () => {
    const { lines, log } = capture(true);
    log('warn', 'Redis lost', { err: 'connect ECONNREFUSED', url: 'redis://x', n: 2 });
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} warn {2}Redis lost url=redis:\/\/x n=2 err="connect ECONNREFUSED"$/,
    );
    log('error', 'Failed', { err: new Error('boom') });
    const [first, ...stack] = lines[1]!.split('\n');
    expect(first).toMatch(/ error Failed$/);
    expect(stack[0]).toBe('Error: boom');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(readableLine('plain text')).toBe('plain text');
  });
});
