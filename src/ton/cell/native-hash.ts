// The native cell hasher (native/tonhash, built at install with a C compiler): a whole table's representation
// hashes in one call, with the SHA-256 of the OpenSSL inside node (see tonhash.c for why). Optional: when it is
// not built, or TONGATE_NATIVE_HASH=0, cell-table.ts hashes in TypeScript with node:crypto, to the same results.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface TonHashAddon {
  /**
   * Hashes every cell of the table not done yet (root < 0), or root's subtree. Returns -1, or the index of a Merkle
   * cell whose stated child hashes or depths disagree with the computed ones.
   */
  hashCells(
    bytes: Uint8Array,
    dataAt: Int32Array,
    d2: Uint8Array,
    bitLen: Uint16Array,
    refStart: Int32Array,
    refIdx: Int32Array,
    kind: Uint8Array,
    mask: Uint8Array,
    slot: Int32Array,
    pool: Uint8Array,
    depthPool: Uint16Array,
    done: Uint8Array,
    root: number,
  ): number;
  /**
   * boc-reader.ts's cell loop with its checks: fills the layout arrays and returns the number of references, or -1
   * when the BoC breaks a rule. header: [cells, sizeBytes, dataOffset, dataEnd, hasIdx, indexOffset, offBytes,
   * hasCacheBits].
   */
  readCells(
    src: Uint8Array,
    header: Int32Array,
    roots: Int32Array,
    dataAt: Int32Array,
    d2: Uint8Array,
    bitLen: Uint16Array,
    refStart: Int32Array,
    refIdx: Int32Array,
    kind: Uint8Array,
    mask: Uint8Array,
    storedMask: Uint8Array,
    storedHashesAt: Int32Array,
  ): number;
  /** CRC-32C of the bytes (unsigned). */
  crc32c(bytes: Uint8Array): number;
  /** The OpenSSL it was built against. */
  version(): string;
}

/** native/tonhash/build/Release/tonhash.node, from this file's place in src/ton/cell/ (or dist/ton/cell/). */
export const TONHASH_ADDON_PATH = fileURLToPath(
  new URL('../../../native/tonhash/build/Release/tonhash.node', import.meta.url),
);

export type TonHashStatus = { ok: true; addon: TonHashAddon } | { ok: false; reason: string };

function load(): TonHashStatus {
  if (process.env.TONGATE_NATIVE_HASH === '0') return { ok: false, reason: 'TONGATE_NATIVE_HASH=0' };
  try {
    return { ok: true, addon: createRequire(import.meta.url)(TONHASH_ADDON_PATH) as TonHashAddon };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'MODULE_NOT_FOUND'
          ? `the native cell hasher is not built (no ${TONHASH_ADDON_PATH}; npm run build:native needs a C compiler)`
          : `the native cell hasher does not load: ${(e as Error).message}`,
    };
  }
}

/** Loaded once per thread, at import. */
export const tonHash: TonHashStatus = load();

/** The addon, or null when cells are read and hashed in TypeScript. */
export let nativeHasher: TonHashAddon | null = tonHash.ok ? tonHash.addon : null;

/**
 * Turns the addon off (or back on, when it loaded) for this thread; returns whether it was on. For tests that compare
 * the two paths and benchmarks that measure both.
 */
export function useNativeHasher(on: boolean): boolean {
  const was = nativeHasher !== null;
  nativeHasher = on && tonHash.ok ? tonHash.addon : null;
  return was;
}

/** How many BoCs the addon found broken in this thread (boc-reader.ts then reads them in TypeScript to say why). */
export const nativeReadFaults = { count: 0 };

/** One line for benchmarks and logs: which hasher this thread uses. */
export function cellHasherName(): string {
  if (!tonHash.ok) return `node:crypto per cell (${tonHash.reason})`;
  return nativeHasher ? `native (tonhash, ${tonHash.addon.version()})` : 'node:crypto per cell (turned off)';
}
