// Cells that @ton/core builds itself (Builder.endCell, and so every store* function, the devnet's blocks and
// every BoC @ton/core parses) are hashed eagerly in Cell's constructor through @ton/crypto's `sha256_sync`: a
// pure-JS SHA-256 behind a hex round trip, ~15x slower than node:crypto. @ton/core offers no hook for it, so this
// module puts node:crypto's one-shot SHA-256 in its place, once per thread (worker threads load their own copy of
// the module). The seam is @ton/crypto's CommonJS export, which @ton/core reads on every call; a test checks that
// it took effect (cell hashes still equal to an independent computation), so a layout change in @ton/crypto shows
// up as a failing test, not a silent slowdown.
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';

/** SHA-256 of a buffer (or a UTF-8 string) with node:crypto, in @ton/crypto's sha256_sync signature. */
export function sha256Sync(source: Buffer | string): Buffer {
  return hash('sha256', typeof source === 'string' ? Buffer.from(source, 'utf-8') : source, 'buffer');
}

interface Sha256Module {
  sha256_sync: (source: Buffer | string) => Buffer;
}

const require = createRequire(import.meta.url);

/** True when @ton/core's cells are hashed with node:crypto in this thread. */
export function nativeSha256Installed(): boolean {
  return shipped.sha256_sync === sha256Sync;
}

const shipped = require('@ton/crypto/dist/primitives/sha256.js') as Partial<Sha256Module>;
const pureJs = shipped.sha256_sync;

/** Puts node:crypto's SHA-256 behind @ton/crypto's sha256_sync (idempotent). */
export function installNativeSha256(): void {
  if (typeof pureJs === 'function') shipped.sha256_sync = sha256Sync;
}

/** Puts @ton/crypto's own pure-JS SHA-256 back (for benchmarks that measure @ton/core as it ships). */
export function uninstallNativeSha256(): void {
  if (typeof pureJs === 'function') shipped.sha256_sync = pureJs;
}

installNativeSha256();
