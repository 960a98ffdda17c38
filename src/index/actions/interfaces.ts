// What the classifier knows about the contracts of some traces, read in one round of queries from the decoders'
// latest-state tables (contracts verified by their get-methods and parents; a fake jetton wallet is not there).
import type { Queryable } from '../../db/index.ts';
import { NOMINATOR_POOL_CODE_HASH } from './matchers/nominator-pool.ts';
import type { ContractInfo, Interfaces, TraceInput } from './types.ts';

/** An in-memory Interfaces (tests, the emulator's detections, merging). */
export function interfacesOf(map: ReadonlyMap<string, ContractInfo>): Interfaces {
  return { get: (a) => map.get(a) };
}

/** Every address the traces touch: transaction accounts and message ends. */
export function traceAddresses(traces: readonly TraceInput[]): string[] {
  const s = new Set<string>();
  for (const t of traces) {
    for (const n of t.nodes) {
      s.add(n.tx.account);
      for (const m of [n.tx.inMsg, ...n.tx.outMsgs]) {
        if (m?.source) s.add(m.source);
        if (m?.destination) s.add(m.destination);
      }
    }
  }
  return [...s];
}

/** Interfaces of `addresses` (and of the parents the matchers look at: a wallet's master, an item's collection). */
export async function loadInterfaces(db: Queryable, addresses: readonly string[]): Promise<Map<string, ContractInfo>> {
  const map = new Map<string, ContractInfo>();
  if (addresses.length === 0) return map;
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
  const pools = await db.query<{ account: string }>(
    'SELECT account FROM latest_account_states WHERE account = ANY($1::text[]) AND code_hash = $2',
    [list, NOMINATOR_POOL_CODE_HASH],
  );
  for (const r of pools.rows) at(r.account).nominatorPool = true;
  return map;
}
