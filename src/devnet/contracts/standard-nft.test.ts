// tonweb's standard NFT codes (editable collection 64bb2d46…, simple item 4c912382…) on @ton/sandbox, against
// contracts.md §4: getter stack types and values, the item address derivation against the account the collection
// really created, the uninitialised item's null owner, the transfer chain's bodies and flags, and the editable
// collection's change_content.
import { type Address, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { NFT_OP } from '../../ton/index.ts';
import {
  getNftAddressByIndexArgs,
  getNftContentArgs,
  NFT_ERROR,
  readNftAddressByIndex,
  readNftCollectionData,
  readNftContent,
  readNftData,
  readRoyaltyParams,
  storeNftTransfer,
} from './nft.ts';
import { NO_PAYLOAD, offchainContent, snakeText, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import { standardCodes } from './standard-codes.ts';
import {
  STANDARD_ROYALTY_BASE,
  standardNftCollectionAddress,
  standardNftCollectionStateInit,
  standardNftItemAddress,
  standardNftItemStateInit,
  standardNftMintBody,
  storeStandardNftChangeContent,
} from './standard-nft.ts';
import { parseExcesses, parseNftOwnershipAssigned, parseTep64, parseTextComment } from './tep-parsers.test-util.ts';

const BASE = 'https://example.org/std/';

interface Setup {
  chain: Blockchain;
  owner: SandboxContract<TreasuryContract>;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  collection: Address;
  /** The item account the collection's deploy message created. */
  created: Address;
}

function mint(index: bigint, owner: Address, queryId = 0n) {
  return standardNftMintBody({ queryId, itemIndex: index, amount: toNano('0.06'), owner, uriTail: `${index}.json` });
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const [owner, alice, bob] = await Promise.all(['std-owner', 'alice', 'bob'].map((s) => chain.treasury(s)));
  const init = standardNftCollectionStateInit({
    ownerAddress: owner!.address,
    collectionContent: offchainContent(`${BASE}collection.json`),
    commonContent: snakeText(BASE),
    royaltyParams: { numerator: 25, denominator: STANDARD_ROYALTY_BASE, destination: owner!.address },
  });
  const collection = standardNftCollectionAddress(init);
  const r = await owner!.send({
    to: collection,
    value: toNano('0.2'),
    init,
    bounce: false,
    body: mint(0n, alice!.address),
  });
  const tx = findTx(r.transactions, { from: owner!.address, to: collection });
  expect(exitCode(tx)).toBe(0);
  const deploy = outMessages(tx)[0]!;
  expect(deploy.init?.code?.hash()).toEqual(standardCodes().nftItem.hash());
  return { chain, owner: owner!, alice: alice!, bob: bob!, collection, created: deploy.info.dest as Address };
}

describe('standard NFT collection and item from tonweb (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('getters have the §4.3 types; the derived item address is the account the collection created', async () => {
    const cd = await runGetter(s.chain, s.collection, 'get_collection_data');
    expect(stackTypes(cd)).toEqual(['int', 'cell', 'slice']);
    const c = readNftCollectionData(cd);
    expect(c.nextItemIndex).toBe(1n);
    expect(c.ownerAddress?.equals(s.owner.address)).toBe(true);
    expect(parseTep64(c.collectionContent)).toEqual({ layout: 'offchain', uri: `${BASE}collection.json` });

    const byIndex = await runGetter(s.chain, s.collection, 'get_nft_address_by_index', getNftAddressByIndexArgs(0n));
    expect(stackTypes(byIndex)).toEqual(['slice']);
    expect(readNftAddressByIndex(byIndex).equals(s.created)).toBe(true);
    expect(standardNftItemAddress(s.collection, 0n).equals(s.created)).toBe(true);

    const nd = await runGetter(s.chain, s.created, 'get_nft_data');
    expect(stackTypes(nd)).toEqual(['int', 'int', 'slice', 'slice', 'cell']);
    const d = readNftData(nd);
    expect(nd[0]).toEqual({ type: 'int', value: -1n });
    expect(d.index).toBe(0n);
    expect(d.collectionAddress?.equals(s.collection)).toBe(true);
    expect(d.ownerAddress?.equals(s.alice.address)).toBe(true);

    const full = await runGetter(s.chain, s.collection, 'get_nft_content', getNftContentArgs(0n, d.individualContent));
    expect(stackTypes(full)).toEqual(['cell']);
    expect(parseTep64(readNftContent(full))).toEqual({ layout: 'offchain', uri: `${BASE}0.json` });

    const royalty = await runGetter(s.chain, s.collection, 'royalty_params');
    expect(stackTypes(royalty)).toEqual(['int', 'int', 'slice']);
    const rp = readRoyaltyParams(royalty);
    expect([rp.numerator, rp.denominator]).toEqual([25, 1000]);
    expect(rp.destination.equals(s.owner.address)).toBe(true);
  });

  it('an item deployed by anyone but its collection stays uninitialised: null owner and content (§4.3)', async () => {
    const init = standardNftItemStateInit(s.collection, 5n);
    const item = standardNftItemAddress(s.collection, 5n);
    await s.bob.send({ to: item, value: toNano('0.05'), init, bounce: false });
    const nd = await runGetter(s.chain, item, 'get_nft_data');
    expect(stackTypes(nd)).toEqual(['int', 'int', 'slice', 'null', 'null']);
    expect(nd.slice(0, 2)).toEqual([
      { type: 'int', value: 0n },
      { type: 'int', value: 5n },
    ]);
  });

  it('mints in order only (402 beyond next_item_index) and only for the owner (401)', async () => {
    const r1 = await s.owner.send({ to: s.collection, value: toNano('0.1'), body: mint(3n, s.bob.address) });
    expect(exitCode(findTx(r1.transactions, { from: s.owner.address, to: s.collection }))).toBe(
      NFT_ERROR.invalidItemIndex,
    );
    const r2 = await s.bob.send({ to: s.collection, value: toNano('0.1'), body: mint(1n, s.bob.address) });
    expect(exitCode(findTx(r2.transactions, { from: s.bob.address, to: s.collection }))).toBe(NFT_ERROR.notFromOwner);
    await s.owner.send({ to: s.collection, value: toNano('0.1'), body: mint(1n, s.bob.address) });
    const c = readNftCollectionData(await runGetter(s.chain, s.collection, 'get_collection_data'));
    expect(c.nextItemIndex).toBe(2n);
    const item1 = readNftData(await runGetter(s.chain, standardNftItemAddress(s.collection, 1n), 'get_nft_data'));
    expect(item1.ownerAddress?.equals(s.bob.address)).toBe(true);
  });

  it('transfer -> ownership_assigned (forward amount, non-bounceable) + excesses; the owner changes', async () => {
    const item = s.created;
    const r = await s.alice.send({
      to: item,
      value: toNano('0.1'),
      body: toCell(
        storeNftTransfer({
          queryId: 31n,
          newOwner: s.bob.address,
          responseDestination: s.alice.address,
          customPayload: null,
          forwardAmount: toNano('0.01'),
          forwardPayload: { kind: 'right', value: textComment('for bob') },
        }),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: s.alice.address, to: item, op: NFT_OP.transfer }))).toBe(0);
    const assigned = internalIn(
      findTx(r.transactions, { from: item, to: s.bob.address, op: NFT_OP.ownershipAssigned }),
    );
    expect(assigned.info.bounce).toBe(false);
    expect(assigned.info.value.coins).toBe(toNano('0.01'));
    const oa = parseNftOwnershipAssigned(assigned.body);
    expect(oa.queryId).toBe(31n);
    expect(oa.prevOwner?.equals(s.alice.address)).toBe(true);
    expect(parseTextComment(oa.forwardPayload.cell)).toBe('for bob');
    const excess = internalIn(findTx(r.transactions, { from: item, to: s.alice.address, op: NFT_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(parseExcesses(excess.body).queryId).toBe(31n);
    const d = readNftData(await runGetter(s.chain, item, 'get_nft_data'));
    expect(d.ownerAddress?.equals(s.bob.address)).toBe(true);

    // the old owner can no longer move it
    const again = await s.alice.send({
      to: item,
      value: toNano('0.1'),
      body: toCell(
        storeNftTransfer({
          queryId: 32n,
          newOwner: s.alice.address,
          responseDestination: null,
          customPayload: null,
          forwardAmount: 0n,
          forwardPayload: NO_PAYLOAD,
        }),
      ),
    });
    expect(exitCode(findTx(again.transactions, { from: s.alice.address, to: item }))).toBe(NFT_ERROR.notFromOwner);
  });

  it('change_content#4 replaces the collection content and royalty (owner only)', async () => {
    const body = toCell(
      storeStandardNftChangeContent({
        queryId: 4n,
        collectionContent: offchainContent('https://example.org/v2/collection.json'),
        commonContent: snakeText('https://example.org/v2/'),
        royaltyParams: { numerator: 50, denominator: 1000, destination: s.alice.address },
      }),
    );
    const refused = await s.bob.send({ to: s.collection, value: toNano('0.05'), body });
    expect(exitCode(findTx(refused.transactions, { from: s.bob.address, to: s.collection }))).toBe(
      NFT_ERROR.notFromOwner,
    );
    await s.owner.send({ to: s.collection, value: toNano('0.05'), body });
    const c = readNftCollectionData(await runGetter(s.chain, s.collection, 'get_collection_data'));
    expect(parseTep64(c.collectionContent)).toEqual({
      layout: 'offchain',
      uri: 'https://example.org/v2/collection.json',
    });
    const rp = readRoyaltyParams(await runGetter(s.chain, s.collection, 'royalty_params'));
    expect([rp.numerator, rp.denominator, rp.destination.equals(s.alice.address)]).toEqual([50, 1000, true]);
    const d = readNftData(await runGetter(s.chain, s.created, 'get_nft_data'));
    const full = readNftContent(
      await runGetter(s.chain, s.collection, 'get_nft_content', getNftContentArgs(0n, d.individualContent)),
    );
    expect(parseTep64(full)).toEqual({ layout: 'offchain', uri: 'https://example.org/v2/0.json' });
  });
});
