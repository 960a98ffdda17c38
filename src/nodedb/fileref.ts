// The node's names for the files of a block (validator/db/fileref.cpp, node-db.md §2.2, §2.4): the long name an
// entry carries inside a `.pack`, and the slice-index key that maps the file to its offset in the pack.
import { createHash } from 'node:crypto';
import type { BlockIdExt } from '../ton/index.ts';
import { NodeDbFormatError, TL, TlWriter } from './tl.ts';

/** The file kinds an indexer reads from archive packs. */
export type FileKind = 'block' | 'proof' | 'prooflink';

const FILE_KEY_ID: Record<FileKind, number> = {
  block: TL.fileBlock,
  proof: TL.fileProof,
  prooflink: TL.fileProofLink,
};

const KINDS = new Set<string>(Object.keys(FILE_KEY_ID));

/** `(wc,shard,seqno):ROOT:FILE` (BlockIdExt::to_str): the shard in 16 lower-case hex digits, hashes upper-case. */
export function formatBlockIdName(id: BlockIdExt): string {
  const shard = BigInt.asUintN(64, id.shard).toString(16).padStart(16, '0');
  return `(${id.workchain},${shard},${id.seqno >>> 0}):${hex(id.rootHash)}:${hex(id.fileHash)}`;
}

/** The entry name of a file in a pack, e.g. `block_(0,4000000000000000,76):C858…:149B…`. */
export function fileName(kind: FileKind, id: BlockIdExt): string {
  return `${kind}_${formatBlockIdName(id)}`;
}

const ID_RE = /^\((-?\d{1,10}),([0-9a-fA-F]{16}),(\d{1,10})\):([0-9a-fA-F]{64}):([0-9a-fA-F]{64})$/;

/**
 * Parses an entry name. Null for prefixes other than block/proof/prooflink (signatures_, candidate_, info_ and
 * whatever newer nodes add); a known prefix with a malformed id is a corrupt entry and throws.
 */
export function parseFileName(name: string): { kind: FileKind; id: BlockIdExt } | null {
  const cut = name.indexOf('_');
  if (cut < 0) return null;
  const kind = name.slice(0, cut);
  if (!KINDS.has(kind)) return null;
  const m = ID_RE.exec(name.slice(cut + 1));
  const workchain = m ? Number(m[1]) : Number.NaN;
  const seqno = m ? Number(m[3]) : Number.NaN;
  if (!m || workchain < -(2 ** 31) || workchain >= 2 ** 31 || seqno >= 2 ** 32) {
    throw new NodeDbFormatError(
      `pack entry name ${JSON.stringify(name)}: expected ${kind}_(wc,shard16hex,seqno):ROOT64HEX:FILE64HEX`,
    );
  }
  return {
    kind: kind as FileKind,
    id: {
      workchain,
      shard: BigInt(`0x${m[2]}`),
      seqno,
      rootHash: Buffer.from(m[4]!, 'hex'),
      fileHash: Buffer.from(m[5]!, 'hex'),
    },
  };
}

/** The boxed TL file key (`db.filedb.key.blockFile` / `.proof` / `.proofLink` + the 80-byte id). */
export function fileKey(kind: FileKind, id: BlockIdExt): Buffer {
  return new TlWriter().u32(FILE_KEY_ID[kind]).blockId(id).done();
}

/** sha256 of the boxed file key: FileReference::hash(), also the HASH of the node's short file names. */
export function fileKeyHash(kind: FileKind, id: BlockIdExt): Buffer {
  return createHash('sha256').update(fileKey(kind, id)).digest();
}

/** The slice-index key under which the file's pack offset is stored: 64 ASCII upper-case hex digits. */
export function fileIndexKey(kind: FileKind, id: BlockIdExt): Buffer {
  return Buffer.from(hex(fileKeyHash(kind, id)), 'latin1');
}

function hex(b: Buffer): string {
  return b.toString('hex').toUpperCase();
}
