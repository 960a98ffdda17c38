// The standard codes loaded from tonweb hash to the values indexers know (shared/vectors/code_hashes.json), and our
// StateInits, addresses and bodies for them agree bit for bit with tonweb's own wrappers, an independent
// implementation of the same layouts (contracts.md §4, §7, §8.1).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Address, type Cell, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { highloadV3Address, highloadV3StateInit } from './highload-v3.ts';
import { storeNftTransfer } from './nft.ts';
import { offchainContent, snakeText, textComment, toCell } from './payload.ts';
import { STANDARD_CODE_HASHES, standardCodes } from './standard-codes.ts';
import {
  STANDARD_ROYALTY_BASE,
  standardNftCollectionAddress,
  standardNftCollectionStateInit,
  standardNftItemAddress,
  standardNftMintBody,
} from './standard-nft.ts';
import { storeVestingAddWhitelist, vestingAddress, vestingStateInit } from './vesting.ts';

const VECTORS = process.env.TONGATE_VECTORS ?? '../shared/vectors';

// tonweb is untyped for these classes: a loose view of what the checks call.
// biome-ignore lint/suspicious/noExplicitAny: tonweb's CommonJS surface has no types for these classes
const TonWeb = createRequire(import.meta.url)('tonweb') as any;
const { BN } = TonWeb.utils;
const twAddress = (a: Address) => new TonWeb.utils.Address(a.toRawString());
const rawOf = async (c: { getAddress(): Promise<{ toString(uf: boolean): string }> }) =>
  (await c.getAddress()).toString(false);
const twHash = async (cell: { hash(): Promise<Uint8Array> }) => Buffer.from(await cell.hash()).toString('hex');
const hashOf = (c: Cell) => c.hash().toString('hex');

const key = keyPairFromSeed(Buffer.alloc(32, 7));
const alice = new Address(0, Buffer.alloc(32, 0xa1));
const bob = new Address(0, Buffer.alloc(32, 0xb0));
const carol = new Address(-1, Buffer.alloc(32, 0xc3));

