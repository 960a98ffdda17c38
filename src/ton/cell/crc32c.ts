// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum a BoC may end with. Table-driven, one byte
// per step: @ton/core's crc32c works one bit per step and was a visible cost of serializing message bodies; the
// native packages that offer CRC-32C bring a platform binary for what is a dozen lines. With native/tonhash built,
// its crc32c (the CPU's crc32 instruction) does the work: a content BoC's CRC was 2% of decoding a block.
import { nativeHasher } from './native-hash.ts';

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32C of `data`, as the 4 little-endian bytes a BoC stores. */
export function crc32c(data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4);
  if (nativeHasher) {
    out.writeUInt32LE(nativeHasher.crc32c(data));
    return out;
  }
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = (TABLE[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  out.writeInt32LE(crc ^ -1);
  return out;
}
