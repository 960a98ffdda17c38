// dns_entries rows as v3 DNSRecord objects (v3-api.md §3.6, toncenter's models.DNSRecord): addresses raw, a
// record the item does not hold is null, ADNL and bag ids as the 64 hex characters stored.
import type { Row } from '../sql-query.ts';

export function dnsRecordJson(r: Row): Record<string, unknown> {
  return {
    nft_item_address: r.nft_item_address,
    nft_item_owner: r.nft_item_owner ?? null,
    domain: r.domain ?? '',
    dns_next_resolver: r.dns_next_resolver ?? null,
    dns_wallet: r.dns_wallet ?? null,
    dns_site_adnl: r.dns_site_adnl ?? null,
    dns_storage_bag_id: r.dns_storage_bag_id ?? null,
  };
}

/** The addresses a page of records puts in its address book: item, owner and wallet (not the next resolver). */
export function dnsRecordAddresses(rows: readonly Row[]): string[] {
  return rows.flatMap((r) => [r.nft_item_address, r.nft_item_owner, r.dns_wallet]).filter((a) => typeof a === 'string');
}
