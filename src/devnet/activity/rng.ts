// A deterministic random stream: SHA-256 over (seed, label, block counter). Each activity step draws from its own
// stream (label = step index), so a step's choices depend only on the seed and its position, not on what earlier
// steps did or how they ended.
import { createHash } from 'node:crypto';

export interface Rng {
  bytes(n: number): Buffer;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform bigint in [min, max]. */
  bigint(min: bigint, max: bigint): bigint;
  pick<T>(items: readonly T[]): T;
  chance(numerator: number, denominator: number): boolean;
}

export function createRng(seed: string, label: string): Rng {
  let counter = 0;
  let pool = Buffer.alloc(0);
  const bytes = (n: number): Buffer => {
    while (pool.length < n) {
      const block = createHash('sha256').update(`tongate-activity\0${seed}\0${label}\0${counter++}`).digest();
      pool = Buffer.concat([pool, block]);
    }
    const out = pool.subarray(0, n);
    pool = pool.subarray(n);
    return Buffer.from(out);
  };
  const bigint = (min: bigint, max: bigint): bigint => {
    if (max < min) throw new RangeError(`rng.bigint: empty range [${min}, ${max}]`);
    const span = max - min + 1n;
    const width = Math.ceil(span.toString(2).length / 8) + 8; // 64 extra bits make the modulo bias negligible
    return min + (BigInt(`0x${bytes(width).toString('hex')}`) % span);
  };
  return {
    bytes,
    bigint,
    int: (n) => {
      if (!Number.isInteger(n) || n <= 0) throw new RangeError(`rng.int: expected a positive integer, got ${n}`);
      return Number(bigint(0n, BigInt(n - 1)));
    },
    pick: (items) => {
      if (items.length === 0) throw new RangeError('rng.pick: empty list');
      return items[Number(bigint(0n, BigInt(items.length - 1)))]!;
    },
    chance: (numerator, denominator) => Number(bigint(0n, BigInt(denominator - 1))) < numerator,
  };
}
