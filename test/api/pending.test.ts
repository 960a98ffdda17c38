// Pending traces over a live devnet with an indexed PostgreSQL database: a wallet transfer signed here with a
// genesis wallet's key is sent through /api/v3/message; the API emulates its trace at once (real TVM, states read
// through our pool) into pending_traces before any block with it is indexed, and /pendingTraces and
// /pendingActions serve it; then the blocks are indexed, assembled and classified, and the confirmed ton_transfer
// carries the same action_id while the pending row is gone. Expected values come from what the test signed and
// from the chain (the landed transactions read through the fixture's own liteserver client); the action_id is also
// derived here from the message hash and TON's created_lt rule (an out message's created_lt is its sender's lt + 1
// + its index), not from our classifier. Also: the v2 send path, a trace cut by its limits, the detection of
// contracts a trace deploys (real jetton and NFT code, a fake wallet), refused and malformed messages, the backlog
// bound and the expiry sweep.
import { createHash } from 'node:crypto';
import {
  type Account,
  Address,
  beginCell,
  Cell,
  contractAddress,
  internal,
  loadTransaction,
  parseTuple,
  type StateInit,
  serializeTuple,
  storeMessage,
  storeMessageRelaxed,
  storeShardAccount,
} from '@ton/core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPendingTraces,
  deleteExpiredPendingTraces,
  detectInterfaces,
  type EmulatedTrace,
  emulateTrace,
  type PendingTraceRow,
  pendingTraceInput,
  pendingTraceRow,
  TraceEmulationError,
  writePendingTrace,
} from '../../src/api/pending/index.ts';
import { createV2Cache } from '../../src/api/v2/cache.ts';
import type { V2Context } from '../../src/api/v2/context.ts';
import { createApiTvm } from '../../src/api/v2/emulate/executor.ts';
import { type ActivityWallet, loadWallets } from '../../src/devnet/activity/wallets.ts';
import {
  jettonMinterStateInit,
  jettonWalletStateInit,
  nftCollectionStateInit,
  nftItemStateInit,
} from '../../src/devnet/contracts/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { createLiteSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { waitFor } from '../helpers/chain-reads.ts';
import { validateV3 } from '../helpers/openapi-validator.ts';
import { normalizedHash } from '../helpers/wallet-messages.ts';

const b64 = (b: Buffer) => b.toString('base64');
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

let f: ApiFixture;
let wallets: ActivityWallet[];
let indexed: number;

async function head() {
  return (await f.lite.getMasterchainInfo()).last;
}

async function seqnoOf(w: ActivityWallet): Promise<number> {
  const r = await f.lite.runMethod(w.address, 'seqno', serializeTuple([]).toBoc(), await head());
  expect(r.exitCode).toBe(0);
  const top = parseTuple(Cell.fromBase64(r.result!))[0];
  if (top?.type !== 'int') throw new Error(`seqno: expected an int, got ${top?.type}`);
  return Number(top.value);
}

/** A signed external transfer of `value` with a text comment (the wallets' own send mode), and its body. */
function transfer(w: ActivityWallet, seqno: number, to: Address, value: bigint, comment: string, validUntil: number) {
  const body = w.createTransfer({
    seqno,
    validUntil,
    messages: [internal({ to, value, bounce: false, body: comment })],
  });
  const message = beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest: w.address, importFee: 0n }, body }))
    .endCell();
  return { message, hashNorm: normalizedHash(w.address, body) };
}

/** Indexes every published block not indexed yet, assembles traces and classifies what became final. */
async function indexToHead(): Promise<void> {
  const db = f.db!.db;
  const source = createLiteSource(f.pool);
  const top = (await head()).seqno;
  for (let n = indexed + 1; n <= top; n++) await indexMcBlock(n, { source, db });
  indexed = Math.max(indexed, top);
  for (const b of await assembleTraces(db)) await classifyMcBlock(b.mcSeqno, { db });
}

async function pendingRow(traceKey: string): Promise<Record<string, JsonBody> | undefined> {
  const r = await f.db!.db.query(
    `SELECT trace_key, ext_msg_hash, accounts::text[] AS accounts, tx_in_msg_hashes::text[] AS tx_in_msg_hashes, trace,
            actions, emulated_at, expires_at
       FROM pending_traces WHERE trace_key = $1`,
    [traceKey],
  );
  return r.rows[0] as Record<string, JsonBody> | undefined;
}

