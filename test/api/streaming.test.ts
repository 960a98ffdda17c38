// Issue 20: the Streaming API v2 over a live devnet with an indexed PostgreSQL database, through real clients: an SSE
// reader over plain HTTP (test/helpers/sse-client.ts) and the `ws` package. The test runs the index worker's loop
// itself (index every published block, assemble traces, classify), so events become final as they would under
// `tongate work`. Transfers are signed here with the devnet's user wallets and sent with @ton/ton's TonClient through
// our v2 JSON-RPC: each arrives first as `pending` (from the emulation the send path runs), then `finalized` (from
// the index), with payloads equal to what v3 returns for the same rows. Also: validation messages byte for byte on
// both transports, ping/ack ids, a client that disconnects while 20 transfers land and resumes by cursor, and a
// client that stops reading.
import { readFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { Address, internal } from '@ton/core';
import { TonClient } from '@ton/ton';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { startActivity } from '../../src/devnet/activity/index.ts';
import type { WalletsFileEntry } from '../../src/devnet/node/index.ts';
import { createContractsEnv, type OwnedContractsEnv } from '../../src/index/contracts/index.ts';
import { type ApiFixture, startApiFixture } from '../helpers/api-fixture.ts';
import { type IndexLoop, startIndexLoop } from '../helpers/index-loop.ts';
import { notifications, openSse } from '../helpers/sse-client.ts';
import { openUserWallets, sendTransfer } from '../helpers/user-wallets.ts';

const SSE = '/api/streaming/v2/sse';
const WS = '/api/streaming/v2/ws';
type Json = Record<string, unknown>;

interface UserWallet {
  address: Address;
  raw: string;
  /** Sends a transfer with @ton/ton through our JSON-RPC; resolves with its trace key once the seqno moved. */
  send(to: Address, value: bigint, comment: string): Promise<string>;
}

let f: ApiFixture;
let client: TonClient;
let users: UserWallet[];
let indexer: IndexLoop | undefined;
let contracts: OwnedContractsEnv | undefined;

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A fresh address nobody else sends to (a deterministic hash per label). */
const fresh = (label: string) =>
  new Address(0, Buffer.from(Array.from({ length: 32 }, (_, i) => (label.charCodeAt(i % label.length) + i * 7) & 255)));

beforeAll(async () => {
  f = await startApiFixture({
    seed: 'streaming',
    db: 'postgres',
    activitySteps: 0,
    blockIntervalMs: 500,
    // Each step's shard blocks show 300 ms before the masterchain block that commits them: `confirmed` events.
    shardLeadMs: 300,
    userWalletsPerVersion: 2,
    // TONGATE_TEST_LOG=debug shows the server's log (stream opens and closes, feed state).
    server: {
      streaming: { pollMs: 100, replayBlocks: 1000 },
      // This server never sweeps expired pending rows: the retraction test's own server does, and a sweep here
      // could take its expired row first and retract it to this server's clients instead.
      pending: { sweepIntervalMs: 24 * 3600_000 },
      logger: pino({ level: process.env.TONGATE_TEST_LOG ?? 'silent' }),
    },
  });
  // The index worker's loop: every published block indexed, traces assembled, what became final classified, with
  // the contract families (jetton wallets and masters, NFTs, …) as `tongate work` detects them.
  contracts = await createContractsEnv({ db: f.db!.db });
  indexer = startIndexLoop({
    pool: f.pool,
    head: f.lite,
    db: f.db!.db,
    from: f.indexedThrough,
    contracts,
    intervalMs: 200,
    // As the worker does: say it and retry (a test that needs the block then times out naming it).
    onError: (e) => console.warn(`streaming test indexer: ${e.message}`),
  });
  client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
  users = (await openUserWallets(f.info.walletsFile)).map(
    (w): UserWallet => ({
      address: w.address,
      raw: w.raw,
      send: (to, value, comment) =>
        sendTransfer(client, w, [internal({ to, value, bounce: false, body: comment })], 20_000),
    }),
  );
  expect(users.length).toBeGreaterThanOrEqual(2);
  await f.server.streams!.ready();
}, 300_000);

afterAll(async () => {
  await indexer?.stop();
  await contracts?.close();
  await f?.close();
});

function sub(addresses: string[], extra: Json = {}): Json {
  return { types: ['transactions', 'actions', 'account_state_change'], addresses, ...extra };
}

/** A WebSocket client that keeps every frame. */
async function openWs(query = ''): Promise<{
  ws: WebSocket;
  frames: Json[];
  next(match: (j: Json) => boolean, timeoutMs?: number): Promise<Json>;
  ask(msg: unknown): Promise<Json>;
}> {
  const ws = new WebSocket(`${f.base.replace('http', 'ws')}${WS}${query}`);
  const frames: Json[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    frames.push(JSON.parse(String(d)) as Json);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const wait = () =>
    new Promise<void>((r) => {
      const t = setTimeout(r, 500);
      waiters.push(() => {
        clearTimeout(t);
        r();
      });
    });
  return {
    ws,
    frames,
    async next(match, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = frames.find(match);
        if (hit) return hit;
        if (Date.now() > deadline)
          throw new Error(`no matching WebSocket frame within ${timeoutMs} ms (${frames.length} frames)`);
        await wait();
      }
    },
    async ask(msg) {
      const before = frames.length;
      ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
      while (frames.length === before) await wait();
      return frames[before]!;
    },
  };
}

/**
 * A v3 transaction as confirmed and finalized `transactions` events show it: decoded_opcode and
 * message_content.decoded null (streaming.md §3.4: toncenter's path for them skips the body decoder).
 */
function undecodedTx(tx: Json): Json {
  const undecoded = (m: Json | null) =>
    m && {
      ...m,
      decoded_opcode: null,
      message_content: m.message_content && { ...(m.message_content as Json), decoded: null },
    };
  return { ...tx, in_msg: undecoded(tx.in_msg as Json | null), out_msgs: (tx.out_msgs as Json[]).map(undecoded) };
}

describe('Streaming API v2: a transfer as it happens', () => {
  it('arrives pending, then finalized, with payloads equal to v3', async () => {
    const to = fresh('stream-transfer');
    const sender = users[0]!;
    const s = await openSse(`${f.base}${SSE}`, sub([raw(to), sender.raw], { min_finality: 'pending', id: 'a' }));
    expect(s.status, s.body).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    const connected = await s.next((x) => x.event === 'connected');
    expect(JSON.parse(connected.data)).toEqual({ id: 'a', status: 'subscribed' });

    // The trace by its key over a WebSocket, subscribed before the transfer is sent (the key is known from the body).
    const w = await openWs();
    const sending = sender.send(to, 50_000_000n, 'streamed');
    // The emulation's event (the confirmed feed's snapshot of the sender's block alone is labelled pending too, with
    // emulated: false transactions).
    const pending = await s.next((x) => {
      if (x.event !== 'event') return false;
      const j = JSON.parse(x.data) as { finality: string; transactions?: Array<{ emulated?: boolean }> };
      return j.finality === 'pending' && (j.transactions ?? []).every((t) => t.emulated);
    });
    const p = JSON.parse(pending.data) as Json;
    expect(p.type).toBe('transactions');
    expect(pending.id).toBeUndefined();
    const traceKey = await sending;
    expect(p.trace_external_hash_norm).toBe(traceKey);
    expect(
      await w.ask({ operation: 'subscribe', id: 't', types: ['trace'], trace_external_hash_norms: [traceKey] }),
    ).toEqual({
      id: 't',
      status: 'subscribed',
    });
    const finalTx = await s.next((x) => {
      const j = JSON.parse(x.data) as Json;
      return j.type === 'transactions' && j.finality === 'finalized' && j.trace_external_hash_norm === traceKey;
    });
    expect(finalTx.id).toMatch(/^c1\./);
    const fin = JSON.parse(finalTx.data) as { transactions: Json[] };
    // Both accounts are subscribed: the sender's transaction and the receiver's, lt descending.
    expect(fin.transactions.map((t) => t.account).sort()).toEqual([raw(to), sender.raw].sort());
    const lts = fin.transactions.map((t) => BigInt(String(t.lt)));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : 1)));
    // Equal to v3's, except that a finalized `transactions` event carries no decoded bodies (streaming.md §3.4):
    // decoded_opcode and message_content.decoded are null there, while v3 (and the trace map below) decode them.
    let decodedInV3 = 0;
    for (const t of fin.transactions) {
      const v3 = await f.get(`/api/v3/transactions?hash=${encodeURIComponent(String(t.hash))}`);
      const v3tx = v3.body.transactions[0] as Json;
      expect(t.finality).toBe('finalized');
      expect(t).toEqual(undecodedTx(v3tx));
      for (const m of [v3tx.in_msg as Json | null, ...(v3tx.out_msgs as Json[])]) {
        if ((m?.message_content as Json | null)?.decoded) decodedInV3++;
      }
    }
    // The comment's body at least is decoded in v3: the difference above is real.
    expect(decodedInV3).toBeGreaterThan(0);
    // The pending transactions were the emulation of the same ones.
    const pendingHashes = (p.transactions as Json[]).map((t) => t.account);
    expect(pendingHashes.sort()).toEqual([raw(to), sender.raw].sort());

    const actions = await s.next((x) => {
      const j = JSON.parse(x.data) as Json;
      return j.type === 'actions' && j.finality === 'finalized' && j.trace_external_hash_norm === traceKey;
    });
    const a = (JSON.parse(actions.data) as { actions: Json[] }).actions;
    const transfer = a.find((x) => x.type === 'ton_transfer');
    expect(transfer).toBeDefined();
    const v3a = await f.get(
      `/api/v3/actions?action_id=${encodeURIComponent(String(transfer!.action_id))}&include_accounts=true`,
    );
    expect(transfer).toEqual(v3a.body.actions[0]);
    expect((transfer!.details as Json).comment).toBe('streamed');

    // The trace: every transaction of it, the tree, its actions; equal to v3 /traces.
    const t = await w.next((j) => j.type === 'trace' && j.finality === 'finalized');
    expect(t.cursor).toMatch(/^c1\./);
    const v3t = (await f.get(`/api/v3/traces?msg_hash=${encodeURIComponent(traceKey)}&include_actions=true`)).body
      .traces[0];
    expect(Object.keys(t.transactions as Json).sort()).toEqual(Object.keys(v3t.transactions).sort());
    for (const [hash, tx] of Object.entries(t.transactions as Record<string, Json>)) {
      expect(tx).toEqual(v3t.transactions[hash]);
    }
    expect((t.trace as Json).tx_hash).toBe(v3t.trace.tx_hash);
    expect(((t.actions as Json[]) ?? []).map((x) => x.action_id).sort()).toEqual(
      (v3t.actions as Json[]).map((x) => x.action_id).sort(),
    );
    w.ws.close();
    s.close();
  });
});

