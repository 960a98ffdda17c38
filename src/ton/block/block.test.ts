import { type AccountStatus, beginCell, Cell, type CurrencyCollection, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { isPruned } from '../state/pruned.ts';
import { libraryEntries, loadShardState } from '../state/shard-state.ts';
import {
  type Block,
  blockId,
  listBlockTransactions,
  loadBlock,
  loadBlockCell,
  masterRefId,
  prevBlockIds,
  sameBlockId,
  storeBlock,
} from './block.ts';

type BlockInfoJson = {
  global_id: number;
  version: number;
  workchain: number;
  shard: string;
  seqno: number;
  not_master: boolean;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  key_block: boolean;
  flags: number;
  vert_seqno: number;
  gen_utime: number;
  start_lt: string;
  end_lt: string;
  gen_validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  root_hash: string;
};
type TxJson = { account: string; lt: string; hash: string };
type BlockVector = {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string | null };
  expected: Record<string, unknown>;
  verification: { block_info: BlockInfoJson; tx_count: number };
  transactions: TxJson[];
  boc_base64: string;
};

const hex = (b: Buffer) => b.toString('hex');
const shardHex = (s: bigint) => s.toString(16).padStart(16, '0');
const rootOf = (v: { boc_base64: string }) => Cell.fromBase64(v.boc_base64);

/** Every real block: the twelve in vectors/blocks plus the masterchain block kept with the proof vectors. */
function realBlocks(): Array<{ file: string; root: Cell; rootHash: string; info: BlockInfoJson }> {
  const out = loadVectors<BlockVector>('blocks').map(({ file, data }) => ({
    file,
    root: rootOf(data),
    rootHash: data.ids.root_hash,
    info: data.verification.block_info,
  }));
  if (hasVectors) {
    const mc = loadVector<{ boc_base64: string; verification: { root_hash: string; block: BlockInfoJson } }>(
      'liteserver',
      'proof_of_proof_masterchain_block_tonutils.json',
    );
    out.push({
      file: 'liteserver/proof_of_proof_masterchain_block_tonutils.json',
      root: rootOf(mc),
      rootHash: mc.verification.root_hash,
      info: mc.verification.block,
    });
  }
  return out;
}

