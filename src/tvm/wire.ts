// What crosses the thread boundary between the runner and an executor: plain data only (structured clone keeps
// Uint8Array and bigint, but turns a Buffer into a Uint8Array and drops Cell prototypes), cells as BoC bytes.
//
// The config (~115 KB BoC) and the libraries are the same for every call of a block, so each side keeps the last
// few by hash: the sender ships the bytes only the first time. Both sides evict in the same FIFO order, and the
// executor handles calls strictly in arrival order, so the two caches always hold the same hashes.
import type { BlockId, PrevBlocksInfo } from '@ton/sandbox';

export type BlobRef = { hash: string; boc: Uint8Array | null };

export type WireBlockId = {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
};
export type WirePrevBlocks = {
  lastMcBlocks: WireBlockId[];
  prevKeyBlock: WireBlockId;
  lastMcBlocks100?: WireBlockId[];
};

type WireRunCommon = {
  shardAccount: Uint8Array;
  now: number;
  lt: bigint;
  randomSeed: Uint8Array;
  config: BlobRef;
  libs: BlobRef | null;
  prevBlocks: WirePrevBlocks | null;
  ignoreChksig: boolean;
};

export type WireJob =
  | ({ kind: 'tx'; message: Uint8Array } & WireRunCommon)
  | ({ kind: 'ticktock'; which: 'tick' | 'tock' } & WireRunCommon)
  | {
      kind: 'get';
      code: Uint8Array;
      data: Uint8Array;
      /** Raw form `wc:hex`. */
      address: string;
      balance: bigint;
      methodId: number;
      /** serializeTuple(stack) BoC. */
      stack: Uint8Array;
      now: number;
      config: BlobRef;
      libs: BlobRef | null;
      randomSeed: Uint8Array;
      gasLimit: bigint;
      prevBlocks: WirePrevBlocks | null;
      /** Extra currencies of the balance (id -> amount), or null for none. */
      extraCurrency: Record<number, bigint> | null;
    };

export type WireResult =
  | { kind: 'tx-ok'; transaction: Uint8Array; shardAccount: Uint8Array; actions: Uint8Array | null; vmLog: string }
  | { kind: 'tx-refused'; error: string; exitCode: number | null; vmLog: string }
  | {
      kind: 'get-ok';
      exitCode: number;
      stack: Uint8Array;
      gasUsed: bigint;
      missingLibrary: Uint8Array | null;
      vmLog: string;
    }
  | { kind: 'get-refused'; error: string }
  /** The executor lost a cached blob the sender thought it had: resend with bytes. */
  | { kind: 'blob-miss'; hash: string };

/** Messages from an executor thread to the runner. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: WireResult }
  | { type: 'failed'; id: number; message: string; name: string }
  | { type: 'start-failed'; message: string };

/** Messages from the runner to an executor thread. */
export type WorkerRequest = { type: 'job'; id: number; job: WireJob };

export const BLOB_CACHE_SIZE = 8;

/** Sender side: which blobs the executor already holds. */
export class BlobSender {
  readonly #held: string[] = [];

  ref(hash: Buffer, boc: () => Uint8Array): BlobRef {
    const key = hash.toString('hex');
    if (this.#held.includes(key)) return { hash: key, boc: null };
    this.#held.push(key);
    if (this.#held.length > BLOB_CACHE_SIZE) this.#held.shift();
    return { hash: key, boc: boc() };
  }

  reset(): void {
    this.#held.length = 0;
  }
}

/** Executor side: the blobs received so far, decoded once. */
export class BlobStore<T> {
  readonly #held = new Map<string, T>();

  constructor(private readonly decode: (boc: Uint8Array) => T) {}

  /** The blob, or undefined when the sender skipped bytes this store no longer holds. */
  resolve(ref: BlobRef): T | undefined {
    if (ref.boc === null) return this.#held.get(ref.hash);
    const value = this.decode(ref.boc);
    this.#held.delete(ref.hash);
    this.#held.set(ref.hash, value);
    if (this.#held.size > BLOB_CACHE_SIZE) this.#held.delete(this.#held.keys().next().value as string);
    return value;
  }

  reset(): void {
    this.#held.clear();
  }
}

export { asBuffer, ownBytes } from '../common/thread-bytes.ts';

/** The ArrayBuffers of `parts` worth transferring (each owned by exactly one part). */
export function transferList(parts: readonly (Uint8Array | null | undefined)[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const p of parts) {
    if (p && p.byteOffset === 0 && p.byteLength === p.buffer.byteLength && p.buffer instanceof ArrayBuffer) {
      out.add(p.buffer);
    }
  }
  return [...out];
}

function blockIdToWire(id: BlockId): WireBlockId {
  return {
    workchain: id.workchain,
    shard: id.shard,
    seqno: id.seqno,
    rootHash: Uint8Array.from(id.rootHash),
    fileHash: Uint8Array.from(id.fileHash),
  };
}

function blockIdFromWire(id: WireBlockId): BlockId {
  return {
    workchain: id.workchain,
    shard: id.shard,
    seqno: id.seqno,
    rootHash: Buffer.from(id.rootHash),
    fileHash: Buffer.from(id.fileHash),
  };
}

export function prevBlocksToWire(p: PrevBlocksInfo | undefined): WirePrevBlocks | null {
  if (p === undefined) return null;
  const out: WirePrevBlocks = {
    lastMcBlocks: p.lastMcBlocks.map(blockIdToWire),
    prevKeyBlock: blockIdToWire(p.prevKeyBlock),
  };
  if (p.lastMcBlocks100 !== undefined) out.lastMcBlocks100 = p.lastMcBlocks100.map(blockIdToWire);
  return out;
}

export function prevBlocksFromWire(p: WirePrevBlocks | null): PrevBlocksInfo | undefined {
  if (p === null) return undefined;
  const out: PrevBlocksInfo = {
    lastMcBlocks: p.lastMcBlocks.map(blockIdFromWire),
    prevKeyBlock: blockIdFromWire(p.prevKeyBlock),
  };
  if (p.lastMcBlocks100 !== undefined) out.lastMcBlocks100 = p.lastMcBlocks100.map(blockIdFromWire);
  return out;
}
