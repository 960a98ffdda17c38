import { describe, expect, it } from 'vitest';
import { InputError } from '../../common/index.ts';
import { methodId, shardToString, toBlockIdExt } from './lite-methods.ts';
import { createCounter, createHistogram } from './pool-metrics.ts';

describe('lite method helpers', () => {
  it('computes get-method ids like the node (crc16 | 0x10000)', () => {
    // Well-known ids: wallets' seqno and jettons' get_wallet_data (also in shared/vectors accounts/ method lists).
    expect(methodId('seqno')).toBe(85143);
    expect(methodId('get_wallet_data')).toBe(97026);
    expect(methodId('get_jetton_data')).toBe(106029);
  });

  it('normalises shards to signed decimal', () => {
    expect(shardToString(0x8000000000000000n)).toBe('-9223372036854775808');
    expect(shardToString(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(shardToString('6917529027641081856')).toBe('6917529027641081856');
    expect(() => shardToString('x')).toThrow(InputError);
  });

  it('refuses block ids with hashes that are not 32 bytes', () => {
    const ok = {
      workchain: 0,
      shard: 0x8000000000000000n,
      seqno: 1,
      rootHash: Buffer.alloc(32),
      fileHash: Buffer.alloc(32),
    };
    expect(toBlockIdExt(ok).shard).toBe('-9223372036854775808');
    expect(() => toBlockIdExt({ ...ok, fileHash: Buffer.alloc(0) })).toThrow(InputError);
  });
});

describe('pool metrics', () => {
  it('counts per label set and keeps histogram buckets cumulative', () => {
    const c = createCounter('c', 'help');
    c.inc({ a: '1', b: '2' });
    c.inc({ b: '2', a: '1' }, 2);
    c.inc({ a: '2', b: '2' });
    expect(c.family().samples).toEqual([
      { labels: { a: '1', b: '2' }, value: 3 },
      { labels: { a: '2', b: '2' }, value: 1 },
    ]);
    const h = createHistogram('h', 'help', [0.1, 1]);
    h.observe({}, 0.05);
    h.observe({}, 0.5);
    h.observe({}, 5);
    expect(h.family().samples).toEqual([{ labels: {}, buckets: [0.1, 1], counts: [1, 2], sum: 5.55, count: 3 }]);
  });
});