beforeAll(async () => {
  // Slow blocks and no activity: the only traffic after genesis is this test's.
  f = await startApiFixture({ seed: 'pending-traces', db: 'postgres', activitySteps: 0, blockIntervalMs: 1000 });
  wallets = await loadWallets(f.info.walletsFile);
  // The genesis wallets are deployed by the node's first steps.
  for (const w of wallets) {
    await waitFor(`${w.version} wallet deployed`, async () => {
      const at = await head();
      // Until the first shard blocks exist the shards' zero states cannot be read through a liteserver.
      const s = await f.lite.getAccountState(w.address, at).catch(() => null);
      return s?.state?.storage.state.type === 'active' ? true : undefined;
    });
  }
  indexed = f.indexedThrough;
  await indexToHead();
}, 300_000);

/** One TVM for the test's own v2 contexts (the fixture's server has its own). */
const tvm = createApiTvm({ threads: 1 });

afterAll(async () => {
  await tvm.close();
  await f?.close();
});

/** A v2 context over the fixture's pool (what the emulator reads states, config and libraries through). */
function testV2(): V2Context {
  return {
    lite: f.pool,
    access: { check: async () => {} },
    testnet: false,
    version: 'test',
    cache: createV2Cache(),
    tvm,
  };
}

/** An active account holding `init`, as the ShardAccount the emulator hands over. */
function activeShardAccount(address: Address, init: StateInit): Cell {
  const account: Account = {
    addr: address,
    storageStats: { used: { cells: 1n, bits: 1n }, lastPaid: 0, duePayment: null, storageExtra: null },
    storage: { lastTransLt: 1n, balance: { coins: 1_000_000_000n }, state: { type: 'active', state: init } },
  };
  return beginCell()
    .store(storeShardAccount({ account, lastTransactionHash: 0n, lastTransactionLt: 1n }))
    .endCell();
}

function wallet(version: ActivityWallet['version']): ActivityWallet {
  const w = wallets.find((x) => x.version === version);
  if (!w) throw new Error(`no ${version} genesis wallet`);
  return w;
}

