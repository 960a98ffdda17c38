import { describe, expect, it } from 'vitest';
import { shardContains, shardIntersects } from './shard-id.ts';

const ALL = 0x8000000000000000n;
const LEFT = 0x4000000000000000n; // prefix 0
const RIGHT = 0xc000000000000000n; // prefix 1
const RIGHT_LEFT = 0xa000000000000000n; // prefix 10

describe('shard arithmetic (ton-types.h)', () => {
  it('shardContains: the whole chain contains everything; halves contain only their prefixes', () => {
    expect(shardContains(ALL, 0x0123456789abcdefn)).toBe(true);
    expect(shardContains(LEFT, 0x0123456789abcdefn)).toBe(true);
    expect(shardContains(RIGHT, 0x0123456789abcdefn)).toBe(false);
    expect(shardContains(RIGHT, RIGHT_LEFT)).toBe(true);
    expect(shardContains(RIGHT_LEFT, RIGHT)).toBe(false);
    expect(shardContains(RIGHT, 0xffffffffffffffffn)).toBe(true);
  });

  it('shardIntersects is symmetric and false only for disjoint shards', () => {
    expect(shardIntersects(RIGHT, RIGHT_LEFT)).toBe(true);
    expect(shardIntersects(RIGHT_LEFT, RIGHT)).toBe(true);
    expect(shardIntersects(LEFT, RIGHT)).toBe(false);
    expect(shardIntersects(LEFT, RIGHT_LEFT)).toBe(false);
  });
});
