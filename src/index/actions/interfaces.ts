// What the classifier knows about the contracts of some traces, read from the decoders' latest-state tables
// (contracts verified by their get-methods and parents; a fake jetton wallet is not there): one round of queries for
// the addresses, and, for the accounts whose data a matcher reads (JVault stake wallets), the rounds that data leads
// to (the pool its data names, then the lock wallet the pool's data names).
import type { Cell } from '@ton/core';
import type { Queryable } from '../../db/index.ts';
import { cellFromBase64 } from '../../ton/index.ts';
import { MATCHERS } from './matchers/index.ts';
import { readPoolLockWallet, readStakeWalletData } from './matchers/jvault.ts';
import { NOMINATOR_POOL_CODE_HASH } from './matchers/nominator-pool.ts';
import type { AccountDataRequest, ContractInfo, Interfaces, Matcher, TraceInput } from './types.ts';

/** An in-memory Interfaces (tests, the emulator's detections, merging). */
export function interfacesOf(map: ReadonlyMap<string, ContractInfo>): Interfaces {
  return { get: (a) => map.get(a) };
}

/** What to load for some traces before classifying them. */
export interface TraceRequests {
  /** Transaction accounts, message ends, and the addresses the matchers read from bodies (Matcher.addressesFor). */
  addresses: string[];
  /** The accounts whose data the matchers read (Matcher.accountDataFor). */
  accountData: AccountDataRequest[];
}

/** Every address the traces touch or the matchers will ask about, and the account data the matchers read. */
export function traceRequests(traces: readonly TraceInput[], matchers: readonly Matcher[] = MATCHERS): TraceRequests {
  const addresses = new Set<string>();
  const accountData = new Map<string, AccountDataRequest>();
  for (const t of traces) {
    for (const n of t.nodes) {
      addresses.add(n.tx.account);
      for (const m of [n.tx.inMsg, ...n.tx.outMsgs]) {
        if (m?.source) addresses.add(m.source);
        if (m?.destination) addresses.add(m.destination);
      }
      for (const matcher of matchers) {
        for (const a of matcher.addressesFor?.(n) ?? []) addresses.add(a);
        for (const r of matcher.accountDataFor?.(n) ?? []) accountData.set(`${r.as} ${r.account}`, r);
      }
    }
  }
  return { addresses: [...addresses], accountData: [...accountData.values()] };
}

/**
 * Interfaces of `addresses` (and of the parents the matchers look at: a wallet's master, an item's collection), and
 * what the data of the `accountData` accounts says.
 */
