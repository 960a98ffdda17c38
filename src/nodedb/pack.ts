// The node's `.pack` container (validator/db/package.cpp, node-db.md §2.1): a 4-byte header, then entries of
// u16 magic, u16 name length, u32 data length (little-endian), the name, the data. Offsets count from the end of
// the header, as the slice index and its committed sizes do. Packs are append-only and can end in a partly
// written entry, so a scan stops at the first entry that does not parse and says where to resume.
import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Cell } from '@ton/core';
import type { BlockIdExt } from '../ton/index.ts';
import { cellsFromBoc } from '../ton/index.ts';
import { parseFileName } from './fileref.ts';
import { NodeDbFormatError } from './tl.ts';

export const PACK_HEADER_MAGIC = 0xae8fdd01;
export const PACK_ENTRY_MAGIC = 0x1e8b;

const HEADER_BYTES = 4;
const ENTRY_HEADER_BYTES = 8;
const MAX_NAME_BYTES = 0xffff;
const MAX_DATA_BYTES = 2 ** 31 - 1;
/** Scan read size: big enough that small entries cost one read per many entries. */
const SCAN_CHUNK = 1 << 20;

export interface PackEntry {
  name: string;
  /** Offset of the entry's header, counted from byte 4 (the end of the file header). */
  offset: number;
  data: Buffer;
}

/** An entry seen by a header-only scan: where it is and how big its data is. */
export interface PackEntryHeader {
  name: string;
  offset: number;
  dataSize: number;
}

export interface PackScanOptions {
  /** Offset of an entry boundary to start at (default 0): a previous scan's `end`. */
  from?: number;
  /** Stop here: the slice index's committed size (`status.N`). Bytes past it are not part of the pack yet. */
  committedSize?: number;
}

export interface PackScan<E = PackEntry> {
  /** Entries in file order; of a repeated name only the first copy. */
  entries: E[];
  /** Offset just past the last whole entry: where a later scan resumes. */
  end: number;
  /** The scan stopped before its limit on an entry that does not parse or does not fit (a torn tail). */
  torn: boolean;
  /** The name of each dropped later copy of a repeated name, in file order (entries + duplicates = all read). */
  duplicates: string[];
}

export interface PackReader {
  readonly path: string;
  /** Bytes after the header when opened or last refreshed. */
  readonly size: number;
  /** Re-reads the file size (a live pack grows). */
  refresh(): Promise<number>;
  /** Reads the entry at `offset`; with `expectName`, the entry must carry that name. */
  readAt(offset: number, expectName?: string): Promise<PackEntry>;
  scan(opts?: PackScanOptions): Promise<PackScan>;
  /** A scan that reads only entry headers and names, skipping the data. */
  scanHeaders(opts?: PackScanOptions): Promise<PackScan<PackEntryHeader>>;
  close(): Promise<void>;
}

/** Opens a pack read-only and checks its header. */
export async function openPackReader(path: string): Promise<PackReader> {
  const fh = await open(path, 'r');
  try {
    const fileSize = (await fh.stat()).size;
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await fh.read(header, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES || header.readUInt32LE(0) !== PACK_HEADER_MAGIC) {
      throw new NodeDbFormatError(
        `pack ${path}: expected header magic 0x${PACK_HEADER_MAGIC.toString(16)}, got ${bytesRead < HEADER_BYTES ? `a ${fileSize}-byte file` : `0x${header.readUInt32LE(0).toString(16)}`}`,
      );
    }
    return new FilePackReader(path, fh, fileSize - HEADER_BYTES);
  } catch (e) {
    await fh.close();
    throw e;
  }
}

