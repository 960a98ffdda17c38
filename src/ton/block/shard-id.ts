// Shard arithmetic on 64-bit shard ids (prefix bits, then a terminating 1-bit), as ton/ton-types.h does it:
// shard_contains, shard_intersects, shard_is_ancestor, shard_child, the 64-bit account prefix of an address, and
// the ShardIdent form a block header and a shard state carry (shardIdOf in block-info.ts is the way back).
import type { ShardIdent } from '@ton/core';

export const MASTER_SHARD = 0x8000000000000000n;
export const MASTERCHAIN = -1;
const U64 = (1n << 64n) - 1n;

/** The lowest set bit: the terminating 1-bit of a shard id. */
export function lowerBit(shard: bigint): bigint {
  return shard & -shard & U64;
}

/** Number of prefix bits (0 for the whole workchain). */
export function shardPrefixLength(shard: bigint): number {
  let n = 63;
  for (let low = lowerBit(shard); low > 1n; low >>= 1n) n--;
  return n;
}

/** Does `shard` contain the 64-bit account prefix `prefix`? */
export function shardContains(shard: bigint, prefix: bigint): boolean {
  const low = lowerBit(shard);
  const mask = ~(low * 2n - 1n) & U64;
  return ((shard ^ prefix) & mask) === 0n;
}

/** shard_intersects: one of the two shards contains the other. */
export function shardIntersects(a: bigint, b: bigint): boolean {
  const x = lowerBit(a);
  const y = lowerBit(b);
  const m = x > y ? x : y;
  const mask = ((-m & U64) << 1n) & U64;
  return ((a ^ b) & mask) === 0n;
}

/** Is `ancestor` equal to `shard` or one of its ancestors (same workchain assumed)? */
export function shardIsAncestor(ancestor: bigint, shard: bigint): boolean {
  const a = lowerBit(ancestor);
  const s = lowerBit(shard);
  return a >= s && shardContains(ancestor, shard);
}

export function shardParent(shard: bigint): bigint {
  const low = lowerBit(shard);
  return ((shard - low) | (low << 1n)) & U64;
}

/** The left (false) or right (true) child. */
export function shardChild(shard: bigint, right: boolean): bigint {
  const low = lowerBit(shard);
  const half = low >> 1n;
  return right ? shard + half : shard - half;
}

export function isRightChild(shard: bigint): boolean {
  return (shard & (lowerBit(shard) << 1n)) !== 0n;
}

/** ShardIdent (block.tlb shard_ident$00) of a 64-bit shard id. */
export function shardIdent(workchain: number, shard: bigint): ShardIdent {
  const bits = shardPrefixLength(shard);
  return { shardPrefixBits: bits, workchainId: workchain, shardPrefix: shard - lowerBit(shard) };
}

/** The first 64 bits of a 256-bit account id. */
export function accountPrefix(account: Buffer): bigint {
  return account.readBigUInt64BE(0);
}
