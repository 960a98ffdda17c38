// One unit's contract rows: detect the interfaces of the accounts whose state the unit changed, read events from
// its transactions, and join them (a transfer is a row only when its receiver is a detected jetton wallet or NFT
// item; the wallet's master and the item's collection come from that detection). The pipeline calls this with
// chain states; `rederive` calls it with stored rows. Both give the same rows for the same inputs.
import type { Address, Cell } from '@ton/core';
import { contractMethodIds } from '../../../ton/index.ts';
import type { Row } from '../columns.ts';
import { type DetectCache, detectAccounts } from './detect/index.ts';
import { eventsOf } from './events/index.ts';
import { detectedRow, type EventJoin, eventRow, sellersOf } from './rows.ts';
import type { AccountInput, ContractEvent, DetectContext, Detected, TransactionInput } from './types.ts';

export interface UnitContractsInput {
  mcSeqno: number;
  /** gen_utime of the unit's masterchain block: the getters' now. */
  now: number;
  transactions: readonly TransactionInput[];
  /** The newest state in the unit of each account it changed, where code and data are known. */
  states: readonly AccountInput[];
  /** Any other account's state at the same masterchain block (cross-checks); null when unknown. */
  account(address: Address): Promise<AccountInput | null>;
}

/** What detection reads besides the unit (shared by every unit of a process). */
export interface ContractsEnv extends Omit<DetectContext, 'now' | 'account'> {
  /** Detections stored earlier, for events whose receiver the unit did not change (rare: a pruned state). */
  stored(address: Address): Promise<Detected | null>;
  cache?: DetectCache;
}

export interface UnitContractRows {
  detected: Detected[];
  events: ContractEvent[];
  /** Rows by table (column order of src/index/decode/contracts/columns.ts). */
  tables: Map<string, Row[]>;
}

const key = (a: Address) => a.toRawString();

/** The join an event needs, or null when its receiver is not the contract the event is about. */
function joinFor(e: ContractEvent, d: Detected | null): EventJoin | null {
  if (!d) return null;
  switch (e.kind) {
    case 'jetton_transfer':
    case 'jetton_burn':
      return d.kind === 'jetton_wallet' ? { jettonMaster: d.jetton, walletOwner: d.owner } : null;
    case 'jetton_mint':
      // A mint is an internal_transfer the wallet got from its own master (contracts.md §2.3).
      return d.kind === 'jetton_wallet' && e.minter !== null && e.minter.equals(d.jetton)
        ? { jettonMaster: d.jetton, walletOwner: d.owner }
        : null;
    case 'nft_transfer':
      return d.kind === 'nft_item' ? { nftCollection: d.collection, nftIndex: d.index } : null;
  }
}

function push(tables: Map<string, Row[]>, table: string, row: Row): void {
  const rows = tables.get(table) ?? [];
  if (rows.length === 0) tables.set(table, rows);
  rows.push(row);
}

/** contract_methods rows for the codes of `states` (one per code hash; codes without a method dictionary skipped). */
function methodRows(states: readonly AccountInput[]): Row[] {
  const seen = new Map<string, Cell>();
  for (const s of states) seen.set(s.code.hash().toString('base64'), s.code);
  const out: Row[] = [];
  for (const [hash, code] of seen) {
    const ids = contractMethodIds(code);
    if (ids) out.push([hash, ids.map((id) => BigInt(id))]);
  }
  return out;
}

export async function decodeUnitContracts(input: UnitContractsInput, env: ContractsEnv): Promise<UnitContractRows> {
  const ctx: DetectContext = {
    tvm: env.tvm,
    config: env.config,
    library: env.library,
    dnsRoots: env.dnsRoots,
    now: input.now,
    account: input.account,
  };
  const detected = await detectAccounts([...input.states], ctx, env.cache);
  const byAddress = new Map<string, Detected>();
  for (const d of detected) byAddress.set(key(d.address), d);

  const events: ContractEvent[] = [];
  const tables = new Map<string, Row[]>();
  for (const tx of input.transactions) {
    for (const e of eventsOf(tx)) {
      const d = byAddress.get(key(e.account)) ?? (await env.stored(e.account));
      const join = joinFor(e, d);
      if (!join) continue;
      events.push(e);
      const r = eventRow(e, join);
      push(tables, r.table, r.row);
    }
  }
  const sellerOf = sellersOf(detected);
  for (const d of detected) for (const r of detectedRow(d, sellerOf)) push(tables, r.table, r.row);
  const methods = methodRows(input.states);
  if (methods.length > 0) tables.set('contract_methods', methods);
  return { detected, events, tables };
}
