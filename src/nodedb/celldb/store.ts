// Reading cells out of celldb by hash: parsed records (key-checked on parse) behind a byte-bounded LRU, batched
// lookups through the store's multiGet, and whole subtrees rebuilt as @ton/core Cells. A record in the −1 form
// carries its subtree as a BoC; its children are served from there, never looked up (they may not exist as keys).
import { BitString, Cell } from '@ton/core';
import type { KvReader } from '../kv/types.ts';
import { NodeDbFormatError } from '../tl.ts';
import { type ParsedCellRecord, type PlainCellRecord, parseCellRecord } from './record.ts';

/** A cell the walk needed is not in celldb (gc'd state, or a read outside one consistent snapshot). */
export class NodeDbMissingCellError extends Error {
  override readonly name = 'NodeDbMissingCellError';
  constructor(
    readonly hash: Buffer,
    readonly path: string,
    readonly root?: Buffer,
  ) {
    super(
      `celldb ${path}: no record for cell ${hash.toString('hex')}` +
        (root && !root.equals(hash) ? ` (loading the subtree of ${root.toString('hex')})` : ''),
    );
  }
}

export interface CellStore {
  /** The parsed record stored under `hash`, or null when absent (an empty value counts as absent). */
  record(hash: Buffer): Promise<ParsedCellRecord | null>;
  /** record() for many hashes in one multiGet (cached ones are not read again), in the order asked. */
  records(hashes: readonly Buffer[]): Promise<Array<ParsedCellRecord | null>>;
  /** The whole subtree under `hash` as a Cell (its hash checked); NodeDbMissingCellError when a cell is absent. */
  loadCell(hash: Buffer): Promise<Cell>;
  /** loadCell for many subtrees walked together: one multiGet per tree level for all of them. */
  loadCells(hashes: readonly Buffer[]): Promise<Cell[]>;
}

export interface CellStoreOptions {
  /** Bound of the parsed-record cache, in (approximate) bytes; 0 disables it. Default 32 MiB. */
  cacheBytes?: number;
}

const DEFAULT_CACHE_BYTES = 32 << 20;
/** Per-entry overhead of a cached record (objects, Map entry, key string), a rough figure. */
const ENTRY_OVERHEAD = 200;

/** A Map in recency order, evicting from the front while the total size exceeds the bound. */
class ByteLru<V> {
  private readonly map = new Map<string, { value: V; size: number }>();
  private total = 0;
  constructor(private readonly maxBytes: number) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }
  set(key: string, value: V, size: number): void {
    if (size > this.maxBytes) return;
    const old = this.map.get(key);
    if (old) {
      this.total -= old.size;
      this.map.delete(key);
    }
    this.map.set(key, { value, size });
    this.total += size;
    for (const [k, e] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= e.size;
    }
  }
}

function recordSize(rec: ParsedCellRecord, valueBytes: number): number {
  return ENTRY_OVERHEAD + (rec.kind === 'plain' ? valueBytes + rec.refs.length * 64 : valueBytes * 2);
}

export function createCellStore(kv: KvReader, opts: CellStoreOptions = {}): CellStore {
  const cache = new ByteLru<ParsedCellRecord>(opts.cacheBytes ?? DEFAULT_CACHE_BYTES);

  const records = async (hashes: readonly Buffer[]): Promise<Array<ParsedCellRecord | null>> => {
    const out: Array<ParsedCellRecord | null> = new Array(hashes.length).fill(null);
    const missing = new Map<string, number[]>();
    hashes.forEach((h, i) => {
      if (h.length !== 32) throw new RangeError(`celldb ${kv.path}: a cell key is 32 bytes, got ${h.length}`);
      const k = h.toString('hex');
      const hit = cache.get(k);
      if (hit) out[i] = hit;
      else {
        const at = missing.get(k);
        if (at) at.push(i);
        else missing.set(k, [i]);
      }
    });
    if (missing.size === 0) return out;
    const keys = [...missing.keys()].map((k) => Buffer.from(k, 'hex'));
    const values = await kv.multiGet(keys);
    keys.forEach((key, j) => {
      const v = values[j];
      if (!v || v.length === 0) return;
      const rec = parseCellRecord(v, key);
      const k = key.toString('hex');
      cache.set(k, rec, recordSize(rec, v.length));
      for (const i of missing.get(k)!) out[i] = rec;
    });
    return out;
  };

  const loadCells = async (roots: readonly Buffer[]): Promise<Cell[]> => {
    // 1. every record of the subtrees, one multiGet per tree level (BoC records end their branch)
    const recs = new Map<string, ParsedCellRecord>();
    let frontier = [...new Map(roots.map((h) => [h.toString('hex'), h])).values()];
    while (frontier.length > 0) {
      const got = await records(frontier);
      const next = new Map<string, Buffer>();
      frontier.forEach((h, i) => {
        const rec = got[i];
        if (!rec) throw new NodeDbMissingCellError(h, kv.path, roots.length === 1 ? roots[0] : undefined);
        recs.set(h.toString('hex'), rec);
        if (rec.kind === 'plain') {
          for (const r of rec.refs) {
            const k = r.key.toString('hex');
            if (!recs.has(k)) next.set(k, r.key);
          }
        }
      });
      frontier = [...next.values()];
    }
    // 2. cells bottom-up with an explicit stack (a shard state is deeper than is safe to recurse on)
    const built = new Map<string, Cell>();
    const stack: string[] = roots.map((h) => h.toString('hex'));
    while (stack.length > 0) {
      const k = stack[stack.length - 1]!;
      if (built.has(k)) {
        stack.pop();
        continue;
      }
      const rec = recs.get(k)!;
      if (rec.kind === 'boc') {
        built.set(k, rec.root);
        stack.pop();
        continue;
      }
      const pending = rec.refs.map((r) => r.key.toString('hex')).filter((c) => !built.has(c));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      stack.pop();
      built.set(
        k,
        cellOf(rec, k, (c) => built.get(c)!, kv.path),
      );
    }
    return roots.map((h) => built.get(h.toString('hex'))!);
  };

  return {
    async record(hash) {
      return (await records([hash]))[0] ?? null;
    },
    records,
    async loadCell(hash) {
      return (await loadCells([hash]))[0]!;
    },
    loadCells,
  };
}

/** A Cell from a plain record and its already built children; its hash must be the record's key. */
function cellOf(rec: PlainCellRecord, key: string, child: (hex: string) => Cell, path: string): Cell {
  const refs = rec.refs.map((r) => child(r.key.toString('hex')));
  let cell: Cell;
  try {
    cell = new Cell({ exotic: rec.exotic, bits: new BitString(rec.data, 0, rec.bits), refs });
  } catch (e) {
    throw new NodeDbFormatError(`celldb ${path}: cell ${key} does not build (${(e as Error).message})`);
  }
  if (cell.hash().toString('hex') !== key) {
    // the record's own hash was checked on parse; a mismatch means a child's stored (hash, depth) pairs lie
    throw new NodeDbFormatError(
      `celldb ${path}: cell ${key} rebuilt from its children hashes to ${cell.hash().toString('hex')}`,
    );
  }
  return cell;
}
