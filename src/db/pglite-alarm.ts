// The watching half of PGlite's statement timeouts (pglite-timeout.ts has the other half and the why). The PGlite
// thread records in shared memory when PostgreSQL's timer falls due; the thread that started it waits for that time
// here and then sends the PGlite thread one inspector message that raises the timer signal. The message reaches
// the PGlite thread through this thread's own in-process inspector session (no port): the NodeWorker domain attaches
// to the worker threads this thread started, and V8 runs a message sent to one at that thread's next interrupt
// check, inside a running statement too.
// Limits: a Node built without the inspector, or a session the inspector refuses, leaves timeouts unenforced.
import { Session } from 'node:inspector';
import type { Worker } from 'node:worker_threads';
import { type AlarmShared, nowMs } from './pglite-timeout.ts';

interface Attachments {
  session: Session;
  /** Worker threadId -> inspector session id, for the PGlite threads only. */
  sessions: Map<number, string>;
  /** PGlite threads started here, attached or about to be. */
  wanted: Set<number>;
}

let attachments: Attachments | null | undefined;

/** Atomics.waitAsync (Node 16+; not in this TypeScript target's lib). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(a: Int32Array, i: number, v: number, ms?: number): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** One session per thread, with NodeWorker enabled; other worker threads are detached as soon as they attach. */
function attach(): Attachments | null {
  if (attachments !== undefined) return attachments;
  try {
    const session = new Session();
    session.connect();
    const a: Attachments = { session, sessions: new Map(), wanted: new Set() };
    session.on('NodeWorker.attachedToWorker', (m) => {
      const { sessionId, workerInfo } = m.params as { sessionId: string; workerInfo: { workerId: string } };
      const threadId = Number(workerInfo.workerId);
      if (a.wanted.has(threadId)) a.sessions.set(threadId, sessionId);
      else session.post('NodeWorker.detach', { sessionId }, () => {});
    });
    session.on('NodeWorker.detachedFromWorker', (m) => {
      const { sessionId } = m.params as { sessionId: string };
      for (const [threadId, id] of a.sessions) if (id === sessionId) a.sessions.delete(threadId);
    });
    session.post('NodeWorker.enable', { waitForDebuggerOnStart: false }, () => {});
    attachments = a;
  } catch {
    attachments = null;
  }
  return attachments;
}

/** Call right after starting a PGlite thread, before it can report its timer: its inspector session is kept. */
export function watchThread(worker: Worker): void {
  attach()?.wanted.add(worker.threadId);
}

/**
 * Watches one PGlite instance's timer until the returned function is called. It fires once per generation:
 * delivering bumps the generation, and so does PostgreSQL re-arming the timer.
 */
export function startAlarm(worker: Worker, shared: AlarmShared): () => void {
  const a = attach();
  const threadId = worker.threadId;
  if (a === null) return () => {};
  const state = new Int32Array(shared.state);
  const due = new Float64Array(shared.due);
  let stopped = false;
  let messageId = 0;
  const send = (generation: number) => {
    const sessionId = a.sessions.get(threadId);
    if (sessionId === undefined) return;
    const message = JSON.stringify({
      id: ++messageId,
      method: 'Runtime.evaluate',
      params: { expression: `${shared.call}${generation})`, silent: true },
    });
    a.session.post('NodeWorker.sendMessageToWorker', { sessionId, message }, () => {});
  };
  void (async () => {
    while (!stopped) {
      const generation = Atomics.load(state, 0);
      const at = due[0]!;
      let wait: number | undefined;
      if (at !== 0) {
        const left = at - nowMs();
        if (left > 0) wait = left;
        else {
          send(generation);
          // Delivered, the generation changes; not (it arrived between two protocol messages), send again soon.
          wait = 5;
        }
      }
      // Wakes on a change of the timer, at the due time, or on stop().
      const w = waitAsync(state, 0, generation, wait);
      if (w.async) await w.value;
    }
  })();
  return () => {
    stopped = true;
    Atomics.notify(state, 0);
    a.wanted.delete(threadId);
    a.sessions.delete(threadId);
  };
}
