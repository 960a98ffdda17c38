// Augmented dictionaries of real blocks rebuilt from their decoded entries alone: the writer recomputes
// every fork's extra with our combine functions, so equal cell hashes mean the combines are the node's.
import { type Builder, beginCell, Cell, type CurrencyCollection, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { type AugDict, type AugDictCodec, type AugEntry, buildHashmapAug, loadHashmapAugE } from '../dict/index.ts';
import {
  accountTransactionsCodec,
  shardAccountBlocksCodec,
  storeAccountBlock,
  storeShardAccountBlocks,
} from './account-block.ts';
import { loadBlockCell } from './block.ts';
import { addCurrencies, storeCurrencies, zeroCurrencies } from './currency.ts';
import { inMsgDescrCodec, storeInMsgDescr } from './in-msg.ts';
import { shardFeesCodec } from './mc-block-extra.ts';
import { outMsgDescrCodec, storeOutMsgDescr } from './out-msg.ts';

const blocks = [
  ...loadVectors<{ boc_base64: string }>('blocks').map(({ file, data }) => ({
    file,
    root: Cell.fromBase64(data.boc_base64),
  })),
  ...(hasVectors
    ? [
        {
          file: 'liteserver/proof_of_proof_masterchain_block_tonutils.json',
          root: Cell.fromBase64(
            loadVector<{ boc_base64: string }>('liteserver', 'proof_of_proof_masterchain_block_tonutils.json')
              .boc_base64,
          ),
        },
      ]
    : []),
];

/** The workchain each block vector records (the collector's decode, not ours), in the order of `blocks`. */
type InfoJson = { workchain: number };
const blockInfos = [
  ...loadVectors<{ verification: { block_info: InfoJson } }>('blocks').map(({ file, data }) => ({
    file,
    workchain: data.verification.block_info.workchain,
  })),
  ...(hasVectors
    ? [
        {
          file: 'liteserver/proof_of_proof_masterchain_block_tonutils.json',
          workchain: loadVector<{ verification: { block: InfoJson } }>(
            'liteserver',
            'proof_of_proof_masterchain_block_tonutils.json',
          ).verification.block.workchain,
        },
      ]
    : []),
];

const cellOf = (w: (b: Builder) => void) => beginCell().store(w).endCell();
const extraHash = <E>(codec: AugDictCodec<unknown, E>, e: E) => cellOf(codec.storeExtra(e)).hash().toString('hex');
/** Only what a block builder would have: key, value and leaf extra; no fork extra survives. */
const entriesOnly = <V, E>(d: AugDict<V, E>): AugEntry<V, E>[] =>
  d.entries.map(({ key, value, extra }) => ({ key, value, extra }));
/** A binary trie with k leaves has k - 1 forks, each carrying an extra the writer must recompute. */
const forks = (d: AugDict<unknown, unknown>) => Math.max(0, d.entries.length - 1);

/** The raw value part of every leaf of a real HashmapAugE, as a cell, keyed like the dict. */
function rawLeaves(cell: Cell, keyBits: number, codec: AugDictCodec<unknown, unknown>): Map<bigint, Cell> {
  const raw: AugDictCodec<Cell, unknown> = {
    ...codec,
    loadValue: (s) => {
      const b = beginCell().storeBits(s.loadBits(s.remainingBits));
      while (s.remainingRefs > 0) b.storeRef(s.loadRef());
      return b.endCell();
    },
    storeValue: () => () => {
      throw new Error('not used');
    },
  };
  const d = loadHashmapAugE(cell.beginParse(), keyBits, raw);
  return new Map(d.entries.map((e) => [e.key, e.value]));
}

describe.skipIf(!hasVectors)('augmented dictionaries of real blocks, rebuilt from entries', () => {
  let totalForks = 0;

  it.each(blocks)('$file: InMsgDescr, OutMsgDescr, ShardAccountBlocks roots reproduced', ({ root }) => {
    const extraCell = root.refs[3]!;
    const { inMsgDescr, outMsgDescr, accountBlocks } = loadBlockCell(root).extra;

    const inRebuilt = cellOf(
      storeInMsgDescr({ entries: entriesOnly(inMsgDescr), extra: inMsgDescrCodec.empty(), pruned: 0 }),
    );
    expect(inRebuilt.hash().toString('hex')).toBe(extraCell.refs[0]!.hash().toString('hex'));
    const outRebuilt = cellOf(
      storeOutMsgDescr({ entries: entriesOnly(outMsgDescr), extra: outMsgDescrCodec.empty(), pruned: 0 }),
    );
    expect(outRebuilt.hash().toString('hex')).toBe(extraCell.refs[1]!.hash().toString('hex'));
    const accRebuilt = cellOf(
      storeShardAccountBlocks({ entries: entriesOnly(accountBlocks), extra: zeroCurrencies(), pruned: 0 }),
    );
    expect(accRebuilt.hash().toString('hex')).toBe(extraCell.refs[2]!.hash().toString('hex'));

    // The root extras as the node stored them equal the combine of all leaves.
    for (const [d, codec] of [
      [inMsgDescr, inMsgDescrCodec],
      [outMsgDescr, outMsgDescrCodec],
      [accountBlocks, shardAccountBlocksCodec],
    ] as const) {
      if (d.entries.length === 0) continue;
      const built = buildHashmapAug(
        entriesOnly(d as AugDict<unknown, unknown>),
        256,
        codec as AugDictCodec<unknown, unknown>,
      );
      expect(extraHash(codec as AugDictCodec<unknown, unknown>, built.extra)).toBe(
        extraHash(codec as AugDictCodec<unknown, unknown>, d.extra),
      );
      expect(d.pruned).toBe(0);
    }
    totalForks += forks(inMsgDescr) + forks(outMsgDescr) + forks(accountBlocks);
  });

  it.each(blocks)('$file: every AccountBlock and its transactions dict reproduced', ({ root }) => {
    const { accountBlocks } = loadBlockCell(root).extra;
    const leaves = rawLeaves(root.refs[3]!.refs[2]!, 256, shardAccountBlocksCodec as AugDictCodec<unknown, unknown>);
    expect(leaves.size).toBe(accountBlocks.entries.length);
    for (const { key, value: ab } of accountBlocks.entries) {
      const real = leaves.get(key)!;
      expect(ab.accountAddr.toString('hex')).toBe(key.toString(16).padStart(64, '0'));
      expect(cellOf(storeAccountBlock(ab)).hash().equals(real.hash())).toBe(true);
      // The inline HashmapAug 64: after acc_trans#5 and the address, up to the last ref (state_update).
      const s = real.beginParse();
      s.skip(4 + 256);
      const edge = beginCell().storeBits(s.loadBits(s.remainingBits));
      while (s.remainingRefs > 1) edge.storeRef(s.loadRef());
      const built = buildHashmapAug(entriesOnly(ab.transactions), 64, accountTransactionsCodec);
      expect(built.cell.hash().equals(edge.endCell().hash())).toBe(true);
      expect(extraHash(accountTransactionsCodec, built.extra)).toBe(
        extraHash(accountTransactionsCodec, ab.transactions.extra),
      );
      totalForks += forks(ab.transactions);
    }
  });

  it.each(blocks)('$file: extras agree with the transactions and the value flow', ({ root }) => {
    const block = loadBlockCell(root);
    const { inMsgDescr, outMsgDescr, accountBlocks, custom } = block.extra;
    const ccHash = (c: CurrencyCollection) => cellOf(storeCurrencies(c)).hash().toString('hex');
    let allFees = zeroCurrencies();
    for (const { value: ab } of accountBlocks.entries) {
      let fees = zeroCurrencies();
      for (const { value: cell, extra } of ab.transactions.entries) {
        // A transaction's leaf extra is its own total_fees.
        const tx = loadTransaction(cell.beginParse());
        expect(ccHash(extra)).toBe(ccHash(tx.totalFees));
        fees = addCurrencies(fees, tx.totalFees);
      }
      expect(ccHash(ab.transactions.extra)).toBe(ccHash(fees));
      allFees = addCurrencies(allFees, fees);
    }
    expect(ccHash(accountBlocks.extra)).toBe(ccHash(allFees));
    const vf = block.valueFlow;
    // block::ValueFlow as the collator fills it: imported / exported are the descr root extras, and the
    // fees collected are the transaction fees + import fees + fees imported from shards + the block reward.
    expect(ccHash(vf.imported)).toBe(ccHash(inMsgDescr.extra.valueImported));
    expect(ccHash(vf.exported)).toBe(ccHash(outMsgDescr.extra));
    const collected = [{ coins: inMsgDescr.extra.feesCollected }, vf.feesImported, vf.created].reduce(
      addCurrencies,
      accountBlocks.extra,
    );
    expect(ccHash(vf.feesCollected)).toBe(ccHash(collected));
    if (custom) expect(ccHash(vf.feesImported)).toBe(ccHash(custom.shardFees.extra.fees));
  });

  const masterchain = blocks.filter(({ root }) => root.refs[3]!.refs.length === 4);

  it('finds the three masterchain blocks the vectors record (workchain -1), by BlockExtra’s 4th ref', () => {
    // The collector's own decode (verification.block_info / .block) says which blocks are masterchain ones.
    const recorded = blockInfos.filter(({ workchain }) => workchain === -1).map(({ file }) => file);
    expect(recorded.length).toBe(3);
    expect(masterchain.map(({ file }) => file)).toEqual(recorded);
  });

  it.each(masterchain)('$file (masterchain): ShardFees reproduced', ({ root }) => {
    const mc = loadBlockCell(root).extra.custom!;
    const mcCell = root.refs[3]!.refs[3]!;
    // McBlockExtra: #cca5 key_block:(## 1) shard_hashes:(HashmapE 32 ..) shard_fees:(HashmapAugE 96 ..) ...
    const s = mcCell.beginParse();
    s.skip(16 + 1);
    if (s.loadBit()) s.loadRef();
    expect(s.loadBit()).toBe(mc.shardFees.entries.length > 0);
    const realRoot = s.loadRef();
    const built = buildHashmapAug(entriesOnly(mc.shardFees), 96, shardFeesCodec);
    expect(built.cell.hash().equals(realRoot.hash())).toBe(true);
    expect(extraHash(shardFeesCodec, built.extra)).toBe(extraHash(shardFeesCodec, mc.shardFees.extra));
  });

  it('the real dictionaries had forks to recompute', () => {
    // Guards against the comparisons above passing vacuously on leaf-only dictionaries.
    expect(totalForks).toBeGreaterThan(6000);
  });
});
