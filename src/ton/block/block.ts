// block.tlb:474-477
//   block#11ef55aa global_id:int32
//     info:^BlockInfo value_flow:^ValueFlow
//     state_update:^(MERKLE_UPDATE ShardState)
//     extra:^BlockExtra = Block;
// block.tlb:302-303
//   !merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
//     old:^X new:^X = MERKLE_UPDATE X;
import { type Builder, beginCell, type Cell, CellType, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type BlockExtra, loadBlockExtra, storeBlockExtra } from './block-extra.ts';
import { type BlockInfo, loadBlockInfo, shardIdOf, storeBlockInfo } from './block-info.ts';
import { decoding, expectTag, loadWhole } from './codec-util.ts';
import type { ExtBlkRef } from './ext-blk-ref.ts';
import { MASTER_SHARD } from './shard-id.ts';
import { loadValueFlow, storeValueFlow, type ValueFlow } from './value-flow.ts';

/**
 * The block's `state_update`: an exotic Merkle-update cell (type 4) kept as it arrived, since the shard
 * states it links are not part of the block; the hashes and depths are read from its bits for convenience.
 */
export type BlockStateUpdate = {
  cell: Cell;
  /** Hash of the shard state before the block (refs[0], level 0). */
  oldHash: Buffer;
  /** Hash of the shard state after the block (refs[1], level 0). */
  newHash: Buffer;
  oldDepth: number;
  newDepth: number;
};

export type Block = {
  globalId: number;
  info: BlockInfo;
  valueFlow: ValueFlow;
  stateUpdate: BlockStateUpdate;
  extra: BlockExtra;
};

const BLOCK_TAG = 0x11ef55aa;

function loadStateUpdate(cell: Cell): BlockStateUpdate {
  return decoding('MERKLE_UPDATE', () => {
    if (cell.type !== CellType.MerkleUpdate) {
      throw new CodecError(`MERKLE_UPDATE: expected an exotic Merkle-update cell (type 4), got cell type ${cell.type}`);
    }
    // @ton/core validated the layout when it built the cell: 8-bit type, two hashes, two depths, two refs.
    const s = cell.beginParse(true);
    expectTag(s, 'MERKLE_UPDATE', 0x04, 8);
    return {
      cell,
      oldHash: s.loadBuffer(32),
      newHash: s.loadBuffer(32),
      oldDepth: s.loadUint(16),
      newDepth: s.loadUint(16),
    };
  });
}

export function loadBlock(s: Slice): Block {
  return decoding('Block', () => {
    expectTag(s, 'Block', BLOCK_TAG, 32);
    const globalId = s.loadInt(32);
    const info = loadWhole('BlockInfo', s.loadRef(), loadBlockInfo);
    const valueFlow = loadWhole('ValueFlow', s.loadRef(), loadValueFlow);
    const stateUpdate = loadStateUpdate(s.loadRef());
    const extra = loadWhole('BlockExtra', s.loadRef(), loadBlockExtra);
    return { globalId, info, valueFlow, stateUpdate, extra };
  });
}

export function storeBlock(v: Block): (b: Builder) => void {
  return (b) => {
    b.storeUint(BLOCK_TAG, 32)
      .storeInt(v.globalId, 32)
      .storeRef(beginCell().store(storeBlockInfo(v.info)))
      .storeRef(beginCell().store(storeValueFlow(v.valueFlow)))
      .storeRef(v.stateUpdate.cell)
      .storeRef(beginCell().store(storeBlockExtra(v.extra)));
  };
}

/** Decodes a block root cell (e.g. the root of a liteServer.getBlock BoC), requiring nothing left over. */
export function loadBlockCell(root: Cell): Block {
  return loadWhole('Block', root, loadBlock);
}

export type BlockTransaction = {
  /** The account's 256-bit address inside the block's workchain. */
  account: Buffer;
  lt: bigint;
  /** The transaction hash: the hash of its cell. */
  hash: Buffer;
  cell: Cell;
};