describe('standard codes from tonweb', () => {
  it('hash to the code hashes the indexers key on, as listed in contracts.md and code_hashes.json', async () => {
    const codes = standardCodes();
    expect(hashOf(codes.vesting)).toBe('b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590');
    expect(hashOf(codes.nftCollection)).toBe('64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca');
    expect(hashOf(codes.nftItem)).toBe('4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42');
    expect(hashOf(codes.highloadV3)).toBe('11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525');
    expect(standardCodes()).toBe(codes); // loaded once

    let text: string;
    try {
      text = await readFile(join(VECTORS, 'code_hashes.json'), 'utf8');
    } catch {
      console.warn(`skipped the code_hashes.json cross-check: no vectors at ${VECTORS} (set TONGATE_VECTORS)`);
      return;
    }
    const rows = (JSON.parse(text) as { rows: Array<{ name: string; code_hash: string }> }).rows;
    const names = (hash: string) => rows.filter((r) => r.code_hash === hash).map((r) => r.name);
    expect(names(STANDARD_CODE_HASHES.vesting)).toContain('wallet_vesting');
    expect(names(STANDARD_CODE_HASHES.nftItem)).toContain('nft_item_simple');
    expect(names(STANDARD_CODE_HASHES.highloadV3)).toContain('highload_v3');
    expect(names(STANDARD_CODE_HASHES.nftCollection)).toContain('nft_collection_editable (assets-sdk build)');
  });

  it('vesting: the StateInit address and the add_whitelist body equal tonweb VestingWalletV1', async () => {
    const params = {
      startTime: 1_700_000_000,
      totalDuration: 3600,
      unlockPeriod: 60,
      cliffDuration: 600,
      totalAmount: toNano('12.5'),
      senderAddress: alice,
      ownerAddress: bob,
    };
    const ours = vestingAddress(vestingStateInit({ publicKey: key.publicKey, params }));
    const tw = new TonWeb.LockupWallets.VestingWalletV1(undefined, {
      publicKey: new Uint8Array(key.publicKey),
      wc: 0,
      vestingStartTime: params.startTime,
      vestingTotalDuration: params.totalDuration,
      unlockPeriod: params.unlockPeriod,
      cliffDuration: params.cliffDuration,
      vestingTotalAmount: new BN(params.totalAmount.toString()),
      vestingSenderAddress: twAddress(alice),
      ownerAddress: twAddress(bob),
    });
    expect(ours.toRawString()).toBe(await rawOf(tw));

    for (const addresses of [[carol], [carol, alice, bob]]) {
      const body = toCell(storeVestingAddWhitelist({ queryId: 77n, addresses }));
      const theirs = tw.createAddWhitelistBody({ addresses: addresses.map(twAddress), queryId: 77 });
      expect(hashOf(body)).toBe(await twHash(theirs));
    }
  });

  it('NFT: collection and item addresses, mint and transfer bodies equal tonweb NftCollection / NftItem', async () => {
    const base = 'https://example.org/items/';
    const init = standardNftCollectionStateInit({
      ownerAddress: alice,
      collectionContent: offchainContent('https://example.org/collection.json'),
      commonContent: snakeText(base),
      royaltyParams: { numerator: 25, denominator: STANDARD_ROYALTY_BASE, destination: bob },
    });
    const collection = standardNftCollectionAddress(init);
    const twCollection = new TonWeb.token.nft.NftCollection(undefined, {
      ownerAddress: twAddress(alice),
      collectionContentUri: 'https://example.org/collection.json',
      nftItemContentBaseUri: base,
      nftItemCodeHex: TonWeb.token.nft.NftItem.codeHex,
      royalty: 0.025,
      royaltyAddress: twAddress(bob),
    });
    expect(collection.toRawString()).toBe(await rawOf(twCollection));

    const twItem = new TonWeb.token.nft.NftItem(undefined, { index: 3, collectionAddress: twAddress(collection) });
    expect(standardNftItemAddress(collection, 3n).toRawString()).toBe(await rawOf(twItem));

    const mint = standardNftMintBody({
      queryId: 5n,
      itemIndex: 3n,
      amount: toNano('0.05'),
      owner: carol,
      uriTail: '3.json',
    });
    const twMint = twCollection.createMintBody({
      itemIndex: 3,
      amount: new BN(toNano('0.05').toString()),
      itemOwnerAddress: twAddress(carol),
      itemContentUri: '3.json',
      queryId: 5,
    });
    expect(hashOf(mint)).toBe(await twHash(twMint));

    const comment = textComment('gift');
    const transfer = toCell(
      storeNftTransfer({
        queryId: 9n,
        newOwner: bob,
        responseDestination: alice,
        customPayload: null,
        forwardAmount: toNano('0.01'),
        forwardPayload: { kind: 'right', value: comment },
      }),
    );
    const twComment = new TonWeb.boc.Cell();
    twComment.bits.writeUint(0, 32);
    twComment.bits.writeString('gift');
    const twTransfer = await twItem.createTransferBody({
      queryId: 9,
      newOwnerAddress: twAddress(bob),
      responseAddress: twAddress(alice),
      forwardAmount: new BN(toNano('0.01').toString()),
      forwardPayload: twComment,
    });
    expect(hashOf(transfer)).toBe(await twHash(twTransfer));
  });

  it('highload v3: the StateInit address equals tonweb HighloadWalletContractV3', async () => {
    const ours = highloadV3Address(
      highloadV3StateInit({ publicKey: key.publicKey, subwalletId: 0x10ad, timeout: 3600 }),
    );
    const tw = new TonWeb.HighloadWallets.HighloadWalletContractV3(undefined, {
      publicKey: new Uint8Array(key.publicKey),
      timeout: 3600,
    });
    expect(ours.toRawString()).toBe(await rawOf(tw));
    // a different timeout is a different wallet
    const other = highloadV3Address(
      highloadV3StateInit({ publicKey: key.publicKey, subwalletId: 0x10ad, timeout: 7200 }),
    );
    expect(other.equals(ours)).toBe(false);
  });
});
