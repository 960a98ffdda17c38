// The part of a collation shared by shard and masterchain blocks (validator/impl/collator.cpp): clean the
// OutMsgQueue of messages the neighbours have imported, import inbound internal messages from the neighbours'
// queues in (lt, hash) order, run external messages, enqueue every new internal message (never delivered in the
// block that created it), and assemble InMsgDescr, OutMsgDescr and ShardAccountBlocks from the emulator's cells.
import { Address, beginCell, type Cell, type CurrencyCollection } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type AccountBlock,
  type AugEntry,
  addCurrencies,
  type ImportFees,
  type InMsg,
  type Message,
  type MsgEnvelope,
  type MsgMetadata,
  messageFromCell,
  type OutMsg,
  type ShardAccounts,
  shardContains,
  storeMsgEnvelope,
  transactionFromCell,
  zeroCurrencies,
} from '../../ton/index.ts';
import type { PrevBlocksInfo } from '../../tvm/index.ts';
import { type AccountRecord, emptyAccountRecord, lookupAccount, readShardAccount } from './account-dict.ts';
import { CAP, type ChainConfig, hasCapability } from './config-view.ts';
import {
  type AddrPrefix,
  addrPrefix,
  alreadyProcessed,
  describeEnqueued,
  type EnqueuedMsgDescr,
  hypercubeRoute,
  interpolateAddr,
  type ProcessedUptoRec,
  prefixInShard,
  queueKey,
} from './msg-queue.ts';
import type { BlockTransaction, ChainTvm, OutboundMessage, RejectedMessage } from './types.ts';

/** An OutMsgQueue entry: EnqueuedMsg and the leaf's augmentation (the message's emitted or created lt). */
export interface QueueEntry {
  enqueuedLt: bigint;
  envelope: Cell;
  lt: bigint;
}

/** A neighbour as the collator sees it: its OutMsgQueue, its ProcessedInfo and its block's end lt. */
export interface Neighbor {
  workchain: number;
  shard: bigint;
  endLt: bigint;
  queue: ReadonlyMap<bigint, QueueEntry>;
  processed: readonly ProcessedUptoRec[];
  /** This chain's own previous state (the node's "trivial neighbour"). */
  own: boolean;
  /** The parent of this shard, right after a split (its queue minus our part is the sibling's). */
  parentOfOwn?: boolean;
}

interface NewMsg {
  lt: bigint;
  cell: Cell;
  msg: Message;
  transaction: Cell;
  metadata: MsgMetadata | null;
}

interface AccountTxs {
  orig: AccountRecord;
  txs: AugEntry<Cell, CurrencyCollection>[];
  fees: CurrencyCollection;
}

export interface EngineInit {
  workchain: number;
  shard: bigint;
  config: ChainConfig;
  now: number;
  startLt: bigint;
  randSeed: Buffer;
  libs: Cell | null;
  prevBlocks: PrevBlocksInfo;
  tvm: ChainTvm;
  /** ShardAccounts before the block. */
  baseAccounts: ShardAccounts;
  queue: Map<bigint, QueueEntry>;
  processed: ProcessedUptoRec[];
  /** compute_shard_end_lt for ProcessedUpto checks: the end lt masterchain block `mcSeqno` lists for `cur`. */
  shardEndLt: (cur: AddrPrefix, mcSeqno: number) => bigint;
}

export interface Engine extends EngineInit {
  /** Accounts read or changed by this block, by account id (hex), at their latest version. */
  accounts: Map<string, AccountRecord>;
  maxLt: bigint;
  lastProcInt: { lt: bigint; hash: Buffer } | null;
  gasUsed: bigint;
  inMsgs: AugEntry<InMsg, ImportFees>[];
  outMsgs: AugEntry<OutMsg, CurrencyCollection>[];
  touched: Map<string, AccountTxs>;
  newMsgs: NewMsg[];
  transactions: BlockTransaction[];
  rejected: RejectedMessage[];
  outbound: OutboundMessage[];
  externalOut: Cell[];
  /** Whether every neighbour queue was read to its end (inbound_queues_empty_). */
  inboundQueuesEmpty: boolean;
}

