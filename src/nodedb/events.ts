// The node's optional push signal (`validator-engine --db-event-fifo <path>`, node-db.md §4.4;
// validator/db/db-event-publisher.cpp): for each event the node opens the FIFO (O_WRONLY|O_NONBLOCK), writes one
// boxed TL `db.Event` (84 bytes: constructor id + bare block id, below PIPE_BUF, so it arrives whole) and closes it.
// It drops events while no reader is attached, so a reader is a wake-up hint, never a complete log.
import { close, constants, fstat, open } from 'node:fs';
import { Socket } from 'node:net';
import type { BlockIdExt } from '../ton/index.ts';
import { BLOCK_ID_BYTES, NodeDbFormatError, TlReader, TlWriter } from './tl.ts';

/** ton_api.tl `db.event.*` constructor ids (TL CRC32 of the schema lines; events.test.ts recomputes them). */
export const DB_EVENT = {
  blockApplied: 0x64c8825b,
  blockSigned: 0xc872c8c2,
  blockCandidateReceived: 0x71d1aa9f,
} as const;

export type DbEventKind = keyof typeof DB_EVENT;

/**
 * blockApplied: a shard block was applied, or (for a masterchain id) the shard client finished that masterchain
 * block, i.e. it is safe to index.
 */
export interface DbEvent {
  kind: DbEventKind;
  id: BlockIdExt;
}

export const DB_EVENT_BYTES = 4 + BLOCK_ID_BYTES;

const KIND_BY_ID = new Map<number, DbEventKind>(
  (Object.entries(DB_EVENT) as Array<[DbEventKind, number]>).map(([k, v]) => [v, k]),
);

export function parseDbEvent(buf: Buffer): DbEvent {
  if (buf.length !== DB_EVENT_BYTES) {
    throw new NodeDbFormatError(`db.Event: expected ${DB_EVENT_BYTES} bytes, got ${buf.length}`);
  }
  const r = new TlReader(buf, 'db.Event');
  const ctor = r.u32();
  const kind = KIND_BY_ID.get(ctor);
  if (!kind) throw new NodeDbFormatError(`db.Event: unknown constructor 0x${ctor.toString(16).padStart(8, '0')}`);
  const id = r.blockId();
  r.end();
  return { kind, id: { ...id, rootHash: Buffer.from(id.rootHash), fileHash: Buffer.from(id.fileHash) } };
}

export function encodeDbEvent(e: DbEvent): Buffer {
  return new TlWriter().u32(DB_EVENT[e.kind]).blockId(e.id).done();
}

/** The FIFO cannot be opened or read (not a FIFO, no permission, a read error). */
export class DbEventFifoError extends Error {
  override readonly name = 'DbEventFifoError';
}

export interface EventFifoOptions {
  /** Records that do not parse and exceptions thrown by onEvent (default: ignored; the stream goes on). */
  onError?: (err: Error) => void;
  /** How often to look for the FIFO while it does not exist (the node creates it at its first event); ms. */
  retryMs?: number;
}

export interface EventFifo {
  /** Resolves once the FIFO is open (events written from then on are received); rejects if it cannot be. */
  ready: Promise<void>;
  /** Resolves after `signal` aborts and the FIFO is closed; rejects on an open or read error. */
  closed: Promise<void>;
}

function openFd(path: string): Promise<number> {
  // O_RDWR: we hold a write end ourselves, so the node closing its end after each event never gives us EOF
  // and the FIFO always has a reader (Linux allows this on a FIFO). O_NONBLOCK: libuv polls it.
  return new Promise((resolve, reject) =>
    open(path, constants.O_RDWR | constants.O_NONBLOCK, (err, fd) => (err ? reject(err) : resolve(fd))),
  );
}

function isFifo(fd: number): Promise<boolean> {
  return new Promise((resolve, reject) => fstat(fd, (err, st) => (err ? reject(err) : resolve(st.isFIFO()))));
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Opens the FIFO, waiting while it does not exist; null if `signal` aborts first. */
async function openWhenPresent(path: string, signal: AbortSignal, retryMs: number): Promise<number | null> {
  while (!signal.aborted) {
    let fd: number;
    try {
      fd = await openFd(path);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code !== 'ENOENT') throw new DbEventFifoError(`db event FIFO ${path}: cannot open: ${e.message}`);
      await sleep(retryMs, signal);
      continue;
    }
    if (await isFifo(fd)) return fd;
    await new Promise<void>((res) => close(fd, () => res()));
    throw new DbEventFifoError(`db event FIFO ${path}: exists and is not a FIFO`);
  }
  return null;
}

/** Reads until the stream closes (abort, or an unexpected end); cuts the bytes into records. */
function readRecords(
  fd: number,
  path: string,
  signal: AbortSignal,
  onEvent: (e: DbEvent) => void,
  onError: (err: Error) => void,
): Promise<void> {
  const socket = new Socket({ fd, readable: true, writable: false });
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    for (; pending.length - at >= DB_EVENT_BYTES; at += DB_EVENT_BYTES) {
      try {
        onEvent(parseDbEvent(pending.subarray(at, at + DB_EVENT_BYTES)));
      } catch (err) {
        onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    pending = Buffer.from(pending.subarray(at));
  });
  return new Promise<void>((resolve, reject) => {
    const stop = () => socket.destroy();
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    socket.once('error', (err) => {
      signal.removeEventListener('abort', stop);
      reject(new DbEventFifoError(`db event FIFO ${path}: read failed: ${err.message}`));
    });
    socket.once('close', () => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}

/**
 * Reads `db.Event` records from the node's `--db-event-fifo` until `signal` aborts, calling `onEvent` for each.
 * Waits for the FIFO to appear if it does not exist yet. The byte stream is cut into 84-byte records, so a record
 * split across reads is reassembled.
 */
export function openEventFifo(
  path: string,
  onEvent: (e: DbEvent) => void,
  signal: AbortSignal,
  opts: EventFifoOptions = {},
): EventFifo {
  const onError = opts.onError ?? (() => {});
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    markReady = res;
    failReady = rej;
  });
  // a caller that only awaits `closed` must not see an unhandled rejection of `ready`
  ready.catch(() => {});

  const closed = (async () => {
    // the loop reopens if the stream ever ends without an abort (it should not: we hold a write end)
    while (!signal.aborted) {
      const fd = await openWhenPresent(path, signal, opts.retryMs ?? 1000);
      if (fd === null) break;
      markReady();
      await readRecords(fd, path, signal, onEvent, onError);
      if (!signal.aborted) await sleep(opts.retryMs ?? 1000, signal);
    }
    markReady();
  })();
  closed.catch((err: Error) => failReady(err));
  return { ready, closed };
}
