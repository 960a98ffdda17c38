// The query envelope and the error answers, seen through a raw ADNL client (which shows the liteServer.error
// code) and through ton-lite-client (which shows only the message): waitMasterchainSeqno, the legacy
// queryPrefix form, unknown functions (621), garbage (-400), data the node lacks (651), deadlines (-503).

import type { Cell } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdnlClient, generateKeyPair } from '../../src/adnl/index.ts';
import {
  type ChainView,
  createLiteServer,
  LITE_BAD_REQUEST,
  LITE_NOT_FOUND,
  LITE_TIMEOUT,
  LITE_UNKNOWN_QUERY,
  type LiteServer,
  type LiteServerOptions,
} from '../../src/lite/server/index.ts';
import { decodeTl, encodeTl, type TlObject, tlConstructorId } from '../../src/lite/tl/index.ts';
import { type BlockIdExt, parseBoc, verifyBlockProof } from '../../src/ton/index.ts';
import { createPrivateNetVectorChain, type PrivateNetChainView } from '../helpers/vector-chain.ts';
import { hasVectors } from '../helpers/vectors.ts';

interface Started {
  server: LiteServer;
  port: number;
  adnl: AdnlClient;
}

async function startServer(view: ChainView, opts: Partial<LiteServerOptions> = {}): Promise<Started> {
  const server = createLiteServer({ view, keys: [generateKeyPair()], host: '127.0.0.1', port: 0, ...opts });
  const { port } = await server.listen();
  const adnl = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: server.publicKey });
  return { server, port, adnl };
}

function query(fn: TlObject): Buffer {
  return encodeTl({ _: 'liteServer.query', data: encodeTl(fn) });
}

function withWait(seqno: number, timeoutMs: number, fn: TlObject): Buffer {
  const wait = encodeTl({ _: 'liteServer.waitMasterchainSeqno', seqno, timeoutMs });
  return encodeTl({ _: 'liteServer.query', data: Buffer.concat([wait, encodeTl(fn)]) });
}

async function ask(s: Started, bytes: Buffer): Promise<TlObject> {
  return decodeTl(await s.adnl.query(bytes));
}

function expectError(answer: TlObject, code: number, message?: RegExp): void {
  expect(answer._).toBe('liteServer.error');
  if (answer._ !== 'liteServer.error') return;
  expect(answer.code).toBe(code);
  if (message) expect(answer.message).toMatch(message);
}

