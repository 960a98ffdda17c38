// Our AdnlClient against our AdnlServer over loopback.
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AdnlClient,
  type AdnlQueryContext,
  AdnlServer,
  createClientHandshake,
  createFrameDecoder,
  decodeAdnlMessage,
  encodeAdnlMessage,
  encodeFrame,
  generateKeyPair,
} from '../../src/adnl/index.ts';
import { AdnlError } from '../../src/common/index.ts';
import { type Deferred, deferred, rawSession } from '../helpers/adnl.ts';

type Handler = (q: Buffer, ctx: AdnlQueryContext) => Promise<Buffer>;

describe('AdnlClient <-> AdnlServer', () => {
  const key = generateKeyPair();
  const key2 = generateKeyPair();
  let handler: Handler = async (q) => q;
  let server: AdnlServer;
  let port: number;
  const clients: AdnlClient[] = [];
  const open = async (serverPublicKey = key.publicKey) => {
    const c = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = new AdnlServer({ keys: [key, key2], onQuery: (q, ctx) => handler(q, ctx) });
    ({ port } = await server.listen());
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
    handler = async (q) => q;
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers queries and passes the query bytes and a context to onQuery', async () => {
    const contexts: AdnlQueryContext[] = [];
    handler = async (q, ctx) => {
      contexts.push(ctx);
      return Buffer.concat([Buffer.from('re:'), q]);
    };
    const c = await open();
    for (const n of [0, 1, 253, 254, 10_000]) {
      const q = randomBytes(n);
      expect((await c.query(q)).equals(Buffer.concat([Buffer.from('re:'), q]))).toBe(true);
    }
    expect(contexts).toHaveLength(5);
    expect(new Set(contexts.map((x) => x.connectionId)).size).toBe(1);
    expect(contexts[0]!.remote).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(contexts[0]!.signal.aborted).toBe(false);
  });

  it('serves every configured key', async () => {
    const c1 = await open(key.publicKey);
    const c2 = await open(key2.publicKey);
    expect((await c1.query(Buffer.from('a'))).toString()).toBe('a');
    expect((await c2.query(Buffer.from('b'))).toString()).toBe('b');
  });

  it('runs queries concurrently and delivers answers out of order', async () => {
    const gates: Deferred<void>[] = Array.from({ length: 10 }, () => deferred<void>());
    const started = deferred<void>();
    let running = 0;
    handler = async (q) => {
      const i = q.readUInt8(0);
      running++;
      if (running === gates.length) started.resolve();
      await gates[i]!.promise;
      return Buffer.from([i, 0xaa]);
    };
    const c = await open();
    const arrived: number[] = [];
    const answers = gates.map((_, i) =>
      c.query(Buffer.from([i])).then((a) => {
        arrived.push(i);
        return a;
      }),
    );
    await started.promise; // all ten handlers are running at once
    for (let i = gates.length - 1; i >= 0; i--) {
      gates[i]!.resolve();
      await answers[i]; // answer i arrives while every query below i is still pending
    }
    expect(arrived).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (let i = 0; i < gates.length; i++) expect([...(await answers[i]!)]).toEqual([i, 0xaa]);
  });

  it('answers tcp.ping with tcp.pong', async () => {
    const before = server.stats().pings;
    const c = await open();
    await c.ping();
    await c.ping();
    expect(server.stats().pings).toBe(before + 2);
  });

  it('carries answers of several MiB, up to the 16 MiB packet limit', async () => {
    const big = randomBytes(16 * 1024 * 1024 - 64 - 36 - 4); // the largest answer that fits one packet
    const mid = randomBytes(5 * 1024 * 1024 + 3);
    handler = async (q) => (q.toString() === 'big' ? big : mid);
    const c = await open();
    const [a, b] = await Promise.all([c.query(Buffer.from('big')), c.query(Buffer.from('mid'))]);
    expect(a.length).toBe(big.length);
    expect(a.equals(big)).toBe(true);
    expect(b.equals(mid)).toBe(true);
  });

  it('sends nothing for a query whose handler rejects or whose answer exceeds the packet limit', async () => {
    const before = server.stats();
    handler = async (q) => {
      if (q.toString() === 'fail') throw new Error('handler failed');
      if (q.toString() === 'huge') return Buffer.alloc(16 * 1024 * 1024);
      return Buffer.from('fine');
    };
    const c = await open();
    const failed = c.query(Buffer.from('fail'));
    const huge = c.query(Buffer.from('huge'));
    failed.catch(() => {});
    huge.catch(() => {});
    await vi.waitFor(() => expect(server.stats().queryErrors).toBe(before.queryErrors + 2));
    // Answers leave in order on one stream: had either dropped query been answered, it would have arrived first.
    expect((await c.query(Buffer.from('ok'))).toString()).toBe('fine');
    let settled = false;
    Promise.race([failed, huge])
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(c.closed).toBe(false);
    c.close();
    await expect(failed).rejects.toBeInstanceOf(AdnlError);
    await expect(huge).rejects.toBeInstanceOf(AdnlError);
  });

  it('times a query out on the client and keeps the connection usable', async () => {
    const gate = deferred<void>();
    handler = async (q) => {
      if (q.toString() === 'slow') await gate.promise;
      return q;
    };
    const c = await open();
    const err = await c.query(Buffer.from('slow'), 50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdnlError);
    expect((err as AdnlError).details.reason).toBe('timeout');
    gate.resolve(); // the late answer is ignored
    expect((await c.query(Buffer.from('next'))).toString()).toBe('next');
  });

  it('aborts the query signal and rejects the client when the connection closes', async () => {
    const signals: AbortSignal[] = [];
    const entered = deferred<void>();
    handler = (_q, ctx) => {
      signals.push(ctx.signal);
      entered.resolve();
      return new Promise((_res, rej) => ctx.signal.addEventListener('abort', () => rej(ctx.signal.reason)));
    };
    const c = await open();
    const closedWith = new Promise<AdnlError | undefined>((r) => c.onClose(r));
    const pending = c.query(Buffer.from('x'));
    await entered.promise;
    c.close(); // the server sees the socket close and aborts the handler's signal

    await expect(pending).rejects.toBeInstanceOf(AdnlError);
    expect(await closedWith).toBeUndefined();
    await vi.waitFor(() => expect(signals[0]!.aborted).toBe(true));
    await expect(c.query(Buffer.from('y'))).rejects.toBeInstanceOf(AdnlError);
  });

  it('processes a handshake and a query sent in one write, and ignores empty keepalive packets', async () => {
    const s = await rawSession(port, key.publicKey);
    try {
      s.send(Buffer.alloc(0));
      const queryId = randomBytes(32);
      s.send(encodeAdnlMessage({ _: 'adnl.message.query', queryId, query: Buffer.from('hi') }));
      expect(decodeAdnlMessage(await s.next())).toEqual({
        _: 'adnl.message.answer',
        queryId,
        answer: Buffer.from('hi'),
      });
    } finally {
      s.socket.destroy();
    }

    const hs = createClientHandshake(key.publicKey);
    const queryId = randomBytes(32);
    const both = Buffer.concat([
      hs.packet,
      encodeFrame(
        hs.ciphers.tx,
        encodeAdnlMessage({ _: 'adnl.message.query', queryId, query: Buffer.from('pipelined') }),
      ),
    ]);
    const sock = createConnection({ host: '127.0.0.1', port });
    sock.on('error', () => {});
    try {
      const decoder = createFrameDecoder(hs.ciphers.rx);
      const got = new Promise<Buffer[]>((resolve) => {
        const all: Buffer[] = [];
        sock.on('data', (d: Buffer) => {
          all.push(...decoder.push(d));
          if (all.length >= 2) resolve(all);
        });
      });
      sock.write(both);
      const [empty, answer] = await got;
      expect(empty!.length).toBe(0);
      expect(decodeAdnlMessage(answer!)).toEqual({
        _: 'adnl.message.answer',
        queryId,
        answer: Buffer.from('pipelined'),
      });
    } finally {
      sock.destroy();
    }
  });
});

