// PostgreSQL's statement_timeout (and the other timeouts on its timer) enforced on PGlite, by delivering the timer
// signal PostgreSQL waits for while a statement runs (issue 18; docs/pglite.md).
//
// How PostgreSQL does it: timeout.c arms setitimer(); at the due time SIGALRM runs its handler, which marks the
// timeout fired and sets QueryCancelPending; the next CHECK_FOR_INTERRUPTS (every row of every executor node,
// planner and sort loops, pg_sleep) raises SQLSTATE 57014 "canceling statement due to statement timeout".
// PGlite's Emscripten build turns setitimer() into a JS setTimeout() whose callback raises the signal (the WASM
// export _emscripten_timeout). But a statement is one synchronous call into WASM on the JS thread, so that
// callback runs only after the statement ended: no timeout ever fired, whatever statement_timeout said.
//
// What this module adds, without touching PostgreSQL's logic:
// - `extension`, given to PGlite.create: through the hook PGlite gives extensions (setup may return new
//   Emscripten options) it wraps instantiateWasm, replaces the import _setitimer_js by one that also records when
//   PostgreSQL's timer falls due, and keeps the instance's exports to reach _emscripten_timeout.
// - a helper thread that sleeps on a SharedArrayBuffer until that due time and then interrupts the main thread
//   through Node's inspector: a session connected to the main thread (in process, no port) whose message V8 runs at
//   its next interrupt check, which compiled WASM loops have, so also in the middle of a statement.
//   The message calls `deliver` here, which raises the signal as the setTimeout callback would have. PostgreSQL's
//   own handler then decides whether anything is due (it re-arms the timer if not), exactly as on a server.
// So everything about timeouts is PostgreSQL's: SET LOCAL scope, the cap v3's read() sets, which statement is
// cancelled, the error and its SQLSTATE, the aborted transaction. What the statement path pays is an
// Atomics.notify when PostgreSQL arms its timer (bench figures in docs/pglite.md).
//
// Rejected: JS timers on the main thread (cannot run during a statement); checking a deadline in WASM imports
// (a CPU-bound statement over cached pages calls none for seconds; executor instrumentation that would call the
// clock per row made scans 4-6x slower); refusing statements by EXPLAIN cost (a guess both ways, and every
// statement planned twice); PGlite in a worker thread terminated on timeout (the whole database restarts with
// crash recovery and everything else queued on it fails).
// Limits: the inspector session reaches only the process's main thread, so a PGlite opened in a worker thread, or
// a Node built without the inspector, gets no helper thread and keeps the old behaviour (timeouts unenforced).
import { isMainThread, Worker } from 'node:worker_threads';
import type { Extension } from '@electric-sql/pglite';

/** setitimer's which for the real-time timer, the one PostgreSQL's timeout.c uses (SIGALRM). */
const ITIMER_REAL = 0;

/**
 * Where the inspector message finds `deliver`: one registry per process, on globalThis, so that every copy of this
 * module (a test runner may load it more than once) shares it and instance ids never collide.
 */
interface Registry {
  next: number;
  readonly alarms: Map<number, (generation: number) => void>;
  deliver(id: number, generation: number): void;
}
const REGISTRY = Symbol.for('tongate.pglite.timeoutAlarm');

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[REGISTRY];
  if (r === undefined) {
    const alarms = new Map<number, (generation: number) => void>();
    r = { next: 1, alarms, deliver: (id, generation) => alarms.get(id)?.(generation) };
    g[REGISTRY] = r;
  }
  return r;
}

/** Milliseconds on a clock both threads share (each thread has its own performance.timeOrigin). */
function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

// The helper thread, CommonJS because it is eval'd (as src/common/ts-worker.ts's bootstrap). state[0] counts
// changes of the timer; due[0] is when it falls due (nowMs() clock), 0 when disarmed. It fires once per
// generation: delivering bumps the generation, and so does PostgreSQL re-arming the timer.
const HELPER = `
const { workerData } = require('node:worker_threads');
const { Session } = require('node:inspector');
const state = new Int32Array(workerData.state);
const due = new Float64Array(workerData.due);
const call = 'globalThis[Symbol.for(' + JSON.stringify(workerData.key) + ')]?.deliver(' + workerData.id + ', ';
const session = new Session();
session.connectToMainThread();
setInterval(() => {}, 2 ** 31 - 1); // a pending Atomics.waitAsync alone does not keep a thread's loop alive
(async () => {
  for (;;) {
    const generation = Atomics.load(state, 0);
    const at = due[0];
    let wait;
    if (at !== 0) {
      const left = at - (performance.timeOrigin + performance.now());
      if (left > 0) wait = left;
      else {
        session.post('Runtime.evaluate', { expression: call + generation + ')', silent: true }, () => {});
        // Delivered, the generation changes; not (it arrived between two protocol messages), post again soon.
        wait = 5;
      }
    }
    const w = Atomics.waitAsync(state, 0, generation, wait);
    if (w.async) await w.value;
  }
})();
`;

