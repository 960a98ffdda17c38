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
//   PostgreSQL's timer falls due (in shared memory), and keeps the instance's exports to reach _emscripten_timeout.
// - `deliver`, reachable from an inspector message through a registry on globalThis, which raises the signal as
//   the setTimeout callback would have. PGlite runs in its own thread (pglite-thread.ts); the thread that started
//   it watches the shared due time and, when it passes, sends that message through its inspector session to the
//   PGlite thread (pglite-alarm.ts). V8 runs it at the thread's next interrupt check, which compiled WASM loops
//   have, so also in the middle of a statement.
// PostgreSQL's own handler then decides whether anything is due (it re-arms the timer if not), exactly as on a
// server. So everything about timeouts is PostgreSQL's: SET LOCAL scope, the cap v3's read() sets, which statement
// is cancelled, the error and its SQLSTATE, the aborted transaction. What the statement path pays is an
// Atomics.notify when PostgreSQL arms its timer (bench figures in docs/pglite.md).
//
// Rejected: JS timers on the PGlite thread (cannot run during a statement); checking a deadline in WASM imports
// (a CPU-bound statement over cached pages calls none for seconds; executor instrumentation that would call the
// clock per row made scans 4-6x slower); refusing statements by EXPLAIN cost (a guess both ways, and every
// statement planned twice); terminating the PGlite thread on timeout (the whole database restarts with crash
// recovery and everything else queued on it fails).
import type { Extension } from '@electric-sql/pglite';

/** setitimer's which for the real-time timer, the one PostgreSQL's timeout.c uses (SIGALRM). */
const ITIMER_REAL = 0;

/**
 * Where the inspector message finds `deliver`: one registry per thread, on globalThis, so that every copy of this
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
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

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
  /** Stops delivering; call before closing the PGlite instance. */
  close(): Promise<void>;
}

/** What the watching thread needs (pglite-alarm.ts): the shared timer state and how to reach `deliver`. */
export interface AlarmShared {
  /** Int32Array: [0] counts changes of the timer (the generation). */
  state: SharedArrayBuffer;
  /** Float64Array: [0] when the timer falls due (performance.timeOrigin + performance.now() ms), 0 when disarmed. */
  due: SharedArrayBuffer;
  /** The expression that delivers generation G is `${call}G)`. */
  call: string;
}

/**
 * One per PGlite instance. `onReady` gets what the watching thread needs once the instance can take signals; a
 * PGlite build without the timer hooks never calls it, and its timeouts stay unenforced.
 */
export function pgliteTimeouts(onReady: (shared: AlarmShared) => void): PgliteTimeouts {
  const id = registry().next++;
  const state = new Int32Array(new SharedArrayBuffer(4));
  const due = new Float64Array(new SharedArrayBuffer(8));
  let raise: ((which: number, now: number) => void) | undefined;
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

  // Runs on the PGlite thread when the watcher's message arrives: inside a statement, or idle.
  const deliver = (generation: number) => {
    if (closed || arming || running === 0 || raise === undefined || generation !== Atomics.load(state, 0)) return;
    // The watcher saw the due time pass; a signal a little early (the threads' clocks may differ by a fraction of a
    // millisecond) is harmless: PostgreSQL's handler fires nothing that is not due and re-arms the timer.
    if (due[0] === 0) return;
    due[0] = 0;
    changed();
    // The same call as Emscripten's setTimeout callback: SIGALRM into PostgreSQL's handler.
    raise(ITIMER_REAL, performance.now());
  };

  const ready = () => {
    if (closed) return;
    registry().alarms.set(id, deliver);
    const call = `globalThis[Symbol.for(${JSON.stringify(REGISTRY.description)})]?.deliver(${id}, `;
    onReady({ state: state.buffer as SharedArrayBuffer, due: due.buffer as SharedArrayBuffer, call });
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
              ready();
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
    },
  };
}