class FilePackReader implements PackReader {
  constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    public size: number,
  ) {}

  async refresh(): Promise<number> {
    this.size = (await this.fh.stat()).size - HEADER_BYTES;
    return this.size;
  }

  async readAt(offset: number, expectName?: string): Promise<PackEntry> {
    checkOffset(offset, `pack ${this.path}: readAt`);
    const where = `pack ${this.path}: entry at offset ${offset}`;
    const head = await readExactly(this.fh, HEADER_BYTES + offset, ENTRY_HEADER_BYTES);
    if (!head) throw new NodeDbFormatError(`${where}: the entry header lies past the end of the file`);
    const { magic, nameLen, dataLen } = entryHeader(head);
    if (magic !== PACK_ENTRY_MAGIC) {
      throw new NodeDbFormatError(
        `${where}: expected entry magic 0x${PACK_ENTRY_MAGIC.toString(16)}, got 0x${magic.toString(16)}`,
      );
    }
    // Check the length against the file before allocating: a corrupt header can claim 2 GiB.
    const end = offset + ENTRY_HEADER_BYTES + nameLen + dataLen;
    const fits = end <= this.size || end <= (await this.refresh());
    const body = fits
      ? await readExactly(this.fh, HEADER_BYTES + offset + ENTRY_HEADER_BYTES, nameLen + dataLen)
      : null;
    if (!body) {
      throw new NodeDbFormatError(
        `${where}: name (${nameLen} bytes) and data (${dataLen} bytes) run past the end of the file`,
      );
    }
    const name = body.toString('latin1', 0, nameLen);
    if (expectName !== undefined && name !== expectName) {
      throw new NodeDbFormatError(`${where}: expected ${expectName}, found ${name}`);
    }
    return { name, offset, data: body.subarray(nameLen) };
  }

  async scan(opts: PackScanOptions = {}): Promise<PackScan> {
    const s = await this.walk(opts, true);
    return { ...s, entries: s.entries.map(({ name, offset, data }) => ({ name, offset, data })) };
  }

  async scanHeaders(opts: PackScanOptions = {}): Promise<PackScan<PackEntryHeader>> {
    const s = await this.walk(opts, false);
    return { ...s, entries: s.entries.map(({ name, offset, dataSize }) => ({ name, offset, dataSize })) };
  }

  private async walk(opts: PackScanOptions, withData: boolean): Promise<PackScan<PackEntry & PackEntryHeader>> {
    const from = opts.from ?? 0;
    checkOffset(from, `pack ${this.path}: scan from`);
    if (opts.committedSize !== undefined) checkOffset(opts.committedSize, `pack ${this.path}: committed size`);
    const physical = await this.refresh();
    const limit = opts.committedSize ?? physical;
    const window = new ReadWindow(this.fh);
    const entries: Array<PackEntry & PackEntryHeader> = [];
    const seen = new Set<string>();
    const duplicates: string[] = [];
    let p = from;
    let torn = false;
    while (p < limit) {
      // An entry counts only if all of it lies before the limit and inside the file.
      const room = Math.min(limit, physical) - p;
      const head = room >= ENTRY_HEADER_BYTES ? await window.bytes(HEADER_BYTES + p, ENTRY_HEADER_BYTES) : null;
      const h = head && head.length === ENTRY_HEADER_BYTES ? entryHeader(head) : null;
      const total = h ? ENTRY_HEADER_BYTES + h.nameLen + h.dataLen : 0;
      if (!h || h.magic !== PACK_ENTRY_MAGIC || total > room) {
        torn = true;
        break;
      }
      const nameBytes = await window.bytes(HEADER_BYTES + p + ENTRY_HEADER_BYTES, h.nameLen);
      const data = withData ? await window.bytes(HEADER_BYTES + p + ENTRY_HEADER_BYTES + h.nameLen, h.dataLen) : EMPTY;
      if (nameBytes.length !== h.nameLen || (withData && data.length !== h.dataLen)) {
        torn = true; // the file shrank under us
        break;
      }
      const name = nameBytes.toString('latin1');
      if (seen.has(name)) duplicates.push(name);
      else {
        seen.add(name);
        entries.push({ name, offset: p, dataSize: h.dataLen, data: withData ? Buffer.from(data) : EMPTY });
      }
      p += total;
    }
    return { entries, end: p, torn, duplicates };
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

const EMPTY = Buffer.alloc(0);

/** Sequential reads through a reused chunk; returns fewer bytes than asked only at the end of the file. */
class ReadWindow {
  private buf = EMPTY;
  private start = 0;
  constructor(private readonly fh: FileHandle) {}

  async bytes(pos: number, n: number): Promise<Buffer> {
    if (pos >= this.start && pos + n <= this.start + this.buf.length) {
      return this.buf.subarray(pos - this.start, pos - this.start + n);
    }
    if (n > SCAN_CHUNK) {
      const out = Buffer.allocUnsafe(n);
      let got = 0;
      for (let r = 1; got < n && r > 0; got += r) r = (await this.fh.read(out, got, n - got, pos + got)).bytesRead;
      return out.subarray(0, got);
    }
    const chunk = Buffer.allocUnsafe(SCAN_CHUNK);
    const { bytesRead } = await this.fh.read(chunk, 0, SCAN_CHUNK, pos);
    this.buf = chunk.subarray(0, bytesRead);
    this.start = pos;
    return this.buf.subarray(0, Math.min(n, bytesRead));
  }
}

function entryHeader(b: Buffer): { magic: number; nameLen: number; dataLen: number } {
  return { magic: b.readUInt16LE(0), nameLen: b.readUInt16LE(2), dataLen: b.readUInt32LE(4) };
}

/** Reads exactly n bytes at pos, or null when the file ends first. */
async function readExactly(fh: FileHandle, pos: number, n: number): Promise<Buffer | null> {
  const out = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const { bytesRead } = await fh.read(out, got, n - got, pos + got);
    if (bytesRead === 0) return null;
    got += bytesRead;
  }
  return out;
}