describe('Streaming API v2: confirmed, from shard blocks before their masterchain commit', () => {
  it('sends the transfer confirmed before the masterchain block commits it, then finalized with the same data', async () => {
    const to = fresh('stream-confirmed');
    const sender = users[1]!;
    // When each masterchain block was published, with the shard blocks it committed.
    const commits: Array<{ at: number; shards: Array<{ workchain: number; shard: bigint; seqno: number }> }> = [];
    const off = f.node.onBlock((e) => {
      commits.push({ at: Date.now(), shards: e.shardBlocks.map((b) => ({ ...b })) });
    });
    // Two clients: one from pending up, one from confirmed up.
    const all = await openSse(`${f.base}${SSE}`, sub([raw(to), sender.raw], { min_finality: 'pending' }));
    const s = await openSse(
      `${f.base}${SSE}`,
      sub([raw(to), sender.raw], { min_finality: 'confirmed', types: ['transactions', 'account_state_change'] }),
    );
    await all.next((x) => x.event === 'connected');
    await s.next((x) => x.event === 'connected');
    const traceKey = await sender.send(to, 30_000_000n, 'confirmed');
    const isTrace = (finality: string) => (x: { data: string; event: string }) => {
      if (x.event !== 'event') return false;
      const j = JSON.parse(x.data) as Json;
      return j.type === 'transactions' && j.finality === finality && j.trace_external_hash_norm === traceKey;
    };
    // min_finality confirmed: no pending data; the first snapshot it gets holds both transactions (the sender's
    // alone still had a message to run, so it was labelled pending and held back).
    const confirmed = await s.next(isTrace('confirmed'), 30_000);
    const c = (JSON.parse(confirmed.data) as { transactions: Json[] }).transactions;
    expect(c.map((t) => t.account).sort()).toEqual([raw(to), sender.raw].sort());
    for (const t of c) expect([t.finality, t.emulated]).toEqual(['confirmed', false]);
    // Seen before the masterchain block that committed the receiver's transaction was published.
    const receiver = c.find((t) => t.account === raw(to))!;
    const ref = receiver.block_ref as { workchain: number; shard: string; seqno: number };
    const finalized = await s.next(isTrace('finalized'), 60_000);
    off();
    const commit = commits.find((m) =>
      m.shards.some(
        (b) =>
          b.workchain === ref.workchain && b.seqno === ref.seqno && b.shard.toString(16) === ref.shard.toLowerCase(),
      ),
    );
    expect(commit, `the masterchain block committing ${JSON.stringify(ref)}`).toBeDefined();
    expect(confirmed.receivedAt).toBeLessThan(commit!.at);
    expect(s.frames.indexOf(confirmed)).toBeLessThan(s.frames.indexOf(finalized));
    // The same transactions as the index has them, but for what only commitment gives.
    const fin = (JSON.parse(finalized.data) as { transactions: Json[] }).transactions;
    // Account states: the hashes (the rest comes from the index's account_states).
    const stable = (t: Json) => {
      const { finality: _f, mc_block_seqno: _m, emulated: _e, trace_external_hash: _x, ...rest } = t;
      const hashOf = (s: unknown) => (s as Json | null)?.hash ?? null;
      return {
        ...rest,
        account_state_before: hashOf(t.account_state_before),
        account_state_after: hashOf(t.account_state_after),
      };
    };
    for (const t of c) {
      const v3 = (await f.get(`/api/v3/transactions?hash=${encodeURIComponent(String(t.hash))}`)).body.transactions[0];
      expect(stable(t)).toEqual(stable(undecodedTx(v3)));
      expect(fin.find((x) => x.hash === t.hash)).toBeDefined();
    }
    // The sender's state as the shard block left it, confirmed, then the same state finalized.
    const state = (finality: string) => (x: { data: string; event: string }) => {
      if (x.event !== 'event') return false;
      const j = JSON.parse(x.data) as Json;
      return j.type === 'account_state_change' && j.finality === finality && j.account === sender.raw;
    };
    const sc = JSON.parse((await s.next(state('confirmed'), 30_000)).data) as { state: Json };
    const sf = JSON.parse((await s.next(state('finalized'), 60_000)).data) as { state: Json };
    const senderTx = c.find((t) => t.account === sender.raw)!;
    expect(sc.state.hash).toBe((senderTx.account_state_after as Json).hash);
    expect(sc.state).toEqual(sf.state);
    // The pending client: the emulation first, then the confirmed snapshot, then the finalized transactions.
    await all.next(isTrace('finalized'), 30_000);
    // (The emulation's event is the pending one whose transactions are emulated: a shard-block snapshot with work
    // left is labelled pending too.)
    const emulation = (x: (typeof all.frames)[number]) =>
      isTrace('pending')(x) && (JSON.parse(x.data).transactions as Json[]).every((t) => t.emulated === true);
    const seq = [
      all.frames.findIndex(emulation),
      all.frames.findIndex(isTrace('confirmed')),
      all.frames.findIndex(isTrace('finalized')),
    ];
    expect(seq.every((i) => i >= 0)).toBe(true);
    expect([...seq].sort((a, b) => a - b)).toEqual(seq);
    // The confirmed client got nothing below confirmed.
    expect(s.frames.filter(isTrace('pending'))).toHaveLength(0);
    all.close();
    s.close();
  });
});

