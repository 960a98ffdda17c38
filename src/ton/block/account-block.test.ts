import { beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { type AccountBlock, loadAccountBlock, loadShardAccountBlocks, storeAccountBlock } from './account-block.ts';
import { loadBlockCell } from './block.ts';

const tx = (n: number) => beginCell().storeUint(n, 16).endCell();
const accountBlock = (lts: bigint[]): AccountBlock => ({
  accountAddr: Buffer.alloc(32, 0x11),
  transactions: {
    entries: lts.map((lt, i) => ({ key: lt, value: tx(i), extra: { coins: BigInt(i + 1) } })),
    extra: { coins: 0n },
    pruned: 0,
  },
  stateUpdate: { oldHash: Buffer.alloc(32, 1), newHash: Buffer.alloc(32, 2) },
});
const encode = (v: AccountBlock) => beginCell().store(storeAccountBlock(v)).endCell();

describe('AccountBlock', () => {
  it('one transaction: the root edge is a leaf sitting inline before state_update', () => {
    const cell = encode(accountBlock([42n]));
    // acc_trans#5, address, hml_long label of 64 bits (2 + 7 + 64), extra (grams 1: 4 + 8, no dict), then refs.
    expect(cell.bits.length).toBe(4 + 256 + 2 + 7 + 64 + 12 + 1);
    expect(cell.refs.length).toBe(2);
    const back = loadAccountBlock(cell.beginParse());
    expect(back.transactions.entries.map((e) => e.key)).toEqual([42n]);
    expect(back.transactions.entries[0]?.value.equals(tx(0))).toBe(true);
    expect(back.stateUpdate.newHash.equals(Buffer.alloc(32, 2))).toBe(true);
  });

  it('several transactions: root extra is the sum of fees', () => {
    const back = loadAccountBlock(encode(accountBlock([10n, 11n, 20n])).beginParse());
    expect(back.transactions.entries.map((e) => e.key)).toEqual([10n, 11n, 20n]);
    expect(back.transactions.extra.coins).toBe(6n);
  });

  it('rejects a wrong tag, a wrong HASH_UPDATE tag and a short address', () => {
    const good = encode(accountBlock([1n]));
    const s = good.beginParse();
    s.skip(4);
    const wrong = beginCell().storeUint(0x4, 4).storeBits(s.loadBits(s.remainingBits));
    for (const r of good.refs) wrong.storeRef(r);
    expect(() => loadAccountBlock(wrong.endCell().beginParse())).toThrow('AccountBlock: expected tag 0x5, got 0x4');

    const badUpdate = beginCell().storeUint(0x71, 8).storeBuffer(Buffer.alloc(64)).endCell();
    const t = good.beginParse();
    const withBadUpdate = beginCell()
      .storeBits(t.loadBits(t.remainingBits))
      .storeRef(good.refs[0]!)
      .storeRef(badUpdate);
    expect(() => loadAccountBlock(withBadUpdate.endCell().beginParse())).toThrow(
      'HASH_UPDATE: expected tag 0x72, got 0x71',
    );

    expect(() => storeAccountBlock({ ...accountBlock([1n]), accountAddr: Buffer.alloc(20) })).toThrow(CodecError);
  });

  it.skipIf(!hasVectors)('a real ShardAccountBlocks with one account cut short throws naming the type', () => {
    const root = Cell.fromBase64(loadVector<{ boc_base64: string }>('blocks', 'mainnet_tongo_block-5.json').boc_base64);
    const accounts = loadBlockCell(root).extra.accountBlocks;
    expect(accounts.entries.map((e) => e.key.toString(16).slice(0, 4))).toEqual(['3333', '3451', '5555', '8e42']);
    // HashmapAugE with its root ref but without the root extra after it.
    const real = root.refs[3]!.refs[2]!;
    const cut = beginCell().storeBit(true).storeRef(real.refs[0]!).endCell();
    expect(() => loadShardAccountBlocks(cut.beginParse())).toThrow(CodecError);
    expect(() => loadShardAccountBlocks(cut.beginParse())).toThrow(/^CurrencyCollection: /);
  });
});
