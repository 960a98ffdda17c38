// Internal-message routing between shards, as crypto/block/block.cpp and output-queue-merger.cpp do it:
// hypercube routing (perform_hypercube_routing, interpolate_addr), the OutMsgQueue key
// [next-hop workchain:int32 | next-hop prefix:uint64 | message hash:bits256], and ProcessedUpto records
// (MsgProcessedUpto / MsgProcessedUptoCollection: insert, compactify, already_processed).
import type { Cell } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type IntermediateAddress,
  type IntMsgInfo,
  loadMsgEnvelope,
  MASTERCHAIN,
  type MsgEnvelope,
  messageFromCell,
  shardContains,
  shardIsAncestor,
} from '../../ton/index.ts';

/** AccountIdPrefixFull: a workchain and the first 64 bits of an account id. */
export interface AddrPrefix {
  workchain: number;
  prefix: bigint;
}

const U64 = (1n << 64n) - 1n;

type MsgAddressInt = IntMsgInfo['dest'];

/** The routing prefix of an address (block::tlb::MsgAddressInt::get_prefix): anycast rewrites the top bits. */
export function addrPrefix(a: MsgAddressInt): AddrPrefix {
  let prefix: bigint;
  if (a.kind === 'addr_std') prefix = a.address.readBigUInt64BE(0);
  else {
    let p = 0n;
    for (let i = 0; i < 64; i++) p = (p << 1n) | (i < a.address.length && a.address.at(i) ? 1n : 0n);
    prefix = p;
  }
  if (a.anycast) {
    const depth = a.anycast.rewritePfx.length;
    let pfx = 0n;
    for (let i = 0; i < depth; i++) pfx = (pfx << 1n) | (a.anycast.rewritePfx.at(i) ? 1n : 0n);
    const shift = BigInt(64 - depth);
    prefix = ((pfx << shift) | (prefix & ((1n << shift) - 1n))) & U64;
  }
  return { workchain: a.workchainId, prefix };
}

/** interpolate_addr: the first `d` of 96 bits (32 workchain + 64 prefix) from `dest`, the rest from `src`. */
export function interpolateAddr(src: AddrPrefix, dest: AddrPrefix, d: number): AddrPrefix {
  if (d <= 0) return src;
  if (d >= 96) return dest;
  if (d >= 32) {
    const mask = U64 >> BigInt(d - 32);
    return { workchain: dest.workchain, prefix: (dest.prefix & ~mask & U64) | (src.prefix & mask) };
  }
  const mask = ~0 >>> d;
  return { workchain: (dest.workchain & ~mask) | (src.workchain & mask), prefix: src.prefix };
}

export function prefixInShard(p: AddrPrefix, workchain: number, shard: bigint): boolean {
  return p.workchain === workchain && shardContains(shard, p.prefix);
}

function clz64(x: bigint): number {
  if (x === 0n) return 64;
  let n = 0;
  for (let bit = 1n << 63n; (x & bit) === 0n; bit >>= 1n) n++;
  return n;
}

/**
 * perform_hypercube_routing(src, dest, cur) with used_dest_bits = 0: the use_dest_bits of the envelope's
 * cur_addr and next_addr for a message leaving shard (curWc, curShard).
 */
export function hypercubeRoute(
  src: AddrPrefix,
  dest: AddrPrefix,
  curWc: number,
  curShard: bigint,
): { cur: number; next: number } {
  const transit = src;
  if (!prefixInShard(transit, curWc, curShard)) {
    throw new CollateError(`routing: message source is not in shard ${curWc}:${curShard.toString(16)}`);
  }
  if (prefixInShard(dest, curWc, curShard)) return { cur: 96, next: 96 };
  if (transit.workchain === MASTERCHAIN || dest.workchain === MASTERCHAIN) return { cur: 0, next: 96 };
  if (transit.workchain !== dest.workchain) return { cur: 0, next: 32 };
  const x = curShard & (curShard - 1n);
  const y = curShard | (curShard - 1n);
  const t = transit.prefix;
  const q = dest.prefix ^ t;
  let i = clz64(q) & -4;
  let m = U64 >> BigInt(i);
  let h: bigint;
  do {
    m >>= 4n;
    h = t ^ (q & ~m & U64);
    i += 4;
  } while (h >= x && h <= y);
  return { cur: 28 + i, next: 32 + i };
}

export function intermediateBits(a: IntermediateAddress): number {
  if (a.kind !== 'interm_addr_regular') {
    throw new CollateError(`routing: ${a.kind} intermediate addresses are not produced or handled by the devnet`);
  }
  return a.useDestBits;
}

/** The 352-bit OutMsgQueue key of a message whose next hop is `next`. */
export function queueKey(next: AddrPrefix, msgHash: Buffer): bigint {
  const wc = BigInt.asUintN(32, BigInt(next.workchain));
  return (wc << 320n) | (next.prefix << 256n) | BigInt(`0x${msgHash.toString('hex')}`);
}

/** A queued (or inbound) internal message with everything routing and ProcessedUpto checks need. */
export interface EnqueuedMsgDescr {
  key: bigint;
  /** The message's lt in the queue: emitted_lt of a v2 envelope, else created_lt. */
  lt: bigint;
  enqueuedLt: bigint;
  hash: Buffer;
  envelopeCell: Cell;
  envelope: MsgEnvelope;
  msgCell: Cell;
  info: IntMsgInfo;
  src: AddrPrefix;
  dest: AddrPrefix;
  cur: AddrPrefix;
  next: AddrPrefix;
}

