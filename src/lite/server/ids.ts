// Block ids and shard arithmetic as the node does them (ton/ton-types.h, crypto/block/block.h): TL carries the
// shard as a signed 64-bit `long`, the view and src/ton use the unsigned id with its terminating 1 bit.
import { type BlockIdExt, blockIdFromTl, lowerBit } from '../../ton/index.ts';
import type { TonNodeBlockIdExt } from '../tl/index.ts';
import { MASTERCHAIN, SHARD_ALL } from './chain-view.ts';

/** workchainInvalid in the node (0x80000000 as a signed int). */
export const WORKCHAIN_INVALID = -0x80000000;

export function toUnsigned64(x: bigint): bigint {
  return BigInt.asUintN(64, x);
}

/** The TL id (signed shard) as the view's BlockIdExt (unsigned shard). */
export const fromTlBlockId = blockIdFromTl;

export function toTlBlockId(id: BlockIdExt): TonNodeBlockIdExt {
  return {
    _: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: BigInt.asIntN(64, id.shard),
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

/** What the node serializes for an invalid (default-constructed) BlockIdExt. */
export function invalidBlockId(): BlockIdExt {
  return { workchain: WORKCHAIN_INVALID, shard: 0n, seqno: 0, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) };
}

/** Number of prefix bits of a shard id (0 for the whole workchain). */
export function shardPfxLen(shard: bigint): number {
  const low = lowerBit(shard);
  return low === 0n ? 0 : 63 - (low.toString(2).length - 1);
}

/** BlockId::is_valid (ton-types.h): a real workchain and a non-zero shard. */
export function isValidId(id: { workchain: number; shard: bigint }): boolean {
  return id.workchain !== WORKCHAIN_INVALID && toUnsigned64(id.shard) !== 0n;
}

/** BlockIdExt::is_valid_full: a valid shard at most 60 bits deep, seqno < 2^31, mc shard whole, hashes set. */
export function isValidFull(id: BlockIdExt): boolean {
  const shard = toUnsigned64(id.shard);
  return (
    isValidId(id) &&
    (shard & 7n) === 0n &&
    id.seqno >= 0 &&
    id.seqno <= 0x7fffffff &&
    (id.workchain !== MASTERCHAIN || shard === SHARD_ALL) &&
    !isZero(id.rootHash) &&
    !isZero(id.fileHash)
  );
}

/** BlockIdExt::is_masterchain_ext: a valid full id of a masterchain block. */
export function isMasterchainExt(id: BlockIdExt): boolean {
  return id.workchain === MASTERCHAIN && id.shard === SHARD_ALL && isValidFull(id);
}

/** The address as a 256-bit dictionary key. */
export function addressKey(address: Buffer): bigint {
  return BigInt(`0x${address.toString('hex')}`);
}

export function keyToAddress(key: bigint): Buffer {
  return Buffer.from(key.toString(16).padStart(64, '0'), 'hex');
}

/** `(wc,shard,seqno):root:file` as the node prints block ids in its messages. */
export function formatBlockId(id: BlockIdExt): string {
  return `(${id.workchain},${id.shard.toString(16).padStart(16, '0')},${id.seqno}):${id.rootHash.toString('hex').toUpperCase()}:${id.fileHash.toString('hex').toUpperCase()}`;
}

export function formatShortId(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${toUnsigned64(id.shard).toString(16).padStart(16, '0')},${id.seqno})`;
}

function isZero(b: Buffer): boolean {
  for (const x of b) if (x !== 0) return false;
  return true;
}
