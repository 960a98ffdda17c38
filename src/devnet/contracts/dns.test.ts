// The DNS contracts on @ton/sandbox: getter stacks against contracts.md §5 (exact entry types), registration and
// its refusals, records and dnsresolve through the collection and the item, the NFT transfer chain, and, with the
// real .ton item from shared/vectors, storage compatibility both ways (the mainnet code reads our data and ours
// reads mainnet's) plus the item index and address derivation.
import { Address, beginCell, Cell, Dictionary, type TupleItem, toNano } from '@ton/core';
import { Blockchain, createShardAccount, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { DNS_OP } from '../../ton/index.ts';
import {
  DEVNET_DNS_COLLECTION,
  DEVNET_DNS_COLLECTION_CONTENT,
  DEVNET_DNS_COLLECTION_INIT,
  DNS_CATEGORY,
  DNS_COLLECTION_CODE,
  DNS_ERROR,
  DNS_ITEM_CODE,
  DNS_REGISTRATION_PRICE,
  dnsItemAddress,
  dnsItemIndex,
  dnsRecordCell,
  dnsRegisterBody,
  dnsresolveArgs,
  encodeDnsName,
  isValidDnsLabel,
  loadDnsRecord,
  readDnsAuctionInfo,
  readDnsContentRecords,
  readDnsDomain,
  readDnsLastFillUpTime,
  readDnsRecords,
  readDnsResolve,
  storeDnsChangeRecord,
  storeDnsEditContent,
  storeDnsFillUp,
} from './dns.ts';
import {
  getNftAddressByIndexArgs,
  getNftContentArgs,
  readNftCollectionData,
  readNftData,
  storeNftGetStaticData,
  storeNftTransfer,
} from './nft.ts';
import { onchainContent, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, runGetter, stackTypes } from './sandbox.test-util.ts';
import {
  parseExcesses,
  parseNftOwnershipAssigned,
  parseNftReportStaticData,
  parseTep64,
  parseTextComment,
} from './tep-parsers.test-util.ts';

// contracts.md §0 (method ids) and §5.1 (category hashes).
const SPEC_METHOD_IDS = {
  get_collection_data: 102491,
  get_nft_address_by_index: 92067,
  get_nft_content: 68445,
  dnsresolve: 123660,
  get_nft_data: 102351,
  get_editor: 90228,
  get_domain: 119378,
  get_auction_info: 80697,
  get_last_fill_up_time: 91481,
};
const SPEC_CATEGORIES = {
  dnsNextResolver: '19f02441ee588fdb26ee24b2568dd035c3c9206e11ab979be62e55558a1d17ff',
  wallet: 'e8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1b',
  site: 'fbae041b02c41ed0fd8a4efb039bc780dd6af4a1f0c420f42561ae705dda43fe',
  storage: '49a25f9feefaffecad0fcd30c50dc9331cff8b55ece53def6285c09e17e6f5d7',
};
const NOW = 1_800_000_000;

/** Getter ids in a code cell laid out as SETCP0 + DICTPUSHCONST (contracts.md §1.1). */
function getterIds(code: Cell): number[] {
  const s = code.beginParse();
  expect(s.loadUint(16)).toBe(0xff00);
  expect(s.loadUint(13)).toBe(0b1111010010100);
  s.loadBit();
  const dict = Dictionary.loadDirect(
    Dictionary.Keys.Int(s.loadUint(10)),
    { serialize: () => {}, parse: () => null },
    s.loadRef(),
  );
  return dict
    .keys()
    .filter((id) => id >= 0x10000)
    .sort((a, b) => a - b);
}

const hex = (n: bigint) => n.toString(16).padStart(64, '0');
const ids = (names: Array<keyof typeof SPEC_METHOD_IDS>) => names.map((n) => SPEC_METHOD_IDS[n]).sort((a, b) => a - b);

interface Setup {
  chain: Blockchain;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  carol: SandboxContract<TreasuryContract>;
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  chain.now = NOW;
  return {
    chain,
    alice: await chain.treasury('alice'),
    bob: await chain.treasury('bob'),
    carol: await chain.treasury('carol'),
  };
}

function register(
  who: SandboxContract<TreasuryContract>,
  label: string,
  value = DNS_REGISTRATION_PRICE + toNano('0.1'),
) {
  return who.send({ to: DEVNET_DNS_COLLECTION, value, init: DEVNET_DNS_COLLECTION_INIT, body: dnsRegisterBody(label) });
}

function changeRecord(
  who: SandboxContract<TreasuryContract>,
  item: Address,
  key: bigint,
  value: Cell | null,
  queryId = 1n,
) {
  return who.send({ to: item, value: toNano('0.05'), body: toCell(storeDnsChangeRecord({ queryId, key, value })) });
}

async function resolve(chain: Blockchain, at: Address, subdomain: Buffer, category: bigint) {
  const stack = await runGetter(chain, at, 'dnsresolve', dnsresolveArgs(subdomain, category));
  return { stack, ...readDnsResolve(stack) };
}

describe('DNS contracts: code layout and derivations', () => {
  it('keep the standard method dictionary with the getters under their spec method ids', () => {
    expect(getterIds(DNS_COLLECTION_CODE)).toEqual(
      ids(['get_collection_data', 'get_nft_address_by_index', 'get_nft_content', 'dnsresolve']),
    );
    expect(getterIds(DNS_ITEM_CODE)).toEqual(
      ids(['get_nft_data', 'get_editor', 'get_domain', 'get_auction_info', 'get_last_fill_up_time', 'dnsresolve']),
    );
  });

  it('name the categories by sha256 as contracts.md lists them, and encode names as TEP-81 does', () => {
    expect(hex(DNS_CATEGORY.dnsNextResolver)).toBe(SPEC_CATEGORIES.dnsNextResolver);
    expect(hex(DNS_CATEGORY.wallet)).toBe(SPEC_CATEGORIES.wallet);
    expect(hex(DNS_CATEGORY.site)).toBe(SPEC_CATEGORIES.site);
    expect(hex(DNS_CATEGORY.storage)).toBe(SPEC_CATEGORIES.storage);
    expect(encodeDnsName('alice.ton').toString('latin1')).toBe('ton\0alice\0');
    expect(encodeDnsName('alice', true).toString('latin1')).toBe('\0alice\0');
    expect(isValidDnsLabel('ab-c')).toBe(true);
    for (const bad of ['abc', '-abc', 'abc-', 'Abcd', 'ab.cd', 'a'.repeat(127)])
      expect(isValidDnsLabel(bad)).toBe(false);
  });

  it('write DNSRecords with the block.tlb tags and widths', () => {
    const a = Address.parseRaw(`0:${'11'.repeat(32)}`);
    const bag = Buffer.alloc(32, 7);
    const expectBits = (c: Cell, b: Cell) => expect(c.hash().toString('hex')).toBe(b.hash().toString('hex'));
    expectBits(
      dnsRecordCell({ type: 'next_resolver', resolver: a }),
      beginCell().storeUint(0xba93, 16).storeAddress(a).endCell(),
    );
    expectBits(
      dnsRecordCell({ type: 'storage_address', bagId: bag }),
      beginCell().storeUint(0x7473, 16).storeBuffer(bag).endCell(),
    );
    expectBits(
      dnsRecordCell({ type: 'adnl_address', adnl: bag }),
      beginCell().storeUint(0xad01, 16).storeBuffer(bag).storeUint(0, 8).endCell(),
    );
    // cap_list_next$1 cap_is_wallet#2177 cap_list_nil$0
    expectBits(
      dnsRecordCell({ type: 'smc_address', address: a, isWallet: true }),
      beginCell()
        .storeUint(0x9fd3, 16)
        .storeAddress(a)
        .storeUint(1, 8)
        .storeBit(1)
        .storeUint(0x2177, 16)
        .storeBit(0)
        .endCell(),
    );
    expect(loadDnsRecord(dnsRecordCell({ type: 'smc_address', address: a, isWallet: true }))).toMatchObject({
      isWallet: true,
    });
    expect(loadDnsRecord(dnsRecordCell({ type: 'adnl_address', adnl: bag, http: true }))).toMatchObject({ http: true });
  });
});

describe('DNS collection and item (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('registers a name: the collection deploys the item (bounceable, StateInit, bidder + label) and the sender owns it', async () => {
    const { chain, alice } = s;
    const label = 'alice-devnet';
    const r = await register(alice, label);
    expect(exitCode(findTx(r.transactions, { from: alice.address, to: DEVNET_DNS_COLLECTION }))).toBe(0);

    const item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex(label));
    const deploy = internalIn(findTx(r.transactions, { from: DEVNET_DNS_COLLECTION, to: item }));
    expect(deploy.info.bounce).toBe(true);
    expect(deploy.init?.code?.hash()).toEqual(DNS_ITEM_CODE.hash());
    // All the remaining value goes to the item (mode 64): the price stays there.
    expect(deploy.info.value.coins).toBeGreaterThan(DNS_REGISTRATION_PRICE);
    const body = deploy.body.beginParse();
    expect(body.loadAddress().equals(alice.address)).toBe(true);
    expect(body.loadRef().beginParse().loadBuffer(label.length).toString()).toBe(label);

    const nftData = await runGetter(chain, item, 'get_nft_data');
    expect(stackTypes(nftData)).toEqual(['int', 'int', 'slice', 'slice', 'cell']);
    const nd = readNftData(nftData);
    expect(nftData[0]).toEqual({ type: 'int', value: -1n });
    expect(nd.index).toBe(dnsItemIndex(label));
    expect(nd.collectionAddress?.equals(DEVNET_DNS_COLLECTION)).toBe(true);
    expect(nd.ownerAddress?.equals(alice.address)).toBe(true);
    expect(readDnsContentRecords(nd.individualContent).size).toBe(0);

    expect(readDnsDomain(await runGetter(chain, item, 'get_domain'))).toBe(label);
    const editor = await runGetter(chain, item, 'get_editor');
    expect(stackTypes(editor)).toEqual(['slice']);
    const auction = await runGetter(chain, item, 'get_auction_info');
    expect(stackTypes(auction)).toEqual(['null', 'int', 'int']);
    expect(readDnsAuctionInfo(auction)).toEqual({ maxBidAddress: null, maxBidAmount: 0n, auctionEndTime: 0 });
    expect(readDnsLastFillUpTime(await runGetter(chain, item, 'get_last_fill_up_time'))).toBe(NOW);
  });

  it('serves the collection getters (§4.3, §5.2) and derives the item the emulator created', async () => {
    const { chain, alice } = s;
    await register(alice, 'getters');
    const data = await runGetter(chain, DEVNET_DNS_COLLECTION, 'get_collection_data');
    expect(stackTypes(data)).toEqual(['int', 'cell', 'slice']);
    const cd = readNftCollectionData(data);
    expect(cd.nextItemIndex).toBe(-1n);
    expect(cd.collectionContent.hash()).toEqual(DEVNET_DNS_COLLECTION_CONTENT.hash());
    expect(parseTep64(cd.collectionContent).layout).toBe('onchain');
    const owner = data[2]?.type === 'slice' ? data[2].cell.beginParse() : null;
    expect(owner?.remainingBits).toBe(2);

    const index = dnsItemIndex('getters');
    const byIndex = await runGetter(
      chain,
      DEVNET_DNS_COLLECTION,
      'get_nft_address_by_index',
      getNftAddressByIndexArgs(index),
    );
    expect(stackTypes(byIndex)).toEqual(['slice']);
    const derived = byIndex[0]?.type === 'slice' ? byIndex[0].cell.beginParse().loadAddress() : null;
    expect(derived?.equals(dnsItemAddress(DEVNET_DNS_COLLECTION, index))).toBe(true);
    const account = (await chain.getContract(derived!)).accountState;
    expect(account?.type).toBe('active');

    // get_nft_content gives the individual content back unchanged.
    const individual = readNftData(await runGetter(chain, derived!, 'get_nft_data')).individualContent;
    const full = await runGetter(chain, DEVNET_DNS_COLLECTION, 'get_nft_content', getNftContentArgs(index, individual));
    expect(full[0]?.type === 'cell' && full[0].cell.hash()).toEqual(individual.hash());
  });

  it('refuses bad names, too little TON and empty bodies with the reference exit codes', async () => {
    const { alice } = s;
    await register(alice, 'first');
    const cases: Array<[string, bigint, number]> = [
      ['abc', DNS_REGISTRATION_PRICE, DNS_ERROR.labelTooShort],
      ['Upper', DNS_REGISTRATION_PRICE, DNS_ERROR.labelBadChars],
      ['-dash', DNS_REGISTRATION_PRICE, DNS_ERROR.labelBadChars],
      ['dash-', DNS_REGISTRATION_PRICE, DNS_ERROR.labelBadChars],
      ['a'.repeat(127), DNS_REGISTRATION_PRICE * 2n, DNS_ERROR.labelTooLong],
      ['cheap', DNS_REGISTRATION_PRICE - 1n, DNS_ERROR.notEnoughTon],
    ];
    for (const [label, value, code] of cases) {
      const r = await alice.send({ to: DEVNET_DNS_COLLECTION, value, body: dnsRegisterBody(label) });
      expect(exitCode(findTx(r.transactions, { from: alice.address, to: DEVNET_DNS_COLLECTION })), label).toBe(code);
    }
    const empty = await alice.send({ to: DEVNET_DNS_COLLECTION, value: toNano('1') });
    expect(exitCode(findTx(empty.transactions, { from: alice.address, to: DEVNET_DNS_COLLECTION }))).toBe(
      DNS_ERROR.wrongOp,
    );
    const fillUp = await alice.send({
      to: DEVNET_DNS_COLLECTION,
      value: toNano('1'),
      body: toCell(storeDnsFillUp({ queryId: 1n })),
    });
    expect(exitCode(findTx(fillUp.transactions, { from: alice.address, to: DEVNET_DNS_COLLECTION }))).toBe(0);
  });

  it('refunds a second bidder for a taken name (op 0, non-bounceable) and keeps the first owner', async () => {
    const { chain, alice, bob } = s;
    await register(alice, 'taken');
    const item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex('taken'));
    const r = await register(bob, 'taken');
    expect(exitCode(findTx(r.transactions, { from: DEVNET_DNS_COLLECTION, to: item }))).toBe(0);
    const refund = internalIn(findTx(r.transactions, { from: item, to: bob.address }));
    expect(refund.info.bounce).toBe(false);
    expect(refund.info.value.coins).toBeGreaterThan(DNS_REGISTRATION_PRICE - toNano('0.1'));
    const body = refund.body.beginParse();
    expect(body.loadUint(32)).toBe(0);
    expect(body.remainingBits).toBe(64);
    expect(readNftData(await runGetter(chain, item, 'get_nft_data')).ownerAddress?.equals(alice.address)).toBe(true);
  });

  it('sets and deletes records (owner only) and resolves them through the collection and the item', async () => {
    const { chain, alice, bob } = s;
    await register(alice, 'records');
    const item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex('records'));
    const wallet = dnsRecordCell({ type: 'smc_address', address: alice.address });
    const site = dnsRecordCell({ type: 'adnl_address', adnl: Buffer.alloc(32, 0xab) });
    const storage = dnsRecordCell({ type: 'storage_address', bagId: Buffer.alloc(32, 0xcd) });
    const next = dnsRecordCell({ type: 'next_resolver', resolver: bob.address });
    for (const [key, value] of [
      [DNS_CATEGORY.wallet, wallet],
      [DNS_CATEGORY.site, site],
      [DNS_CATEGORY.storage, storage],
      [DNS_CATEGORY.dnsNextResolver, next],
    ] as const) {
      const r = await changeRecord(alice, item, key, value);
      expect(exitCode(findTx(r.transactions, { from: alice.address, to: item, op: DNS_OP.changeDnsRecord }))).toBe(0);
    }
    const refused = await changeRecord(bob, item, DNS_CATEGORY.wallet, null);
    expect(exitCode(findTx(refused.transactions, { from: bob.address, to: item }))).toBe(DNS_ERROR.recordNotFromOwner);

    // The collection hands "\0records\0" to the item: label bits + the leading \0, as a next-resolver record.
    const viaCollection = await resolve(
      chain,
      DEVNET_DNS_COLLECTION,
      encodeDnsName('records', true),
      DNS_CATEGORY.wallet,
    );
    expect(stackTypes(viaCollection.stack)).toEqual(['int', 'cell']);
    expect(viaCollection.resolvedBits).toBe(8 * ('records'.length + 1));
    const rec = viaCollection.result!.beginParse();
    expect(rec.loadUint(16)).toBe(0xba93);
    expect(rec.loadAddress().equals(item)).toBe(true);
    expect((await resolve(chain, DEVNET_DNS_COLLECTION, Buffer.from([0]), 0n)).stack).toEqual([
      { type: 'int', value: 8n },
      { type: 'null' },
    ]);
    const noZero = await resolve(chain, DEVNET_DNS_COLLECTION, Buffer.from('records\0'), DNS_CATEGORY.wallet);
    expect(noZero.resolvedBits).toBe(8 * 'records'.length);

    // The item answers "\0": each category, all of them (the dictionary), or null for one it lacks.
    const w = await resolve(chain, item, Buffer.from([0]), DNS_CATEGORY.wallet);
    expect(stackTypes(w.stack)).toEqual(['int', 'cell']);
    expect(w.resolvedBits).toBe(8);
    expect(w.result?.hash()).toEqual(wallet.hash());
    const all = await resolve(chain, item, Buffer.from([0]), 0n);
    expect(all.resolvedBits).toBe(8);
    const records = readDnsRecords(all.result);
    expect([...records.keys()].map(hex).sort()).toEqual(Object.values(SPEC_CATEGORIES).sort());
    expect(records.get(DNS_CATEGORY.storage)?.hash()).toEqual(storage.hash());
    expect((await resolve(chain, item, Buffer.from([0]), 12345n)).stack[1]).toEqual({ type: 'null' });
    // Anything below the name goes to its next resolver, whatever was asked.
    const sub = await resolve(chain, item, encodeDnsName('www', true), DNS_CATEGORY.wallet);
    expect(sub.resolvedBits).toBe(8);
    expect(sub.result?.hash()).toEqual(next.hash());
    // (the sandbox throws on a non-zero exit code, naming it)
    await expect(chain.runGetMethod(item, 'dnsresolve', dnsresolveArgs(Buffer.from('x'), 0n))).rejects.toThrow(
      new RegExp(`exit_code: ${DNS_ERROR.noLeadingZero}`),
    );

    // Deleting: a change_dns_record without a ref.
    await changeRecord(alice, item, DNS_CATEGORY.site, null);
    const after = readDnsContentRecords(readNftData(await runGetter(chain, item, 'get_nft_data')).individualContent);
    expect(after.has(DNS_CATEGORY.site)).toBe(false);
    expect(after.size).toBe(3);
    expect((await resolve(chain, item, Buffer.from([0]), DNS_CATEGORY.site)).stack[1]).toEqual({ type: 'null' });
  });

  it('transfers the name: ownership_assigned and excesses (non-bounceable), then refuses the old owner', async () => {
    const { chain, alice, bob } = s;
    await register(alice, 'moving');
    const item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex('moving'));
    chain.now = NOW + 100;
    const r = await alice.send({
      to: item,
      value: toNano('0.2'),
      body: toCell(
        storeNftTransfer({
          queryId: 9n,
          newOwner: bob.address,
          responseDestination: alice.address,
          customPayload: null,
          forwardAmount: toNano('0.01'),
          forwardPayload: { kind: 'right', value: textComment('yours now') },
        }),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: alice.address, to: item, op: DNS_OP.transfer }))).toBe(0);
    const assigned = internalIn(findTx(r.transactions, { from: item, to: bob.address, op: DNS_OP.ownershipAssigned }));
    expect(assigned.info.bounce).toBe(false);
    const oa = parseNftOwnershipAssigned(assigned.body);
    expect(oa.queryId).toBe(9n);
    expect(oa.prevOwner?.equals(alice.address)).toBe(true);
    expect(parseTextComment(oa.forwardPayload.cell)).toBe('yours now');
    const excess = internalIn(findTx(r.transactions, { from: item, to: alice.address, op: DNS_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(parseExcesses(excess.body).queryId).toBe(9n);
    expect(readNftData(await runGetter(chain, item, 'get_nft_data')).ownerAddress?.equals(bob.address)).toBe(true);
    expect(readDnsLastFillUpTime(await runGetter(chain, item, 'get_last_fill_up_time'))).toBe(NOW + 100);

    const again = await changeRecord(
      alice,
      item,
      DNS_CATEGORY.wallet,
      dnsRecordCell({ type: 'smc_address', address: alice.address }),
    );
    expect(exitCode(findTx(again.transactions, { from: alice.address, to: item }))).toBe(DNS_ERROR.recordNotFromOwner);
  });

  it('renews on op 0 from the owner only, edits content, and answers get_static_data', async () => {
    const { chain, alice, bob } = s;
    await register(alice, 'renewal');
    const item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex('renewal'));
    chain.now = NOW + 500;
    const renew = await alice.send({ to: item, value: toNano('0.05'), body: textComment('renew') });
    expect(exitCode(findTx(renew.transactions, { from: alice.address, to: item }))).toBe(0);
    expect(readDnsLastFillUpTime(await runGetter(chain, item, 'get_last_fill_up_time'))).toBe(NOW + 500);
    const stranger = await bob.send({ to: item, value: toNano('0.05') });
    expect(exitCode(findTx(stranger.transactions, { from: bob.address, to: item }))).toBe(DNS_ERROR.renewNotFromOwner);

    const content = onchainContent({ name: 'renewal.ton' });
    const edit = await alice.send({
      to: item,
      value: toNano('0.05'),
      body: toCell(storeDnsEditContent({ queryId: 2n, content })),
    });
    expect(exitCode(findTx(edit.transactions, { from: alice.address, to: item }))).toBe(0);
    expect(readNftData(await runGetter(chain, item, 'get_nft_data')).individualContent.hash()).toEqual(content.hash());

    const r = await bob.send({ to: item, value: toNano('0.05'), body: toCell(storeNftGetStaticData({ queryId: 3n })) });
    const report = internalIn(findTx(r.transactions, { from: item, to: bob.address, op: DNS_OP.reportStaticData }));
    expect(report.info.bounce).toBe(false);
    const rs = parseNftReportStaticData(report.body);
    expect(rs.queryId).toBe(3n);
    expect(rs.index).toBe(dnsItemIndex('renewal'));
    expect(rs.collection?.equals(DEVNET_DNS_COLLECTION)).toBe(true);
  });
});

