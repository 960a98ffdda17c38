// Issue 20, the parts that need several processes or load: the Streaming API v2 over a live devnet (500 ms blocks,
// user wallets in genesis), a fresh PostgreSQL index kept current by the index worker's loop run here (every block
// indexed, traces assembled, what became final classified), and real clients over HTTP:
//  (a) two `tongate serve` processes on one Redis (a pub/sub channel of this run's own, TONGATE_STREAM_CHANNEL):
//      a transfer sent through process A's v2 is emulated by A only, yet the pending `transactions` event reaches a
//      client of B too (through Redis), and both clients get the same finalized events with the same cursors and
//      the same JSON, byte for byte; a client that had a cursor from A resumes on B with Last-Event-ID and gets
//      exactly what B's own client got after that cursor;
//  (b) 200 SSE clients on one `tongate serve` process (150 on one pair of addresses, 50 on another): every client
//      gets every finalized event of its addresses exactly once, and none of the others'; the process's RSS is
//      printed idle, with the 200 connected and after the events (figures only: the machine is shared, nothing
//      about time or memory is asserted);
//  (c) a client that stops reading (a raw socket that sends its subscription and never reads) on a server whose
//      bound is 1 MiB: while transfers flow it is closed once its unsent bytes pass the bound, its last frame being
//      `event: error` and its response ending, while a client that reads, on the same server and the same
//      subscription, gets every event, pending and finalized, once. (The same at the transport level, SSE and
//      WebSocket, with a 64 KiB bound: src/api/streaming/sse.test.ts and ws.test.ts.)
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { Address, internal } from '@ton/core';
import { TonClient } from '@ton/ton';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { migrate } from '../../src/db/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../../src/lite/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';
import { type IndexLoop, startIndexLoop } from '../helpers/index-loop.ts';
import { openSse, type SseFrame, type SseStream } from '../helpers/sse-client.ts';
import { openUserWallets, sendTransfer } from '../helpers/user-wallets.ts';

const SSE = '/api/streaming/v2/sse';
const REDIS_URL = process.env.TONGATE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
type Json = Record<string, unknown>;

interface UserWallet {
  version: string;
  address: Address;
  raw: string;
  /**
   * A transfer to each of `to` (one external message; v4 takes at most 4) signed here and sent with @ton/ton through
   * `client` (our v2 JSON-RPC); resolves with its trace key once the wallet's seqno moved.
   */
  send(client: TonClient, to: Address[], value: bigint, comment: string): Promise<string>;
}

let chain: DevnetChain;
let pool: LitePool;
let t: TestDatabase;
let users: UserWallet[];
let indexer: IndexLoop | undefined;
const children: Child[] = [];
const servers: ApiServer[] = [];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RUN = randomBytes(4).toString('hex');
/** A fresh address nobody else sends to (a hash of this run and a label). */
const fresh = (label: string) => new Address(0, createHash('sha256').update(`${RUN} ${label}`).digest());

