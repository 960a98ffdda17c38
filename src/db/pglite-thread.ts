// The PGlite driver the process uses: PGlite runs in its own thread (pglite-worker.ts), and this side forwards
// each Driver call to it as a message. A statement is one synchronous call into WASM; in the caller's thread it held
// the event loop for its whole length, so under load every other request (v2 reads waiting on a liteserver,
// /healthz) queued behind v3's queries (issue 18). Here the loop only sends and receives.
// What stays the same: one connection, statements and transactions one at a time in PGlite's own queue, the lock
// file (taken here, before the thread starts), statement timeouts (pglite-alarm.ts watches them from this side).
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type DatabaseConfig, DbError } from '../common/index.ts';
import { startTsWorker, workerEntry } from '../common/ts-worker.ts';
import type { Driver, DriverResult, DriverSession } from './driver.ts';
import { startAlarm, watchThread } from './pglite-alarm.ts';
import { lockDirectory } from './pglite-lock.ts';
import {
  errorFromWire,
  errorToWire,
  type FromPglite,
  restoreBuffers,
  type ToPglite,
  type TxId,
} from './pglite-wire.ts';

type PgliteConfig = Extract<DatabaseConfig, { kind: 'pglite' }>;

const WORKER_ENTRY = workerEntry(new URL('./pglite-worker.ts', import.meta.url), import.meta.url);

/** ToPglite without its id, which call() assigns. */
type Request = ToPglite extends infer M ? (M extends ToPglite ? Omit<M, 'id'> : never) : never;

export async function createPgliteDriver(cfg: PgliteConfig): Promise<Driver> {
  const dir = resolve(cfg.dir);
  await mkdir(dir, { recursive: true });
  const unlock = await lockDirectory(dir);
  let worker: Worker;
  try {
    worker = startTsWorker(WORKER_ENTRY, { dir });
  } catch (e) {
    await unlock();
    throw e;
  }
  watchThread(worker);
  const where = `PGlite at ${dir}`;

  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let nextCopy = 1;
  /** Why the thread is gone, once it is: every call after that fails with it. */
  let gone: Error | undefined;
  let stopAlarm: () => void = () => {};
  let opened: { resolve(): void; reject(e: Error): void } | undefined;
  const openedP = new Promise<void>((res, rej) => {
    opened = { resolve: res, reject: rej };
  });

  // The thread keeps the process alive only while a call waits for it, as a socket with a query in flight would.
  worker.unref();
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const call = (req: Request): Promise<unknown> => {
    if (gone !== undefined) return Promise.reject(gone);
    const id = nextId++;
    return new Promise((res, rej) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: res, reject: rej });
      worker.postMessage({ ...req, id } as ToPglite);
    });
  };
  const fail = (e: Error) => {
    gone ??= e;
    stopAlarm();
    opened?.reject(gone);
    for (const id of [...pending.keys()]) settle(id)?.reject(gone);
  };

  worker.on('message', (msg: FromPglite) => {
    if (msg.type === 'reply') {
      const p = settle(msg.id);
      if (msg.ok) p?.resolve(msg.value);
      else p?.reject(errorFromWire(msg.error));
    } else if (msg.type === 'alarm') {
      stopAlarm = startAlarm(worker, msg.shared);
    } else if (msg.type === 'opened') {
      opened?.resolve();
    } else {
      opened?.reject(errorFromWire(msg.error));
    }
  });
  worker.on('error', (e) => fail(new DbError('TG_DB_UNAVAILABLE', `${where}: the PGlite thread failed: ${e.message}`)));
  worker.on('exit', (code) => fail(new DbError('TG_DB_UNAVAILABLE', `${where}: the PGlite thread exited (${code})`)));

  try {
    worker.ref();
    await openedP;
    worker.unref();
  } catch (e) {
    await worker.terminate();
    await unlock();
    throw e;
  }
  opened = undefined;

  const session = (tx: TxId): DriverSession => ({
    async query(sql, params): Promise<DriverResult> {
      const r = (await call({ op: 'query', tx, sql, params })) as DriverResult;
      restoreBuffers(r.rows);
      return r;
    },
    async exec(script) {
      await call({ op: 'exec', tx, script });
    },
    async copyIn(target, chunks) {
      const copy = nextCopy++;
      let refused: unknown;
      const done = call({ op: 'copy', tx, target, copy }).catch((e) => {
        refused = e ?? new Error('COPY failed');
        throw refused;
      });
      done.catch(() => {});
      let sourceError: unknown;
      try {
        for await (const chunk of chunks) {
          if (refused !== undefined) break;
          await call({ op: 'chunk', copy, chunk });
        }
      } catch (e) {
        sourceError = e;
      }
      const error = sourceError === undefined ? undefined : errorToWire(sourceError);
      await call({ op: 'chunks-end', copy, ...(error === undefined ? {} : { error }) });
      try {
        await done;
      } catch (e) {
        // The thread saw the source's error as a copy of it: the caller gets the original.
        throw sourceError ?? e;
      }
      if (sourceError !== undefined) throw sourceError;
    },
  });

  return {
    where,
    direct: session(0),
    async transaction(fn) {
      const tx = (await call({ op: 'begin' })) as TxId;
      let out: Awaited<ReturnType<typeof fn>>;
      try {
        out = await fn(session(tx));
      } catch (e) {
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw e;
      }
      await call({ op: 'end', tx, commit: true });
      return out;
    },
    async close() {
      try {
        if (gone === undefined) await call({ op: 'close' });
      } finally {
        stopAlarm();
        await worker.terminate();
        await unlock();
      }
    },
  };
}
