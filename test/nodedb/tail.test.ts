// NodeDb.tail against a node-format tree that another process keeps appending to with the node's write pattern
// (issue 8: "every block delivered once, in order, including when the index lags the packs"). The writer
// (tail-writer.ts) replays the masterchain blocks 1..263 of the real archive slices in vectors/node-db and the
// shard blocks each one committed, grouped as the real node wrote them (tail-steps.ts, cross-checked below
// against a walk of the shard tops). The reader here tails with openNodeDb and checks every delivery against
// those steps and every block's bytes against its file hash and the bytes in the real packs.
//
// Variants: index mode while the index WAL is flushed only every 7 steps, with the writer holding each flush
// until the reader has delivered the blocks (they can only have come from the packs: a secondary open of the
// index is checked not to see them yet); index mode with free-running flushes, the tail opened while the first
// package index folder is still empty; pack-scan only (no RocksDB at all); a --db-event-fifo wake with a poll
// interval longer than the test; and a writer killed with -9 in the middle of a pack entry, then restarted (with
// indexes: the kill also loses the index commits still in the WAL buffer, and the resumed writer cuts the packs
// back to what the index kept and writes those blocks again; packs only: the torn tail is cut off). Index
// variants need the native RocksDB addon and are skipped, with a warning, without it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newShardBlocks, type ShardTop, shardTopsOf } from '../../src/index/index.ts';
import { fileName } from '../../src/nodedb/fileref.ts';
import { blockHandleKey } from '../../src/nodedb/handle.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import { indexDir } from '../../src/nodedb/layout.ts';
import { openNodeDb } from '../../src/nodedb/node-db.ts';
import { openPackReader } from '../../src/nodedb/pack.ts';
import { readLtdbDesc } from '../../src/nodedb/slice-index.ts';
import type { WriterStep } from '../../src/nodedb/writer.ts';
import { type BlockIdExt, blockKey, loadBlockCell, prevBlockIds } from '../../src/ton/index.ts';
import { until } from '../helpers/until.ts';
import { hasVectors, vectorPath } from '../helpers/vectors.ts';
import { loadTailSteps, TAIL_LAST_MC } from './tail-steps.ts';
import type { TailWriterConfig, TailWriterEvent } from './tail-writer.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const WRITER = join(here, 'tail-writer.ts');

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db tail: index-mode variants SKIPPED: ${addon.reason}`);
const withIndexes = hasVectors && addon.ok;

/** The writer process: its report lines, and waits on them. */
class WriterProc {
  readonly events: TailWriterEvent[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiters: Array<() => void> = [];

  constructor(cfg: TailWriterConfig) {
    this.child = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify(cfg)], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.events.push(JSON.parse(line) as TailWriterEvent);
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((r) => {
      this.child.once('exit', (code, signal) => {
        setImmediate(() => {
          for (const w of this.waiters.splice(0)) w();
          r({ code, signal });
        });
      });
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first report matching `match`, waiting up to `ms`. */
  async waitFor<E extends TailWriterEvent>(match: (e: TailWriterEvent) => e is E, ms = 60_000): Promise<E> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.events.find(match);
      if (hit) return hit;
      if (!this.running) throw new Error(`tail-writer exited before the awaited report; stderr: ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`tail-writer: no awaited report within ${ms} ms`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  go(): void {
    this.child.stdin?.write('go\n');
  }

  async kill9(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }
}

const isEv =
  <K extends TailWriterEvent['ev']>(ev: K, pred: (e: Extract<TailWriterEvent, { ev: K }>) => boolean = () => true) =>
  (e: TailWriterEvent): e is Extract<TailWriterEvent, { ev: K }> =>
    e.ev === ev && pred(e as Extract<TailWriterEvent, { ev: K }>);

interface Delivery {
  mc: BlockIdExt;
  shardBlocks: BlockIdExt[];
  at: number;
}

