// Protocol abuse: each misbehaving peer is disconnected and counted, while a well-behaved client connected
// beforehand keeps being served during and after. Nothing a peer sends may crash the process (vitest fails
// the run on any uncaught exception or unhandled rejection).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AdnlClient,
  AdnlServer,
  type AdnlServerStats,
  createClientHandshake,
  decodeAdnlMessage,
  encodeAdnlMessage,
  encodeFrame,
  generateKeyPair,
} from '../../src/adnl/index.ts';
import { type Deferred, deferred, rawConnect, rawSession } from '../helpers/adnl.ts';

const key = generateKeyPair();

async function startServer(opts: Partial<ConstructorParameters<typeof AdnlServer>[0]> = {}) {
  const server = new AdnlServer({
    keys: [key],
    onQuery: async (q) => Buffer.concat([Buffer.from('ok:'), q]),
    ...opts,
  });
  const { port } = await server.listen();
  return { server, port };
}

async function expectServed(c: AdnlClient): Promise<void> {
  const q = randomBytes(16);
  expect((await c.query(q)).equals(Buffer.concat([Buffer.from('ok:'), q]))).toBe(true);
}

function plainHeader(len: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(len, 0);
  return b;
}

function delta(before: AdnlServerStats, after: AdnlServerStats): Partial<AdnlServerStats> {
  const out: Partial<AdnlServerStats> = {};
  for (const k of Object.keys(after) as (keyof AdnlServerStats)[]) {
    if (after[k] !== before[k]) out[k] = after[k] - before[k];
  }
  return out;
}

describe('AdnlServer under protocol abuse', () => {
  let server: AdnlServer;
  let port: number;
  let good: AdnlClient;

  beforeAll(async () => {
    ({ server, port } = await startServer({ maxSendQueueBytes: 4 * 1024 * 1024 }));
    good = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
    await expectServed(good);
  });
  afterAll(async () => {
    good.close();
    await server.close();
  });

  it('closes a handshake for a key id it does not hold', async () => {
    const before = server.stats();
    const conn = await rawConnect(port);
    conn.socket.write(createClientHandshake(generateKeyPair().publicKey).packet);
    expect(await conn.outcome).toBe('closed');
    expect(delta(before, server.stats())).toEqual({ accepted: 1, rejected: 1 });
    await expectServed(good);
  });

  it('closes a handshake whose digest does not match the parameters', async () => {
    const before = server.stats();
    const conn = await rawConnect(port);
    const packet = Buffer.from(createClientHandshake(key.publicKey).packet);
    packet[64]! ^= 0xff;
    conn.socket.write(packet);
    expect(await conn.outcome).toBe('closed');
    expect(delta(before, server.stats())).toEqual({ accepted: 1, rejected: 1 });
    await expectServed(good);
  });

  it('closes a connection that sends garbage', async () => {
    const before = server.stats();
    const conn = await rawConnect(port);
    conn.socket.write(randomBytes(1000));
    expect(await conn.outcome).toBe('closed');
    expect(delta(before, server.stats())).toEqual({ accepted: 1, rejected: 1 });
    await expectServed(good);
  });

  it('closes a session on a bad checksum', async () => {
    const s = await rawSession(port, key.publicKey);
    const before = server.stats();
    const payload = encodeAdnlMessage({ _: 'adnl.message.query', queryId: randomBytes(32), query: Buffer.from('x') });
    const checksum = randomBytes(32); // not SHA-256(nonce ‖ payload)
    s.sendPlain(Buffer.concat([plainHeader(64 + payload.length), randomBytes(32), payload, checksum]));
    await s.closed;
    expect(s.packets).toEqual([]);
    expect(delta(before, server.stats())).toEqual({ protocolErrors: 1 });
    await expectServed(good);
  });

  it('closes a session that announces a packet over the size limit, without waiting for its bytes', async () => {
    const s = await rawSession(port, key.publicKey);
    const before = server.stats();
    s.sendPlain(plainHeader((1 << 24) + 1));
    await s.closed;
    expect(delta(before, server.stats())).toEqual({ protocolErrors: 1 });
    await expectServed(good);
  });

  it('closes a session that announces a packet shorter than 64 bytes', async () => {
    const s = await rawSession(port, key.publicKey);
    const before = server.stats();
    s.sendPlain(Buffer.concat([plainHeader(10), randomBytes(10)]));
    await s.closed;
    expect(delta(before, server.stats())).toEqual({ protocolErrors: 1 });
    await expectServed(good);
  });

  it('closes a session on a well-framed packet that is not a query or ping', async () => {
    for (const payload of [
      randomBytes(40),
      Buffer.concat([Buffer.from('00000000', 'hex'), randomBytes(8)]), // 12 bytes, but not tcp.ping
      encodeAdnlMessage({ _: 'adnl.message.answer', queryId: randomBytes(32), answer: Buffer.from('?') }),
      encodeAdnlMessage({ _: 'tcp.pong', randomId: 1n }),
    ]) {
      const s = await rawSession(port, key.publicKey);
      const before = server.stats();
      s.send(payload);
      await s.closed;
      expect(delta(before, server.stats())).toEqual({ protocolErrors: 1 });
    }
    await expectServed(good);
  });

  it('drops a reader that lets answers pile up past maxSendQueueBytes', async () => {
    // A second server whose answers are 2 MiB each; the shared one keeps serving `good` meanwhile.
    const answerBytes = 2 * 1024 * 1024;
    const logged: string[] = [];
    const big = await startServer({
      maxSendQueueBytes: 4 * 1024 * 1024,
      onQuery: async () => Buffer.alloc(answerBytes, 1),
      log: (level, msg) => logged.push(`${level}: ${msg}`),
    });
    const slow = await rawSession(big.port, key.publicKey);
    slow.socket.pause(); // never read again: the kernel buffers fill, then the server's send queue grows
    try {
      for (let i = 0; i < 40; i++) {
        slow.send(encodeAdnlMessage({ _: 'adnl.message.query', queryId: randomBytes(32), query: Buffer.from([i]) }));
      }
      await vi.waitFor(() => expect(big.server.stats().overflowClosed).toBe(1), { timeout: 30_000 });
      expect(big.server.connectionCount).toBe(0);
      expect(big.server.stats().answers).toBeLessThan(40);
      expect(logged).toContain('warn: Dropped slow ADNL reader');
      await expectServed(good);
      // the same server still serves a client that reads
      const reader = await AdnlClient.connect({ host: '127.0.0.1', port: big.port, serverPublicKey: key.publicKey });
      expect((await reader.query(Buffer.from('r'))).length).toBe(answerBytes);
      reader.close();
    } finally {
      slow.socket.destroy();
      await big.server.close();
    }
  });

  it('serves 200 concurrent clients, one query each', async () => {
    const before = server.stats();
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const c = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
        try {
          const q = Buffer.from(`client-${i}`);
          return (await c.query(q)).toString() === `ok:client-${i}`;
        } finally {
          c.close();
        }
      }),
    );
    expect(results.every(Boolean)).toBe(true);
    const d = delta(before, server.stats());
    expect(d).toMatchObject({ accepted: 200, handshakes: 200, queries: 200, answers: 200 });
    expect(d.rejected ?? 0).toBe(0);
    await expectServed(good);
  });

  it('answers a ping sent between queries', async () => {
    const s = await rawSession(port, key.publicKey);
    try {
      s.send(encodeAdnlMessage({ _: 'tcp.ping', randomId: -5n }));
      expect(decodeAdnlMessage(await s.next())).toEqual({ _: 'tcp.pong', randomId: -5n });
    } finally {
      s.socket.destroy();
    }
  });
});

