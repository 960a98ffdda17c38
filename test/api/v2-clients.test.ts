// API v2 end to end with the real client libraries, unmodified (issue 7): @ton/ton's TonClient and tonweb's
// HttpProvider (and a tonweb wallet) over our JSON-RPC against a devnet, then every method of the v2 table in
// its REST form(s) and its JSON-RPC form with the same parameters. Every answer is checked against the chain
// through the fixture's independent ton-lite-client (`f.lite`) or independent data (wallets.json, the
// activity's ledger, hashes @ton/core computes of what the test itself built), never against our own server.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  loadTransaction,
  parseTuple,
  SendMode,
  type StateInit,
  serializeTuple,
  storeMessage,
  type Transaction,
  type TupleItem,
} from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import TonWebModule from 'tonweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Methods } from '../../src/api/v2/methods/index.ts';
import { type ActivityLedger, CORE_CYCLE, startActivity } from '../../src/devnet/activity/index.ts';
import type { WalletsFileEntry } from '../../src/devnet/node/index.ts';
import { type ApiFixture, type JsonBody, queryString, startApiFixture } from '../helpers/api-fixture.ts';
import { waitFor } from '../helpers/chain-reads.ts';

// tonweb is CommonJS (module.exports = TonWeb) while its types declare a default export.
const TonWeb = ((TonWebModule as { default?: unknown }).default ?? TonWebModule) as typeof TonWebModule.default;

const SEED = 'v2-clients';
const MC_SHARD = '-9223372036854775808';

interface TestWallet {
  version: WalletsFileEntry['version'];
  address: Address;
  publicKey: Buffer;
  secretKey: Buffer;
}

let f: ApiFixture;
let ledger: ActivityLedger;
let client: TonClient;
let provider: InstanceType<typeof TonWeb.HttpProvider>;
let v3: TestWallet;
let v4: TestWallet & { contract: WalletContractV4 };
let v5: TestWallet & { contract: WalletContractV5R1 };
/** A contract whose code is a bare ACCEPT: it takes any external, so one BoC can be sent again and again. */
let acceptAll: { init: StateInit; address: Address; body: Cell; message: Cell };

beforeAll(async () => {
  f = await startApiFixture({ seed: SEED, activitySteps: 0 });
  // The fixture's own activity is not reachable from here; run one cycle to learn what it created (the jetton).
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

  // The wallets as any wallet app would open them: keys from the mnemonic, v5r1's wallet id from the network's
  // global id, which the chain itself states in config param 19.
  const file = JSON.parse(await readFile(f.info.walletsFile, 'utf8')) as WalletsFileEntry[];
  const config = await f.lite.getConfig((await f.lite.getMasterchainInfo()).last);
  const globalId = config.config.get(19)?.beginParse().loadInt(32);
  if (globalId === undefined) throw new Error('the devnet config has no param 19');
  const open = async (version: WalletsFileEntry['version']) => {
    const e = file.find((w) => w.version === version);
    if (!e) throw new Error(`no ${version} wallet in wallets.json`);
    const keys = await mnemonicToPrivateKey(e.mnemonic);
    expect(keys.publicKey.toString('hex')).toBe(e.publicKey);
    return { e, keys };
  };
  {
    const { e, keys } = await open('v3r2');
    const address = WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey }).address;
    expect(address.toRawString()).toBe(e.raw);
    v3 = { version: 'v3r2', address, publicKey: keys.publicKey, secretKey: keys.secretKey };
  }
  {
    const { e, keys } = await open('v4r2');
    const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    expect(contract.address.toRawString()).toBe(e.raw);
    v4 = { version: 'v4r2', address: contract.address, publicKey: keys.publicKey, secretKey: keys.secretKey, contract };
  }
  {
    const { e, keys } = await open('v5r1');
    const contract = WalletContractV5R1.create({
      publicKey: keys.publicKey,
      walletId: {
        networkGlobalId: globalId,
        context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 },
      },
    });
    expect(contract.address.toRawString()).toBe(e.raw);
    v5 = { version: 'v5r1', address: contract.address, publicKey: keys.publicKey, secretKey: keys.secretKey, contract };
  }

  // Fund the accept-all contract through the independent client (the v3 wallet pays), so that its first external
  // can deploy it; the REST table then sends the same external through every form.
  const init: StateInit = { code: beginCell().storeUint(0xf800, 16).endCell(), data: beginCell().endCell() };
  const address = contractAddress(0, init);
  const body = beginCell().storeUint(0x7e57, 16).endCell();
  const message = beginCell()
    .store(storeMessage(external({ to: address, init, body })))
    .endCell();
  acceptAll = { init, address, body, message };
  const funder = f.lite.open(WalletContractV3R2.create({ workchain: 0, publicKey: v3.publicKey }));
  await funder.sendTransfer({
    seqno: await funder.getSeqno(),
    secretKey: v3.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: address, value: 1_000_000_000n, bounce: false })],
  });
  await waitFor('the accept-all contract to be funded', async () => {
    const st = await f.lite.getAccountState(address, (await f.lite.getMasterchainInfo()).last);
    return st.balance.coins > 0n ? true : undefined;
  });

  client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
  provider = new TonWeb.HttpProvider(`${f.base}/api/v2/jsonRPC`);
}, 600_000);