/** `tongate serve` on this run's devnet, database and Redis channel; resolves with its base URL once it listens. */
async function startServe(channel: string): Promise<{ child: Child; base: string }> {
  const child = startTongate(
    ['serve', '--lite-config', chain.info.globalConfigFile, '--port', '0', '--host', '127.0.0.1'],
    {
      DATABASE_URL: t.config.kind === 'postgres' ? t.config.url : undefined,
      REDIS_URL,
      TONGATE_STREAM_CHANNEL: channel,
    },
  );
  children.push(child);
  const line = await child.waitFor(/^ops\s+http:\/\/127\.0\.0\.1:\d+\/healthz/, 120_000);
  return { child, base: `http://127.0.0.1:${/127\.0\.0\.1:(\d+)/.exec(line)?.[1]}` };
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const isEvent = (x: SseFrame) => x.event === 'event';
const json = (x: SseFrame) => JSON.parse(x.data) as Json;
/** The stream's frames of one trace at one finality, by notification type. */
const frameOf = (type: string, finality: string, traceKey: string) => (x: SseFrame) => {
  if (!isEvent(x)) return false;
  const j = json(x);
  return j.type === type && j.finality === finality && j.trace_external_hash_norm === traceKey;
};
/**
 * The send path's emulation of a trace (a `transactions` event whose transactions are all emulated): the confirmed
 * feed's shard-block snapshots may be labelled pending too while the trace has work left, as toncenter labels them,
 * and carry emulated: false.
 */
const emulatedOf = (traceKey: string) => (x: SseFrame) =>
  frameOf('transactions', 'pending', traceKey)(x) &&
  (json(x).transactions as Array<{ emulated?: boolean }>).every((t) => t.emulated);
const finalized = (s: SseStream) => s.frames.filter((x) => isEvent(x) && x.id !== undefined);

beforeAll(async () => {
  chain = await startDevnetChain({ seed: 'streaming-scale', steps: 0, blockIntervalMs: 500, userWalletsPerVersion: 2 });
  pool = createLitePool({ servers: (await loadGlobalConfig(chain.info.globalConfigFile)).liteservers });
  await pool.ready({ timeoutMs: 10_000 });
  t = await setupDatabase('postgres');
  await migrate(t.db);
  // The index worker's loop: every published block indexed, traces assembled, what became final classified.
  indexer = startIndexLoop({ pool, db: t.db, from: 0, intervalMs: 100 });
  users = (await openUserWallets(chain.info.walletsFile)).map(
    (w): UserWallet => ({
      version: w.version,
      address: w.address,
      raw: w.raw,
      send: (client, to, value, comment) =>
        sendTransfer(
          client,
          w,
          to.map((a) => internal({ to: a, value, bounce: false, body: comment })),
          30_000,
        ),
    }),
  );
  expect(users.length).toBeGreaterThanOrEqual(4);
  // Until the index has caught up with the chain.
  for (let i = 0; i < 600 && indexer.indexed() < (await pool.getMasterchainInfo()).last.seqno; i++) await sleep(100);
}, 180_000);

afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {});
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
  await Promise.all(children.map((c) => c.exited));
  await indexer?.stop();
  await pool?.close();
  await t?.cleanup();
  await chain?.node.stop();
  if (chain) await rm(chain.dir, { recursive: true, force: true });
});