describe.skipIf(!hasVectors)('Block on real mainnet blocks', () => {
  const blocks = realBlocks();

  it('has all thirteen blocks', () => {
    expect(blocks.length).toBe(13);
  });

  it.each(blocks)('$file: decodes, header fields as the vector records them', ({ root, rootHash, info }) => {
    expect(hex(root.hash())).toBe(rootHash);
    const block = loadBlockCell(root);
    expect(block.globalId).toBe(info.global_id);
    expect(block.globalId).toBe(-239); // mainnet
    const i = block.info;
    const id = blockId(block, root.hash());
    expect({ workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno, rootHash: hex(id.rootHash) }).toEqual(
      {
        workchain: info.workchain,
        shard: info.shard,
        seqno: info.seqno,
        rootHash: info.root_hash,
      },
    );
    expect({
      version: i.version,
      not_master: i.notMaster,
      after_merge: i.afterMerge,
      before_split: i.beforeSplit,
      after_split: i.afterSplit,
      key_block: i.keyBlock,
      flags: i.flags,
      vert_seqno: i.vertSeqNo,
      gen_utime: i.genUtime,
      start_lt: i.startLt.toString(),
      end_lt: i.endLt.toString(),
      gen_validator_list_hash_short: i.genValidatorListHashShort,
      gen_catchain_seqno: i.genCatchainSeqno,
      min_ref_mc_seqno: i.minRefMcSeqno,
      prev_key_block_seqno: i.prevKeyBlockSeqno,
    }).toEqual({
      version: info.version,
      not_master: info.not_master,
      after_merge: info.after_merge,
      before_split: info.before_split,
      after_split: info.after_split,
      key_block: info.key_block,
      flags: info.flags,
      vert_seqno: info.vert_seqno,
      gen_utime: info.gen_utime,
      start_lt: info.start_lt,
      end_lt: info.end_lt,
      gen_validator_list_hash_short: info.gen_validator_list_hash_short,
      gen_catchain_seqno: info.gen_catchain_seqno,
      min_ref_mc_seqno: info.min_ref_mc_seqno,
      prev_key_block_seqno: info.prev_key_block_seqno,
    });
    // Structural facts of the chain that must hold for any real block.
    expect(i.notMaster).toBe(i.shard.workchainId !== -1);
    expect(block.extra.custom !== null).toBe(!i.notMaster);
    expect(i.genSoftware !== null).toBe((i.flags & 1) === 1);
    expect(i.startLt < i.endLt).toBe(true);
    const parents = prevBlockIds(i);
    expect(parents.length).toBe(i.afterMerge ? 2 : 1);
    for (const p of parents) expect(p.seqno).toBeLessThan(i.seqNo);
    const master = masterRefId(i);
    if (i.notMaster) expect(master?.seqno).toBeGreaterThanOrEqual(i.minRefMcSeqno);
    else expect(master).toBeNull();
    // The Merkle update links the previous state to the new one; its hashes are those of its two refs.
    const su = block.stateUpdate;
    expect(su.oldHash.equals(su.cell.refs[0]!.hash(0))).toBe(true);
    expect(su.newHash.equals(su.cell.refs[1]!.hash(0))).toBe(true);
    expect(su.newDepth).toBe(su.cell.refs[1]!.depth(0));
  });

  it.each(blocks)('$file: storeBlock(loadBlock(cell)) is the same cell, bit for bit', ({ root, rootHash }) => {
    const again = beginCell()
      .store(storeBlock(loadBlockCell(root)))
      .endCell();
    expect(hex(again.hash())).toBe(rootHash);
    expect(again.equals(root)).toBe(true);
  });
});

