// The head of a one-root BoC as @ton/core's serializeBoc writes it (magic, flags and size fields, root 0, no
// absent cells), for the two writers of cell-boc.ts and table-boc.ts.

/** Bytes needed for `n` (at least 1). */
export const bytesFor = (n: number): number => Math.max(Math.ceil(n.toString(2).length / 8), 1);

export interface BocHead {
  /** The whole BoC's buffer, head written. */
  out: Buffer;
  /** Where the index (with idx) or the cells start. */
  at: number;
  sizeBytes: number;
  offBytes: number;
}

/** Allocates a BoC of `n` cells whose cell data takes `total` bytes, and writes its head. */
export function startBoc(n: number, total: number, sizeBytes: number, hasIdx: boolean, hasCrc: boolean): BocHead {
  const offBytes = bytesFor(total);
  const size =
    4 + 1 + 1 + 3 * sizeBytes + offBytes + sizeBytes + (hasIdx ? n * offBytes : 0) + total + (hasCrc ? 4 : 0);
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt32BE(0xb5ee9c72, 0);
  out[at++] = (hasIdx ? 0x80 : 0) | (hasCrc ? 0x40 : 0) | sizeBytes;
  out[at++] = offBytes;
  at = out.writeUIntBE(n, at, sizeBytes);
  at = out.writeUIntBE(1, at, sizeBytes);
  at = out.writeUIntBE(0, at, sizeBytes);
  at = out.writeUIntBE(total, at, offBytes);
  at = out.writeUIntBE(0, at, sizeBytes);
  return { out, at, sizeBytes, offBytes };
}
