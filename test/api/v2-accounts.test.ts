// API v2 account, get-method and send methods over a live devnet (issue 7). Every value is checked against the chain
// through the fixture's own ton-lite-client (`lite`) or against independent data (wallets.json, the activity's
// ledger, @ton/core hashes of what the test itself built), never against our own code paths.
import { readFile } from 'node:fs/promises';
import {
  Address,
  beginCell,
  Cell,
  type Contract,
  internal,
  parseTuple,
  SendMode,
  serializeTuple,
  storeMessage,
  storeMessageRelaxed,
  storeStateInit,
  type TupleItem,
} from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActivityLedger, CORE_CYCLE, parseWalletsFile, startActivity } from '../../src/devnet/activity/index.ts';
import { JETTON_WALLET_CODE, jettonWalletAddress } from '../../src/devnet/contracts/index.ts';
import { DEVNET_GLOBAL_ID } from '../../src/devnet/genesis/index.ts';
import { loadBlockInfo, parseBoc, verifyBlockProof } from '../../src/ton/index.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { landedTransaction, waitFor } from '../helpers/chain-reads.ts';
import { normalizedHash, v4Transfer } from '../helpers/wallet-messages.ts';

const SEED = 'v2-accounts';
const MC_SHARD = '-9223372036854775808';

interface TestWallet {
  version: 'v3r2' | 'v4r2' | 'v5r1';
  address: Address;
  publicKey: Buffer;
  secretKey: Buffer;
  contract: WalletContractV3R2 | WalletContractV4 | WalletContractV5R1;
}

let f: ApiFixture;
let ledger: ActivityLedger;
let wallets: TestWallet[];

beforeAll(async () => {
  f = await startApiFixture({ seed: SEED, activitySteps: 0 });
  // The fixture's activity is not reachable from here; run one cycle ourselves to learn what it created.
  const activity = await startActivity({
    pool: f.pool,
    wallets: f.info.walletsFile,
    seed: SEED,
    cycle: CORE_CYCLE,
    steps: CORE_CYCLE.length,
    intervalMs: 0,
    pollMs: 100,
    stepTimeoutMs: 60_000,
  });
  expect((await activity.done).failed).toBe(0);
  ledger = activity.ledger();
  const entries = parseWalletsFile(await readFile(f.info.walletsFile, 'utf8'));
  wallets = [];
  for (const e of entries) {
    const keys = await mnemonicToPrivateKey(e.mnemonic);
    const contract =
      e.version === 'v3r2'
        ? WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey })
        : e.version === 'v4r2'
          ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
          : WalletContractV5R1.create({
              publicKey: keys.publicKey,
              walletId: {
                networkGlobalId: DEVNET_GLOBAL_ID,
                context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 },
              },
            });
    wallets.push({
      version: e.version,
      address: contract.address,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      contract,
    });
  }
}, 600_000);

afterAll(async () => {
  await f?.close();
});

// ---- helpers -------------------------------------------------------------------------------------------------

function query(params: Record<string, string | number | boolean>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
}
const v2get = (method: string, params: Record<string, string | number | boolean> = {}) =>
  f.get(`/api/v2/${method}?${query(params)}`);
const v2post = (method: string, body: unknown) => f.post(`/api/v2/${method}`, body);
const rpc = (method: string, params: unknown, id: unknown = 'req-1') =>
  f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', id, method, params });

function wallet(version: TestWallet['version']): TestWallet {
  const w = wallets.find((x) => x.version === version);
  if (!w) throw new Error(`no ${version} wallet in wallets.json`);
  return w;
}

async function mcBlock(seqno?: number) {
  if (seqno === undefined) return (await f.lite.getMasterchainInfo()).last;
  return (await f.lite.lookupBlockByID({ seqno, shard: MC_SHARD, workchain: -1 })).id;
}

async function headSeqno(): Promise<number> {
  return (await f.lite.getMasterchainInfo()).last.seqno;
}

async function liteRun(address: Address, method: string, stack: TupleItem[], seqno: number) {
  const r = await f.lite.runMethod(address, method, serializeTuple(stack).toBoc(), await mcBlock(seqno));
  return { exitCode: r.exitCode, stack: r.result ? parseTuple(Cell.fromBase64(r.result)) : [] };
}

