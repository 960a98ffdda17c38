// `tongate decode` on real mainnet data: the JSON it prints must carry the chain's own ids and hashes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { tongate } from '../helpers/cli.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

interface BlockVector {
  boc_base64: string;
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
}
interface TxVector {
  boc_base64: string;
  ids: { tx_hash?: string; lt?: string; account?: string };
}

const tmp = mkdtempSync(join(tmpdir(), 'tongate-decode-'));

describe.skipIf(!hasVectors)('tongate decode on real data', () => {
  it('decodes a binary block BoC file: id, root hash and every transaction', () => {
    const v = loadVector<BlockVector>('blocks', 'mainnet_0_c000000000000000_13516764.json');
    const file = join(tmp, 'block.boc');
    writeFileSync(file, Buffer.from(v.boc_base64, 'base64'));
    const r = tongate('decode', file);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.type).toBe('block');
    expect(j.id).toMatchObject({ workchain: 0, shard: 'c000000000000000', seqno: 13516764, rootHash: v.ids.root_hash });
    expect(j.info.afterMerge).toBe(true);
    expect(j.transactions.length).toBeGreaterThan(0);
    for (const t of j.transactions) expect(t.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('decodes a transaction given as base64 text, with hash and lt as the chain says', () => {
    const v = loadVector<TxVector & { ids: Record<string, string> }>(
      'transactions',
      'wallet_v4r2_transfer_cc96f49e.json',
    );
    const r = tongate('decode', v.boc_base64, '--as', 'tx');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.type).toBe('transaction');
    const idsHash = Object.entries(v.ids).find(([k]) => /hash/.test(k))?.[1];
    if (idsHash) expect([j.hash, Buffer.from(j.hash, 'hex').toString('base64')]).toContain(idsHash);
    expect(BigInt(j.lt)).toBeGreaterThan(0n);
  });
});

describe('tongate decode on bad input', () => {
  for (const [what, args] of [
    ['garbage text', ['not a boc!!']],
    ['base64 that is not a BoC', ['aGVsbG8gd29ybGQ=']],
    ['a truncated BoC', ['te6cckEBAQEAAgAAAA']],
    ['an unknown --as', ['te6cckEBAQEAAgAAAA', '--as', 'pizza']],
    ['no argument', []],
  ] as const) {
    it(`answers ${what} with one line and exit code 2`, () => {
      const r = tongate('decode', ...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).not.toMatch(/ at .*\.ts:\d+/);
    });
  }

  it('answers a well-formed cell that is no block with exit code 2', () => {
    const boc = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString('base64');
    const r = tongate('decode', boc, '--as', 'block');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a valid block/);
  });
});
