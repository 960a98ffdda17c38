// The block producer: every blockIntervalMs (or, with 0, whenever there is work) one lockstep step — collateStep
// over the chain tops with the queued external messages, one atomic commitStep, then publish (waiters of
// waitMasterchainSeqno see the step only after its commit). Execution runs in the TVM worker thread; the
// main-thread share of each step is measured through the event loop's utilisation.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Cell } from '@ton/core';
import type { Log } from '../../common/logger.ts';
import { cellsFromBoc } from '../../ton/index.ts';
import type { TvmRunner } from '../../tvm/index.ts';
import {
  type ChainTops,
  type CollatedBlock,
  collateStep,
  type StepResult,
  type ValidatorKey,
  viewState,
} from '../chain/index.ts';
import type { DevnetStore, QueuedExternal } from '../store/index.ts';
import type { DevnetView, HotBlock } from './devnet-view.ts';
import type { SignatureStore } from './signatures.ts';
import type { DevnetBlockEvent, DevnetStepStats } from './types.ts';

export interface ProducerDeps {
  store: DevnetStore;
  tvm: TvmRunner;
  view: DevnetView;
  signatures: SignatureStore;
  validator: ValidatorKey;
  layout: readonly bigint[];
  seed: string;
  blockIntervalMs: number;
  /** Shard blocks are shown this long before the masterchain block that commits them (0: together). */
  shardLeadMs: number;
  maxExternalsPerStep: number;
  clock: () => number;
  log: Log;
  logEvery: number;
  emit: (e: DevnetBlockEvent) => void;
  /** Loads the tops the store's head names (after a failed step, whose commit may or may not have landed). */
  reloadTops: () => Promise<ChainTops>;
}

export interface Producer {
  /** Starts the loop on `tops` (the published head). */
  start(tops: ChainTops): void;
  /** New external messages are queued (interval 0: step now). */
  wake(): void;
  /** Finishes the step in progress and ends the loop. */
  stop(): Promise<void>;
  stats(): DevnetStepStats;
  /** Hashes of external messages queued and not yet in a committed block (sendMessage's duplicate check). */
  isPending(hash: Buffer): boolean;
  markPending(hash: Buffer): void;
  unmarkPending(hash: Buffer): void;
  waiting(): number;
}

interface Waiting {
  q: QueuedExternal;
  cell: Cell | null;
  hash: string;
  /** Steps it was handed to without landing (unrouted, or the step failed). */
  tries: number;
}

/** Steps an unroutable external is carried (the basechain appears in masterchain block 1). */
const MAX_CARRY = 16;
/** Failed steps an external survives before it is dropped as the likely cause. */
const MAX_FAILED_STEPS = 3;
/** Interval-0 mode: steps run only to move queued internal messages, without a transaction, before idling. */
const MAX_QUIET_STEPS = 8;

