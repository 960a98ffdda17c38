// The devnet's fixed basechain split: `n` shards forming a full binary tree (every 64-bit account prefix lies in
// exactly one shard). A tree with n leaves puts floor(n/2) leaves under prefix 0 and ceil(n/2) under prefix 1,
// recursively, so leaf depths differ by at most one: n=2 -> 4000.., c000..; n=3 -> 4000.., a000.., e000..;
// n=5 -> 2000.., 6000.., a000.., d000.., f000..; n=16 -> all 16 shards of depth 4.
//
// A shard id is the 64-bit prefix followed by a terminating 1-bit (shard_prefix ‖ 1 ‖ 0…), as unsigned bigint.
import { ConfigError } from '../../common/errors.ts';

export const MAX_DEVNET_SHARDS = 16;

/** The shard id of a `depth`-bit prefix (the prefix's value, most significant bit first). */
export function shardIdOf(prefix: bigint, depth: number): bigint {
  return (prefix << BigInt(64 - depth)) | (1n << BigInt(63 - depth));
}

function leaves(prefix: bigint, depth: number, n: number, out: bigint[]): void {
  if (n === 1) {
    out.push(shardIdOf(prefix, depth));
    return;
  }
  const left = Math.floor(n / 2);
  leaves(prefix << 1n, depth + 1, left, out);
  leaves((prefix << 1n) | 1n, depth + 1, n - left, out);
}

/** The n shard ids of the fixed split, ascending; n in 1..16 (`--shards`). */
export function shardLayout(n: number): bigint[] {
  if (!Number.isInteger(n) || n < 1 || n > MAX_DEVNET_SHARDS) {
    throw new ConfigError(`shards: expected an integer in 1..${MAX_DEVNET_SHARDS}, got ${n}`);
  }
  const out: bigint[] = [];
  leaves(0n, 0, n, out);
  return out;
}
