// An in-memory KvWriter for unit tests of the parts above it: bytewise-ordered keys, atomic batches and an
// optional merge operator applied at write time (RocksDB applies it lazily; readers cannot tell the difference).
import type { KvOp, KvRange, KvWriter, MergeFn } from './types.ts';

export function createMemoryKv(opts: { path?: string; merge?: MergeFn } = {}): KvWriter & { size(): number } {
  const map = new Map<string, Buffer>();
  const hex = (b: Buffer) => b.toString('hex');
  let closed = false;
  const check = () => {
    if (closed) throw new Error(`memory kv ${opts.path ?? ''}: closed`);
  };
  return {
    path: opts.path ?? 'memory',
    size: () => map.size,
    async get(key) {
      check();
      return map.get(hex(key)) ?? null;
    },
    async multiGet(keys) {
      check();
      return keys.map((k) => map.get(hex(k)) ?? null);
    },
    async range(r: KvRange) {
      check();
      // hex strings of bytes sort like the bytes when compared as strings of equal-width digits
      const lo = r.gte ? hex(r.gte) : undefined;
      const hi = r.lt ? hex(r.lt) : undefined;
      const keys = [...map.keys()].filter((k) => (lo === undefined || k >= lo) && (hi === undefined || k < hi)).sort();
      const out: Array<[Buffer, Buffer]> = [];
      for (const k of keys.slice(0, r.limit ?? keys.length)) out.push([Buffer.from(k, 'hex'), map.get(k)!]);
      return out;
    },
    async catchUp() {},
    async write(ops: readonly KvOp[]) {
      check();
      // stage first so a failing merge leaves nothing half-applied
      const staged = new Map<string, Buffer | null>();
      const current = (k: string) => (staged.has(k) ? staged.get(k)! : (map.get(k) ?? null));
      for (const op of ops) {
        const k = hex(op.key);
        if (op.type === 'put') staged.set(k, Buffer.from(op.value));
        else if (op.type === 'del') staged.set(k, null);
        else {
          if (!opts.merge) throw new Error(`memory kv ${opts.path ?? ''}: merge without a merge operator`);
          staged.set(k, opts.merge(current(k), [op.value]));
        }
      }
      for (const [k, v] of staged) {
        if (v === null) map.delete(k);
        else map.set(k, v);
      }
    },
    async flushWal() {},
    async close() {
      closed = true;
    },
  };
}
