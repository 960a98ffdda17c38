// Content-addressed cells: `C` + representation hash -> d1 d2 data ref-hashes. A cell is written only in the
// same batch as (or after) all of its descendants, so "a cell is stored" implies "its whole subtree is
// stored": writers stop descending at the first stored cell, and consecutive states share every unchanged
// subtree. Reads are eager (an @ton/core Cell needs its children to exist) with an LRU of decoded cells: a
// cached cell is a whole cached subtree, so loading the next state decodes only the cells that changed.
import { BitString, Cell } from '@ton/core';
import type { ClassicLevel } from 'classic-level';
import { Lru, StoreError } from '../../common/index.ts';
import { T_CELL } from './keys.ts';

type Db = ClassicLevel<Buffer, Buffer>;

interface CellRecord {
  exotic: boolean;
  bits: BitString;
  refs: string[];
}

/** Hashes as Map keys: latin1 maps each byte to one char, so 32 bytes give a unique 32-char string. */
export function hashKey(hash: Buffer): string {
  return hash.toString('latin1');
}

export function cellKey(hash: Buffer | string): Buffer {
  const h = typeof hash === 'string' ? Buffer.from(hash, 'latin1') : hash;
  return Buffer.concat([Buffer.from([T_CELL]), h]);
}

/** d1 (refs + 8·exotic + 32·level mask), d2 (⌈bits/8⌉ + ⌊bits/8⌋), data with completion tag, child hashes. */
export function encodeCell(cell: Cell): Buffer {
  const len = cell.bits.length;
  const dataLen = Math.ceil(len / 8);
  const out = Buffer.alloc(2 + dataLen + 32 * cell.refs.length);
  out[0] = cell.refs.length + (cell.isExotic ? 8 : 0) + cell.mask.value * 32;
  out[1] = Math.ceil(len / 8) + Math.floor(len / 8);
  const whole = len - (len % 8);
  const aligned = whole > 0 ? cell.bits.subbuffer(0, whole) : null;
  if (aligned) aligned.copy(out, 2);
  else for (let i = 0; i < whole; i++) if (cell.bits.at(i)) out[2 + (i >> 3)]! |= 0x80 >> (i & 7);
  if (len % 8 !== 0) {
    let byte = 0;
    for (let i = whole; i < len; i++) byte |= (cell.bits.at(i) ? 1 : 0) << (7 - (i - whole));
    out[2 + (whole >> 3)] = byte | (1 << (7 - (len - whole)));
  }
  let pos = 2 + dataLen;
  for (const r of cell.refs) pos += r.hash().copy(out, pos);
  return out;
}

function corrupt(message: string, hash: string): StoreError {
  return new StoreError('TG_DEVNET_STORE_CORRUPT', message, {
    details: { cell: Buffer.from(hash, 'latin1').toString('hex') },
  });
}

export function decodeCellRecord(v: Buffer, hash: string): CellRecord {
  const where = `cell ${Buffer.from(hash, 'latin1').toString('hex')}`;
  if (v.length < 2) throw corrupt(`${where}: record of ${v.length} bytes`, hash);
  const d1 = v[0]!;
  const d2 = v[1]!;
  const refCount = d1 & 7;
  const dataLen = Math.ceil(d2 / 2);
  if (refCount > 4 || v.length !== 2 + dataLen + 32 * refCount) {
    throw corrupt(`${where}: d1 ${d1}, d2 ${d2} do not match a record of ${v.length} bytes`, hash);
  }
  const data = Buffer.from(v.subarray(2, 2 + dataLen));
  let len = dataLen * 8;
  if (d2 % 2 === 1) {
    const last = data[dataLen - 1]!;
    if (last === 0) throw corrupt(`${where}: completion tag missing`, hash);
    const tz = 31 - Math.clz32(last & -last); // trailing zeros before the tag bit
    len = (dataLen - 1) * 8 + (7 - tz);
    data[dataLen - 1] = last & ~(1 << tz) & 0xff;
  }
  const refs: string[] = [];
  for (let i = 0; i < refCount; i++) {
    const at = 2 + dataLen + 32 * i;
    refs.push(v.subarray(at, at + 32).toString('latin1'));
  }
  return { exotic: (d1 & 8) !== 0, bits: new BitString(data, 0, len), refs };
}

