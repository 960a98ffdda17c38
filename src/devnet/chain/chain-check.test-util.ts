// Independent checks of collated blocks and states for the chain tests. Everything here recomputes its
// expectation from the block's own cells with src/ton's codec and @ton/core's parsers (never from the
// collator's bookkeeping): bit-exact re-encoding, hashes, prev links, the Merkle update, aug-dict roots
// rebuilt from their leaves with extras recomputed from the messages and transactions, and the value flow.
import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  beginCell,
  type Cell,
  type CurrencyCollection,
  loadShardAccount as coreLoadShardAccount,
  loadShardStateUnsplit as coreLoadShardState,
  loadMessage,
  loadTransaction,
} from '@ton/core';
import { expect } from 'vitest';
import {
  type AugDictCodec,
  augDictEntries,
  type Block,
  type BlockIdExt,
  buildAugDictRoot,
  buildOutMsgQueue,
  buildShardAccounts,
  type ImportFees,
  type InMsg,
  inMsgDescrCodec,
  listBlockTransactions,
  listShards,
  loadBlockCell,
  loadMsgEnvelope,
  loadShardStateUnsplit,
  type OutMsg,
  outMsgDescrCodec,
  outMsgQueueEntries,
  parseBoc,
  prevBlockIds,
  type ShardAccount,
  serializeBoc,
  shardAccountBlocksCodec,
  shardAccountEntries,
  shardFeesCodec,
  storeAccountOrNone,
  storeBlock,
  storeShardStateUnsplit,
  verifyMerkleUpdate,
} from '../../ton/index.ts';
import type { ChainTop, CollatedBlock, CollatedMcBlock } from './types.ts';

const U = (c: CurrencyCollection) => c.coins;

export function sameId(
  a: BlockIdExt,
  b: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer | null },
) {
  expect(a.workchain).toBe(b.workchain);
  expect(a.shard).toBe(b.shard);
  expect(a.seqno).toBe(b.seqno);
  expect(a.rootHash.equals(b.rootHash)).toBe(true);
  expect(b.fileHash && a.fileHash.equals(b.fileHash)).toBe(true);
}

/** Σ account balances of a state, read with @ton/core's own ShardStateUnsplit parser. */
export function coreBalanceSum(state: Cell, filter?: (hash: bigint) => boolean): bigint {
  const st = coreLoadShardState(state.beginParse());
  let sum = 0n;
  for (const [key, acc] of st.accounts ?? []) {
    if (filter && !filter(key)) continue;
    const balance = acc.shardAccount.account?.storage.balance.coins ?? 0n;
    expect(acc.depthBalanceInfo.balance.coins).toBe(balance);
    sum += balance;
  }
  return sum;
}

/** Import fees of an InMsg, recomputed from its message (block-parse.cpp InMsg::get_import_fees, gv >= 12). */
function importFeesOf(m: InMsg): ImportFees {
  if (m.kind === 'msg_import_ext') return { feesCollected: 0n, valueImported: { coins: 0n } };
  if (m.kind !== 'msg_import_fin') throw new Error(`unexpected InMsg ${m.kind}`);
  const msg = loadMessage(m.inMsg.msg.beginParse());
  if (msg.info.type !== 'internal') throw new Error('import_fin of a non-internal message');
  const rem = m.inMsg.fwdFeeRemaining;
  // InMsg::get_import_fees refuses an import whose fwd_fee differs from the envelope's fwd_fee_remaining.
  expect(m.fwdFee).toBe(rem);
  expect(rem <= msg.info.forwardFee).toBe(true);
  return { feesCollected: rem, valueImported: { coins: msg.info.value.coins + rem } };
}

function exportValueOf(m: OutMsg): CurrencyCollection {
  if (m.kind !== 'msg_export_new') return { coins: 0n };
  const msg = loadMessage(m.outMsg.msg.beginParse());
  if (msg.info.type !== 'internal') throw new Error('export_new of a non-internal message');
  return { coins: msg.info.value.coins + m.outMsg.fwdFeeRemaining };
}