describe('Streaming API v2 across processes and under load', () => {
  let a: { child: Child; base: string };
  let b: { child: Child; base: string };

  beforeAll(async () => {
    const channel = `tongate:streaming:v2:test-${RUN}`;
    [a, b] = await Promise.all([startServe(channel), startServe(channel)]);
  }, 180_000);

  it('two serve processes on one Redis give the same pending and finalized events, and a cursor of one resumes on the other', async () => {
    const to = fresh('two-processes');
    const sender = users[0]!;
    const subscription = {
      types: ['transactions', 'actions', 'account_state_change'],
      addresses: [raw(to), sender.raw],
      min_finality: 'pending',
    };
    const onA = await openSse(`${a.base}${SSE}`, subscription);
    const onB = await openSse(`${b.base}${SSE}`, subscription);
    expect([onA.status, onB.status], onA.body + onB.body).toEqual([200, 200]);
    await Promise.all([onA.next((x) => x.event === 'connected'), onB.next((x) => x.event === 'connected')]);
    // Each process's finalized feed starts at the index's head when it started: give both a poll.
    await sleep(1000);

    // Only A sees the message (its v2 sendBoc), so only A emulates it; B has the pending event from Redis.
    const viaA = new TonClient({ endpoint: `${a.base}/api/v2/jsonRPC` });
    const traceKey = await sender.send(viaA, [to], 30_000_000n, 'two processes');
    const pendingA = await onA.next(emulatedOf(traceKey));
    const pendingB = await onB.next(emulatedOf(traceKey));
    expect(pendingA.id).toBeUndefined();
    expect(pendingB.data).toBe(pendingA.data);
    expect((json(pendingA).transactions as Json[]).map((x) => x.account).sort()).toEqual([raw(to), sender.raw].sort());

    for (const s of [onA, onB]) {
      await s.next(frameOf('transactions', 'finalized', traceKey));
      await s.next(frameOf('actions', 'finalized', traceKey));
      await s.next((x) => isEvent(x) && json(x).type === 'account_state_change' && json(x).account === raw(to));
    }
    // Both feeds have read the same blocks by now.
    await sleep(1500);
    const finalA = finalized(onA);
    const finalB = finalized(onB);
    expect(finalA.length).toBeGreaterThanOrEqual(4);
    expect(finalB.map((x) => [x.id, x.data])).toEqual(finalA.map((x) => [x.id, x.data]));
    // Pending events (A's emulation, shared through Redis) were the same on both too, in the same order. The
    // confirmed feed's events (also without a cursor) are each process's own reading of its liteserver, delivered
    // locally: they arrive at each process's pace, so they are left out here (streaming.test.ts checks them).
    const fromEmulation = (x: SseFrame) => {
      if (!isEvent(x) || x.id !== undefined) return false;
      const j = json(x);
      if (j.finality !== 'pending') return false;
      return j.type !== 'transactions' || (j.transactions as Array<{ emulated?: boolean }>).every((t) => t.emulated);
    };
    const pendingOf = (s: SseStream) => s.frames.filter(fromEmulation).map((x) => x.data);
    expect(pendingOf(onA).length).toBeGreaterThanOrEqual(2);
    expect(pendingOf(onB)).toEqual(pendingOf(onA));

    // The client on A goes away with its last cursor; a second transfer lands; it comes back on B.
    const cursor = finalized(onA).at(-1)!.id!;
    onA.close();
    const second = await sender.send(viaA, [to], 40_000_000n, 'while away');
    await onB.next(frameOf('transactions', 'finalized', second));
    await onB.next(frameOf('actions', 'finalized', second));
    await sleep(1500);
    const back = await openSse(`${b.base}${SSE}`, subscription, { 'last-event-id': cursor });
    expect(back.status, back.body).toBe(200);
    expect(json(await back.next((x) => x.event === 'connected'))).toMatchObject({
      status: 'subscribed',
      resumed_from: cursor,
    });
    await back.next(frameOf('actions', 'finalized', second));
    await sleep(1500);
    // What B's own client got after that cursor (the cursors are the same on both processes).
    const onBFinal = finalized(onB);
    const missed = onBFinal.slice(onBFinal.findIndex((x) => x.id === cursor) + 1);
    expect(onBFinal.some((x) => x.id === cursor)).toBe(true);
    expect(missed.length).toBeGreaterThanOrEqual(2);
    expect(finalized(back).map((x) => [x.id, x.data])).toEqual(missed.map((x) => [x.id, x.data]));
    back.close();
    onB.close();
  }, 120_000);

  it('200 SSE clients on one process: each gets every finalized event of its addresses exactly once', async () => {
    const [w1, w2] = [users[1]!, users[2]!];
    const [d1, d2] = [fresh('fan-out-1'), fresh('fan-out-2')];
    const groups = [
      { clients: 150, sender: w1, to: d1, transfers: 3 },
      { clients: 50, sender: w2, to: d2, transfers: 2 },
    ];
    const pid = a.child.proc.pid!;
    const idle = await rssMiB(pid);
    const streams = await Promise.all(
      groups.map((g) =>
        Promise.all(
          Array.from({ length: g.clients }, () =>
            openSse(`${a.base}${SSE}`, { types: ['transactions', 'actions'], addresses: [g.sender.raw, raw(g.to)] }),
          ),
        ),
      ),
    );
    const all = streams.flat();
    expect(all.map((s) => s.status).every((s) => s === 200)).toBe(true);
    await Promise.all(all.map((s) => s.next((x) => x.event === 'connected')));
    await sleep(1000);
    const connected = await rssMiB(pid);

    const viaA = new TonClient({ endpoint: `${a.base}/api/v2/jsonRPC` });
    const keys = await Promise.all(
      groups.map(async (g) => {
        const out: string[] = [];
        for (let i = 0; i < g.transfers; i++) out.push(await g.sender.send(viaA, [g.to], 10_000_000n, `fan-out ${i}`));
        return out;
      }),
    );
    for (const [gi, g] of groups.entries()) {
      const last = keys[gi]!.at(-1)!;
      await Promise.all(streams[gi]!.map((s) => s.next(frameOf('actions', 'finalized', last), 90_000)));
      expect(streams[gi]!.length).toBe(g.clients);
    }
    await sleep(1500);
    const after = await rssMiB(pid);

    for (const [gi, group] of streams.entries()) {
      const mine = new Set(keys[gi]);
      const theirs = new Set(keys.flat().filter((k) => !mine.has(k)));
      const reference = finalized(group[0]!).map((x) => [x.id, x.data]);
      for (const s of group) {
        const frames = finalized(s);
        // Exactly once: no cursor twice; the same events, in the same order, as every other client of the group.
        expect(new Set(frames.map((x) => x.id)).size).toBe(frames.length);
        expect(frames.map((x) => [x.id, x.data])).toEqual(reference);
        const seen = frames.map(json);
        for (const key of mine) {
          for (const type of ['transactions', 'actions']) {
            expect(seen.filter((j) => j.type === type && j.trace_external_hash_norm === key)).toHaveLength(1);
          }
        }
        expect(seen.some((j) => theirs.has(String(j.trace_external_hash_norm)))).toBe(false);
        // Default min_finality: nothing pending.
        expect(s.frames.filter(isEvent).length).toBe(frames.length);
      }
    }
    const events = new Set(all.flatMap((s) => finalized(s).map((x) => x.id))).size;
    const delivered = all.reduce((n, s) => n + finalized(s).length, 0);
    console.log(
      `streaming: 200 SSE clients: rss ${idle.toFixed(1)} MiB idle, ${connected.toFixed(1)} MiB connected, ${after.toFixed(1)} MiB after ${events} events (${delivered} deliveries)`,
    );
    for (const s of all) s.close();
  }, 180_000);
});