export function createEngine(init: EngineInit): Engine {
  return {
    ...init,
    accounts: new Map(),
    maxLt: init.startLt,
    lastProcInt: null,
    gasUsed: 0n,
    inMsgs: [],
    outMsgs: [],
    touched: new Map(),
    newMsgs: [],
    transactions: [],
    rejected: [],
    outbound: [],
    externalOut: [],
    inboundQueuesEmpty: true,
  };
}

const hexOf = (b: Buffer): string => b.toString('hex');
const keyOf = (hash: Buffer): bigint => BigInt(`0x${hash.toString('hex')}`);

function ihrFee(e: Engine, extraFlags: bigint): bigint {
  // Before global version 12 the extra_flags field was ihr_fee and counted in the exported/imported value.
  return e.config.globalVersion.version >= 12 ? 0n : extraFlags;
}

/** value + ihr_fee + fwd_fee_remaining in grams, the value's extra currencies (Aug_OutMsgDescr / ImportFees). */
function carriedValue(e: Engine, env: { fwdFeeRemaining: bigint }, msg: Message): CurrencyCollection {
  if (msg.info.kind !== 'int_msg_info') return zeroCurrencies();
  const v = msg.info.value;
  const coins = v.coins + ihrFee(e, msg.info.extraFlags) + env.fwdFeeRemaining;
  return v.other && v.other.size > 0 ? { coins, other: v.other } : { coins };
}

/** The account as the block's transactions so far left it. */
function currentAccount(e: Engine, hex: string): AccountRecord {
  return e.accounts.get(hex) ?? lookupAccount(e.baseAccounts, hex) ?? emptyAccountRecord();
}

const minLtAfter = (e: Engine, afterLt: bigint): bigint => (e.startLt > afterLt ? e.startLt : afterLt) + 1n;

type Emulated = Awaited<ReturnType<ChainTvm['runTransaction']>>;

/** One emulator call; everything else it reads (time, seed, config, libraries, prev blocks) is fixed per block. */
function emulate(e: Engine, msgCell: Cell, rec: AccountRecord, minLt: bigint): Promise<Emulated> {
  return e.tvm.runTransaction({
    shardAccount: rec.cell,
    message: msgCell,
    now: e.now,
    lt: minLt,
    randomSeed: e.randSeed,
    config: e.config.root,
    libs: e.libs,
    prevBlocksInfo: e.prevBlocks,
  });
}

/**
 * A transaction run ahead of its turn (speculate()), on the account state the runs before it in the same batch
 * leave. Used only when, at its turn, the account and the minimal lt are exactly what it ran on.
 */
interface Speculation {
  minLt: bigint;
  /** The account state it ran on; set once the run before it on the same account has ended. */
  rec?: AccountRecord;
  run: Promise<Emulated>;
}

/** Messages to run in order, each on the account it names, after `afterLt`. */
type Batch = Array<{ msgCell: Cell; account: Buffer; afterLt: bigint }>;

/** How many runs speculate() keeps started ahead of the one being applied (the TVM runner's queue is bounded). */
const AHEAD = 32;

/**
 * Starts the emulations of a batch of messages ahead of their turn, chained per account (a message waits for the
 * one before it to the same account and runs on the state that one leaves; one whose run failed leaves the state as
 * it was), so that the TVM threads work while the collator applies results in order. Every input of a run other
 * than the account is fixed per block, so a run whose account and minimal lt match at its turn gives the very
 * transaction the in-order run would; one that does not match (an earlier message was skipped or refused) runs
 * again then. `take(i)` gives message i's run and starts those up to i + AHEAD.
 */
