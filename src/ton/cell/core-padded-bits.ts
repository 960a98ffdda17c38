// Like native-sha256.ts, for the other per-cell cost of a cell @ton/core builds: its representation (every
// Builder.endCell, and so every cell the devnet and the emulator's callers build) and its BoC pad the cell's bits
// through @ton/core's `bitsToPaddedBuffer`, which copies them one bit at a time through a BitBuilder. This puts
// padded-bits.ts's byte copy behind that export (the seam @ton/core reads on every call); a test checks that it
// took effect and that cells built after it hash and serialize as before.
import { createRequire } from 'node:module';
import type { BitString } from '@ton/core';
import { paddedBits } from './padded-bits.ts';

interface PaddedBitsModule {
  bitsToPaddedBuffer: (bits: BitString) => Buffer;
}

const require = createRequire(import.meta.url);
const shipped = require('@ton/core/dist/boc/utils/paddedBits.js') as Partial<PaddedBitsModule>;
const bitByBit = shipped.bitsToPaddedBuffer;

/** True when @ton/core pads bits with padded-bits.ts in this thread. */
export function fastPaddedBitsInstalled(): boolean {
  return shipped.bitsToPaddedBuffer === paddedBits;
}

/** Puts padded-bits.ts's byte copy behind @ton/core's bitsToPaddedBuffer (idempotent). */
export function installFastPaddedBits(): void {
  if (typeof bitByBit === 'function') shipped.bitsToPaddedBuffer = paddedBits;
}

/** Puts @ton/core's own one-bit-at-a-time padding back (for benchmarks that measure @ton/core as it ships). */
export function uninstallFastPaddedBits(): void {
  if (typeof bitByBit === 'function') shipped.bitsToPaddedBuffer = bitByBit;
}

installFastPaddedBits();
