// The native cell reader and hasher (native/tonhash) against the TypeScript path it replaces, on every BoC of the
// real-chain vectors and on thousands of damaged copies: the same layout, the same hashes and depths at every level,
// the same errors. (cell-table.test.ts compares whichever path is on with @ton/core.)
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { rng } from '../../../test/helpers/rng.ts';
import { allBocs } from '../../../test/helpers/vector-bocs.ts';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { readCellTable } from './boc-reader.ts';
import type { CellTable } from './cell-table.ts';
import { levelOfMask } from './cell-table.ts';
import { crc32c } from './crc32c.ts';
import { cellHasherName, nativeReadFaults, tonHash, useNativeHasher } from './native-hash.ts';

type Outcome = { error: string } | { layout: string; hashes: string };

let readFault = false;

/** Reads and hashes `bytes` with the addon on or off: the layout arrays and every hash and depth, or the error. */
function outcome(bytes: Buffer, native: boolean, hashing: 'all' | 'roots'): Outcome {
  const was = useNativeHasher(native);
  readFault = false;
  try {
    let t: CellTable;
    const faults = nativeReadFaults.count;
    try {
      t = readCellTable(bytes);
    } catch (e) {
      return { error: `read: ${(e as Error).message}` };
    } finally {
      // The addon must find a fault exactly where the TypeScript reader does (its -1 hands the BoC to that
      // reader, which would hide a false alarm), so a native read that returns a table saw no fault.
      if (native && nativeReadFaults.count !== faults) readFault = true;
    }
    if (readFault) return { error: 'the addon reported a fault in a BoC the TypeScript reader accepts' };
    const layout = JSON.stringify([
      t.count,
      t.roots,
      [...t.dataAt],
      [...t.d2],
      [...t.bitLen],
      [...t.refStart],
      [...t.refIdx],
      [...t.kind],
      [...t.mask],
      [...t.storedMask],
      [...t.storedHashesAt],
    ]);
    const parts: string[] = [];
    try {
      // Subtrees first (the addon's depth-first path), then what is left (its reverse pass).
      if (hashing === 'roots') for (const r of t.roots) t.hash(r);
      t.hashAll();
      for (let i = 0; i < t.count; i++) {
        for (let l = 0; l <= Math.max(levelOfMask(t.mask[i] as number), 0); l++) {
          parts.push(`${t.hash(i, l).toString('hex')}/${t.depth(i, l)}`);
        }
      }
    } catch (e) {
      return { error: `hash: ${(e as Error).message}` };
    }
    return { layout, hashes: parts.join(',') };
  } finally {
    useNativeHasher(was);
  }
}

describe.skipIf(!tonHash.ok)('native cell reader and hasher vs TypeScript', () => {
  it('is the path in use when built', () => {
    expect(cellHasherName()).toMatch(/^native \(tonhash, OpenSSL/);
  });

  it.skipIf(!hasVectors)('reads and hashes every vector BoC alike, from the roots down and all at once', () => {
    let cells = 0;
    let exoticLevels = 0;
    for (const { where, bytes } of allBocs()) {
      for (const hashing of ['all', 'roots'] as const) {
        const js = outcome(bytes, false, hashing);
        const native = outcome(bytes, true, hashing);
        expect(native, `${where} (${hashing})`).toEqual(js);
      }
      const t = readCellTable(bytes);
      cells += t.count;
      for (let i = 0; i < t.count; i++) if ((t.mask[i] as number) !== 0) exoticLevels++;
    }
    expect(cells).toBeGreaterThan(100_000);
    // Cells with levels (under Merkle proofs and updates, pruned branches) are where the two could differ most.
    expect(exoticLevels).toBeGreaterThan(10_000);
  });

  it.skipIf(!hasVectors)('finds the same faults in damaged BoCs, and says the same about them', () => {
    const next = rng(0x746f6e68);
    const sources = allBocs().filter((b) => b.bytes.length < 200_000);
    let errors = 0;
    let accepted = 0;
    for (let k = 0; k < 3000; k++) {
      const src = sources[next() % sources.length]!;
      const bytes = Buffer.from(src.bytes);
      // 1-3 bytes changed anywhere past the magic, or the end cut off.
      if (next() % 8 === 0) {
        const cut = bytes.subarray(0, 6 + (next() % (bytes.length - 6)));
        const js = outcome(cut, false, 'all');
        expect(outcome(cut, true, 'all'), `${src.where} cut to ${cut.length}`).toEqual(js);
        if ('error' in js) errors++;
        continue;
      }
      const flips = 1 + (next() % 3);
      const at: number[] = [];
      for (let f = 0; f < flips; f++) {
        const i = 4 + (next() % (bytes.length - 4));
        bytes[i] = (bytes[i] as number) ^ (1 << (next() % 8));
        at.push(i);
      }
      const js = outcome(bytes, false, 'all');
      expect(outcome(bytes, true, 'all'), `${src.where} bits flipped at ${at.join(',')}`).toEqual(js);
      if ('error' in js) errors++;
      else accepted++;
    }
    // Both kinds happen: faults found (CRC, structure, Merkle links) and changes that are still a valid BoC.
    expect(errors).toBeGreaterThan(500);
    expect(accepted).toBeGreaterThan(100);
  });

  it('computes CRC-32C as the TypeScript table does, at every length and alignment', () => {
    // The check value of CRC-32C (RFC 3720, B.4): "123456789" -> 0xe3069283, stored little-endian.
    expect(crc32c(Buffer.from('123456789')).toString('hex')).toBe('839206e3');
    const next = rng(0x63726333);
    const data = Buffer.alloc(300);
    for (let i = 0; i < data.length; i++) data[i] = next() & 0xff;
    for (let from = 0; from < 9; from++) {
      for (let len = 0; len + from <= data.length; len += 1 + (len >> 3)) {
        const piece = data.subarray(from, from + len);
        const was = useNativeHasher(false);
        const js = crc32c(piece);
        useNativeHasher(was);
        expect(crc32c(piece), `bytes ${from}..${from + len}`).toEqual(js);
      }
    }
  });

  it('refuses a table whose layout would make it read outside the bytes', () => {
    const t = readCellTable(beginCell().storeUint(0x9f, 8).endCell().toBoc());
    const addon = (tonHash as { ok: true; addon: import('./native-hash.ts').TonHashAddon }).addon;
    const slot = Int32Array.of(0, 1);
    expect(() =>
      addon.hashCells(
        t.bytes,
        Int32Array.of(t.bytes.length),
        t.d2,
        t.bitLen,
        t.refStart,
        t.refIdx,
        t.kind,
        t.mask,
        slot,
        Buffer.alloc(32),
        new Uint16Array(1),
        new Uint8Array(1),
        -1,
      ),
    ).toThrow(/tonhash: cell data outside the bytes/);
  });
});
