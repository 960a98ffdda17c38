// /api/v3 jetton and NFT endpoints (v3-api.md §3.4-3.5) over a migrated database on both back ends, seeded by SQL
// with rows whose values come from real mainnet contracts and transactions (shared/vectors: the SCALE and
// 0:29DD… masters, the 0:4F8D… wallet, the Loton collection and its item #100, the USDT transfer c3cb5b8c, the burn
// 2300d2f7, the NFT transfer c711c8f4), served by the real API server over HTTP. Every parameter's effect, the
// ordering rules, the 422s with toncenter's messages, the row shapes key by key, the address_book and metadata
// switches, and every 200 validated against the public v3 OpenAPI document and against our own.
import type { AddressInfo } from 'node:net';
import { Address, beginCell, Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import {
  jettonBurnsQuery,
  jettonMastersQuery,
  jettonTransfersQuery,
  jettonWalletsQuery,
} from '../../src/api/v3/routes/jettons.ts';
import { nftCollectionsQuery, nftItemsQuery, nftTransfersQuery } from '../../src/api/v3/routes/nfts.ts';
import type { SqlQuery } from '../../src/api/v3/sql-query.ts';
import { type Database, migrate } from '../../src/db/index.ts';
import type { JsonBody } from '../helpers/api-fixture.ts';
import { insertRows, KINDS, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const raw = (hex: string, wc = 0) => `${wc}:${hex.toUpperCase()}`;
const friendly = (a: string, bounceable: boolean) =>
  Address.parseRaw(a).toString({ bounceable, urlSafe: true, testOnly: false });

// --- addresses and hashes of real mainnet accounts (shared/vectors) ------------------------------------------

const SCALE = raw('65aac9b5e380eae928db3c8e238d9bc0d61a9320fdc2bc7a2f6c87d6fedf9208');
const SCALE_ADMIN = raw('c886c84aa43b43b7eb936b09e5188abe70d8a306007b8f2629adcce800e5d358');
const MASTER_A = raw('29dd8c6a684d5687251e1dad3eecf1a38f15d974fcb8eddf3009d44f387c01f8');
const MASTER_A_ADMIN = raw('779dcc815138d9500e449c5291e7f12738c23d575b5310000f6a253bd607384e');
const MASTER_B = raw('c2204a341d4518b0057e95332f88e77e1a44977d53ec3593068d168d380ffafb');
const MINTLESS = raw('bdf3fa8098d129b54b4f73b5bac5d1e1fd91eb054169c3916dfc8ccd536d1000');
const USDT = raw('b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe');

const W1 = raw('4f8d1285579f1357aea0100d3ebb673100f8d4d80a0d48cf981617a87c308f20');
const W2 = raw('93503d3a286a25f9bde372166fb330b1b2490f00ab1fe0f5293b6cb61f811219');
const W3 = raw('9f4067fa2bd1d964e2348c46db46273893851e8b9eaa9d42826a9a63cecd0ffe');
const W4 = raw('922d627d7d8edbd00e4e23bdb0c54a76ee5e1f46573a1af4417857fa3e23e91f');
const W5 = raw('fdbef9d09fa63da42edc1e71d3630d34caf12c2f43e86f9cc330257d89830d81');

const OWNER_1 = raw('c9f6f45d894a551e997e626e15337da1320e7d69d1b3bd062163891bd87b2270');
const OWNER_V5 = raw('bc91b30e0afe5cb6db47b1f2127c83b63f75207102fc3499a6a7b8182c85115e');
const OWNER_HL = raw('8fbf702aad9874cd09b4f7af598f2b14e11805e4b5322c01275fceff60d1ee4d');
const USDT_DEST = raw('92e1411ae546892f33b2c8a89ea90390d8ff4cfbb917a643b91e73f706fdb9d1');

const LOTON = raw('4ccba08d80193c3eb4f92cd8cf10bc425ff2d705a552aad6f3453a141e51b7b7');
const LOTON_OWNER = raw('ff14790b3eba200f0e6e78090314033d8430a1c2603a7ab39f4f4b60bd31f039');
const COLL_B = raw('4ad02e7966e67cb29c78089904dfaecb2442a6937592f11ae4be5fb15e998484');
const COLL_B_OWNER = raw('e9524c806ba959d763f7641d8f2ffae65b0235239e41538931c3faecb052f976');
const COLL_C = raw('8da15e3fcf8029846664d5bf50d94b92250b3a520eef97e3beb550e669e6bc1e');
const DNS_ROOT = raw('b774d95eb20543f186c06b371ab88ad704f7e256130caf96189368a7d0cb6ccf');

const ITEM_100 = raw('102a663d193b046fa95112ffafc634f9b151c9ca58b8d3118460fded299483b9');
const ITEM_OWNER = raw('88a1693e667b696102116dc68c134ae2dbdc963c4b5b2fe6b2ef8009cbb28595');
const ITEM_2918 = raw('01865643806a9fa5c1847687ea747e47437dfc5e5f442354f98d8ce796a15885');
const ITEM_2918_OWNER = raw('3e6387c06cb8d08aac4401da33b1f8898564b57cb7f3d1317031222fea850ab9');
const ITEM_2 = raw('e49288fbb726e64ca0805fae457c3e9c8be9b525afc37392b407e7aa300a80b3');
const ITEM_DNS = raw('de9dda22ade30314cb9f394ce4a8da4521acbcdc69e3576b6018c6c0eb8c00de');
const ITEM_SOLO = raw('dd45a49442e06ef86c8e8dc2dbb0e698998cd5174644cb8586b043363e47b7d3');
const ITEM_ON_SALE = raw('f25ebc77ea951fb236e02bcb07bcdcecab121e7aa166c327278e423c021569df');
const SALE_CONTRACT = raw('a2379ac876f1212733ce44be7e276c1c723d39005ec3a35e923656ac30c2234b');
const NFT_OLD_OWNER = raw('be5a6ed4a900b47d2d2d55f0ab81dfcda1304c7c7d85ab7ab2c235d47f26dba4');
const NFT_NEW_OWNER = raw('a3738f3771a5ccc16c3693097669f16ab803ced0b5f557265b9d952cdeda0c62');

const JETTON_WALLET_CODE = b64('c12275085ec7dd21925c33a919680186022c6f2a4ced45dbce3d3e14d438dc0f');
const hashOf = (n: number) => b64(n.toString(16).padStart(64, '0'));

// Payloads: the comment the vector jetton_transfer_text_forward.json carries in its forward payload, an empty
// forward payload, and a payload that is no comment.
const COMMENT = '1847398082';
const COMMENT_CELL = beginCell().storeUint(0, 32).storeStringTail(COMMENT).endCell();
const COMMENT_BOC = COMMENT_CELL.toBoc().toString('base64');
const EMPTY_BOC = new Cell().toBoc().toString('base64');
const OTHER_BOC = beginCell().storeUint(0x178d4519, 32).storeUint(7, 64).endCell().toBoc().toString('base64');
const COMMENT_JSON = { '@type': 'text_comment', comment: COMMENT, type: 'text_comment' };

// --- the seed ------------------------------------------------------------------------------------------------

type Seed = Record<string, unknown>;

const MASTERS: Seed[] = [
  {
    address: SCALE,
    total_supply: '16686615203894199',
    mintable: false,
    admin_address: SCALE_ADMIN,
    jetton_content: { uri: 'ipfs://QmeebZm4sCmXGdM9iiD8TtYDyQwyFa3Dm27hxonVQyFT4P' },
    jetton_wallet_code_hash: JETTON_WALLET_CODE,
    last_transaction_lt: 41000000000001n,
    code_hash: b64('c81828dcd4df2a3a7516762c154dd973b92a26408db3bc143c7adda0576a9d6c'),
    data_hash: b64('c5baaabdb7d27083852487e4b40ffaa48edcb75ae5842a600041bc9519a5451a'),
  },
  {
    address: MASTER_A,
    total_supply: '12471',
    mintable: true,
    admin_address: MASTER_A_ADMIN,
    jetton_content: { name: 'Test Jetton', symbol: 'TJ', decimals: '9' },
    jetton_wallet_code_hash: b64('0857cdd89c74844150cacd35cd020bef9167cbe12cd330dfb8c779c14d6b1552'),
    last_transaction_lt: 42000000000001n,
    code_hash: b64('82566ad72b6568fe7276437d3b0c911aab65ed701c13601941b2917305e81c11'),
    data_hash: b64('2d859d9ce51c2c0c3dba23b82c39825ca27f7cd0f714a4928968601846719a6b'),
  },
  {
    address: MASTER_B,
    total_supply: '1000000000000000000000000',
    mintable: false,
    admin_address: null,
    jetton_content: { uri: 'https://example.org/jetton.json' },
    jetton_wallet_code_hash: JETTON_WALLET_CODE,
    last_transaction_lt: 43000000000001n,
    code_hash: hashOf(0xb1),
    data_hash: hashOf(0xb2),
  },
  {
    address: MINTLESS,
    total_supply: '5000000000000',
    mintable: true,
    admin_address: SCALE_ADMIN,
    jetton_content: { uri: 'https://example.org/mintless.json' },
    jetton_wallet_code_hash: JETTON_WALLET_CODE,
    last_transaction_lt: 76734069000007n,
    code_hash: hashOf(0xc1),
    data_hash: hashOf(0xc2),
  },
];

const MINTLESS_URI = ['https://airdrop.example.org/api/v1'];

const WALLETS: Seed[] = [
  {
    address: W1,
    balance: '135633775455000000000',
    owner: OWNER_1,
    jetton: MASTER_B,
    mintless_is_claimed: true,
    mintless_amount: '500',
  },
  {
    address: W2,
    balance: '0',
    owner: OWNER_V5,
    jetton: MINTLESS,
    mintless_is_claimed: false,
    mintless_amount: '5000000000',
    mintless_start_from: 1730000000n,
    mintless_expire_at: 1760000000n,
  },
  { address: W3, balance: '1000000', owner: OWNER_HL, jetton: USDT },
  { address: W4, balance: '0', owner: OWNER_1, jetton: USDT },
  { address: W5, balance: '777', owner: OWNER_V5, jetton: MASTER_A },
].map((w, i) => ({
  last_transaction_lt: 76734069000000n + BigInt(i),
  code_hash: JETTON_WALLET_CODE,
  data_hash: hashOf(0x100 + i),
  ...w,
}));

const USDT_TX = {
  tx_hash: 'w8tbjESSA1W7X1taWouJSX1cjnNOQpBj91UiyaELaAw=',
  tx_lt: 76734069000003n,
  tx_now: 1778681725n,
};

/** jetton_transfers rows; the first is mainnet transaction c3cb5b8c (USDT), as its inbound message body reads. */
const TRANSFERS: Seed[] = [
  {
    ...USDT_TX,
    tx_aborted: false,
    query_id: '8148993771112338',
    amount: '2613151566',
    source: OWNER_HL,
    destination: USDT_DEST,
    jetton_wallet_address: W3,
    jetton_master_address: USDT,
    response_destination: OWNER_HL,
    custom_payload: null,
    forward_ton_amount: '240000000',
    forward_payload: OTHER_BOC,
  },
  {
    // Same lt as the USDT transfer (another account): the hash orders them.
    tx_hash: hashOf(0xfff1),
    tx_lt: 76734069000003n,
    tx_now: 1778681725n,
    tx_aborted: false,
    query_id: '6083770388301355627',
    amount: '884501240679',
    source: OWNER_1,
    destination: OWNER_V5,
    jetton_wallet_address: W1,
    jetton_master_address: MASTER_B,
    response_destination: OWNER_1,
    custom_payload: OTHER_BOC,
    forward_ton_amount: '1',
    forward_payload: COMMENT_BOC,
  },
  {
    tx_hash: hashOf(0xfff2),
    tx_lt: 76734069000009n,
    tx_now: 1778681726n,
    tx_aborted: true,
    query_id: '1',
    amount: '5',
    source: OWNER_1,
    destination: OWNER_HL,
    jetton_wallet_address: W1,
    jetton_master_address: MASTER_B,
    response_destination: null,
    custom_payload: null,
    forward_ton_amount: '0',
    forward_payload: EMPTY_BOC,
  },
  {
    // Earlier lt but later time than the others (another shard): the utime order differs from the lt order.
    tx_hash: hashOf(0xfff3),
    tx_lt: 76734068000001n,
    tx_now: 1778681800n,
    tx_aborted: false,
    query_id: '42',
    amount: '777',
    source: OWNER_V5,
    destination: OWNER_1,
    jetton_wallet_address: W5,
    jetton_master_address: MASTER_A,
    response_destination: null,
    custom_payload: null,
    forward_ton_amount: '0',
    forward_payload: EMPTY_BOC,
  },
].map((t) => ({ mc_seqno: 66519406, trace_id: null, ...t }));

/** jetton_burns rows; the first is mainnet transaction 2300d2f7, as its inbound burn#595f07bc reads. */
const BURNS: Seed[] = [
  {
    tx_hash: 'IwDS90lUN+23Cur2sxaUvAPC53licVYIdt8SfLhe6vw=',
    tx_lt: 76734069000003n,
    tx_now: 1778681725n,
    tx_aborted: false,
    query_id: '0',
    owner: OWNER_V5,
    jetton_wallet_address: W2,
    jetton_master_address: MINTLESS,
    amount: '25797083659',
    response_destination: OWNER_V5,
    custom_payload: null,
  },
  {
    tx_hash: hashOf(0xeee1),
    tx_lt: 76734069000020n,
    tx_now: 1778681740n,
    tx_aborted: true,
    query_id: '3',
    owner: OWNER_1,
    jetton_wallet_address: W1,
    jetton_master_address: MASTER_B,
    amount: '100',
    response_destination: null,
    custom_payload: COMMENT_BOC,
  },
  {
    tx_hash: hashOf(0xeee2),
    tx_lt: 76734060000001n,
    tx_now: 1778681700n,
    tx_aborted: false,
    query_id: '4',
    owner: OWNER_1,
    jetton_wallet_address: W1,
    jetton_master_address: MASTER_B,
    amount: '1690560677084975589062',
    response_destination: OWNER_1,
    custom_payload: OTHER_BOC,
  },
].map((t) => ({ mc_seqno: 66519406, trace_id: null, ...t }));

const COLLECTIONS: Seed[] = [
  {
    address: LOTON,
    next_item_index: '832',
    owner_address: LOTON_OWNER,
    collection_content: { uri: 'https://loton.fun/collection.json' },
    last_transaction_lt: 50000000000001n,
    code_hash: b64('64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca'),
    data_hash: b64('8f198fff4493c232169b33f980d7e94193ab4df949b2bca1e4acdd51c360ba0c'),
  },
  {
    address: COLL_B,
    next_item_index: '0',
    owner_address: COLL_B_OWNER,
    collection_content: { name: 'Collection B', description: 'on-chain content' },
    last_transaction_lt: 50000000000002n,
    code_hash: b64('8e5aab17e2e503bec75c2f453b9dacf11a98bbb2cc202994710952a7271c7780'),
    data_hash: b64('362459a62ce26a00055947403c4e871c58603e4a714d2a25a9af518223ff99f1'),
  },
  {
    address: COLL_C,
    next_item_index: '3000',
    owner_address: null,
    collection_content: { uri: 'https://example.org/c.json' },
    last_transaction_lt: 50000000000003n,
    code_hash: hashOf(0xcc1),
    data_hash: hashOf(0xcc2),
  },
];

const DNS_INDEX = '90744443496542305599937018787823815442453451476880404213779542101548095643790';

const ITEMS: Seed[] = [
  {
    address: ITEM_100,
    index: '100',
    collection_address: LOTON,
    owner_address: ITEM_OWNER,
    content: { uri: 'https://loton.fun/nft/100.json' },
    last_transaction_lt: 60000000000100n,
    code_hash: b64('4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42'),
    data_hash: b64('18d016af77ca504e6e060d26d2028d437a0d47c311e88b4b944d62033359408b'),
    real_owner: ITEM_OWNER,
  },
  {
    address: ITEM_2918,
    index: '2918',
    collection_address: COLL_C,
    owner_address: ITEM_2918_OWNER,
    content: { uri: 'https://example.org/c/2918.json' },
    last_transaction_lt: 60000000000300n,
    code_hash: b64('93bbea1de1f83e82e672bb9de8399a22e76417bae5e7fc718b3bd9e12865290d'),
    data_hash: b64('78cca64c532fd98e3d253f228b447aced68e8c4447a5e1c7d18cb63c5cd41799'),
    real_owner: ITEM_2918_OWNER,
  },
  {
    address: ITEM_2,
    index: '2',
    collection_address: LOTON,
    owner_address: ITEM_OWNER,
    content: { uri: 'https://loton.fun/nft/2.json' },
    last_transaction_lt: 60000000000200n,
    real_owner: null,
  },
  {
    // A .ton item: its collection (the DNS root) has no row here, so `collection` is null.
    address: ITEM_DNS,
    index: DNS_INDEX,
    collection_address: DNS_ROOT,
    owner_address: OWNER_V5,
    content: { domain: 'example.ton' },
    last_transaction_lt: 60000000000050n,
    real_owner: OWNER_V5,
  },
  {
    address: ITEM_SOLO,
    index: '0',
    collection_address: null,
    owner_address: NFT_NEW_OWNER,
    content: { uri: 'https://example.org/solo.json' },
    last_transaction_lt: 60000000000010n,
    real_owner: NFT_NEW_OWNER,
  },
  {
    // Held by a GetGems sale contract for its seller.
    address: ITEM_ON_SALE,
    index: '5',
    collection_address: LOTON,
    owner_address: SALE_CONTRACT,
    content: { uri: 'https://loton.fun/nft/5.json' },
    last_transaction_lt: 60000000000400n,
    real_owner: ITEM_OWNER,
  },
].map((it, i) => ({ init: true, code_hash: hashOf(0x200 + i), data_hash: hashOf(0x300 + i), ...it }));

/** The GetGems sale holding ITEM_ON_SALE for ITEM_OWNER (the on-sale fields of /nft/items are joined from it). */
const SALES: Seed[] = [
  {
    address: SALE_CONTRACT,
    nft_address: ITEM_ON_SALE,
    nft_owner_address: ITEM_OWNER,
    is_complete: false,
    full_price: '5000000000',
    last_transaction_lt: 60000000000401n,
    code_hash: hashOf(0x501),
    data_hash: hashOf(0x502),
  },
];

/** nft_transfers rows; the first is mainnet transaction c711c8f4, as its inbound transfer#5fcc3d14 reads. */
const NFT_TRANSFERS: Seed[] = [
  {
    tx_hash: 'xxHI9CvTrvrhz0y2QUrNcbrDB4IlCBJbOFr8zOqDi+o=',
    tx_lt: 37124585000003n,
    tx_now: 1682417974n,
    tx_aborted: false,
    query_id: '0',
    nft_item_address: ITEM_2,
    nft_item_index: '2',
    nft_collection_address: LOTON,
    old_owner: NFT_OLD_OWNER,
    new_owner: NFT_NEW_OWNER,
    response_destination: NFT_OLD_OWNER,
    custom_payload: null,
    forward_amount: '1000000000',
    forward_payload: OTHER_BOC,
  },
  {
    tx_hash: hashOf(0xddd1),
    tx_lt: 37124590000001n,
    tx_now: 1682418000n,
    tx_aborted: false,
    query_id: '9',
    nft_item_address: ITEM_2,
    nft_item_index: '2',
    nft_collection_address: LOTON,
    old_owner: NFT_NEW_OWNER,
    new_owner: ITEM_OWNER,
    response_destination: null,
    custom_payload: null,
    forward_amount: '1',
    forward_payload: COMMENT_BOC,
  },
  {
    tx_hash: hashOf(0xddd2),
    tx_lt: 37124595000001n,
    tx_now: 1682417990n,
    tx_aborted: true,
    query_id: '10',
    nft_item_address: ITEM_2918,
    nft_item_index: '2918',
    nft_collection_address: COLL_C,
    old_owner: ITEM_2918_OWNER,
    new_owner: ITEM_OWNER,
    response_destination: ITEM_2918_OWNER,
    custom_payload: OTHER_BOC,
    forward_amount: '0',
    forward_payload: EMPTY_BOC,
  },
].map((t) => ({ mc_seqno: 40000000, trace_id: null, ...t }));

async function seed(db: Database): Promise<void> {
  await insertRows(db, 'jetton_masters', MASTERS);
  await insertRows(db, 'mintless_jetton_masters', [
    { address: MINTLESS, is_indexed: true, custom_payload_api_uri: MINTLESS_URI },
  ]);
  await insertRows(db, 'jetton_wallets', WALLETS);
  await insertRows(db, 'jetton_transfers', TRANSFERS);
  await insertRows(db, 'jetton_burns', BURNS);
  await insertRows(db, 'nft_collections', COLLECTIONS);
  await insertRows(db, 'nft_items', ITEMS);
  await insertRows(db, 'getgems_nft_sales', SALES);
  await insertRows(db, 'nft_transfers', NFT_TRANSFERS);
  // One account state with code, so its address_book entry is bounceable (the others are unknown: non-bounceable).
  await insertRows(db, 'latest_account_states', [
    {
      account: MASTER_A,
      hash: hashOf(0x9001),
      balance: 1000000000n,
      account_status: 'active',
      timestamp: 1778681725n,
      last_trans_hash: hashOf(0x9002),
      last_trans_lt: 42000000000001n,
      code_hash: MASTERS[1]!.code_hash,
      data_hash: MASTERS[1]!.data_hash,
    },
  ]);
}

// --- expected rows, written from toncenter's models (key order included) ---------------------------------------

const s = (v: unknown) => (v === null || v === undefined ? null : String(v));

function masterJson(m: Seed) {
  return {
    address: m.address,
    total_supply: m.total_supply,
    mintable: m.mintable,
    admin_address: m.admin_address,
    jetton_content: m.jetton_content,
    jetton_wallet_code_hash: m.jetton_wallet_code_hash,
    code_hash: m.code_hash,
    data_hash: m.data_hash,
    last_transaction_lt: s(m.last_transaction_lt),
  };
}

function walletJson(w: Seed) {
  const out: Record<string, unknown> = {
    address: w.address,
    balance: w.balance,
    owner: w.owner,
    jetton: w.jetton,
    last_transaction_lt: s(w.last_transaction_lt),
    code_hash: w.code_hash,
    data_hash: w.data_hash,
  };
  if (w.mintless_is_claimed === false && w.mintless_amount) {
    out.mintless_info = {
      amount: w.mintless_amount,
      start_from: Number(w.mintless_start_from),
      expire_at: Number(w.mintless_expire_at),
      custom_payload_api_uri: w.jetton === MINTLESS ? MINTLESS_URI : null,
    };
  }
  return out;
}

function decoded(boc: unknown) {
  if (boc === COMMENT_BOC) return COMMENT_JSON;
  if (boc === EMPTY_BOC) return { '@type': 'empty_cell' };
  return null;
}

function transferJson(t: Seed) {
  return {
    query_id: t.query_id,
    source: t.source,
    destination: t.destination,
    amount: t.amount,
    source_wallet: t.jetton_wallet_address,
    jetton_master: t.jetton_master_address,
    transaction_hash: t.tx_hash,
    transaction_lt: s(t.tx_lt),
    transaction_now: Number(t.tx_now),
    transaction_aborted: t.tx_aborted,
    response_destination: t.response_destination,
    custom_payload: t.custom_payload,
    decoded_custom_payload: decoded(t.custom_payload),
    forward_ton_amount: t.forward_ton_amount,
    forward_payload: t.forward_payload,
    decoded_forward_payload: decoded(t.forward_payload),
    trace_id: null,
  };
}

function burnJson(b: Seed) {
  return {
    query_id: b.query_id,
    owner: b.owner,
    jetton_wallet: b.jetton_wallet_address,
    jetton_master: b.jetton_master_address,
    transaction_hash: b.tx_hash,
    transaction_lt: s(b.tx_lt),
    transaction_now: Number(b.tx_now),
    transaction_aborted: b.tx_aborted,
    amount: b.amount,
    response_destination: b.response_destination,
    custom_payload: b.custom_payload,
    decoded_custom_payload: decoded(b.custom_payload),
    trace_id: null,
  };
}

function collectionJson(c: Seed) {
  return {
    address: c.address,
    owner_address: c.owner_address,
    last_transaction_lt: s(c.last_transaction_lt),
    next_item_index: c.next_item_index,
    collection_content: c.collection_content,
    data_hash: c.data_hash,
    code_hash: c.code_hash,
  };
}

function itemJson(it: Seed) {
  const coll = COLLECTIONS.find((c) => c.address === it.collection_address);
  // toncenter's join: a sale contract owning the item whose nft_address is the item.
  const sale = SALES.find((x) => x.address === it.owner_address && x.nft_address === it.address);
  return {
    address: it.address,
    init: it.init,
    index: it.index,
    collection_address: it.collection_address,
    owner_address: it.owner_address,
    content: it.content,
    last_transaction_lt: s(it.last_transaction_lt),
    code_hash: it.code_hash,
    data_hash: it.data_hash,
    collection: coll ? collectionJson(coll) : null,
    on_sale: sale !== undefined,
    ...(sale ? { sale_contract_address: sale.address, real_owner: sale.nft_owner_address } : {}),
  };
}

function nftTransferJson(t: Seed) {
  return {
    query_id: t.query_id,
    nft_address: t.nft_item_address,
    nft_collection: t.nft_collection_address,
    transaction_hash: t.tx_hash,
    transaction_lt: s(t.tx_lt),
    transaction_now: Number(t.tx_now),
    transaction_aborted: t.tx_aborted,
    old_owner: t.old_owner,
    new_owner: t.new_owner,
    response_destination: t.response_destination,
    custom_payload: t.custom_payload,
    decoded_custom_payload: decoded(t.custom_payload),
    forward_amount: t.forward_amount,
    forward_payload: t.forward_payload,
    decoded_forward_payload: decoded(t.forward_payload),
    trace_id: null,
  };
}

const byHash = (rows: Seed[], ...hashes: string[]) => hashes.map((h) => rows.find((r) => r.tx_hash === h) as Seed);
const enc = encodeURIComponent;

// --- the tests -------------------------------------------------------------------------------------------------

describe.each(KINDS)('v3 jetton and NFT endpoints on %s', (kind) => {
  let t: TestDatabase;
  let server: ApiServer;
  let base: string;
  let ownDoc: JsonBody;

  beforeAll(async () => {
    t = await setupDatabase(kind);
    await migrate(t.db);
    await seed(t.db);
    server = await buildApiServer({ db: t.db });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    ownDoc = (await (await fetch(`${base}/api/v3/openapi.json`)).json()) as JsonBody;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  /** GET over HTTP; every 200 must match the public document and ours. */
  async function get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: JsonBody }> {
    const r = await fetch(`${base}/api/v3${path}`, { headers });
    const body = (await r.json()) as JsonBody;
    if (r.status === 200) {
      const route = `/api/v3${path.split('?')[0]}`;
      expect(validateV3('get', route, 200, body), `public spec: ${path}`).toEqual([]);
      expect(validateAgainstDocument(ownDoc, 'get', route, 200, body), `our openapi.json: ${path}`).toEqual([]);
    }
    return { status: r.status, body };
  }
  async function ok(path: string, headers?: Record<string, string>): Promise<JsonBody> {
    const r = await get(path, headers);
    expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    return r.body;
  }
  async function fails(path: string, error: string | RegExp): Promise<void> {
    const r = await get(path);
    expect(r.status, path).toBe(422);
    if (typeof error === 'string') expect(r.body).toEqual({ error });
    else expect(r.body.error).toMatch(error);
  }
  const list = async (path: string, key: string) => (await ok(path))[key] as JsonBody[];
  const addresses = async (path: string, key: string, field = 'address') =>
    (await list(path, key)).map((x) => x[field]);

  describe('/jetton/masters', () => {
    it('lists every master in the order the index saw them, each exactly as toncenter shapes it', async () => {
      const body = await ok('/jetton/masters');
      expect(body.jetton_masters).toEqual(MASTERS.map(masterJson));
      expect(Object.keys(body.jetton_masters[0])).toEqual(Object.keys(masterJson(MASTERS[0]!)));
      // The address book holds the masters and their admins: bounceable for an account with code, not otherwise.
      const wanted = new Set(MASTERS.flatMap((m) => [m.address, m.admin_address]).filter(Boolean));
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
      expect(body.address_book[MASTER_A].user_friendly).toBe(friendly(MASTER_A, true));
      expect(body.address_book[SCALE_ADMIN].user_friendly).toBe(friendly(SCALE_ADMIN, false));
      for (const k of Object.keys(body.metadata)) expect(wanted.has(k), k).toBe(true);
    });

    it('filters by address (any form) and admin_address, pages with limit/offset, ignores sort', async () => {
      const uf = Address.parseRaw(MASTER_A).toString();
      expect(await addresses(`/jetton/masters?address=${enc(uf)}`, 'jetton_masters')).toEqual([MASTER_A]);
      expect(await addresses(`/jetton/masters?address=${MASTER_B},${SCALE}`, 'jetton_masters')).toEqual([
        SCALE,
        MASTER_B,
      ]);
      expect(await addresses(`/jetton/masters?admin_address=${SCALE_ADMIN}`, 'jetton_masters')).toEqual([
        SCALE,
        MINTLESS,
      ]);
      expect(
        await addresses(`/jetton/masters?admin_address=${SCALE_ADMIN}&address=${MINTLESS}`, 'jetton_masters'),
      ).toEqual([MINTLESS]);
      expect(await addresses('/jetton/masters?limit=2&offset=1&sort=bogus', 'jetton_masters')).toEqual([
        MASTER_A,
        MASTER_B,
      ]);
      const none = await ok(`/jetton/masters?address=${W1}`);
      expect(none).toEqual({ jetton_masters: [], address_book: {}, metadata: {} });
    });

    it('answers X-No-Address-Book and x_no_metadata with empty sections', async () => {
      expect((await ok('/jetton/masters', { 'X-No-Address-Book': 'true' })).address_book).toEqual({});
      expect((await ok('/jetton/masters?x_no_metadata=1')).metadata).toEqual({});
    });

    it('refuses bad input with 422', async () => {
      await fails('/jetton/masters?address=nope', "invalid address in address: 'nope'");
      await fails('/jetton/masters?admin_address=0:XYZ', /admin_address/);
      await fails('/jetton/masters?limit=1001', 'limit is not allowed: 1001 > 1000');
      await fails('/jetton/masters?limit=0', 'limit is not allowed: 0 < 1');
      await fails('/jetton/masters?offset=-1', /offset/);
      // 1025 addresses do not fit Node's 16 KiB request line, so this one goes through inject (a proxy in front
      // may allow longer URLs).
      const many = Array.from({ length: 1025 }, (_, i) => `0:${i.toString(16).padStart(64, '0')}`);
      const r = await server.app.inject({ method: 'GET', url: `/api/v3/jetton/masters?address=${many.join(',')}` });
      expect(r.statusCode).toBe(422);
      expect(r.json()).toEqual({ error: 'too many values in address: 1025 > 1024' });
    });
  });

  describe('/jetton/wallets', () => {
    it('lists wallets by id, each as toncenter shapes it, with mintless_info only for an unclaimed airdrop', async () => {
      const body = await ok('/jetton/wallets');
      expect(body.jetton_wallets).toEqual(WALLETS.map(walletJson));
      const w2 = body.jetton_wallets.find((w: JsonBody) => w.address === W2);
      expect(Object.keys(w2)).toEqual([...Object.keys(walletJson(WALLETS[0]!)), 'mintless_info']);
      expect(w2.mintless_info).toEqual({
        amount: '5000000000',
        start_from: 1730000000,
        expire_at: 1760000000,
        custom_payload_api_uri: MINTLESS_URI,
      });
      // W1 claimed its airdrop, W4 has none: no mintless_info.
      for (const a of [W1, W4]) {
        expect(body.jetton_wallets.find((w: JsonBody) => w.address === a)).not.toHaveProperty('mintless_info');
      }
      const wanted = new Set(WALLETS.flatMap((w) => [w.address, w.owner, w.jetton]));
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
    });

    it('orders by balance with sort (numerically; ties by id), and by toncenter rules with filters', async () => {
      const key = 'jetton_wallets';
      expect(await addresses('/jetton/wallets?sort=desc', key)).toEqual([W1, W3, W5, W2, W4]);
      expect(await addresses('/jetton/wallets?sort=a', key)).toEqual([W2, W4, W5, W3, W1]);
      expect(await addresses(`/jetton/wallets?address=${W5}&address=${W1}&address=${W3}`, key)).toEqual(
        [W1, W3, W5].sort(),
      );
      expect(await addresses(`/jetton/wallets?owner_address=${OWNER_V5}`, key)).toEqual([W2, W5]);
      expect(await addresses(`/jetton/wallets?owner_address=${OWNER_V5}&sort=desc`, key)).toEqual([W5, W2]);
      expect(await addresses(`/jetton/wallets?owner_address=${OWNER_V5},${OWNER_1}&sort=desc`, key)).toEqual(
        // owner asc (0:BC91… < 0:C9F6…), then balance desc within each owner.
        [W5, W2, W1, W4],
      );
      expect(await addresses(`/jetton/wallets?jetton_address=${USDT}`, key)).toEqual([W3, W4]);
      expect(await addresses(`/jetton/wallets?jetton_address=${USDT}&sort=asc`, key)).toEqual([W4, W3]);
      expect(
        await addresses(
          `/jetton/wallets?jetton_address=${USDT}&jetton_address=${MASTER_B}&owner_address=${OWNER_1}`,
          key,
        ),
      ).toEqual([W1, W4]);
      expect(await addresses('/jetton/wallets?limit=2&offset=2', key)).toEqual([W3, W4]);
    });

    it('exclude_zero_balance counts an unclaimed airdrop as balance', async () => {
      const got = await addresses('/jetton/wallets?exclude_zero_balance=true', 'jetton_wallets');
      expect(got).toEqual([W1, W2, W3, W5]);
      expect(await addresses('/jetton/wallets?exclude_zero_balance=false', 'jetton_wallets')).toHaveLength(5);
    });

    it('refuses bad input with 422', async () => {
      await fails(
        `/jetton/wallets?jetton_address=${USDT}&jetton_address=${MASTER_B}`,
        'exact one owner_address required for multiple jetton_address',
      );
      await fails(
        `/jetton/wallets?jetton_address=${USDT},${MASTER_B}&owner_address=${OWNER_1},${OWNER_V5}`,
        'exact one owner_address required for multiple jetton_address',
      );
      await fails('/jetton/wallets?sort=up', 'wrong value for sort parameter');
      await fails('/jetton/wallets?exclude_zero_balance=maybe', /exclude_zero_balance/);
      await fails('/jetton/wallets?owner_address=EQbad', /owner_address/);
    });
  });

  describe('/jetton/transfers', () => {
    const [usdt, same, aborted, early] = TRANSFERS.map((x) => x.tx_hash as string) as [string, string, string, string];
    const hashes = async (path: string) => addresses(path, 'jetton_transfers', 'transaction_hash');

    it('lists accepted transfers newest first, aborted ones left out, each as toncenter shapes it', async () => {
      const body = await ok('/jetton/transfers');
      // lt desc; the two at one lt by hash desc.
      const order = [same, usdt].sort().reverse();
      expect(body.jetton_transfers).toEqual(byHash(TRANSFERS, ...order, early).map(transferJson));
      expect(Object.keys(body.jetton_transfers[0])).toEqual(Object.keys(transferJson(TRANSFERS[0]!)));
      const t = body.jetton_transfers.find((x: JsonBody) => x.transaction_hash === same);
      expect(t.decoded_forward_payload).toEqual(COMMENT_JSON);
      expect(t.decoded_custom_payload).toBeNull();
      expect(t.trace_id).toBeNull();
      expect(await hashes(`/jetton/transfers?jetton_wallet=${W1}&limit=1000`)).not.toContain(aborted);
      const wanted = new Set(
        TRANSFERS.filter((x) => !x.tx_aborted).flatMap((x) => [
          x.source,
          x.destination,
          x.jetton_wallet_address,
          x.jetton_master_address,
          x.response_destination,
        ]),
      );
      wanted.delete(null);
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
      expect(await hashes('/jetton/transfers?sort=asc')).toEqual([early, ...[same, usdt].sort()]);
    });

    it('filters by owner with direction (address is an alias), wallet, master, lt and utime windows', async () => {
      expect(await hashes(`/jetton/transfers?owner_address=${OWNER_1}&sort=asc`)).toEqual([early, same]);
      expect(await hashes(`/jetton/transfers?owner_address=${OWNER_1}&direction=out`)).toEqual([same]);
      expect(await hashes(`/jetton/transfers?owner_address=${OWNER_1}&direction=in`)).toEqual([early]);
      expect(await hashes(`/jetton/transfers?owner_address=${OWNER_1}&direction=both&sort=asc`)).toEqual([early, same]);
      expect(await hashes(`/jetton/transfers?address=${OWNER_HL}`)).toEqual([usdt]);
      // direction alone filters nothing (it applies to owner_address only).
      expect(await hashes('/jetton/transfers?direction=in')).toHaveLength(3);
      expect(await hashes(`/jetton/transfers?jetton_wallet=${W1}`)).toEqual([same]);
      expect(await hashes(`/jetton/transfers?jetton_master=${USDT}`)).toEqual([usdt]);
      expect(await hashes(`/jetton/transfers?end_lt=${76734068000001n}`)).toEqual([early]);
      expect(await hashes(`/jetton/transfers?start_lt=${76734068000002n}&sort=asc`)).toEqual([same, usdt].sort());
      // A utime bound orders by time: the early-lt, late-time transfer comes first when descending.
      expect(await hashes('/jetton/transfers?start_utime=1778681725')).toEqual([
        early,
        ...[same, usdt].sort().reverse(),
      ]);
      expect(await hashes('/jetton/transfers?end_utime=1778681799')).toHaveLength(2);
      expect(await hashes('/jetton/transfers?limit=1&offset=1&sort=asc')).toEqual([[same, usdt].sort()[0]]);
    });

    it('refuses bad input with 422', async () => {
      await fails('/jetton/transfers?direction=sideways', 'direction should be one of: in, out, both');
      await fails('/jetton/transfers?jetton_master=0:12', /jetton_master/);
      await fails('/jetton/transfers?start_utime=10&end_utime=5', 'start_utime 10 is greater than end_utime 5');
      await fails('/jetton/transfers?start_lt=-1', /start_lt/);
      await fails('/jetton/transfers?sort=sideways', 'wrong value for sort parameter');
    });
  });

  describe('/jetton/burns', () => {
    const [real, abortedBurn, old] = BURNS.map((x) => x.tx_hash as string) as [string, string, string];
    const hashes = async (path: string) => addresses(path, 'jetton_burns', 'transaction_hash');

    it('lists every burn newest first, aborted ones included, each as toncenter shapes it', async () => {
      const body = await ok('/jetton/burns');
      expect(body.jetton_burns).toEqual(byHash(BURNS, abortedBurn, real, old).map(burnJson));
      expect(Object.keys(body.jetton_burns[0])).toEqual(Object.keys(burnJson(BURNS[0]!)));
      expect(body.jetton_burns[0].decoded_custom_payload).toEqual(COMMENT_JSON);
      const wanted = new Set(
        BURNS.flatMap((b) => [b.owner, b.jetton_wallet_address, b.jetton_master_address, b.response_destination]),
      );
      wanted.delete(null);
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
    });

    it('filters by owner (address or owner_address), wallet, master and windows; sorts both ways', async () => {
      expect(await hashes(`/jetton/burns?address=${OWNER_1}`)).toEqual([abortedBurn, old]);
      expect(await hashes(`/jetton/burns?owner_address=${OWNER_V5}`)).toEqual([real]);
      expect(await hashes(`/jetton/burns?jetton_wallet=${W1}&sort=asc`)).toEqual([old, abortedBurn]);
      expect(await hashes(`/jetton/burns?jetton_master=${MINTLESS}`)).toEqual([real]);
      expect(await hashes('/jetton/burns?start_utime=1778681725&end_utime=1778681739')).toEqual([real]);
      expect(await hashes(`/jetton/burns?start_lt=${76734069000003n}&end_lt=${76734069000003n}`)).toEqual([real]);
      expect(await hashes('/jetton/burns?sort=asc&limit=2')).toEqual([old, real]);
    });

    it('refuses bad input with 422', async () => {
      await fails('/jetton/burns?jetton_wallet=zzz', /jetton_wallet/);
      await fails('/jetton/burns?end_lt=abc', /end_lt/);
      await fails('/jetton/burns?limit=abc', /limit/);
    });
  });

  describe('/nft/collections', () => {
    it('lists collections by id, each as toncenter shapes it; filters by address and owner', async () => {
      const body = await ok('/nft/collections');
      expect(body.nft_collections).toEqual(COLLECTIONS.map(collectionJson));
      expect(Object.keys(body.nft_collections[0])).toEqual(Object.keys(collectionJson(COLLECTIONS[0]!)));
      const wanted = new Set(COLLECTIONS.flatMap((c) => [c.address, c.owner_address]));
      wanted.delete(null);
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
      const key = 'nft_collections';
      expect(await addresses(`/nft/collections?collection_address=${COLL_C},${LOTON}`, key)).toEqual([LOTON, COLL_C]);
      expect(await addresses(`/nft/collections?owner_address=${COLL_B_OWNER}`, key)).toEqual([COLL_B]);
      expect(await addresses('/nft/collections?limit=1&offset=2&sort=asc', key)).toEqual([COLL_C]);
      await fails('/nft/collections?owner_address=1:2', /owner_address/);
    });
  });

  describe('/nft/items', () => {
    const key = 'nft_items';

    it('lists items by id with their collection embedded, each as toncenter shapes it', async () => {
      const body = await ok('/nft/items');
      expect(body.nft_items).toEqual(ITEMS.map(itemJson));
      expect(Object.keys(body.nft_items[0])).toEqual(Object.keys(itemJson(ITEMS[0]!)));
      const dns = body.nft_items.find((x: JsonBody) => x.address === ITEM_DNS);
      expect(dns.collection).toBeNull();
      expect(dns.content).toEqual({ domain: 'example.ton' });
      expect(body.nft_items.find((x: JsonBody) => x.address === ITEM_SOLO)).toMatchObject({
        collection_address: null,
        collection: null,
        on_sale: false,
      });
      expect(body.nft_items.find((x: JsonBody) => x.address === ITEM_ON_SALE)).toMatchObject({
        owner_address: SALE_CONTRACT,
        on_sale: true,
        sale_contract_address: SALE_CONTRACT,
        real_owner: ITEM_OWNER,
      });
      const wanted = new Set(ITEMS.flatMap((i) => [i.address, i.collection_address, i.owner_address]));
      wanted.delete(null);
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
    });

    it('orders by owner, collection and index (numerically), by index in one collection, by last lt on request', async () => {
      expect(await addresses(`/nft/items?owner_address=${ITEM_OWNER}`, key)).toEqual([ITEM_2, ITEM_100]);
      expect(await addresses(`/nft/items?owner_address=${ITEM_OWNER}&include_on_sale=true`, key)).toEqual([
        ITEM_2,
        ITEM_100,
        ITEM_ON_SALE,
      ]);
      expect(await addresses(`/nft/items?owner_address=${SALE_CONTRACT}`, key)).toEqual([ITEM_ON_SALE]);
      expect(await addresses(`/nft/items?owner_address=${SALE_CONTRACT}&include_on_sale=1`, key)).toEqual([]);
      expect(await addresses(`/nft/items?collection_address=${LOTON}`, key)).toEqual([ITEM_2, ITEM_ON_SALE, ITEM_100]);
      expect(await addresses(`/nft/items?collection_address=${LOTON}&index=100&index=5`, key)).toEqual([
        ITEM_ON_SALE,
        ITEM_100,
      ]);
      expect(await addresses(`/nft/items?collection_address=${DNS_ROOT}&index=${DNS_INDEX}`, key)).toEqual([ITEM_DNS]);
      expect(
        await addresses(`/nft/items?collection_address=${LOTON},${COLL_C}&owner_address=${ITEM_OWNER}`, key),
      ).toEqual([ITEM_2, ITEM_100]);
      expect(await addresses(`/nft/items?address=${ITEM_SOLO},${ITEM_100}`, key)).toEqual([ITEM_100, ITEM_SOLO]);
      expect(await addresses(`/nft/items?collection_address=${LOTON}&sort_by_last_transaction_lt=true`, key)).toEqual([
        ITEM_ON_SALE,
        ITEM_2,
        ITEM_100,
      ]);
      expect(await addresses('/nft/items?limit=2&offset=1', key)).toEqual([ITEM_2918, ITEM_2]);
    });

    it('refuses bad input with 422', async () => {
      await fails(
        `/nft/items?collection_address=${LOTON},${COLL_C}`,
        'exact one owner_address required for multiple collection_address',
      );
      await fails('/nft/items?index=1', 'index parameter is not allowed without the collection_address');
      await fails(`/nft/items?collection_address=${LOTON}&index=-1`, 'index should contain digits only');
      await fails(`/nft/items?collection_address=${LOTON}&index=0x10`, 'index should contain digits only');
      await fails('/nft/items?include_on_sale=perhaps', /include_on_sale/);
      await fails('/nft/items?sort_by_last_transaction_lt=2', /sort_by_last_transaction_lt/);
    });
  });

  describe('/nft/transfers', () => {
    const [real, later, abortedT] = NFT_TRANSFERS.map((x) => x.tx_hash as string) as [string, string, string];
    const hashes = async (path: string) => addresses(path, 'nft_transfers', 'transaction_hash');

    it('lists every transfer newest first, aborted ones included, each as toncenter shapes it', async () => {
      const body = await ok('/nft/transfers');
      expect(body.nft_transfers).toEqual(byHash(NFT_TRANSFERS, abortedT, later, real).map(nftTransferJson));
      expect(Object.keys(body.nft_transfers[0])).toEqual(Object.keys(nftTransferJson(NFT_TRANSFERS[0]!)));
      expect(body.nft_transfers[1].decoded_forward_payload).toEqual(COMMENT_JSON);
      expect(body.nft_transfers[0].decoded_forward_payload).toEqual({ '@type': 'empty_cell' });
      const wanted = new Set(
        NFT_TRANSFERS.flatMap((x) => [
          x.nft_item_address,
          x.nft_collection_address,
          x.old_owner,
          x.new_owner,
          x.response_destination,
        ]),
      );
      wanted.delete(null);
      expect(new Set(Object.keys(body.address_book))).toEqual(wanted);
    });

    it('filters by owner with direction (address is an alias), item, collection and windows', async () => {
      expect(await hashes(`/nft/transfers?owner_address=${NFT_NEW_OWNER}&sort=asc`)).toEqual([real, later]);
      expect(await hashes(`/nft/transfers?owner_address=${NFT_NEW_OWNER}&direction=in`)).toEqual([real]);
      expect(await hashes(`/nft/transfers?address=${NFT_NEW_OWNER}&direction=out`)).toEqual([later]);
      expect(await hashes(`/nft/transfers?owner_address=${ITEM_OWNER}&direction=in`)).toEqual([abortedT, later]);
      expect(await hashes(`/nft/transfers?item_address=${ITEM_2}&sort=asc`)).toEqual([real, later]);
      expect(await hashes(`/nft/transfers?collection_address=${COLL_C}`)).toEqual([abortedT]);
      // By time: the aborted one (1682417990) sorts between the others (1682417974, 1682418000).
      expect(await hashes('/nft/transfers?start_utime=0&sort=asc')).toEqual([real, abortedT, later]);
      expect(await hashes(`/nft/transfers?start_lt=${37124590000001n}&end_lt=${37124590000001n}`)).toEqual([later]);
    });

    it('refuses bad input with 422', async () => {
      await fails('/nft/transfers?direction=up', 'direction should be one of: in, out, both');
      await fails('/nft/transfers?collection_address=abc', /collection_address/);
      await fails('/nft/transfers?end_utime=-5', /end_utime/);
    });
  });

  it('finds the rows of every filter through an index (no sequential scan when the planner may avoid one)', async () => {
    const page = { limit: 10, offset: 0, sort: 'desc' as const };
    const built: SqlQuery[] = [
      jettonMastersQuery({ admins: [SCALE_ADMIN], page }),
      jettonWalletsQuery({ owners: [OWNER_1], balanceSort: 'desc', page }),
      jettonWalletsQuery({ jettons: [USDT], page }),
      jettonTransfersQuery({ owners: [OWNER_1], window: {}, page }),
      jettonTransfersQuery({ owners: [OWNER_1], direction: 'in', window: { startUtime: 1 }, page }),
      jettonTransfersQuery({ master: USDT, window: {}, page }),
      jettonBurnsQuery({ wallets: [W1], window: {}, page }),
      nftCollectionsQuery({ owners: [LOTON_OWNER], page }),
      nftItemsQuery({ owners: [ITEM_OWNER], includeOnSale: true, page }),
      nftItemsQuery({ collections: [LOTON], indexes: ['5'], page }),
      nftTransfersQuery({ items: [ITEM_2], window: {}, page }),
      nftTransfersQuery({ owners: [ITEM_OWNER], window: {}, page }),
    ];
    for (const q of built) {
      const plan = await t.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return (await tx.query(`EXPLAIN ${q.sql}`, q.params)).rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(plan, q.sql).not.toMatch(/Seq Scan/);
    }
  });

  it.skipIf(!hasVectors)(
    'decodes the forward payload of the real transfer body in the vectors as it asserts',
    async () => {
      // messages/jetton_transfer_text_forward.json: transfer#0f8a7ea5 whose forward payload (in a ref) is the comment
      // the source asserts; the seeded payload must be that very cell, and the API must give that comment.
      const v = loadVector<{ boc_base64: string; expected: { forward_payload: { text_comment: string } } }>(
        'messages',
        'jetton_transfer_text_forward.json',
      );
      const s2 = Cell.fromBase64(v.boc_base64).beginParse();
      expect(s2.loadUint(32)).toBe(0x0f8a7ea5);
      s2.loadUintBig(64);
      s2.loadCoins();
      s2.loadMaybeAddress();
      s2.loadMaybeAddress();
      s2.loadMaybeRef();
      s2.loadCoins();
      expect(s2.loadBit()).toBe(true);
      expect(s2.loadRef().hash().equals(COMMENT_CELL.hash())).toBe(true);
      const t = (await list(`/jetton/transfers?jetton_wallet=${W1}`, 'jetton_transfers'))[0]!;
      expect(t.decoded_forward_payload.comment).toBe(v.expected.forward_payload.text_comment);
    },
  );
});
