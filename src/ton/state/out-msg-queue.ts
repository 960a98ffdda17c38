// block.tlb:239
//   _ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg;
// block.tlb:243-260
//   _ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue;
//
//   processed_upto$_ last_msg_lt:uint64 last_msg_hash:bits256 = ProcessedUpto;
//   // key is [ shard:uint64 mc_seqno:uint32 ]
//   _ (HashmapE 96 ProcessedUpto) = ProcessedInfo;
//
//   ihr_pending$_ import_lt:uint64 = IhrPendingSince;
//   _ (HashmapE 320 IhrPendingSince) = IhrPendingInfo;
//
//   // key - created_lt
//   _ messages:(HashmapE 64 EnqueuedMsg) count:uint48 = AccountDispatchQueue;
//   // key - sender address, aug - min created_lt
//   _ (HashmapAugE 256 AccountDispatchQueue uint64) = DispatchQueue;
//
//   out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48) = OutMsgQueueExtra;
//
//   _ out_queue:OutMsgQueue proc_info:ProcessedInfo
//     extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;
//
// IhrPendingInfo is no longer part of OutMsgQueueInfo: its slot became `extra` (an empty ihr_pending was the
// same single 0 bit as `extra` = nothing), so older states read the same way.
import type { Builder, Cell, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, expectTag } from '../block/codec-util.ts';
import type { AugDict, AugDictCodec, AugEntry } from '../dict/index.ts';
import {
  type AugDictRoot,
  augDictEntries,
  buildAugDictRoot,
  buildDictRoot,
  type DictEntries,
  type DictRoot,
  dictEntries,
  loadAugDictRoot,
  loadDictRoot,
  storeAugDictRoot,
  storeDictRoot,
} from './dict-root.ts';

const U64_MAX = (1n << 64n) - 1n;
const U48_MAX = (1n << 48n) - 1n;

export interface EnqueuedMsg {
  enqueuedLt: bigint;
  /** ^MsgEnvelope, as it arrived (decode with block/'s loadMsgEnvelope). */
  outMsg: Cell;
}

export function loadEnqueuedMsg(s: Slice): EnqueuedMsg {
  return decoding('EnqueuedMsg', () => ({ enqueuedLt: s.loadUintBig(64), outMsg: s.loadRef() }));
}

export function storeEnqueuedMsg(v: EnqueuedMsg): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.enqueuedLt, 64).storeRef(v.outMsg);
  };
}

function loadUint64(s: Slice): bigint {
  return s.loadUintBig(64);
}

function storeUint64(v: bigint): (b: Builder) => void {
  return (b) => {
    b.storeUint(v, 64);
  };
}

function minLt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** Aug_OutMsgQueue: a leaf's extra is its message's emitted (or created) lt; a fork takes the minimum. */
export const outMsgQueueCodec: AugDictCodec<EnqueuedMsg, bigint> = {
  loadValue: loadEnqueuedMsg,
  storeValue: storeEnqueuedMsg,
  loadExtra: loadUint64,
  storeExtra: storeUint64,
  combine: minLt,
  empty: () => 0n,
};

/** OutMsgQueue as it arrived; keys are [ workchain:int32 next-hop prefix:uint64 msg hash:bits256 ]. */
export type OutMsgQueue = AugDictRoot<bigint>;

export function outMsgQueueEntries(v: OutMsgQueue): AugDict<EnqueuedMsg, bigint> {
  return decoding('OutMsgQueue', () => augDictEntries(v, 352, outMsgQueueCodec));
}

export function buildOutMsgQueue(entries: AugEntry<EnqueuedMsg, bigint>[]): OutMsgQueue {
  return buildAugDictRoot(entries, 352, outMsgQueueCodec);
}

export interface ProcessedUpto {
  lastMsgLt: bigint;
  lastMsgHash: Buffer;
}

export function loadProcessedUpto(s: Slice): ProcessedUpto {
  return decoding('ProcessedUpto', () => ({ lastMsgLt: s.loadUintBig(64), lastMsgHash: s.loadBuffer(32) }));
}

export function storeProcessedUpto(v: ProcessedUpto): (b: Builder) => void {
  if (v.lastMsgHash.length !== 32) {
    throw new CodecError(`ProcessedUpto: expected last_msg_hash of 32 bytes, got ${v.lastMsgHash.length}`);
  }
  return (b) => {
    b.storeUint(v.lastMsgLt, 64).storeBuffer(v.lastMsgHash, 32);
  };
}

/** ProcessedInfo as it arrived (a HashmapE 96 root). */
export type ProcessedInfo = DictRoot;

export interface ProcessedInfoEntry {
  shard: bigint;
  mcSeqno: number;
  value: ProcessedUpto;
}

/** The entries present (key [ shard:uint64 mc_seqno:uint32 ]); `pruned` counts subtrees a proof left out. */
export function processedInfoEntries(v: ProcessedInfo): { entries: ProcessedInfoEntry[]; pruned: number } {
  const d = decoding('ProcessedInfo', () => dictEntries(v, 96, loadProcessedUpto));
  return {
    entries: d.entries.map(({ key, value }) => ({ shard: key >> 32n, mcSeqno: Number(key & 0xffffffffn), value })),
    pruned: d.pruned,
  };
}