function speculate(e: Engine, batch: Batch): { take(i: number): Speculation | undefined } {
  const lastOf = new Map<string, Speculation>();
  const specs: Speculation[] = [];
  const start = (i: number): Speculation => {
    const { msgCell, account, afterLt } = batch[i]!;
    const hex = hexOf(account);
    const minLt = minLtAfter(e, afterLt);
    const before = lastOf.get(hex);
    let spec: Speculation;
    if (before === undefined) {
      const rec = currentAccount(e, hex);
      spec = { minLt, rec, run: emulate(e, msgCell, rec, minLt) };
    } else {
      spec = {
        minLt,
        run: before.run.then((r) => {
          const rec = r.ok ? readShardAccount(r.shardAccount) : (before.rec as AccountRecord);
          spec.rec = rec;
          return emulate(e, msgCell, rec, minLt);
        }),
      };
    }
    spec.run.catch(() => {}); // awaited at its turn, or dropped
    lastOf.set(hex, spec);
    return spec;
  };
  return {
    take(i) {
      while (specs.length < batch.length && specs.length <= i + AHEAD) specs.push(start(specs.length));
      return specs[i];
    },
  };
}

/** Runs one message on one account through the emulator (Collator::create_ordinary_transaction). */
async function runOrdinary(
  e: Engine,
  msgCell: Cell,
  account: Buffer,
  afterLt: bigint,
  metadataIn: MsgMetadata | null | 'external',
  spec?: Speculation,
): Promise<{ ok: true; tx: Cell } | { ok: false; error: string; exitCode: number | null }> {
  const hex = hexOf(account);
  const rec = currentAccount(e, hex);
  const minLt = minLtAfter(e, afterLt);
  let res: Emulated | undefined;
  if (spec !== undefined) {
    const ahead = await spec.run.catch(() => undefined);
    if (ahead !== undefined && spec.minLt === minLt && spec.rec?.cell.equals(rec.cell)) {
      res = ahead;
    }
  }
  res ??= await emulate(e, msgCell, rec, minLt);
  if (!res.ok) {
    if (metadataIn === 'external') return { ok: false, error: res.error, exitCode: res.exitCode };
    throw new CollateError(`emulator could not run an internal message on ${e.workchain}:${hex}: ${res.error}`);
  }
  const tx = transactionFromCell(res.transaction);
  if (!tx.accountAddr.equals(account)) throw new CollateError(`emulator returned a transaction of another account`);
  const next = readShardAccount(res.shardAccount);
  if (next.lastTransLt !== tx.lt || !next.lastTransHash.equals(res.transaction.hash())) {
    throw new CollateError(`emulator returned a ShardAccount that does not point at its transaction (${hex})`);
  }
  let t = e.touched.get(hex);
  if (!t) {
    t = { orig: rec, txs: [], fees: zeroCurrencies() };
    e.touched.set(hex, t);
  }
  t.txs.push({ key: tx.lt, value: res.transaction, extra: tx.totalFees });
  t.fees = addCurrencies(t.fees, tx.totalFees);
  e.accounts.set(hex, next);
  e.transactions.push({ account, lt: tx.lt, hash: res.transaction.hash(), cell: res.transaction });
  const endLt = tx.lt + 1n + BigInt(tx.outMsgs.length);
  if (endLt > e.maxLt) e.maxLt = endLt;
  const d = tx.description;
  if (d.kind === 'trans_ord' && d.computePh.kind === 'tr_phase_compute_vm') e.gasUsed += d.computePh.gasUsed;

  // register_new_msgs: external and special transactions start a trace; internal ones extend the inbound one's.
  let metadata: MsgMetadata | null = null;
  if (hasCapability(e.config, CAP.msgMetadata)) {
    if (metadataIn === 'external') {
      metadata = { depth: 0, initiatorAddr: new Address(e.workchain, account), initiatorLt: tx.lt };
    } else if (metadataIn) {
      metadata = { ...metadataIn, depth: metadataIn.depth + 1 };
    }
  }
  tx.outMsgs.forEach((m, i) => {
    if (!m.raw) throw new CollateError('transaction out message without its cell');
    e.newMsgs.push({
      lt: tx.lt + 1n + BigInt(i),
      cell: m.raw,
      msg: m,
      transaction: res.transaction,
      metadata,
    });
  });
  return { ok: true, tx: res.transaction };
}