interface AccountVector {
  ids: { address: string };
  expected: Record<string, unknown>;
  code_boc_base64: string;
  data_boc_base64: string;
}

interface MessageVector {
  boc_base64: string;
  expected: { query_id: string; key: string; value: { address: string } | null };
}

function slice(item: TupleItem | undefined): Cell {
  if (item?.type !== 'slice') throw new Error(`expected a slice, got ${item?.type}`);
  return item.cell;
}

describe.skipIf(!hasVectors)('DNS against the real .ton item (shared/vectors)', () => {
  const datboi = () => loadVector<AccountVector>('accounts', 'dns_item_datboi_EQDyXrx3.json');
  const auction = () => loadVector<AccountVector>('accounts', 'dns_item_auction_EQDdRaSU.json');

  async function deployAt(chain: Blockchain, address: Address, code: Cell, data: Cell) {
    await chain.setShardAccount(address, createShardAccount({ address, code, data, balance: toNano('1') }));
  }

  it('derives the index from the label cell hash and the address from StateInit{code, index ‖ collection}', () => {
    const v = datboi();
    const data = Cell.fromBase64(v.data_boc_base64).beginParse();
    const index = data.loadUintBig(256);
    const collection = data.loadAddress();
    expect(v.expected.get_domain).toBe('datboi');
    expect(dnsItemIndex('datboi')).toBe(index);
    const realCode = Cell.fromBase64(v.code_boc_base64);
    expect(dnsItemAddress(collection, index, realCode).equals(Address.parseRaw(v.ids.address))).toBe(true);
  });

  it('rebuilds the change_dns_record vectors (set wallet, delete) byte for byte', () => {
    const set = loadVector<MessageVector>('messages', 'dns_change_record_wallet.json');
    const body = toCell(
      storeDnsChangeRecord({
        queryId: BigInt(set.expected.query_id),
        key: BigInt(`0x${set.expected.key}`),
        value: dnsRecordCell({ type: 'smc_address', address: Address.parse(set.expected.value!.address) }),
      }),
    );
    expect(body.hash().toString('hex')).toBe(Cell.fromBase64(set.boc_base64).hash().toString('hex'));
    expect(hex(DNS_CATEGORY.wallet)).toBe(set.expected.key);
    const del = loadVector<MessageVector>('messages', 'dns_delete_record.json');
    const delBody = toCell(storeDnsChangeRecord({ queryId: 0n, key: BigInt(`0x${del.expected.key}`), value: null }));
    expect(delBody.hash().toString('hex')).toBe(Cell.fromBase64(del.boc_base64).hash().toString('hex'));
  });

  it('reads mainnet item data with our code: the domain and auction the vectors assert', async () => {
    const chain = await Blockchain.create();
    const a = auction();
    const at = Address.parseRaw(a.ids.address);
    await deployAt(chain, at, DNS_ITEM_CODE, Cell.fromBase64(a.data_boc_base64));
    const info = readDnsAuctionInfo(await runGetter(chain, at, 'get_auction_info'));
    const want = a.expected.get_auction_info as {
      max_bid_address: string;
      max_bid_amount: string;
      auction_end_time: number;
    };
    expect(info.maxBidAddress?.equals(Address.parse(want.max_bid_address))).toBe(true);
    expect(info.maxBidAmount).toBe(BigInt(want.max_bid_amount));
    expect(info.auctionEndTime).toBe(want.auction_end_time);

    const d = datboi();
    const dAt = Address.parseRaw(d.ids.address);
    await deployAt(chain, dAt, DNS_ITEM_CODE, Cell.fromBase64(d.data_boc_base64));
    expect(readDnsDomain(await runGetter(chain, dAt, 'get_domain'))).toBe(d.expected.get_domain);
  });

  it('has the mainnet code read our item data exactly as our code does (same storage layout)', async () => {
    const { chain, alice } = await setup();
    await register(alice, 'crossread');
    const ours = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex('crossread'));
    await changeRecord(
      alice,
      ours,
      DNS_CATEGORY.wallet,
      dnsRecordCell({ type: 'smc_address', address: alice.address }),
    );
    await changeRecord(
      alice,
      ours,
      DNS_CATEGORY.storage,
      dnsRecordCell({ type: 'storage_address', bagId: Buffer.alloc(32, 1) }),
    );
    const state = (await chain.getContract(ours)).accountState;
    if (state?.type !== 'active') throw new Error('our item is not active');
    const mirror = Address.parseRaw(`0:${'22'.repeat(32)}`);
    await deployAt(chain, mirror, Cell.fromBase64(datboi().code_boc_base64), state.state.data!);

    const calls: Array<[string, TupleItem[]]> = [
      ['get_nft_data', []],
      ['get_domain', []],
      ['get_editor', []],
      ['get_last_fill_up_time', []],
      ['get_auction_info', []],
      ['dnsresolve', dnsresolveArgs(Buffer.from([0]), 0n)],
      ['dnsresolve', dnsresolveArgs(Buffer.from([0]), DNS_CATEGORY.wallet)],
      ['dnsresolve', dnsresolveArgs(Buffer.from([0]), DNS_CATEGORY.site)],
      ['dnsresolve', dnsresolveArgs(encodeDnsName('sub', true), DNS_CATEGORY.wallet)],
    ];
    for (const [method, args] of calls) {
      const real = await runGetter(chain, mirror, method, args);
      const mine = await runGetter(chain, ours, method, args);
      expect(stackTypes(mine), method).toEqual(stackTypes(real));
      const norm = (st: TupleItem[]) =>
        st.map((i) => {
          if (i.type === 'int') return i.value.toString();
          if (i.type === 'cell' || i.type === 'slice') return `${i.type}:${i.cell.hash().toString('hex')}`;
          return i.type;
        });
      expect(norm(mine), method).toEqual(norm(real));
    }
    expect(
      slice((await runGetter(chain, ours, 'get_editor'))[0])
        .beginParse()
        .loadAddress()
        .equals(alice.address),
    ).toBe(true);
  });
});
