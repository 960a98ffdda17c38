// parseWalletState against wallets that are not ours: @ton/ton's wallet contracts run in @ton/sandbox (the data
// cell after real transfers, compared with the contracts' own get-methods), and mainnet wallet states whose seqno
// the source repository asserts.
import { randomBytes } from 'node:crypto';
import { type Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import {
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { knownWalletCode } from '../../ton/index.ts';
import { parseWalletState } from './wallet-state.ts';

const keys = keyPairFromSeed(randomBytes(32));
const SUBWALLET = 0xf00dbeef; // above 2^31: wallet_id must come back unsigned, as toncenter prints it

interface Case {
  type: string;
  contract: { address: Address; init: { code: Cell; data: Cell } };
  send(bc: Blockchain, seqno: number, to: Address): Promise<void>;
  /** The seqno getter, when the code has one (v1r1 has no get-methods at all). */
  seqnoGetter: boolean;
  /** The wallet id the contract was created with, or the name of its getter. */
  walletId?: number | 'get_subwallet_id';
  signatureGetter?: string;
}

const transfer = (to: Address) => internal({ to, value: toNano('0.01'), bounce: false });

function cases(): Case[] {
  const publicKey = keys.publicKey;
  const secretKey = keys.secretKey;
  const v1 = <T extends WalletContractV1R1 | WalletContractV1R2 | WalletContractV1R3>(
    type: string,
    c: T,
    seqnoGetter: boolean,
  ): Case => ({
    type,
    contract: c,
    seqnoGetter,
    send: (bc, seqno, to) =>
      // biome-ignore lint/suspicious/noExplicitAny: the three classes share this argument type
      (bc.openContract(c) as any).sendTransfer({ seqno, secretKey, message: transfer(to) }),
  });
  const multi = <
    T extends
      | WalletContractV2R1
      | WalletContractV2R2
      | WalletContractV3R1
      | WalletContractV3R2
      | WalletContractV4
      | WalletContractV5R1,
  >(
    type: string,
    c: T,
    extra: Partial<Case>,
  ): Case => ({
    type,
    contract: c,
    seqnoGetter: true,
    send: (bc, seqno, to) =>
      // biome-ignore lint/suspicious/noExplicitAny: each class has its own (compatible) argument type
      (bc.openContract(c) as any).sendTransfer({ seqno, secretKey, messages: [transfer(to)] }),
    ...extra,
  });
  return [
    v1('wallet v1 r1', WalletContractV1R1.create({ workchain: 0, publicKey }), false),
    v1('wallet v1 r2', WalletContractV1R2.create({ workchain: 0, publicKey }), true),
    v1('wallet v1 r3', WalletContractV1R3.create({ workchain: 0, publicKey }), true),
    multi('wallet v2 r1', WalletContractV2R1.create({ workchain: 0, publicKey }), {}),
    multi('wallet v2 r2', WalletContractV2R2.create({ workchain: 0, publicKey }), {}),
    multi('wallet v3 r1', WalletContractV3R1.create({ workchain: 0, publicKey, walletId: SUBWALLET }), {
      walletId: SUBWALLET,
    }),
    multi('wallet v3 r2', WalletContractV3R2.create({ workchain: 0, publicKey, walletId: SUBWALLET }), {
      walletId: SUBWALLET,
    }),
    multi('wallet v4 r2', WalletContractV4.create({ workchain: 0, publicKey, walletId: SUBWALLET }), {
      walletId: 'get_subwallet_id',
    }),
    multi('wallet v5 r1', WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -3 } }), {
      walletId: 'get_subwallet_id',
      signatureGetter: 'is_signature_allowed',
    }),
  ];
}

async function getInt(bc: Blockchain, address: Address, method: string): Promise<bigint> {
  const r = await bc.runGetMethod(address, method);
  expect(r.exitCode, method).toBe(0);
  return r.stackReader.readBigNumber();
}