afterAll(async () => {
  await f?.close();
});

// ---- the chain, read through the independent client -----------------------------------------------------------

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const signedShard = (shard: string) => BigInt.asIntN(64, BigInt(shard)).toString();
const hash256 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const freshAddress = () => new Address(0, randomBytes(32));

async function head(): Promise<tonNode_blockIdExt> {
  return (await f.lite.getMasterchainInfo()).last;
}

async function mcBlock(seqno: number): Promise<tonNode_blockIdExt> {
  return (await f.lite.lookupBlockByID({ workchain: -1, shard: MC_SHARD, seqno })).id;
}

async function chainRun(address: Address, method: string, stack: TupleItem[] = [], block?: tonNode_blockIdExt) {
  const r = await f.lite.runMethod(address, method, serializeTuple(stack).toBoc(), block ?? (await head()));
  return { exitCode: r.exitCode, stack: r.result ? parseTuple(Cell.fromBase64(r.result)) : [] };
}

function num(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new Error(`expected an int on the stack, got ${item?.type}`);
  return item.value;
}

function cellOf(item: TupleItem | undefined): Cell {
  if (item?.type !== 'cell' && item?.type !== 'slice') throw new Error(`expected a cell, got ${item?.type}`);
  return item.cell;
}

interface ChainTx {
  tx: Transaction;
  hash: Buffer;
  block: tonNode_blockIdExt;
}

/** The account's newest transactions as the chain has them (newest first), with the block of each. */
async function chainHistory(address: Address, count: number): Promise<ChainTx[]> {
  const st = await f.lite.getAccountState(address, await head());
  if (!st.lastTx) return [];
  const list = await f.lite.getAccountTransactions(address, st.lastTx.lt.toString(), hash256(st.lastTx.hash), count);
  return Cell.fromBoc(list.transactions).map((c, i) => ({
    tx: loadTransaction(c.beginParse()),
    hash: c.hash(),
    block: list.ids[i] as tonNode_blockIdExt,
  }));
}

/** Every transaction of a block as the chain lists it: [raw account, lt, base64 hash]. */
async function chainBlockTxs(block: tonNode_blockIdExt): Promise<Array<[string, string, string]>> {
  const r = await f.lite.listBlockTransactions(block, { mode: 7, count: 256 });
  expect(r.incomplete).toBe(false);
  return r.ids.map((t) => [
    `${block.workchain}:${Buffer.from(t.account as Buffer).toString('hex')}`,
    String(t.lt),
    b64(t.hash as Buffer),
  ]);
}

/** The transfer a wallet transaction made: its single outbound internal message. */
function outInternal(tx: Transaction) {
  const m = tx.outMessages.get(0);
  if (m?.info.type !== 'internal') throw new Error('expected an outbound internal message');
  return m.info;
}

/** The wallet opened through TonClient (each version has its own contract class). */
function seqnoVia(w: 'v4r2' | 'v5r1'): Promise<number> {
  return w === 'v4r2' ? client.open(v4.contract).getSeqno() : client.open(v5.contract).getSeqno();
}

async function transferVia(w: 'v4r2' | 'v5r1', seqno: number, to: Address, value: bigint): Promise<void> {
  const args = {
    seqno,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to, value, bounce: false, body: `TonClient ${w}` })],
  };
  if (w === 'v4r2') await client.open(v4.contract).sendTransfer({ ...args, secretKey: v4.secretKey });
  else await client.open(v5.contract).sendTransfer({ ...args, secretKey: v5.secretKey });
}

// Shared between the tests below (they run in order): the transfers each client made.
const sent: Record<'v4r2' | 'v5r1' | 'tonweb', { to: Address; value: bigint; tx?: ChainTx }> = {
  v4r2: { to: freshAddress(), value: 30_000_000n },
  v5r1: { to: freshAddress(), value: 40_000_000n },
  tonweb: { to: freshAddress(), value: 50_000_000n },
};

// ---- @ton/ton TonClient --------------------------------------------------------------------------------------

