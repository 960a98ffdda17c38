// The contract row encoders against the real schema: hand-built detections and events are encoded, COPYed into a
// migrated PGlite with the column lists of columns.ts, and read back with SQL field by field. A wrong column order,
// type or encoding fails the COPY (domains check addresses and hashes) or the comparison. Expected values are
// written out from the inputs by the encodings schema/README.md gives, not from the encoders.
import { Address, beginCell, Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, type TestDatabase } from '../../../../test/helpers/database.ts';
import { migrate } from '../../../db/index.ts';
import { CONTRACT_TABLE_COLUMNS } from './columns.ts';
import { detectedRow, eventRow, sellersOf, type TableRow } from './rows.ts';
import type { ContractEvent, Detected, TxRef } from './types.ts';

const addr = (wc: number, fill: number) => new Address(wc, Buffer.alloc(32, fill));
/** The raw upper-case form tonaddr holds, spelled out. */
const raw = (wc: number, fill: number) => `${wc}:${fill.toString(16).toUpperCase().padStart(2, '0').repeat(32)}`;
const hash = (fill: number) => Buffer.alloc(32, fill);
const base64 = (fill: number) => Buffer.alloc(32, fill).toString('base64');

const base = (fill: number) => ({
  address: addr(0, fill),
  codeHash: hash(fill + 1),
  dataHash: hash(fill + 2),
  lastTransLt: 47_000_000_000_001n + BigInt(fill),
});

