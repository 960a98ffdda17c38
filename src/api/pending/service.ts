// Pending traces for the API process (v3-api.md §8, in-process instead of toncenter's emulator + Redis): every
// external message a client sends through us (the onExternalMessage hook of v2 sendBoc* and v3 /message) is
// emulated at once on the latest states, classified, and stored in pending_traces until its trace lands (the
// classifier drops the row) or the row expires (swept here). The send never waits for it and never sees its
// errors: they are logged. Work is bounded: a few emulations at a time (the TVM itself runs one transaction at a
// time), a bounded backlog, and messages beyond it are dropped with a log line.
import type { Logger } from 'pino';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import type { Database } from '../../db/index.ts';
import { classifyTrace, interfacesOf, loadInterfaces, traceRequests } from '../../index/actions/index.ts';
import { type ExternalMessage, masterchainBlock, type V2Context } from '../v2/shared.ts';
import { detectInterfaces } from './detect.ts';
import { emulateTrace, type TraceLimits } from './emulate-trace.ts';
import { type PendingTraceRow, pendingTraceInput, pendingTraceRow } from './pending-row.ts';
import { deleteExpiredPendingTraceKeys, writePendingTrace } from './store.ts';

export interface PendingTracesOptions {
  db: Database;
  v2: V2Context;
  logger: Logger;
  /** How long a row lives if its trace does not land (default 60 s, toncenter's TTL). */
  ttlMs?: number;
  /** Emulations in progress at once (default 2). */
  concurrency?: number;
  /** Messages waiting for an emulation slot; more are dropped (default 256). */
  maxQueue?: number;
  /** Expired rows are swept this often (default ttlMs / 2). */
  sweepIntervalMs?: number;
  limits?: Partial<TraceLimits>;
  /** Wall clock in milliseconds. Default Date.now. */
  clock?: () => number;
  /** Called with each stored row (streams, tests). */
  onStored?: (row: PendingTraceRow) => void;
  /** Called with the keys of rows that expired without their trace landing (streams retract them). */
  onExpired?: (traceKeys: string[]) => void;
}

export interface PendingTraces {
  /** The onExternalMessage hook: queues the message's emulation and returns at once. */
  submit(m: ExternalMessage): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Stops the sweep, drops the backlog and waits for the emulations in progress. */
  close(): Promise<void>;
}

export const PENDING_TTL_MS = 60_000;

export function createPendingTraces(opts: PendingTracesOptions): PendingTraces {
  const ttlMs = opts.ttlMs ?? PENDING_TTL_MS;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const maxQueue = opts.maxQueue ?? 256;
  const clock = opts.clock ?? Date.now;
  const log = opts.logger;
  const queue: { m: ExternalMessage; block: Promise<tonNode_blockIdExt> }[] = [];
  let running = 0;
  let closed = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (running > 0 || queue.length > 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  async function emulateAndStore(m: ExternalMessage, blockRead: Promise<tonNode_blockIdExt>): Promise<void> {
    const hash = m.hash.toString('base64');
    const e = await emulateTrace(m.boc, { v2: opts.v2, block: await blockRead, limits: opts.limits, clock });
    const input = pendingTraceInput(e);
    const { addresses, accountData } = traceRequests([input]);
    const known = await loadInterfaces(opts.db, addresses, accountData);
    const unknown = addresses.filter((a) => !known.has(a));
    for (const [a, info] of await detectInterfaces(opts.v2, e, unknown)) known.set(a, info);
    const actions = classifyTrace(input, interfacesOf(known));
    const row = pendingTraceRow(e, input, actions);
    const stored = await writePendingTrace(opts.db, row, new Date(clock() + ttlMs));
    if (!stored) {
      log.debug({ hash }, 'Pending trace not stored: its trace already landed');
      return;
    }
    log.debug(
      {
        hash,
        traceKey: row.traceKey,
        transactions: input.nodes.length,
        actions: actions.length,
        incomplete: e.incomplete,
      },
      'Emulated a pending trace',
    );
    opts.onStored?.(row);
  }

  function pump(): void {
    while (!closed && running < concurrency && queue.length > 0) {
      const job = queue.shift()!;
      running++;
      emulateAndStore(job.m, job.block)
        .catch((err: unknown) => {
          log.warn(
            { err: err instanceof Error ? err.message : String(err), hash: job.m.hash.toString('base64') },
            'Pending trace emulation failed',
          );
        })
        .finally(() => {
          running--;
          pump();
          settle();
        });
    }
    settle();
  }

  const sweepEvery = opts.sweepIntervalMs ?? Math.max(1_000, Math.floor(ttlMs / 2));
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = setInterval(() => {
    sweeping = deleteExpiredPendingTraceKeys(opts.db, new Date(clock()))
      .then((keys) => {
        if (keys.length > 0) opts.onExpired?.(keys);
      })
      .catch((err: unknown) =>
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'Pending trace sweep failed'),
      );
  }, sweepEvery);
  sweep.unref();

  return {
    submit(m) {
      if (closed) return;
      if (queue.length >= maxQueue) {
        log.warn(
          { hash: m.hash.toString('base64'), queued: queue.length },
          'Pending trace dropped: emulation backlog full',
        );
        return;
      }
      // The states are read at the head as of now, before the message can land in a block and change them.
      const block = opts.v2.lite.withServer((l) => masterchainBlock(l));
      block.catch(() => {});
      queue.push({ m, block });
      pump();
    },
    idle() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      queue.length = 0;
      if (running > 0) await new Promise<void>((resolve) => waiters.push(resolve));
      settle();
      // The database is closed after us: no statement of ours may still be running then.
      await sweeping;
    },
  };
}