describe('Streaming API v2: validation, byte for byte', () => {
  const A = `0:${'AB'.repeat(32)}`;
  const cases: Array<[Json, string, string]> = [
    [{ types: [] }, 'types are required for subscription', 'types are required'],
    [
      { types: ['trace_invalidated'], addresses: [A] },
      'invalid event type: trace_invalidated',
      'invalid event type: trace_invalidated',
    ],
    [{ types: ['transactions'], addresses: ['nope'] }, 'invalid address: nope', 'invalid address: nope'],
    [
      { types: ['trace'], trace_external_hash_norms: [' '] },
      'trace_external_hash_norms contains empty value',
      'trace_external_hash_norms contains empty value',
    ],
    [
      { types: ['transactions'], addresses: [A], trace_external_hash_norms: ['x'] },
      'trace_external_hash_norms requires type "trace"',
      'trace_external_hash_norms requires type "trace"',
    ],
    [
      { types: ['trace'] },
      'trace_external_hash_norms are required for trace subscription',
      'trace_external_hash_norms are required for trace subscription',
    ],
    [{ types: ['transactions'] }, 'addresses are required for subscription', 'addresses are required'],
  ];

  it('answers each SSE mistake 400 with its message and the id', async () => {
    for (const [body, sse] of cases) {
      const s = await openSse(`${f.base}${SSE}`, { id: 'v', ...body });
      expect(s.status, sse).toBe(400);
      expect(s.body).toBe(JSON.stringify({ id: 'v', error: sse }));
    }
    const bad = await openSse(`${f.base}${SSE}`, { types: ['transactions'], addresses: [A], min_finality: 'soon' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ error: 'invalid subscription request: unknown finality state: soon' });
    const form = await openSse(`${f.base}${SSE}`, null, {}, { contentType: 'text/plain', rawBody: 'x' });
    expect(form.status).toBe(400);
    expect(JSON.parse(form.body)).toEqual({ error: 'invalid subscription request: Unprocessable Entity' });
    const key = await openSse(`${f.base}${SSE}`, sub([A]), { 'x-api-key': 'tg_nope' });
    expect(key.status).toBe(401);
  });

  it('answers each WebSocket mistake with an error frame, echoing ids as toncenter does, and keeps the socket', async () => {
    const { ws, ask } = await openWs();
    for (const [body, , wsText] of cases) {
      expect(await ask({ operation: 'subscribe', id: 'w', ...body })).toEqual({ id: 'w', error: wsText });
    }
    expect(await ask({ operation: 'ping', id: 'ping-42' })).toEqual({ id: 'ping-42', status: 'pong' });
    expect(await ask({ operation: 'ping', id: '' })).toEqual({ id: '', status: 'pong' });
    expect(await ask({ operation: 'ping' })).toEqual({ status: 'pong' });
    expect(await ask({ operation: 'hello', id: '4' })).toEqual({ id: '4', error: 'unknown operation: hello' });
    expect((await ask('{not json')).error).toMatch(/^invalid request envelope: /);
    expect(await ask({ operation: 'unsubscribe', id: 'u' })).toEqual({
      id: 'u',
      error: 'addresses or trace_external_hash_norms are required',
    });
    expect(await ask({ operation: 'subscribe', id: '1', types: ['transactions'], addresses: [A] })).toEqual({
      id: '1',
      status: 'subscribed',
    });
    ws.close();
    // A plain GET of the WebSocket path.
    const plain = await fetch(`${f.base}${WS}`);
    expect(plain.status).toBe(426);
  });
});