export function createProducer(d: ProducerDeps): Producer {
  let tops: ChainTops | null = null;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const waiting: Waiting[] = [];
  const pending = new Set<string>();
  let quietSteps = 0;
  let failures = 0;
  const st = {
    steps: 0,
    transactions: 0,
    collateMs: 0,
    commitMs: 0,
    maxCollateMs: 0,
    maxCommitMs: 0,
    mainThreadMs: 0,
    failures: 0,
  };
  let sinceLog = { steps: 0, transactions: 0, collateMs: 0, commitMs: 0, mainMs: 0 };

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  /** Resolves after `ms`; on wake() too when `interruptible`; always on stop. */
  function pause(ms: number, interruptible: boolean): Promise<void> {
    if (stopping) return Promise.resolve();
    if (interruptible && woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
      if (Number.isFinite(ms)) timer = setTimeout(done, Math.max(0, ms));
      // With an interval, a message that arrives mid-interval waits for the next step's time.
      wakeUp = () => {
        if (interruptible || stopping) {
          woken = false;
          done();
        }
      };
    });
  }

  async function takeNew(): Promise<void> {
    const room = d.maxExternalsPerStep - waiting.length;
    if (room <= 0) return;
    for (const q of await d.store.takeExternals(room)) {
      let cell: Cell | null = null;
      try {
        cell = cellsFromBoc(q.boc)[0] ?? null;
      } catch {
        cell = null;
      }
      const hash = cell ? cell.hash().toString('hex') : `bad-${q.id}`;
      pending.add(hash);
      waiting.push({ q, cell, hash, tries: 0 });
    }
  }

  function layoutReached(t: ChainTops): boolean {
    // A zero-state top is not registered by the masterchain yet (it adds the workchain in its first block).
    if (t.shards.length !== d.layout.length || t.shards.some((s) => s.block === null)) return false;
    const have = new Set(t.shards.map((s) => s.id.shard));
    return d.layout.every((s) => have.has(s));
  }

  function queuesBusy(t: ChainTops): boolean {
    return [t.mc, ...t.shards].some((top) => viewState(top.state).outMsgQueueInfo.outQueue.root !== null);
  }

  async function hasWork(t: ChainTops): Promise<boolean> {
    await takeNew();
    if (waiting.length > 0 || !layoutReached(t)) return true;
    return queuesBusy(t) && quietSteps < MAX_QUIET_STEPS;
  }

  function stepSeed(seqno: number): Buffer {
    return createHash('sha256').update(`tongate-devnet step ${d.seed} ${seqno}`).digest();
  }

  function hotOf(b: CollatedBlock): HotBlock {
    return { id: b.id, root: b.block, boc: b.boc, state: b.state };
  }

  async function drop(list: Waiting[], why: string): Promise<void> {
    if (list.length === 0) return;
    d.log('warn', 'Dropped external messages', { count: list.length, reason: why });
    await d.store.ackExternals(list.map((w) => w.q.id));
    for (const w of list) pending.delete(w.hash);
  }

  async function step(t: ChainTops): Promise<ChainTops> {
    await takeNew();
    const unparsable = waiting.filter((w) => !w.cell);
    if (unparsable.length > 0) {
      for (const w of unparsable) waiting.splice(waiting.indexOf(w), 1);
      await drop(unparsable, 'not a BoC');
    }
    const batch = waiting.splice(0, d.maxExternalsPerStep);
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    let r: StepResult;
    let t1: number;
    try {
      r = await collateStep(t, {
        // collateStep dates the masterchain block at least `now + 1`: so it carries the wall-clock second.
        now: Math.floor(d.clock() / 1000) - 1,
        seed: stepSeed(t.mc.id.seqno + 1),
        externals: batch.map((w) => w.cell as Cell),
        tvm: d.tvm,
        validator: d.validator,
        layout: d.layout,
        // The first block after the zero state is a key block: the global config's init_block (see node.ts).
        keyBlock: t.mc.id.seqno === 0,
      });
      t1 = performance.now();
      await d.signatures.write(r.mcBlock.id, {
        validatorSetHash: r.mcBlock.validatorSetHash,
        catchainSeqno: r.mcBlock.catchainSeqno,
        signatures: r.mcBlock.signatures,
      });
    } catch (e) {
      await failed(batch, e);
      return t;
    }
    if (d.shardLeadMs > 0 && r.shardBlocks.length > 0 && !stopping) {
      // Signed, not committed yet: visible to lookups and reads, named by no masterchain block.
      d.view.preview(r.shardBlocks.map(hotOf));
      await pause(d.shardLeadMs, false);
    }
    const unrouted = new Set(r.unrouted);
    const carried: Waiting[] = [];
    const done: Waiting[] = [];
    for (const w of batch) {
      if (unrouted.has(w.cell as Cell)) {
        w.tries++;
        carried.push(w);
      } else done.push(w);
    }
    const expired = carried.filter((w) => w.tries >= MAX_CARRY);
    const blocks: CollatedBlock[] = [...r.shardBlocks, r.mcBlock];
    try {
      await d.store.commitStep({
        mcBlock: { boc: r.mcBlock.boc, state: r.mcBlock.state, accounts: r.mcBlock.accounts },
        shardBlocks: r.shardBlocks.map((b) => ({ boc: b.boc, state: b.state, accounts: b.accounts })),
        ackExternals: [...done, ...expired].map((w) => w.q.id),
      });
    } catch (e) {
      d.view.dropPreview();
      await failed(batch, e);
      return d.reloadTops();
    }
    const t2 = performance.now();
    const mainMs = performance.eventLoopUtilization(elu0).active;
    failures = 0;
    for (const w of [...done, ...expired]) pending.delete(w.hash);
    if (expired.length > 0)
      d.log('warn', 'Dropped external messages', { count: expired.length, reason: 'no chain takes them' });
    waiting.unshift(...carried.filter((w) => w.tries < MAX_CARRY));

    d.view.publish({ tops: r.tops, mcUtime: r.mcBlock.genUtime }, blocks.map(hotOf));

    const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);
    const rejected = blocks.flatMap((b) => b.rejected);
    for (const x of rejected) {
      d.log('debug', 'Refused external message at collation', { hash: x.hash.toString('hex'), error: x.error });
    }
    quietSteps = transactions > 0 ? 0 : quietSteps + 1;
    const collateMs = t1 - t0;
    const commitMs = t2 - t1;
    st.steps++;
    st.transactions += transactions;
    st.collateMs += collateMs;
    st.commitMs += commitMs;
    st.mainThreadMs += mainMs;
    st.maxCollateMs = Math.max(st.maxCollateMs, collateMs);
    st.maxCommitMs = Math.max(st.maxCommitMs, commitMs);
    sinceLog.steps++;
    sinceLog.transactions += transactions;
    sinceLog.collateMs += collateMs;
    sinceLog.commitMs += commitMs;
    sinceLog.mainMs += mainMs;
    const mcSeqno = r.mcBlock.id.seqno;
    if (d.logEvery > 0 && mcSeqno % d.logEvery === 0) {
      d.log('info', 'Produced masterchain blocks', {
        mcSeqno,
        steps: sinceLog.steps,
        transactions: sinceLog.transactions,
        shards: r.tops.shards.length,
        avgCollateMs: round(sinceLog.collateMs / sinceLog.steps),
        avgCommitMs: round(sinceLog.commitMs / sinceLog.steps),
        avgMainThreadMs: round(sinceLog.mainMs / sinceLog.steps),
        externalsWaiting: waiting.length,
      });
      sinceLog = { steps: 0, transactions: 0, collateMs: 0, commitMs: 0, mainMs: 0 };
    }
    d.emit({
      mcSeqno,
      mcBlock: r.mcBlock.id,
      shardBlocks: r.shardBlocks.map((b) => b.id),
      transactions,
      rejectedExternals: rejected.length,
      genUtime: r.mcBlock.genUtime,
      collateMs,
      commitMs,
    });
    return r.tops;
  }

  async function failed(batch: Waiting[], e: unknown): Promise<void> {
    failures++;
    st.failures++;
    d.log('error', 'Failed to produce a step', {
      error: e instanceof Error ? e.message : String(e),
      code: (e as { code?: string }).code,
      externals: batch.length,
      failures,
    });
    for (const w of batch) w.tries++;
    const give = batch.filter((w) => w.tries >= MAX_FAILED_STEPS);
    waiting.unshift(...batch.filter((w) => w.tries < MAX_FAILED_STEPS));
    await drop(give, 'the steps that took them failed').catch(() => {});
  }

  async function run(): Promise<void> {
    let next = d.clock();
    while (!stopping && tops) {
      if (d.blockIntervalMs > 0) {
        await pause(next - d.clock(), false);
        next = Math.max(next + d.blockIntervalMs, d.clock());
      } else {
        while (!stopping && !(await hasWork(tops))) await pause(Number.POSITIVE_INFINITY, true);
      }
      if (stopping) break;
      tops = await step(tops);
      if (failures > 0) await pause(Math.min(10_000, 100 * 2 ** Math.min(failures, 7)), false);
    }
  }

  return {
    start(t) {
      tops = t;
      loop = run().catch((e: unknown) => {
        d.log('error', 'Stopped block production', { error: e instanceof Error ? e.message : String(e) });
      });
    },
    wake,
    async stop() {
      stopping = true;
      wake();
      await loop;
    },
    stats() {
      const n = Math.max(1, st.steps);
      return {
        steps: st.steps,
        transactions: st.transactions,
        avgCollateMs: round(st.collateMs / n),
        avgCommitMs: round(st.commitMs / n),
        maxCollateMs: round(st.maxCollateMs),
        maxCommitMs: round(st.maxCommitMs),
        failures: st.failures,
        avgMainThreadMs: round(st.mainThreadMs / n),
      };
    },
    isPending: (hash) => pending.has(hash.toString('hex')),
    markPending: (hash) => pending.add(hash.toString('hex')),
    unmarkPending: (hash) => pending.delete(hash.toString('hex')),
    waiting: () => waiting.length,
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
