// The NFT contracts on @ton/sandbox: getter layouts (contracts.md §4.3), item deployment by the collection, the
// transfer chain with ownership_assigned and excesses (bodies decoded by the spec-derived parsers), static data and
// royalty queries, and refused senders. Addresses are checked against the accounts the emulator created.
import { type Address, contractAddress, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { NFT_OP } from '../../ton/index.ts';
import { NFT_ITEM_CODE } from './codes.ts';
import {
  getNftAddressByIndexArgs,
  getNftContentArgs,
  NFT_ERROR,
  nftCollectionStateInit,
  nftItemInitCell,
  nftItemStateInit,
  readNftAddressByIndex,
  readNftCollectionData,
  readNftContent,
  readNftData,
  readRoyaltyParams,
  storeNftBatchDeploy,
  storeNftChangeOwner,
  storeNftDeployItem,
  storeNftGetRoyaltyParams,
  storeNftGetStaticData,
  storeNftTransfer,
} from './nft.ts';
import { contentKey, NO_PAYLOAD, offchainContent, onchainContent, snakeText, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import {
  parseExcesses,
  parseNftOwnershipAssigned,
  parseNftReportRoyaltyParams,
  parseNftReportStaticData,
  parseTep64,
  parseTextComment,
} from './tep-parsers.test-util.ts';

interface Setup {
  chain: Blockchain;
  owner: SandboxContract<TreasuryContract>;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  collection: Address;
}

function deployItemBody(index: bigint, owner: Address, suffix: string, queryId = 0n) {
  return toCell(
    storeNftDeployItem({
      queryId,
      itemIndex: index,
      amount: toNano('0.06'),
      content: nftItemInitCell({ owner, individualContent: snakeText(suffix) }),
    }),
  );
}

async function itemAt(chain: Blockchain, collection: Address, index: bigint): Promise<Address> {
  return readNftAddressByIndex(
    await runGetter(chain, collection, 'get_nft_address_by_index', getNftAddressByIndexArgs(index)),
  );
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const owner = await chain.treasury('collection-owner');
  const alice = await chain.treasury('alice');
  const bob = await chain.treasury('bob');
  const init = nftCollectionStateInit({
    ownerAddress: owner.address,
    collectionContent: offchainContent('https://example.org/collection.json'),
    commonContent: snakeText('https://example.org/items/'),
    royaltyParams: { numerator: 5, denominator: 100, destination: owner.address },
  });
  const collection = contractAddress(0, init);
  // Deploy the collection and its item 0 (owned by alice) in one message.
  const r = await owner.send({
    to: collection,
    value: toNano('0.2'),
    init,
    body: deployItemBody(0n, alice.address, '0.json'),
  });
  expect(exitCode(findTx(r.transactions, { from: owner.address, to: collection }))).toBe(0);
  return { chain, owner, alice, bob, collection };
}

describe('NFT collection and item (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('deploys items from the collection; getters have the §4.3 layout and derive the real addresses', async () => {
    const { chain, owner, alice, collection } = s;
    const colData = await runGetter(chain, collection, 'get_collection_data');
    expect(stackTypes(colData)).toEqual(['int', 'cell', 'slice']);
    const cd = readNftCollectionData(colData);
    expect(cd.nextItemIndex).toBe(1n);
    expect(cd.ownerAddress?.equals(owner.address)).toBe(true);
    expect(parseTep64(cd.collectionContent)).toEqual({
      layout: 'offchain',
      uri: 'https://example.org/collection.json',
    });

    // The item the emulator created is where the collection's deploy message went, with the init body in a ref.
    const txs = await chain.getTransactions(collection);
    const deploy = outMessages(txs[txs.length - 1]!)[0]!;
    expect(deploy.info.type === 'internal' && deploy.info.bounce).toBe(true);
    expect(deploy.init?.code?.hash()).toEqual(NFT_ITEM_CODE.hash());
    const created = deploy.info.dest as Address;
    expect((await itemAt(chain, collection, 0n)).equals(created)).toBe(true);
    expect(
      stackTypes(await runGetter(chain, collection, 'get_nft_address_by_index', getNftAddressByIndexArgs(0n))),
    ).toEqual(['slice']);

    const nftData = await runGetter(chain, created, 'get_nft_data');
    expect(stackTypes(nftData)).toEqual(['int', 'int', 'slice', 'slice', 'cell']);
    const nd = readNftData(nftData);
    expect(nftData[0]).toEqual({ type: 'int', value: -1n });
    expect(nd.index).toBe(0n);
    expect(nd.collectionAddress?.equals(collection)).toBe(true);
    expect(nd.ownerAddress?.equals(alice.address)).toBe(true);

    const full = await runGetter(chain, collection, 'get_nft_content', getNftContentArgs(0n, nd.individualContent));
    expect(stackTypes(full)).toEqual(['cell']);
    expect(parseTep64(readNftContent(full))).toEqual({ layout: 'offchain', uri: 'https://example.org/items/0.json' });

    const royalty = await runGetter(chain, collection, 'royalty_params');
    expect(stackTypes(royalty)).toEqual(['int', 'int', 'slice']);
    const rp = readRoyaltyParams(royalty);
    expect([rp.numerator, rp.denominator]).toEqual([5, 100]);
    expect(rp.destination.equals(owner.address)).toBe(true);
  });

  it('returns on-chain individual content as it is from get_nft_content', async () => {
    const { chain, owner, bob, collection } = s;
    const onchain = onchainContent({ name: 'Item one', description: 'on-chain item' });
    await owner.send({
      to: collection,
      value: toNano('0.1'),
      body: toCell(
        storeNftDeployItem({
          queryId: 1n,
          itemIndex: 1n,
          amount: toNano('0.06'),
          content: nftItemInitCell({ owner: bob.address, individualContent: onchain }),
        }),
      ),
    });
    const item = await itemAt(chain, collection, 1n);
    const nd = readNftData(await runGetter(chain, item, 'get_nft_data'));
    const full = readNftContent(
      await runGetter(chain, collection, 'get_nft_content', getNftContentArgs(1n, nd.individualContent)),
    );
    const parsed = parseTep64(full);
    expect(parsed.layout === 'onchain' && parsed.attributes.get(contentKey('name'))).toBe('Item one');
  });

  it('transfer -> ownership_assigned + excesses with the exact bodies; the owner changes', async () => {
    const { chain, alice, bob, collection } = s;
    const item = await itemAt(chain, collection, 0n);
    const comment = textComment('yours now');
    const r = await alice.send({
      to: item,
      value: toNano('0.1'),
      body: toCell(
        storeNftTransfer({
          queryId: 42n,
          newOwner: bob.address,
          responseDestination: alice.address,
          customPayload: null,
          forwardAmount: toNano('0.01'),
          forwardPayload: { kind: 'right', value: comment },
        }),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: alice.address, to: item, op: NFT_OP.transfer }))).toBe(0);
    const assigned = findTx(r.transactions, { from: item, to: bob.address, op: NFT_OP.ownershipAssigned });
    expect(internalIn(assigned).info.bounce).toBe(false);
    expect(internalIn(assigned).info.value.coins).toBe(toNano('0.01'));
    const oa = parseNftOwnershipAssigned(internalIn(assigned).body);
    expect(oa.queryId).toBe(42n);
    expect(oa.prevOwner?.equals(alice.address)).toBe(true);
    expect(oa.forwardPayload.inRef).toBe(true);
    expect(parseTextComment(oa.forwardPayload.cell)).toBe('yours now');
    const excess = findTx(r.transactions, { from: item, to: alice.address, op: NFT_OP.excesses });
    expect(internalIn(excess).info.bounce).toBe(false);
    expect(parseExcesses(internalIn(excess).body).queryId).toBe(42n);

    const nd = readNftData(await runGetter(chain, item, 'get_nft_data'));
    expect(nd.ownerAddress?.equals(bob.address)).toBe(true);
  });

  it('refuses a transfer from a non-owner (401) and an init from a non-collection (405)', async () => {
    const { chain, bob, alice, collection } = s;
    const item = await itemAt(chain, collection, 0n);
    const r = await bob.send({
      to: item,
      value: toNano('0.1'),
      body: toCell(
        storeNftTransfer({
          queryId: 1n,
          newOwner: bob.address,
          responseDestination: bob.address,
          customPayload: null,
          forwardAmount: 0n,
          forwardPayload: NO_PAYLOAD,
        }),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: bob.address, to: item }))).toBe(NFT_ERROR.notFromOwner);
    findTx(r.transactions, { from: item, to: bob.address, bounced: true });
    expect(readNftData(await runGetter(chain, item, 'get_nft_data')).ownerAddress?.equals(alice.address)).toBe(true);

    // Bob deploys item 7's StateInit himself and tries to initialise it.
    const init = nftItemStateInit(collection, 7n);
    const fake = contractAddress(0, init);
    const r2 = await bob.send({
      to: fake,
      value: toNano('0.1'),
      init,
      body: nftItemInitCell({ owner: bob.address, individualContent: snakeText('7.json') }),
    });
    expect(exitCode(findTx(r2.transactions, { from: bob.address, to: fake }))).toBe(NFT_ERROR.notFromCollection);
  });

  it('refuses deploys from a non-owner (401) and indexes beyond next_item_index (402)', async () => {
    const { bob, owner, collection } = s;
    const r1 = await bob.send({
      to: collection,
      value: toNano('0.1'),
      body: deployItemBody(1n, bob.address, '1.json'),
    });
    expect(exitCode(findTx(r1.transactions, { from: bob.address, to: collection }))).toBe(NFT_ERROR.notFromOwner);
    const r2 = await owner.send({
      to: collection,
      value: toNano('0.1'),
      body: deployItemBody(5n, bob.address, '5.json'),
    });
    expect(exitCode(findTx(r2.transactions, { from: owner.address, to: collection }))).toBe(NFT_ERROR.invalidItemIndex);
  });

  it('batch-deploys items and moves next_item_index; change_owner hands the collection over', async () => {
    const { chain, owner, alice, bob, collection } = s;
    const deployList = new Map(
      [1n, 2n, 3n].map((i) => [
        i,
        {
          amount: toNano('0.06'),
          content: nftItemInitCell({ owner: bob.address, individualContent: snakeText(`${i}.json`) }),
        },
      ]),
    );
    const r = await owner.send({
      to: collection,
      value: toNano('0.5'),
      body: toCell(storeNftBatchDeploy({ queryId: 2n, deployList })),
    });
    expect(exitCode(findTx(r.transactions, { from: owner.address, to: collection }))).toBe(0);
    for (const i of [1n, 2n, 3n]) {
      const item = await itemAt(chain, collection, i);
      expect(readNftData(await runGetter(chain, item, 'get_nft_data')).ownerAddress?.equals(bob.address)).toBe(true);
    }
    expect(readNftCollectionData(await runGetter(chain, collection, 'get_collection_data')).nextItemIndex).toBe(4n);

    await owner.send({
      to: collection,
      value: toNano('0.05'),
      body: toCell(storeNftChangeOwner({ queryId: 3n, newOwner: alice.address })),
    });
    const cd = readNftCollectionData(await runGetter(chain, collection, 'get_collection_data'));
    expect(cd.ownerAddress?.equals(alice.address)).toBe(true);
    const r2 = await owner.send({
      to: collection,
      value: toNano('0.1'),
      body: deployItemBody(4n, owner.address, '4.json'),
    });
    expect(exitCode(findTx(r2.transactions, { from: owner.address, to: collection }))).toBe(NFT_ERROR.notFromOwner);
  });

  it('answers get_static_data and get_royalty_params (mode 64, non-bounceable)', async () => {
    const { chain, bob, owner, collection } = s;
    const item = await itemAt(chain, collection, 0n);
    const r = await bob.send({ to: item, value: toNano('0.05'), body: toCell(storeNftGetStaticData({ queryId: 8n })) });
    const answer = internalIn(findTx(r.transactions, { from: item, to: bob.address, op: NFT_OP.reportStaticData }));
    expect(answer.info.bounce).toBe(false);
    const sd = parseNftReportStaticData(answer.body);
    expect(sd.queryId).toBe(8n);
    expect(sd.index).toBe(0n);
    expect(sd.collection?.equals(collection)).toBe(true);

    const r2 = await bob.send({
      to: collection,
      value: toNano('0.05'),
      body: toCell(storeNftGetRoyaltyParams({ queryId: 9n })),
    });
    const royalty = internalIn(
      findTx(r2.transactions, { from: collection, to: bob.address, op: NFT_OP.reportRoyaltyParams }),
    );
    expect(royalty.info.bounce).toBe(false);
    const rp = parseNftReportRoyaltyParams(royalty.body);
    expect(rp).toMatchObject({ queryId: 9n, numerator: 5, denominator: 100 });
    expect(rp.destination?.equals(owner.address)).toBe(true);
  });
});
