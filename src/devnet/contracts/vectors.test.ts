// Real mainnet jetton/NFT message bodies (shared/vectors/messages): our writers rebuild them byte for byte from
// their field values, and our contracts accept them, so devnet traffic and mainnet traffic look the same to a
// decoder and the other way round.
import { Address, Cell, contractAddress, Dictionary, toNano } from '@ton/core';
import { Blockchain, internal, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { loadVector } from '../../../test/helpers/vectors.ts';
import { JETTON_OP } from '../../ton/index.ts';
import {
  jettonMinterStateInit,
  jettonWalletAddress,
  jettonWalletStateInit,
  readJettonData,
  readJettonWalletData,
  storeExcesses,
  storeJettonBurn,
  storeJettonBurnNotification,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeJettonTransferNotification,
} from './jetton.ts';
import {
  getNftContentArgs,
  nftCollectionStateInit,
  nftItemAddress,
  nftItemInitCell,
  readNftCollectionData,
  readNftContent,
  readNftData,
  storeNftBatchDeploy,
  storeNftChangeOwner,
  storeNftDeployItem,
  storeNftOwnershipAssigned,
  storeNftTransfer,
} from './nft.ts';
import { NO_PAYLOAD, offchainContent, snakeText, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, runGetter } from './sandbox.test-util.ts';
import { parseJettonInternalTransfer, parseTep64 } from './tep-parsers.test-util.ts';

interface MessageVector {
  boc_base64: string;
  // biome-ignore lint/suspicious/noExplicitAny: vector JSON, read field by field below
  expected: Record<string, any>;
  // biome-ignore lint/suspicious/noExplicitAny: vector JSON, read field by field below
  verification: { cell_hash: string; decoded: Record<string, any> };
}

function vector(name: string): { v: MessageVector; body: Cell } {
  const v = loadVector<MessageVector>('messages', `${name}.json`);
  const body = Cell.fromBase64(v.boc_base64);
  // the vector's own hash check, so a damaged file fails here and not as a builder mismatch
  expect(body.hash().toString('hex')).toBe(v.verification.cell_hash);
  return { v, body };
}

const addr = (s: string) => (s.includes(':') ? Address.parseRaw(s) : Address.parse(s));
const ref = (c: Cell, i: number) => {
  const r = c.refs[i];
  if (!r) throw new Error(`vector body has no ref ${i}`);
  return r;
};

describe('message-body vectors: our writers rebuild real bodies byte for byte', () => {
  it('excesses', () => {
    const { body } = vector('excesses');
    expect(toCell(storeExcesses({ queryId: 0n })).hash()).toEqual(body.hash());
  });

  it('text comment', () => {
    const { v, body } = vector('text_comment');
    expect(textComment(v.expected.text).hash()).toEqual(body.hash());
  });

  it('jetton transfer with a text forward payload in a ref', () => {
    const { v, body } = vector('jetton_transfer_text_forward');
    const e = v.expected;
    const built = toCell(
      storeJettonTransfer({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        destination: addr(e.destination),
        responseDestination: addr(e.response_destination),
        customPayload: null,
        forwardTonAmount: BigInt(e.forward_ton_amount),
        forwardPayload: { kind: 'right', value: textComment(e.forward_payload.text_comment) },
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('jetton transfer with a custom payload (the payload cell taken as the field value)', () => {
    const { v, body } = vector('jetton_transfer_custom_payload');
    const e = v.expected;
    const customPayload = ref(body, 0);
    expect(customPayload.hash().toString('hex')).toBe(e.custom_payload_cell_hash);
    const built = toCell(
      storeJettonTransfer({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        destination: addr(e.destination),
        responseDestination: addr(e.response_destination),
        customPayload,
        forwardTonAmount: BigInt(e.forward_ton_amount),
        forwardPayload: { kind: 'right', value: textComment(e.forward_payload.text_comment) },
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('jetton internal_transfer', () => {
    const { v, body } = vector('jetton_internal_transfer');
    const e = v.expected;
    const built = toCell(
      storeJettonInternalTransfer({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        from: addr(e.from),
        responseAddress: addr(e.response_address),
        forwardTonAmount: BigInt(e.forward_ton_amount),
        forwardPayload: { kind: 'right', value: textComment(e.forward_payload.text_comment) },
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('jetton transfer_notification', () => {
    const { v, body } = vector('jetton_transfer_notification');
    const e = v.expected;
    const built = toCell(
      storeJettonTransferNotification({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        sender: addr(e.sender),
        forwardPayload: { kind: 'right', value: textComment(e.forward_payload.text_comment) },
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('jetton burn with a custom payload', () => {
    const { v, body } = vector('jetton_burn_custom_payload');
    const e = v.expected;
    const built = toCell(
      storeJettonBurn({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        responseDestination: addr(e.response_destination),
        customPayload: ref(body, 0),
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('jetton burn without the custom_payload bit is non-canonical: our writer always writes the Maybe bit', () => {
    const { v, body } = vector('jetton_burn_anton');
    const e = v.expected;
    const built = toCell(
      storeJettonBurn({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        responseDestination: addr(e.response_destination),
        customPayload: null,
      }),
    );
    // the real body is exactly ours minus the trailing 0 bit (anton issue #13); the contract test below accepts it
    expect(built.bits.length).toBe(body.bits.length + 1);
    expect(built.bits.substring(0, body.bits.length).equals(body.bits)).toBe(true);
  });

  it('jetton burn_notification with addr_none response (the real body carries 160 bits beyond the TL-B)', () => {
    const { v, body } = vector('jetton_burn_notification');
    const e = v.expected;
    expect(e.response_destination).toBe('addr_none');
    const built = toCell(
      storeJettonBurnNotification({
        queryId: BigInt(e.query_id),
        amount: BigInt(e.amount),
        sender: addr(e.sender),
        responseDestination: null,
      }),
    );
    // The TL-B ends at response_destination; the sender's wallet appended 160 more bits, which no field
    // describes. Ours is exactly the TL-B part; the minter test below accepts the real body with its tail.
    expect(body.bits.length).toBe(built.bits.length + 160);
    expect(body.bits.substring(0, built.bits.length).equals(built.bits)).toBe(true);
    expect(body.refs).toHaveLength(0);
  });

  it('jetton mint (op 21) with its master_msg as the field value', () => {
    const { v, body } = vector('jetton_mint_op21');
    const e = v.expected;
    const built = toCell(
      storeJettonMint({
        queryId: BigInt(e.query_id),
        toAddress: addr(e.to_address),
        tonAmount: BigInt(e.amount),
        masterMsg: ref(body, 0),
      }),
    );
    expect(built.hash()).toEqual(body.hash());
  });

  it('NFT transfer and ownership_assigned with empty inline forward payloads', () => {
    const t = vector('nft_transfer');
    const d = t.v.verification.decoded;
    const transfer = toCell(
      storeNftTransfer({
        queryId: BigInt(d.query_id),
        newOwner: addr(d.new_owner),
        responseDestination: addr(d.response_destination),
        customPayload: null,
        forwardAmount: BigInt(d.forward_amount),
        forwardPayload: NO_PAYLOAD,
      }),
    );
    expect(transfer.hash()).toEqual(t.body.hash());

    const a = vector('nft_ownership_assigned');
    const ad = a.v.verification.decoded;
    const assigned = toCell(
      storeNftOwnershipAssigned({
        queryId: BigInt(ad.query_id),
        prevOwner: addr(ad.prev_owner),
        forwardPayload: NO_PAYLOAD,
      }),
    );
    expect(assigned.hash()).toEqual(a.body.hash());
  });

  it('NFT collection deploy_item, batch_deploy and change_owner', () => {
    const m = vector('nft_collection_mint_item');
    const me = m.v.expected;
    const mint = toCell(
      storeNftDeployItem({
        queryId: BigInt(me.query_id),
        itemIndex: BigInt(me.index),
        amount: BigInt(me.ton_amount),
        content: ref(m.body, 0),
      }),
    );
    expect(mint.hash()).toEqual(m.body.hash());

    const b = vector('nft_collection_batch_mint');
    const list = Dictionary.loadDirect(
      Dictionary.Keys.BigUint(64),
      { serialize: () => {}, parse: (s) => ({ amount: s.loadCoins(), content: s.loadRef() }) },
      ref(b.body, 0),
    );
    const batch = toCell(storeNftBatchDeploy({ queryId: BigInt(b.v.expected.query_id), deployList: new Map(list) }));
    expect(batch.hash()).toEqual(b.body.hash());

    const c = vector('nft_collection_change_owner');
    const change = toCell(
      storeNftChangeOwner({ queryId: BigInt(c.v.expected.query_id), newOwner: addr(c.v.expected.new_owner) }),
    );
    expect(change.hash()).toEqual(c.body.hash());
  });
});

describe('message-body vectors: our contracts accept the real bodies (sandbox)', () => {
  interface Jettons {
    chain: Blockchain;
    admin: SandboxContract<TreasuryContract>;
    holder: SandboxContract<TreasuryContract>;
    minter: Address;
    holderWallet: Address;
  }

  const MINTED = 2n * 10n ** 21n;

  async function jettons(): Promise<Jettons> {
    const chain = await Blockchain.create();
    const admin = await chain.treasury('admin');
    const holder = await chain.treasury('holder');
    const init = jettonMinterStateInit({
      adminAddress: admin.address,
      content: offchainContent('https://x.example/j.json'),
    });
    const minter = contractAddress(0, init);
    const masterMsg = toCell(
      storeJettonInternalTransfer({
        queryId: 0n,
        amount: MINTED,
        from: null,
        responseAddress: null,
        forwardTonAmount: 0n,
        forwardPayload: NO_PAYLOAD,
      }),
    );
    await admin.send({
      to: minter,
      value: toNano('0.2'),
      init,
      body: toCell(storeJettonMint({ queryId: 0n, toAddress: holder.address, tonAmount: toNano('0.05'), masterMsg })),
    });
    return { chain, admin, holder, minter, holderWallet: jettonWalletAddress(minter, holder.address) };
  }

  async function walletBalance(chain: Blockchain, wallet: Address) {
    return readJettonWalletData(await runGetter(chain, wallet, 'get_wallet_data')).balance;
  }

  async function supply(chain: Blockchain, minter: Address) {
    return readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply;
  }

  for (const name of ['jetton_transfer_text_forward', 'jetton_transfer_custom_payload']) {
    it(`${name}: the owner's wallet sends it on as internal_transfer and the receiver credits it`, async () => {
      const { chain, holder, minter, holderWallet } = await jettons();
      const { v, body } = vector(name);
      const amount = BigInt(v.expected.amount);
      const r = await holder.send({ to: holderWallet, value: toNano('0.3'), body });
      expect(exitCode(findTx(r.transactions, { from: holder.address, to: holderWallet }))).toBe(0);
      const receiver = jettonWalletAddress(minter, addr(v.expected.destination));
      const step = findTx(r.transactions, { from: holderWallet, to: receiver, op: JETTON_OP.internalTransfer });
      expect(exitCode(step)).toBe(0);
      const it = parseJettonInternalTransfer(internalIn(step).body);
      expect(it.amount).toBe(amount);
      expect(it.forwardPayload.cell.hash()).toEqual(ref(body, body.refs.length - 1).hash());
      expect(await walletBalance(chain, receiver)).toBe(amount);
      expect(await walletBalance(chain, holderWallet)).toBe(MINTED - amount);
    });
  }

  for (const name of ['jetton_burn_anton', 'jetton_burn_custom_payload']) {
    it(`${name}: the wallet burns and the minter lowers the supply`, async () => {
      const { chain, holder, minter, holderWallet } = await jettons();
      const { v, body } = vector(name);
      const amount = BigInt(v.expected.amount);
      const r = await holder.send({ to: holderWallet, value: toNano('0.2'), body });
      expect(exitCode(findTx(r.transactions, { from: holder.address, to: holderWallet }))).toBe(0);
      expect(exitCode(findTx(r.transactions, { from: holderWallet, to: minter, op: JETTON_OP.burnNotification }))).toBe(
        0,
      );
      expect(await walletBalance(chain, holderWallet)).toBe(MINTED - amount);
      expect(await supply(chain, minter)).toBe(MINTED - amount);
    });
  }

  it('jetton_internal_transfer: a wallet accepts it from the wallet of `from`', async () => {
    const { chain, minter } = await jettons();
    const { v, body } = vector('jetton_internal_transfer');
    const fromWallet = jettonWalletAddress(minter, addr(v.expected.from));
    const receiverOwner = (await chain.treasury('receiver')).address;
    const receiverInit = jettonWalletStateInit(minter, receiverOwner);
    const receiver = jettonWalletAddress(minter, receiverOwner);
    const r = await chain.sendMessage(
      internal({ from: fromWallet, to: receiver, value: toNano('0.1'), stateInit: receiverInit, body }),
    );
    expect(exitCode(findTx(r.transactions, { from: fromWallet, to: receiver }))).toBe(0);
    expect(await walletBalance(chain, receiver)).toBe(BigInt(v.expected.amount));
  });

  it('jetton_burn_notification: the minter accepts it from the wallet of `sender`', async () => {
    const { chain, minter } = await jettons();
    const { v, body } = vector('jetton_burn_notification');
    const wallet = jettonWalletAddress(minter, addr(v.expected.sender));
    const r = await chain.sendMessage(internal({ from: wallet, to: minter, value: toNano('0.05'), body }));
    expect(exitCode(findTx(r.transactions, { from: wallet, to: minter }))).toBe(0);
    expect(await supply(chain, minter)).toBe(MINTED - BigInt(v.expected.amount));
  });

  it('jetton_mint_op21: the minter mints master_msg.amount to the recipient wallet', async () => {
    const { chain, admin, minter } = await jettons();
    const { v, body } = vector('jetton_mint_op21');
    const r = await admin.send({ to: minter, value: toNano('1'), body });
    expect(exitCode(findTx(r.transactions, { from: admin.address, to: minter }))).toBe(0);
    const wallet = jettonWalletAddress(minter, addr(v.expected.to_address));
    expect(exitCode(findTx(r.transactions, { from: minter, to: wallet }))).toBe(0);
    const minted = BigInt(v.expected.master_msg.jetton_amount);
    expect(await walletBalance(chain, wallet)).toBe(minted);
    expect(await supply(chain, minter)).toBe(MINTED + minted);
  });

  async function collection(nextItemIndex: bigint) {
    const chain = await Blockchain.create();
    const owner = await chain.treasury('owner');
    const init = nftCollectionStateInit({
      ownerAddress: owner.address,
      nextItemIndex,
      collectionContent: offchainContent('https://x.example/c.json'),
      commonContent: snakeText('https://x.example/'),
      royaltyParams: { numerator: 1, denominator: 20, destination: owner.address },
    });
    const address = contractAddress(0, init);
    await owner.send({ to: address, value: toNano('0.1'), init });
    return { chain, owner, collection: address };
  }

  it('nft_collection_mint_item: deploys item 282 with the given owner and content', async () => {
    const { v, body } = vector('nft_collection_mint_item');
    const { chain, owner, collection: col } = await collection(282n);
    const r = await owner.send({ to: col, value: toNano('0.2'), body });
    expect(exitCode(findTx(r.transactions, { from: owner.address, to: col }))).toBe(0);
    const item = nftItemAddress(col, 282n);
    expect(exitCode(findTx(r.transactions, { from: col, to: item }))).toBe(0);
    const nd = readNftData(await runGetter(chain, item, 'get_nft_data'));
    expect(nd.ownerAddress?.equals(addr(v.expected.content.owner))).toBe(true);
    const full = readNftContent(
      await runGetter(chain, col, 'get_nft_content', getNftContentArgs(282n, nd.individualContent)),
    );
    expect(parseTep64(full)).toEqual({
      layout: 'offchain',
      uri: `https://x.example/${v.expected.content.content_text}`,
    });
  });

  it('nft_collection_batch_mint: deploys every listed item', async () => {
    const { body } = vector('nft_collection_batch_mint');
    const list = Dictionary.loadDirect(
      Dictionary.Keys.BigUint(64),
      { serialize: () => {}, parse: (s) => ({ amount: s.loadCoins(), content: s.loadRef() }) },
      ref(body, 0),
    );
    const indexes = [...list.keys()].sort((a, b) => (a < b ? -1 : 1));
    const { chain, owner, collection: col } = await collection(indexes[indexes.length - 1]!);
    const r = await owner.send({ to: col, value: toNano('1'), body });
    expect(exitCode(findTx(r.transactions, { from: owner.address, to: col }))).toBe(0);
    for (const i of indexes) {
      const nd = readNftData(await runGetter(chain, nftItemAddress(col, i), 'get_nft_data'));
      const owner = list.get(i)!.content.beginParse().loadAddress();
      expect(nd.init && nd.ownerAddress?.equals(owner)).toBe(true);
    }
    expect(readNftCollectionData(await runGetter(chain, col, 'get_collection_data')).nextItemIndex).toBe(
      indexes[indexes.length - 1]! + 1n,
    );
  });

  it('nft_collection_change_owner and nft_transfer: owners change as the bodies say', async () => {
    const c = vector('nft_collection_change_owner');
    const { chain, owner, collection: col } = await collection(0n);
    const deploy = toCell(
      storeNftDeployItem({
        queryId: 0n,
        itemIndex: 0n,
        amount: toNano('0.1'),
        content: nftItemInitCell({ owner: owner.address, individualContent: snakeText('0') }),
      }),
    );
    await owner.send({ to: col, value: toNano('0.2'), body: deploy });
    const item = nftItemAddress(col, 0n);

    const t = vector('nft_transfer');
    const r1 = await owner.send({ to: item, value: toNano('0.1'), body: t.body });
    expect(exitCode(findTx(r1.transactions, { from: owner.address, to: item }))).toBe(0);
    const nd = readNftData(await runGetter(chain, item, 'get_nft_data'));
    expect(nd.ownerAddress?.equals(addr(t.v.verification.decoded.new_owner))).toBe(true);

    const r2 = await owner.send({ to: col, value: toNano('0.05'), body: c.body });
    expect(exitCode(findTx(r2.transactions, { from: owner.address, to: col }))).toBe(0);
    const cd = readNftCollectionData(await runGetter(chain, col, 'get_collection_data'));
    expect(cd.ownerAddress?.equals(addr(c.v.expected.new_owner))).toBe(true);
  });
});