function queueEntries(n: Neighbor, workchain: number, shard: bigint): Array<[bigint, QueueEntry]> {
  const out: Array<[bigint, QueueEntry]> = [];
  for (const [key, q] of n.queue) {
    const wc = Number(BigInt.asIntN(32, key >> 320n));
    const pfx = (key >> 256n) & ((1n << 64n) - 1n);
    if (wc === workchain && shardContains(shard, pfx)) out.push([key, q]);
  }
  return out;
}

/** out_msg_queue_cleanup: dequeue our messages a neighbour has already imported (msg_export_deq[_short]). */
export function dequeueDelivered(e: Engine, neighbors: readonly Neighbor[]): void {
  const short = hasCapability(e.config, CAP.shortDequeue);
  for (const [key, q] of [...e.queue]) {
    const d = describeEnqueued(key, q.enqueuedLt, q.envelope);
    const nb = neighbors.find((n) => prefixInShard(d.next, n.workchain, n.shard));
    if (!nb || nb.own) continue;
    if (!alreadyProcessed(nb.processed, nb.workchain, nb.shard, d, e.shardEndLt)) continue;
    e.queue.delete(key);
    const value: OutMsg = short
      ? {
          kind: 'msg_export_deq_short',
          msgEnvHash: q.envelope.hash(),
          nextWorkchain: d.next.workchain,
          nextAddrPfx: d.next.prefix,
          importBlockLt: nb.endLt,
        }
      : { kind: 'msg_export_deq', outMsg: d.envelope, importBlockLt: nb.endLt };
    e.outMsgs.push({ key: keyOf(d.hash), value, extra: zeroCurrencies() });
  }
}

/** process_inbound_internal_messages: every queued message for us, in (lt, hash) order, by a transaction. */
export async function processInbound(e: Engine, neighbors: readonly Neighbor[]): Promise<void> {
  const all: Array<{ d: EnqueuedMsgDescr; nb: Neighbor }> = [];
  for (const nb of neighbors) {
    for (const [key, q] of queueEntries(nb, e.workchain, e.shard)) {
      const d = describeEnqueued(key, q.enqueuedLt, q.envelope);
      if (q.lt !== d.lt) throw new CollateError('OutMsgQueue: an entry augmentation differs from its message lt');
      // Right after a split the parent's queue is shared: the part whose current address is ours is our queue.
      if (!nb.own && nb.parentOfOwn && prefixInShard(d.cur, e.workchain, e.shard)) continue;
      all.push({ d, nb });
    }
  }
  all.sort((a, b) => (a.d.lt < b.d.lt ? -1 : a.d.lt > b.d.lt ? 1 : Buffer.compare(a.d.hash, b.d.hash)));
  const handled = all.map(({ d }) => alreadyProcessed(e.processed, e.workchain, e.shard, d, e.shardEndLt));
  // The messages the loop below will run (it skips the others, or refuses the block for them), started ahead.
  const runs: Batch = [];
  const runOf = new Map<number, number>();
  for (const [i, { d }] of all.entries()) {
    const dest = d.info.dest;
    if (handled[i] || dest.kind !== 'addr_std') continue;
    runOf.set(i, runs.length);
    runs.push({ msgCell: d.msgCell, account: dest.address, afterLt: 0n });
  }
  const ahead = speculate(e, runs);
  for (const [i, { d, nb }] of all.entries()) {
    if (!prefixInShard(d.cur, nb.workchain, nb.shard)) {
      throw new CollateError('inbound message: its current address is not in the neighbour it came from');
    }
    if (handled[i]) continue;
    if (
      e.lastProcInt &&
      (d.lt < e.lastProcInt.lt || (d.lt === e.lastProcInt.lt && Buffer.compare(d.hash, e.lastProcInt.hash) <= 0))
    ) {
      throw new CollateError('inbound messages out of (lt, hash) order');
    }
    e.lastProcInt = { lt: d.lt, hash: d.hash };
    if (!prefixInShard(d.dest, e.workchain, e.shard)) {
      throw new CollateError('transit messages (hypercube hops through a third shard) are not supported by the devnet');
    }
    const dest = d.info.dest;
    if (dest.kind !== 'addr_std') throw new CollateError('inbound message to a non-standard address');
    const metadata = d.envelope.kind === 'msg_envelope_v2' ? d.envelope.metadata : null;
    const at = runOf.get(i);
    const run = await runOrdinary(
      e,
      d.msgCell,
      dest.address,
      0n,
      metadata,
      at === undefined ? undefined : ahead.take(at),
    );
    if (!run.ok) throw new CollateError(`internal message not processed: ${run.error}`);
    const inMsg: InMsg = {
      kind: 'msg_import_fin',
      inMsg: d.envelope,
      transaction: run.tx,
      fwdFee: d.envelope.fwdFeeRemaining,
    };
    const value = carriedValue(e, d.envelope, messageFromCell(d.msgCell));
    e.inMsgs.push({
      key: keyOf(d.hash),
      value: inMsg,
      extra: { feesCollected: d.envelope.fwdFeeRemaining, valueImported: value },
    });
    if (prefixInShard(d.cur, e.workchain, e.shard)) {
      // Our own queued message: dequeue it in the same block (msg_export_deq_imm).
      e.outMsgs.push({
        key: keyOf(d.hash),
        value: { kind: 'msg_export_deq_imm', outMsg: d.envelope, reimport: inMsg },
        extra: zeroCurrencies(),
      });
      e.queue.delete(d.key);
    }
  }
}

