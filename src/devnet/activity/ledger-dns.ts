// The ledger of the DNS family: the devnet's .ton-style zone and the names the activity registered, i.e. what
// get_nft_data / get_domain / dnsresolve should show (and the dns_entries rows should hold) after its steps.
import type { Address } from '@ton/core';
import { DEVNET_DNS_COLLECTION, DEVNET_DNS_SUFFIX } from '../contracts/dns.ts';

/** The records a name has, in dns_entries' terms (contracts.md §5.3); null when the record is not set. */
export interface LedgerDnsRecords {
  /** dns_smc_address under `wallet`. */
  wallet: Address | null;
  /** dns_adnl_address under `site`: 64 hex characters. */
  siteAdnl: string | null;
  /** dns_storage_address under `storage`: 64 hex characters. */
  storageBagId: string | null;
  /** dns_next_resolver under `dns_next_resolver`. */
  nextResolver: Address | null;
}

export interface LedgerDnsDomain {
  /** The step that registered it. */
  step: number;
  /** The label ("amber-1a2b3c"); get_domain returns it. */
  label: string;
  /** The full name ("amber-1a2b3c.ton"). */
  domain: string;
  /** The item index: the hash of the label cell. */
  index: bigint;
  item: Address;
  owner: Address;
  records: LedgerDnsRecords;
}

export interface LedgerDns {
  /** The devnet's collection (the same on every devnet) and the suffix its names get. */
  collection: Address;
  suffix: string;
  domains: LedgerDnsDomain[];
}

export function emptyDnsLedger(): LedgerDns {
  return { collection: DEVNET_DNS_COLLECTION, suffix: DEVNET_DNS_SUFFIX, domains: [] };
}

/**
 * The DNS roots an indexer of a devnet needs (its `--dns-root` values): the devnet's collection with its suffix.
 * The collection's StateInit is fixed, so every devnet has the same one.
 */
export function devnetDnsRoots(): Array<{ collection: string; suffix: string }> {
  return [{ collection: DEVNET_DNS_COLLECTION.toRawString(), suffix: DEVNET_DNS_SUFFIX }];
}
