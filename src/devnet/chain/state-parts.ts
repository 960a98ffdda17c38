// Small pieces of state and block assembly shared by shard and masterchain collation: the OutMsgQueueInfo,
// logical-time alignment, block load classification and the block file.
import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import {
  type BlockLimits,
  buildOutMsgQueue,
  buildProcessedInfo,
  type OutMsgQueueInfo,
  outMsgQueueEntries,
  processedInfoEntries,
  serializeBoc,
} from '../../ton/index.ts';
import type { QueueEntry } from './engine.ts';
import type { ProcessedUptoRec } from './msg-queue.ts';

/** ConfigInfo::get_lt_align: blocks start at multiples of 10^6. */
export const LT_ALIGN = 1_000_000n;

/** Collator::init_lt: round up to the alignment (an already aligned non-zero lt stays). */
export function alignStartLt(lt: bigint): bigint {
  const incr = LT_ALIGN - (lt % LT_ALIGN);
  return incr < LT_ALIGN || lt === 0n ? lt + incr : lt;
}

export function readQueue(info: OutMsgQueueInfo): Map<bigint, QueueEntry> {
  const out = new Map<bigint, QueueEntry>();
  for (const e of outMsgQueueEntries(info.outQueue).entries) {
    out.set(e.key, { enqueuedLt: e.value.enqueuedLt, envelope: e.value.outMsg, lt: e.extra });
  }
  return out;
}

export function readProcessed(info: OutMsgQueueInfo): ProcessedUptoRec[] {
  return processedInfoEntries(info.procInfo).entries.map((e) => ({
    shard: e.shard,
    mcSeqno: e.mcSeqno,
    lastMsgLt: e.value.lastMsgLt,
    lastMsgHash: e.value.lastMsgHash,
  }));
}

/** Collator::compute_out_msg_queue_info; the dispatch queue is always empty (messages are never deferred). */
export function buildQueueInfo(
  queue: ReadonlyMap<bigint, QueueEntry>,
  processed: readonly ProcessedUptoRec[],
  storeQueueSize: boolean,
): OutMsgQueueInfo {
  const outQueue = buildOutMsgQueue(
    [...queue].map(([key, q]) => ({ key, value: { enqueuedLt: q.enqueuedLt, outMsg: q.envelope }, extra: q.lt })),
  );
  const procInfo = buildProcessedInfo(
    processed.map((p) => ({
      shard: p.shard,
      mcSeqno: p.mcSeqno,
      value: { lastMsgLt: p.lastMsgLt, lastMsgHash: p.lastMsgHash },
    })),
  );
  const extra = storeQueueSize ? { dispatchQueue: { root: null, extra: 0n }, outQueueSize: BigInt(queue.size) } : null;
  return { outQueue, procInfo, extra };
}

/** Collator::history_weight. */
export function historyWeight(h: bigint): number {
  const bits = (x: bigint) => {
    let n = 0;
    for (let v = x; v > 0n; v &= v - 1n) n++;
    return n;
  };
  return bits(h & 0xffffn) * 3 + bits(h & 0xffff0000n) * 2 + bits(h & 0xffff00000000n) - ((3 + 2 + 1) * 16 * 2) / 3;
}

/**
 * BlockLimitStatus::classify on the two measures the devnet tracks (gas and lt delta; block size is not
 * estimated): 0 underload, 1 normal, 2 soft, 3 medium, 4 hard.
 */
export function classifyLoad(limits: BlockLimits | null, gas: bigint, ltDelta: bigint): number {
  if (!limits) return 0;
  const cls = (v: bigint, p: { underload: number; softLimit: number; hardLimit: number }) => {
    const marks = [p.underload, p.softLimit, Math.floor((p.softLimit + p.hardLimit) / 2), p.hardLimit];
    let c = 0;
    for (const m of marks) if (v >= BigInt(m)) c++;
    return c;
  };
  return Math.max(cls(gas, limits.gas), cls(ltDelta, limits.ltDelta));
}

/** Collator::check_block_overload: new histories and the want_split / want_merge flags. */
export function blockOverload(
  overloadHistory: bigint,
  underloadHistory: bigint,
  cls: number,
): { overloadHistory: bigint; underloadHistory: bigint; wantSplit: boolean; wantMerge: boolean } {
  const mask = (1n << 64n) - 1n;
  let over = (overloadHistory << 1n) & mask;
  let under = (underloadHistory << 1n) & mask;
  if (cls >= 2) over |= 1n;
  else if (cls <= 0) under |= 1n;
  const wantSplit = historyWeight(over) >= 0;
  const wantMerge = !wantSplit && historyWeight(under) >= 0;
  return { overloadHistory: over, underloadHistory: under, wantSplit, wantMerge };
}

/** The block (or zero-state) file as the node writes it (BagOfCells mode 31) and its sha256. */
export function chainFile(root: Cell): { boc: Buffer; fileHash: Buffer } {
  const boc = serializeBoc([root], { idx: true, crc32: true, cacheBits: true, hashes: true });
  return { boc, fileHash: createHash('sha256').update(boc).digest() };
}
