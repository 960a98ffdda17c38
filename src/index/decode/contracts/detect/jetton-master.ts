// Jetton masters (TEP-74, contracts.md §2.4): get_jetton_data → int total_supply, int mintable, slice admin,
// cell content, cell wallet_code. The content must be TEP-64 and the admin addr_none or an addr_std, else the
// contract is not a jetton master (ton-index-worker JettonMasterDetectorR). jetton_wallet_code_hash is the hash
// of the returned code cell: the library cell's for library-deployed wallets (contracts.md §0.1).
import { loadTokenContent } from '../content.ts';
import type { Family } from './family.ts';
import { addressAt, cellAt, intAt } from './stack.ts';

export const jettonMaster: Family = {
  getter: 'get_jetton_data',
  async detect(account, base, { getters }) {
    const s = await getters.run(account, 'get_jetton_data', [], ['int', 'int', 'slice', 'cell', 'cell']);
    if (!s) return null;
    const admin = addressAt(s, 2);
    const content = loadTokenContent(cellAt(s, 3)!);
    if (admin === undefined || content === null) return null;
    return {
      ...base,
      kind: 'jetton_master',
      totalSupply: intAt(s, 0),
      mintable: intAt(s, 1) !== 0n,
      admin,
      content,
      jettonWalletCodeHash: cellAt(s, 4)!.hash(),
    };
  },
};
