import { beginCell, Cell, crc32c } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { parseBoc, parseBocHeader, serializeBoc } from './index.ts';

type Vec = { boc_base64: string };
const bocOf = (...parts: string[]) => Buffer.from(loadVector<Vec>(...parts).boc_base64, 'base64');

// BoCs the node itself wrote: block files (mode 31: index, CRC, cache bits, stored hashes) and liteserver
// answers (mode 0, or CRC only). Other vectors were re-serialized by @ton/core or tonutils-go, whose cell
// order differs, so only these can be compared byte for byte.
const NODE_BOCS = [
  'blocks/mainnet_-1_8000000000000000_24374597.json',
  'blocks/mainnet_0_8000000000000000_29836576.json',
  'blocks/mainnet_0_8000000000000000_34703989.json',
  'blocks/mainnet_0_8000000000000000_71398501.json',
  'blocks/mainnet_0_c000000000000000_13516764.json',
  'blocks/mainnet_tongo_block-1.json',
  'blocks/mainnet_tongo_block-2.json',
  'blocks/mainnet_tongo_block-3.json',
  'blocks/mainnet_tongo_block-4.json',
  'blocks/mainnet_tongo_block-5.json',
  'blocks/mainnet_tongo_block-6.json',
  'blocks/mainnet_tongo_block-7.json',
  'liteserver/account_proof_toncore.json',
  'liteserver/account_state_test_pruned_proof.json',
  'liteserver/cascade_proof_tonutils.json',
  'liteserver/proof_check_tonutils.json',
  'liteserver/proof_of_proof_masterchain_block_tonutils.json',
  'config/config_proof_mainnet_33651872.json',
  'config/config_proof_testnet_4324374.json',
  'config/config_dict_mainnet_tonutils.json',
];

/** Recomputes the trailing CRC32-C after a deliberate edit, so the edit itself is what gets caught. */
function fixCrc(b: Buffer): Buffer {
  crc32c(b.subarray(0, b.length - 4)).copy(b, b.length - 4);
  return b;
}

describe.skipIf(!hasVectors)('serializeBoc on real node-written BoCs', () => {
  it.each(NODE_BOCS)('re-serializes %s byte for byte', (file) => {
    const [dir, name] = file.split('/') as [string, string];
    const bytes = bocOf(dir, name);
    const h = parseBocHeader(bytes);
    const roots = parseBoc(bytes);
    // Block files are written with stored hashes whenever they carry cache bits (node mode 31).
    const out = serializeBoc(roots, {
      idx: h.hasIdx,
      crc32: h.hasCrc32c,
      cacheBits: h.hasCacheBits,
      hashes: h.hasCacheBits,
    });
    expect(out.equals(bytes)).toBe(true);
  });

  it('writes the two-root liteserver account proof exactly as the liteserver did', () => {
    const v = loadVector<Vec & { verification: { roots: { root_hash: string }[] } }>(
      'liteserver',
      'account_proof_toncore.json',
    );
    const bytes = Buffer.from(v.boc_base64, 'base64');
    const roots = parseBoc(bytes);
    expect(roots.map((r) => r.hash().toString('hex'))).toEqual(v.verification.roots.map((r) => r.root_hash));
    const out = serializeBoc(roots, { crc32: false });
    expect(out.equals(bytes)).toBe(true);
    expect(Cell.fromBoc(out).map((r) => r.hash().toString('hex'))).toEqual(roots.map((r) => r.hash().toString('hex')));
  });

  it('differs from the original when the roots are given in another order', () => {
    const bytes = bocOf('liteserver', 'account_proof_toncore.json');
    const [a, b] = parseBoc(bytes) as [Cell, Cell];
    const swapped = serializeBoc([b, a], { crc32: false });
    expect(swapped.equals(bytes)).toBe(false);
    expect(Cell.fromBoc(swapped).map((r) => r.hash())).toEqual([b.hash(), a.hash()]);
  });
});

describe('serializeBoc', () => {
  const leaf = beginCell().storeUint(0xabc, 12).endCell();
  const mid = beginCell().storeUint(1, 8).storeRef(leaf).storeRef(leaf).endCell();
  const other = beginCell().storeUint(2, 8).storeRef(mid).endCell();

  it('round-trips several roots through @ton/core and deduplicates shared cells', () => {
    const out = serializeBoc([mid, other, leaf], { idx: true, crc32: true, cacheBits: true });
    const h = parseBocHeader(out);
    expect(h.cellCount).toBe(3);
    expect(h.rootCount).toBe(3);
    const back = Cell.fromBoc(out);
    expect(back.map((c) => c.hash())).toEqual([mid.hash(), other.hash(), leaf.hash()]);
    expect(parseBoc(out).map((c) => c.hash())).toEqual([mid.hash(), other.hash(), leaf.hash()]);
  });

  it('lists a root twice when it is given twice', () => {
    const out = serializeBoc([leaf, leaf], { crc32: false });
    const h = parseBocHeader(out);
    expect(h.cellCount).toBe(1);
    expect(h.rootIndices).toEqual([0, 0]);
    expect(Cell.fromBoc(out).length).toBe(2);
  });

  it('writes the same bytes as @ton/core for a single root where their orders agree', () => {
    expect(serializeBoc([leaf]).equals(leaf.toBoc())).toBe(true);
  });

  it('refuses no roots and cache bits without an index', () => {
    expect(() => serializeBoc([])).toThrow(CodecError);
    expect(() => serializeBoc([leaf], { cacheBits: true })).toThrow(/cache bits need the index/);
  });
});