/** process_inbound_external_messages: each accepted external by a transaction, the others rejected. */
export async function processExternals(e: Engine, externals: readonly Cell[]): Promise<void> {
  const after = e.lastProcInt ? e.lastProcInt.lt : 0n;
  // Each external read once: its message, or why it is none.
  const parsed = externals.map((cell): Message | Error => {
    try {
      return messageFromCell(cell);
    } catch (err) {
      return err as Error;
    }
  });
  const inBlock = new Set(e.inMsgs.map((m) => m.key));
  // The messages the loop below will most likely run, started ahead (a guess: a mismatch only costs a second run).
  const runs: Batch = [];
  const runOf = new Map<number, number>();
  const planned = new Set(inBlock);
  for (const [i, cell] of externals.entries()) {
    const msg = parsed[i] as Message | Error;
    if (msg instanceof Error || msg.info.kind !== 'ext_in_msg_info') continue;
    const dest = msg.info.dest;
    const key = keyOf(cell.hash());
    if (dest.kind !== 'addr_std' || !prefixInShard(addrPrefix(dest), e.workchain, e.shard) || planned.has(key))
      continue;
    planned.add(key);
    runOf.set(i, runs.length);
    runs.push({ msgCell: cell, account: dest.address, afterLt: after });
  }
  const ahead = speculate(e, runs);
  for (const [i, cell] of externals.entries()) {
    const hash = cell.hash();
    const key = keyOf(hash);
    const reject = (error: string, exitCode: number | null = null) => {
      e.rejected.push({ message: cell, hash, error, exitCode });
    };
    const msg = parsed[i] as Message | Error;
    if (msg instanceof Error) {
      reject(`not a valid message: ${msg.message}`);
      continue;
    }
    if (msg.info.kind !== 'ext_in_msg_info') {
      reject('not an inbound external message');
      continue;
    }
    const dest = msg.info.dest;
    if (dest.kind !== 'addr_std' || !prefixInShard(addrPrefix(dest), e.workchain, e.shard)) {
      reject(`destination is not in shard ${e.workchain}:${e.shard.toString(16)}`);
      continue;
    }
    if (inBlock.has(key)) {
      reject('duplicate of a message already in this block');
      continue;
    }
    const at = runOf.get(i);
    const run = await runOrdinary(
      e,
      cell,
      dest.address,
      after,
      'external',
      at === undefined ? undefined : ahead.take(at),
    );
    if (!run.ok) {
      reject(run.error, run.exitCode);
      continue;
    }
    inBlock.add(key);
    e.inMsgs.push({
      key,
      value: { kind: 'msg_import_ext', msg: cell, transaction: run.tx },
      extra: { feesCollected: 0n, valueImported: zeroCurrencies() },
    });
  }
}

