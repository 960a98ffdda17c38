// Get-methods in our TVM as toncenter's worker runs them (ton::SmartContract::run_get_method): gas limit 1 000 000,
// the masterchain libraries available, success = exit code 0 or 1. Time is the block's (ctx.now), not the wall
// clock, so a re-derive sees what the pipeline saw. Library cells are fetched on demand: when the VM reports one
// missing, ctx.library answers it and the call runs once more with it. Answers are cached (cache.ts); TVM
// failures (runner closed, queue full) propagate, since they say nothing about the contract.
import { type Address, beginCell, type Cell, CellType, Dictionary, serializeTuple, type TupleItem } from '@ton/core';
import { contractMethodIds, getMethodId } from '../../../../ton/index.ts';
import type { DetectContext } from '../types.ts';
import type { DetectCache } from './cache.ts';
import { type EntryKind, hasShape } from './stack.ts';

/** toncenter's and tonlib's get-method gas limit (smc-envelope SmartContract::run_get_method). */
export const DETECT_GAS_LIMIT = 1_000_000n;

const ZERO_SEED = Buffer.alloc(32);

/** What a getter runs on: an account's state (the detected account, or a parent for a cross-check). */
export interface ContractState {
  address: Address;
  code: Cell;
  data: Cell;
  balance: bigint;
}

export interface GetterRunner {
  /**
   * Runs `method` on `target` with `args`; the stack when the run succeeded and its first entries have the kinds
   * of `shape`, else null.
   */
  run(
    target: ContractState,
    method: string,
    args: TupleItem[],
    shape: readonly EntryKind[],
  ): Promise<TupleItem[] | null>;
  /** The method ids of `code`, of the code behind it for a library cell; null when it has no method dictionary. */
  methodIds(code: Cell): Promise<number[] | null>;
}

/** The hash a library cell stands for (its data: the byte 0x02, then the 256-bit hash). */
function libraryHash(code: Cell): Buffer | null {
  if (!code.isExotic || code.type !== CellType.Library) return null;
  return code.beginParse(true).skip(8).loadBuffer(32);
}

export function createGetterRunner(ctx: DetectContext, cache: DetectCache): GetterRunner {
  // Libraries this runner has handed to the VM, as the Hashmap 256 ^Cell the runner takes (rebuilt on growth).
  const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  let libsCell: Cell | null = null;

  async function library(hash: Buffer): Promise<Cell | null> {
    const key = hash.toString('hex');
    let lib = cache.libraries.get(key) ?? null;
    if (!lib) {
      lib = await ctx.library(hash);
      if (lib) cache.libraries.set(key, lib);
    }
    if (lib && !libs.has(hash)) {
      libs.set(hash, lib);
      libsCell = beginCell().storeDictDirect(libs).endCell();
    }
    return lib;
  }

  /** The getter's answer, and whether it is final (not a failure for want of a library). */
  async function execute(target: ContractState, method: string, args: TupleItem[]) {
    for (let attempt = 0; ; attempt++) {
      const r = await ctx.tvm.runGetMethod({
        code: target.code,
        data: target.data,
        address: target.address,
        balance: target.balance,
        methodId: getMethodId(method),
        stack: args,
        now: ctx.now,
        config: ctx.config,
        libs: libsCell,
        randomSeed: ZERO_SEED,
        gasLimit: DETECT_GAS_LIMIT,
      });
      const missing = r.missingLibrary;
      if (missing && attempt === 0 && !libs.has(missing) && (await library(missing))) continue;
      const ok = (r.exitCode === 0 || r.exitCode === 1) && r.stackParseError === undefined;
      return { stack: ok ? r.stack : null, final: missing === null };
    }
  }

  return {
    async run(target, method, args, shape) {
      const argsKey = args.length === 0 ? '' : serializeTuple(args).hash().toString('hex');
      const key = [target.code.hash().toString('hex'), target.data.hash().toString('hex')]
        .concat(target.address.toRawString(), method, argsKey)
        .join(':');
      let answer = cache.getters.get(key);
      if (!answer) {
        const run = execute(target, method, args);
        answer = run.then((r) => r.stack);
        cache.getters.set(key, answer);
        // Neither a TVM failure nor a missing library is the contract's answer: ask again next time.
        run.then(
          (r) => {
            if (!r.final) cache.getters.delete(key);
          },
          () => cache.getters.delete(key),
        );
      }
      const stack = await answer;
      return stack && hasShape(stack, shape) ? stack : null;
    },

    async methodIds(code) {
      const key = code.hash().toString('hex');
      if (cache.methods.has(key)) return cache.methods.get(key) ?? null;
      const hash = libraryHash(code);
      const real = hash ? await library(hash) : code;
      const ids = real ? contractMethodIds(real) : null;
      // An unresolved library is asked again next time.
      if (real) cache.methods.set(key, ids);
      return ids;
    },
  };
}