describe('parseWalletState on @ton/ton wallets run in the sandbox', () => {
  it.each(cases().map((c) => [c.type, c] as const))(
    '%s: seqno, wallet id and flags match the contract',
    async (type, c) => {
      const bc = await Blockchain.create();
      const { code, data } = c.contract.init;
      const address = c.contract.address;
      expect(knownWalletCode(code.hash())?.v2Type, 'the code is one of the known wallet codes').toBe(type);
      await bc.setShardAccount(address, createShardAccount({ address, code, data, balance: toNano('10') }));
      const sink = (await bc.treasury('sink')).address;
      const SENT = 3;
      for (let seqno = 0; seqno < SENT; seqno++) await c.send(bc, seqno, sink);

      const state = (await bc.getContract(address)).accountState;
      expect(state?.type).toBe('active');
      const dataNow = state?.type === 'active' ? state.state.data : undefined;
      expect(dataNow).toBeDefined();
      const parsed = parseWalletState(code.hash().toString('base64'), dataNow!.toBoc().toString('base64'));
      expect(parsed?.walletType).toBe(type);
      // The wallet accepted SENT signed transfers; where the code has a seqno getter it must agree.
      expect(parsed?.seqno).toBe(SENT);
      if (c.seqnoGetter) expect(BigInt(parsed!.seqno)).toBe(await getInt(bc, address, 'seqno'));
      if (c.walletId === undefined) expect(parsed?.walletId).toBeUndefined();
      else if (c.walletId === 'get_subwallet_id') {
        expect(BigInt(parsed!.walletId!)).toBe(BigInt.asUintN(32, await getInt(bc, address, 'get_subwallet_id')));
      } else expect(parsed?.walletId).toBe(c.walletId);
      if (c.signatureGetter) {
        expect(parsed?.isSignatureAllowed).toBe((await getInt(bc, address, c.signatureGetter)) !== 0n);
      } else expect(parsed?.isSignatureAllowed).toBeUndefined();
    },
  );

  it('wallet v5 beta: toncenter reads the first bit and the next 64 bits with the v5r1 layout', () => {
    // @ton/ton's v5 beta code is a library cell whose body is not bundled, so the sandbox cannot run it; its
    // initial data shows the layout: seqno:int33 (first bit 0), then the 80-bit wallet id starting with the
    // network id. toncenter's parser (ParseWalletV5) makes that bit is_signature_allowed and the network id
    // wallet_id (as uint32).
    const w = WalletContractV5Beta.create({ publicKey: keys.publicKey, walletId: { networkGlobalId: -239 } });
    const codeHash = w.init.code.hash().toString('base64');
    expect(knownWalletCode(codeHash)?.v2Type).toBe('wallet v5 beta');
    const parsed = parseWalletState(codeHash, w.init.data.toBoc().toString('base64'));
    expect(parsed).toEqual({ walletType: 'wallet v5 beta', seqno: 0, walletId: -239 >>> 0, isSignatureAllowed: false });
  });

  it('answers null for other codes, missing or short data, and bad BoCs', () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const hash = v4.init.code.hash().toString('base64');
    expect(parseWalletState(hash, null)).toBeNull();
    expect(parseWalletState(null, v4.init.data.toBoc().toString('base64'))).toBeNull();
    expect(
      parseWalletState(Buffer.alloc(32, 7).toString('base64'), v4.init.data.toBoc().toString('base64')),
    ).toBeNull();
    expect(parseWalletState(hash, 'not a boc')).toBeNull();
    // 40 bits: enough for a v1 seqno, too short for v4's seqno + wallet id.
    const short = beginCell().storeUint(1, 40).endCell().toBoc().toString('base64');
    expect(parseWalletState(hash, short)).toBeNull();
    const v1 = WalletContractV1R1.create({ workchain: 0, publicKey: keys.publicKey }).init.code.hash();
    expect(parseWalletState(v1.toString('base64'), short)).toEqual({ walletType: 'wallet v1 r1', seqno: 0 });
  });
});

describe.runIf(hasVectors)('parseWalletState on mainnet wallet states', () => {
  // tonindexer/anton internal/app/parser/account_test.go asserts these seqnos for the two wallets.
  it.each([
    ['wallet_v3r2_EQDj5AA8.json', 'wallet v3 r2', 1],
    ['wallet_v4r2_EQBCPrKa.json', 'wallet v4 r2', 34],
  ] as const)('%s', (file, type, seqno) => {
    const v = loadVector<{ code_boc_base64: string; data_boc_base64: string; expected: { seqno: number } }>(
      'accounts',
      file,
    );
    expect(v.expected.seqno).toBe(seqno);
    const codeHash = Cell.fromBase64(v.code_boc_base64).hash().toString('base64');
    const parsed = parseWalletState(codeHash, v.data_boc_base64);
    expect(parsed).toMatchObject({ walletType: type, seqno });
    expect(parsed?.walletId).toBeTypeOf('number');
  });
});
