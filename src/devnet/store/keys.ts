// LevelDB keys and binary values of the devnet store (LAYOUT.md §Keys is the contract; change both together).
// Every key starts with one ASCII byte naming its table; integers are big-endian so byte order is numeric
// order inside one (workchain, shard) or one account.
import { StoreError } from '../../common/errors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import type { StoredBlock } from './types.ts';

export const T_LAYOUT = 0x56; // 'V'
export const T_META = 0x47; // 'G'
export const T_HEAD = 0x48; // 'H'
export const T_BLOCK = 0x42; // 'B'
export const T_ZEROSTATE = 0x5a; // 'Z'
export const T_FILE = 0x46; // 'F'
export const T_STATE = 0x53; // 'S'
export const T_SHARD = 0x4b; // 'K'
export const T_LT = 0x4c; // 'L'
export const T_UTIME = 0x55; // 'U'
export const T_TX = 0x54; // 'T'
export const T_ACCOUNT = 0x41; // 'A'
export const T_MESSAGE = 0x4d; // 'M'
export const T_CELL = 0x43; // 'C'
export const T_MANIFEST = 0x4e; // 'N'
export const T_QUEUE = 0x51; // 'Q'

const U64 = (1n << 64n) - 1n;

export function single(table: number): Buffer {
  return Buffer.from([table]);
}

/** wc(int32) shard(u64) seqno(u32): 16 bytes, the id of a block inside the store. */
export function blockKeyBytes(workchain: number, shard: bigint, seqno: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32BE(workchain, 0);
  b.writeBigUInt64BE(shard & U64, 4);
  b.writeUInt32BE(seqno, 12);
  return b;
}

export function parseBlockKey(b: Buffer, at = 0): { workchain: number; shard: bigint; seqno: number } {
  return { workchain: b.readInt32BE(at), shard: b.readBigUInt64BE(at + 4), seqno: b.readUInt32BE(at + 12) };
}

export function tableKey(table: number, ...parts: Buffer[]): Buffer {
  return Buffer.concat([single(table), ...parts]);
}

export function shardPrefix(workchain: number, shard: bigint): Buffer {
  const b = Buffer.alloc(12);
  b.writeInt32BE(workchain, 0);
  b.writeBigUInt64BE(shard & U64, 4);
  return b;
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

export function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n & U64, 0);
  return b;
}

export function i32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n, 0);
  return b;
}

/** wc(int32) address(32): an account inside the store. */
export function accountKeyBytes(workchain: number, hash: Buffer): Buffer {
  return Buffer.concat([i32(workchain), hash]);
}

/**
 * Block record (`B` and `Z` values), 89 bytes: root_hash(32) file_hash(32) start_lt(u64) end_lt(u64)
 * gen_utime(u32) mc_seqno(u32) flags(u8: bit 0 key block, bit 1 zero state).
 */
export const BLOCK_RECORD_SIZE = 89;

export function encodeBlockRecord(b: StoredBlock): Buffer {
  const out = Buffer.alloc(BLOCK_RECORD_SIZE);
  b.id.rootHash.copy(out, 0);
  b.id.fileHash.copy(out, 32);
  out.writeBigUInt64BE(b.startLt, 64);
  out.writeBigUInt64BE(b.endLt, 72);
  out.writeUInt32BE(b.genUtime, 80);
  out.writeUInt32BE(b.mcSeqno, 84);
  out.writeUInt8((b.keyBlock ? 1 : 0) | (b.zeroState ? 2 : 0), 88);
  return out;
}

export function decodeBlockRecord(workchain: number, shard: bigint, seqno: number, v: Buffer): StoredBlock {
  if (v.length !== BLOCK_RECORD_SIZE) {
    throw new StoreError(
      'TG_DEVNET_STORE_CORRUPT',
      `block record ${workchain}:${shard.toString(16)}:${seqno}: expected ${BLOCK_RECORD_SIZE} bytes, got ${v.length}`,
    );
  }
  const flags = v.readUInt8(88);
  return {
    id: {
      workchain,
      shard,
      seqno,
      rootHash: Buffer.from(v.subarray(0, 32)),
      fileHash: Buffer.from(v.subarray(32, 64)),
    },
    startLt: v.readBigUInt64BE(64),
    endLt: v.readBigUInt64BE(72),
    genUtime: v.readUInt32BE(80),
    mcSeqno: v.readUInt32BE(84),
    keyBlock: (flags & 1) !== 0,
    zeroState: (flags & 2) !== 0,
  };
}

/** Account record (`A` values), 88 bytes: shard_account_cell_hash(32) block_key(16) last_trans_lt(u64) last_trans_hash(32). */
export function encodeAccountRecord(
  shardAccountHash: Buffer,
  blockKey: Buffer,
  lastTransLt: bigint,
  lastTransHash: Buffer,
) {
  return Buffer.concat([shardAccountHash, blockKey, u64(lastTransLt), lastTransHash]);
}

/** Transaction location (`T` value prefix and `M` values): block_key(16) tx_hash(32). */
export function encodeLocation(blockKey: Buffer, txHash: Buffer): Buffer {
  return Buffer.concat([blockKey, txHash]);
}

export function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return (
    a.workchain === b.workchain &&
    (a.shard & U64) === (b.shard & U64) &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

/** The smallest key greater than every key starting with `prefix` (for `lt` bounds of prefix scans). */
export function prefixEnd(prefix: Buffer): Buffer {
  const out = Buffer.from(prefix);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i] = out[i]! + 1;
      return out.subarray(0, i + 1);
    }
  }
  throw new StoreError('TG_DEVNET_STORE_REJECTED', 'prefixEnd: prefix of 0xff bytes only');
}