function rebuiltRoot<V, E>(
  entries: Array<{ key: bigint; value: V; extra: E }>,
  bits: number,
  codec: AugDictCodec<V, E>,
): Buffer {
  const d = buildAugDictRoot(entries, bits, codec);
  return beginCell().storeMaybeRef(d.root).store(codec.storeExtra(d.extra)).endCell().hash();
}

export interface CheckOpts {
  /** The previous chain top (the parent's last block right after a split). */
  prev: ChainTop;
  /** The masterchain block a shard block refers to. */
  mcRef?: ChainTop;
  /** The ShardAccount cell the emulator returned with each transaction, by transaction hash (hex). */
  emulated?: Map<string, Cell>;
}

/** Every check that can be made on one block in isolation; returns the decoded block. */
export function checkBlock(b: CollatedBlock, o: CheckOpts): Block {
  // BoC and ids.
  const roots = parseBoc(b.boc);
  expect(roots.length).toBe(1);
  expect(roots[0]?.hash().equals(b.id.rootHash)).toBe(true);
  expect(b.block.hash().equals(b.id.rootHash)).toBe(true);
  expect(createHash('sha256').update(b.boc).digest().equals(b.id.fileHash)).toBe(true);
  expect(serializeBoc(roots, { idx: true, crc32: true, cacheBits: true, hashes: true }).equals(b.boc)).toBe(true);

  // Decode and re-encode bit-exactly.
  const blk = loadBlockCell(b.block);
  expect(beginCell().store(storeBlock(blk)).endCell().hash().equals(b.id.rootHash)).toBe(true);
  const st = loadShardStateUnsplit(b.state.beginParse());
  expect(beginCell().store(storeShardStateUnsplit(st)).endCell().hash().equals(b.state.hash())).toBe(true);
  const info = blk.info;
  expect(info.version).toBe(0);
  expect(info.vertSeqNo).toBe(0);
  expect(info.seqNo).toBe(o.prev.id.seqno + 1);
  expect(info.notMaster).toBe(b.id.workchain !== -1);
  expect(st.seqNo).toBe(info.seqNo);
  expect(st.genLt).toBe(info.endLt);
  expect(st.genUtime).toBe(info.genUtime);

  // prev_ref: the previous block's real id and end lt.
  const prevIds = prevBlockIds(info);
  expect(prevIds.length).toBe(1);
  sameId(o.prev.id, prevIds[0] as BlockIdExt);
  const prevEndLt = o.prev.block
    ? loadBlockCell(o.prev.block).info.endLt
    : loadShardStateUnsplit(o.prev.state.beginParse()).genLt;
  if (info.prevRef.kind !== 'prev_blk_info') throw new Error('merged block');
  expect(info.prevRef.prev.endLt).toBe(prevEndLt);

  // lt discipline.
  expect(info.startLt % 1_000_000n).toBe(0n);
  expect(info.startLt >= prevEndLt).toBe(true);
  if (o.mcRef) {
    const mcEnd = o.mcRef.block ? loadBlockCell(o.mcRef.block).info.endLt : 0n;
    expect(info.masterRef?.master.endLt).toBe(mcEnd);
    expect(info.masterRef?.master.seqNo).toBe(o.mcRef.id.seqno);
    expect(info.masterRef?.master.rootHash.equals(o.mcRef.id.rootHash)).toBe(true);
    expect(info.masterRef?.master.fileHash.equals(o.mcRef.id.fileHash)).toBe(true);
    expect(info.startLt >= mcEnd).toBe(true);
  }
  const txs = listBlockTransactions(blk);
  let maxEnd = info.startLt + 1n;
  for (const t of txs) {
    const tx = loadTransaction(t.cell.beginParse());
    expect(tx.lt).toBe(t.lt);
    expect(t.lt > info.startLt && t.lt <= info.endLt).toBe(true);
    const end = tx.lt + 1n + BigInt(tx.outMessagesCount);
    if (end > maxEnd) maxEnd = end;
    for (const m of tx.outMessages.values()) {
      if (m.info.type !== 'external-in') expect(m.info.createdLt > tx.lt && m.info.createdLt <= info.endLt).toBe(true);
    }
    if (tx.inMessage?.info.type === 'internal') expect(tx.inMessage.info.createdLt < tx.lt).toBe(true);
  }
  expect(info.endLt).toBe(maxEnd);
  expect(txs.map((t) => t.hash.toString('hex'))).toEqual(b.transactions.map((t) => t.hash.toString('hex')));

  // The Merkle update links the previous state to this one.
  verifyMerkleUpdate(blk.stateUpdate.cell, o.prev.state.hash(), b.state.hash());

  // Aug dicts rebuilt from their leaves, extras recomputed from messages and transactions.
  const extraCell = b.block.refs[3] as Cell;
  const inEntries = blk.extra.inMsgDescr.entries.map((e) => ({ ...e, extra: importFeesOf(e.value) }));
  for (const e of blk.extra.inMsgDescr.entries) {
    const fees = importFeesOf(e.value);
    expect(e.extra.feesCollected).toBe(fees.feesCollected);
    expect(e.extra.valueImported.coins).toBe(fees.valueImported.coins);
    const msgCell = e.value.kind === 'msg_import_ext' ? e.value.msg : 'inMsg' in e.value ? e.value.inMsg.msg : null;
    expect(msgCell && BigInt(`0x${msgCell.hash().toString('hex')}`)).toBe(e.key);
  }
  expect(rebuiltRoot(inEntries, 256, inMsgDescrCodec).equals((extraCell.refs[0] as Cell).hash())).toBe(true);
  const outEntries = blk.extra.outMsgDescr.entries.map((e) => ({ ...e, extra: exportValueOf(e.value) }));
  for (const e of blk.extra.outMsgDescr.entries) expect(e.extra.coins).toBe(exportValueOf(e.value).coins);
  expect(rebuiltRoot(outEntries, 256, outMsgDescrCodec).equals((extraCell.refs[1] as Cell).hash())).toBe(true);
  const abEntries = blk.extra.accountBlocks.entries.map((e) => {
    const fees = e.value.transactions.entries.reduce(
      (s, t) => s + loadTransaction(t.value.beginParse()).totalFees.coins,
      0n,
    );
    expect(e.extra.coins).toBe(fees);
    for (const t of e.value.transactions.entries)
      expect(t.extra.coins).toBe(loadTransaction(t.value.beginParse()).totalFees.coins);
    return { ...e, extra: { coins: fees } };
  });
  expect(rebuiltRoot(abEntries, 256, shardAccountBlocksCodec).equals((extraCell.refs[2] as Cell).hash())).toBe(true);

  // ShardAccounts rebuilt from decoded leaves with balances from @ton/core; the account cells are the emulator's.
  const accs = st.accounts as Parameters<typeof shardAccountEntries>[0];
  const accEntries = shardAccountEntries(accs).entries;
  const rebuilt = buildShardAccounts(
    accEntries.map((e) => {
      const core = coreLoadShardAccount(leafCell(e.value).beginParse());
      return {
        key: e.key,
        value: e.value,
        extra: { splitDepth: 0, balance: { coins: core.account?.storage.balance.coins ?? 0n } },
      };
    }),
  );
  expect(rebuilt.root?.hash().equals(accs.root?.hash() ?? Buffer.alloc(0))).toBe(true);
  if (o.emulated) {
    for (const ab of blk.extra.accountBlocks.entries) {
      const lastTx = ab.value.transactions.entries.at(-1)?.value as Cell;
      const returned = o.emulated.get(lastTx.hash().toString('hex'));
      expect(returned).toBeDefined();
      const inState = accEntries.find((e) => e.key === ab.key);
      if (inState)
        expect(
          leafCell(inState.value)
            .hash()
            .equals((returned as Cell).hash()),
        ).toBe(true);
      else expect(((returned as Cell).refs[0] as Cell).bits.length).toBe(1);
    }
  }

  // HASH_UPDATE of every AccountBlock: the account before the block (previous state) and after (this state),
  // and the first and last transactions' own HASH_UPDATE.
  const prevState = o.prev.state;
  for (const ab of blk.extra.accountBlocks.entries) {
    const addr = ab.value.accountAddr;
    const before = accountCellInPrev(prevState, addr);
    const after = accountCellInPrev(b.state, addr);
    expect(ab.value.stateUpdate.oldHash.equals(before.hash())).toBe(true);
    expect(ab.value.stateUpdate.newHash.equals(after.hash())).toBe(true);
    const list = ab.value.transactions.entries.map((t) => loadTransaction(t.value.beginParse()));
    expect(list[0]?.stateUpdate.oldHash.equals(before.hash())).toBe(true);
    expect(list.at(-1)?.stateUpdate.newHash.equals(after.hash())).toBe(true);
  }

  // OutMsgQueue: keys end with the message hash, extras are the messages' lts, and the root rebuilds.
  const queueInfo = st.outMsgQueueInfo as { outQueue: Parameters<typeof outMsgQueueEntries>[0] };
  const queue = outMsgQueueEntries(queueInfo.outQueue).entries.map((e) => {
    const env = loadMsgEnvelope(e.value.outMsg.beginParse());
    const msg = loadMessage(env.msg.beginParse());
    if (msg.info.type !== 'internal') throw new Error('queued message is not internal');
    const lt = env.kind === 'msg_envelope_v2' && env.emittedLt !== null ? env.emittedLt : msg.info.createdLt;
    expect(e.extra).toBe(lt);
    expect(e.value.enqueuedLt).toBe(lt);
    expect(e.key & ((1n << 256n) - 1n)).toBe(BigInt(`0x${env.msg.hash().toString('hex')}`));
    return { ...e, extra: lt };
  });
  expect(buildOutMsgQueue(queue).root?.hash().toString('hex')).toBe(queueInfo.outQueue.root?.hash().toString('hex'));

  // ValueFlow: each term from its own source, and the balance equation.
  const vf = blk.valueFlow;
  const isSplitChild = info.afterSplit;
  const prefixOf = (k: bigint) => k >> 192n;
  const childFilter = isSplitChild
    ? (k: bigint) => {
        const shard = b.id.shard;
        const low = shard & -shard;
        const mask = ~(low * 2n - 1n) & ((1n << 64n) - 1n);
        return ((prefixOf(k) ^ shard) & mask) === 0n;
      }
    : undefined;
  expect(U(vf.fromPrevBlk)).toBe(coreBalanceSum(prevState, childFilter));
  expect(U(vf.toNextBlk)).toBe(coreBalanceSum(b.state));
  expect(U(vf.imported)).toBe(inEntries.reduce((s, e) => s + e.extra.valueImported.coins, 0n));
  expect(U(vf.exported)).toBe(outEntries.reduce((s, e) => s + e.extra.coins, 0n));
  const burned = vf.kind === 'value_flow_v2' ? U(vf.burned) : 0n;
  expect(U(vf.fromPrevBlk) + U(vf.imported) + U(vf.feesImported) + U(vf.created) + U(vf.minted) + U(vf.recovered)).toBe(
    U(vf.toNextBlk) + U(vf.exported) + U(vf.feesCollected) + burned,
  );
  const r1 = st.r1 as { totalBalance: CurrencyCollection };
  expect(U(r1.totalBalance)).toBe(U(vf.toNextBlk));
  return blk;
}