describe('Streaming API v2: nothing lost', () => {
  it('replays the 20 finalized transfers a client missed while away for 10 s, in order and each once', async () => {
    const targets = Array.from({ length: 20 }, (_, i) => fresh(`resume-${i}`));
    const addresses = targets.map(raw);
    const first = await openSse(`${f.base}${SSE}`, { types: ['transactions'], addresses });
    await first.next((x) => x.event === 'connected');
    // One transfer seen live gives the client a cursor.
    await users[1]!.send(targets[0]!, 10_000_000n, 'before');
    const seen = await first.next((x) => x.event === 'event' && x.id !== undefined);
    const cursor = seen.id!;
    first.close();

    // 20 transfers land while the client is away (at least 10 s).
    const started = Date.now();
    const senders = users.slice(0, Math.min(users.length, 4));
    for (let round = 0; round < 20 / senders.length; round++) {
      await Promise.all(
        senders.map((w, i) => {
          const k = round * senders.length + i;
          return w.send(targets[k]!, 10_000_000n + BigInt(k), `missed ${k}`);
        }),
      );
    }
    const away = Date.now() - started;
    if (away < 10_000) await sleep(10_000 - away);
    // Wait until the index has them all final, so the replay (not the live feed) delivers them.
    for (let i = 0; i < 300; i++) {
      const r = await f.get(`/api/v3/transactions?account=${addresses.join(',')}&limit=100`);
      if ((r.body.transactions as Json[]).length >= 21) break;
      await sleep(200);
    }

    const back = await openSse(`${f.base}${SSE}`, { types: ['transactions'], addresses }, { 'last-event-id': cursor });
    expect(back.status).toBe(200);
    expect(JSON.parse((await back.next((x) => x.event === 'connected')).data)).toMatchObject({
      status: 'subscribed',
      resumed_from: cursor,
    });
    const comments: string[] = [];
    for (let k = 0; k < 20; k++) {
      const frame = await back.next((x) => {
        if (x.event !== 'event') return false;
        const t = (JSON.parse(x.data) as { transactions: Json[] }).transactions;
        return t.some((tx) => tx.account === addresses[k] && tx.finality === 'finalized');
      });
      comments.push(frame.id!);
    }
    await sleep(1000);
    const got = notifications(back).filter((n) => n.type === 'transactions');
    const hashes = got.flatMap((n) => (n.transactions as Json[]).map((t) => String(t.hash)));
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(hashes).toHaveLength(20);
    // In cursor order, all after the one the client had.
    const ids = back.frames.filter((x) => x.event === 'event').map((x) => x.id!);
    expect(ids).toEqual([...ids].sort(compareCursorText));
    expect(ids.every((id) => compareCursorText(id, cursor) > 0)).toBe(true);
    back.close();
  }, 240_000);

  it('closes a client that stops reading, and the others go on', async () => {
    const to = fresh('slow-reader');
    // A raw socket that sends the subscription and never reads: its kernel buffers fill, then ours.
    const url = new URL(f.base);
    const body = JSON.stringify({
      types: ['transactions', 'account_state_change'],
      addresses: [raw(to), users[0]!.raw],
    });
    const sock = createConnection({ host: url.hostname, port: Number(url.port) });
    sock.setNoDelay(true);
    await new Promise((r) => sock.once('connect', r));
    sock.write(
      `POST ${SSE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    sock.pause();
    const reader = await openSse(`${f.base}${SSE}`, { types: ['transactions'], addresses: [raw(to)] });
    await reader.next((x) => x.event === 'connected');
    const streams = f.server.streams!;
    const attached = streams.size();
    expect(attached).toBeGreaterThanOrEqual(2);
    await users[0]!.send(to, 10_000_000n, 'slow');
    await reader.next((x) => x.event === 'event');
    sock.destroy();
    reader.close();
  });
});

describe('Streaming API v2: account states and jettons', () => {
  it('streams account_state_change and jettons_change for the jetton activity, equal to v3 at the end', async () => {
    const entries = JSON.parse(await readFile(f.info.walletsFile, 'utf8')) as WalletsFileEntry[];
    const owners = entries.filter((w) => w.role !== 'user').map((w) => w.raw.toUpperCase());
    const s = await openSse(`${f.base}${SSE}`, {
      types: ['account_state_change', 'jettons_change'],
      addresses: owners,
      include_address_book: true,
    });
    expect(s.status, s.body).toBe(200);
    await s.next((x) => x.event === 'connected');
    const activity = await startActivity({
      pool: f.pool,
      wallets: f.info.walletsFile,
      seed: 'streaming-jettons',
      cycle: ['jetton-deploy', 'jetton-transfer', 'jetton-transfer'],
      steps: 3,
      intervalMs: 0,
      pollMs: 100,
      stepTimeoutMs: 60_000,
    });
    expect((await activity.done).failed).toBe(0);
    await s.next((x) => x.event === 'event' && JSON.parse(x.data).type === 'jettons_change');
    // Until the index has every block of the activity final: the last events are then the final states.
    const head = (await f.lite.getMasterchainInfo()).last.seqno;
    for (let i = 0; i < 300; i++) {
      const r = await f.get('/api/v3/masterchainInfo');
      if (r.body.last.seqno >= head + 2) break;
      await sleep(200);
    }
    await sleep(1500);
    const notes = notifications(s);
    const states = new Map<string, Json>();
    const jettons = new Map<string, Json>();
    for (const n of notes) {
      expect(n.finality).toBe('finalized');
      if (n.type === 'account_state_change') states.set(String(n.account), n.state as Json);
      if (n.type === 'jettons_change') {
        const j = n.jetton as Json;
        jettons.set(String(j.address), j);
        // The address book of a jettons_change names the wallet, its owner and the master.
        expect(Object.keys(n.address_book as Json).sort()).toEqual(
          [...new Set([String(j.address), String(j.owner), String(j.jetton)])].sort(),
        );
        expect(owners.includes(String(j.owner)) || owners.includes(String(j.address))).toBe(true);
      }
    }
    expect(states.size).toBeGreaterThan(0);
    expect(jettons.size).toBeGreaterThan(0);
    for (const [account, state] of states) {
      const v3 = await f.get(`/api/v3/accountStates?address=${encodeURIComponent(account)}&include_boc=false`);
      const row = v3.body.accounts[0] as Json;
      expect(state.balance).toBe(row.balance);
      expect(state.account_status).toBe(row.status);
      expect(state.code_hash).toBe(row.code_hash ?? null);
      expect(state.data_hash).toBe(row.data_hash ?? null);
    }
    for (const [address, wallet] of jettons) {
      const v3 = await f.get(`/api/v3/jetton/wallets?address=${encodeURIComponent(address)}`);
      expect(wallet).toEqual(v3.body.jetton_wallets[0]);
    }
    s.close();
  }, 240_000);
});

describe('Streaming API v2: keys and per-key limits (managed profile)', () => {
  let managed: ApiServer;
  let base: string;
  beforeAll(async () => {
    managed = await buildApiServer({
      db: f.db!.db,
      lite: f.pool,
      profile: 'managed',
      pending: false,
      streaming: {
        pollMs: 100,
        limits: { keyless: { connections: 1, addresses: 2 }, keyed: { connections: 2, addresses: 3 } },
      },
    });
    base = await managed.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await managed?.close();
  });

  it('counts connections per key (per IP without one) and subscribed addresses, as toncenter words them', async () => {
    const A = Array.from({ length: 4 }, (_, i) => raw(fresh(`limit-${i}`)));
    const many = await openSse(`${base}${SSE}`, { id: 'x', types: ['transactions'], addresses: A.slice(0, 3) });
    expect(many.status).toBe(400);
    expect(many.body).toBe(JSON.stringify({ id: 'x', error: 'too many addresses: 3 > max 2' }));
    const one = await openSse(`${base}${SSE}`, { types: ['transactions'], addresses: A.slice(0, 2) });
    expect(one.status).toBe(200);
    const two = await openSse(`${base}${SSE}`, { types: ['transactions'], addresses: A.slice(0, 1) });
    expect(two.status).toBe(429);
    expect(JSON.parse(two.body)).toEqual({ error: 'connection limit reached: 1 active connections' });
    one.close();
    // The slot is free again once the server saw the client go.
    let again = await openSse(`${base}${SSE}`, { types: ['transactions'], addresses: A.slice(0, 1) });
    for (let i = 0; i < 50 && again.status === 429; i++) {
      await sleep(100);
      again = await openSse(`${base}${SSE}`, { types: ['transactions'], addresses: A.slice(0, 1) });
    }
    expect(again.status).toBe(200);
    again.close();

    const { key } = await managed.keys!.create('streaming limits', null);
    const keyed = [0, 1].map(() =>
      openSse(`${base}${SSE}`, { types: ['transactions'], addresses: A.slice(0, 3) }, { 'x-api-key': key }),
    );
    for (const k of await Promise.all(keyed)) expect(k.status).toBe(200);
    const third = await openSse(`${base}${SSE}?api_key=${encodeURIComponent(key)}`, {
      types: ['transactions'],
      addresses: A.slice(0, 1),
    });
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toEqual({ error: 'connection limit reached: 2 active connections' });
    for (const k of await Promise.all(keyed)) k.close();

    // WebSocket: the key on the URL; over the limit the upgrade succeeds, one error frame, then the drop.
    const wsUrl = `${base.replace('http', 'ws')}${WS}?api_key=${encodeURIComponent(key)}`;
    const w1 = new WebSocket(wsUrl);
    await new Promise((r) => w1.once('open', r));
    const got: string[] = [];
    w1.on('message', (d) => got.push(String(d)));
    w1.send(JSON.stringify({ operation: 'subscribe', id: 's', types: ['transactions'], addresses: A }));
    for (let i = 0; i < 50 && got.length === 0; i++) await sleep(50);
    expect(JSON.parse(got[0]!)).toEqual({ id: 's', error: 'address limit exceeded: current 0 + new 4 > max 3' });
    const w2 = new WebSocket(wsUrl);
    const w3 = new WebSocket(wsUrl);
    const third3 = await new Promise<{ frames: string[]; code: number }>((resolve) => {
      const frames: string[] = [];
      const watch = (w: WebSocket) => {
        w.on('message', (d) => frames.push(String(d)));
        w.on('close', (code) => {
          if (frames.length > 0) resolve({ frames, code });
        });
      };
      watch(w2);
      watch(w3);
    });
    expect(third3.frames).toEqual([JSON.stringify({ error: 'connection limit reached: 2 active connections' })]);
    expect(third3.code).toBe(1006);
    for (const w of [w1, w2, w3]) w.terminate();
    const refused = await new Promise<number>((resolve) => {
      const w = new WebSocket(`${base.replace('http', 'ws')}${WS}`, { headers: { 'x-api-key': 'tg_nope' } });
      w.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      w.on('error', () => {});
    });
    expect(refused).toBe(401);
  });
});

/** Cursor text order = replay order (c1.<mc seqno>.<key>.<part>). */
function compareCursorText(a: string, b: string): number {
  const [, am, ak, ap] = a.split('.');
  const [, bm, bk, bp] = b.split('.');
  if (Number(am) !== Number(bm)) return Number(am) - Number(bm);
  const ka = Buffer.from(ak!, 'base64url').toString();
  const kb = Buffer.from(bk!, 'base64url').toString();
  if (ka !== kb) return ka < kb ? -1 : 1;
  return Number(ap) - Number(bp);
}

describe('Streaming API v2: pending data that does not land is retracted', () => {
  it('sends trace_invalidated to a client given the pending trace once it expires unseen by the index', async () => {
    // The index stops, so the trace is not in it when its pending row expires (1.5 s here, 60 s by default): the
    // emulation is retracted, as toncenter's TTL tracker retracts expired emulated traces.
    await indexer?.stop();
    const resumeFrom = indexer?.indexed() ?? f.indexedThrough;
    const short = await buildApiServer({
      db: f.db!.db,
      lite: f.pool,
      pending: { ttlMs: 1500, sweepIntervalMs: 300 },
      streaming: { pollMs: 100 },
    });
    try {
      const base = await short.app.listen({ port: 0, host: '127.0.0.1' });
      const to = fresh('never-indexed');
      const armed = await openSse(`${base}${SSE}`, {
        types: ['transactions'],
        addresses: [raw(to)],
        min_finality: 'pending',
      });
      const finalOnly = await openSse(`${base}${SSE}`, { types: ['transactions'], addresses: [raw(to)] });
      await armed.next((x) => x.event === 'connected');
      await finalOnly.next((x) => x.event === 'connected');
      const [w] = await openUserWallets(f.info.walletsFile);
      const viaShort = new TonClient({ endpoint: `${base}/api/v2/jsonRPC` });
      const traceKey = await sendTransfer(
        viaShort,
        w!,
        [internal({ to, value: 10_000_000n, bounce: false, body: 'gone' })],
        20_000,
      );
      const pending = await armed.next((x) => x.event === 'event');
      expect(JSON.parse(pending.data)).toMatchObject({
        type: 'transactions',
        finality: 'pending',
        trace_external_hash_norm: traceKey,
      });
      const retracted = await armed.next(
        (x) => x.event === 'event' && JSON.parse(x.data).type === 'trace_invalidated',
        30_000,
      );
      expect(JSON.parse(retracted.data)).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: traceKey });
      // A client that was never given pending data of the trace is not told.
      await sleep(500);
      expect(notifications(finalOnly)).toEqual([]);
      armed.close();
      finalOnly.close();
    } finally {
      await short.close();
      indexer = startIndexLoop({
        pool: f.pool,
        head: f.lite,
        db: f.db!.db,
        from: resumeFrom,
        contracts,
        intervalMs: 200,
        onError: (e) => console.warn(`streaming test indexer: ${e.message}`),
      });
    }
  });
});