export function describeEnqueued(key: bigint, enqueuedLt: bigint, envelopeCell: Cell): EnqueuedMsgDescr {
  const envelope = loadMsgEnvelope(envelopeCell.beginParse());
  const msg = messageFromCell(envelope.msg);
  if (msg.info.kind !== 'int_msg_info') throw new CollateError('OutMsgQueue: a queued message is not internal');
  const src = addrPrefix(msg.info.src);
  const dest = addrPrefix(msg.info.dest);
  const emitted = envelope.kind === 'msg_envelope_v2' ? envelope.emittedLt : null;
  return {
    key,
    lt: emitted ?? msg.info.createdLt,
    enqueuedLt,
    hash: envelope.msg.hash(),
    envelopeCell,
    envelope,
    msgCell: envelope.msg,
    info: msg.info,
    src,
    dest,
    cur: interpolateAddr(src, dest, intermediateBits(envelope.curAddr)),
    next: interpolateAddr(src, dest, intermediateBits(envelope.nextAddr)),
  };
}

/** One ProcessedInfo entry: messages up to (lastMsgLt, lastMsgHash) seen via masterchain block mcSeqno. */
export interface ProcessedUptoRec {
  shard: bigint;
  mcSeqno: number;
  lastMsgLt: bigint;
  lastMsgHash: Buffer;
}

const ONES256 = Buffer.alloc(32, 0xff);

function contains(a: ProcessedUptoRec, shard: bigint, lt: bigint, hash: Buffer, mcSeqno: number): boolean {
  return (
    shardIsAncestor(a.shard, shard) &&
    a.mcSeqno >= mcSeqno &&
    (a.lastMsgLt > lt || (a.lastMsgLt === lt && Buffer.compare(a.lastMsgHash, hash) >= 0))
  );
}

/** MsgProcessedUptoCollection::insert (a record already covered is not added). */
export function insertProcessed(
  list: ProcessedUptoRec[],
  owner: bigint,
  mcSeqno: number,
  lt: bigint,
  hash: Buffer,
): ProcessedUptoRec[] {
  if (lt === 0n) return list;
  if (list.some((z) => contains(z, owner, lt, hash, mcSeqno))) return list;
  return [...list, { shard: owner, mcSeqno, lastMsgLt: lt, lastMsgHash: hash }];
}

export function insertProcessedInfty(
  list: ProcessedUptoRec[],
  owner: bigint,
  mcSeqno: number,
  lt: bigint,
): ProcessedUptoRec[] {
  return insertProcessed(list, owner, mcSeqno, lt, ONES256);
}

/** compactify: drop every record another (unmarked) record contains. */
export function compactifyProcessed(list: ProcessedUptoRec[]): ProcessedUptoRec[] {
  // std::sort by (shard, mc_seqno) as MsgProcessedUpto::operator< orders them (a stable sort here).
  const sorted = [...list].sort(
    (a, b) => (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0) || a.mcSeqno - b.mcSeqno,
  );
  const mark = sorted.map(() => false);
  sorted.forEach((x, i) => {
    for (let j = 0; j < sorted.length; j++) {
      const y = sorted[j] as ProcessedUptoRec;
      if (j !== i && !mark[j] && contains(y, x.shard, x.lastMsgLt, x.lastMsgHash, x.mcSeqno)) {
        mark[i] = true;
        break;
      }
    }
  });
  return sorted.filter((_, i) => !mark[i]);
}

export function splitProcessed(list: ProcessedUptoRec[], child: bigint): ProcessedUptoRec[] {
  const out: ProcessedUptoRec[] = [];
  for (const z of list) {
    if (shardIsAncestor(z.shard, child)) out.push({ ...z, shard: child });
    else if (shardIsAncestor(child, z.shard)) out.push(z);
  }
  return compactifyProcessed(out);
}

/**
 * MsgProcessedUptoCollection::already_processed, from the point of view of the collection's owner shard:
 * `shardEndLt(cur, mcSeqno)` is the end lt of the block of the message's current shard that masterchain block
 * `mcSeqno` lists (compute_shard_end_lt).
 */
export function alreadyProcessed(
  list: readonly ProcessedUptoRec[],
  ownerWc: number,
  owner: bigint,
  msg: EnqueuedMsgDescr,
  shardEndLt: (cur: AddrPrefix, mcSeqno: number) => bigint,
): boolean {
  if (!prefixInShard(msg.next, ownerWc, owner)) return false;
  for (const rec of list) {
    if (msg.lt > rec.lastMsgLt) continue;
    if (!shardContains(rec.shard, msg.next.prefix)) continue;
    if (msg.lt === rec.lastMsgLt && Buffer.compare(rec.lastMsgHash, msg.hash) < 0) continue;
    // Messages generated in the same shard could have been processed without a masterchain reference.
    if (msg.cur.workchain === msg.next.workchain && shardContains(rec.shard, msg.cur.prefix)) return true;
    if (msg.enqueuedLt < shardEndLt(msg.cur, rec.mcSeqno)) return true;
  }
  return false;
}
