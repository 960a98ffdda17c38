// Shared by the detection tests: account vectors as AccountInput, and a DetectContext over a fixed set of
// accounts and libraries (what the pipeline gives from one masterchain block's shard states).
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, loadShardAccount } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { loadVector } from '../../../../../test/helpers/vectors.ts';
import { CONTENT_KEYS } from '../../../../ton/index.ts';
import type { TvmRunner } from '../../../../tvm/index.ts';
import type { AccountInput, DetectContext } from '../types.ts';

export const CONFIG = Cell.fromBase64(defaultConfig);

/** The mainnet .ton DNS collection (toncenter's hardcoded root, v3-api.md §3.6). */
export const DOT_TON = Address.parseRaw('0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF');

export interface StackEntryVector {
  type: string;
  value?: string;
  boc_base64?: string;
  as_address?: string;
}

export interface AccountVector {
  kind: string;
  ids: { address: string };
  expected?: Record<string, unknown>;
  code_boc_base64?: string;
  data_boc_base64?: string;
  boc_base64?: string;
  computed_get_methods?: Record<string, { exit_code: number; stack: StackEntryVector[] }>;
}

/** An account vector (code+data, or a whole ShardAccount) as the decoders' input. */
export function accountOf(v: AccountVector): AccountInput {
  if (v.boc_base64) {
    const sa = loadShardAccount(Cell.fromBase64(v.boc_base64).beginParse());
    const acc = sa.account!;
    if (acc.storage.state.type !== 'active') throw new Error(`${v.ids.address}: not an active account`);
    const { code, data } = acc.storage.state.state;
    return {
      address: acc.addr,
      code: code!,
      data: data!,
      balance: acc.storage.balance.coins,
      lastTransLt: sa.lastTransactionLt,
    };
  }
  return {
    address: Address.parse(v.ids.address),
    code: Cell.fromBase64(v.code_boc_base64!),
    data: Cell.fromBase64(v.data_boc_base64!),
    balance: 1_000_000_000n,
    lastTransLt: BigInt((v.expected?.last_trans_lt as number | undefined) ?? 0),
  };
}

export function loadAccount(file: string): { vector: AccountVector; account: AccountInput } {
  const vector = loadVector<AccountVector>('accounts', file);
  return { vector, account: accountOf(vector) };
}

/** The value of entry `i` of a computed getter in a vector (ints as bigint, slices as addresses when they are). */
export function computed(v: AccountVector, getter: string, i: number): bigint | Address | Cell | null {
  const e = v.computed_get_methods?.[getter]?.stack[i];
  if (!e) throw new Error(`${v.ids.address}: no computed ${getter}[${i}]`);
  if (e.type === 'int') return BigInt(e.value!);
  if (e.type === 'slice' && e.as_address) return Address.parseRaw(e.as_address);
  if (e.type === 'null') return null;
  return Cell.fromBase64(e.boc_base64!);
}

/** A library cell standing for `code` (exotic type 2: the byte 0x02, then the code's hash). */
export function libraryCell(code: Cell): Cell {
  return new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(code.hash()).endCell().bits });
}

/** The runner, counting its get-method calls. */
export function countingRunner(tvm: TvmRunner): TvmRunner & { runs: number } {
  const counting = {
    ...tvm,
    runs: 0,
    runGetMethod(a: Parameters<TvmRunner['runGetMethod']>[0]) {
      counting.runs++;
      return tvm.runGetMethod(a);
    },
  };
  return counting;
}

export interface TestContext extends DetectContext {
  /** Every hash ctx.library was asked for, in order. */
  libraryAsks: string[];
  /** Every address ctx.account was asked for (raw), in order. */
  accountAsks: string[];
}

/** A context whose other accounts and libraries are the given ones (nothing else exists). */
export function testContext(opts: {
  tvm: TvmRunner;
  accounts?: readonly AccountInput[];
  libraries?: readonly Cell[];
  dnsRoots?: DetectContext['dnsRoots'];
  now?: number;
}): TestContext {
  const accounts = new Map((opts.accounts ?? []).map((a) => [a.address.toRawString(), a]));
  const libraries = new Map((opts.libraries ?? []).map((c) => [c.hash().toString('hex'), c]));
  const ctx: TestContext = {
    tvm: opts.tvm,
    config: CONFIG,
    now: opts.now ?? 1_760_000_000,
    dnsRoots: opts.dnsRoots ?? [],
    libraryAsks: [],
    accountAsks: [],
    async library(hash) {
      ctx.libraryAsks.push(hash.toString('hex'));
      return libraries.get(hash.toString('hex')) ?? null;
    },
    async account(address) {
      ctx.accountAsks.push(address.toRawString());
      return accounts.get(address.toRawString()) ?? null;
    },
  };
  return ctx;
}

/**
 * TEP-64 read with @ton/core alone (not our decoder), for well-formed content: the off-chain URI, or the on-chain
 * standard keys whose values are snake data.
 */
export function independentContent(cell: Cell): Record<string, string> {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag === 1) return { uri: s.loadStringTail() };
  if (tag !== 0) throw new Error(`not TEP-64 content: tag ${tag}`);
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const out: Record<string, string> = {};
  for (const key of CONTENT_KEYS) {
    const v = dict.get(BigInt(`0x${createHash('sha256').update(key).digest('hex')}`));
    if (!v) continue;
    const vs = v.beginParse();
    if (vs.loadUint(8) !== 0) throw new Error(`${key}: not snake data`);
    out[key] = vs.loadStringTail();
  }
  return out;
}