function leafCell(v: ShardAccount): Cell {
  const acc = v.account as unknown as { pruned?: boolean; cell?: Cell };
  const accountCell = acc.pruned ? (acc.cell as Cell) : accountCellOf(v);
  return beginCell().storeRef(accountCell).storeBuffer(v.lastTransHash).storeUint(v.lastTransLt, 64).endCell();
}

function accountCellOf(v: ShardAccount): Cell {
  return beginCell()
    .store(storeAccountOrNone(v.account as never))
    .endCell();
}

function accountCellInPrev(state: Cell, addr: Buffer): Cell {
  const st = loadShardStateUnsplit(state.beginParse());
  const key = BigInt(`0x${addr.toString('hex')}`);
  const e = augDictEntries(st.accounts as never, 256, {
    loadValue: (s) => {
      const account = s.loadRef();
      s.skip(256 + 64);
      return account;
    },
    storeValue: () => () => {},
    loadExtra: (s) => {
      s.loadUint(5);
      s.loadCoins();
      s.loadMaybeRef();
    },
    storeExtra: () => () => {},
    combine: () => undefined,
    empty: () => undefined,
  } as AugDictCodec<Cell, void>).entries.find((x) => x.key === key);
  return e ? e.value : beginCell().storeBit(false).endCell();
}