describe('@ton/ton TonClient over our JSON-RPC', () => {
  it('opens the genesis v4 and v5 wallets: state, balance, code, data and seqno as the chain has them', async () => {
    for (const w of [v4, v5]) {
      const state = await client.getContractState(w.address);
      expect(state.blockId.workchain).toBe(-1);
      expect(state.blockId.shard).toBe(MC_SHARD);
      const chain = await f.lite.getAccountState(w.address, await mcBlock(state.blockId.seqno));
      const active = chain.state?.storage.state;
      if (active?.type !== 'active') throw new Error(`the ${w.version} wallet is not active on chain`);
      expect(state.state).toBe('active');
      expect(state.balance).toBe(chain.balance.coins);
      expect(Cell.fromBoc(state.code as Buffer)[0]?.hash()).toEqual(active.state.code?.hash());
      expect(Cell.fromBoc(state.data as Buffer)[0]?.hash()).toEqual(active.state.data?.hash());
      expect(state.lastTransaction).toEqual({
        lt: chain.lastTx?.lt.toString(),
        hash: b64(hash256(chain.lastTx?.hash ?? 0n)),
      });
      // Nothing moves these wallets between the reads, so the head then and now agree.
      expect(await client.getBalance(w.address)).toBe(chain.balance.coins);
      expect(await client.isContractDeployed(w.address)).toBe(true);
      expect(await seqnoVia(w.version as 'v4r2' | 'v5r1')).toBe(
        Number(num((await chainRun(w.address, 'seqno')).stack[0])),
      );
    }
    // The v5 wallet's own getters through TonClient: the signature flag and the extensions, as the chain has them.
    const v5open = client.open(v5.contract);
    expect(await v5open.getIsSecretKeyAuthEnabled()).toBe(
      num((await chainRun(v5.address, 'is_signature_allowed')).stack[0]) !== 0n,
    );
    expect(await v5open.getExtensionsArray()).toEqual([]);
    expect((await chainRun(v5.address, 'get_extensions')).stack[0]?.type).toBe('null');
  });

  it('sees an address that never existed as uninitialised, with no code and no last transaction', async () => {
    const nobody = freshAddress();
    expect(await client.isContractDeployed(nobody)).toBe(false);
    const state = await client.getContractState(nobody);
    expect(state).toMatchObject({ state: 'uninitialized', balance: 0n, code: null, data: null, lastTransaction: null });
    expect((await f.lite.getAccountState(nobody, await mcBlock(state.blockId.seqno))).state).toBeNull();
  });

  it('sends a transfer from each wallet, waits for its seqno and finds the transaction', async () => {
    for (const w of [v4, v5]) {
      const version = w.version as 'v4r2' | 'v5r1';
      const s = sent[version];
      const seqno = await seqnoVia(version);
      await transferVia(version, seqno, s.to, s.value);
      await waitFor(`the ${version} seqno to move`, async () =>
        (await seqnoVia(version)) === seqno + 1 ? true : undefined,
      );
      expect(num((await chainRun(w.address, 'seqno')).stack[0])).toBe(BigInt(seqno + 1));

      // The wallet's newest transaction on chain is the transfer: an external in, one internal out to `to`.
      const [last] = await chainHistory(w.address, 1);
      if (!last) throw new Error('no transaction on chain');
      expect(last.tx.inMessage?.info.type).toBe('external-in');
      const out = outInternal(last.tx);
      expect(out.dest.equals(s.to)).toBe(true);
      expect(out.value.coins).toBe(s.value);
      s.tx = last;

      // getTransactions (the newest first, as the chain has them) and getTransaction by lt and base64 hash.
      const history = await waitFor('the history to show the transfer', async () => {
        const h = await client.getTransactions(w.address, { limit: 5 });
        return h[0]?.hash().equals(last.hash) ? h : undefined;
      });
      const chain = await chainHistory(w.address, 5);
      expect(history.map((t) => t.hash().toString('hex'))).toEqual(chain.map((t) => t.hash.toString('hex')));
      expect(history[0]?.lt).toBe(last.tx.lt);
      // An exclusive page from a cursor continues where the chain does.
      const older = await client.getTransactions(w.address, {
        limit: 2,
        lt: last.tx.lt.toString(),
        hash: b64(last.hash),
      });
      expect(older.map((t) => t.hash().toString('hex'))).toEqual(chain.slice(1, 3).map((t) => t.hash.toString('hex')));
      const one = await client.getTransaction(w.address, last.tx.lt.toString(), b64(last.hash));
      expect(one?.hash()).toEqual(last.hash);

      // Both ends of the transfer: the recipient's transaction and, back from it, the sender's.
      const received = await waitFor('the recipient to receive', async () => {
        const [r] = await chainHistory(s.to, 1);
        return r;
      });
      const located = await client.tryLocateResultTx(w.address, s.to, out.createdLt.toString());
      expect(located.hash()).toEqual(received.hash);
      const inMsg = located.inMessage?.info;
      if (inMsg?.type !== 'internal') throw new Error('the located transaction has no internal in message');
      expect(inMsg.createdLt).toBe(out.createdLt);
      const source = await client.tryLocateSourceTx(w.address, s.to, out.createdLt.toString());
      expect(source.hash()).toEqual(last.hash);
      // A read at the head may lag it by up to twice LATEST_TTL_MS (the head is reused that long, as tonlib reuses the
      // last block it synced, and the answer is cached that long): the credit shows within that.
      const credited = (await f.lite.getAccountState(s.to, await head())).balance.coins;
      expect(credited).toBeGreaterThan(0n);
      await waitFor('the credit at our head', async () =>
        (await client.getBalance(s.to)) === credited ? true : undefined,
      );
    }
  });

  it('runs get-methods on the wallets and on the devnet jetton master as the chain computes them', async () => {
    for (const w of [v4, v5]) {
      const key = await client.runMethod(w.address, 'get_public_key');
      expect(key.stack.readBigNumber()).toBe(BigInt(`0x${w.publicKey.toString('hex')}`));
      const id = await client.runMethod(w.address, 'get_subwallet_id');
      expect(id.stack.readBigNumber()).toBe(num((await chainRun(w.address, 'get_subwallet_id')).stack[0]));
    }
    expect((await client.runMethod(v4.address, 'get_subwallet_id')).stack.readNumber()).toBe(v4.contract.walletId);

    const jetton = ledger.jettons[0];
    if (!jetton) throw new Error('the activity deployed no jetton');
    const chain = await chainRun(jetton.master, 'get_jetton_data');
    expect(chain.exitCode).toBe(0);
    const data = await client.runMethod(jetton.master, 'get_jetton_data');
    expect(data.gas_used).toBeGreaterThan(0);
    const supply = data.stack.readBigNumber();
    expect(supply).toBe(num(chain.stack[0]));
    expect(supply).toBe(jetton.totalSupply);
    expect(data.stack.readBigNumber()).toBe(num(chain.stack[1]));
    expect(data.stack.readAddress().equals(jetton.admin)).toBe(true);
    expect(data.stack.readCell().hash()).toEqual(cellOf(chain.stack[3]).hash());
    expect(data.stack.readCell().hash()).toEqual(cellOf(chain.stack[4]).hash());

    // A slice argument: the jetton wallet of an owner.
    const owner = beginCell().storeAddress(v4.address).endCell();
    const wa = await client.runMethod(jetton.master, 'get_wallet_address', [{ type: 'slice', cell: owner }]);
    const chainWa = await chainRun(jetton.master, 'get_wallet_address', [{ type: 'slice', cell: owner }]);
    expect(wa.stack.readAddress().equals(cellOf(chainWa.stack[0]).beginParse().loadAddress())).toBe(true);

    // A method the contract lacks: the exit code the chain reports, and runMethod throws on it.
    const missing = await client.runMethodWithError(v4.address, 'no_such_method');
    expect(missing.exit_code).toBe((await chainRun(v4.address, 'no_such_method')).exitCode);
    expect(missing.exit_code).not.toBe(0);
    await expect(client.runMethod(v4.address, 'no_such_method')).rejects.toThrow(/exit_code/);
  });

  it('estimates the fee of a v4 transfer, and the chain then charges that gas and forwarding fee', async () => {
    const seqno = await client.open(v4.contract).getSeqno();
    const to = freshAddress();
    const body = v4.contract.createTransfer({
      seqno,
      secretKey: v4.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to, value: 10_000_000n, bounce: false, body: 'fee estimate' })],
    });
    const fee = await client.estimateExternalMessageFee(v4.address, {
      body,
      initCode: null,
      initData: null,
      ignoreSignature: false,
    });
    expect(fee.source_fees.gas_fee).toBeGreaterThan(0);
    await client.sendExternalMessage(v4.contract, body);
    const tx = await waitFor('the estimated transfer to land', async () => {
      const [t] = await chainHistory(v4.address, 1);
      return t?.tx.inMessage?.body.hash().equals(body.hash()) ? t.tx : undefined;
    });
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm' || !d.actionPhase) throw new Error('unexpected tx');
    expect(fee.source_fees.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(fee.source_fees.fwd_fee).toBe(Number(d.actionPhase.totalFwdFees ?? 0n));
    // The import fee is what the transaction charged beyond storage, gas and actions.
    const importFee =
      tx.totalFees.coins -
      (d.storagePhase?.storageFeesCollected ?? 0n) -
      d.computePhase.gasFees -
      (d.actionPhase.totalActionFees ?? 0n);
    expect(fee.source_fees.in_fwd_fee).toBe(Number(importFee));
  });

  it('lists block transactions: the head, its shards, and the shard block that holds the transfer', async () => {
    const before = await head();
    const info = await client.getMasterchainInfo();
    expect(info.workchain).toBe(-1);
    expect(info.shard).toBe(MC_SHARD);
    expect(info.initSeqno).toBe(0);
    expect(info.latestSeqno).toBeGreaterThanOrEqual(before.seqno);

    const s = sent.v4r2.tx;
    if (!s) throw new Error('the v4 transfer test did not run');
    // The masterchain block that first commits the shard block of the transfer (or a later one) lists it as a top
    // or as an ancestor; the shard list of a masterchain block is what the chain says it is.
    const seqno = info.latestSeqno;
    const shards = await client.getWorkchainShards(seqno);
    const tops = (await f.lite.getAllShardsInfo(await mcBlock(seqno))).shards['0'] ?? {};
    expect(shards.map((x) => [x.workchain, x.shard, x.seqno]).sort()).toEqual(
      Object.entries(tops)
        .map(([shard, n]) => [0, signedShard(shard), n])
        .sort(),
    );

    const list = await client.getShardTransactions(s.block.workchain, s.block.seqno, signedShard(s.block.shard));
    const chain = await chainBlockTxs(s.block);
    expect(list.map((t) => [t.account.toRawString(), t.lt, t.hash])).toEqual(chain);
    expect(list.some((t) => t.hash === b64(s.hash))).toBe(true);

    // The masterchain block itself (its tick-tock and config transactions, when it has any).
    const mcList = await client.getShardTransactions(-1, seqno, MC_SHARD);
    expect(mcList.map((t) => [t.account.toRawString(), t.lt, t.hash])).toEqual(
      await chainBlockTxs(await mcBlock(seqno)),
    );
  });
});