function ok(r: { status: number; body: JsonBody }) {
  if (r.status !== 200 || r.body.ok !== true) throw new Error(`expected ok, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result;
}

function b64(b: Buffer) {
  return b.toString('base64');
}

function cellHash(b64Boc: string): string {
  return Cell.fromBase64(b64Boc).hash().toString('hex');
}

/** gen_utime of a block, from its header proof (the chain's own record). */
async function blockUtime(id: Awaited<ReturnType<typeof mcBlock>>): Promise<number> {
  const h = await f.lite.getBlockHeader(id);
  const root = verifyBlockProof(parseBoc(h.headerProof)[0]!, id.rootHash);
  return loadBlockInfo(root.refs[0]!.beginParse(true)).genUtime;
}

// ---- account reads -------------------------------------------------------------------------------------------

describe('getAddressInformation and friends', () => {
  it('match the chain for every genesis wallet, at a fixed masterchain seqno', async () => {
    const seqno = await headSeqno();
    const block = await mcBlock(seqno);
    for (const w of wallets) {
      const chain = await f.lite.getAccountState(w.address, block);
      const r = ok(await v2get('getAddressInformation', { address: w.address.toString(), seqno }));
      expect(r['@type']).toBe('raw.fullAccountState');
      expect(r.balance).toBe(chain.balance.coins.toString());
      expect(r.state).toBe('active');
      expect(r.extra_currencies).toEqual([]);
      expect(r.frozen_hash).toBe('');
      expect(r.suspended).toBe(false);
      const st = chain.state!.storage.state;
      if (st.type !== 'active') throw new Error('expected an active wallet');
      expect(cellHash(r.code)).toBe(st.state.code!.hash().toString('hex'));
      expect(cellHash(r.data)).toBe(st.state.data!.hash().toString('hex'));
      expect(r.last_transaction_id).toEqual({
        '@type': 'internal.transactionId',
        lt: chain.lastTx!.lt.toString(),
        hash: b64(Buffer.from(chain.lastTx!.hash.toString(16).padStart(64, '0'), 'hex')),
      });
      expect(r.block_id).toEqual({
        '@type': 'ton.blockIdExt',
        workchain: -1,
        shard: MC_SHARD,
        seqno,
        root_hash: b64(block.rootHash),
        file_hash: b64(block.fileHash),
      });
      expect(r.sync_utime).toBe(await blockUtime(chain.shardBlock));
      expect(ok(await v2get('getAddressBalance', { address: w.address.toString(), seqno }))).toBe(r.balance);
      expect(ok(await v2get('getAddressState', { address: w.address.toRawString(), seqno }))).toBe('active');
    }
  });

  it('reads at the head when no seqno is given and names the block it read', async () => {
    const w = wallet('v4r2');
    const r = ok(await v2get('getAddressInformation', { address: w.address.toString() }));
    const block = await mcBlock(r.block_id.seqno);
    expect(b64(block.rootHash)).toBe(r.block_id.root_hash);
    const chain = await f.lite.getAccountState(w.address, block);
    expect(r.balance).toBe(chain.balance.coins.toString());
  });

  it('reads at an older masterchain seqno what the chain had then', async () => {
    const head = await headSeqno();
    const old = Math.max(1, head - 30);
    const w = wallet('v3r2');
    const chain = await f.lite.getAccountState(w.address, await mcBlock(old));
    const r = ok(await v2get('getAddressInformation', { address: w.address.toString(), seqno: old }));
    expect(r.block_id.seqno).toBe(old);
    expect(r.balance).toBe(chain.balance.coins.toString());
    expect(r.last_transaction_id.lt).toBe((chain.lastTx?.lt ?? 0n).toString());
    const future = await v2get('getAddressInformation', { address: w.address.toString(), seqno: head + 100_000 });
    expect(future.status).toBe(500);
    expect(future.body.error).toMatch(/^LITE_SERVER_/);
  });

  it('getWalletInformation reads seqno and wallet_id as the wallet itself reports them', async () => {
    const seqno = await headSeqno();
    for (const w of wallets) {
      const r = ok(await v2get('getWalletInformation', { address: w.address.toString({ bounceable: false }), seqno }));
      const chainSeqno = await liteRun(w.address, 'seqno', [], seqno);
      expect(chainSeqno.exitCode).toBe(0);
      expect(r).toMatchObject({
        '@type': 'ext.accounts.walletInformation',
        wallet: true,
        account_state: 'active',
        seqno: Number((chainSeqno.stack[0] as { value: bigint }).value),
      });
      expect(r.wallet_type).toBe({ v3r2: 'wallet v3 r2', v4r2: 'wallet v4 r2', v5r1: 'wallet v5 r1' }[w.version]);
      if (w.version === 'v5r1') {
        const id = await liteRun(w.address, 'get_subwallet_id', [], seqno);
        const sig = await liteRun(w.address, 'is_signature_allowed', [], seqno);
        expect(r.wallet_id).toBe(Number((id.stack[0] as { value: bigint }).value));
        expect(r.is_signature_allowed).toBe((sig.stack[0] as { value: bigint }).value !== 0n);
      } else {
        // @ton/ton's default wallet id for the basechain (698983191 + workchain).
        expect(r.wallet_id).toBe((w.contract as WalletContractV4).walletId);
        expect(r).not.toHaveProperty('is_signature_allowed');
      }
    }
  });

  it('getExtendedAddressInformation detects the wallets tonlib knows and echoes the address', async () => {
    const seqno = await headSeqno();
    const v3 = wallet('v3r2');
    const r3 = ok(await v2get('getExtendedAddressInformation', { address: v3.address.toRawString(), seqno }));
    expect(r3['@type']).toBe('fullAccountState');
    expect(r3.address).toEqual({
      '@type': 'accountAddress',
      account_address: v3.address.toString({ urlSafe: true, bounceable: true }),
    });
    expect(r3.account_state).toEqual({
      '@type': 'wallet.v3.accountState',
      wallet_id: v3.contract.walletId,
      seqno: Number(((await liteRun(v3.address, 'seqno', [], seqno)).stack[0] as { value: bigint }).value),
    });
    expect(r3.revision).toBe(2);
    const v4 = wallet('v4r2');
    const uq = v4.address.toString({ bounceable: false, urlSafe: true });
    const r4 = ok(await v2get('getExtendedAddressInformation', { address: uq, seqno }));
    expect(r4.address.account_address).toBe(uq);
    expect(r4.account_state['@type']).toBe('wallet.v4.accountState');
    expect(r4.revision).toBe(2);
    // tonlib knows no v5: its state is raw.
    const v5 = wallet('v5r1');
    const r5 = ok(await v2get('getExtendedAddressInformation', { address: v5.address.toString(), seqno }));
    expect(r5.account_state['@type']).toBe('raw.accountState');
    expect(r5.revision).toBe(0);
    const chain = await f.lite.getAccountState(v5.address, await mcBlock(seqno));
    expect(r5.balance).toBe(chain.balance.coins.toString());
  });

  it('answers an unknown account with the uninitialized shape', async () => {
    const nobody = new Address(0, Buffer.alloc(32, 0x5a));
    const r = ok(await v2get('getAddressInformation', { address: nobody.toString() }));
    expect(r).toMatchObject({
      '@type': 'raw.fullAccountState',
      balance: '0',
      extra_currencies: [],
      code: '',
      data: '',
      frozen_hash: '',
      state: 'uninitialized',
      last_transaction_id: { '@type': 'internal.transactionId', lt: '0', hash: b64(Buffer.alloc(32)) },
    });
    expect(ok(await v2get('getAddressState', { address: nobody.toString() }))).toBe('uninitialized');
    expect(ok(await v2get('getAddressBalance', { address: nobody.toString() }))).toBe('0');
    expect(ok(await v2get('getWalletInformation', { address: nobody.toString() }))).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: false,
      balance: '0',
      account_state: 'uninitialized',
      last_transaction_id: { '@type': 'internal.transactionId', lt: '0', hash: b64(Buffer.alloc(32)) },
    });
    const ext = ok(await v2get('getExtendedAddressInformation', { address: nobody.toString() }));
    expect(ext.account_state).toEqual({ '@type': 'uninited.accountState', frozen_hash: '' });
  });

  it('refuses bad addresses and seqnos with toncenter 2.1 statuses and messages', async () => {
    const bad = await v2get('getAddressInformation', { address: 'xyz' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      ok: false,
      code: 422,
      error: "failed to parse get request: Failed to parse ton_addr: 'xyz'",
    });
    const post = await v2post('getAddressBalance', { address: `EQ${'A'.repeat(46)}` });
    expect(post.status).toBe(422);
    expect(post.body.error).toBe(`failed to parse post request: Failed to parse ton_addr: 'EQ${'A'.repeat(46)}'`);
    const missing = await v2get('getWalletInformation');
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe("failed to parse get request: Failed to parse ton_addr: ''");
    const zero = await v2get('getAddressState', { address: wallet('v4r2').address.toString(), seqno: 0 });
    expect(zero.status).toBe(422);
    expect(zero.body.error).toBe('failed to validate request: seqno should be positive');
    const junk = await v2get('getAddressState', { address: wallet('v4r2').address.toString(), seqno: 'x1' });
    expect(junk.status).toBe(422);
  });

  it('answers GET, POST and JSON-RPC alike, echoing the JSON-RPC id', async () => {
    const seqno = await headSeqno();
    const address = wallet('v5r1').address.toString();
    for (const method of [
      'getAddressInformation',
      'getExtendedAddressInformation',
      'getWalletInformation',
      'getAddressBalance',
      'getAddressState',
    ]) {
      const g = ok(await v2get(method, { address, seqno }));
      const p = ok(await v2post(method, { address, seqno }));
      const j = await rpc(method, { address, seqno }, 7);
      expect(j.status).toBe(200);
      expect(j.body).toMatchObject({ ok: true, jsonrpc: '2.0', id: '7' });
      expect(p).toEqual(g);
      expect(j.body.result).toEqual(g);
    }
    const err = await rpc('getAddressBalance', { address: 'nope' }, 'abc');
    expect(err.status).toBe(422);
    expect(err.body).toMatchObject({ ok: false, code: 422, id: 'abc', jsonrpc: '2.0' });
  });
});

// ---- getTokenData ----------------------------------------------------------------------------------------------

function sameAddress(text: string, expected: Address) {
  expect(Address.parse(text).equals(expected)).toBe(true);
}

describe('getTokenData', () => {
  it('reads the activity jetton master as its get_jetton_data says, with its TEP-64 content', async () => {
    const j = ledger.jettons[0];
    if (!j) throw new Error('the activity deployed no jetton');
    const seqno = await headSeqno();
    const chain = await liteRun(j.master, 'get_jetton_data', [], seqno);
    expect(chain.exitCode).toBe(0);
    const raw = j.master.toRawString();
    const r = ok(await v2get('getTokenData', { address: raw, seqno }));
    expect(r['@type']).toBe('ext.tokens.jettonMasterData');
    // A raw input is echoed as upper-case raw (toncenter 2.1 normalises the parameter).
    expect(r.address).toBe(`0:${raw.slice(2).toUpperCase()}`);
    expect(r.contract_type).toBe('jetton_master');
    expect(r.total_supply).toBe((chain.stack[0] as { value: bigint }).value.toString());
    expect(r.mintable).toBe(true);
    sameAddress(r.admin_address, j.admin);
    expect(r.admin_address).toBe(j.admin.toString({ bounceable: true, urlSafe: true }));
    expect(cellHash(r.jetton_wallet_code)).toBe(JETTON_WALLET_CODE.hash().toString('hex'));
    // The activity names its jettons "Devnet Token <TAG>", symbol "DV" + the tag's first 3 characters, 9 decimals.
    expect(r.jetton_content.type).toBe('onchain');
    const content = r.jetton_content.data;
    const tag = /^Devnet Token ([0-9A-F]{6})$/.exec(content.name)?.[1];
    expect(tag).toBeDefined();
    expect(content).toMatchObject({ symbol: `DV${tag!.slice(0, 3)}`, decimals: '9' });
    expect(content.description).toContain(JSON.stringify(SEED));
    expect(Object.keys(content).sort()).toEqual(['decimals', 'description', 'name', 'symbol']);
  });

  it('reads a jetton wallet, verified against its master, in any address form', async () => {
    const j = ledger.jettons[0]!;
    const walletAddress = jettonWalletAddress(j.master, j.admin);
    const seqno = await headSeqno();
    const chain = await liteRun(walletAddress, 'get_wallet_data', [], seqno);
    for (const form of [walletAddress.toString(), walletAddress.toString({ bounceable: false })]) {
      const r = ok(await v2get('getTokenData', { address: form, seqno }));
      expect(r).toMatchObject({
        '@type': 'ext.tokens.jettonWalletData',
        address: form,
        contract_type: 'jetton_wallet',
        balance: (chain.stack[0] as { value: bigint }).value.toString(),
      });
      sameAddress(r.owner, j.admin);
      sameAddress(r.jetton, j.master);
      expect(r).not.toHaveProperty('mintless_is_claimed');
      expect(cellHash(r.jetton_wallet_code)).toBe(JETTON_WALLET_CODE.hash().toString('hex'));
    }
  });

  it('reads the NFT collection and an item, the item checked against its collection', async () => {
    const c = ledger.collections[0];
    if (!c) throw new Error('the activity deployed no collection');
    const seqno = await headSeqno();
    const chain = await liteRun(c.address, 'get_collection_data', [], seqno);
    const col = ok(await v2get('getTokenData', { address: c.address.toString(), seqno }));
    expect(col['@type']).toBe('ext.tokens.nftCollectionData');
    expect(col.contract_type).toBe('nft_collection');
    expect(col.next_item_index).toBe((chain.stack[0] as { value: bigint }).value.toString());
    sameAddress(col.owner_address, c.owner);
    expect(col.collection_content.type).toBe('offchain');
    const base = /^(https:\/\/devnet\.tongate\.invalid\/nft\/[0-9a-f]{8}\/)collection\.json$/.exec(
      col.collection_content.data,
    )?.[1];
    expect(base).toBeDefined();

    const item = c.items[0]!;
    const itemChain = await liteRun(item.address, 'get_nft_data', [], seqno);
    const it0 = ok(await v2post('getTokenData', { address: item.address.toString(), seqno }));
    expect(it0).toMatchObject({
      '@type': 'ext.tokens.nftItemData',
      contract_type: 'nft_item',
      init: true,
      index: item.index.toString(),
      // The collection's common content is the base URL; the item's individual content is "<index>.json".
      content: { type: 'offchain', data: `${base}${item.index}.json` },
    });
    sameAddress(it0.collection_address, c.address);
    const owner = itemChain.stack[3] as { cell: Cell };
    sameAddress(it0.owner_address, owner.cell.beginParse().loadAddress());
  });

  it('answers 409 for a contract that is no token and for an account with no code', async () => {
    const w = wallet('v4r2').address.toString();
    const r = await v2get('getTokenData', { address: w });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ok: false, code: 409, error: `Smart contract ${w} is not Jetton or NFT` });
    const nobody = new Address(0, Buffer.alloc(32, 0x33)).toString();
    expect((await v2get('getTokenData', { address: nobody })).status).toBe(409);
    const token = await rpc('getTokenData', { address: ledger.jettons[0]!.master.toString() }, 98);
    expect(token.body).toMatchObject({ ok: true, id: '98', result: { contract_type: 'jetton_master' } });
    const j = await rpc('getTokenData', { address: w }, 99);
    expect(j.status).toBe(409);
    expect(j.body).toMatchObject({ ok: false, id: '99' });
  });
});

// ---- runGetMethod ----------------------------------------------------------------------------------------------

/** A legacy entry back to a stack value, read independently of our codec (the shapes of v2-api.md §7.2). */
function fromTyped(e: JsonBody): TupleItem {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'int', value: BigInt(e.number.number) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: Cell.fromBase64(e.cell.bytes) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: Cell.fromBase64(e.slice.bytes) };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', items: e.tuple.elements.map(fromTyped) };
    case 'tvm.stackEntryList': {
      let tail: TupleItem = { type: 'null' };
      for (const x of [...e.list.elements].reverse()) tail = { type: 'tuple', items: [fromTyped(x), tail] };
      return tail;
    }
    default:
      throw new Error(`unexpected entry ${JSON.stringify(e)}`);
  }
}

function fromLegacy([type, value]: [string, JsonBody]): TupleItem {
  if (type === 'num') {
    const neg = value.startsWith('-');
    const v = BigInt(neg ? value.slice(1) : value);
    return { type: 'int', value: neg ? -v : v };
  }
  if (type === 'cell') return { type: 'cell', cell: Cell.fromBase64(value.bytes) };
  if (type === 'tuple') return { type: 'tuple', items: value.elements.map(fromTyped) };
  if (type === 'list') return fromTyped({ '@type': 'tvm.stackEntryList', list: value });
  throw new Error(`unexpected legacy entry ${type}`);
}

/** Stack values compared as the chain sees them: slices and cells by their cell hash. */
function normal(items: TupleItem[]): unknown[] {
  return items.map((i) => {
    if (i.type === 'int') return i.value.toString();
    if (i.type === 'cell' || i.type === 'slice' || i.type === 'builder') return `cell:${i.cell.hash().toString('hex')}`;
    if (i.type === 'tuple') return normal(i.items);
    return i.type;
  });
}

describe('runGetMethod', () => {
  it('returns numbers as hex, with the block and last transaction it ran on', async () => {
    const w = wallet('v4r2');
    const seqno = await headSeqno();
    const chain = await liteRun(w.address, 'seqno', [], seqno);
    const info = ok(await v2get('getAddressInformation', { address: w.address.toString(), seqno }));
    for (const method of ['seqno', 85143, '85143']) {
      const r = ok(await v2post('runGetMethod', { address: w.address.toString(), method, stack: [], seqno }));
      expect(r['@type']).toBe('smc.runResult');
      expect(r.exit_code).toBe(0);
      expect(r.gas_used).toBeGreaterThan(0);
      expect(r.stack).toEqual([['num', `0x${(chain.stack[0] as { value: bigint }).value.toString(16)}`]]);
      expect(r.block_id).toEqual(info.block_id);
      expect(r.last_transaction_id).toEqual(info.last_transaction_id);
    }
  });

  it('passes slices in and returns cells, as the liteserver computes them', async () => {
    const j = ledger.jettons[0]!;
    const seqno = await headSeqno();
    const owner = wallet('v5r1').address;
    const arg = beginCell().storeAddress(owner).endCell();
    const r = ok(
      await v2post('runGetMethod', {
        address: j.master.toString(),
        method: 'get_wallet_address',
        stack: [['tvm.Slice', arg.toBoc().toString('base64')]],
        seqno,
      }),
    );
    expect(r.exit_code).toBe(0);
    const [type, value] = r.stack[0];
    expect(type).toBe('cell');
    expect(value.object).toBeDefined();
    const got = Cell.fromBase64(value.bytes).beginParse().loadAddress();
    const chain = await liteRun(j.master, 'get_wallet_address', [{ type: 'slice', cell: arg }], seqno);
    expect(got.equals((chain.stack[0] as { cell: Cell }).cell.beginParse().loadAddress())).toBe(true);
    expect(got.equals(jettonWalletAddress(j.master, owner))).toBe(true);

    const data = ok(
      await v2post('runGetMethod', { address: j.master.toString(), method: 'get_jetton_data', stack: [], seqno }),
    );
    const dataChain = await liteRun(j.master, 'get_jetton_data', [], seqno);
    expect(normal(data.stack.map(fromLegacy))).toEqual(
      normal(dataChain.stack.map((i) => (i.type === 'slice' ? { type: 'cell', cell: i.cell } : i)) as TupleItem[]),
    );
    expect(cellHash(data.stack[4][1].bytes)).toBe(JETTON_WALLET_CODE.hash().toString('hex'));
  });

  it('takes nested tuples and lists and gives them back as the chain does', async () => {
    // A FunC get-method leaves the arguments it does not consume on the stack, so `seqno` echoes them.
    const w = wallet('v4r2');
    const seqno = await headSeqno();
    const someCell = beginCell().storeUint(0xabcdef, 24).endCell();
    const tupleArg = {
      '@type': 'tvm.tuple',
      elements: [
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-12345678901234567890' } },
        {
          '@type': 'tvm.stackEntryTuple',
          tuple: {
            '@type': 'tvm.tuple',
            elements: [
              {
                '@type': 'tvm.stackEntryCell',
                cell: { '@type': 'tvm.cell', bytes: someCell.toBoc().toString('base64') },
              },
            ],
          },
        },
      ],
    };
    const listArg = {
      '@type': 'tvm.list',
      elements: [
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '1' } },
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '2' } },
      ],
    };
    const stack = [
      ['num', '0x10'],
      ['tuple', tupleArg],
      ['list', listArg],
    ];
    const r = ok(await v2post('runGetMethod', { address: w.address.toString(), method: 'seqno', stack, seqno }));
    expect(r.exit_code).toBe(0);
    const args: TupleItem[] = [
      { type: 'int', value: 16n },
      fromTyped({ '@type': 'tvm.stackEntryTuple', tuple: tupleArg }),
      fromTyped({ '@type': 'tvm.stackEntryList', list: listArg }),
    ];
    const chain = await liteRun(w.address, 'seqno', args, seqno);
    expect(chain.exitCode).toBe(0);
    expect(normal(r.stack.map(fromLegacy))).toEqual(normal(chain.stack));
    expect(r.stack[1][0]).toBe('tuple');
    expect(r.stack[2][0]).toBe('list');
    // Inside tuples numbers are decimal, as tonlib writes them.
    expect(r.stack[1][1].elements[0].number.number).toBe('-12345678901234567890');

    const std = ok(
      await v2post('runGetMethodStd', {
        address: w.address.toString(),
        method: 'seqno',
        stack: [{ '@type': 'tvm.stackEntryTuple', tuple: tupleArg }],
        seqno,
      }),
    );
    expect(std).not.toHaveProperty('block_id');
    const stdChain = await liteRun(w.address, 'seqno', [args[1]!], seqno);
    expect(normal(std.stack.map(fromTyped))).toEqual(normal(stdChain.stack));
    expect(std.stack[1]).toEqual({
      '@type': 'tvm.stackEntryNumber',
      number: { '@type': 'tvm.numberDecimal', number: (stdChain.stack[1] as { value: bigint }).value.toString() },
    });
  });

  it('reports a method that throws by its exit code, as the chain does', async () => {
    const seqno = await headSeqno();
    const w = wallet('v4r2');
    const unknown = ok(
      await v2post('runGetMethod', { address: w.address.toString(), method: 'no_such_method', stack: [], seqno }),
    );
    const chainUnknown = await liteRun(w.address, 'no_such_method', [], seqno);
    expect(chainUnknown.exitCode).not.toBe(0);
    expect(unknown.exit_code).toBe(chainUnknown.exitCode);
    // get_wallet_address given a number instead of an address slice: a type check error.
    const j = ledger.jettons[0]!;
    const typeErr = ok(
      await v2post('runGetMethod', {
        address: j.master.toString(),
        method: 'get_wallet_address',
        stack: [['num', 5]],
        seqno,
      }),
    );
    const chainTypeErr = await liteRun(j.master, 'get_wallet_address', [{ type: 'int', value: 5n }], seqno);
    expect(chainTypeErr.exitCode).not.toBe(0);
    expect(typeErr.exit_code).toBe(chainTypeErr.exitCode);
    // No code at all: tonlib's -13.
    const nobody = new Address(0, Buffer.alloc(32, 0x44)).toString();
    const none = ok(await v2post('runGetMethod', { address: nobody, method: 'seqno', stack: [] }));
    // tonlib answers the stack the VM started with: the arguments, then the method id (seqno's is 85143)
    expect(none).toMatchObject({ exit_code: -13, stack: [['num', '0x14c97']] });
  });

  it('refuses bad stacks, bad methods and GET', async () => {
    const address = wallet('v4r2').address.toString();
    const unsupported = await v2post('runGetMethod', { address, method: 'seqno', stack: [['foo', 1]] });
    expect(unsupported.status).toBe(542);
    const short = await v2post('runGetMethod', { address, method: 'seqno', stack: [['num']] });
    expect(short.status).toBe(422);
    const badNum = await v2post('runGetMethod', { address, method: 'seqno', stack: [['num', 'zz']] });
    expect(badNum.status).toBe(422);
    const noStack = await v2post('runGetMethod', { address, method: 'seqno' });
    expect(noStack.status).toBe(422);
    const noMethod = await v2post('runGetMethod', { address, stack: [] });
    expect(noMethod.status).toBe(422);
    const badAddr = await v2post('runGetMethod', { address: 'zz', method: 'seqno', stack: [] });
    expect(badAddr.body.error).toBe("failed to parse post request: Failed to parse ton_addr: 'zz'");
    const get = await v2get('runGetMethod', { address, method: 'seqno' });
    expect(get.status).toBe(405);
    const j = await rpc('runGetMethod', { address, method: 'seqno', stack: [] }, 5);
    expect(j.body).toMatchObject({ ok: true, id: '5', result: { exit_code: 0 } });
    const std = await rpc('runGetMethodStd', { address, method: 'seqno', stack: [] }, 6);
    expect(std.body).toMatchObject({ ok: true, id: '6', result: { exit_code: 0 } });
    expect((await v2get('runGetMethodStd', { address, method: 'seqno' })).status).toBe(405);
  });
});

// ---- estimateFee, sendBoc, sendBocReturnHash -------------------------------------------------------------------

async function seqnoOf(w: TestWallet): Promise<number> {
  const r = await liteRun(w.address, 'seqno', [], await headSeqno());
  return Number((r.stack[0] as { value: bigint }).value);
}

describe('sending and fees', () => {
  it('estimateFee on a wallet transfer matches the fees the chain then charges for it', async () => {
    const w = wallet('v4r2');
    const to = new Address(0, Buffer.alloc(32, 0x71));
    const seqno = await seqnoOf(w);
    const { body, message } = v4Transfer(w, seqno, to, 50_000_000n, 'fee check');
    const est = ok(
      await v2post('estimateFee', { address: w.address.toString(), body: body.toBoc().toString('base64') }),
    );
    expect(est['@type']).toBe('query.fees');
    expect(est.destination_fees).toEqual([]);
    const fees = est.source_fees;
    expect(fees['@type']).toBe('fees');
    for (const k of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']) expect(typeof fees[k]).toBe('number');
    expect(fees.gas_fee).toBeGreaterThan(0);
    expect(fees.fwd_fee).toBeGreaterThan(0);

    // Now send the same transfer and read what the chain charged.
    ok(await v2post('sendBoc', { boc: message.toBoc().toString('base64') }));
    const tx = await landedTransaction(f.lite, w.address, message.hash());
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm' || !d.actionPhase) throw new Error('unexpected tx');
    expect(fees.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(fees.fwd_fee).toBe(Number(d.actionPhase.totalFwdFees ?? 0n));
    const importFee =
      tx.totalFees.coins -
      (d.storagePhase?.storageFeesCollected ?? 0n) -
      d.computePhase.gasFees -
      (d.actionPhase.totalActionFees ?? 0n);
    expect(fees.in_fwd_fee).toBe(Number(importFee));
    // Storage is estimated up to the state's time; the chain charged it up to the (later) transaction's time.
    expect(BigInt(fees.storage_fee)).toBeLessThanOrEqual(d.storagePhase?.storageFeesCollected ?? 0n);

    // The coins went to a fresh address: it now exists without code.
    const fresh = await waitFor('the recipient', async () => {
      const r = ok(await v2get('getAddressInformation', { address: to.toString() }));
      return r.balance !== '0' ? r : undefined;
    });
    expect(fresh).toMatchObject({ state: 'uninitialized', code: '', data: '', balance: '50000000' });
    const chain = await f.lite.getAccountState(to, await mcBlock(fresh.block_id.seqno));
    expect(fresh.last_transaction_id.lt).toBe(chain.lastTx!.lt.toString());
  });

  it('estimateFee honours ignore_chksig and answers through JSON-RPC and @ton/ton', async () => {
    const w = wallet('v4r2');
    const seqno = await seqnoOf(w);
    const wrongKey = (await mnemonicToPrivateKey(Array(24).fill('abandon'))).secretKey;
    const { body } = v4Transfer(w, seqno, w.address, 1n, 'bad signature', wrongKey);
    const b = body.toBoc().toString('base64');
    const ignored = ok(await v2post('estimateFee', { address: w.address.toString(), body: b, ignore_chksig: true }));
    const checked = ok(await v2post('estimateFee', { address: w.address.toString(), body: b, ignore_chksig: false }));
    expect(ignored.source_fees.gas_fee).toBeGreaterThan(0);
    expect(checked.source_fees.gas_fee).toBe(0);
    expect(checked.source_fees.fwd_fee).toBe(0);
    expect(checked.source_fees.in_fwd_fee).toBe(ignored.source_fees.in_fwd_fee);
    const j = await rpc('estimateFee', { address: w.address.toString(), body: b, ignore_chksig: true }, 3);
    expect(j.body).toMatchObject({ ok: true, id: '3', result: { '@type': 'query.fees' } });
    const client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
    const viaClient = await client.estimateExternalMessageFee(w.address, {
      body,
      initCode: null,
      initData: null,
      ignoreSignature: true,
    });
    expect(viaClient.source_fees.gas_fee).toBe(ignored.source_fees.gas_fee);
    expect((await v2post('estimateFee', { address: w.address.toString(), body: 'AAAA' })).status).toBe(400);
    expect((await v2get('estimateFee', { address: w.address.toString(), body: b })).status).toBe(405);
  });

  it('estimateFee with init_code/init_data prices a deployment as the chain then charges it', async () => {
    const keys = await mnemonicToPrivateKey(Array(24).fill('zoo'));
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const funder = wallet('v4r2');
    const fund = v4Transfer(funder, await seqnoOf(funder), fresh.address, 1_000_000_000n, 'fund');
    ok(await v2post('sendBoc', { boc: fund.message.toBoc().toString('base64') }));
    await waitFor('the new wallet to be funded', async () => {
      const r = ok(await v2get('getAddressBalance', { address: fresh.address.toString() }));
      return r !== '0' ? r : undefined;
    });
    const body = fresh.createTransfer({
      seqno: 0,
      secretKey: keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: wallet('v3r2').address, value: 10_000_000n, bounce: false })],
    });
    const est = ok(
      await v2post('estimateFee', {
        address: fresh.address.toString(),
        body: body.toBoc().toString('base64'),
        init_code: fresh.init.code.toBoc().toString('base64'),
        init_data: fresh.init.data.toBoc().toString('base64'),
      }),
    ).source_fees;
    expect(est.gas_fee).toBeGreaterThan(0);
    // The deployment as tonlib lays it out (StateInit and body inline in the root, as both fit).
    const message = beginCell()
      .storeUint(0b10, 2)
      .storeUint(0, 2)
      .storeAddress(fresh.address)
      .storeCoins(0)
      .storeUint(0b10, 2)
      .store(storeStateInit(fresh.init))
      .storeBit(false)
      .storeSlice(body.beginParse())
      .endCell();
    ok(await v2post('sendBoc', { boc: message.toBoc().toString('base64') }));
    const tx = await landedTransaction(f.lite, fresh.address, message.hash());
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm' || !d.actionPhase) throw new Error('unexpected tx');
    expect(est.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(est.fwd_fee).toBe(Number(d.actionPhase.totalFwdFees ?? 0n));
    const importFee =
      tx.totalFees.coins -
      (d.storagePhase?.storageFeesCollected ?? 0n) -
      d.computePhase.gasFees -
      (d.actionPhase.totalActionFees ?? 0n);
    expect(est.in_fwd_fee).toBe(Number(importFee));
    // The transaction is found through its block; the state read may still be served from the block before it.
    await waitFor('the deployed wallet to read active', async () =>
      ok(await v2get('getAddressState', { address: fresh.address.toString() })) === 'active' ? true : undefined,
    );
  });

  it('sendBocReturnHash returns the hashes of the message that lands on chain', async () => {
    const w = wallet('v4r2');
    const seqno = await seqnoOf(w);
    const { body, message } = v4Transfer(w, seqno, wallet('v3r2').address, 10_000_000n, 'hash check');
    const r = ok(await v2post('sendBocReturnHash', { boc: message.toBoc().toString('base64') }));
    expect(r).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: b64(message.hash()),
      hash_norm: b64(normalizedHash(w.address, body)),
    });
    const tx = await landedTransaction(f.lite, w.address, Buffer.from(r.hash, 'base64'));
    expect(tx.inMessage?.info.type).toBe('external-in');
    expect(await seqnoOf(w)).toBe(seqno + 1);
    // The same through JSON-RPC, with the id echoed.
    const next = v4Transfer(w, seqno + 1, wallet('v3r2').address, 10_000_000n, 'hash check 2');
    const j = await rpc('sendBocReturnHash', { boc: next.message.toBoc().toString('base64') }, 'send-2');
    expect(j.body).toMatchObject({
      ok: true,
      id: 'send-2',
      result: { hash: b64(next.message.hash()), hash_norm: b64(normalizedHash(w.address, next.body)) },
    });
    await landedTransaction(f.lite, w.address, next.message.hash());
  });

  it('refuses bad BoCs, non-external messages and messages the liteserver refuses', async () => {
    const empty = await v2post('sendBoc', { boc: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.error).toBe('failed to validate request: empty boc');
    const notBase64 = await v2post('sendBoc', { boc: '@@@@' });
    expect(notBase64.status).toBe(422);
    const notBoc = await v2post('sendBoc', { boc: 'AAAAAAAA' });
    expect(notBoc.status).toBe(400);
    expect(notBoc.body.error).toMatch(/^INVALID_BAG_OF_CELLS: body/);
    // A relaxed message (no source address) is no Message at all; an internal one is not external.
    const relaxed = beginCell()
      .store(storeMessageRelaxed(internal({ to: wallet('v4r2').address, value: 1n, bounce: false })))
      .endCell();
    const relaxedBoc = await v2post('sendBocReturnHash', { boc: relaxed.toBoc().toString('base64') });
    expect(relaxedBoc.status).toBe(400);
    expect(relaxedBoc.body.error).toBe('Failed to unpack Message');
    const intMsg = beginCell()
      .store(
        storeMessage({
          info: {
            type: 'internal',
            ihrDisabled: true,
            bounce: false,
            bounced: false,
            src: wallet('v3r2').address,
            dest: wallet('v4r2').address,
            value: { coins: 1n },
            ihrFee: 0n,
            forwardFee: 0n,
            createdLt: 0n,
            createdAt: 0,
          },
          body: Cell.EMPTY,
        }),
      )
      .endCell();
    const internalBoc = await v2post('sendBocReturnHash', { boc: intMsg.toBoc().toString('base64') });
    expect(internalBoc.status).toBe(400);
    expect(internalBoc.body.error).toBe('CommonMsgInfo tag is not ext_in_msg_info');
    // A stale seqno: the liteserver refuses, toncenter words it as tonlib does.
    const w = wallet('v4r2');
    const { message } = v4Transfer(w, (await seqnoOf(w)) - 1, w.address, 1n, 'stale');
    const refused = await v2post('sendBoc', { boc: message.toBoc().toString('base64') });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);
    const rpcRefused = await rpc('sendBoc', { boc: message.toBoc().toString('base64') }, 11);
    expect(rpcRefused.body).toMatchObject({ ok: false, code: 500, id: '11' });
    expect((await v2get('sendBoc', { boc: 'x' })).status).toBe(405);
  });

  it('@ton/ton TonClient reads, runs get-methods and sends through our JSON-RPC', async () => {
    const w = wallet('v5r1');
    const client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
    const opened = client.open(w.contract as WalletContractV5R1);
    const seqno = await opened.getSeqno();
    expect(seqno).toBe(await seqnoOf(w));
    const state = await client.getContractState(w.address);
    expect(state.state).toBe('active');
    const chain = await f.lite.getAccountState(w.address, await mcBlock(state.blockId.seqno));
    expect(state.balance).toBe(chain.balance.coins);
    expect(state.lastTransaction?.lt).toBe(chain.lastTx!.lt.toString());
    expect(await client.getBalance(w.address)).toBeGreaterThan(0n);
    await opened.sendTransfer({
      seqno,
      secretKey: w.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: wallet('v3r2').address, value: 20_000_000n, bounce: false, body: 'from TonClient' })],
    });
    await waitFor('the v5 seqno to move', async () => ((await opened.getSeqno()) === seqno + 1 ? true : undefined));
    const c: Contract = { address: ledger.jettons[0]!.master };
    const data = await client.provider(c.address).get('get_jetton_data', []);
    expect(data.stack.readBigNumber()).toBeGreaterThan(0n);
  });
});
