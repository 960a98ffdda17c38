// createTvmRunner: a bounded FIFO of calls in front of N executors (worker threads, or one in-process executor).
// A call waits until an executor is idle, is encoded for that executor, and its result is decoded back into cells.
import { type Cell, parseTuple, type TupleItem } from '@ton/core';
import { TvmError } from '../common/errors.ts';
import { cellsFromBoc } from '../ton/index.ts';
import { CALL_NAMES, type Call, type TickTockArgs } from './calls.ts';
import { createInProcessLane, createWorkerLane, type Lane, type LaneEvents } from './lanes.ts';
import type { TvmGetArgs, TvmGetResult, TvmRunnerHandle, TvmRunnerOptions, TvmTxArgs, TvmTxResult } from './types.ts';
import { asBuffer, type WireResult } from './wire.ts';

const MAX_THREADS = 64;
const UINT32_MAX = 0xffff_ffff;
const UINT64_MAX = (1n << 64n) - 1n;

type Pending = { call: Call; resolve(r: WireResult): void; reject(e: Error): void };

function cellOf(bytes: Uint8Array): Cell {
  return cellsFromBoc(asBuffer(bytes))[0]!;
}

function invalid(call: Call['kind'], what: string): TvmError {
  return new TvmError(`${CALL_NAMES[call]}: ${what}`, { details: { call } });
}

function checkCommon(kind: Call['kind'], a: { now: number; randomSeed: Buffer }): void {
  if (!Number.isInteger(a.now) || a.now < 0 || a.now > UINT32_MAX)
    throw invalid(kind, `now must be a uint32, got ${a.now}`);
  if (a.randomSeed.length !== 32) throw invalid(kind, `randomSeed must be 32 bytes, got ${a.randomSeed.length}`);
}

function checkRun(kind: Call['kind'], a: TvmTxArgs | TickTockArgs): void {
  checkCommon(kind, a);
  if (a.lt < 0n || a.lt > UINT64_MAX) throw invalid(kind, `lt must be a uint64, got ${a.lt}`);
}

function decodeTx(call: Call, r: WireResult): TvmTxResult {
  if (r.kind === 'tx-ok') {
    return {
      ok: true,
      transaction: cellOf(r.transaction),
      shardAccount: cellOf(r.shardAccount),
      actions: r.actions === null ? null : cellOf(r.actions),
      vmLog: r.vmLog,
    };
  }
  if (r.kind === 'tx-refused') return { ok: false, error: r.error, exitCode: r.exitCode, vmLog: r.vmLog };
  throw new TvmError(`${CALL_NAMES[call.kind]}: the executor answered ${r.kind}`, { details: { call: call.kind } });
}

function decodeGet(call: Call, r: WireResult): TvmGetResult {
  if (r.kind === 'get-refused') {
    throw new TvmError(`runGetMethod: the emulator refused the call: ${r.error}`, { details: { call: call.kind } });
  }
  if (r.kind !== 'get-ok') {
    throw new TvmError(`runGetMethod: the executor answered ${r.kind}`, { details: { call: call.kind } });
  }
  const stackBoc = cellOf(r.stack);
  let stack: TupleItem[] = [];
  let stackParseError: string | undefined;
  try {
    stack = parseTuple(stackBoc);
  } catch (e) {
    // Continuations and other values @ton/core has no TupleItem for: the VmStack cell is still exact.
    stackParseError = (e as Error).message;
  }
  return {
    exitCode: r.exitCode,
    stack,
    stackBoc,
    gasUsed: r.gasUsed,
    missingLibrary: r.missingLibrary === null ? null : Buffer.from(r.missingLibrary),
    vmLog: r.vmLog,
    ...(stackParseError === undefined ? {} : { stackParseError }),
  };
}

/**
 * Starts the executors (each compiles the emulator's WASM once) and resolves when all are ready. With
 * `threads >= 1` the emulator never runs on the caller's thread; `threads: 0` runs the same handler in it.
 */
export async function createTvmRunner(opts: TvmRunnerOptions = {}): Promise<TvmRunnerHandle> {
  const threads = opts.threads ?? 1;
  const maxQueue = opts.maxQueue ?? 1024;
  const verbosity = opts.verbosity ?? 'short';
  if (!Number.isInteger(threads) || threads < 0 || threads > MAX_THREADS) {
    throw new TvmError(`createTvmRunner: threads must be an integer in 0..${MAX_THREADS}, got ${threads}`);
  }
  if (!Number.isInteger(maxQueue) || maxQueue < 0) {
    throw new TvmError(`createTvmRunner: maxQueue must be a non-negative integer, got ${maxQueue}`);
  }

  const queue: Pending[] = [];
  let closed = false;
  let broken: TvmError | null = null;

  const events: LaneEvents = {
    onIdle: () => pump(),
    onBroken: (error) => {
      if (!lanes.every((l) => l.broken)) return;
      broken = error;
      for (const p of queue.splice(0)) p.reject(error);
    },
  };
  const lanes: Lane[] = [];
  if (threads === 0) lanes.push(createInProcessLane(0, { verbosity }, events));
  for (let i = 0; i < threads; i++) lanes.push(createWorkerLane(i, { verbosity }, events));

  try {
    await Promise.all(lanes.map((l) => l.started));
  } catch (e) {
    await Promise.all(lanes.map((l) => l.close()));
    throw e;
  }

  function pump(): void {
    for (const lane of lanes) {
      if (queue.length === 0) return;
      if (!lane.idle) continue;
      const p = queue.shift()!;
      lane.run(p.call).then(p.resolve, p.reject);
    }
  }

  function submit(call: Call): Promise<WireResult> {
    if (closed) return Promise.reject(new TvmError(`${CALL_NAMES[call.kind]}: the TVM runner is closed`));
    if (broken !== null) return Promise.reject(broken);
    return new Promise<WireResult>((resolve, reject) => {
      const p: Pending = { call, resolve, reject };
      queue.push(p);
      pump();
      // Still waiting (no executor was idle) beyond the bound: refused, and the queue is as it was.
      if (queue.length > maxQueue && queue[queue.length - 1] === p) {
        queue.pop();
        reject(
          new TvmError(`${CALL_NAMES[call.kind]}: the TVM runner queue is full (${maxQueue} calls waiting)`, {
            retryable: true,
            details: { call: call.kind, maxQueue },
          }),
        );
      }
    });
  }

  return {
    async runTransaction(args) {
      checkRun('tx', args);
      const call: Call = { kind: 'tx', args };
      return decodeTx(call, await submit(call));
    },
    async runTickTock(args) {
      checkRun('ticktock', args);
      const call: Call = { kind: 'ticktock', args };
      return decodeTx(call, await submit(call));
    },
    async runGetMethod(args: TvmGetArgs) {
      checkCommon('get', args);
      const call: Call = { kind: 'get', args };
      return decodeGet(call, await submit(call));
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new TvmError('the TVM runner was closed before the call started');
      for (const p of queue.splice(0)) p.reject(error);
      await Promise.all(lanes.map((l) => l.close()));
    },
    async killWorker(index) {
      const lane = lanes[index];
      if (lane === undefined) throw new TvmError(`killWorker: no executor ${index} (have ${lanes.length})`);
      await lane.kill();
    },
    stats() {
      return {
        threads,
        queued: queue.length,
        busy: lanes.filter((l) => l.busy).length,
        restarts: lanes.reduce((n, l) => n + l.restarts, 0),
      };
    },
  };
}