describe('pending traces', () => {
  it('shows a transfer sent through /message as a pending trace, then confirms it under the same action_id', async () => {
    const from = wallet('v4r2');
    const to = wallet('v5r1');
    const value = 1_234_567_890n;
    const comment = 'pending trace test';
    const now = Number((await f.lite.getMasterchainInfoExt()).lastUtime);
    const { message, hashNorm } = transfer(from, await seqnoOf(from), to.address, value, comment, now + 600);
    const extHash = b64(message.hash());
    const traceKey = b64(hashNorm);

    const sent = await f.post('/api/v3/message', { boc: b64(message.toBoc()) });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message_hash: extHash, message_hash_norm: traceKey });

    // The send answered at once; the emulation runs behind it. Nothing of it is indexed yet.
    await f.server.pending!.idle();
    const row = await pendingRow(traceKey);
    expect(row, 'pending_traces row').toBeDefined();
    const inIndex = await f.db!.db.query('SELECT 1 FROM messages WHERE msg_hash = $1', [extHash]);
    expect(inIndex.rowCount).toBe(0);

    expect(row!.ext_msg_hash).toBe(extHash);
    expect(new Date(row!.expires_at).getTime()).toBeGreaterThan(new Date(row!.emulated_at).getTime());
    const trace = row!.trace;
    expect(trace.external_hash).toBe(extHash);
    expect(trace.mc_seqno_start).toBe('0');
    expect(trace.trace_info).toEqual({
      trace_state: 'pending',
      messages: 2,
      transactions: 2,
      pending_messages: 0,
      classification_state: 'ok',
    });
    expect(trace.is_incomplete).toBe(false);
    // Root: the wallet's transaction of our external message; its one child: the receiver's.
    const [rootHash, childHash] = trace.transactions_order as string[];
    expect(trace.trace_id).toBe(rootHash);
    const rootTx = trace.transactions[rootHash!];
    const childTx = trace.transactions[childHash!];
    expect(rootTx.account).toBe(raw(from.address));
    expect(rootTx.in_msg.hash).toBe(extHash);
    expect(rootTx.out_msgs).toHaveLength(1);
    expect(childTx.account).toBe(raw(to.address));
    expect(childTx.in_msg).toMatchObject({
      source: raw(from.address),
      destination: raw(to.address),
      value: `${value}`,
    });
    expect(childTx.in_msg.hash).toBe(rootTx.out_msgs[0].hash);
    for (const t of [rootTx, childTx]) {
      expect(t).toMatchObject({
        emulated: true,
        finality: 'pending',
        trace_id: rootHash,
        trace_external_hash: traceKey,
      });
    }
    expect(trace.trace).toEqual({
      tx_hash: rootHash,
      in_msg_hash: extHash,
      children: [{ tx_hash: childHash, in_msg_hash: childTx.in_msg.hash, children: [] }],
    });
    expect(row!.tx_in_msg_hashes).toEqual([extHash, childTx.in_msg.hash]);
    expect([...row!.accounts].sort()).toEqual([raw(from.address), raw(to.address)].sort());

    // The action: a ton_transfer of what we signed, keyed by the external message hash and the transfer's offset
    // (1: the wallet's first out message) in the wallet transaction's out-list.
    const actions = row!.actions as JsonBody[];
    const pendingTransfer = actions.find((a) => a.type === 'ton_transfer');
    expect(pendingTransfer).toBeDefined();
    expect(pendingTransfer.details).toEqual({
      source: raw(from.address),
      destination: raw(to.address),
      value: `${value}`,
      comment,
      encrypted: false,
    });
    expect(pendingTransfer).toMatchObject({
      success: true,
      finality: 'pending',
      trace_id: rootHash,
      trace_external_hash: extHash,
      trace_external_hash_norm: traceKey,
      transactions: [rootHash, childHash],
      ancestor_type: [],
    });
    const offset = Buffer.alloc(8);
    offset.writeBigUInt64BE(1n);
    const place = createHash('sha256').update(message.hash()).update(offset).digest();
    const expectedId = createHash('sha256').update(place.toString('base64')).update('ton_transfer').digest('base64');
    expect(pendingTransfer.action_id).toBe(expectedId);

    // The stored objects are what the pending endpoints serve: they validate against the public document.
    expect(validateV3('get', '/api/v3/pendingTraces', 200, { traces: [trace], address_book: {} })).toEqual([]);
    expect(validateV3('get', '/api/v3/pendingActions', 200, { actions, address_book: {} })).toEqual([]);

    // And the API serves them: the trace by its key, the transfer among the sender's pending actions.
    const served = await f.get(`/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(traceKey)}`);
    expect(served.status).toBe(200);
    expect(validateV3('get', '/api/v3/pendingTraces', 200, served.body)).toEqual([]);
    expect(served.body.traces.map((t: JsonBody) => t.trace_id)).toEqual([rootHash]);
    expect(served.body.traces[0].actions.map((a: JsonBody) => a.action_id)).toContain(expectedId);
    const byAccount = await f.get(`/api/v3/pendingActions?account=${encodeURIComponent(raw(from.address))}`);
    expect(byAccount.status).toBe(200);
    expect(validateV3('get', '/api/v3/pendingActions', 200, byAccount.body)).toEqual([]);
    expect(byAccount.body.actions.find((a: JsonBody) => a.action_id === expectedId)).toMatchObject({
      type: 'ton_transfer',
      finality: 'pending',
    });

    // The message lands; the index catches up through assembly and classification.
    const confirmed = await waitFor('the trace to be classified', async () => {
      await indexToHead();
      const r = await f.db!.db.query<{ trace_id: string }>(
        `SELECT trace_id FROM traces WHERE external_hash_norm = $1 AND classification_state = 'ok'`,
        [traceKey],
      );
      return r.rows[0]?.trace_id;
    });
    const confirmedActions = await f.db!.db.query<{ action_id: string; type: string; tx_hashes: string[] }>(
      'SELECT action_id, type, tx_hashes FROM actions WHERE trace_id = $1',
      [confirmed],
    );
    const landedTransfer = confirmedActions.rows.find((a) => a.type === 'ton_transfer');
    expect(landedTransfer?.action_id).toBe(pendingTransfer.action_id);
    // Every pending action has its confirmed counterpart under the same id.
    expect(confirmedActions.rows.map((a) => `${a.type}:${a.action_id}`).sort()).toEqual(
      actions.map((a) => `${a.type}:${a.action_id}`).sort(),
    );
    expect(await pendingRow(traceKey)).toBeUndefined();
    const landedById = await f.get(`/api/v3/actions?action_id=${encodeURIComponent(expectedId)}`);
    expect(landedById.status).toBe(200);
    expect(landedById.body.actions).toHaveLength(1);
    expect(landedById.body.actions[0]).toMatchObject({
      type: 'ton_transfer',
      trace_id: confirmed,
      finality: 'finalized',
    });
    const afterLanding = await f.get(`/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(traceKey)}`);
    expect(afterLanding.status).toBe(200);
    expect(afterLanding.body.traces).toEqual([]);

    // The emulation ran the same transactions the chain did: same accounts, same inbound external, same transfer.
    const landedRoot = await f.db!.db.query<{ account: string; hash: string }>(
      'SELECT account, hash FROM transactions WHERE trace_id = $1 ORDER BY lt',
      [confirmed],
    );
    expect(landedRoot.rows.map((r) => r.account)).toEqual([raw(from.address), raw(to.address)]);
    const chainTx = await f.lite.getAccountState(to.address, await head());
    const list = await f.lite.getAccountTransactions(
      to.address,
      chainTx.lastTx!.lt.toString(),
      Buffer.from(chainTx.lastTx!.hash.toString(16).padStart(64, '0'), 'hex'),
      4,
    );
    const received = Cell.fromBoc(list.transactions)
      .map((c) => loadTransaction(c.beginParse()))
      .find((t) => b64(t.hash()) === landedRoot.rows[1]!.hash);
    expect(received?.inMessage?.info.type).toBe('internal');
    if (received?.inMessage?.info.type === 'internal') expect(received.inMessage.info.value.coins).toBe(value);

    // A late emulation of a trace that already landed is not stored again.
    const late: PendingTraceRow = {
      traceKey,
      extMsgHash: extHash,
      accounts: [raw(from.address)],
      txInMsgHashes: [extHash],
      trace: trace,
      actions: [],
    };
    expect(await writePendingTrace(f.db!.db, late, new Date(Date.now() + 60_000))).toBe(false);
    expect(await pendingRow(traceKey)).toBeUndefined();

    // /pendingTransactions while a trace lands part by part: an emulated transaction is dropped once the index has
    // the transaction at its place in the trace (its hash, and below the root its message's hash, differ from the
    // landed one's). Simulated on the landed trace: the row back, the trace not complete yet, and the child's message
    // seen at another offset (as if the receiver's transaction were still to come).
    const db = f.db!.db;
    await db.query(
      `INSERT INTO pending_traces (trace_key, ext_msg_hash, accounts, tx_in_msg_hashes, trace, actions, expires_at)
       VALUES ($1, $2, $3::text[]::tonaddr[], $4::text[]::tonhash[], $5, $6, now() + interval '1 minute')`,
      [traceKey, extHash, row!.accounts, row!.tx_in_msg_hashes, JSON.stringify(trace), JSON.stringify(actions)],
    );
    await db.query(`UPDATE traces SET state = 'pending' WHERE trace_id = $1`, [confirmed]);
    const childIn = await db.query<{ tx_hash: string; msg_hash: string; created_lt: string }>(
      `SELECT m.tx_hash, m.msg_hash, m.created_lt::text AS created_lt FROM messages m JOIN transactions t
         ON t.hash = m.tx_hash AND t.lt = m.tx_lt WHERE t.trace_id = $1 AND m.direction = 'in' AND m.source IS NOT NULL`,
      [confirmed],
    );
    expect(childIn.rows).toHaveLength(1);
    const pendingTxs = async (a: Address) =>
      (await f.get(`/api/v3/pendingTransactions?account=${encodeURIComponent(raw(a))}`)).body.transactions.map(
        (t: JsonBody) => t.hash,
      );
    try {
      expect(await pendingTxs(from.address)).toEqual([]);
      expect(await pendingTxs(to.address)).toEqual([]);
      const c = childIn.rows[0]!;
      await db.query('UPDATE messages SET created_lt = created_lt + 1000 WHERE msg_hash = $1 AND tx_hash = $2', [
        c.msg_hash,
        c.tx_hash,
      ]);
      expect(await pendingTxs(from.address)).toEqual([]);
      expect(await pendingTxs(to.address)).toEqual([childHash]);
    } finally {
      await db.query('UPDATE messages SET created_lt = $1 WHERE msg_hash = $2 AND tx_hash = $3', [
        childIn.rows[0]!.created_lt,
        childIn.rows[0]!.msg_hash,
        childIn.rows[0]!.tx_hash,
      ]);
      await db.query(`UPDATE traces SET state = 'complete' WHERE trace_id = $1`, [confirmed]);
      await db.query('DELETE FROM pending_traces WHERE trace_key = $1', [traceKey]);
    }
  }, 180_000);

  it('emulates messages sent through v2 sendBocReturnHash too', async () => {
    const from = wallet('v5r1');
    const to = wallet('v3r2');
    const now = Number((await f.lite.getMasterchainInfoExt()).lastUtime);
    const { message, hashNorm } = transfer(from, await seqnoOf(from), to.address, 7_000_000n, 'via v2', now + 600);
    const sent = await f.post('/api/v2/sendBocReturnHash', { boc: b64(message.toBoc()) });
    expect(sent.status).toBe(200);
    await f.server.pending!.idle();
    const row = await pendingRow(b64(hashNorm));
    expect(row?.ext_msg_hash).toBe(b64(message.hash()));
    const t = (row!.actions as JsonBody[]).find((a) => a.type === 'ton_transfer');
    expect(t?.details).toMatchObject({ source: raw(from.address), destination: raw(to.address), value: '7000000' });
  });

  it('marks a trace cut by its limits as incomplete', async () => {
    const v2 = testV2();
    const from = wallet('v4r2');
    const now = Number((await f.lite.getMasterchainInfoExt()).lastUtime);
    const { message } = transfer(from, await seqnoOf(from), wallet('v5r1').address, 1_000_000n, 'cut', now + 600);
    const e = await emulateTrace(message.toBoc(), { v2, limits: { maxTransactions: 1 } });
    expect(e.incomplete).toBe(true);
    expect(e.transactions).toHaveLength(1);
    const input = pendingTraceInput(e);
    const row = pendingTraceRow(e, input, []);
    expect(row.trace.is_incomplete).toBe(true);
    expect(row.trace.transactions_order).toEqual([b64(e.transactions[0]!.cell.hash())]);
    // The wallet's transaction sent the transfer the limit kept from running.
    expect(e.transactions[0]!.tx.outMsgs).toHaveLength(1);
  });

  it('detects the jetton wallets and NFT items a trace deploys, as their parents name them, and nothing fake', async () => {
    const v2 = testV2();
    const owner = wallet('v4r2').address;
    const master = jettonMinterStateInit({ adminAddress: owner, content: beginCell().storeUint(1, 8).endCell() });
    const masterAddress = contractAddress(0, master);
    const walletInit = jettonWalletStateInit(masterAddress, owner);
    // The address the master's get_wallet_address gives, computed here from the TEP-74 StateInit rule.
    const walletAddress = contractAddress(0, walletInit);
    const fakeWallet = new Address(0, Buffer.alloc(32, 0x5a));
    const collection = nftCollectionStateInit({
      ownerAddress: owner,
      collectionContent: beginCell().endCell(),
      commonContent: beginCell().endCell(),
      royaltyParams: { numerator: 1, denominator: 100, destination: owner },
    });
    const collectionAddress = contractAddress(0, collection);
    const itemIndex = 7n;
    const itemInit = nftItemStateInit(collectionAddress, itemIndex);
    const item = {
      code: itemInit.code!,
      data: beginCell()
        .storeUint(itemIndex, 64)
        .storeAddress(collectionAddress)
        .storeAddress(owner)
        .storeRef(beginCell().endCell())
        .endCell(),
    };
    const itemAddress = contractAddress(0, itemInit);
    const states = new Map(
      [
        [masterAddress, master],
        [walletAddress, walletInit],
        [fakeWallet, walletInit],
        [collectionAddress, collection],
        [itemAddress, item],
      ].map(([a, init]) => [
        raw(a as Address),
        { address: a as Address, shardAccount: activeShardAccount(a as Address, init as StateInit) },
      ]),
    );
    const block = await f.pool.getMasterchainInfo().then((i) => i.last);
    const e: EmulatedTrace = {
      message: { cell: beginCell().endCell(), hash: Buffer.alloc(32), hashNorm: Buffer.alloc(32) },
      block,
      globalVersion: 0,
      transactions: [],
      incomplete: false,
      states,
    };
    const found = await detectInterfaces(v2, e, [raw(walletAddress), raw(fakeWallet), raw(itemAddress), raw(owner)]);
    expect(Object.fromEntries(found)).toEqual({
      [raw(walletAddress)]: { jettonWallet: { jetton: raw(masterAddress), owner: raw(owner) } },
      [raw(itemAddress)]: { nftItem: { collection: raw(collectionAddress), index: '7', owner: raw(owner) } },
    });
  });

  it('refuses to emulate a message its account does not accept, and what is not one external message', async () => {
    const v2 = testV2();
    const from = wallet('v4r2');
    const now = Number((await f.lite.getMasterchainInfoExt()).lastUtime);
    // A seqno the wallet is not at: its code throws before accepting the message.
    const { message: stale } = transfer(from, (await seqnoOf(from)) + 5, from.address, 1n, 'stale', now + 600);
    const refused = await emulateTrace(stale.toBoc(), { v2 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TraceEmulationError);
    expect((refused as TraceEmulationError).reason).toBe('not_accepted');
    expect((refused as Error).message).toContain(raw(from.address));

    const internalMsg = beginCell()
      .store(storeMessageRelaxed(internal({ to: from.address, value: 1n, bounce: false, body: 'x' })))
      .endCell();
    const notExternal = await emulateTrace(internalMsg.toBoc(), { v2 }).catch((e: unknown) => e);
    expect(notExternal).toBeInstanceOf(TraceEmulationError);
    expect((notExternal as TraceEmulationError).reason).toBe('bad_message');
    const garbage = await emulateTrace(Buffer.from('not a boc'), { v2 }).catch((e: unknown) => e);
    expect((garbage as TraceEmulationError).reason).toBe('bad_message');
  });

  it('drops messages beyond the backlog with a log line, and sweeps expired rows', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (s: string) => lines.push(s) });
    const v2 = testV2();
    const full = createPendingTraces({ db: f.db!.db, v2, logger, maxQueue: 0 });
    const from = wallet('v3r2');
    const now = Number((await f.lite.getMasterchainInfoExt()).lastUtime);
    const { message: m, hashNorm } = transfer(from, await seqnoOf(from), from.address, 1n, 'dropped', now + 600);
    full.submit({ boc: m.toBoc(), hash: m.hash(), hashNorm });
    await full.idle();
    await full.close();
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['Pending trace dropped: emulation backlog full']);
    expect(await pendingRow(b64(hashNorm))).toBeUndefined();

    // A row whose trace never landed is dropped once it expired, and only then.
    const row: PendingTraceRow = {
      traceKey: b64(hashNorm),
      extMsgHash: b64(m.hash()),
      accounts: [raw(from.address)],
      txInMsgHashes: [b64(m.hash())],
      trace: {},
      actions: [],
    };
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    expect(await writePendingTrace(f.db!.db, row, expiresAt)).toBe(true);
    await deleteExpiredPendingTraces(f.db!.db, new Date(expiresAt.getTime() - 1));
    expect(await pendingRow(b64(hashNorm))).toBeDefined();
    expect(await deleteExpiredPendingTraces(f.db!.db, new Date(expiresAt.getTime() + 1))).toBeGreaterThanOrEqual(1);
    expect(await pendingRow(b64(hashNorm))).toBeUndefined();
  });
});