/** Every transaction of the block: accounts in address order, each account's transactions in lt order. */
export function listBlockTransactions(block: Block): BlockTransaction[] {
  const out: BlockTransaction[] = [];
  for (const { value: acc } of block.extra.accountBlocks.entries) {
    for (const { key, value: cell } of acc.transactions.entries) {
      out.push({ account: acc.accountAddr, lt: key, hash: cell.hash(), cell });
    }
  }
  return out;
}

/**
 * A block's full id, as liteserver APIs name blocks (`tonNode.blockIdExt`); shard is the unsigned 64-bit shard id
 * (masterchain 0x8000000000000000n). A zero state is named the same way, with seqno 0.
 */
export interface BlockIdExt {
  workchain: number;
  shard: bigint;
  seqno: number;
  /** Representation hash of the Block root cell; for a zero state, of the state root (level 0). */
  rootHash: Buffer;
  /** SHA-256 of the block file (or zero-state file): its BoC as the network stores it. */
  fileHash: Buffer;
}

/** Same workchain, shard, seqno, root hash and file hash. */
export function sameBlockId(a: BlockIdExt, b: BlockIdExt): boolean {
  return (
    a.workchain === b.workchain &&
    a.shard === b.shard &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

/**
 * A BlockIdExt from the TL form (tonNode.blockIdExt), whose shard is a signed 64-bit value (bigint or its
 * decimal string); the hashes are copied so the id does not pin the answer's buffer.
 */
export function blockIdFromTl(id: {
  workchain: number;
  shard: string | bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}): BlockIdExt {
  return {
    workchain: id.workchain,
    shard: BigInt.asUintN(64, BigInt(id.shard)),
    seqno: id.seqno,
    rootHash: Buffer.from(id.rootHash),
    fileHash: Buffer.from(id.fileHash),
  };
}

/** A block's id where the file hash may be unknown (a block decoded from its root cell alone). */
export type BlockId = Omit<BlockIdExt, 'fileHash'> & { fileHash: Buffer | null };

/** The id of `block`; the root hash (and file hash) are those of the cell / file it was decoded from. */
export function blockId(block: Block, rootHash: Buffer, fileHash: Buffer | null = null): BlockId {
  const { shard, seqNo } = block.info;
  return { workchain: shard.workchainId, shard: shardIdOf(shard), seqno: seqNo, rootHash, fileHash };
}

function idFromRef(workchain: number, shard: bigint, ref: ExtBlkRef): BlockIdExt {
  return { workchain, shard, seqno: ref.seqNo, rootHash: ref.rootHash, fileHash: ref.fileHash };
}

/**
 * The block's parents: one normally, the same shard's previous block; the parent shard's block after a
 * split; the two child shards' blocks (left, then right) after a merge.
 */
export function prevBlockIds(info: BlockInfo): BlockIdExt[] {
  const wc = info.shard.workchainId;
  const shard = shardIdOf(info.shard);
  const low = shard & -shard;
  if (info.prevRef.kind === 'prev_blks_info') {
    const half = low >> 1n;
    if (half === 0n) throw new CodecError('BlockInfo: after_merge on a shard with 63 prefix bits');
    return [idFromRef(wc, shard - half, info.prevRef.prev1), idFromRef(wc, shard + half, info.prevRef.prev2)];
  }
  if (info.afterSplit) {
    if (low === MASTER_SHARD) throw new CodecError('BlockInfo: after_split on a shard with no prefix bits');
    const parent = (shard & ~((low << 1n) - 1n)) | (low << 1n);
    return [idFromRef(wc, parent, info.prevRef.prev)];
  }
  return [idFromRef(wc, shard, info.prevRef.prev)];
}

/** The masterchain block a shard block refers to (null for masterchain blocks). */
export function masterRefId(info: BlockInfo): BlockIdExt | null {
  return info.masterRef ? idFromRef(-1, MASTER_SHARD, info.masterRef.master) : null;
}
