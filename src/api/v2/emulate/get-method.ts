// A get-method on an account state read from the chain, as tonlib runs smc.runGetMethod: locally, on the state it
// loaded, with the latest config, `now` = the state's sync_utime, the account's balance and address in c7, and the
// libraries its code refers to. An account without code answers exit code -13 (tonlib's VM fails with
// Excno::fatal = 12 and reports ~12; users of toncenter know it as "exit_code: -13" for undeployed contracts)
// and the stack the VM started with (arguments and method id), as toncenter's tonlib does.
import { beginCell, type TupleItem } from '@ton/core';
import { methodId } from '../../../lite/index.ts';
import { type AccountAt, latestConfig, librariesFor } from '../chain-reads.ts';
import type { V2Context } from '../context.ts';
import type { GetMethodOutcome } from './executor.ts';

/** tonlib's exit code for a contract with no code. */
export const NO_CODE_EXIT_CODE = -13;

const INT_RE = /^-?(0x[0-9a-fA-F]+|[0-9]+)$/;

/**
 * The method id of a name or number. As toncenter 2.1 does, a string that reads as an integer is a numeric id
 * ("85143" is seqno's id, not a method named "85143").
 */
export function methodIdOf(method: string | number): number {
  if (typeof method === 'number') return method;
  if (INT_RE.test(method)) {
    const neg = method.startsWith('-');
    const v = BigInt(neg ? method.slice(1) : method);
    return Number(BigInt.asIntN(32, neg ? -v : v));
  }
  return methodId(method);
}

export async function runGetMethodOn(
  ctx: V2Context,
  account: AccountAt,
  method: string | number,
  stack: TupleItem[],
): Promise<GetMethodOutcome> {
  // tonlib's VM stops at once and answers the stack it was started with: the arguments, then the method id.
  if (account.code === null) {
    return {
      exitCode: NO_CODE_EXIT_CODE,
      gasUsed: 0,
      stack: [...stack, { type: 'int', value: BigInt(methodIdOf(method)) }],
    };
  }
  const [config, libs] = await Promise.all([latestConfig(ctx), librariesFor(ctx, account.code)]);
  return ctx.tvm.runGetMethod({
    code: account.code,
    data: account.data ?? beginCell().endCell(),
    address: account.address,
    balance: account.balance,
    extraCurrencies: account.extraCurrencies,
    methodId: methodIdOf(method),
    stack,
    config,
    libs,
    now: account.syncUtime,
  });
}