describe.skipIf(!hasVectors)('liteserver protocol: envelope and errors', () => {
  let view: PrivateNetChainView;
  let s: Started;
  let engine: LiteSingleEngine;
  let client: LiteClient;

  beforeAll(async () => {
    // The chain stops at masterchain block 262 until the test publishes more.
    view = createPrivateNetVectorChain({ lastSeqno: 262 });
    s = await startServer(view, { maxWaitMs: 300 });
    engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${s.port}`, publicKey: s.server.publicKey });
    engine.on('error', () => {});
    await new Promise((resolve) => engine.once('ready', resolve));
    client = new LiteClient({ engine });
  });
  afterAll(async () => {
    engine?.close();
    s?.adnl.close();
    await s?.server.close();
  });

  it('waitMasterchainSeqno: answers at once for a known seqno, after the block for a later one', async () => {
    const now = await ask(s, withWait(100, 5000, { _: 'liteServer.getMasterchainInfo' }));
    expect(now._ === 'liteServer.masterchainInfo' && now.last.seqno).toBe(262);
    // ton-lite-client's awaitSeqno: the answer comes once block 263 is published, and reflects it.
    // Publish only once the server is waiting for it.
    const waiting = new Promise<void>((resolve) => {
      const wait = view.waitMasterchainSeqno.bind(view);
      view.waitMasterchainSeqno = (seqno, signal) => {
        resolve();
        return wait(seqno, signal);
      };
    });
    const pending = client.getMasterchainInfo({ awaitSeqno: 263, timeout: 10_000 });
    await waiting;
    view.publish(263);
    const info = await pending;
    expect(info.last.seqno).toBe(263);
  });

  it('waitMasterchainSeqno: a seqno that does not arrive in time is a -503 error', async () => {
    const answer = await ask(s, withWait(999, 50, { _: 'liteServer.getTime' }));
    expectError(answer, LITE_TIMEOUT, /timeout waiting for masterchain block 999/);
    // timeout_ms above the server's cap (300 ms here) is cut to the cap; ton-lite-client sees the node's error.
    await expect(client.getMasterchainInfo({ awaitSeqno: 999, timeout: 5000 })).rejects.toThrow(
      /timeout waiting for masterchain block 999/,
    );
  });

  it('accepts the legacy liteServer.queryPrefix form', async () => {
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32LE(tlConstructorId('liteServer.queryPrefix') >>> 0);
    const answer = await ask(s, Buffer.concat([prefix, encodeTl({ _: 'liteServer.getMasterchainInfo' })]));
    expect(answer._).toBe('liteServer.masterchainInfo');
    const waited = await ask(
      s,
      Buffer.concat([
        prefix,
        encodeTl({ _: 'liteServer.waitMasterchainSeqno', seqno: 1, timeoutMs: 100 }),
        encodeTl({ _: 'liteServer.getTime' }),
      ]),
    );
    expect(waited._).toBe('liteServer.currentTime');
  });

  it('an unknown function is 621 "unknown query"', async () => {
    const unknown = Buffer.from('deadbeef00000000', 'hex');
    expectError(await ask(s, encodeTl({ _: 'liteServer.query', data: unknown })), LITE_UNKNOWN_QUERY, /unknown query/);
    // A type constructor is not a function either.
    expectError(await ask(s, query({ _: 'liteServer.currentTime', now: 1 })), LITE_UNKNOWN_QUERY);
    // queryPrefix wrapped inside liteServer.query has no function after it.
    await expect(engine.query(Functions.liteServer_queryPrefix, { kind: 'liteServer.queryPrefix' })).rejects.toThrow(
      /unknown query/,
    );
  });

  it('garbage is -400 with a message, and the connection keeps working', async () => {
    expectError(await ask(s, Buffer.from('0102', 'hex')), LITE_BAD_REQUEST, /expected liteServer.query/);
    expectError(
      await ask(s, Buffer.from('00112233445566778899', 'hex')),
      LITE_BAD_REQUEST,
      /expected liteServer.query/,
    );
    // A known function cut short.
    const cut = encodeTl({ _: 'liteServer.getBlock', id: anyId() }).subarray(0, 20);
    expectError(
      await ask(s, encodeTl({ _: 'liteServer.query', data: cut })),
      LITE_BAD_REQUEST,
      /cannot parse liteServer.getBlock/,
    );
    // Trailing bytes after the function.
    const trailing = Buffer.concat([encodeTl({ _: 'liteServer.getTime' }), Buffer.alloc(4)]);
    expectError(await ask(s, encodeTl({ _: 'liteServer.query', data: trailing })), LITE_BAD_REQUEST);
    // Bad arguments: lookupBlock with two mode bits.
    const bad = await ask(
      s,
      query({ _: 'liteServer.lookupBlock', mode: 3, id: { workchain: -1, shard: -(1n << 63n), seqno: 5 }, lt: 1n }),
    );
    expectError(bad, LITE_BAD_REQUEST, /exactly one of mode.0, mode.1 and mode.2/);
    expect((await ask(s, query({ _: 'liteServer.getTime' })))._).toBe('liteServer.currentTime');
  });

  it('lookupBlockWithProof links a shard block down from the masterchain block that committed it', async () => {
    const sb = view.find(0, 150, 0xc000000000000000n);
    const mcSeqno = (await view.masterchainRefSeqno?.(view.idOf(sb))) as number;
    const mcb = view.find(-1, mcSeqno);
    const tlId = (b: typeof sb) => ({
      ...view.idOf(b),
      _: 'tonNode.blockIdExt' as const,
      shard: BigInt.asIntN(64, b.shard),
    });
    const answer = await ask(
      s,
      query({
        _: 'liteServer.lookupBlockWithProof',
        mode: 1,
        id: { workchain: 0, shard: BigInt.asIntN(64, 0xc000000000000000n), seqno: 150 },
        mcBlockId: tlId(mcb),
      }),
    );
    expect(answer._).toBe('liteServer.lookupBlockResult');
    if (answer._ !== 'liteServer.lookupBlockResult') return;
    expect(answer.id.rootHash.equals(sb.rootHash)).toBe(true);
    expect(answer.mcBlockId.rootHash.equals(mcb.rootHash)).toBe(true);
    verifyBlockProof(parseBoc(answer.header)[0] as Cell, sb.rootHash);
    let trusted = mcb.rootHash;
    for (const link of answer.shardLinks) {
      verifyBlockProof(parseBoc(link.proof)[0] as Cell, trusted);
      trusted = link.id.rootHash;
    }
    expect(trusted.equals(sb.rootHash)).toBe(true);
    // The client's masterchain block is the one the links start from: no state proof is needed.
    expect(answer.clientMcStateProof).toHaveLength(0);
  });

  it('a missing block is 651; ton-lite-client sees the node message', async () => {
    expectError(await ask(s, query({ _: 'liteServer.getBlock', id: anyId() })), LITE_NOT_FOUND, /not in db/);
    const lookup = await ask(
      s,
      query({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: -1, shard: -(1n << 63n), seqno: 100_000 } }),
    );
    expectError(lookup, LITE_NOT_FOUND, /block not found/);
    await expect(
      client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 100_000 }),
    ).rejects.toThrow(/block not found/);
    const tl = anyId();
    await expect(
      client.getBlockHeader({
        workchain: tl.workchain,
        shard: '-9223372036854775808',
        seqno: tl.seqno,
        rootHash: tl.rootHash,
        fileHash: tl.fileHash,
      }),
    ).rejects.toThrow(/not in db/);
  });
});

function anyId() {
  return {
    _: 'tonNode.blockIdExt' as const,
    workchain: -1,
    shard: -(1n << 63n),
    seqno: 7,
    rootHash: Buffer.alloc(32, 7),
    fileHash: Buffer.alloc(32, 9),
  };
}

/** A view whose every lookup hangs, or fails with a non-liteserver error. */
function brokenView(mode: 'hang' | 'throw'): ChainView {
  const last: BlockIdExt = {
    workchain: -1,
    shard: 1n << 63n,
    seqno: 1,
    rootHash: Buffer.alloc(32, 1),
    fileHash: Buffer.alloc(32, 2),
  };
  const fail = (): Promise<never> =>
    mode === 'hang' ? new Promise<never>(() => {}) : Promise.reject(new Error('disk /var/db/secret-path is gone'));
  return {
    masterchainInfo: async () => ({
      last,
      stateRootHash: Buffer.alloc(32),
      init: { workchain: -1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
      lastUtime: 1,
    }),
    waitMasterchainSeqno: async () => {},
    now: () => 1,
    block: fail,
    lookupBlock: fail,
    shardState: fail,
  };
}

describe('liteserver protocol: deadlines and failures of the view', () => {
  it('a query that outlives the deadline is -503 "timeout"', async () => {
    const s = await startServer(brokenView('hang'), { queryTimeoutMs: 30 });
    try {
      expectError(await ask(s, query({ _: 'liteServer.getBlock', id: anyId() })), LITE_TIMEOUT, /^timeout$/);
      expect((await ask(s, query({ _: 'liteServer.getTime' })))._).toBe('liteServer.currentTime');
    } finally {
      s.adnl.close();
      await s.server.close();
    }
  });

  it('an unexpected view error is answered without its internals', async () => {
    const logged: string[] = [];
    const s = await startServer(brokenView('throw'), {
      log: (_l, msg, f) => logged.push(`${msg} ${JSON.stringify(f)}`),
    });
    try {
      const answer = await ask(s, query({ _: 'liteServer.getBlock', id: anyId() }));
      expectError(answer, LITE_BAD_REQUEST, /cannot process liteServer.getBlock: internal error/);
      expect(answer._ === 'liteServer.error' && answer.message).not.toMatch(/secret-path/);
      expect(logged.some((l) => l.includes('secret-path'))).toBe(true);
    } finally {
      s.adnl.close();
      await s.server.close();
    }
  });

  it('an answer above the size limit is refused with -400', async () => {
    const s = await startServer(brokenView('throw'), { maxAnswerBytes: 16 });
    try {
      expectError(await ask(s, query({ _: 'liteServer.getMasterchainInfo' })), LITE_BAD_REQUEST, /answer too large/);
    } finally {
      s.adnl.close();
      await s.server.close();
    }
  });
});
