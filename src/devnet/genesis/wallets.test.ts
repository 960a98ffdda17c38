import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_GLOBAL_ID, DEVNET_WALLET_BALANCE, type DevnetWallet, deriveWallets } from './wallets.ts';

describe('deriveWallets', () => {
  let wallets: DevnetWallet[];
  beforeAll(async () => {
    wallets = await deriveWallets('wallet-seed');
  });

  it('derives a v3r2, a v4r2 and a v5r1 wallet, the same every time', async () => {
    expect(wallets.map((w) => w.version)).toEqual(['v3r2', 'v4r2', 'v5r1']);
    const again = await deriveWallets('wallet-seed');
    expect(again.map((w) => w.mnemonic)).toEqual(wallets.map((w) => w.mnemonic));
    expect(again.map((w) => w.address.toRawString())).toEqual(wallets.map((w) => w.address.toRawString()));
    for (const w of wallets) expect(w.balance).toBe(DEVNET_WALLET_BALANCE);
  });

  it('gives each wallet a valid 24-word TON mnemonic that yields its key', async () => {
    expect(new Set(wallets.map((w) => w.mnemonic.join(' '))).size).toBe(3);
    for (const w of wallets) {
      expect(w.mnemonic).toHaveLength(24);
      expect(await mnemonicValidate(w.mnemonic)).toBe(true);
      const kp = await mnemonicToPrivateKey(w.mnemonic);
      expect(kp.publicKey.equals(w.publicKey)).toBe(true);
      expect(kp.secretKey.equals(w.secretKey)).toBe(true);
    }
  });

  it("matches @ton/ton's own addresses and StateInits (v5r1 for the devnet's global id)", () => {
    const [v3, v4, v5] = wallets as [DevnetWallet, DevnetWallet, DevnetWallet];
    const c3 = WalletContractV3R2.create({ workchain: 0, publicKey: v3.publicKey });
    const c4 = WalletContractV4.create({ workchain: 0, publicKey: v4.publicKey });
    const c5 = WalletContractV5R1.create({
      publicKey: v5.publicKey,
      walletId: {
        networkGlobalId: DEVNET_GLOBAL_ID,
        context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 },
      },
    });
    for (const [w, c] of [
      [v3, c3],
      [v4, c4],
      [v5, c5],
    ] as const) {
      expect(w.address.equals(c.address)).toBe(true);
      expect(w.stateInit.code!.equals(c.init.code)).toBe(true);
      expect(w.stateInit.data!.equals(c.init.data)).toBe(true);
    }
    // The mainnet default wallet id would give another address.
    expect(v5.address.equals(WalletContractV5R1.create({ publicKey: v5.publicKey }).address)).toBe(false);
  });

  it('gives different wallets for a different seed, and more per version on request', async () => {
    const other = await deriveWallets('wallet-seed-2', { perVersion: 2 });
    expect(other.map((w) => w.version)).toEqual(['v3r2', 'v4r2', 'v5r1', 'v3r2', 'v4r2', 'v5r1']);
    const addrs = new Set([...wallets, ...other].map((w) => w.address.toRawString()));
    expect(addrs.size).toBe(9);
  });
});