/** Masterchain-only checks: shard_hashes list the real shard tops; the signature verifies. */
export function checkMcBlock(b: CollatedMcBlock, shardTops: readonly ChainTop[], validatorPublicKey: Buffer): void {
  const blk = loadBlockCell(b.block);
  const custom = blk.extra.custom;
  if (!custom) throw new Error('masterchain block without McBlockExtra');
  const listed = listShards(custom.shardHashes);
  for (const top of shardTops) {
    const l = listed.find((x) => x.workchain === top.id.workchain && x.shard === top.id.shard);
    expect(l).toBeDefined();
    const d = l?.descr;
    expect(d?.seqNo).toBe(top.id.seqno);
    expect(d?.rootHash.equals(top.id.rootHash)).toBe(true);
    expect(d?.fileHash.equals(top.id.fileHash)).toBe(true);
    if (top.block) {
      const ti = loadBlockCell(top.block);
      expect(d?.startLt).toBe(ti.info.startLt);
      expect(d?.endLt).toBe(ti.info.endLt);
      expect(d?.genUtime).toBe(ti.info.genUtime);
      expect(d?.beforeSplit).toBe(ti.info.beforeSplit);
      expect(d?.minRefMcSeqno).toBe(ti.info.minRefMcSeqno);
      expect(d?.nextValidatorShard).toBe(top.id.shard);
    }
  }
  // ShardFees: one entry per shard registered now, its fees and created value those of the block's ShardDescr.
  for (const e of custom.shardFees.entries) {
    const wc = Number(BigInt.asIntN(32, e.key >> 64n));
    const shard = e.key & ((1n << 64n) - 1n);
    const d = listed.find((x) => x.workchain === wc && x.shard === shard)?.descr;
    expect(e.value.fees.coins).toBe(d?.feesCollected.coins);
    expect(e.value.create.coins).toBe(d?.fundsCreated.coins);
    expect(e.extra.fees.coins).toBe(e.value.fees.coins);
  }
  const fees = buildAugDictRoot(custom.shardFees.entries, 96, shardFeesCodec);
  const feesSlice = ((b.block.refs[3] as Cell).refs[3] as Cell).beginParse();
  feesSlice.skip(16 + 1);
  feesSlice.loadMaybeRef();
  expect(feesSlice.loadMaybeRef()?.hash().toString('hex')).toBe(fees.root?.hash().toString('hex'));
  expect(blk.valueFlow.feesImported.coins).toBe(custom.shardFees.entries.reduce((x, e) => x + e.value.fees.coins, 0n));

  // McStateExtra lists the same shard configuration as the block.
  const st = loadShardStateUnsplit(b.state.beginParse());
  const extra = st.custom as { shardHashes: Cell | null };
  const blockShardHashes = (b.block.refs[3] as Cell).refs[3] as Cell;
  const sh = blockShardHashes.beginParse();
  sh.skip(16 + 1);
  const root = sh.loadMaybeRef();
  expect(root?.hash().equals(extra.shardHashes?.hash() ?? Buffer.alloc(0))).toBe(true);
  // The signature: ed25519 over TL ton.blockId by the validator whose node id is sha256(TL pub.ed25519).
  const tl = Buffer.concat([Buffer.from('706e0bc5', 'hex'), b.id.rootHash, b.id.fileHash]);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), validatorPublicKey]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  expect(b.signatures.length).toBe(1);
  const sig = b.signatures[0];
  expect(sig && verify(null, tl, key, sig.signature)).toBe(true);
  const nodeId = createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(validatorPublicKey).digest();
  expect(sig?.nodeIdShort.equals(nodeId)).toBe(true);
}