export function buildProcessedInfo(entries: ProcessedInfoEntry[]): ProcessedInfo {
  const keyed = entries.map((e) => ({ key: (e.shard << 32n) | BigInt(e.mcSeqno), value: e.value }));
  return buildDictRoot(keyed, 96, storeProcessedUpto);
}

export interface AccountDispatchQueue {
  /** HashmapE 64 EnqueuedMsg keyed by created_lt, as it arrived. */
  messages: DictRoot;
  count: bigint;
}

export function loadAccountDispatchQueue(s: Slice): AccountDispatchQueue {
  return decoding('AccountDispatchQueue', () => ({ messages: loadDictRoot(s), count: s.loadUintBig(48) }));
}

export function storeAccountDispatchQueue(v: AccountDispatchQueue): (b: Builder) => void {
  if (v.count < 0n || v.count > U48_MAX)
    throw new CodecError(`AccountDispatchQueue: count ${v.count} does not fit uint48`);
  return (b) => {
    b.store(storeDictRoot(v.messages)).storeUint(v.count, 48);
  };
}

/** The account's deferred messages keyed by created_lt; `pruned` counts subtrees a proof left out. */
export function accountDispatchQueueMessages(v: AccountDispatchQueue): DictEntries<EnqueuedMsg> {
  return decoding('AccountDispatchQueue', () => dictEntries(v.messages, 64, loadEnqueuedMsg));
}

/** A DispatchQueue leaf's extra (Aug_DispatchQueue): its smallest created_lt, or 2^64-1 without messages. */
export function accountDispatchQueueExtra(v: AccountDispatchQueue): bigint {
  const d = accountDispatchQueueMessages(v);
  if (d.pruned > 0) throw new CodecError('AccountDispatchQueue: cannot compute the extra, messages are pruned');
  return d.entries.length === 0 ? U64_MAX : d.entries[0]!.key;
}

export const dispatchQueueCodec: AugDictCodec<AccountDispatchQueue, bigint> = {
  loadValue: loadAccountDispatchQueue,
  storeValue: storeAccountDispatchQueue,
  loadExtra: loadUint64,
  storeExtra: storeUint64,
  combine: minLt,
  empty: () => 0n,
};

/** DispatchQueue as it arrived; keys are sender account ids. */
export type DispatchQueue = AugDictRoot<bigint>;

export function dispatchQueueEntries(v: DispatchQueue): AugDict<AccountDispatchQueue, bigint> {
  return decoding('DispatchQueue', () => augDictEntries(v, 256, dispatchQueueCodec));
}

export function buildDispatchQueue(entries: AugEntry<AccountDispatchQueue, bigint>[]): DispatchQueue {
  return buildAugDictRoot(entries, 256, dispatchQueueCodec);
}

export interface OutMsgQueueExtra {
  dispatchQueue: DispatchQueue;
  outQueueSize: bigint | null;
}

export function loadOutMsgQueueExtra(s: Slice): OutMsgQueueExtra {
  return decoding('OutMsgQueueExtra', () => {
    expectTag(s, 'OutMsgQueueExtra', 0x0, 4);
    const dispatchQueue = loadAugDictRoot(s, loadUint64);
    const outQueueSize = s.loadBit() ? s.loadUintBig(48) : null;
    return { dispatchQueue, outQueueSize };
  });
}

export function storeOutMsgQueueExtra(v: OutMsgQueueExtra): (b: Builder) => void {
  if (v.outQueueSize !== null && (v.outQueueSize < 0n || v.outQueueSize > U48_MAX)) {
    throw new CodecError(`OutMsgQueueExtra: out_queue_size ${v.outQueueSize} does not fit uint48`);
  }
  return (b) => {
    b.storeUint(0x0, 4).store(storeAugDictRoot(v.dispatchQueue, storeUint64));
    if (v.outQueueSize === null) b.storeBit(false);
    else b.storeBit(true).storeUint(v.outQueueSize, 48);
  };
}

export interface OutMsgQueueInfo {
  outQueue: OutMsgQueue;
  procInfo: ProcessedInfo;
  extra: OutMsgQueueExtra | null;
}

export function loadOutMsgQueueInfo(s: Slice): OutMsgQueueInfo {
  return decoding('OutMsgQueueInfo', () => {
    const outQueue = loadAugDictRoot(s, loadUint64);
    const procInfo = loadDictRoot(s);
    const extra = s.loadBit() ? loadOutMsgQueueExtra(s) : null;
    return { outQueue, procInfo, extra };
  });
}

export function storeOutMsgQueueInfo(v: OutMsgQueueInfo): (b: Builder) => void {
  return (b) => {
    b.store(storeAugDictRoot(v.outQueue, storeUint64)).store(storeDictRoot(v.procInfo));
    if (v.extra === null) b.storeBit(false);
    else b.storeBit(true).store(storeOutMsgQueueExtra(v.extra));
  };
}