// ---- tonweb HttpProvider ---------------------------------------------------------------------------------------

describe('tonweb HttpProvider over our JSON-RPC', () => {
  it('reads the v3 wallet: getAddressInfo, getExtendedAddressInfo, getWalletInfo, getBalance', async () => {
    const address = v3.address.toString({ bounceable: false });
    const info = await provider.getAddressInfo(address);
    const chain = await f.lite.getAccountState(v3.address, await mcBlock(info.block_id.seqno));
    const active = chain.state?.storage.state;
    if (active?.type !== 'active') throw new Error('the v3 wallet is not active on chain');
    expect(info.balance).toBe(chain.balance.coins.toString());
    expect(info.state).toBe('active');
    expect(Cell.fromBase64(info.code).hash()).toEqual(active.state.code?.hash());
    expect(info.last_transaction_id).toEqual({
      '@type': 'internal.transactionId',
      lt: chain.lastTx?.lt.toString(),
      hash: b64(hash256(chain.lastTx?.hash ?? 0n)),
    });
    expect(info.block_id.root_hash).toBe(b64((await mcBlock(info.block_id.seqno)).rootHash));

    const seqno = Number(num((await chainRun(v3.address, 'seqno')).stack[0]));
    const ext = await provider.getExtendedAddressInfo(address);
    expect(ext.balance).toBe(info.balance);
    const walletId = WalletContractV3R2.create({ workchain: 0, publicKey: v3.publicKey }).walletId;
    expect(ext.account_state).toMatchObject({ '@type': 'wallet.v3.accountState', seqno, wallet_id: walletId });
    const wallet = await provider.getWalletInfo(address);
    expect(wallet).toMatchObject({ wallet: true, account_state: 'active', wallet_type: 'wallet v3 r2', seqno });
    expect(await provider.getBalance(address)).toBe(info.balance);
  });

  it('runs get-methods with call and call2, by name and by method id', async () => {
    const address = v3.address.toString();
    const chainSeqno = num((await chainRun(v3.address, 'seqno')).stack[0]);
    const raw = await provider.call(address, 'seqno');
    expect(raw.exit_code).toBe(0);
    expect(raw.stack).toEqual([['num', `0x${chainSeqno.toString(16)}`]]);
    expect((await provider.call2(address, 'seqno')).toString()).toBe(chainSeqno.toString());
    // 85143 is the method id of "seqno" (crc16 of the name | 0x10000), as tonweb lets callers pass it.
    expect((await provider.call2(address, 85143 as unknown as string)).toString()).toBe(chainSeqno.toString());
    const key = await provider.call2(address, 'get_public_key');
    expect(key.toString(16).padStart(64, '0')).toBe(v3.publicKey.toString('hex'));

    const jetton = ledger.jettons[0];
    if (!jetton) throw new Error('the activity deployed no jetton');
    const chain = await chainRun(jetton.master, 'get_jetton_data');
    const [supply, mintable, admin, content, code] = await provider.call2(jetton.master.toString(), 'get_jetton_data');
    expect(supply.toString()).toBe(num(chain.stack[0]).toString());
    expect(supply.toString()).toBe(jetton.totalSupply.toString());
    expect(mintable.toString()).toBe(num(chain.stack[1]).toString());
    expect(Buffer.from(await admin.hash())).toEqual(cellOf(chain.stack[2]).hash());
    expect(Buffer.from(await content.hash())).toEqual(cellOf(chain.stack[3]).hash());
    expect(Buffer.from(await code.hash())).toEqual(cellOf(chain.stack[4]).hash());
  });

  it('a tonweb v3 wallet estimates and sends a transfer; the history shows it as the chain does', async () => {
    const wallet = new TonWeb.Wallets.all.v3R2(provider, { publicKey: v3.publicKey, wc: 0 });
    expect((await wallet.getAddress()).toString(false)).toBe(v3.address.toRawString());
    const seqno = await wallet.methods.seqno().call();
    expect(seqno).toBe(Number(num((await chainRun(v3.address, 'seqno')).stack[0])));
    const s = sent.tonweb;
    const transfer = wallet.methods.transfer({
      secretKey: v3.secretKey,
      toAddress: s.to.toString({ bounceable: false }),
      amount: new TonWeb.utils.BN(s.value.toString()),
      seqno: seqno as number,
      payload: 'tonweb v3',
      sendMode: 3,
    });
    const fee = await transfer.estimateFee();
    expect(fee['@type']).toBe('query.fees');
    expect(await transfer.send()).toEqual({ '@type': 'ok' });
    await waitFor('the v3 seqno to move', async () =>
      (await wallet.methods.seqno().call()) === (seqno as number) + 1 ? true : undefined,
    );
    const [last] = await chainHistory(v3.address, 1);
    if (!last) throw new Error('no transaction on chain');
    s.tx = last;
    const out = outInternal(last.tx);
    expect(out.dest.equals(s.to)).toBe(true);
    expect(out.value.coins).toBe(s.value);
    const d = last.tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('unexpected tx');
    expect(fee.source_fees.gas_fee).toBe(Number(d.computePhase.gasFees));

    const history = await waitFor('the history to show the transfer', async () => {
      const h = await provider.getTransactions(v3.address.toString(), 5);
      return h[0]?.transaction_id.hash === b64(last.hash) ? h : undefined;
    });
    const chain = await chainHistory(v3.address, 5);
    expect(history.map((t: JsonBody) => [t.transaction_id.lt, t.transaction_id.hash])).toEqual(
      chain.map((t) => [t.tx.lt.toString(), b64(t.hash)]),
    );
    const top = history[0];
    expect(top.in_msg.source).toBe('');
    expect(top.out_msgs).toHaveLength(1);
    expect(Address.parse(top.out_msgs[0].destination).equals(s.to)).toBe(true);
    expect(top.out_msgs[0].value).toBe(s.value.toString());
    expect(top.out_msgs[0].message).toBe('tonweb v3');
    // `fee` is the total fees plus the forwarding fee of the out messages, as current tonlib sums it.
    expect(top.fee).toBe((last.tx.totalFees.coins + out.forwardFee).toString());
    // A page from a cursor (tonweb passes lt and hash through).
    const page = await provider.getTransactions(
      v3.address.toString(),
      2,
      chain[1]?.tx.lt.toString(),
      b64(chain[1]?.hash as Buffer),
    );
    expect(page.map((t: JsonBody) => t.transaction_id.hash)).toEqual(chain.slice(1, 3).map((t) => b64(t.hash)));
  });

  it('sendBoc takes a BoC tonweb built itself; the stale repeat is refused as the node refuses it', async () => {
    const wallet = new TonWeb.Wallets.all.v3R2(provider, { publicKey: v3.publicKey, wc: 0 });
    const seqno = (await wallet.methods.seqno().call()) as number;
    const query = await wallet.methods
      .transfer({
        secretKey: v3.secretKey,
        toAddress: freshAddress().toString(),
        amount: new TonWeb.utils.BN(1_000_000),
        seqno,
        sendMode: 3,
      })
      .getQuery();
    const boc = b64(await query.toBoc(false));
    expect(await provider.sendBoc(boc)).toEqual({ '@type': 'ok' });
    await waitFor('the v3 seqno to move', async () =>
      (await wallet.methods.seqno().call()) === seqno + 1 ? true : undefined,
    );
    // The same message again: its seqno is now stale; tonweb rejects with the server's error text.
    await expect(provider.sendBoc(boc)).rejects.toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message/);
    // sendQuerySimple (tonweb's deprecated sendQuery) is gone from 2.1, so it is an unknown method here too.
    await expect(provider.sendQuery({})).rejects.toBe('Unknown method');
  });

  it('reads blocks: head, shards, headers and block transactions as the chain lists them; a config param', async () => {
    const before = await head();
    const info = await provider.getMasterchainInfo();
    expect(info.last.seqno).toBeGreaterThanOrEqual(before.seqno);
    const last = await mcBlock(info.last.seqno);
    expect(info.last.root_hash).toBe(b64(last.rootHash));
    expect(info.last.file_hash).toBe(b64(last.fileHash));
    expect(info.init.seqno).toBe(0);
    expect(info.init.root_hash).toBe(b64((await f.lite.getMasterchainInfo()).init.rootHash));

    const seqno = info.last.seqno;
    const shards = await provider.getBlockShards(seqno);
    const tops = (await f.lite.getAllShardsInfo(last)).shards['0'] ?? {};
    expect(shards.shards.map((b: JsonBody) => [b.shard, b.seqno]).sort()).toEqual(
      Object.entries(tops)
        .map(([shard, n]) => [signedShard(shard), n])
        .sort(),
    );

    // The shard block of tonweb's transfer.
    const tx = sent.tonweb.tx;
    if (!tx) throw new Error('the tonweb transfer test did not run');
    const shard = signedShard(tx.block.shard);
    const header = await provider.getBlockHeader(0, shard, tx.block.seqno);
    expect(header.id).toMatchObject({
      workchain: 0,
      shard,
      seqno: tx.block.seqno,
      root_hash: b64(tx.block.rootHash),
      file_hash: b64(tx.block.fileHash),
    });
    expect(BigInt(header.start_lt)).toBeLessThan(tx.tx.lt);
    expect(BigInt(header.end_lt)).toBeGreaterThan(tx.tx.lt);
    const prev = (await f.lite.lookupBlockByID({ workchain: 0, shard: tx.block.shard, seqno: tx.block.seqno - 1 })).id;
    expect(header.prev_blocks.map((b: JsonBody) => b.root_hash)).toContain(b64(prev.rootHash));
    const chainTxs = await chainBlockTxs(tx.block);
    const txs = await provider.getBlockTransactions(0, shard, tx.block.seqno);
    expect(txs.incomplete).toBe(false);
    expect(txs.transactions.map((t: JsonBody) => [t.account, t.lt, t.hash])).toEqual(chainTxs);
    // Paging as tonweb documents it: after the first transaction, by its lt and its account's hash part.
    const first = txs.transactions[0];
    const rest = await provider.getBlockTransactions(
      0,
      shard,
      tx.block.seqno,
      100,
      first.lt,
      first.account.split(':')[1],
    );
    expect(rest.transactions.map((t: JsonBody) => t.hash)).toEqual(chainTxs.slice(1).map((t) => t[2]));

    const mcHeader = await provider.getMasterchainBlockHeader(seqno);
    expect(mcHeader.id.root_hash).toBe(b64(last.rootHash));
    const prevMc = await mcBlock(seqno - 1);
    expect(mcHeader.prev_blocks.map((b: JsonBody) => b.root_hash)).toEqual([b64(prevMc.rootHash)]);
    const mcTxs = await provider.getMasterchainBlockTransactions(seqno);
    expect(mcTxs.transactions.map((t: JsonBody) => [t.account, t.lt, t.hash])).toEqual(await chainBlockTxs(last));

    // getConfigParam is in tonweb's provider but not in its type declarations.
    const config = (await f.lite.getConfig(await head())).config;
    const getConfigParam = (
      provider as unknown as { getConfigParam(id: number): Promise<{ hash(): Promise<Uint8Array> }> }
    ).getConfigParam.bind(provider);
    for (const id of [0, 15, 34]) {
      expect(Buffer.from(await (await getConfigParam(id)).hash())).toEqual(config.get(id)?.hash());
    }
  });
});

