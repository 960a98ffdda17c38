// ShardAccounts (HashmapAugE 256 ShardAccount DepthBalanceInfo) kept as raw ShardAccount cells: a leaf's value is
// copied bit for bit from the cell the emulator returned (never re-serialised), and its extra is computed from
// the account as the node's Account::skip_copy_depth_balance does (split depth 0, the balance).
import { beginCell, type Cell, type CurrencyCollection } from '@ton/core';
import {
  type AugDictCodec,
  type AugEntry,
  augDictEntries,
  buildAugDictRoot,
  combineDepthBalanceInfo,
  type DepthBalanceInfo,
  depthBalanceInfoOf,
  emptyDepthBalanceInfo,
  loadAccountOrNone,
  loadDepthBalanceInfo,
  type ShardAccounts,
  storeDepthBalanceInfo,
} from '../../ton/index.ts';
import { augDictApply } from './aug-dict-update.ts';
import { augDictLookup } from './chain-view.ts';

/** `ShardAccount` as one cell: ^Account last_trans_hash:bits256 last_trans_lt:uint64. */
export const shardAccountCellCodec: AugDictCodec<Cell, DepthBalanceInfo> = {
  loadValue: (s) =>
    beginCell()
      .storeRef(s.loadRef())
      .storeBits(s.loadBits(256 + 64))
      .endCell(),
  storeValue: (c) => (b) => {
    b.storeSlice(c.beginParse());
  },
  loadExtra: loadDepthBalanceInfo,
  storeExtra: storeDepthBalanceInfo,
  combine: combineDepthBalanceInfo,
  empty: emptyDepthBalanceInfo,
};

export interface AccountRecord {
  /** The ShardAccount cell. */
  cell: Cell;
  /** The Account cell (`cell.refs[0]`): account_none or account$1. */
  account: Cell;
  exists: boolean;
  balance: CurrencyCollection;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

/** Reads a ShardAccount cell: its account, balance and last transaction. */
export function readShardAccount(cell: Cell): AccountRecord {
  const s = cell.beginParse();
  const account = s.loadRef();
  const lastTransHash = s.loadBuffer(32);
  const lastTransLt = s.loadUintBig(64);
  const acc = loadAccountOrNone(account.beginParse());
  return {
    cell,
    account,
    exists: acc !== null,
    balance: depthBalanceInfoOf(acc).balance,
    lastTransHash,
    lastTransLt,
  };
}

/** The leaf extra of an account: DepthBalanceInfo with split depth 0 (no anycast accounts here). */
export function accountExtra(rec: AccountRecord): DepthBalanceInfo {
  return { splitDepth: 0, balance: rec.balance };
}

/** Every account of a ShardAccounts dictionary, keyed by the account id as lower-case hex. */
export function readAccounts(accounts: ShardAccounts): Map<string, AccountRecord> {
  const out = new Map<string, AccountRecord>();
  for (const e of augDictEntries(accounts, 256, shardAccountCellCodec).entries) {
    out.set(e.key.toString(16).padStart(64, '0'), readShardAccount(e.value));
  }
  return out;
}

/** Builds ShardAccounts from account records (account_none records are left out, as the node deletes them). */
export function buildAccounts(records: Iterable<[string, AccountRecord]>): ShardAccounts {
  const entries: AugEntry<Cell, DepthBalanceInfo>[] = [];
  for (const [hex, rec] of records) {
    if (!rec.exists) continue;
    entries.push({ key: BigInt(`0x${hex}`), value: rec.cell, extra: accountExtra(rec) });
  }
  return buildAugDictRoot(entries, 256, shardAccountCellCodec);
}

/** The account `hex` of a ShardAccounts dictionary, or null when it has none. */
export function lookupAccount(accounts: ShardAccounts, hex: string): AccountRecord | null {
  const s = augDictLookup(accounts.root, 256, BigInt(`0x${hex}`));
  if (!s) return null;
  loadDepthBalanceInfo(s);
  return readShardAccount(shardAccountCellCodec.loadValue(s));
}

/** ShardAccounts after the accounts in `changed` took their new values (account_none ones are deleted). */
export function updateAccounts(accounts: ShardAccounts, changed: Iterable<[string, AccountRecord]>): ShardAccounts {
  const changes = [...changed].map(([hex, rec]) => ({
    key: BigInt(`0x${hex}`),
    put: rec.exists ? { value: rec.cell, extra: accountExtra(rec) } : null,
  }));
  return augDictApply(accounts.root, 256, changes, shardAccountCellCodec);
}

/** An account that does not exist yet: account_none with no last transaction. */
export function emptyAccountRecord(): AccountRecord {
  const account = beginCell().storeBit(false).endCell();
  const cell = beginCell().storeRef(account).storeBuffer(Buffer.alloc(32)).storeUint(0, 64).endCell();
  return { cell, account, exists: false, balance: { coins: 0n }, lastTransHash: Buffer.alloc(32), lastTransLt: 0n };
}