describe('AdnlServer timeouts and limits', () => {
  it('closes a connection that never completes the handshake', async () => {
    const { server, port } = await startServer({ handshakeTimeoutMs: 200 });
    try {
      const silent = await rawConnect(port);
      const partial = await rawConnect(port);
      partial.socket.write(createClientHandshake(key.publicKey).packet.subarray(0, 100));
      // a good client is served while both wait
      const good = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
      await expectServed(good);
      await silent.closed;
      await partial.closed;
      expect(server.stats()).toMatchObject({ accepted: 3, rejected: 2, handshakes: 1 });
      await expectServed(good); // past the handshake, the handshake timer no longer applies
      good.close();
    } finally {
      await server.close();
    }
  });

  it('closes a half-open session after the idle timeout, but not one waiting for answers', async () => {
    const gate = deferred<void>();
    const { server, port } = await startServer({
      idleTimeoutMs: 200,
      onQuery: async (q) => {
        if (q.toString() === 'wait') await gate.promise;
        return Buffer.concat([Buffer.from('ok:'), q]);
      },
    });
    try {
      const halfOpen = await rawSession(port, key.publicKey);
      const waiting = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
      const answer = waiting.query(Buffer.from('wait'), 30_000);
      await halfOpen.closed;
      expect(server.stats().idleClosed).toBe(1);
      // the connection with a query in flight outlived the idle timeout
      expect(waiting.closed).toBe(false);
      gate.resolve();
      expect((await answer).toString()).toBe('ok:wait');
      waiting.close();
    } finally {
      gate.resolve();
      await server.close();
    }
  });

  it('refuses connections over maxConnections and accepts again when one leaves', async () => {
    const { server, port } = await startServer({ maxConnections: 2 });
    try {
      const a = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
      const b = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
      const extra = await rawConnect(port);
      await extra.closed;
      expect(server.stats()).toMatchObject({ accepted: 2, rejected: 1 });
      await expectServed(a);
      a.close();
      await vi.waitFor(() => expect(server.connectionCount).toBe(1));
      const c = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
      await expectServed(c);
      await expectServed(b);
      b.close();
      c.close();
    } finally {
      await server.close();
    }
  });

  it('runs at most maxQueriesInFlight handlers per connection and answers the rest later', async () => {
    const gates: Deferred<void>[] = [];
    let running = 0;
    let maxRunning = 0;
    let startedCount = 0;
    let onStart: (() => void) | undefined;
    const { server, port } = await startServer({
      maxQueriesInFlight: 3,
      onQuery: async (q) => {
        running++;
        startedCount++;
        maxRunning = Math.max(maxRunning, running);
        const g = deferred<void>();
        gates.push(g);
        onStart?.();
        await g.promise;
        running--;
        return q;
      },
    });
    const waitStarted = (n: number) =>
      new Promise<void>((r) => {
        onStart = () => startedCount >= n && r();
        onStart();
      });
    try {
      const s = await rawSession(port, key.publicKey);
      // ten queries in one write: they arrive together, yet only three handlers may run
      const frames = Array.from({ length: 10 }, (_, i) =>
        encodeFrame(
          s.ciphers.tx,
          encodeAdnlMessage({ _: 'adnl.message.query', queryId: randomBytes(32), query: Buffer.from([i]) }),
        ),
      );
      s.socket.write(Buffer.concat(frames));
      await waitStarted(3);
      for (let released = 0; released < 10; released++) {
        await waitStarted(Math.min(10, released + 3));
        gates[released]!.resolve();
      }
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(decodeAdnlMessage(await s.next()));
      expect(answers.map((a) => (a._ === 'adnl.message.answer' ? a.answer[0] : -1))).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ]);
      expect(maxRunning).toBe(3);
      s.socket.destroy();
    } finally {
      for (const g of gates) g.resolve();
      await server.close();
    }
  });
});
