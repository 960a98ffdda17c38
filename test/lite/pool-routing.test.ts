// Request routing: archive servers for history the others pruned, round robin, sticky chains (withServer),
// the waitMasterchainSeqno prefix and the generic query paths.

import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AdnlError, InputError, LiteServerError, NoLiteServersError } from '../../src/common/index.ts';
import { createLitePool, decodeTl, encodeTl, type LitePool, type LitePoolOptions } from '../../src/lite/index.ts';
import {
  createTestChain,
  MC_SHARD,
  POOL_POLL,
  startTestLiteServer,
  type TestChain,
  type TestLiteServer,
} from '../helpers/lite-pool.ts';
import { until } from '../helpers/until.ts';
import { hasVectors } from '../helpers/vectors.ts';

describe.skipIf(!hasVectors)('lite pool routing', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function server(chain: TestChain, o: Parameters<typeof startTestLiteServer>[1] = {}): Promise<TestLiteServer> {
    const s = await startTestLiteServer(chain, o);
    cleanup.push(() => s.close());
    return s;
  }

  async function pool(o: LitePoolOptions): Promise<LitePool> {
    const p = createLitePool({ healthIntervalMs: 600_000, ...o });
    cleanup.push(() => p.close());
    await p.ready({ timeoutMs: 30_000 });
    await until('all servers in rotation', () => p.health().every((h) => h.inRotation), POOL_POLL);
    return p;
  }

  const blockCalls = (list: TestLiteServer[]) => list.reduce((n, s) => n + s.callCount('liteServer.getBlock'), 0);

  it('retries a "not in db" (651) history miss on the archive server, never on another pruned one', async () => {
    const chain = createTestChain();
    const pruned = [await server(chain, { history: false }), await server(chain, { history: false })];
    const archive = await server(chain);
    const p = await pool({
      servers: [...pruned, archive].map((s) => s.endpoint),
      archive: [archive.endpoint.id],
      maxAttempts: 3,
    });

    for (let i = 0; i < 6; i++) {
      const before = blockCalls(pruned);
      const beforeArchive = archive.callCount('liteServer.getBlock');
      const blk = await p.getBlock(chain.block);
      expect(blk.data.equals(chain.block.data)).toBe(true);
      expect(archive.callCount('liteServer.getBlock') - beforeArchive).toBe(1);
      expect(blockCalls(pruned) - before).toBeLessThanOrEqual(1); // at most the first (round-robin) attempt
    }
    // Misses say nothing bad about the pruned servers.
    expect(p.health().every((h) => h.inRotation)).toBe(true);
  });

  it('sends archive: true requests to the archive server first', async () => {
    const chain = createTestChain();
    const pruned = [await server(chain, { history: false }), await server(chain, { history: false })];
    const archive = await server(chain);
    const p = await pool({ servers: [...pruned, archive].map((s) => s.endpoint), archive: [archive.endpoint.id] });
    for (let i = 0; i < 4; i++) await p.getBlock(chain.block, { archive: true });
    expect(blockCalls(pruned)).toBe(0);
    expect(archive.callCount('liteServer.getBlock')).toBe(4);
  });

  it('gives the 651 back when no archive server has the block either', async () => {
    const chain = createTestChain();
    const list = [await server(chain, { history: false }), await server(chain, { history: false })];
    const p = await pool({ servers: list.map((s) => s.endpoint), archive: [list[1]!.endpoint.id], maxAttempts: 5 });
    const e = await p.getBlock(chain.block).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LiteServerError);
    expect((e as LiteServerError).liteCode).toBe(651);
    expect(blockCalls(list)).toBeLessThanOrEqual(2); // each server once at most, however many attempts are allowed
  });

  it('without configured archive servers, a history miss tries the other servers (bounded by maxAttempts)', async () => {
    const chain = createTestChain();
    const list = [
      await server(chain, { history: false }),
      await server(chain, { history: false }),
      await server(chain, { history: false }),
      await server(chain),
    ];
    const p = await pool({ servers: list.map((s) => s.endpoint), maxAttempts: 4 });
    const blk = await p.getBlock(chain.block);
    expect(blk.data.equals(chain.block.data)).toBe(true);
    const p2 = await pool({ servers: list.map((s) => s.endpoint), maxAttempts: 2 });
    let failed = 0;
    for (let i = 0; i < 4; i++) await p2.getBlock(chain.block).catch(() => failed++);
    expect(failed).toBeGreaterThan(0); // two attempts cannot always reach the one full server
  });

  it('spreads requests round robin over the servers in rotation', async () => {
    const chain = createTestChain();
    const list = [await server(chain), await server(chain), await server(chain)];
    const p = await pool({ servers: list.map((s) => s.endpoint) });
    for (let i = 0; i < 30; i++) await p.getTime();
    expect(list.map((s) => s.callCount('liteServer.getTime'))).toEqual([10, 10, 10]);
  });

  it('withServer pins a chain of queries to one server and retries the whole chain elsewhere if that server dies', async () => {
    const chain = createTestChain();
    const list = [await server(chain), await server(chain), await server(chain)];
    const p = await pool({ servers: list.map((s) => s.endpoint), attemptTimeoutMs: 2000 });

    const used = await p.withServer(async (c) => {
      const info = await c.getMasterchainInfo();
      const hdr = await c.lookupBlock({ workchain: -1, shard: MC_SHARD, seqno: chain.block.seqno });
      expect(hdr.id.rootHash.equals(chain.block.rootHash)).toBe(true);
      for (let i = 0; i < 5; i++) await c.getTime();
      expect(info.last.seqno).toBe(chain.head);
      return c.server;
    });
    const counts = list.map((s) => s.callCount('liteServer.getTime'));
    expect(counts.filter((n) => n === 5)).toHaveLength(1);
    expect(counts.filter((n) => n === 0)).toHaveLength(2);
    expect(list.find((s) => s.callCount('liteServer.getTime') === 5)!.endpoint.id).toBe(used);

    // Kill the server under a running chain: the chain starts over on another server and completes there.
    const runs: string[] = [];
    const result = await p.withServer(async (c) => {
      runs.push(c.server);
      await c.getTime();
      if (runs.length === 1) await list.find((s) => s.endpoint.id === c.server)!.close();
      await c.getTime();
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toHaveLength(2);
    expect(runs[1]).not.toBe(runs[0]);
  });

  it('withServer does not retry errors of the callback itself, nor when retry is off', async () => {
    const chain = createTestChain();
    const list = [await server(chain), await server(chain)];
    const p = await pool({ servers: list.map((s) => s.endpoint) });
    let calls = 0;
    const e = await p
      .withServer(async () => {
        calls++;
        throw new Error('my own bug');
      })
      .catch((x: unknown) => x);
    expect((e as Error).message).toBe('my own bug');
    expect(calls).toBe(1);

    let runs = 0;
    const e2 = await p
      .withServer(
        async (c) => {
          runs++;
          await list.find((s) => s.endpoint.id === c.server)!.close();
          return c.getTime();
        },
        { retry: false },
      )
      .catch((x: unknown) => x);
    expect(runs).toBe(1);
    expect(e2).toBeInstanceOf(AdnlError); // the server's own failure, not "no servers": the other one is fine
  });

  it('withServer({ server }) pins a named server; an unknown id is NoLiteServersError', async () => {
    const chain = createTestChain();
    const list = [await server(chain), await server(chain)];
    const p = await pool({ servers: list.map((s) => s.endpoint) });
    const target = list[1]!.endpoint.id;
    for (let i = 0; i < 3; i++) expect(await p.withServer(async (c) => c.server, { server: target })).toBe(target);
    await expect(p.withServer(async () => 1, { server: '10.0.0.1:1' })).rejects.toBeInstanceOf(NoLiteServersError);
  });

  it('generic query(), queryRaw(), queryTl() with our own TL codec, and the ton-lite-client LiteClient of a pinned server', async () => {
    const chain = createTestChain();
    const list = [await server(chain), await server(chain)];
    const p = await pool({ servers: list.map((s) => s.endpoint) });
    const t = await p.query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' });
    expect(t.now).toBeGreaterThan(1_600_000_000);
    const raw = await p.queryRaw(encodeTl({ _: 'liteServer.getMasterchainInfo' }));
    const info = decodeTl(raw);
    expect(info._).toBe('liteServer.masterchainInfo');
    if (info._ === 'liteServer.masterchainInfo') expect(info.last.seqno).toBe(chain.head);
    const viaLiteClient = await p.withServer(async (c) => (await c.liteClient().getMasterchainInfo()).last.seqno);
    expect(viaLiteClient).toBe(chain.head);
    // Our own TL codec end to end: bigint shards, answer type checked.
    const hdr = await p.queryTl({
      _: 'liteServer.lookupBlock',
      mode: 1,
      id: { workchain: -1, shard: MC_SHARD, seqno: chain.block.seqno },
    });
    expect(hdr._).toBe('liteServer.blockHeader');
    expect(hdr.id.rootHash.equals(chain.block.rootHash)).toBe(true);
    expect((await p.queryTl({ _: 'liteServer.getMasterchainInfo' })).last.seqno).toBe(chain.head);
    // lookupBlock mode 4 without its utime: our codec refuses to encode it, and that is the caller's error.
    await expect(
      p.queryTl({ _: 'liteServer.lookupBlock', mode: 4, id: { workchain: -1, shard: MC_SHARD, seqno: 0 } }),
    ).rejects.toBeInstanceOf(InputError);
    expect(p.health().every((h) => h.inRotation)).toBe(true);
  });

  it('prefixes waitMasterchainSeqno and rejects inputs its encoders would silently mangle', async () => {
    const chain = createTestChain();
    const [only] = [await server(chain)];
    const p = await pool({ servers: [only!.endpoint] });
    expect(await p.getTime({ awaitSeqno: chain.head })).toBeGreaterThan(0);
    expect(only!.callCount('wait:liteServer.getTime')).toBe(1);
    expect(await p.getTime()).toBeGreaterThan(0);
    expect(only!.callCount('wait:liteServer.getTime')).toBe(1); // no prefix unless asked
    await expect(p.lookupBlock({ workchain: -1, shard: MC_SHARD, utime: 0 })).rejects.toBeInstanceOf(InputError);
    await expect(p.getBlock({ ...chain.block, rootHash: Buffer.alloc(3) })).rejects.toBeInstanceOf(InputError);
    await expect(p.listBlockTransactions(chain.block, { count: 0 })).rejects.toBeInstanceOf(InputError);
  });
});
