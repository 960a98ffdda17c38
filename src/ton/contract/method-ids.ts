// The get-method ids a contract's code dispatches on (`contract_methods` of v3 /accountStates, and the cheap filter
// of interface detection). toncenter's worker reads them once per code hash into its contract_methods table
// (ton-index-worker parse_contract_methods) from the code BoC:
//   the code's root cell must start with SETCP0 (0xFF00), then DICTPUSHCONST n (13 bits 0b1111010010100, a
//   1 bit, n:(## 10), and a reference to the method dictionary, a Hashmap n of code slices). The ids are the
//   dictionary keys read as n-bit unsigned numbers, in the dictionary's key order (so recv_external, -1,
//   appears as 2^n - 1, after the positive ids, as toncenter prints it).
// Code of any other shape (hand-written Fift such as wallets v1-v3, library cells) has no list: null, which is
// what toncenter's LEFT JOIN yields for a code hash without a contract_methods row.
import { type Cell, crc16, Dictionary } from '@ton/core';
import { Lru } from '../../common/index.ts';

const SETCP0 = 0xff00;
const DICTPUSHCONST_PREFIX = 0b1111010010100;
/** toncenter keeps at most 32 key bits (it reads the key through a 32-bit array). */
const MAX_KEY_BITS = 32;

/** Keys only: the dispatcher's values are code slices we never read. */
const IGNORE_VALUE = {
  serialize: () => {
    throw new Error('method-ids: read only');
  },
  parse: () => null,
};

/** A get-method's id as FunC and Tolk assign it: (crc16_xmodem(name) & 0xffff) | 0x10000 (contracts.md §0). */
export function getMethodId(name: string): number {
  return (crc16(Buffer.from(name, 'utf8')).readUInt16BE(0) & 0xffff) | 0x10000;
}

/** The get-method ids of `code`, or null when the code does not start with a method dictionary. */
export function contractMethodIds(code: Cell): number[] | null {
  try {
    if (code.isExotic) return null;
    const s = code.beginParse();
    if (s.remainingBits < 16 + 14 + 10 || s.remainingRefs < 1) return null;
    if (s.loadUint(16) !== SETCP0) return null;
    if (s.loadUint(13) !== DICTPUSHCONST_PREFIX || s.loadUint(1) !== 1) return null;
    const keyBits = s.loadUint(10);
    if (keyBits === 0 || keyBits > MAX_KEY_BITS) return null;
    const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(keyBits), IGNORE_VALUE, s.loadRef());
    return [...dict.keys()].map(Number);
  } catch {
    // A malformed dictionary (or a pruned/exotic cell inside it): no list, as the worker's VmError path.
    return null;
  }
}

/** contractMethodIds with an LRU by code hash (codes repeat across accounts: wallets, jetton wallets). */
export function createContractMethodsCache(capacity = 4096): {
  get(codeHash: string, code: () => Cell | null): number[] | null;
} {
  const lru = new Lru<string, number[] | null>(capacity);
  return {
    get(codeHash, code) {
      if (lru.has(codeHash)) return lru.get(codeHash) ?? null;
      const c = code();
      const ids = c ? contractMethodIds(c) : null;
      lru.set(codeHash, ids);
      return ids;
    },
  };
}
