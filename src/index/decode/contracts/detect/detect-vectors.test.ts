// Detection on real mainnet accounts (shared/vectors/accounts), through a real TVM runner. Expected values come
// from each file's `expected` (what its source asserts) and `computed_get_methods` (the getters run by the vector
// collector in @ton/sandbox), and content from an independent reading of the content cells with @ton/core.
// Parents are given to the context only where the vectors hold them; an account whose parent is absent is not
// detected, by design (the cross-check cannot pass).
import { Address, beginCell, Cell, Dictionary, loadTransaction, type Slice } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../../../test/helpers/vectors.ts';
import { DNS_COLLECTION_CODE_BOC } from '../../../../devnet/contracts/dns-collection.compiled.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../../../tvm/index.ts';
import type { AccountInput, Detected } from '../types.ts';
import {
  type AccountVector,
  accountOf,
  computed,
  countingRunner,
  DOT_TON,
  independentContent,
  loadAccount,
  testContext,
} from './detect.test-util.ts';
import { createDetectCache, detectAccounts } from './index.ts';

/** Detections as plain JSON (cells by hash), to compare two runs. */
function plain(found: Detected[]): unknown {
  return JSON.parse(
    JSON.stringify(found, (_, v) => {
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Address) return v.toRawString();
      if (v instanceof Cell) return v.hash().toString('hex');
      return v;
    }),
  );
}

function one<K extends Detected['kind']>(found: Detected[], kind: K, address: Address) {
  const d = found.filter((x) => x.address.equals(address));
  expect(d.map((x) => x.kind)).toEqual([kind]);
  return d[0] as Extract<Detected, { kind: K }>;
}