describe.skipIf(!hasVectors)('parseBoc on real BoCs', () => {
  it.each(NODE_BOCS)('reads %s like @ton/core does', (file) => {
    const [dir, name] = file.split('/') as [string, string];
    const bytes = bocOf(dir, name);
    expect(parseBoc(bytes).map((c) => c.hash())).toEqual(Cell.fromBoc(bytes).map((c) => c.hash()));
  });

  it('rejects a level mask the contents do not imply (tonutils-go writes 0 above pruned branches), unless allowed', () => {
    const bytes = bocOf('liteserver', 'shard_hashes_dict_tonutils.json');
    expect(() => parseBoc(bytes)).toThrow(/cell #0: level mask 0 in d1, computed 1/);
    const roots = parseBoc(bytes, { allowLevelMaskMismatch: true });
    // The vector records the representation hash (the root has level 1: it sits above pruned branches).
    const v = loadVector<{ ids: { root_hash: string } }>('liteserver', 'shard_hashes_dict_tonutils.json');
    expect(roots[0]?.hash().toString('hex')).toBe(v.ids.root_hash);
  });

  it('checks the hashes stored inside block-file cells', () => {
    const bytes = Buffer.from(bocOf('blocks', 'mainnet_tongo_block-5.json'));
    const h = parseBocHeader(bytes);
    // Walk the cells to the first one stored with its hashes (d1 bit 4); the hash follows d1 d2.
    let pos = h.dataOffset;
    let i = 0;
    for (;;) {
      const d1 = bytes[pos] as number;
      const d2 = bytes[pos + 1] as number;
      if (d1 & 16) break;
      pos += 2 + (d2 >> 1) + (d2 & 1) + (d1 & 7) * h.sizeBytes;
      i++;
    }
    bytes[pos + 2 + 5] = (bytes[pos + 2 + 5] ?? 0) ^ 0x01;
    expect(() => parseBoc(fixCrc(bytes))).toThrow(new RegExp(`cell #${i}: stored hash/depth of level 0`));
  });
});

describe('parseBoc rejects malformed input with CodecError', () => {
  const root = beginCell().storeUint(7, 3).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
  const good = serializeBoc([root], { idx: true, crc32: true });

  const cases: [string, () => Buffer, RegExp][] = [
    ['bad magic', () => Buffer.from('deadbeef0101', 'hex'), /expected magic 0xb5ee9c72.*got 0xdeadbeef/],
    ['truncated header', () => good.subarray(0, 5), /truncated header: need 6 bytes, got 5/],
    ['truncated body', () => good.subarray(0, good.length - 1), /expected \d+ bytes from the header, got \d+/],
    ['trailing bytes', () => Buffer.concat([good, Buffer.from([0])]), /expected \d+ bytes from the header/],
    [
      'CRC mismatch',
      () => {
        const b = Buffer.from(good);
        b[b.length - 1] = (b[b.length - 1] ?? 0) ^ 0xff;
        return b;
      },
      /CRC32-C mismatch/,
    ],
    [
      'size field out of range',
      () => {
        const b = Buffer.from(good);
        b[4] = ((b[4] ?? 0) & 0xf8) | 5;
        return b;
      },
      /expected size 1..4 bytes, got 5/,
    ],
    [
      'reserved flags',
      () => {
        const b = Buffer.from(good);
        b[4] = (b[4] ?? 0) | 0x08;
        return fixCrc(b);
      },
      /reserved flag bits must be 0/,
    ],
    [
      'a reference back to an earlier cell',
      () => {
        const b = Buffer.from(good);
        const h = parseBocHeader(b);
        // Cell 0: d1 d2, one data byte (3 bits + tag), then its ref index.
        b[h.dataOffset + 3] = 0;
        return fixCrc(b);
      },
      /cell #0 at byte \d+: ref #0 points back to cell 0/,
    ],
    [
      'an index entry that disagrees with the cell data',
      () => {
        const b = Buffer.from(good);
        const h = parseBocHeader(b);
        b[h.indexOffset] = (b[h.indexOffset] ?? 0) + 1;
        return fixCrc(b);
      },
      /index says the cell ends at/,
    ],
  ];
  it.each(cases)('%s', (_name, make, message) => {
    const bytes = make();
    expect(() => parseBoc(bytes)).toThrow(CodecError);
    expect(() => parseBoc(bytes)).toThrow(message);
  });

  it('reports an invalid exotic cell through CodecError with the cell index', () => {
    // An exotic cell claiming type 3 (MerkleProof) with the wrong length.
    const bad = Buffer.from(serializeBoc([beginCell().storeUint(3, 8).storeUint(0, 8).endCell()], { crc32: false }));
    const h = parseBocHeader(bad);
    bad[h.dataOffset] = (bad[h.dataOffset] ?? 0) | 8;
    expect(() => parseBoc(bad)).toThrow(/cell #0 is invalid: Merkle Proof cell must have exactly/);
  });
});
