// The few TL primitives ADNL itself needs (ids, bytes, int256, long). The lite_api codec lives in src/lite/tl;
// this part may not import it (dependency rule), and the transport only ever parses four messages.
import { AdnlError } from '../common/index.ts';

const CRC32_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** crc32 (IEEE) of a TL line such as `tcp.ping random_id:long = tcp.Pong`: the constructor id. */
export function tlId(line: string): number {
  let crc = 0xffffffff;
  for (const b of Buffer.from(line, 'utf8')) crc = CRC32_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** TL `bytes`: a 1-byte length (< 254) or 0xfe + 3-byte LE length, the data, zero padding to 4 bytes. */
export function encodeTlBytes(value: Buffer): Buffer {
  if (value.length >= 1 << 24) {
    throw new AdnlError(`TL bytes: expected fewer than 2^24 bytes, got ${value.length}`);
  }
  const head = value.length < 254 ? 1 : 4;
  const out = Buffer.alloc(tlBytesSize(value.length));
  if (head === 1) out[0] = value.length;
  else {
    out[0] = 0xfe;
    out.writeUIntLE(value.length, 1, 3);
  }
  value.copy(out, head);
  return out;
}

/** Encoded size of a TL `bytes` value of `n` bytes. */
export function tlBytesSize(n: number): number {
  return Math.ceil(((n < 254 ? 1 : 4) + n) / 4) * 4;
}

/** Reads TL `bytes` at `offset`; throws AdnlError naming `where` if the buffer is too short. */
export function readTlBytes(buf: Buffer, offset: number, where: string): { value: Buffer; next: number } {
  need(buf, offset, 1, where);
  let len = buf[offset]!;
  let head = 1;
  if (len === 0xfe) {
    need(buf, offset, 4, where);
    len = buf.readUIntLE(offset + 1, 3);
    head = 4;
  } else if (len === 0xff) {
    throw new AdnlError(`${where}: TL bytes length byte 0xff is reserved, at offset ${offset}`);
  }
  const padded = Math.ceil((head + len) / 4) * 4;
  need(buf, offset, padded, where);
  return { value: buf.subarray(offset + head, offset + head + len), next: offset + padded };
}

export function readInt256(buf: Buffer, offset: number, where: string): Buffer {
  need(buf, offset, 32, where);
  return buf.subarray(offset, offset + 32);
}

export function need(buf: Buffer, offset: number, n: number, where: string): void {
  if (offset + n > buf.length) {
    throw new AdnlError(`${where}: expected ${n} more bytes at offset ${offset}, the message has ${buf.length}`);
  }
}