describe.runIf(hasVectors)('detectAccounts on mainnet account vectors', () => {
  let tvm: TvmRunnerHandle;
  beforeAll(async () => {
    tvm = await createTvmRunner({ threads: 1 });
  });
  afterAll(async () => {
    await tvm?.close();
  });

  it('jetton master with off-chain content (tongo "Jetton master")', async () => {
    const { vector, account } = loadAccount('jetton_master_0_29dd8c6a.json');
    const found = await detectAccounts([account], testContext({ tvm }));
    const m = one(found, 'jetton_master', account.address);
    expect(m.totalSupply).toBe(computed(vector, 'get_jetton_data', 0));
    expect(computed(vector, 'get_jetton_data', 1)).toBe(-1n);
    expect(m.mintable).toBe(true);
    expect(m.admin?.equals(computed(vector, 'get_jetton_data', 2) as Address)).toBe(true);
    expect(m.content).toEqual(independentContent(computed(vector, 'get_jetton_data', 3) as Cell));
    expect(m.content?.uri).toMatch(/^https:\/\/lp\.ston\.fi\/0:29DD8C6A/);
    expect(m.jettonWalletCodeHash.equals((computed(vector, 'get_jetton_data', 4) as Cell).hash())).toBe(true);
    expect(m.codeHash.toString('hex')).toBe('82566ad72b6568fe7276437d3b0c911aab65ed701c13601941b2917305e81c11');
  });

  it('jetton wallet cross-checked with its master, both from the 71398501 replay', async () => {
    const w = loadAccount('fatblock_jetton_93503d3a.json');
    const m = loadAccount('fatblock_jetton_bdf3fa80.json');
    const ctx = testContext({ tvm, accounts: [m.account] });
    const found = await detectAccounts([w.account, m.account], ctx);
    expect(found.map((d) => d.kind)).toEqual(['jetton_wallet', 'jetton_master']);

    const wallet = one(found, 'jetton_wallet', w.account.address);
    expect(wallet.balance).toBe(computed(w.vector, 'get_wallet_data', 0));
    expect(wallet.owner.equals(computed(w.vector, 'get_wallet_data', 1) as Address)).toBe(true);
    expect(wallet.jetton.equals(m.account.address)).toBe(true);
    expect(wallet.mintless).toBeNull();
    expect(wallet.lastTransLt).toBe(w.account.lastTransLt);
    expect(wallet.dataHash.toString('hex')).toBe('b8764d068286da6a567b9e8378248b8ab80792cc91757eb71f07a16952aa2ab5');

    const master = one(found, 'jetton_master', m.account.address);
    expect(master.totalSupply).toBe(72281252759395545n);
    expect(master.admin?.toRawString()).toBe('0:a45b17f28409229b78360e3290420f13e4fe20f90d7e2bf8c4ac6703259e22fa');
    const content = independentContent(computed(m.vector, 'get_jetton_data', 3) as Cell);
    expect(Object.keys(content).length).toBeGreaterThan(2);
    expect(master.content).toEqual(content);
    // The wallet's own code (get_wallet_data[3]) is what the master hands out.
    expect(master.jettonWalletCodeHash.equals((computed(w.vector, 'get_wallet_data', 3) as Cell).hash())).toBe(true);
    expect(ctx.accountAsks).toEqual([m.account.address.toRawString()]);
  });

  it('a fake jetton wallet is not detected: its master derives another address (anton account_test.go)', async () => {
    const fake = loadAccount('jetton_wallet_fake_EQD9vvnQ.json');
    const scale = loadAccount('jetton_minter_SCALE_EQBlqsm1.json');
    const asserted = fake.vector.expected as {
      fake: boolean;
      commented_out_in_source: { minter_get_wallet_address: { returns: string } };
    };
    expect(asserted.fake).toBe(true);
    expect(
      Address.parse(asserted.commented_out_in_source.minter_get_wallet_address.returns).equals(fake.account.address),
    ).toBe(false);
    const ctx = testContext({ tvm, accounts: [scale.account] });
    const found = await detectAccounts([fake.account, scale.account], ctx);
    expect(found.map((d) => [d.kind, d.address.toRawString()])).toEqual([
      ['jetton_master', scale.account.address.toRawString()],
    ]);
    // The wallet's getter ran and named SCALE as its master: the cross-check, not the getter, rejected it.
    expect(ctx.accountAsks).toEqual([scale.account.address.toRawString()]);
    const master = one(found, 'jetton_master', scale.account.address);
    expect(master.mintable).toBe(false);
    expect(master.content).toEqual(independentContent(computed(scale.vector, 'get_jetton_data', 3) as Cell));
  });

  it('a jetton wallet or NFT item whose parent is unknown is not detected', async () => {
    const w = loadAccount('jetton_wallet_0_4f8d1285.json');
    const i = loadAccount('nft_item_0_01865643.json');
    const ctx = testContext({ tvm });
    expect(await detectAccounts([w.account, i.account], ctx)).toEqual([]);
    expect(ctx.accountAsks).toEqual([
      (computed(w.vector, 'get_wallet_data', 2) as Address).toRawString(),
      (computed(i.vector, 'get_nft_data', 2) as Address).toRawString(),
    ]);
  });

  it('NFT collections', async () => {
    for (const file of ['nft_collection_0_4ad02e79.json', 'nft_collection_loton_EQBMy6CN.json']) {
      const { vector, account } = loadAccount(file);
      const c = one(await detectAccounts([account], testContext({ tvm })), 'nft_collection', account.address);
      expect(c.nextItemIndex).toBe(computed(vector, 'get_collection_data', 0));
      expect(c.owner?.equals(computed(vector, 'get_collection_data', 2) as Address)).toBe(true);
      expect(c.content).toEqual(independentContent(computed(vector, 'get_collection_data', 1) as Cell));
    }
  });

  it('the loton item #100 with its collection gives the URI the source asserts', async () => {
    const item = loadAccount('nft_item_loton_100_EQAQKmY9.json');
    const coll = loadAccount('nft_collection_loton_EQBMy6CN.json');
    const asserted = item.vector.expected as {
      get_nft_data: { init: boolean; index: number; collection_address: string; owner_address: string };
      content_uri: string;
    };
    const found = await detectAccounts([item.account], testContext({ tvm, accounts: [coll.account] }));
    const d = one(found, 'nft_item', item.account.address);
    expect(d.init).toBe(asserted.get_nft_data.init);
    expect(d.index).toBe(BigInt(asserted.get_nft_data.index));
    expect(d.collection?.equals(Address.parse(asserted.get_nft_data.collection_address))).toBe(true);
    expect(d.owner?.equals(Address.parse(asserted.get_nft_data.owner_address))).toBe(true);
    expect(d.content).toEqual({ uri: asserted.content_uri });
    expect(d.dns).toBeNull();
  });

  describe('.ton DNS items (the collection: our devnet DNS collection code at the mainnet root address)', () => {
    const files = ['dns_item_0_de9dda22.json', 'dns_item_auction_EQDdRaSU.json', 'dns_item_datboi_EQDyXrx3.json'];

    /** The .ton collection as the pipeline would see it: collection_content:^Cell item_code:^Cell (§5.2). */
    function dotTonCollection(itemCode: Cell): AccountInput {
      const content = beginCell().storeUint(1, 8).storeStringTail('https://dns.ton.org/collection.json').endCell();
      return {
        address: DOT_TON,
        code: Cell.fromBase64(DNS_COLLECTION_CODE_BOC),
        data: beginCell().storeRef(content).storeRef(itemCode).endCell(),
        balance: 1_000_000_000n,
        lastTransLt: 1n,
      };
    }

    it.each(files)('%s', async (file) => {
      const { vector, account } = loadAccount(file);
      const label = (computed(vector, 'get_domain', 0) as Cell).beginParse().loadStringTail();
      if (vector.expected?.get_domain !== undefined) expect(label).toBe(vector.expected.get_domain);
      const ctx = testContext({
        tvm,
        accounts: [dotTonCollection(account.code)],
        dnsRoots: [{ collection: DOT_TON, suffix: '.ton' }],
      });
      const d = one(await detectAccounts([account], ctx), 'nft_item', account.address);
      expect(d.index).toBe(computed(vector, 'get_nft_data', 1));
      expect(d.collection?.equals(DOT_TON)).toBe(true);
      const owner = computed(vector, 'get_nft_data', 3);
      expect(d.owner === null ? null : d.owner.toRawString()).toBe(
        owner instanceof Address ? owner.toRawString() : null,
      );
      expect(d.content).toEqual({ domain: `${label}.ton` });
      // The items' record dictionaries are empty (content = 0x00 + an empty HashmapE).
      expect((computed(vector, 'get_nft_data', 4) as Cell).bits.length).toBe(9);
      expect(d.dns).toEqual({
        domain: `${label}.ton`,
        nextResolver: null,
        wallet: null,
        siteAdnl: null,
        storageBagId: null,
      });
    });

    it('without the DNS root configured, the same item is a plain NFT item', async () => {
      const { account } = loadAccount(files[2]!);
      const ctx = testContext({ tvm, accounts: [dotTonCollection(account.code)] });
      const d = one(await detectAccounts([account], ctx), 'nft_item', account.address);
      expect(d.content).toEqual({});
      expect(d.dns).toBeNull();
    });

    it('decodes the records of a real item code holding wallet, site, storage and next-resolver records', async () => {
      const { vector, account } = loadAccount(files[0]!);
      // Category keys: sha256 of the names, as contracts.md §5.1 lists them.
      const CATEGORY = {
        wallet: 0xe8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1bn,
        site: 0xfbae041b02c41ed0fd8a4efb039bc780dd6af4a1f0c420f42561ae705dda43fen,
        storage: 0x49a25f9feefaffecad0fcd30c50dc9331cff8b55ece53def6285c09e17e6f5d7n,
        next: 0x19f02441ee588fdb26ee24b2568dd035c3c9206e11ab979be62e55558a1d17ffn,
      };
      const wallet = Address.parseRaw(`0:${'11'.repeat(32)}`);
      const resolver = Address.parseRaw(`0:${'22'.repeat(32)}`);
      const adnl = Buffer.alloc(32, 0xab);
      const bag = Buffer.alloc(32, 0xcd);
      const records = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
      records.set(CATEGORY.wallet, beginCell().storeUint(0x9fd3, 16).storeAddress(wallet).storeUint(0, 8).endCell());
      records.set(
        CATEGORY.site,
        beginCell()
          .storeUint(0xad01, 16)
          .storeBuffer(adnl)
          .storeUint(1, 8)
          .storeBit(1)
          .storeUint(0x4854, 16)
          .storeBit(0)
          .endCell(),
      );
      records.set(CATEGORY.storage, beginCell().storeUint(0x7473, 16).storeBuffer(bag).endCell());
      records.set(CATEGORY.next, beginCell().storeUint(0xba93, 16).storeAddress(resolver).endCell());
      // Item storage (contracts.md §5.2): index collection owner content:^Cell domain:^Cell auction last_fill_up_time.
      const s: Slice = account.data.beginParse();
      const index = s.loadUintBig(256);
      const collection = s.loadAddress();
      const owner = s.loadMaybeAddress();
      s.loadRef();
      const rest = s.asBuilder();
      const data = beginCell()
        .storeUint(index, 256)
        .storeAddress(collection)
        .storeAddress(owner)
        .storeRef(beginCell().storeUint(0, 8).storeDict(records).endCell())
        .storeBuilder(rest)
        .endCell();
      const item: AccountInput = { ...account, data };
      const ctx = testContext({
        tvm,
        accounts: [dotTonCollection(account.code)],
        dnsRoots: [{ collection: DOT_TON, suffix: '.ton' }],
      });
      const d = one(await detectAccounts([item], ctx), 'nft_item', account.address);
      const label = (computed(vector, 'get_domain', 0) as Cell).beginParse().loadStringTail();
      expect(d.dns?.domain).toBe(`${label}.ton`);
      expect(d.dns?.wallet?.equals(wallet)).toBe(true);
      expect(d.dns?.nextResolver?.equals(resolver)).toBe(true);
      expect(d.dns?.siteAdnl).toBe('AB'.repeat(32));
      expect(d.dns?.storageBagId).toBe('CD'.repeat(32));
      // Records are not standard TEP-64 keys: the content shows only the domain.
      expect(d.content).toEqual({ domain: `${label}.ton` });
    });
  });

  it('a USDT wallet runs through its masterchain library (replay fixture libraries); no master, no detection', async () => {
    const { account } = loadAccount('fatblock_jetton_wallet_governed_9f4067fa.json');
    expect(account.code.isExotic).toBe(true);
    const replay = loadVector<{ libraries_boc_base64: string[] }>('replay', 'replay_00b5ea43_76982528000005.json');
    // The masterchain state's libraries: HashmapE 256 (shared_lib_descr$00 lib:^Cell publishers:…).
    const libs = Dictionary.loadDirect(
      Dictionary.Keys.Buffer(32),
      { serialize: () => undefined, parse: (v) => v.skip(2).loadRef() },
      Cell.fromBase64(replay.libraries_boc_base64[0]!),
    );
    const ctx = testContext({ tvm, libraries: [...libs.values()] });
    expect(await detectAccounts([account], ctx)).toEqual([]);
    // contracts.md §0.1: the library cell 89468f02… stands for the stablecoin wallet code 8f452d7a….
    expect(ctx.libraryAsks[0]).toBe('8f452d7a4dfd74066b682365177259ed05734435be76b5fd4bd5d8af2b7c3d68');
    // get_wallet_data ran and named USDT's master (EQCxE6mU…, 0:b113a994…) for the cross-check.
    expect(ctx.accountAsks).toEqual([Address.parse('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs').toRawString()]);
  });

  it('a GetGems fix-price sale: every get_sale_data entry the vector collector computed', async () => {
    const { vector, account } = loadAccount('nft_sale_getgems_0_a2379ac8.json');
    const ctx = testContext({ tvm });
    const sale = one(await detectAccounts([account], ctx), 'getgems_sale', account.address);
    const at = (i: number) => computed(vector, 'get_sale_data', i);
    expect(at(0)).toBe(0x46495850n);
    const addressAt = (i: number) => (at(i) as Address).toRawString();
    expect({
      isComplete: sale.isComplete,
      createdAt: sale.createdAt,
      marketplace: sale.marketplace.toRawString(),
      nft: sale.nft.toRawString(),
      nftOwner: sale.nftOwner?.toRawString() ?? null,
      fullPrice: sale.fullPrice,
      marketplaceFeeAddress: sale.marketplaceFeeAddress.toRawString(),
      marketplaceFee: sale.marketplaceFee,
      royaltyAddress: sale.royaltyAddress.toRawString(),
      royaltyAmount: sale.royaltyAmount,
    }).toEqual({
      isComplete: at(1) !== 0n,
      createdAt: at(2),
      marketplace: addressAt(3),
      nft: addressAt(4),
      nftOwner: addressAt(5),
      fullPrice: at(6),
      marketplaceFeeAddress: addressAt(7),
      marketplaceFee: at(8),
      royaltyAddress: addressAt(9),
      royaltyAmount: at(10),
    });
    expect(sale.codeHash.toString('hex')).toBe('32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323');
    expect(ctx.accountAsks).toEqual([]);
  });

  it('a GetGems auction v3r2 as deployed on mainnet (the StateInit of transactions/contract_deploy_03b35a0e)', async () => {
    const v = loadVector<{ boc_base64: string }>('transactions', 'contract_deploy_03b35a0e.json');
    const tx = loadTransaction(Cell.fromBase64(v.boc_base64).beginParse());
    const m = tx.inMessage!;
    const init = m.init!;
    const address = m.info.dest as Address;
    const account: AccountInput = {
      address,
      code: init.code!,
      data: init.data!,
      balance: 10n ** 9n,
      lastTransLt: tx.lt,
    };
    expect(init.code!.hash().toString('hex')).toBe('1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df');
    const a = one(await detectAccounts([account], testContext({ tvm })), 'getgems_auction', address);
    // Independent anchors: the marketplace is GetGems' own (the one the fix-price sale vector's get_sale_data names),
    // and the fee address is the address the auction's data keeps first in its first reference (fees cell).
    const sale = loadAccount('nft_sale_getgems_0_a2379ac8.json').vector;
    expect(a.marketplace.toRawString()).toBe((computed(sale, 'get_sale_data', 3) as Address).toRawString());
    expect(a.mpFeeAddress.toRawString()).toBe(init.data!.refs[0]!.beginParse().loadAddress().toRawString());
    expect([a.endFlag, a.isCanceled, a.lastMember]).toEqual([false, false, null]);
    expect(a.nftOwner === null || a.nftOwner instanceof Address).toBe(true);
    expect(a.mpFeeBase > 0n && a.royaltyFeeBase > 0n).toBe(true);
  });

  it('wallets and other accounts belong to no family', async () => {
    const files = [
      'wallet_v3r2_EQDj5AA8.json',
      'wallet_v4r2_EQBCPrKa.json',
      'fatblock_wallet_v5r1_bc91b30e.json',
      'fatblock_highload_v3_cee275c9.json',
    ];
    const accounts = files.map((f) => loadAccount(f).account);
    const ctx = testContext({ tvm });
    expect(await detectAccounts(accounts, ctx)).toEqual([]);
    expect(ctx.accountAsks).toEqual([]);
  });

  it('answers from the cache: a second pass runs no getter; measures accounts per second', async () => {
    const vectors = loadVectors<AccountVector>('accounts').filter(
      (v) => (v.data.code_boc_base64 && v.data.data_boc_base64) || v.data.kind === 'shard_account',
    );
    const accounts: AccountInput[] = [];
    for (const v of vectors) {
      try {
        accounts.push(accountOf(v.data));
      } catch {
        // frozen or uninitialised accounts have no code to detect
      }
    }
    const counting = countingRunner(tvm);
    const ctx = testContext({ tvm: counting, accounts });
    const cache = createDetectCache();
    const t0 = performance.now();
    const cold = await detectAccounts(accounts, ctx, cache);
    const t1 = performance.now();
    const coldRuns = counting.runs;
    const warm = await detectAccounts(accounts, ctx, cache);
    const t2 = performance.now();
    expect(plain(warm)).toEqual(plain(cold));
    expect(counting.runs).toBe(coldRuns);
    expect(cold.length).toBeGreaterThan(5);
    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
    console.log(
      `detectAccounts: ${accounts.length} vector accounts, ${cold.length} detected, ${coldRuns} getter runs; ` +
        `cold ${rate(accounts.length, t1 - t0)} accounts/s, cached ${rate(accounts.length, t2 - t1)} accounts/s`,
    );
  });
});