// The little of Emscripten's module options and of WebAssembly this needs (tsconfig has no DOM types).
interface WasmImports {
  env?: Record<string, unknown>;
}
interface WasmInstance {
  exports: Record<string, unknown>;
}
type InstantiateDone = (instance: WasmInstance, module: unknown) => void;
interface EmscriptenOptions {
  instantiateWasm?: (imports: WasmImports, done: InstantiateDone) => unknown;
  postRun?: ((mod: Record<string, unknown>) => void) | Array<(mod: Record<string, unknown>) => void>;
}

export interface PgliteTimeouts {
  /** Goes into PGlite.create's `extensions`. */
  readonly extension: Extension;
  /** Stops delivering and ends the helper thread; call before closing the PGlite instance. */
  close(): Promise<void>;
}

/** One per PGlite instance. */
export function pgliteTimeouts(): PgliteTimeouts {
  const id = registry().next++;
  const state = new Int32Array(new SharedArrayBuffer(4));
  const due = new Float64Array(new SharedArrayBuffer(8));
  let raise: ((which: number, now: number) => void) | undefined;
  let helper: Worker | undefined;
  let closed = false;
  /** Inside the _setitimer_js wrapper: a message arriving there waits for the timer that call is setting. */
  let arming = false;
  /**
   * Depth of calls into PostgreSQL's main loop. A signal is raised only inside one: a message that runs between
   * statements (from the event loop) finds the statement it was meant for finished, and raising it there would
   * leave QueryCancelPending set for the next statement, which PostgreSQL would cancel "due to user request" (a
   * server discards such a stale cancel while it reads the next command from its socket; PGlite reads none).
   */
  let running = 0;
  /** Emscripten's _emscripten_timeout export, once the instance exists. */
  let timer: ((which: number, now: number) => void) | undefined;

  const changed = () => {
    Atomics.add(state, 0, 1);
    Atomics.notify(state, 0);
  };

  // Runs on the main thread when the helper's message arrives: inside a statement, or idle.
  const deliver = (generation: number) => {
    if (closed || arming || running === 0 || raise === undefined || generation !== Atomics.load(state, 0)) return;
    // The helper saw the due time pass; a signal a little early (the threads' clocks may differ by a fraction of a
    // millisecond) is harmless: PostgreSQL's handler fires nothing that is not due and re-arms the timer.
    if (due[0] === 0) return;
    due[0] = 0;
    changed();
    // The same call as Emscripten's setTimeout callback: SIGALRM into PostgreSQL's handler.
    raise(ITIMER_REAL, performance.now());
  };

  const startHelper = () => {
    if (closed || !isMainThread || helper !== undefined) return;
    try {
      helper = new Worker(HELPER, {
        eval: true,
        workerData: { state: state.buffer, due: due.buffer, key: REGISTRY.description, id },
      });
    } catch {
      return;
    }
    registry().alarms.set(id, deliver);
    helper.unref();
    // No inspector in this Node (or it refused the session): timeouts stay unenforced, as documented.
    helper.on('error', () => {});
  };

  const setup = async (_pg: unknown, opts: EmscriptenOptions) => {
    const instantiate = opts.instantiateWasm;
    if (typeof instantiate !== 'function') return {};
    const postRun = opts.postRun === undefined ? [] : Array.isArray(opts.postRun) ? opts.postRun : [opts.postRun];
    return {
      emscriptenOpts: {
        ...opts,
        // Once the module is built (PGlite calls Module._PostgresMainLoopOnce per protocol message, and
        // _PostgresMainLongJmp after an error): count the calls, and start delivering only when both are there.
        postRun: [
          ...postRun,
          (mod: Record<string, unknown>) => {
            const counted = ['_PostgresMainLoopOnce', '_PostgresMainLongJmp'].every((name) => {
              const f = mod[name];
              if (typeof f !== 'function') return false;
              mod[name] = (...args: unknown[]) => {
                running++;
                try {
                  return (f as (...a: unknown[]) => unknown)(...args);
                } finally {
                  running--;
                }
              };
              return true;
            });
            if (counted && timer !== undefined) {
              raise = timer;
              startHelper();
            }
          },
        ],
        instantiateWasm: (imports: WasmImports, done: InstantiateDone) => {
          const env = imports.env;
          const setitimer = env?._setitimer_js;
          if (env !== undefined && typeof setitimer === 'function') {
            env._setitimer_js = (which: number, ms: number) => {
              arming = true;
              try {
                const r = (setitimer as (which: number, ms: number) => number)(which, ms);
                if (which === ITIMER_REAL) {
                  due[0] = ms > 0 ? nowMs() + ms : 0;
                  changed();
                }
                return r;
              } finally {
                arming = false;
              }
            };
          }
          return instantiate(imports, (instance, module) => {
            const t = instance.exports._emscripten_timeout;
            if (typeof t === 'function' && typeof setitimer === 'function') timer = t as typeof timer;
            done(instance, module);
          });
        },
      },
    };
  };

  return {
    extension: { name: 'tongate-timeouts', setup: setup as Extension['setup'] },
    async close() {
      if (closed) return;
      closed = true;
      registry().alarms.delete(id);
      await helper?.terminate();
    },
  };
}
