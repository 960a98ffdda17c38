// A unit into rows (the decode half of indexMcBlock): collectUnit (source/) gives its blocks, decodeUnit turns them into
// the core tables' rows, reading the account states the transactions left from the source, and gathers what the
// contract decoders take. decodeMcBlock runs both, on this thread or in a decode thread (src/index/decode-pool).
import { Address } from '@ton/core';
import {
  ACCOUNT_NONE,
  type AccountStateAfter,
  type BlockIdExt,
  listBlockTransactions,
  loadAccountOrNone,
} from '../../ton/index.ts';
import type { ShardTop } from '../parse/new-shard-blocks.ts';
import { type CollectedUnit, collectUnit } from '../source/collect-unit.ts';
import type { BlockSource } from '../source/types.ts';
import type { Row } from './columns.ts';
import { type AccountInput, type TransactionInput, transactionInput } from './contracts/index.ts';
import {
  type AccountStateRows,
  blockGlobalVersion,
  toAccountStateRows,
  toBlockRow,
  toShardStateRows,
  toTransactionRows,
} from './rows.ts';
import type { TableRows, UnitRowsOf } from './unit-rows.ts';

/** Decodes masterchain blocks elsewhere (src/index/decode-pool: worker threads) with the same result. */
export interface UnitDecoder {
  decode(mcSeqno: number, opts: { contracts: boolean }): Promise<DecodedUnit>;
}

/** What the contract decoders get from the core decoding of a unit. */
export interface ContractInputs {
  transactions: TransactionInput[];
  /** By `${workchain}:${hex}`: the unit's newest state of each account it changed, when code and data are known. */
  states: Map<string, AccountInput>;
}

/** An account state as the decoders take it: active, with code and data not pruned; else null. */
export function accountInputOf(s: AccountStateAfter, lastTransLt: bigint): AccountInput | null {
  if (!s.complete) return null;
  const account = loadAccountOrNone(s.account.beginParse(true));
  const st = account?.storage.state;
  if (!account || st?.type !== 'active' || !st.state.code || !st.state.data) return null;
  const { code, data } = st.state;
  if (code.level() !== 0 || data.level() !== 0) return null;
  return {
    address: new Address(s.workchain, s.address),
    code,
    data,
    balance: account.storage.balance.coins,
    lastTransLt,
  };
}

/** Rows of one unit: pure apart from the account states, which come from the source per block. */
async function decodeUnit(
  mcSeqno: number,
  unit: CollectedUnit,
  source: BlockSource,
  contracts: ContractInputs | null,
): Promise<UnitRowsOf<Row[]>> {
  const rows: UnitRowsOf<Row[]> = {
    mcSeqno,
    mcRootHash: unit.rootHash,
    blocks: [],
    shardState: toShardStateRows(mcSeqno, unit.tops),
    transactions: [],
    messages: [],
    messageContents: [],
    accountStates: [],
    latestAccountStates: [],
  };
  const latest = new Map<string, AccountStateRows & { lt: bigint }>();
  for (const { fetched, block } of unit.blocks) {
    const id: BlockIdExt = fetched.id;
    const txs = listBlockTransactions(block);
    rows.blocks.push(toBlockRow(block, id, mcSeqno, txs.length));
    const gv = blockGlobalVersion(block);
    const lastOf = new Map<
      string,
      { address: Buffer; hash: Buffer; lt: bigint; now: number; stateHashAfter: Buffer }
    >();
    for (const t of txs) {
      const d = toTransactionRows(t.cell, id, mcSeqno, gv);
      contracts?.transactions.push(transactionInput(d.view, mcSeqno));
      rows.transactions.push(d.row);
      rows.messages.push(...d.messages);
      rows.messageContents.push(...d.contents);
      const k = t.account.toString('hex');
      const prev = lastOf.get(k);
      if (!prev || prev.lt < t.lt) {
        lastOf.set(k, {
          address: t.account,
          hash: d.view.hash,
          lt: t.lt,
          now: d.view.now,
          stateHashAfter: d.view.accountStateHashAfter,
        });
      }
    }
    if (lastOf.size === 0) continue;
    const wanted = [...lastOf.values()];
    const states = await source.accountStates(
      id,
      wanted.map((w) => w.address),
    );
    // An account left without state (account_none) is fully known from its hash, even when the source could
    // not show it (a state update does not carry the dictionary path of an account that did not change).
    const answered = new Set(states.map((s) => s.address.toString('hex')));
    for (const w of wanted) {
      if (!answered.has(w.address.toString('hex')) && w.stateHashAfter.equals(ACCOUNT_NONE.hash())) {
        states.push({
          address: w.address,
          workchain: id.workchain,
          account: ACCOUNT_NONE,
          hash: ACCOUNT_NONE.hash(),
          complete: true,
        });
      }
    }
    for (const s of states) {
      const last = lastOf.get(s.address.toString('hex'));
      if (!last) continue;
      const r = toAccountStateRows(s, last);
      rows.accountStates.push(r.state);
      const key = `${id.workchain}:${s.address.toString('hex')}`;
      const have = latest.get(key);
      if (!have || have.lt < last.lt) {
        latest.set(key, { ...r, lt: last.lt });
        if (contracts) {
          const a = accountInputOf(s, last.lt);
          if (a) contracts.states.set(key, a);
          else contracts.states.delete(key);
        }
      }
    }
  }
  rows.latestAccountStates = [...latest.values()].map((r) => r.latest);
  return rows;
}

/** A unit decoded: its core rows, and what the contract decoders and their parent lookups need. */
export interface DecodedUnit<T = TableRows> {
  rows: UnitRowsOf<T>;
  /** The masterchain block's id (absent for a declared unit without one). */
  mcId: BlockIdExt | undefined;
  tops: ShardTop[];
  /** gen_utime of the masterchain block (or of the unit's first block). */
  now: number;
  /** Contract decoders' inputs, when asked for. */
  inputs: ContractInputs | null;
}

/** Source -> parse -> decode for one unit: its core rows (and the contract decoders' inputs with `contracts`). */
export async function decodeMcBlock(
  mcSeqno: number,
  source: BlockSource,
  contracts: boolean,
): Promise<DecodedUnit<Row[]>> {
  const unit = await collectUnit(mcSeqno, source);
  const inputs: ContractInputs | null = contracts ? { transactions: [], states: new Map() } : null;
  const rows = await decodeUnit(mcSeqno, unit, source, inputs);
  const mc = unit.blocks.find((b) => b.fetched.id.workchain === -1);
  return {
    rows,
    mcId: mc?.fetched.id,
    tops: unit.tops,
    now: (mc ?? unit.blocks[0])?.block.info.genUtime ?? 0,
    inputs,
  };
}