// ---- every method: REST and JSON-RPC give the same answer --------------------------------------------------------

interface FormCase {
  params: Record<string, unknown>;
  /** The answer follows the head or the clock, so two calls can straddle a block: retry until they agree. */
  moving?: boolean;
}

describe('REST and JSON-RPC forms of every v2 method', () => {
  it('each method and alias answers its REST form(s) and JSON-RPC with the same result', async () => {
    // Parameters from the devnet, at a fixed masterchain block where the method takes one.
    const mc = await head();
    const seqno = mc.seqno;
    const tx = sent.v4r2.tx ?? (await chainHistory(v4.address, 1))[0];
    if (!tx) throw new Error('the v4 wallet has no transaction');
    const out = outInternal(tx.tx);
    const block = { workchain: tx.block.workchain, shard: signedShard(tx.block.shard), seqno: tx.block.seqno };
    const jetton = ledger.jettons[0]?.master;
    if (!jetton) throw new Error('the activity deployed no jetton');
    const wallet = v4.address.toString();
    const feeBody = v4.contract
      .createTransfer({
        seqno: Number(num((await chainRun(v4.address, 'seqno')).stack[0])),
        secretKey: v4.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: freshAddress(), value: 1n, bounce: false })],
      })
      .toBoc()
      .toString('base64');
    const locate = { source: wallet, destination: out.dest.toString(), created_lt: out.createdLt.toString() };
    const boc = acceptAll.message.toBoc().toString('base64');

    const cases: Record<string, FormCase> = {
      getAddressInformation: { params: { address: wallet, seqno } },
      getExtendedAddressInformation: { params: { address: wallet, seqno } },
      getWalletInformation: { params: { address: wallet, seqno } },
      getAddressBalance: { params: { address: wallet, seqno } },
      getAddressState: { params: { address: wallet, seqno } },
      getShardAccountCell: { params: { address: wallet, seqno } },
      getTokenData: { params: { address: jetton.toString(), seqno } },
      getMasterchainInfo: { params: {}, moving: true },
      getMasterchainBlockSignatures: { params: { seqno } },
      getShardBlockProof: { params: { ...block, from_seqno: seqno } },
      getConsensusBlock: { params: {}, moving: true },
      lookupBlock: { params: block },
      getShards: { params: { seqno } },
      shards: { params: { seqno } },
      getBlockHeader: { params: block },
      getOutMsgQueueSize: { params: {}, moving: true },
      getBlockTransactions: { params: { ...block, count: 5 } },
      getBlockTransactionsExt: { params: { ...block, count: 5 } },
      getTransactions: { params: { address: wallet, lt: tx.tx.lt.toString(), hash: b64(tx.hash), limit: 3 } },
      getTransactionsStd: { params: { address: wallet, lt: tx.tx.lt.toString(), hash: b64(tx.hash), limit: 3 } },
      tryLocateResultTx: { params: locate },
      tryLocateTx: { params: locate },
      tryLocateSourceTx: { params: locate },
      sendBoc: { params: { boc } },
      sendBocReturnHash: { params: { boc } },
      estimateFee: { params: { address: wallet, body: feeBody, ignore_chksig: true }, moving: true },
      runGetMethod: { params: { address: jetton.toString(), method: 'get_jetton_data', stack: [], seqno } },
      runGetMethodStd: { params: { address: jetton.toString(), method: 'get_jetton_data', stack: [], seqno } },
      detectAddress: { params: { address: v4.address.toRawString() } },
      detectHash: { params: { hash: tx.hash.toString('hex') } },
      packAddress: { params: { address: v4.address.toRawString() } },
      unpackAddress: { params: { address: wallet } },
      getConfigParam: { params: { config_id: 34, seqno } },
      getConfigAll: { params: { seqno } },
      getLibraries: { params: { libraries: [randomBytes(32).toString('hex')] }, moving: true },
    };

    const names = v2Methods.flatMap((m) => [m.name, ...(m.aliases ?? [])]);
    // The table covers every method and alias the server has, and nothing else.
    expect(Object.keys(cases).sort()).toEqual([...names].sort());

    for (const m of v2Methods) {
      for (const name of [m.name, ...(m.aliases ?? [])]) {
        const c = cases[name] as FormCase;
        const attempt = async () => {
          const forms: Array<[string, { status: number; body: JsonBody }]> = [];
          if (m.verbs === 'read') forms.push(['GET', await f.get(`/api/v2/${name}${queryString(c.params)}`)]);
          forms.push(['POST', await f.post(`/api/v2/${name}`, c.params)]);
          forms.push([
            'RPC',
            await f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: name, method: name, params: c.params }),
          ]);
          return forms;
        };
        let forms = await attempt();
        for (let i = 0; c.moving && i < 5; i++) {
          const [, first] = forms[0] as [string, { body: JsonBody }];
          if (forms.every(([, r]) => JSON.stringify(r.body.result) === JSON.stringify(first.body.result))) break;
          await new Promise((r) => setTimeout(r, 50));
          forms = await attempt();
        }
        for (const [form, r] of forms) {
          if (r.status !== 200 || r.body.ok !== true) {
            throw new Error(`${name} by ${form}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
          }
        }
        const [, first] = forms[0] as [string, { body: JsonBody }];
        for (const [form, r] of forms.slice(1)) {
          expect({ name, form, result: r.body.result }).toEqual({ name, form, result: first.body.result });
        }
        const rpc = forms[forms.length - 1]?.[1].body;
        expect(rpc).toMatchObject({ jsonrpc: '2.0', id: name });
        if (m.verbs === 'post') {
          const g = await f.get(`/api/v2/${name}${queryString({ address: wallet })}`);
          expect({ name, status: g.status }).toEqual({ name, status: 405 });
        }
      }
    }

    // sendBocReturnHash names the message the test built (hash) and its TEP-467 normal form (hash_norm).
    const r = await f.post('/api/v2/sendBocReturnHash', { boc });
    expect(r.body.result.hash).toBe(b64(acceptAll.message.hash()));
    // The repeated external really ran: the accept-all contract is deployed and has transactions for it.
    const st = await waitFor('the accept-all contract to run', async () => {
      const h = await chainHistory(acceptAll.address, 1);
      return h[0]?.tx.inMessage?.info.type === 'external-in' ? h[0] : undefined;
    });
    expect(st.tx.inMessage?.body.hash()).toEqual(acceptAll.body.hash());
  });
});