export async function loadInterfaces(
  db: Queryable,
  addresses: readonly string[],
  accountData: readonly AccountDataRequest[] = [],
): Promise<Map<string, ContractInfo>> {
  const map = new Map<string, ContractInfo>();
  if (addresses.length === 0 && accountData.length === 0) return map;
  const at = (a: string): ContractInfo => {
    let v = map.get(a);
    if (!v) {
      v = {};
      map.set(a, v);
    }
    return v;
  };
  const list = [...addresses];
  const q = <R extends Record<string, unknown>>(sql: string) => db.query<R>(sql, [list]).then((r) => r.rows);
  for (const r of await q<{ address: string; jetton: string; owner: string }>(
    'SELECT address, jetton, owner FROM jetton_wallets WHERE address = ANY($1::text[])',
  )) {
    at(r.address).jettonWallet = { jetton: r.jetton, owner: r.owner };
  }
  for (const r of await q<{ address: string }>('SELECT address FROM jetton_masters WHERE address = ANY($1::text[])')) {
    at(r.address).jettonMaster = true;
  }
  for (const r of await q<{
    address: string;
    collection_address: string | null;
    index: string;
    owner_address: string | null;
  }>(
    'SELECT address, collection_address, index::text AS index, owner_address FROM nft_items WHERE address = ANY($1::text[])',
  )) {
    at(r.address).nftItem = { collection: r.collection_address, index: r.index, owner: r.owner_address };
  }
  for (const r of await q<{ address: string }>('SELECT address FROM nft_collections WHERE address = ANY($1::text[])')) {
    at(r.address).nftCollection = true;
  }
  for (const r of await q<{ nft_item_address: string; domain: string | null; collection_address: string | null }>(
    `SELECT d.nft_item_address, d.domain, i.collection_address FROM dns_entries d
       LEFT JOIN nft_items i ON i.address = d.nft_item_address WHERE d.nft_item_address = ANY($1::text[])`,
  )) {
    at(r.nft_item_address).dnsItem = { domain: r.domain, collection: r.collection_address };
  }
  for (const r of await q<{ address: string }>('SELECT address FROM multisig WHERE address = ANY($1::text[])')) {
    at(r.address).multisig = true;
  }
  for (const r of await q<{ address: string; multisig_address: string; order_seqno: string; signers: string[] | null }>(
    'SELECT address, multisig_address, order_seqno::text AS order_seqno, signers::text[] AS signers FROM multisig_orders WHERE address = ANY($1::text[])',
  )) {
    at(r.address).multisigOrder = { multisig: r.multisig_address, orderSeqno: r.order_seqno, signers: r.signers ?? [] };
  }
  for (const r of await q<{ address: string; owner_address: string | null; vesting_sender_address: string | null }>(
    'SELECT address, owner_address, vesting_sender_address FROM vesting_contracts WHERE address = ANY($1::text[])',
  )) {
    at(r.address).vesting = { owner: r.owner_address, sender: r.vesting_sender_address };
  }
  type Listing = {
    address: string;
    nft: string | null;
    seller: string | null;
    price: string | null;
    mp: string | null;
  };
  const listing = (r: Listing) => ({ nft: r.nft, seller: r.seller, price: r.price, marketplace: r.mp });
  for (const r of await q<Listing>(
    `SELECT address, nft_address AS nft, nft_owner_address AS seller, full_price::text AS price,
       marketplace_address AS mp FROM getgems_nft_sales WHERE address = ANY($1::text[])`,
  )) {
    at(r.address).getgemsSale = listing(r);
  }
  for (const r of await q<Listing>(
    `SELECT address, nft_addr AS nft, nft_owner AS seller, last_bid::text AS price, mp_addr AS mp
       FROM getgems_nft_auctions WHERE address = ANY($1::text[])`,
  )) {
    at(r.address).getgemsAuction = listing(r);
  }
  const pools = await db.query<{ account: string }>(
    'SELECT account FROM latest_account_states WHERE account = ANY($1::text[]) AND code_hash = $2',
    [list, NOMINATOR_POOL_CODE_HASH],
  );
  for (const r of pools.rows) at(r.account).nominatorPool = true;
  const stakeWallets = accountData.filter((r) => r.as === 'jvaultStakeWallet').map((r) => r.account);
  if (stakeWallets.length > 0) await loadStakeWallets(db, stakeWallets, map);
  return map;
}

/** The data cells of `accounts` that have one (latest_account_states.data_boc), by account. */
async function dataOf(db: Queryable, accounts: readonly string[]): Promise<Map<string, Cell>> {
  const r = await db.query<{ account: string; data_boc: string }>(
    'SELECT account, data_boc FROM latest_account_states WHERE account = ANY($1::text[]) AND data_boc IS NOT NULL',
    [accounts],
  );
  const out = new Map<string, Cell>();
  for (const row of r.rows) {
    try {
      out.set(row.account, cellFromBase64(row.data_boc));
    } catch {
      // An unreadable BoC is data we do not know.
    }
  }
  return out;
}

/**
 * JVault stake wallets as toncenter reads them: the stake wallet's data names its pool and stake jetton, the pool's
 * data its lock wallet, and the lock wallet's jetton (a jetton wallet we know) is the jetton the pool locks.
 */
async function loadStakeWallets(
  db: Queryable,
  wallets: readonly string[],
  map: Map<string, ContractInfo>,
): Promise<void> {
  const stakeData = new Map<string, { pool: string; stakeJetton: string | null }>();
  for (const [wallet, data] of await dataOf(db, wallets)) {
    const d = readStakeWalletData(data);
    if (d) stakeData.set(wallet, d);
  }
  if (stakeData.size === 0) return;
  const lockWallets = new Map<string, string>();
  for (const [pool, data] of await dataOf(db, [...new Set([...stakeData.values()].map((d) => d.pool))])) {
    const lock = readPoolLockWallet(data);
    if (lock) lockWallets.set(pool, lock);
  }
  const unknown = [...new Set(lockWallets.values())].filter((w) => !map.get(w)?.jettonWallet);
  const jettons = new Map<string, string>();
  for (const [w, info] of map) if (info.jettonWallet) jettons.set(w, info.jettonWallet.jetton);
  if (unknown.length > 0) {
    const r = await db.query<{ address: string; jetton: string }>(
      'SELECT address, jetton FROM jetton_wallets WHERE address = ANY($1::text[])',
      [unknown],
    );
    for (const row of r.rows) jettons.set(row.address, row.jetton);
  }
  for (const [wallet, d] of stakeData) {
    const lock = lockWallets.get(d.pool);
    map.set(wallet, {
      ...map.get(wallet),
      jvaultStakeWallet: { ...d, lockedJetton: (lock && jettons.get(lock)) ?? null },
    });
  }
}
