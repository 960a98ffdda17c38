// Jetton wallets (TEP-74, contracts.md §2.4-2.5): get_wallet_data → int balance, slice owner, slice master,
// cell code; owner and master must be addr_std. Cross-check: the master's get_wallet_address(owner) must be this
// address, so a contract that names a master it does not belong to is not detected (a fake wallet). Mintless
// wallets answer is_claimed (ton-index-worker JettonWalletDetectorR); the airdrop amount is off-chain, unknown here.
import type { Detected } from '../types.ts';
import type { Family } from './family.ts';
import { addressArg, addressAt, intAt } from './stack.ts';

export const jettonWallet: Family = {
  getter: 'get_wallet_data',
  async detect(account, base, { ctx, getters, has }) {
    const s = await getters.run(account, 'get_wallet_data', [], ['int', 'slice', 'slice', 'cell']);
    if (!s) return null;
    const owner = addressAt(s, 1);
    const jetton = addressAt(s, 2);
    if (!owner || !jetton) return null;

    const master = await ctx.account(jetton);
    if (!master) return null;
    const derived = await getters.run(master, 'get_wallet_address', [addressArg(owner)], ['slice']);
    if (!derived || !addressAt(derived, 0)?.equals(account.address)) return null;

    let mintless: Extract<Detected, { kind: 'jetton_wallet' }>['mintless'] = null;
    if (has('is_claimed')) {
      const c = await getters.run(account, 'is_claimed', [], ['int']);
      if (c) mintless = { isClaimed: intAt(c, 0) !== 0n, amount: null, startFrom: null, expireAt: null };
    }
    return { ...base, kind: 'jetton_wallet', balance: intAt(s, 0), owner, jetton, mintless };
  },
};