function checkOffset(v: number, what: string): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${what}: expected a non-negative integer, got ${v}`);
}

export interface PackWriter {
  readonly path: string;
  /** Bytes after the header, including appends still being written. */
  readonly size: number;
  /** Appends one entry; resolves to its offset once written (not synced). */
  append(name: string, data: Buffer): Promise<number>;
  /** Appends entries back to back in one write; resolves to their offsets. */
  appendMany(entries: ReadonlyArray<{ name: string; data: Buffer }>): Promise<number[]>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a pack for appending, creating it (with its header and its folder) if missing. `truncateTo` cuts the file
 * back to that committed size first, as version-1 nodes do on reopening, dropping a torn or uncommitted tail; a
 * committed size larger than the file is an error (data the index points to is gone).
 */
export async function createPackWriter(path: string, opts: { truncateTo?: number } = {}): Promise<PackWriter> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await mkdir(dirname(path), { recursive: true });
    fh = await open(path, 'wx+');
  }
  try {
    let fileSize = (await fh.stat()).size;
    if (fileSize < HEADER_BYTES) {
      // Shorter than a header: not a package yet (the node writes the header then too).
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32LE(PACK_HEADER_MAGIC);
      await fh.truncate(0);
      await fh.write(header, 0, HEADER_BYTES, 0);
      fileSize = HEADER_BYTES;
    } else {
      const header = await readExactly(fh, 0, HEADER_BYTES);
      const magic = header?.readUInt32LE(0);
      if (magic !== PACK_HEADER_MAGIC) {
        throw new NodeDbFormatError(
          `pack ${path}: expected header magic 0x${PACK_HEADER_MAGIC.toString(16)}, got 0x${(magic ?? 0).toString(16)}`,
        );
      }
    }
    if (opts.truncateTo !== undefined) {
      checkOffset(opts.truncateTo, `pack ${path}: truncateTo`);
      const target = HEADER_BYTES + opts.truncateTo;
      if (target > fileSize) {
        throw new NodeDbFormatError(
          `pack ${path}: committed size ${opts.truncateTo} is past the end of the file (${fileSize - HEADER_BYTES} bytes after the header)`,
        );
      }
      if (target < fileSize) await fh.truncate(target);
      fileSize = target;
    }
    return new FilePackWriter(path, fh, fileSize - HEADER_BYTES);
  } catch (e) {
    await fh.close();
    throw e;
  }
}

class FilePackWriter implements PackWriter {
  private failed: unknown;
  constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    public size: number,
  ) {}

  append(name: string, data: Buffer): Promise<number> {
    return this.appendMany([{ name, data }]).then((o) => o[0]!);
  }

  async appendMany(entries: ReadonlyArray<{ name: string; data: Buffer }>): Promise<number[]> {
    if (this.failed !== undefined) throw new NodeDbFormatError(`pack ${this.path}: an earlier append failed`);
    const parts: Buffer[] = [];
    const offsets: number[] = [];
    let at = this.size;
    for (const { name, data } of entries) {
      const nameBytes = Buffer.from(name, 'latin1');
      if (nameBytes.toString('latin1') !== name || nameBytes.length > MAX_NAME_BYTES) {
        throw new RangeError(`pack ${this.path}: entry name must be at most ${MAX_NAME_BYTES} one-byte characters`);
      }
      if (data.length > MAX_DATA_BYTES) throw new RangeError(`pack ${this.path}: entry ${name} is over 2^31-1 bytes`);
      const head = Buffer.alloc(ENTRY_HEADER_BYTES);
      head.writeUInt16LE(PACK_ENTRY_MAGIC, 0);
      head.writeUInt16LE(nameBytes.length, 2);
      head.writeUInt32LE(data.length, 4);
      parts.push(head, nameBytes, data);
      offsets.push(at);
      at += ENTRY_HEADER_BYTES + nameBytes.length + data.length;
    }
    // Reserve the range before awaiting so concurrent appends get distinct offsets.
    const pos = HEADER_BYTES + this.size;
    this.size = at;
    try {
      await writeAll(this.fh, parts, pos);
    } catch (e) {
      this.failed = e;
      throw e;
    }
    return offsets;
  }

  async sync(): Promise<void> {
    await this.fh.sync();
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

async function writeAll(fh: FileHandle, parts: Buffer[], pos: number): Promise<void> {
  let rest = parts;
  let at = pos;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest, at);
    at += bytesWritten;
    // Drop what was written (a short writev is rare but allowed).
    let skip = bytesWritten;
    const next: Buffer[] = [];
    for (const b of rest) {
      if (skip >= b.length) skip -= b.length;
      else {
        next.push(skip > 0 ? b.subarray(skip) : b);
        skip = 0;
      }
    }
    rest = next;
  }
}

/**
 * Checks a `block_` entry against its name: sha256(data) is the file hash and the BoC's root cell hash is the
 * root hash. Returns the block id; throws NodeDbFormatError for any other entry or a mismatch.
 */
export function checkBlockEntry(entry: PackEntry): BlockIdExt {
  const where = `pack entry ${entry.name} at offset ${entry.offset}`;
  const parsed = parseFileName(entry.name);
  if (parsed?.kind !== 'block') throw new NodeDbFormatError(`${where}: expected a block_ entry`);
  const { id } = parsed;
  const fileHash = createHash('sha256').update(entry.data).digest();
  if (!fileHash.equals(id.fileHash)) {
    throw new NodeDbFormatError(
      `${where}: sha256 of the data is ${fileHash.toString('hex').toUpperCase()}, not the file hash`,
    );
  }
  let roots: Cell[];
  try {
    roots = cellsFromBoc(entry.data);
  } catch (e) {
    throw new NodeDbFormatError(`${where}: data is not a BoC (${(e as Error).message})`);
  }
  if (roots.length !== 1) throw new NodeDbFormatError(`${where}: expected a BoC with one root, got ${roots.length}`);
  const rootHash = roots[0]!.hash();
  if (!rootHash.equals(id.rootHash)) {
    throw new NodeDbFormatError(
      `${where}: BoC root hash is ${rootHash.toString('hex').toUpperCase()}, not the root hash`,
    );
  }
  return id;
}