describe.skipIf(!hasVectors)('listBlockTransactions on real blocks', () => {
  const vectors = loadVectors<BlockVector>('blocks');

  it.each(vectors)('$file: exactly the transactions the vector lists', ({ data }) => {
    const block = loadBlockCell(rootOf(data));
    const wc = block.info.shard.workchainId;
    const txs = listBlockTransactions(block);
    const got = txs.map((t) => ({ account: `${wc}:${hex(t.account)}`, lt: t.lt.toString(), hash: hex(t.hash) }));
    const key = (t: TxJson) => `${t.account}/${t.lt.padStart(20, '0')}`;
    expect(got).toEqual([...data.transactions].sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    expect(txs.length).toBe(data.verification.tx_count);
    // Every cell is the transaction it is filed under: its own account and lt agree with the dict keys.
    for (const t of txs) {
      const tx = loadTransaction(t.cell.beginParse());
      expect(tx.address).toBe(BigInt(`0x${hex(t.account)}`));
      expect(tx.lt).toBe(t.lt);
      expect(t.hash.equals(t.cell.hash())).toBe(true);
    }
  });
});

type CurrencyJson = { Grams: string; Other: Record<string, string> };
type TongoTx = {
  AccountAddr: string;
  Lt: number;
  PrevTransHash: string;
  PrevTransLt: number;
  Now: number;
  OutMsgCnt: number;
  OrigStatus: string;
  EndStatus: string;
};
type TongoExpected = {
  Accounts: Record<string, { Transactions: Record<string, TongoTx> }>;
  TxHashes: string[] | null;
  ValueFlow: Record<string, CurrencyJson | null>;
  InMsgDescrLength: number;
  OutMsgDescrLength: number;
  /** Library hash -> the accounts publishing it, as tongo lists them from the state after the block. */
  Libraries: Record<string, Record<string, Record<string, never>>>;
};

const currencyJson = (c: CurrencyCollection): CurrencyJson => ({
  Grams: c.coins.toString(),
  Other: Object.fromEntries([...(c.other ?? [])].map(([k, v]) => [String(k), v.toString()])),
});
const tongoStatus: Record<AccountStatus, string> = {
  active: 'active',
  uninitialized: 'uninit',
  frozen: 'frozen',
  'non-existing': 'nonexist',
};

// tonkeeper/tongo tlb/block_test.go (Test_tlb_Unmarshal) compares its decode of these blocks with
// block.expected.json; the vectors carry that file as expected.block_expected_json.
describe.skipIf(!hasVectors)('tongo block.expected.json', () => {
  const tongo = loadVectors<BlockVector>('blocks').filter(({ data }) => 'block_expected_json' in data.expected);

  it('covers the five tongo blocks with expectations', () => {
    expect(tongo.map((v) => v.file)).toEqual([1, 2, 3, 4, 5].map((n) => `mainnet_tongo_block-${n}.json`));
  });

  it.each(tongo)('$file: tx hashes, per-account transactions, value flow, descr sizes', ({ data }) => {
    const exp = data.expected.block_expected_json as TongoExpected;
    const block = loadBlockCell(rootOf(data));
    const txs = listBlockTransactions(block);
    expect(txs.map((t) => hex(t.hash)).sort()).toEqual([...(exp.TxHashes ?? [])].sort());

    const accounts: TongoExpected['Accounts'] = {};
    for (const t of txs) {
      const tx = loadTransaction(t.cell.beginParse());
      const acc = hex(t.account);
      accounts[acc] ??= { Transactions: {} };
      accounts[acc].Transactions[t.lt.toString()] = {
        AccountAddr: acc,
        Lt: Number(tx.lt),
        PrevTransHash: tx.prevTransactionHash.toString(16).padStart(64, '0'),
        PrevTransLt: Number(tx.prevTransactionLt),
        Now: tx.now,
        OutMsgCnt: tx.outMessagesCount,
        OrigStatus: tongoStatus[tx.oldStatus],
        EndStatus: tongoStatus[tx.endStatus],
      };
    }
    expect(accounts).toEqual(exp.Accounts);

    const vf = block.valueFlow;
    expect({
      FromPrevBlk: currencyJson(vf.fromPrevBlk),
      ToNextBlk: currencyJson(vf.toNextBlk),
      Imported: currencyJson(vf.imported),
      Exported: currencyJson(vf.exported),
      FeesCollected: currencyJson(vf.feesCollected),
      Burned: vf.kind === 'value_flow_v2' ? currencyJson(vf.burned) : null,
      FeesImported: currencyJson(vf.feesImported),
      Recovered: currencyJson(vf.recovered),
      Created: currencyJson(vf.created),
      Minted: currencyJson(vf.minted),
    }).toEqual(exp.ValueFlow);

    expect(block.extra.inMsgDescr.entries.length).toBe(exp.InMsgDescrLength);
    expect(block.extra.outMsgDescr.entries.length).toBe(exp.OutMsgDescrLength);
  });

  // tongo's libraries(&block.StateUpdate.ToRoot): the new side of the state update is the state after the
  // block (with pruned branches); its ShardStateUnsplit libraries dict lists the libraries the block touched,
  // each with its publishers. tongo skips the pruned parts (Items()), and so does libraryEntries.
  it.each(tongo)('$file: the libraries of the state after the block are tongo’s', ({ data }) => {
    const exp = data.expected.block_expected_json as TongoExpected;
    expect(exp.Libraries).toBeDefined();
    const block = loadBlockCell(rootOf(data));
    const state = loadShardState(block.stateUpdate.cell.refs[1]!.beginParse());
    if (state.kind !== 'shard_state') throw new Error('expected the state after the block to be unsplit');
    if (isPruned(state.r1)) throw new Error('expected the state’s ^[ … libraries … ] cell to be present');
    const libs: TongoExpected['Libraries'] = {};
    for (const { key, value } of libraryEntries(state.r1.libraries).entries) {
      const lib = key.toString(16).padStart(64, '0');
      expect(hex(value.lib.hash())).toBe(lib); // the dictionary is keyed by the library cell's hash
      libs[lib] = Object.fromEntries(value.publishers.map((p) => [p.toString(16).padStart(64, '0'), {}]));
    }
    expect(libs).toEqual(exp.Libraries);
  });

  it('block-5 publishes a library (so the comparison above is not only of empty maps)', () => {
    const five = tongo.find((v) => v.file === 'mainnet_tongo_block-5.json')!;
    const exp = (five.data.expected.block_expected_json as TongoExpected).Libraries;
    expect(Object.keys(exp).length).toBeGreaterThan(0);
    expect(Object.values(exp).every((publishers) => Object.keys(publishers).length > 0)).toBe(true);
  });
});

describe.skipIf(!hasVectors)('block ids and parents asserted by the sources', () => {
  it('0:c000000000000000:13516764 follows a merge: its two parents are the tongo ones', () => {
    const v = loadVector<BlockVector>('blocks', 'mainnet_0_c000000000000000_13516764.json');
    const block = loadBlockCell(rootOf(v));
    expect(block.info.afterMerge).toBe(true);
    expect(block.info.prevRef.kind).toBe('prev_blks_info');
    // tonkeeper/tongo ton/block_test.go TestBlockInfo_GetParents
    const parents = prevBlockIds(block.info).map((p) => ({
      workchain: p.workchain,
      shard: shardHex(p.shard),
      seqno: p.seqno,
      root_hash: hex(p.rootHash),
      file_hash: p.fileHash ? hex(p.fileHash) : null,
    }));
    expect(parents).toEqual(v.expected.parents);
  });

  it('0:8000000000000000:71398501: the replay fixture id, 234 accounts, 269 transactions', () => {
    const v = loadVector<BlockVector>('blocks', 'mainnet_0_8000000000000000_71398501.json');
    const root = rootOf(v);
    const exp = v.expected.from_replay_fixture as {
      block: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
      accounts: number;
      transactions: number;
    };
    const block = loadBlockCell(root);
    const id = blockId(block, root.hash(), Buffer.from(exp.block.file_hash, 'hex'));
    expect({
      workchain: id.workchain,
      shard: shardHex(id.shard),
      seqno: id.seqno,
      root_hash: hex(id.rootHash),
      file_hash: hex(id.fileHash!),
    }).toEqual(exp.block);
    expect(block.extra.accountBlocks.entries.length).toBe(exp.accounts);
    expect(listBlockTransactions(block).length).toBe(exp.transactions);
  });

  it('tonutils-go GetParentBlocks blocks: one parent each, same shard, seqno - 1', () => {
    for (const f of ['mainnet_-1_8000000000000000_24374597.json', 'mainnet_0_8000000000000000_29836576.json']) {
      const v = loadVector<BlockVector>('blocks', f);
      const block = loadBlockCell(rootOf(v));
      const [parent, ...rest] = prevBlockIds(block.info);
      expect(rest).toEqual([]);
      expect(parent?.workchain).toBe(v.ids.workchain);
      expect(shardHex(parent!.shard)).toBe(v.ids.shard);
      expect(parent?.seqno).toBe(v.ids.seqno - 1);
    }
  });
});

describe.skipIf(!hasVectors)('Block: malformed input throws CodecError naming the type', () => {
  const v = hasVectors ? loadVector<BlockVector>('blocks', 'mainnet_-1_8000000000000000_24374597.json') : undefined;
  const root = () => rootOf(v!);
  const rebuild = (c: Cell, bits: (b: ReturnType<typeof beginCell>) => void, refs: Cell[] = [...c.refs]) => {
    const b = beginCell();
    bits(b);
    for (const r of refs) b.storeRef(r);
    return b.endCell();
  };

  it('wrong block tag', () => {
    const c = root();
    const s = c.beginParse();
    s.skip(32);
    const bad = rebuild(c, (b) => b.storeUint(0x11ef55ab, 32).storeBits(s.loadBits(s.remainingBits)));
    expect(() => loadBlockCell(bad)).toThrow(CodecError);
    expect(() => loadBlockCell(bad)).toThrow('Block: expected tag 0x11ef55aa, got 0x11ef55ab');
  });

  it('leftover bits after the block', () => {
    const c = root();
    const bad = rebuild(c, (b) => b.storeBits(c.bits).storeBit(true));
    expect(() => loadBlockCell(bad)).toThrow(/Block: expected the cell to end, got 1 bits/);
  });

  it('truncated BlockInfo', () => {
    const c = root();
    const info = c.refs[0]!;
    const cutAt = (n: number) => {
      const cut = rebuild(info, (b) => b.storeBits(info.bits.substring(0, n)));
      return rebuild(c, (b) => b.storeBits(c.bits), [cut, ...c.refs.slice(1)]);
    };
    expect(() => loadBlockCell(cutAt(100))).toThrow(CodecError);
    expect(() => loadBlockCell(cutAt(100))).toThrow(/^BlockInfo: /);
    // Cut inside the shard field: the innermost type is named, the enclosing ones are in details.path.
    const err = (() => {
      try {
        loadBlockCell(cutAt(200));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CodecError);
    expect((err as CodecError).message).toMatch(/^ShardIdent: /);
    expect((err as CodecError).details.path).toEqual(['Block', 'BlockInfo', 'ShardIdent']);
  });

  it('state_update that is not a Merkle-update cell', () => {
    const c = root();
    const plain = beginCell().storeUint(4, 8).endCell();
    const bad = rebuild(c, (b) => b.storeBits(c.bits), [c.refs[0]!, c.refs[1]!, plain, c.refs[3]!]);
    expect(() => loadBlockCell(bad)).toThrow(/MERKLE_UPDATE: expected an exotic Merkle-update cell/);
  });

  it('wrong BlockExtra tag', () => {
    const c = root();
    const extra = c.refs[3]!;
    const s = extra.beginParse();
    s.skip(32);
    const badExtra = rebuild(extra, (b) => b.storeUint(0x4a33f6fc, 32).storeBits(s.loadBits(s.remainingBits)));
    const bad = rebuild(c, (b) => b.storeBits(c.bits), [...c.refs.slice(0, 3), badExtra]);
    expect(() => loadBlockCell(bad)).toThrow('BlockExtra: expected tag 0x4a33f6fd, got 0x4a33f6fc');
  });

  it('a missing ref', () => {
    const c = root();
    const bad = rebuild(c, (b) => b.storeBits(c.bits), c.refs.slice(0, 3));
    expect(() => loadBlock(bad.beginParse())).toThrow(CodecError);
    expect(() => loadBlock(bad.beginParse())).toThrow(/^Block: /);
  });

  it('decoding is not fooled by a consistent-looking block: a tampered lt changes the root hash', () => {
    const block: Block = loadBlockCell(root());
    const tampered = { ...block, info: { ...block.info, endLt: block.info.endLt + 1n } };
    expect(beginCell().store(storeBlock(tampered)).endCell().hash().equals(root().hash())).toBe(false);
  });
});

describe('sameBlockId', () => {
  const id = {
    workchain: 0,
    shard: 0x8000000000000000n,
    seqno: 7,
    rootHash: Buffer.alloc(32, 1),
    fileHash: Buffer.alloc(32, 2),
  };
  it('is true for equal ids, false when any field differs', () => {
    expect(sameBlockId(id, { ...id, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) })).toBe(true);
    for (const other of [
      { ...id, workchain: -1 },
      { ...id, shard: 0x4000000000000000n },
      { ...id, seqno: 8 },
      { ...id, rootHash: Buffer.alloc(32, 3) },
      { ...id, fileHash: Buffer.alloc(32, 3) },
    ]) {
      expect(sameBlockId(id, other)).toBe(false);
    }
  });
});
