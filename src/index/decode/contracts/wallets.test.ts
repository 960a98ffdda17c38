// walletInfo by code hash: the wallet vectors give the type and seqno their sources assert (and the seqno and
// subwallet the vector collector's getters computed); the table's hashes are those of the codes @ton/ton and
// tonweb ship (recomputed here) and of shared/vectors/code_hashes.json.
import { createRequire } from 'node:module';
import { Cell } from '@ton/core';
import {
  WalletContractV1R3,
  WalletContractV2R2,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../../test/helpers/vectors.ts';
import { WALLET_CODES, walletCode } from '../../../ton/index.ts';
import { type AccountVector, accountOf, computed } from './detect/detect.test-util.ts';
import { walletInfo } from './wallets.ts';

const publicKey = Buffer.alloc(32, 7);

describe.runIf(hasVectors)('walletInfo on mainnet wallet vectors', () => {
  it('the type and seqno the sources assert (anton account_test.go)', () => {
    for (const file of ['wallet_v3r2_EQDj5AA8.json', 'wallet_v4r2_EQBCPrKa.json']) {
      const v = loadVector<AccountVector>('accounts', file);
      const a = accountOf(v);
      const expected = v.expected as { interfaces: string[]; seqno: number };
      const info = walletInfo(a.code.hash(), a.data);
      expect(info?.type).toBe(expected.interfaces[0]);
      expect(info?.seqno).toBe(expected.seqno);
    }
    const v4 = loadVector<AccountVector>('accounts', 'wallet_v4r2_EQBCPrKa.json');
    const a = accountOf(v4);
    expect(walletInfo(a.code.hash(), a.data)?.walletId).toBe(Number(computed(v4, 'get_subwallet_id', 0)));
  });

  it.each([
    ['fatblock_wallet_v3r2_04ae074a.json', 'wallet_v3r2', 'wallet v3 r2'],
    ['fatblock_wallet_v4r2_89f356bd.json', 'wallet_v4r2', 'wallet v4 r2'],
    ['fatblock_wallet_v5r1_bc91b30e.json', 'wallet_v5r1', 'wallet v5 r1'],
  ])('%s: seqno as its getter computes it', (file, type, v2Type) => {
    const v = loadVector<AccountVector>('accounts', file);
    const a = accountOf(v);
    const info = walletInfo(a.code.hash(), a.data);
    expect(info).toMatchObject({ type, v2Type, seqno: Number(computed(v, 'seqno', 0)) });
  });

  it('highload v3: the subwallet id its getter computes, no seqno', () => {
    const v = loadVector<AccountVector>('accounts', 'fatblock_highload_v3_cee275c9.json');
    const a = accountOf(v);
    expect(walletInfo(a.code.hash().toString('hex'), a.data)).toEqual({
      type: 'wallet_highload_v3r1',
      v2Type: null,
      seqno: null,
      walletId: Number(computed(v, 'get_subwallet_id', 0)),
      isSignatureAllowed: null,
    });
  });
});

describe('the wallet code table', () => {
  it('names the codes @ton/ton ships, and reads their fresh data', () => {
    const cases = [
      [WalletContractV1R3.create({ workchain: 0, publicKey }), 'wallet_v1r3', 0, null],
      [WalletContractV2R2.create({ workchain: 0, publicKey }), 'wallet_v2r2', 0, null],
      [WalletContractV3R2.create({ workchain: 0, publicKey }), 'wallet_v3r2', 0, 698983191],
      [WalletContractV4.create({ workchain: 0, publicKey }), 'wallet_v4r2', 0, 698983191],
      // contracts.md §8.1: mainnet, workchain 0, subwallet 0 gives wallet id 2147483409.
      [WalletContractV5R1.create({ publicKey }), 'wallet_v5r1', 0, 2147483409],
    ] as const;
    for (const [w, type, seqno, walletId] of cases) {
      expect(walletInfo(w.init.code.hash(), w.init.data)).toMatchObject({ type, seqno, walletId });
    }
    const v5r1 = WalletContractV5R1.create({ publicKey });
    expect(walletInfo(v5r1.init.code.hash(), v5r1.init.data)?.isSignatureAllowed).toBe(true);
    expect(walletCode(WalletContractV5Beta.create({ publicKey }).init.code.hash())?.type).toBe('wallet_v5_beta');
  });

  it('names the vesting and lockup codes tonweb ships', () => {
    const tonweb = createRequire(import.meta.url)('tonweb') as {
      LockupWallets: { VestingWalletV1: { codeHex: string } };
    };
    const vesting = Cell.fromHex(tonweb.LockupWallets.VestingWalletV1.codeHex);
    expect(walletCode(vesting.hash())?.type).toBe('wallet_vesting');
    expect(walletCode('88FBF818E47D5F328F7DC34BAD4323BB28A12EC6C75CE9EC25D77746C56E1DED')?.type).toBe(
      'wallet_v3r2_lockup',
    );
  });

  it.runIf(hasVectors)('holds every wallet-like hash of code_hashes.json', () => {
    const { rows } = loadVector<{ rows: Array<{ name: string; code_hash: string }> }>('code_hashes.json');
    const wallets = rows.filter((r) => /^(wallet_|highload_)/.test(r.name));
    expect(wallets.length).toBeGreaterThan(15);
    for (const r of wallets) expect(walletCode(r.code_hash), r.name).toBeDefined();
    expect(new Set(WALLET_CODES.map((c) => c.hash)).size).toBe(WALLET_CODES.length);
  });

  it('null for other codes; the type with null fields for data too short for its layout', () => {
    expect(walletInfo(Buffer.alloc(32), Cell.EMPTY)).toBeNull();
    const v4 = WalletContractV4.create({ workchain: 0, publicKey });
    expect(walletInfo(v4.init.code.hash(), Cell.EMPTY)).toEqual({
      type: 'wallet_v4r2',
      v2Type: 'wallet v4 r2',
      seqno: null,
      walletId: null,
      isSignatureAllowed: null,
    });
    expect(walletInfo(v4.init.code.hash(), null)?.seqno).toBeNull();
  });
});
