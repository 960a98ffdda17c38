// A block handle as the node stores it (`db.block.info`, node-db.md §4.1): the block id, a flag word, and the
// optional fields the flags say are present. Handles live in a slice index under `db.blockdb.key.value id`.
import type { BlockIdExt } from '../ton/index.ts';
import { NodeDbFormatError, TL, TlReader, TlWriter } from './tl.ts';

/** The flag bits of validator/block-handle.hpp (`dbf_*`). */
export const HANDLE_FLAGS = {
  masterchain: 0x1,
  initedPrevLeft: 0x2,
  initedPrevRight: 0x4,
  initedNextLeft: 0x8,
  initedNextRight: 0x10,
  initedSplitAfter: 0x20,
  splitAfter: 0x40,
  initedMergeBefore: 0x80,
  mergeBefore: 0x100,
  received: 0x200,
  /** Meaningful only with initedIsKeyBlock. */
  isKeyBlock: 0x400,
  initedProof: 0x800,
  initedProofLink: 0x1000,
  initedLt: 0x2000,
  initedTs: 0x4000,
  initedIsKeyBlock: 0x8000,
  /** `state` (the state root hash) is present. */
  initedState: 0x20000,
  initedSignatures: 0x40000,
  /** The state is stored in celldb. */
  initedStateBoc: 0x100000,
  archived: 0x200000,
  applied: 0x400000,
  /** `masterchainRefSeqno` is present (a masterchain block refers to itself). */
  initedMasterchainRef: 0x800000,
  deleted: 0x2000000,
  /** The state was garbage-collected from celldb. */
  deletedBoc: 0x4000000,
  /** The block's files were moved into an archive package. */
  movedNew: 0x8000000,
  // In memory only: the node masks these out before writing.
  processed: 0x10000000,
  movedHandle: 0x20000000,
} as const;

export interface BlockHandle {
  id: BlockIdExt;
  /** The raw flag word (unsigned); see HANDLE_FLAGS. */
  flags: number;
  prevLeft?: BlockIdExt;
  prevRight?: BlockIdExt;
  nextLeft?: BlockIdExt;
  nextRight?: BlockIdExt;
  lt?: bigint;
  ts?: number;
  /** Root hash of the shard state after the block (32 bytes). */
  state?: Buffer;
  masterchainRefSeqno?: number;
}

const F = HANDLE_FLAGS;

/** Decodes a stored handle; every byte must be used. Bits the format does not know are kept in `flags`. */
export function decodeBlockHandle(value: Buffer): BlockHandle {
  const r = new TlReader(value, 'db.block.info');
  r.expect(TL.blockInfo);
  // Ids are copied so the handle does not pin the caller's buffer; field order is the schema's.
  const h: BlockHandle = { id: copyId(r.blockId()), flags: r.u32() };
  const flags = h.flags;
  if (flags & F.initedPrevLeft) h.prevLeft = copyId(r.blockId());
  if (flags & F.initedPrevRight) h.prevRight = copyId(r.blockId());
  if (flags & F.initedNextLeft) h.nextLeft = copyId(r.blockId());
  if (flags & F.initedNextRight) h.nextRight = copyId(r.blockId());
  if (flags & F.initedLt) h.lt = BigInt.asUintN(64, r.i64());
  if (flags & F.initedTs) h.ts = r.u32();
  if (flags & F.initedState) h.state = Buffer.from(r.int256());
  if (flags & F.initedMasterchainRef) h.masterchainRefSeqno = r.u32();
  r.end();
  return h;
}

/** Encodes a handle; an optional field is written iff its flag bit is set, and a set bit needs its field. */
export function encodeBlockHandle(h: BlockHandle): Buffer {
  const w = new TlWriter().u32(TL.blockInfo).blockId(h.id).u32(h.flags);
  const need = <T>(bit: number, field: string, v: T | undefined): T => {
    if (v === undefined) {
      throw new NodeDbFormatError(
        `db.block.info of ${h.id.workchain}:${h.id.shard.toString(16)}:${h.id.seqno}: flag 0x${bit.toString(16)} is set but ${field} is missing`,
      );
    }
    return v;
  };
  if (h.flags & F.initedPrevLeft) w.blockId(need(F.initedPrevLeft, 'prevLeft', h.prevLeft));
  if (h.flags & F.initedPrevRight) w.blockId(need(F.initedPrevRight, 'prevRight', h.prevRight));
  if (h.flags & F.initedNextLeft) w.blockId(need(F.initedNextLeft, 'nextLeft', h.nextLeft));
  if (h.flags & F.initedNextRight) w.blockId(need(F.initedNextRight, 'nextRight', h.nextRight));
  if (h.flags & F.initedLt) w.i64(need(F.initedLt, 'lt', h.lt));
  if (h.flags & F.initedTs) w.u32(need(F.initedTs, 'ts', h.ts));
  if (h.flags & F.initedState) w.int256(need(F.initedState, 'state', h.state));
  if (h.flags & F.initedMasterchainRef)
    w.u32(need(F.initedMasterchainRef, 'masterchainRefSeqno', h.masterchainRefSeqno));
  return w.done();
}

/** The slice-index key of a block's handle: boxed `db.blockdb.key.value id` (84 bytes). */
export function blockHandleKey(id: BlockIdExt): Buffer {
  return new TlWriter().u32(TL.blockdbKey).blockId(id).done();
}

function copyId(id: BlockIdExt): BlockIdExt {
  return { ...id, rootHash: Buffer.from(id.rootHash), fileHash: Buffer.from(id.fileHash) };
}