/** Whether `p` settles (resolves or rejects) within `ms`. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((r) => setTimeout(r, ms));
  return settled;
}

const MC_SHARD = 0x8000000000000000n;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();
const keys = (ids: readonly BlockIdExt[]) => ids.map((id) => `${blockKey(id)}:${id.rootHash.toString('hex')}`);

describe.skipIf(!hasVectors)('node-db tail against a live writer (vectors/node-db)', () => {
  let steps: WriterStep[] = [];
  let scratch = '';
  const cleanups: Array<() => Promise<unknown>> = [];
  const packsDir = () => vectorPath('node-db');

  beforeAll(async () => {
    steps = await loadTailSteps(packsDir());
    scratch = await mkdtemp(join(tmpdir(), 'tongate-tail-'));
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const baseConfig = (root: string, over: Partial<TailWriterConfig>): TailWriterConfig => ({
    root,
    packsDir: packsDir(),
    from: 1,
    to: TAIL_LAST_MC,
    delayMs: 10,
    generation: 'shard-split',
    indexes: true,
    flushEvery: 7,
    gateFlushes: false,
    truncateTorn: false,
    ...over,
  });

  const startWriter = (cfg: TailWriterConfig): WriterProc => {
    const w = new WriterProc(cfg);
    cleanups.push(() => w.kill9());
    return w;
  };

  /**
   * Tails from masterchain 1 until TAIL_LAST_MC in the background, reading back every delivered block at once (the
   * problems go to `readBack`). `delivered(n)` waits for masterchain n, `finished()` for the end of the tail.
   */
  const startTail = async (
    root: string,
    opts: { blocks: 'auto' | 'index' | 'packscan'; pollMs: number; eventFifo?: string },
  ) => {
    const db = await openNodeDb({ root, blocks: opts.blocks, states: 'none', secondaryDir: `${root}-secondary` });
    cleanups.push(() => db.close());
    const ac = new AbortController();
    cleanups.push(async () => ac.abort());
    const deliveries: Delivery[] = [];
    const readBack: string[] = [];
    const done = (async () => {
      for await (const item of db.tail(1, {
        signal: ac.signal,
        pollMs: opts.pollMs,
        ...(opts.eventFifo ? { eventFifo: opts.eventFifo } : {}),
      })) {
        deliveries.push({ mc: item.mc, shardBlocks: [...item.shardBlocks], at: Date.now() });
        // every block delivered is readable now, whole, and is the block the node wrote
        for (const id of [item.mc, ...item.shardBlocks]) {
          const { bytes } = await db.block(id);
          if (!sha256(bytes).equals(id.fileHash)) readBack.push(`${blockKey(id)}: sha256 is not the file hash`);
          const step = steps[item.mc.seqno - 1];
          const want = [step?.mc, ...(step?.shardBlocks ?? [])].find((b) => b && keys([b.id])[0] === keys([id])[0]);
          if (!want?.bytes.equals(bytes)) readBack.push(`${blockKey(id)}: not the bytes of the real pack`);
        }
        if (item.mc.seqno >= TAIL_LAST_MC) break;
      }
    })();
    const state: { ended: unknown } = { ended: undefined };
    done.then(
      () => {
        state.ended = 'ended';
      },
      (e: unknown) => {
        state.ended = e;
      },
    );
    /** Waits until masterchain `n` is delivered; fails at once if the tail ends first. */
    const delivered = (n: number) =>
      until(
        `delivery of masterchain ${n}`,
        () => {
          if (state.ended !== undefined)
            throw new Error(`the tail ended before masterchain ${n}: ${String(state.ended)}`);
          return (deliveries.at(-1)?.mc.seqno ?? 0) >= n;
        },
        { timeoutMs: 30_000, stepMs: 20 },
      );
    /** The tail's end (it stops after TAIL_LAST_MC), within a minute. */
    const finished = async () => {
      await Promise.race([
        done,
        new Promise((_, reject) =>
          setTimeout(
            () =>
              reject(
                new Error(
                  `the tail did not reach ${TAIL_LAST_MC} within 60 s (at ${deliveries.at(-1)?.mc.seqno ?? 0})`,
                ),
              ),
            60_000,
          ).unref(),
        ),
      ]);
    };
    return { deliveries, readBack, done, delivered, finished };
  };

  /**
   * A fresh reader (no caches from the tail) reads every block of the steps from the finished tree: whole, hashing
   * to its file hash, and the bytes of the real packs.
   */
  const expectTreeReadsBack = async (root: string, blocks: 'auto' | 'packscan') => {
    const db = await openNodeDb({ root, blocks, states: 'none', secondaryDir: `${root}-secondary-2` });
    try {
      for (const s of steps) {
        expect(keys([(await db.mcBlockId(s.mc.id.seqno))!]), `masterchain ${s.mc.id.seqno}`).toEqual(keys([s.mc.id]));
        for (const b of [s.mc, ...s.shardBlocks]) {
          const got = await db.block(b.id);
          expect(got.bytes.equals(b.bytes), `bytes of ${blockKey(b.id)}`).toBe(true);
          expect(sha256(got.bytes).equals(b.id.fileHash)).toBe(true);
        }
      }
    } finally {
      await db.close();
    }
  };

  /** The checks every variant ends with. */
  const expectExactlyOnce = (deliveries: Delivery[], readBack: string[]) => {
    expect(deliveries.map((d) => d.mc.seqno)).toEqual(Array.from({ length: TAIL_LAST_MC }, (_, i) => i + 1));
    for (const d of deliveries) {
      const step = steps[d.mc.seqno - 1]!;
      expect(keys([d.mc]), `masterchain ${d.mc.seqno}`).toEqual(keys([step.mc.id]));
      // the same blocks; the order may interleave shards differently from the node's, but parents come first
      expect(keys(d.shardBlocks).sort(), `shard blocks of masterchain ${d.mc.seqno}`).toEqual(
        keys(step.shardBlocks.map((b) => b.id)).sort(),
      );
      const at = new Map(d.shardBlocks.map((id, i) => [blockKey(id), i]));
      for (const [i, b] of step.shardBlocks.entries()) {
        for (const p of prevBlockIds(loadBlockCell(b.root).info)) {
          const j = at.get(blockKey(p));
          if (j !== undefined)
            expect(j, `${blockKey(p)} before ${blockKey(b.id)}`).toBeLessThan(at.get(blockKey(b.id)) ?? i);
        }
      }
    }
    expect(readBack).toEqual([]);
  };

  it('the steps group the shard blocks as the shard tops and prev links say (node-db.md §2.6 step 4)', async () => {
    // independent of the pack order the steps come from: walk each masterchain block's tops back to the previous
    const byKey = new Map(steps.flatMap((s) => [s.mc, ...s.shardBlocks]).map((b) => [blockKey(b.id), b] as const));
    let prevTops: ShardTop[] = [];
    let total = 0;
    for (const s of steps) {
      const tops = shardTopsOf(loadBlockCell(s.mc.root));
      const walked = await newShardBlocks(tops, prevTops, async (id) => {
        const b = byKey.get(blockKey(id));
        if (!b) throw new Error(`no block ${blockKey(id)} in the packs`);
        return { id: b.id, bytes: b.bytes, root: b.root };
      });
      expect(new Set(keys(walked.map((w) => w.fetched.id))), `masterchain ${s.mc.id.seqno}`).toEqual(
        new Set(keys(s.shardBlocks.map((b) => b.id))),
      );
      total += s.shardBlocks.length;
      prevTops = tops;
    }
    expect(steps.length).toBe(TAIL_LAST_MC);
    expect(total).toBe(402);
    // the chain splits its basechain on the way, so the walk meets after_split blocks
    expect(new Set(steps.flatMap((s) => s.shardBlocks.map((b) => b.id.shard.toString(16))))).toEqual(
      new Set(['8000000000000000', '4000000000000000', 'c000000000000000']),
    );
  });

  it.skipIf(!withIndexes)(
    'index mode, index WAL flushed every 7 steps and only after the reader delivered them: read from the packs',
    async () => {
      const root = join(scratch, 'gated');
      const w = startWriter(baseConfig(root, { flushEvery: 7, gateFlushes: true, delayMs: 5 }));
      // once the first package index exists (its creation is the next variant's subject)
      await w.waitFor(isEv('step'));
      const t = await startTail(root, { blocks: 'auto', pollMs: 50 });
      let gates = 0;
      let probe: Awaited<ReturnType<typeof openRocks>> | null = null;
      for (let upTo = 7; upTo <= TAIL_LAST_MC; upTo += 7) {
        await w.waitFor(isEv('flush-wait', (e) => e.upTo === upTo));
        if (!probe) {
          // a secondary of the package index, to check that the reader could not have found the blocks there
          const opened = await openRocks(indexDir(root, 0), { mode: 'secondary' });
          cleanups.push(() => opened.close());
          probe = opened;
        }
        await t.delivered(upTo);
        await probe.catchUp();
        expect(
          await probe.get(blockHandleKey(steps[upTo - 1]!.mc.id)),
          `handle of ${upTo} before the flush`,
        ).toBeNull();
        w.go();
        await w.waitFor(isEv('flush', (e) => e.upTo === upTo));
        gates++;
      }
      // the premise check can fail: after the flushes the handles are there
      await w.waitFor(isEv('done'));
      await probe!.catchUp();
      expect(await probe!.get(blockHandleKey(steps[TAIL_LAST_MC - 1]!.mc.id))).not.toBeNull();
      await t.finished();
      expect(gates).toBe(Math.floor(TAIL_LAST_MC / 7));
      expectExactlyOnce(t.deliveries, t.readBack);
      expect((await w.exited).code).toBe(0);
    },
    120_000,
  );

  it.skipIf(!withIndexes)(
    'index mode, flushes every 7 steps running free, from a package index being created',
    async () => {
      const root = join(scratch, 'free');
      // the tail opens while the node creates its first package index (the folder is there, its files not yet)
      const w = startWriter(baseConfig(root, { flushEvery: 7, delayMs: 15, emptyIndexMs: 500 }));
      await w.waitFor(isEv('ready'));
      const t = await startTail(root, { blocks: 'index', pollMs: 30 });
      await t.finished();
      expectExactlyOnce(t.deliveries, t.readBack);
      // the reader followed the writer rather than reading a finished tree
      const lastStep = w.events.find(isEv('step', (e) => e.n === TAIL_LAST_MC));
      expect(t.deliveries[0]!.at).toBeLessThan(lastStep!.at);
      expect((await w.exited).code).toBe(0);
    },
    120_000,
  );

  it('pack-scan only: a writer with no RocksDB at all (sliced packs, masterchain and shard blocks together)', async () => {
    const root = join(scratch, 'packscan');
    const w = startWriter(baseConfig(root, { indexes: false, generation: 'sliced', delayMs: 10 }));
    await w.waitFor(isEv('ready'));
    const t = await startTail(root, { blocks: 'packscan', pollMs: 30 });
    await t.finished();
    expectExactlyOnce(t.deliveries, t.readBack);
    expect((await w.exited).code).toBe(0);
  }, 120_000);

  it('wakes on db.event.blockApplied from --db-event-fifo (poll interval longer than the test)', async () => {
    const root = join(scratch, 'fifo');
    const fifo = join(scratch, 'fifo.events');
    const w = startWriter(
      baseConfig(root, withIndexes ? { fifo, delayMs: 10 } : { fifo, delayMs: 10, indexes: false }),
    );
    await w.waitFor(isEv('ready'));
    const t = await startTail(root, { blocks: withIndexes ? 'auto' : 'packscan', pollMs: 600_000, eventFifo: fifo });
    await w.waitFor(isEv('fifo-reader'));
    await t.finished();
    expectExactlyOnce(t.deliveries, t.readBack);
    // each masterchain block arrived soon after the writer finished it, so wakes came from the FIFO
    const stepAt = new Map(w.events.filter(isEv('step')).map((e) => [e.n, e.at]));
    const lags = t.deliveries.map((d) => d.at - (stepAt.get(d.mc.seqno) ?? Number.NaN)).sort((a, b) => a - b);
    expect(lags.at(-1)).toBeLessThan(10_000);
    expect((await w.exited).code).toBe(0);
  }, 120_000);

  it.skipIf(!withIndexes)(
    'index mode: a writer killed (-9) mid-entry with index commits still in its WAL buffer, resumed, rewrites them',
    async () => {
      const root = join(scratch, 'killed-index');
      // masterchain k + 1 commits no shard blocks (its entry is the torn one), k is not a flush point (the kill
      // loses the index commits since the last one), and the lost steps share k + 1's slice
      const k = steps.findIndex((s, i) => i >= 130 && i % 7 !== 0 && s.shardBlocks.length === 0);
      expect(k).toBeGreaterThan(0);
      const flushed = 7 * Math.floor(k / 7);
      const a = startWriter(baseConfig(root, { flushEvery: 7, delayMs: 5, tearAfter: k }));
      // once the first package index exists (its creation is the next variant's subject)
      await a.waitFor(isEv('step'));
      const t = await startTail(root, { blocks: 'auto', pollMs: 30 });
      const torn = await a.waitFor(isEv('torn'));
      expect(torn.next).toBe(k + 1);
      await t.delivered(k);
      await a.kill9();
      // what the kill left of the index: the commits up to the last flush; the reader had k from the packs
      const probe = await openRocks(indexDir(root, 0), { mode: 'readonly' });
      try {
        expect((await readLtdbDesc(probe, -1, MC_SHARD))?.lastSeqno).toBe(flushed);
        expect(await probe.get(blockHandleKey(steps[k - 1]!.mc.id))).toBeNull();
      } finally {
        await probe.close();
      }
      await new Promise((r) => setTimeout(r, 1000));
      expect(t.deliveries.at(-1)?.mc.seqno).toBe(k);
      expect(await settledWithin(t.done, 0), 'the tail ended at the torn entry').toBe(false);

      // the restart cuts the packs back to the committed sizes in the index and writes flushed + 1 .. again
      const b = startWriter(baseConfig(root, { flushEvery: 7, delayMs: 5, resume: true }));
      expect((await b.waitFor(isEv('resumed'))).from).toBe(flushed + 1);
      await t.finished();
      expectExactlyOnce(t.deliveries, t.readBack);
      expect((await b.exited).code).toBe(0);
      const r = await openPackReader(torn.path);
      try {
        const scan = await r.scanHeaders();
        expect(scan.torn).toBe(false);
        expect(scan.entries.filter((e) => e.name === fileName('block', steps[k]!.mc.id)).length).toBe(1);
      } finally {
        await r.close();
      }
      await expectTreeReadsBack(root, 'auto');
    },
    120_000,
  );

  it('a writer killed (-9) in the middle of a pack entry: no torn block, no stop; a restarted writer finishes', async () => {
    const root = join(scratch, 'killed');
    // a step after which the next one commits no shard blocks: its masterchain entry is the one torn
    const k = steps.findIndex((s, i) => i >= 130 && s.shardBlocks.length === 0); // index of step k+1
    expect(k).toBeGreaterThan(0);
    const tearAfter = k; // steps[k] is masterchain k + 1
    const common = { indexes: false, generation: 'shard-split' as const, delayMs: 5 };
    const a = startWriter(baseConfig(root, { ...common, tearAfter }));
    await a.waitFor(isEv('ready'));
    const t = await startTail(root, { blocks: 'packscan', pollMs: 30 });
    const torn = await a.waitFor(isEv('torn'));
    expect(torn.next).toBe(tearAfter + 1);
    expect(torn.wrote).toBeLessThan(torn.of);
    await t.delivered(tearAfter);
    await a.kill9();
    expect((await a.exited).signal).toBe('SIGKILL');
    // the reader keeps polling over the torn entry and delivers nothing from it
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.deliveries.map((d) => d.mc.seqno).at(-1)).toBe(tearAfter);
    expect(await settledWithin(t.done, 0), 'the tail ended at the torn entry').toBe(false);

    const b = startWriter(baseConfig(root, { ...common, from: tearAfter + 1, truncateTorn: true }));
    const cut = await b.waitFor(isEv('truncated'));
    expect(cut).toMatchObject({ path: torn.path, from: torn.offset + torn.wrote, to: torn.offset });
    await t.finished();
    expectExactlyOnce(t.deliveries, t.readBack);
    expect((await b.exited).code).toBe(0);
    await expectTreeReadsBack(root, 'packscan');
  }, 120_000);
});
