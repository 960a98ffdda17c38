// NFT items (TEP-62, contracts.md §4.3; ton-index-worker NftItemDetectorR): get_nft_data → int init, int index,
// slice collection, slice owner, cell individual_content (an uninitialised reference item answers null owner and
// content, so it is not detected). With a collection, the collection's get_nft_address_by_index(index) must be
// this address, and the full content is the collection's get_nft_content(index, individual_content); without one
// the individual content is the full content. The full content must be TEP-64. Items of a configured DNS
// collection also get their domain (in content.domain too, as toncenter puts it) and records (dns.ts).
import { loadTokenContent } from '../content.ts';
import type { DnsRecordValues } from '../types.ts';
import { loadDnsRecords, loadDomain } from './dns.ts';
import type { Family } from './family.ts';
import { addressAt, cellArg, cellAt, intArg, intAt } from './stack.ts';

export const nftItem: Family = {
  getter: 'get_nft_data',
  async detect(account, base, { ctx, getters, has }) {
    const s = await getters.run(account, 'get_nft_data', [], ['int', 'int', 'slice', 'slice', 'cell']);
    if (!s) return null;
    const index = intAt(s, 1);
    const collection = addressAt(s, 2);
    const owner = addressAt(s, 3);
    const individual = cellAt(s, 4)!;
    if (collection === undefined || owner === undefined) return null;

    let full = individual;
    if (collection) {
      const parent = await ctx.account(collection);
      if (!parent) return null;
      const derived = await getters.run(parent, 'get_nft_address_by_index', [intArg(index)], ['slice']);
      if (!derived || !addressAt(derived, 0)?.equals(account.address)) return null;
      const c = await getters.run(parent, 'get_nft_content', [intArg(index), cellArg(individual)], ['cell']);
      if (!c) return null;
      full = cellAt(c, 0)!;
    }
    const content = loadTokenContent(full);
    if (content === null) return null;

    let dns: DnsRecordValues | null = null;
    const root = collection ? ctx.dnsRoots.find((r) => r.collection.equals(collection)) : undefined;
    if (root) {
      const domain = await loadDomain(account, root.suffix, has, getters);
      if (domain !== null) {
        content.domain = domain;
        dns = has('dnsresolve') ? await loadDnsRecords(account, domain, getters) : null;
      }
    }
    return { ...base, kind: 'nft_item', init: intAt(s, 0) !== 0n, index, collection, owner, content, dns };
  },
};
