// Helpers shared by this folder's tests: small hand-written readers on plain @ton/core slices, so the
// tests exercise the proof code with the kind of reader a caller would write (no decoders involved).
import type { Cell, Slice } from '@ton/core';
import { loadHmLabel } from '../dict/index.ts';

/**
 * Follows one key down a Hashmap/HashmapAug node (label, then leaf or fork) and returns the leaf slice
 * positioned after the label (at the extra, for HashmapAug), or undefined when the key is absent.
 * `path` collects the ref indices taken from the start cell.
 */
export function lookupHashmap(start: Slice, keyBits: number, key: bigint, path: number[] = []): Slice | undefined {
  let s = start;
  let left = keyBits;
  for (;;) {
    const { len, bits } = loadHmLabel(s, left);
    if (len > 0 && bits !== ((key >> BigInt(left - len)) & ((1n << BigInt(len)) - 1n))) return undefined;
    left -= len;
    if (left === 0) return s;
    const children = [s.loadRef(), s.loadRef()] as const;
    left -= 1;
    const side = Number((key >> BigInt(left)) & 1n);
    path.push(side);
    s = children[side]?.beginParse() as Slice;
  }
}

/** Skips a CurrencyCollection (grams, then the extra-currency dictionary bit and ref). */
export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
}

/** block -> extra -> account_blocks -> AccountBlock of `account` -> ref to its transaction `lt`. */
export function findTransaction(block: Cell, account: bigint, lt: bigint): Cell | undefined {
  const extra = refAt(block, 3).beginParse();
  if (extra.loadUint(32) !== 0x4a33f6fd) throw new Error('not a BlockExtra');
  extra.loadRef();
  extra.loadRef();
  const accountBlocks = extra.loadRef().beginParse();
  if (!accountBlocks.loadBit()) return undefined;
  const accountLeaf = lookupHashmap(accountBlocks.loadRef().beginParse(), 256, account);
  if (!accountLeaf) return undefined;
  skipCurrencyCollection(accountLeaf);
  if (accountLeaf.loadUint(4) !== 0x5) throw new Error('not an AccountBlock');
  accountLeaf.skip(256);
  const txLeaf = lookupHashmap(accountLeaf, 64, lt);
  if (!txLeaf) return undefined;
  skipCurrencyCollection(txLeaf);
  return txLeaf.loadRef();
}

/** seq_no of a ShardStateUnsplit: after tag, global_id and ShardIdent (2 + 6 + 32 + 64 bits). */
export function stateSeqno(state: Cell): number {
  const s = state.beginParse();
  if (s.loadUint(32) !== 0x9023afe2) throw new Error('not a ShardStateUnsplit');
  s.skip(32 + 104);
  return s.loadUint(32);
}

/** seq_no of the BlockInfo of a Block: block_info#9bc7a987 version:uint32, 8 flag bits, flags:uint8, seq_no. */
export function blockSeqno(block: Cell): number {
  const info = refAt(block, 0).beginParse();
  if (info.loadUint(32) !== 0x9bc7a987) throw new Error('not a BlockInfo');
  info.skip(32 + 8 + 8);
  return info.loadUint(32);
}

export const hexBuf = (hex: string) => Buffer.from(hex, 'hex');

/** The cell at a path of ref indices (throws when the path leaves the tree). */
export function refAt(root: Cell, ...path: number[]): Cell {
  let c = root;
  for (const i of path) {
    const next = c.refs[i];
    if (!next) throw new Error(`no ref ${i} in a cell with ${c.refs.length} refs`);
    c = next;
  }
  return c;
}