const U64_MAX = 2n ** 64n - 1n;
const order = beginCell().storeUint(0xf1381e5b, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
const customPayload = beginCell().storeUint(0xdeadbeef, 32).endCell();
const forwardPayload = beginCell().storeUint(0, 32).storeStringTail('hello').endCell();

const detections: Detected[] = [
  {
    ...base(0x10),
    kind: 'jetton_master',
    totalSupply: 2n ** 120n + 3n,
    mintable: true,
    admin: addr(-1, 0x11),
    content: { name: 'Tether USD', symbol: 'USD₮', decimals: '6' },
    jettonWalletCodeHash: hash(0x12),
  },
  {
    ...base(0x20),
    kind: 'jetton_wallet',
    balance: 40_886_112n,
    owner: addr(0, 0x21),
    jetton: addr(0, 0x10),
    mintless: { isClaimed: false, amount: 5n, startFrom: 1_730_000_000, expireAt: 4_100_000_000 },
  },
  { ...base(0x30), kind: 'jetton_wallet', balance: 0n, owner: addr(0, 0x31), jetton: addr(0, 0x10), mintless: null },
  {
    ...base(0x40),
    kind: 'nft_collection',
    nextItemIndex: -1n,
    owner: null,
    content: { uri: 'https://x.example/c.json' },
  },
  {
    ...base(0x50),
    kind: 'nft_item',
    init: true,
    index: 2n ** 255n + 1n,
    collection: addr(0, 0x40),
    owner: addr(0, 0x51),
    content: { domain: 'alice.ton' },
    dns: {
      domain: 'alice.ton',
      nextResolver: null,
      wallet: addr(0, 0x51),
      siteAdnl: 'ab'.repeat(32),
      storageBagId: null,
    },
  },
  {
    ...base(0x60),
    kind: 'nft_item',
    init: false,
    index: 0n,
    collection: null,
    owner: null,
    content: null,
    dns: null,
  },
  {
    ...base(0x70),
    kind: 'multisig',
    nextOrderSeqno: 3n,
    threshold: 2n,
    signers: [addr(0, 0x71), addr(-1, 0x72)],
    proposers: [],
  },
  {
    ...base(0x80),
    kind: 'multisig_order',
    multisig: addr(0, 0x70),
    orderSeqno: 2n ** 256n - 1n,
    threshold: 2n,
    sentForExecution: false,
    approvalsMask: 2n ** 200n + 1n,
    approvalsNum: 1n,
    expirationDate: 281_474_976_710_655n,
    order,
    signers: [addr(0, 0x71), addr(-1, 0x72)],
  },
  {
    ...base(0x90),
    kind: 'vesting',
    startTime: 4_000_000_000,
    totalDuration: 4_294_967_295,
    unlockPeriod: 2_592_000,
    cliffDuration: 0,
    totalAmount: 10n ** 18n,
    sender: addr(0, 0x91),
    owner: addr(0, 0x92),
    whitelist: [addr(0, 0x93), addr(-1, 0x94), addr(0, 0x93)],
  },
  // An item held by a fix-price sale (0xb0) and one held by an auction (0xc0), each decoded in the same unit.
  {
    ...base(0xa8),
    kind: 'nft_item',
    init: true,
    index: 1n,
    collection: null,
    owner: addr(0, 0xb0),
    content: null,
    dns: null,
  },
  {
    ...base(0xa9),
    kind: 'nft_item',
    init: true,
    index: 2n,
    collection: null,
    owner: addr(0, 0xc0),
    content: null,
    dns: null,
  },
  {
    ...base(0xb0),
    kind: 'getgems_sale',
    isComplete: false,
    createdAt: 1_700_000_000n,
    marketplace: addr(0, 0xb1),
    nft: addr(0, 0xa8),
    nftOwner: addr(0, 0xb2),
    fullPrice: 2n ** 100n,
    marketplaceFeeAddress: addr(0, 0xb3),
    marketplaceFee: 5n,
    royaltyAddress: addr(-1, 0xb4),
    royaltyAmount: 0n,
  },
  {
    ...base(0xc0),
    kind: 'getgems_auction',
    endFlag: true,
    endTime: 1_800_000_000n,
    marketplace: addr(0, 0xc1),
    nft: addr(0, 0xa9),
    nftOwner: addr(0, 0xc2),
    lastBid: 37_970_000_000n,
    lastMember: null,
    minStep: 5n,
    mpFeeAddress: addr(0, 0xc3),
    mpFeeFactor: 5n,
    mpFeeBase: 100n,
    royaltyFeeAddress: addr(0, 0xc4),
    royaltyFeeFactor: 10n,
    royaltyFeeBase: 1000n,
    maxBid: 0n,
    minBid: 10n ** 9n,
    createdAt: 1_700_000_001n,
    lastBidAt: 0n,
    isCanceled: false,
  },
];

const tx = (fill: number, aborted = false): TxRef => ({
  hash: hash(fill),
  lt: 47_000_000_000_100n + BigInt(fill),
  now: 4_294_967_295,
  mcSeqno: 71_398_501,
  aborted,
});

const events: Array<{ e: ContractEvent; join: Parameters<typeof eventRow>[1] }> = [
  {
    e: {
      kind: 'jetton_transfer',
      tx: tx(0xa1),
      account: addr(0, 0x20),
      queryId: U64_MAX,
      amount: 1_000_000n,
      source: addr(0, 0x21),
      destination: addr(0, 0x31),
      responseDestination: null,
      customPayload,
      forwardTonAmount: 1n,
      forwardPayload,
    },
    join: { jettonMaster: addr(0, 0x10), walletOwner: addr(0, 0x21) },
  },
  {
    e: {
      kind: 'jetton_burn',
      tx: tx(0xa2, true),
      account: addr(0, 0x20),
      queryId: 0n,
      owner: addr(0, 0x21),
      amount: 2n ** 100n,
      responseDestination: addr(0, 0x21),
      customPayload: null,
    },
    join: { jettonMaster: addr(0, 0x10), walletOwner: addr(0, 0x21) },
  },
  {
    e: {
      kind: 'jetton_mint',
      tx: tx(0xa3),
      account: addr(0, 0x30),
      queryId: 9n,
      amount: 500n,
      minter: addr(0, 0x10),
      from: addr(-1, 0x11),
      responseDestination: null,
      forwardTonAmount: 0n,
    },
    join: { jettonMaster: addr(0, 0x10), walletOwner: addr(0, 0x31) },
  },
  {
    e: {
      kind: 'nft_transfer',
      tx: tx(0xa4),
      account: addr(0, 0x50),
      queryId: 1n,
      oldOwner: addr(0, 0x51),
      newOwner: addr(0, 0x52),
      responseDestination: addr(0, 0x51),
      customPayload: null,
      forwardAmount: 10n ** 9n,
      forwardPayload: null,
    },
    join: { nftCollection: addr(0, 0x40), nftIndex: 2n ** 255n + 1n },
  },
];

const bocHash = (text: unknown) => Cell.fromBase64(text as string).hash();

describe('contract rows in the schema', () => {
  let t: TestDatabase;
  const q = async (sql: string) => (await t.db.query(sql)).rows as Array<Record<string, unknown>>;

  beforeAll(async () => {
    t = await setupDatabase('pglite');
    await migrate(t.db);
    const byTable = new Map<string, unknown[][]>();
    const sellerOf = sellersOf(detections);
    const all: TableRow[] = [
      ...detections.flatMap((d) => detectedRow(d, sellerOf)),
      ...events.map(({ e, join }) => eventRow(e, join)),
    ];
    for (const { table, row } of all) {
      expect(row.length, table).toBe(CONTRACT_TABLE_COLUMNS[table]!.length);
      byTable.set(table, [...(byTable.get(table) ?? []), row]);
    }
    for (const [table, rows] of byTable) await t.db.copyFrom(table, CONTRACT_TABLE_COLUMNS[table]!, rows);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('lists every table column in table order, without the sequence-filled id', async () => {
    for (const [table, cols] of Object.entries(CONTRACT_TABLE_COLUMNS)) {
      const r = await q(
        `SELECT a.attname AS c FROM pg_attribute a WHERE a.attrelid = '${table}'::regclass AND a.attnum > 0
         AND NOT a.attisdropped ORDER BY a.attnum`,
      );
      expect(cols, table).toEqual(r.map((x) => x.c).filter((c) => c !== 'id'));
    }
  });

  it('stores jetton masters and wallets', async () => {
    const [m] = await q(`SELECT address, total_supply, mintable, admin_address, jetton_content,
      jetton_wallet_code_hash, last_transaction_lt, code_hash, data_hash, id FROM jetton_masters`);
    expect(m).toEqual({
      address: raw(0, 0x10),
      total_supply: '1329227995784915872903807060280344579',
      mintable: true,
      admin_address: raw(-1, 0x11),
      jetton_content: { name: 'Tether USD', symbol: 'USD₮', decimals: '6' },
      jetton_wallet_code_hash: base64(0x12),
      last_transaction_lt: 47_000_000_000_017n,
      code_hash: base64(0x11),
      data_hash: base64(0x12),
      id: 1n,
    });
    const w = await q(`SELECT address, balance, owner, jetton, last_transaction_lt, code_hash, data_hash,
      mintless_is_claimed, mintless_amount, mintless_start_from, mintless_expire_at FROM jetton_wallets ORDER BY address`);
    expect(w).toEqual([
      {
        address: raw(0, 0x20),
        balance: '40886112',
        owner: raw(0, 0x21),
        jetton: raw(0, 0x10),
        last_transaction_lt: 47_000_000_000_033n,
        code_hash: base64(0x21),
        data_hash: base64(0x22),
        mintless_is_claimed: false,
        mintless_amount: '5',
        mintless_start_from: 1_730_000_000n,
        mintless_expire_at: 4_100_000_000n,
      },
      {
        address: raw(0, 0x30),
        balance: '0',
        owner: raw(0, 0x31),
        jetton: raw(0, 0x10),
        last_transaction_lt: 47_000_000_000_049n,
        code_hash: base64(0x31),
        data_hash: base64(0x32),
        mintless_is_claimed: null,
        mintless_amount: null,
        mintless_start_from: null,
        mintless_expire_at: null,
      },
    ]);
  });

  it('stores NFT collections, items and the DNS entry of a DNS item', async () => {
    expect(await q('SELECT address, next_item_index, owner_address, collection_content FROM nft_collections')).toEqual([
      {
        address: raw(0, 0x40),
        next_item_index: '-1',
        owner_address: null,
        collection_content: { uri: 'https://x.example/c.json' },
      },
    ]);
    const items = await q(`SELECT address, init, index, collection_address, owner_address, content,
      last_transaction_lt, code_hash, data_hash, real_owner FROM nft_items WHERE address IN ('${raw(0, 0x50)}',
      '${raw(0, 0x60)}') ORDER BY address`);
    expect(items).toEqual([
      {
        address: raw(0, 0x50),
        init: true,
        index: '57896044618658097711785492504343953926634992332820282019728792003956564819969',
        collection_address: raw(0, 0x40),
        owner_address: raw(0, 0x51),
        content: { domain: 'alice.ton' },
        last_transaction_lt: 47_000_000_000_081n,
        code_hash: base64(0x51),
        data_hash: base64(0x52),
        real_owner: null,
      },
      {
        address: raw(0, 0x60),
        init: false,
        index: '0',
        collection_address: null,
        owner_address: null,
        content: null,
        last_transaction_lt: 47_000_000_000_097n,
        code_hash: base64(0x61),
        data_hash: base64(0x62),
        real_owner: null,
      },
    ]);
    expect(await q('SELECT * FROM dns_entries')).toEqual([
      {
        nft_item_address: raw(0, 0x50),
        nft_item_owner: raw(0, 0x51),
        domain: 'alice.ton',
        dns_next_resolver: null,
        dns_wallet: raw(0, 0x51),
        dns_site_adnl: 'ab'.repeat(32),
        dns_storage_bag_id: null,
        last_transaction_lt: 47_000_000_000_081n,
      },
    ]);
    // The index toncenter keeps for address_book domains sees it (owner = wallet record).
    expect(await q('SELECT domain FROM dns_entries WHERE nft_item_owner = dns_wallet')).toEqual([
      { domain: 'alice.ton' },
    ]);
  });

  it('stores GetGems sales and auctions, and the seller as real_owner of the item each holds', async () => {
    expect(await q('SELECT * FROM getgems_nft_sales')).toEqual([
      {
        id: 1n,
        address: raw(0, 0xb0),
        is_complete: false,
        created_at: 1_700_000_000n,
        marketplace_address: raw(0, 0xb1),
        nft_address: raw(0, 0xa8),
        nft_owner_address: raw(0, 0xb2),
        full_price: (2n ** 100n).toString(),
        marketplace_fee_address: raw(0, 0xb3),
        marketplace_fee: '5',
        royalty_address: raw(-1, 0xb4),
        royalty_amount: '0',
        last_transaction_lt: 47_000_000_000_177n,
        code_hash: base64(0xb1),
        data_hash: base64(0xb2),
      },
    ]);
    expect(await q('SELECT * FROM getgems_nft_auctions')).toEqual([
      {
        id: 1n,
        address: raw(0, 0xc0),
        end_flag: true,
        end_time: 1_800_000_000n,
        mp_addr: raw(0, 0xc1),
        nft_addr: raw(0, 0xa9),
        nft_owner: raw(0, 0xc2),
        last_bid: '37970000000',
        last_member: null,
        min_step: 5n,
        mp_fee_addr: raw(0, 0xc3),
        mp_fee_factor: 5n,
        mp_fee_base: 100n,
        royalty_fee_addr: raw(0, 0xc4),
        royalty_fee_factor: 10n,
        royalty_fee_base: 1000n,
        max_bid: '0',
        min_bid: '1000000000',
        created_at: 1_700_000_001n,
        last_bid_at: 0n,
        is_canceled: false,
        last_transaction_lt: 47_000_000_000_193n,
        code_hash: base64(0xc1),
        data_hash: base64(0xc2),
      },
    ]);
    expect(
      await q(`SELECT address, owner_address, real_owner FROM nft_items
        WHERE address IN ('${raw(0, 0xa8)}', '${raw(0, 0xa9)}') ORDER BY address`),
    ).toEqual([
      { address: raw(0, 0xa8), owner_address: raw(0, 0xb0), real_owner: raw(0, 0xb2) },
      { address: raw(0, 0xa9), owner_address: raw(0, 0xc0), real_owner: raw(0, 0xc2) },
    ]);
  });

  it('stores multisig wallets and orders with their address arrays and order BoC', async () => {
    expect(
      await q(`SELECT address, next_order_seqno, threshold, signers::text[] AS signers, proposers::text[] AS proposers,
        code_hash FROM multisig`),
    ).toEqual([
      {
        address: raw(0, 0x70),
        next_order_seqno: '3',
        threshold: 2n,
        signers: [raw(0, 0x71), raw(-1, 0x72)],
        proposers: [],
        code_hash: base64(0x71),
      },
    ]);
    // GIN array lookup as /multisig/wallets?wallet_address= does it.
    expect(await q(`SELECT address FROM multisig WHERE signers @> ARRAY['${raw(-1, 0x72)}']::tonaddr[]`)).toHaveLength(
      1,
    );
    const [o] = await q(`SELECT address, multisig_address, order_seqno, threshold, sent_for_execution, approvals_mask,
      approvals_num, expiration_date, order_boc, signers::text[] AS signers, last_transaction_lt FROM multisig_orders`);
    expect({ ...o, order_boc: undefined }).toEqual({
      address: raw(0, 0x80),
      multisig_address: raw(0, 0x70),
      order_seqno: (2n ** 256n - 1n).toString(),
      threshold: 2n,
      sent_for_execution: false,
      approvals_mask: '1606938044258990275541962092341162602522202993782792835301377',
      approvals_num: 1n,
      expiration_date: 281_474_976_710_655n,
      order_boc: undefined,
      signers: [raw(0, 0x71), raw(-1, 0x72)],
      last_transaction_lt: 47_000_000_000_129n,
    });
    expect(bocHash(o!.order_boc).equals(order.hash())).toBe(true);
  });

  it('stores vesting contracts with values beyond int32 and their whitelist once per address', async () => {
    expect(await q('SELECT * FROM vesting_contracts')).toEqual([
      {
        id: 1n,
        address: raw(0, 0x90),
        vesting_start_time: 4_000_000_000n,
        vesting_total_duration: 4_294_967_295n,
        unlock_period: 2_592_000n,
        cliff_duration: 0n,
        vesting_total_amount: '1000000000000000000',
        vesting_sender_address: raw(0, 0x91),
        owner_address: raw(0, 0x92),
        last_transaction_lt: 47_000_000_000_145n,
        code_hash: base64(0x91),
        data_hash: base64(0x92),
      },
    ]);
    expect(await q('SELECT * FROM vesting_whitelist ORDER BY wallet_address')).toEqual([
      { vesting_contract_address: raw(0, 0x90), wallet_address: raw(-1, 0x94) },
      { vesting_contract_address: raw(0, 0x90), wallet_address: raw(0, 0x93) },
    ]);
  });

  it('stores jetton transfers, burns and mints', async () => {
    const [tr] = await q('SELECT * FROM jetton_transfers');
    expect({ ...tr, custom_payload: undefined, forward_payload: undefined }).toEqual({
      tx_hash: base64(0xa1),
      tx_lt: 47_000_000_000_261n,
      tx_now: 4_294_967_295n,
      tx_aborted: false,
      mc_seqno: 71_398_501,
      query_id: '18446744073709551615',
      amount: '1000000',
      source: raw(0, 0x21),
      destination: raw(0, 0x31),
      jetton_wallet_address: raw(0, 0x20),
      jetton_master_address: raw(0, 0x10),
      response_destination: null,
      custom_payload: undefined,
      forward_ton_amount: '1',
      forward_payload: undefined,
      trace_id: null,
    });
    expect(bocHash(tr!.custom_payload).equals(customPayload.hash())).toBe(true);
    expect(bocHash(tr!.forward_payload).equals(forwardPayload.hash())).toBe(true);

    expect(await q('SELECT * FROM jetton_burns')).toEqual([
      {
        tx_hash: base64(0xa2),
        tx_lt: 47_000_000_000_262n,
        tx_now: 4_294_967_295n,
        tx_aborted: true,
        mc_seqno: 71_398_501,
        query_id: '0',
        owner: raw(0, 0x21),
        jetton_wallet_address: raw(0, 0x20),
        jetton_master_address: raw(0, 0x10),
        amount: '1267650600228229401496703205376',
        response_destination: raw(0, 0x21),
        custom_payload: null,
        trace_id: null,
      },
    ]);
    expect(await q('SELECT * FROM jetton_mints')).toEqual([
      {
        tx_hash: base64(0xa3),
        tx_lt: 47_000_000_000_263n,
        tx_now: 4_294_967_295n,
        tx_aborted: false,
        mc_seqno: 71_398_501,
        query_id: '9',
        amount: '500',
        minter: raw(0, 0x10),
        from_address: raw(-1, 0x11),
        destination: raw(0, 0x31),
        jetton_wallet_address: raw(0, 0x30),
        jetton_master_address: raw(0, 0x10),
        response_destination: null,
        forward_ton_amount: '0',
        trace_id: null,
      },
    ]);
  });

  it('stores NFT transfers with the item index and collection from the join', async () => {
    expect(await q('SELECT * FROM nft_transfers')).toEqual([
      {
        tx_hash: base64(0xa4),
        tx_lt: 47_000_000_000_264n,
        tx_now: 4_294_967_295n,
        tx_aborted: false,
        mc_seqno: 71_398_501,
        query_id: '1',
        nft_item_address: raw(0, 0x50),
        nft_item_index: '57896044618658097711785492504343953926634992332820282019728792003956564819969',
        nft_collection_address: raw(0, 0x40),
        old_owner: raw(0, 0x51),
        new_owner: raw(0, 0x52),
        response_destination: raw(0, 0x51),
        custom_payload: null,
        forward_amount: '1000000000',
        forward_payload: null,
        trace_id: null,
      },
    ]);
  });
});
