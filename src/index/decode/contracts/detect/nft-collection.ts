// NFT collections (TEP-62, contracts.md §4.3): get_collection_data → int next_item_index, cell content, slice
// owner; the content must be TEP-64 and the owner addr_none or an addr_std (ton-index-worker NftCollectionDetectorR).
import { loadTokenContent } from '../content.ts';
import type { Family } from './family.ts';
import { addressAt, cellAt, intAt } from './stack.ts';

export const nftCollection: Family = {
  getter: 'get_collection_data',
  async detect(account, base, { getters }) {
    const s = await getters.run(account, 'get_collection_data', [], ['int', 'cell', 'slice']);
    if (!s) return null;
    const owner = addressAt(s, 2);
    const content = loadTokenContent(cellAt(s, 1)!);
    if (owner === undefined || content === null) return null;
    return { ...base, kind: 'nft_collection', nextItemIndex: intAt(s, 0), owner, content };
  },
};
