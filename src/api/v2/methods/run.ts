// runGetMethod (legacy [type, value] stack) and runGetMethodStd (tonlib typed entries), POST only (v2-api.md §6.5,
// §7). The get-method runs as tonlib runs it: locally, on the account state read at the head or at `seqno`
// (src/api/v2/emulate/get-method.ts). A non-zero exit code is an answer, not an error.
import type { TupleItem } from '@ton/core';
import { InputError, isTongateError } from '../../../common/index.ts';
import { HttpError } from '../../../http/errors.ts';
import {
  checkTvmStack,
  parseV2LegacyStack,
  parseV2StdStack,
  toV2LegacyStack,
  toV2StdStack,
} from '../../../ton/index.ts';
import type { V2Context } from '../context.ts';
import { runGetMethodOn } from '../emulate/get-method.ts';
import type { V2Params } from '../params.ts';
import { tonBlockIdExt } from '../render/block.ts';
import { transactionIdJson } from '../render/transaction.ts';
import { accountAt, addressParam, seqnoParam } from './accounts.ts';
import type { V2Method } from './types.ts';

/** toncenter's default THACPP_MAX_STACK_ENTRY_DEPTH: deeper results are refused with 533. */
export const MAX_RESULT_DEPTH = 256;

function methodParam(p: V2Params): string | number {
  const v = p.raw('method');
  if (v === undefined) throw p.fail('method is required');
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw p.fail(`method id must be an int32, got ${v}`);
    return v;
  }
  if (typeof v !== 'string') throw p.fail('method must be a string or an integer');
  if (v.length > 256) throw p.fail('method name is too long');
  return v;
}

function stackParam(p: V2Params, parse: (json: unknown) => TupleItem[]): TupleItem[] {
  const v = p.values.stack;
  if (v === undefined || v === null) throw p.fail('stack is required');
  try {
    const stack = parse(v);
    checkTvmStack(stack);
    return stack;
  } catch (e) {
    // toncenter answers an unknown entry type with 542 (converters/runmethod.hpp), other stack errors with 422.
    if (e instanceof InputError && e.details.toncenterStatus === 542) throw new HttpError(542, e.message);
    if (isTongateError(e)) throw new HttpError(422, e.message);
    throw e;
  }
}

/** Nesting of tuples and lists, counted as toncenter does (a top-level tuple's elements are at depth 1). */
function depthOf(items: readonly TupleItem[], depth = 0): number {
  let max = depth;
  for (const it of items) {
    if (it.type === 'tuple') max = Math.max(max, depthOf(it.items, depth + 1));
  }
  return max;
}

/**
 * A get-method call from its parameters (address, method, stack read by `parse`, optional seqno): the account read,
 * the VM run. Shared by both v2 methods and v3's runGetMethod (which reads its own stack form).
 */
export async function runGetMethodWith(p: V2Params, ctx: V2Context, parse: (json: unknown) => TupleItem[]) {
  const { address } = addressParam(p);
  const method = methodParam(p);
  const stack = stackParam(p, parse);
  const seqno = seqnoParam(p);
  const account = await accountAt(ctx, p, address, seqno);
  const res = await runGetMethodOn(ctx, account, method, stack);
  if (depthOf(res.stack) >= MAX_RESULT_DEPTH) {
    throw new HttpError(533, `Result stack depth >= ${MAX_RESULT_DEPTH}`);
  }
  return { account, res };
}

export const runMethods: V2Method[] = [
  {
    name: 'runGetMethod',
    verbs: 'post',
    async run(p, ctx) {
      const { account, res } = await runGetMethodWith(p, ctx, parseV2LegacyStack);
      return {
        '@type': 'smc.runResult',
        gas_used: res.gasUsed,
        stack: toV2LegacyStack(res.stack),
        exit_code: res.exitCode,
        block_id: tonBlockIdExt(account.block),
        last_transaction_id: transactionIdJson(account.lastTransLt, account.lastTransHash),
      };
    },
  },
  {
    name: 'runGetMethodStd',
    verbs: 'post',
    async run(p, ctx) {
      const { res } = await runGetMethodWith(p, ctx, parseV2StdStack);
      return {
        '@type': 'smc.runResult',
        gas_used: res.gasUsed,
        stack: toV2StdStack(res.stack),
        exit_code: res.exitCode,
      };
    },
  },
];
