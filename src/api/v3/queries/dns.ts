// The dns_entries columns v3's DNS reads select (render/dns.ts turns the rows into JSON).

/** The columns renderers read, in toncenter's order. */
export const DNS_RECORD_COLUMNS = `nft_item_address, nft_item_owner, domain, dns_next_resolver, dns_wallet, dns_site_adnl,
  dns_storage_bag_id`;