export interface CellStoreOptions {
  cacheSize: number;
  knownSize: number;
}

export class CellStore {
  private readonly cache: Lru<string, Cell>;
  private readonly known: Lru<string, true>;

  constructor(
    private readonly db: Db,
    opts: CellStoreOptions,
  ) {
    this.cache = new Lru(opts.cacheSize);
    this.known = new Lru(opts.knownSize);
  }

  /**
   * Adds to `pending` every cell reachable from `roots` that is neither stored nor already pending, walking
   * level by level with one hasMany per level and stopping at stored cells.
   */
  async collectMissing(roots: readonly Cell[], pending: Map<string, Cell>): Promise<void> {
    const seen = new Set<string>();
    let frontier: Array<{ h: string; c: Cell }> = [];
    const consider = (c: Cell): void => {
      const h = hashKey(c.hash());
      if (seen.has(h) || pending.has(h) || this.known.get(h) !== undefined) return;
      seen.add(h);
      frontier.push({ h, c });
    };
    for (const r of roots) consider(r);
    while (frontier.length > 0) {
      const level = frontier;
      frontier = [];
      const present = await this.db.hasMany(level.map((x) => cellKey(x.h)));
      level.forEach(({ h, c }, i) => {
        if (present[i]) {
          this.known.set(h, true);
          return;
        }
        pending.set(h, c);
        for (const r of c.refs) consider(r);
      });
    }
  }

  /**
   * Call after the batch holding `written` committed. `roots` (the new states, account cells) go into the read
   * cache: each is a whole subtree, so the newest states load without a read.
   */
  markStored(written: Iterable<string>, roots: readonly Cell[] = []): void {
    for (const h of written) this.known.set(h, true);
    for (const r of roots) this.cache.set(hashKey(r.hash()), r);
  }

  async has(hash: Buffer): Promise<boolean> {
    const h = hashKey(hash);
    if (this.cache.has(h) || this.known.has(h)) return true;
    return (await this.db.get(cellKey(hash))) !== undefined;
  }

  /** The cell tree under `hash`, or null when no cell has that hash; a missing descendant means corruption. */
  async load(hash: Buffer): Promise<Cell | null> {
    const root = hashKey(hash);
    const hit = this.cache.get(root);
    if (hit) return hit;
    const records = new Map<string, CellRecord>();
    // Cached subtrees are pinned here as they are met, so evictions during the build cannot lose them.
    const built = new Map<string, Cell>();
    const queued = new Set<string>([root]);
    let frontier = [root];
    while (frontier.length > 0) {
      const values = await this.db.getMany(frontier.map((h) => cellKey(h)));
      const next: string[] = [];
      frontier.forEach((h, i) => {
        const v = values[i];
        if (v === undefined) {
          if (h === root) return;
          throw corrupt(`cell store: a descendant of ${hash.toString('hex')} is missing`, h);
        }
        const rec = decodeCellRecord(v, h);
        records.set(h, rec);
        for (const r of rec.refs) {
          if (queued.has(r)) continue;
          queued.add(r);
          const c = this.cache.get(r);
          if (c) built.set(r, c);
          else next.push(r);
        }
      });
      frontier = next;
    }
    if (!records.has(root)) return null;
    const stack: Array<{ h: string; expanded: boolean }> = [{ h: root, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (built.has(top.h)) continue;
      const rec = records.get(top.h)!;
      if (!top.expanded) {
        stack.push({ h: top.h, expanded: true });
        for (const r of rec.refs) if (!built.has(r)) stack.push({ h: r, expanded: false });
        continue;
      }
      let cell: Cell;
      try {
        cell = new Cell({ exotic: rec.exotic, bits: rec.bits, refs: rec.refs.map((r) => built.get(r)!) });
      } catch (e) {
        throw corrupt(`cell store: record does not form a valid cell: ${(e as Error).message}`, top.h);
      }
      if (hashKey(cell.hash()) !== top.h) throw corrupt('cell store: record hashes to a different cell', top.h);
      built.set(top.h, cell);
      this.cache.set(top.h, cell);
    }
    return built.get(root)!;
  }
}
