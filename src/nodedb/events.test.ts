import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tlId } from '../adnl/tl.ts';
import type { BlockIdExt } from '../ton/index.ts';
import {
  DB_EVENT,
  DB_EVENT_BYTES,
  type DbEvent,
  DbEventFifoError,
  encodeDbEvent,
  openEventFifo,
  parseDbEvent,
} from './events.ts';
import { NodeDbFormatError } from './tl.ts';

const sha = (s: string) => createHash('sha256').update(s).digest();
const mkId = (workchain: number, shard: bigint, seqno: number): BlockIdExt => ({
  workchain,
  shard,
  seqno,
  rootHash: sha(`root ${seqno}`),
  fileHash: sha(`file ${seqno}`),
});

describe('db.Event records', () => {
  it('constructor ids are TL CRC32 of the ton_api.tl lines (and node-db.md §4.4 states blockApplied 0x64C8825B)', () => {
    expect(DB_EVENT.blockApplied).toBe(0x64c8825b);
    expect(tlId('db.event.blockApplied block_id:tonNode.blockIdExt = db.Event')).toBe(DB_EVENT.blockApplied);
    expect(tlId('db.event.blockSigned block_id:tonNode.blockIdExt = db.Event')).toBe(DB_EVENT.blockSigned);
    expect(tlId('db.event.blockCandidateReceived block_id:tonNode.blockIdExt = db.Event')).toBe(
      DB_EVENT.blockCandidateReceived,
    );
  });

  it('encode and parse: 84 bytes, the id then the bare block id', () => {
    const e: DbEvent = { kind: 'blockApplied', id: mkId(-1, 0x8000000000000000n, 264) };
    const b = encodeDbEvent(e);
    expect(b.length).toBe(DB_EVENT_BYTES);
    expect(b.subarray(0, 20).toString('hex')).toBe('5b82c864' + 'ffffffff' + '0000000000000080' + '08010000');
    expect(parseDbEvent(b)).toEqual(e);
    const signed: DbEvent = { kind: 'blockSigned', id: mkId(0, 0x4000000000000000n, 7) };
    expect(parseDbEvent(encodeDbEvent(signed))).toEqual(signed);
  });

  it('refuses a wrong size or an unknown constructor', () => {
    const b = encodeDbEvent({ kind: 'blockApplied', id: mkId(0, 0x8000000000000000n, 1) });
    expect(() => parseDbEvent(b.subarray(0, 83))).toThrow(/expected 84 bytes, got 83/);
    const bad = Buffer.from(b);
    bad.writeUInt32LE(0x12345678, 0);
    expect(() => parseDbEvent(bad)).toThrow(NodeDbFormatError);
    expect(() => parseDbEvent(bad)).toThrow(/unknown constructor 0x12345678/);
  });
});

const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;

describe.skipIf(!hasMkfifo)('openEventFifo over a real FIFO', () => {
  let dir: string;
  let controller: AbortController;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tongate-events-'));
    controller = new AbortController();
  });
  afterEach(() => {
    controller.abort();
    rmSync(dir, { recursive: true, force: true });
  });

  const mkfifo = (path: string) => {
    const r = spawnSync('mkfifo', ['-m', '0660', path]);
    if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr.toString()}`);
  };
  /** The node's publisher: open non-blocking for writing (fails with ENXIO when nobody reads), write, close. */
  const publish = (path: string, ...parts: Buffer[]) => {
    const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      for (const p of parts) writeSync(fd, p);
    } finally {
      closeSync(fd);
    }
  };
  const waitFor = async (cond: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!cond()) throw new Error(`timed out waiting for ${what}`);
  };

  it('gets 3 whole records from a writer that reopens per event and splits one record across two writes', async () => {
    const path = join(dir, 'db-events');
    mkfifo(path);
    const got: DbEvent[] = [];
    const errors: Error[] = [];
    const fifo = openEventFifo(path, (e) => got.push(e), controller.signal, { onError: (e) => errors.push(e) });
    await fifo.ready;

    const events: DbEvent[] = [
      { kind: 'blockApplied', id: mkId(0, 0x4000000000000000n, 76) },
      { kind: 'blockApplied', id: mkId(-1, 0x8000000000000000n, 93) },
      { kind: 'blockCandidateReceived', id: mkId(0, 0xc000000000000000n, 77) },
    ];
    const [a, b, c] = events.map(encodeDbEvent) as [Buffer, Buffer, Buffer];
    publish(path, a);
    await waitFor(() => got.length === 1, 'the first event');
    // the writer closed and opens again; this time the record is cut in two writes with a pause between them
    const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    writeSync(fd, b.subarray(0, 30));
    await new Promise((r) => setTimeout(r, 50));
    expect(got.length).toBe(1); // nothing for a partial record
    writeSync(fd, b.subarray(30));
    closeSync(fd);
    publish(path, c);
    await waitFor(() => got.length === 3, 'three events');
    expect(got).toEqual(events);
    expect(errors).toEqual([]);

    controller.abort();
    await fifo.closed;
  });

  it('waits for the FIFO to appear, reports a bad record and goes on', async () => {
    const path = join(dir, 'later');
    const got: DbEvent[] = [];
    const errors: Error[] = [];
    const fifo = openEventFifo(path, (e) => got.push(e), controller.signal, {
      retryMs: 20,
      onError: (e) => errors.push(e),
    });
    await new Promise((r) => setTimeout(r, 60));
    mkfifo(path);
    await fifo.ready;
    const bad = Buffer.alloc(DB_EVENT_BYTES, 0xab);
    const good: DbEvent = { kind: 'blockSigned', id: mkId(-1, 0x8000000000000000n, 5) };
    publish(path, bad, encodeDbEvent(good));
    await waitFor(() => got.length === 1 && errors.length === 1, 'one event and one error');
    expect(got).toEqual([good]);
    expect(errors[0]).toBeInstanceOf(NodeDbFormatError);
    controller.abort();
    await fifo.closed;
  });

  it('refuses a path that is not a FIFO', async () => {
    const path = join(dir, 'plain');
    writeFileSync(path, 'x');
    const fifo = openEventFifo(path, () => {}, controller.signal);
    await expect(fifo.ready).rejects.toThrow(DbEventFifoError);
    await expect(fifo.closed).rejects.toThrow(/exists and is not a FIFO/);
  });

  it('an abort before the FIFO exists ends cleanly', async () => {
    const fifo = openEventFifo(join(dir, 'never'), () => {}, controller.signal, { retryMs: 10 });
    controller.abort();
    await fifo.closed;
    await fifo.ready;
  });
});
