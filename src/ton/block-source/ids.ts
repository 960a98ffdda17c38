// Block id helpers and block file checks shared by the block sources (src/index/source), the shard-block walk
// (src/index/parse) and the node database reader (src/nodedb).
import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import { IndexError } from '../../common/index.ts';
import { type BlockIdExt, MASTER_SHARD } from '../block/index.ts';
import { cellOf, readCellTable } from '../cell/index.ts';
import type { FetchedBlock } from './types.ts';

/** The masterchain's shard id (no prefix bits) as block ids carry it: unsigned 64-bit, ton/block's MASTER_SHARD. */
export const MC_SHARD = MASTER_SHARD;
/** The same shard id as a signed 64-bit integer (-2^63), as the database's shard columns hold it. */
export const MC_SHARD_SIGNED = BigInt.asIntN(64, MC_SHARD);
/** The signed id in decimal, as toncenter's JSON and the liteserver clients' APIs write it. */
export const MC_SHARD_TEXT = MC_SHARD_SIGNED.toString();

/** "wc:shardhex:seqno", the key blocks are deduplicated and matched by. */
export function blockKey(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `${id.workchain}:${BigInt.asUintN(64, id.shard).toString(16).padStart(16, '0')}:${id.seqno}`;
}

function sourceError(id: BlockIdExt, message: string): IndexError {
  return new IndexError('TG_INDEX_SOURCE', `block ${blockKey(id)}: ${message}`, { details: { block: blockKey(id) } });
}

function checkFileHash(id: BlockIdExt, bytes: Buffer): void {
  const fileHash = createHash('sha256').update(bytes).digest();
  if (!fileHash.equals(id.fileHash)) {
    throw sourceError(id, `file bytes hash to ${fileHash.toString('hex')}, expected ${id.fileHash.toString('hex')}`);
  }
}

/**
 * The one parse of a block on the hot path: a lazy cell table whose root hash check hashes every cell once,
 * natively (later reads of the cells reuse those hashes), checked against the id's root hash.
 */
function checkedRoot(id: BlockIdExt, bytes: Buffer): Cell {
  // The file hash is checked before, so the BoC's own CRC adds nothing.
  const table = readCellTable(bytes, { skipCrc: true });
  if (table.roots.length !== 1) throw sourceError(id, `the BoC has ${table.roots.length} roots, a block file has one`);
  table.hashAll();
  return withRootHash(id, cellOf(table, table.roots[0] as number));
}

function withRootHash(id: BlockIdExt, root: Cell): Cell {
  if (!root.hash().equals(id.rootHash)) throw sourceError(id, "root cell hash differs from the id's root hash");
  return root;
}

/**
 * Parses block file bytes and checks them against the id they were fetched for (file hash, then the root hash of
 * the one parse). `root` is a root the caller parsed already (it is checked against the id's root hash).
 */
export function checkedBlock(id: BlockIdExt, bytes: Buffer, root?: Cell | null): FetchedBlock {
  checkFileHash(id, bytes);
  const cell = root ? withRootHash(id, root) : checkedRoot(id, bytes);
  return { id, bytes, root: cell };
}

/**
 * Like checkedBlock, but the bytes are parsed (and their root hash checked) when `root` is first read: a source
 * on the main thread hands the bytes to a decode thread (src/index/decode-pool) without parsing them itself.
 */
export function fileCheckedBlock(id: BlockIdExt, bytes: Buffer): FetchedBlock {
  checkFileHash(id, bytes);
  let root: Cell | null = null;
  return {
    id,
    bytes,
    get root(): Cell {
      root ??= checkedRoot(id, bytes);
      return root;
    },
  };
}
