// Block id helpers shared by the sources and the parser.
import { createHash } from 'node:crypto';
import { Cell } from '@ton/core';
import { IndexError } from '../../common/index.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import type { FetchedBlock } from './types.ts';

export const MC_SHARD = 0x8000000000000000n;

/** "wc:shardhex:seqno", the key blocks are deduplicated and matched by. */
export function blockKey(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `${id.workchain}:${BigInt.asUintN(64, id.shard).toString(16).padStart(16, '0')}:${id.seqno}`;
}

/** Parses block file bytes and checks them against the id they were fetched for. */
export function checkedBlock(id: BlockIdExt, bytes: Buffer, root?: Cell | null): FetchedBlock {
  const fileHash = createHash('sha256').update(bytes).digest();
  if (!fileHash.equals(id.fileHash)) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `block ${blockKey(id)}: file bytes hash to ${fileHash.toString('hex')}, expected ${id.fileHash.toString('hex')}`,
      {
        details: { block: blockKey(id) },
      },
    );
  }
  const cell = root ?? Cell.fromBoc(bytes)[0];
  if (!cell?.hash().equals(id.rootHash)) {
    throw new IndexError('TG_INDEX_SOURCE', `block ${blockKey(id)}: root cell hash differs from the id's root hash`, {
      details: { block: blockKey(id) },
    });
  }
  return { id, bytes, root: cell };
}
