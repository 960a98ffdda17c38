// What detection remembers between accounts and between blocks of one chain: getter answers by (code hash, data
// hash, address, method, arguments), so an unchanged contract is never run twice and a parent's cross-check
// answers (a master's get_wallet_address, a collection's get_nft_content) serve all its children; the method ids
// of each code; and the library cells fetched so far. Answers ignore `now`: none of the getters detection runs
// depends on it. Entries hold promises, so concurrent asks for one answer share one TVM run.
import type { Cell, TupleItem } from '@ton/core';
import { Lru } from '../../../../common/index.ts';

/** A getter's outcome: the result stack, or null when it did not exit successfully. */
export type GetterAnswer = TupleItem[] | null;

export interface DetectCache {
  getters: Lru<string, Promise<GetterAnswer>>;
  /** Method ids by code hash (hex), of the code behind a library cell for library-deployed contracts. */
  methods: Lru<string, number[] | null>;
  /** Library cells by hash (hex) that ctx.library found (misses are asked again: a library may be published later). */
  libraries: Lru<string, Cell>;
}

/** A cache for one chain (answers do not carry the chain's identity). */
export function createDetectCache(opts: { getters?: number; codes?: number } = {}): DetectCache {
  return {
    getters: new Lru(opts.getters ?? 50_000),
    methods: new Lru(opts.codes ?? 4096),
    libraries: new Lru(opts.codes ?? 4096),
  };
}