/** process_new_messages(enqueue_only): external outs to OutMsgDescr, internal ones into our OutMsgQueue. */
export function enqueueNewMessages(e: Engine): void {
  const metadataOn = hasCapability(e.config, CAP.msgMetadata);
  for (const m of [...e.newMsgs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0))) {
    const hash = m.cell.hash();
    if (m.msg.info.kind === 'ext_out_msg_info') {
      e.outMsgs.push({
        key: keyOf(hash),
        value: { kind: 'msg_export_ext', msg: m.cell, transaction: m.transaction },
        extra: zeroCurrencies(),
      });
      e.externalOut.push(m.cell);
      continue;
    }
    if (m.msg.info.kind !== 'int_msg_info')
      throw new CollateError('a transaction produced an inbound external message');
    const info = m.msg.info;
    const src = addrPrefix(info.src);
    const dest = addrPrefix(info.dest);
    const route = hypercubeRoute(src, dest, e.workchain, e.shard);
    const envelope: MsgEnvelope =
      metadataOn && m.metadata
        ? {
            kind: 'msg_envelope_v2',
            curAddr: { kind: 'interm_addr_regular', useDestBits: route.cur },
            nextAddr: { kind: 'interm_addr_regular', useDestBits: route.next },
            fwdFeeRemaining: info.fwdFee,
            msg: m.cell,
            emittedLt: null,
            metadata: m.metadata,
          }
        : {
            kind: 'msg_envelope',
            curAddr: { kind: 'interm_addr_regular', useDestBits: route.cur },
            nextAddr: { kind: 'interm_addr_regular', useDestBits: route.next },
            fwdFeeRemaining: info.fwdFee,
            msg: m.cell,
          };
    const envCell = beginCell().store(storeMsgEnvelope(envelope)).endCell();
    e.outMsgs.push({
      key: keyOf(hash),
      value: { kind: 'msg_export_new', outMsg: envelope, transaction: m.transaction },
      extra: carriedValue(e, envelope, m.msg),
    });
    const nextHop = interpolateAddr(src, dest, route.next);
    e.queue.set(queueKey(nextHop, hash), { enqueuedLt: m.lt, envelope: envCell, lt: m.lt });
    const destAddr = info.dest;
    if (destAddr.kind !== 'addr_std') throw new CollateError('internal message to a non-standard address');
    e.outbound.push({
      message: m.cell,
      hash,
      envelope: envCell,
      destination: new Address(destAddr.workchainId, destAddr.address),
      createdLt: m.lt,
    });
  }
  e.newMsgs = [];
}

/** combine_account_transactions: one AccountBlock per account with transactions, HASH_UPDATE of its Account. */
export function accountBlocks(e: Engine): AugEntry<AccountBlock, CurrencyCollection>[] {
  const out: AugEntry<AccountBlock, CurrencyCollection>[] = [];
  for (const [hex, t] of e.touched) {
    const cur = e.accounts.get(hex) as AccountRecord;
    out.push({
      key: BigInt(`0x${hex}`),
      value: {
        accountAddr: Buffer.from(hex, 'hex'),
        transactions: { entries: t.txs, extra: t.fees, pruned: 0 },
        stateUpdate: { oldHash: t.orig.account.hash(), newHash: cur.account.hash() },
      },
      extra: t.fees,
    });
  }
  return out;
}