describe('Streaming API v2: a client that stops reading', () => {
  const MAX_BUFFERED = 1024 * 1024;
  let server: ApiServer;
  let base: string;
  const log: Json[] = [];

  beforeAll(async () => {
    server = await buildApiServer({
      db: t.db,
      lite: pool,
      streaming: { pollMs: 100, maxBufferedBytes: MAX_BUFFERED },
      // Debug lines say why each stream closed.
      logger: pino({ level: 'debug' }, { write: (line: string) => void log.push(JSON.parse(line) as Json) }),
    });
    servers.push(server);
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    await server.streams!.ready();
  });

  it('is closed with `event: error` once its unsent bytes pass the bound; a client that reads gets every event', async () => {
    // Transfers to many fresh addresses (40 a v5 transfer, 4 a v4 one), both clients subscribed to all of them and
    // the senders, with pending events, address books and metadata: about 0.7 MB of events a round of 4 transfers,
    // in frames of up to 120 KB. The kernel takes about 4 MB of a loopback socket nobody reads before our buffer
    // grows, so this takes several rounds. The bound is 1 MiB (the default is 4): the hub writes a block's events to
    // a connection in one pass, and the reader here shares the server's event loop, so one block's burst (a few
    // hundred KB here) must fit under the bound plus the kernel's buffers even for a client that reads.
    const fanOut = (w: UserWallet, round: number) =>
      Array.from({ length: w.version === 'v5r1' ? 40 : 4 }, (_, i) => fresh(`slow-${w.raw}-${round}-${i}`));
    const ROUNDS = 24;
    const targets = Array.from({ length: ROUNDS }, (_, r) => users.map((w) => fanOut(w, r)));
    const subscription = {
      types: ['transactions', 'actions', 'account_state_change'],
      addresses: [...users.map((w) => w.raw), ...targets.flat(2).map(raw)],
      min_finality: 'pending',
      include_address_book: true,
      include_metadata: true,
    };
    const body = JSON.stringify(subscription);
    const url = new URL(base);
    const sock = createConnection({ host: url.hostname, port: Number(url.port) });
    await new Promise((r) => sock.once('connect', r));
    sock.pause();
    sock.write(
      `POST ${SSE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const reader = await openSse(`${base}${SSE}`, subscription);
    expect(reader.status, reader.body).toBe(200);
    await reader.next((x) => x.event === 'connected');
    for (let i = 0; i < 50 && server.streams!.size() < 2; i++) await sleep(100);
    expect(server.streams!.size()).toBe(2);

    const tooSlow = () => log.some((l) => String(l.reason ?? '').startsWith('client too slow'));
    // Once the server closed it, the slow client reads again: the `event: error` frame is the last thing it gets.
    let received = '';
    sock.on('error', () => {});
    sock.on('data', (d: Buffer) => {
      received += d.toString('latin1');
    });
    let stopWatching = false;
    const watcher = (async () => {
      while (!tooSlow() && !stopWatching) await sleep(20);
      sock.resume();
    })();

    const client = new TonClient({ endpoint: `${base}/api/v2/jsonRPC` });
    const sent: string[] = [];
    let rounds = 0;
    while (!tooSlow() && rounds < ROUNDS) {
      sent.push(
        ...(await Promise.all(
          users.map((w, i) => w.send(client, targets[rounds]![i]!, 10_000_000n, `slow ${rounds}`)),
        )),
      );
      rounds++;
    }
    // One more round after the close: the reader goes on.
    if (rounds < ROUNDS) {
      sent.push(
        ...(await Promise.all(users.map((w, i) => w.send(client, targets[rounds]![i]!, 10_000_000n, 'after')))),
      );
      rounds++;
    }
    stopWatching = true;
    await watcher;
    expect(tooSlow(), `not closed after ${rounds} rounds`).toBe(true);
    expect(server.streams!.size()).toBe(1);
    // Its last frame and the end of the response, read now that it reads again.
    for (let i = 0; i < 100 && !dechunk(body0(received)).complete; i++) await sleep(50);

    // The slow client's stream: 200, chunked, then frames, then the error frame, then the end of the response.
    expect(received.startsWith('HTTP/1.1 200')).toBe(true);
    const decoded = dechunk(body0(received));
    expect(decoded.complete, 'the response ends with its last chunk').toBe(true);
    const frames = decoded.text.split('\n\n').filter((f) => f.length > 0);
    const lastFrame = frames.at(-1)!;
    expect(lastFrame.startsWith('event: error\ndata: ')).toBe(true);
    expect(JSON.parse(lastFrame.slice('event: error\ndata: '.length)).error).toMatch(
      new RegExp(`^client too slow: more than ${MAX_BUFFERED} bytes of events unsent`),
    );
    // Events, and the keepalive comment every 15 s when a slow machine makes the test run that long.
    expect(frames.slice(0, -1).every((f) => f.startsWith('event: ') || f === ': keepalive')).toBe(true);

    // The reader got every transfer, pending and finalized, each once.
    for (const key of sent) {
      await reader.next(frameOf('actions', 'finalized', key), 90_000);
    }
    await sleep(1000);
    expect(reader.frames.filter((x) => x.event === 'error')).toHaveLength(0);
    // Pending: the send path's emulation once.
    for (const key of sent) {
      expect(reader.frames.filter(emulatedOf(key)), `pending ${key}`).toHaveLength(1);
      expect(reader.frames.filter(frameOf('transactions', 'finalized', key)), `finalized ${key}`).toHaveLength(1);
    }
    const ids = finalized(reader).map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    const readerBytes = reader.frames.reduce((n, x) => n + x.data.length, 0);
    console.log(
      `streaming: slow client closed after ${rounds} rounds of ${users.length} transfers; it took ${(decoded.text.length / 2 ** 20).toFixed(1)} MiB, the reader ${(readerBytes / 2 ** 20).toFixed(1)} MiB in ${reader.frames.length} frames`,
    );
    reader.close();
    sock.destroy();
  }, 240_000);
});

/** What follows the head of an HTTP response. */
function body0(response: string): string {
  const at = response.indexOf('\r\n\r\n');
  return at < 0 ? '' : response.slice(at + 4);
}

/** The body of a chunked HTTP response: its text, and whether the terminating zero-length chunk came. */
function dechunk(s: string): { text: string; complete: boolean } {
  let text = '';
  let at = 0;
  for (;;) {
    const eol = s.indexOf('\r\n', at);
    if (eol < 0) return { text, complete: false };
    const size = Number.parseInt(s.slice(at, eol), 16);
    if (!Number.isFinite(size)) return { text, complete: false };
    if (size === 0) return { text, complete: true };
    text += s.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