describe('AdnlClient failures', () => {
  it('rejects connect() when the server does not hold the key', async () => {
    const server = new AdnlServer({ keys: [generateKeyPair()], onQuery: async (q) => q });
    const { port } = await server.listen();
    try {
      await expect(
        AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: generateKeyPair().publicKey }),
      ).rejects.toBeInstanceOf(AdnlError);
      expect(server.stats().rejected).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('rejects connect() when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    await expect(
      AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: generateKeyPair().publicKey }),
    ).rejects.toBeInstanceOf(AdnlError);
  });

  it('rejects connect() when the peer never confirms the handshake', async () => {
    const silent: Server = createServer((s) => s.on('error', () => {}).resume()); // reads (so it sees EOF) but never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    try {
      await expect(
        AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: generateKeyPair().publicKey, timeoutMs: 100 }),
      ).rejects.toThrow(/no handshake confirmation/);
    } finally {
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('closes with an AdnlError when the server closes, rejecting pending queries', async () => {
    const key = generateKeyPair();
    const server = new AdnlServer({ keys: [key], onQuery: () => new Promise(() => {}) });
    const { port } = await server.listen();
    const c = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key.publicKey });
    const closedWith = new Promise<AdnlError | undefined>((r) => c.onClose(r));
    const pending = c.query(Buffer.from('never'));
    await vi.waitFor(() => expect(server.stats().queries).toBe(1));
    await server.close();
    await expect(pending).rejects.toBeInstanceOf(AdnlError);
    expect(await closedWith).toBeInstanceOf(AdnlError);
    expect(c.closed).toBe(true);
  });
});
