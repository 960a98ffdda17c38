import { describe, expect, it } from 'vitest';
import { Lru } from './lru.ts';

describe('Lru', () => {
  it('evicts the least recently used entry', () => {
    const l = new Lru<string, number>(2);
    l.set('a', 1);
    l.set('b', 2);
    expect(l.get('a')).toBe(1);
    l.set('c', 3);
    expect(l.has('b')).toBe(false);
    expect(l.get('a')).toBe(1);
    expect(l.get('c')).toBe(3);
    expect(l.size).toBe(2);
  });
});
