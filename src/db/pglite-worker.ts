// The PGlite thread (started by pglite-thread.ts through src/common/ts-worker.ts): owns the one PGlite instance and
// runs what the driver in the rest of the process asks, so that statements, which are synchronous calls into WASM,
// never hold the process's event loop (issue 18: under load, v3's queries held the API's loop ~150 ms at a time).
// Transactions stay open across messages: 'begin' opens one and leaves its callback waiting for 'end'.
import { parentPort, workerData } from 'node:worker_threads';
import { asBuffer } from '../common/thread-bytes.ts';
import type { Driver, DriverSession } from './driver.ts';
import { openPgliteDriver } from './pglite.ts';
import { errorFromWire, errorToWire, type FromPglite, type ToPglite, type TxId } from './pglite-wire.ts';
import { normalizeParam } from './values.ts';

if (parentPort === null) throw new Error('src/db/pglite-worker.ts must run in a worker thread');
const port = parentPort;
const { dir } = workerData as { dir: string };

const send = (msg: FromPglite) => port.postMessage(msg);
const reply = (id: number, value?: unknown) => send({ type: 'reply', id, ok: true, value });
const refuse = (id: number, e: unknown) => send({ type: 'reply', id, ok: false, error: errorToWire(e) });

/** Thrown inside a transaction's callback to end it with ROLLBACK when the driver's caller failed. */
const ROLLBACK = Symbol('rollback');

interface OpenTx {
  session: DriverSession;
  decide(commit: boolean): void;
  /** Settles when the transaction ended: COMMIT done, or rolled back (ROLLBACK as the reason). */
  ended: Promise<void>;
}

/** A COPY's chunks as they arrive; the driver sends the next one after the previous was taken in. */
interface ChunkQueue {
  push(chunk: Buffer): void;
  end(error?: Error): void;
  chunks: AsyncIterable<Buffer>;
}

function chunkQueue(): ChunkQueue {
  const waiting: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(chunk) {
      waiting.push(chunk);
      poke();
    },
    end(error) {
      ended = true;
      failure = error;
      poke();
    },
    chunks: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const next = waiting.shift();
          if (next !== undefined) {
            yield next;
            continue;
          }
          if (failure !== undefined) throw failure;
          if (ended) return;
          await new Promise<void>((r) => {
            wake = r;
          });
        }
      },
    },
  };
}

let driver: Driver;
const txs = new Map<TxId, OpenTx>();
const copies = new Map<number, ChunkQueue>();
let nextTx = 1;

function sessionOf(tx: TxId): DriverSession {
  if (tx === 0) return driver.direct;
  const open = txs.get(tx);
  if (open === undefined) throw new Error(`transaction ${tx} has ended`);
  return open.session;
}

function begin(id: number): void {
  const tx = nextTx++;
  let decide: (commit: boolean) => void = () => {};
  const decided = new Promise<boolean>((r) => {
    decide = r;
  });
  let begun = false;
  const ended = driver.transaction(async (session) => {
    txs.set(tx, { session, decide, ended });
    begun = true;
    reply(id, tx);
    if (!(await decided)) throw ROLLBACK;
  });
  ended.then(
    () => txs.delete(tx),
    (e) => {
      txs.delete(tx);
      if (!begun) refuse(id, e);
    },
  );
}

async function end(id: number, tx: TxId, commit: boolean): Promise<void> {
  const open = txs.get(tx);
  if (open === undefined) return refuse(id, new Error(`transaction ${tx} has ended`));
  open.decide(commit);
  try {
    await open.ended;
    reply(id);
  } catch (e) {
    if (e === ROLLBACK) reply(id);
    else refuse(id, e);
  }
}

async function run(msg: ToPglite): Promise<void> {
  switch (msg.op) {
    case 'query': {
      const r = await sessionOf(msg.tx).query(msg.sql, msg.params.map(normalizeParam));
      return reply(msg.id, r);
    }
    case 'exec':
      await sessionOf(msg.tx).exec(msg.script);
      return reply(msg.id);
    case 'copy': {
      const queue = chunkQueue();
      copies.set(msg.copy, queue);
      try {
        await sessionOf(msg.tx).copyIn(msg.target, queue.chunks);
      } finally {
        copies.delete(msg.copy);
      }
      return reply(msg.id);
    }
    case 'chunk': {
      copies.get(msg.copy)?.push(asBuffer(msg.chunk));
      return reply(msg.id);
    }
    case 'chunks-end':
      copies.get(msg.copy)?.end(msg.error === undefined ? undefined : errorFromWire(msg.error));
      return reply(msg.id);
    case 'begin':
      return begin(msg.id);
    case 'end':
      return end(msg.id, msg.tx, msg.commit);
    case 'close':
      await driver.close();
      reply(msg.id);
      port.close();
      return;
  }
}

try {
  driver = await openPgliteDriver(dir, (shared) => send({ type: 'alarm', shared }));
  port.on('message', (msg: ToPglite) => {
    run(msg).catch((e) => refuse(msg.id, e));
  });
  send({ type: 'opened' });
} catch (e) {
  send({ type: 'open-failed', error: errorToWire(e) });
  port.close();
}
