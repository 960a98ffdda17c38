import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { ADNLPacket } from 'adnl/dist/packet.js';
import { describe, expect, it } from 'vitest';
import { AdnlError } from '../common/index.ts';
import { createFrameDecoder, encodeFrame } from './frame.ts';

function ctrPair() {
  const key = randomBytes(32);
  const iv = randomBytes(16);
  return {
    tx: createCipheriv('aes-256-ctr', key, iv),
    rx: createCipheriv('aes-256-ctr', key, iv),
    fresh: () => createCipheriv('aes-256-ctr', key, iv),
  };
}

/** Feeds `data` to the decoder in pieces of the given sizes (cycled) and collects the payloads. */
function feed(decoder: ReturnType<typeof createFrameDecoder>, data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let off = 0;
  for (let i = 0; off < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    out.push(...decoder.push(data.subarray(off, off + n)));
    off += n;
  }
  return out;
}

describe('ADNL packet framing', () => {
  // The plaintext getMasterchainInfo query packet of the TON documentation's ADNL-TCP walkthrough
  // (ton-community/ton-docs docs/v3/documentation/network/protocols/adnl/adnl-tcp.md), with its checksum.
  const docQuery = Buffer.from(
    '74000000' +
      '5fb13e11977cb5cff0fbf7f23f674d734cb7c4bf01322c5e6b928c5d8ea09cfd' +
      '7af98bb477c1545b96fa136b8e01cc08338bec47e8a43215492dda6d4d7e286382bb00c40cdf068c79042ee6b589000000000000' +
      'ac2253594c86bd308ed631d57a63db4ab21279e9382e416128b58ee95897e164',
    'hex',
  );
  it('decodes the documented packet (known checksum) from an AES-CTR stream', () => {
    const { tx, rx } = ctrPair();
    const wire = tx.update(Buffer.concat([docQuery, docQuery]));
    const payload = docQuery.subarray(36, docQuery.length - 32);
    expect(payload.length).toBe(0x74 - 64);
    expect(feed(createFrameDecoder(rx), wire, [7, 1, 100])).toEqual([payload, payload]);
  });

  it('round-trips packets of many sizes through any chunking', () => {
    const small = [0, 1, 12, 63, 64, 65, 1000];
    const cases: Array<[number[], number[]]> = [
      [[1], small],
      [
        [3, 17, 64],
        [...small, 70_000],
      ],
      [[65_536], [...small, 70_000, 1 << 20]],
      [[10_000_000], [...small, 70_000, 1 << 20]],
    ];
    for (const [chunking, sizes] of cases) {
      const { tx, rx } = ctrPair();
      const payloads = sizes.map((n) => randomBytes(n));
      const wire = Buffer.concat(payloads.map((p) => encodeFrame(tx, p)));
      const decoder = createFrameDecoder(rx);
      const out = feed(decoder, wire, chunking);
      expect(out.map((p) => p.length)).toEqual(sizes);
      expect(out.every((p, i) => p.equals(payloads[i]!))).toBe(true);
      expect(decoder.buffered).toBe(0);
    }
  });

  it('writes len = 64 + |payload| and SHA-256(nonce ‖ payload), readable by the adnl package', () => {
    const { tx, fresh } = ctrPair();
    const payload = randomBytes(300);
    const plain = fresh().update(encodeFrame(tx, payload));
    expect(plain.length).toBe(4 + 64 + 300);
    expect(plain.readUInt32LE(0)).toBe(364);
    const nonce = plain.subarray(4, 36);
    expect(plain.subarray(36, 336)).toEqual(payload);
    expect(plain.subarray(336)).toEqual(createHash('sha256').update(nonce).update(payload).digest());
    const parsed = ADNLPacket.parse(plain);
    expect(parsed && Buffer.from(parsed.payload)).toEqual(payload);
  });

  it('rejects a bad checksum, len < 64 and len > max, and stays failed', () => {
    const bad = Buffer.from(docQuery);
    bad[bad.length - 1]! ^= 1;
    const c1 = ctrPair();
    const d1 = createFrameDecoder(c1.rx);
    expect(() => d1.push(c1.tx.update(bad))).toThrow(/checksum/);
    expect(() => d1.push(c1.tx.update(docQuery))).toThrow(AdnlError);

    const c2 = ctrPair();
    const short = Buffer.alloc(4);
    short.writeUInt32LE(63, 0);
    expect(() => createFrameDecoder(c2.rx).push(c2.tx.update(short))).toThrow(/len >= 64, got 63/);

    const c3 = ctrPair();
    const big = Buffer.alloc(4);
    big.writeUInt32LE(1001, 0);
    expect(() => createFrameDecoder(c3.rx, 1000).push(c3.tx.update(big))).toThrow(/len <= 1000, got 1001/);

    const c4 = ctrPair();
    const ok = Buffer.alloc(4);
    ok.writeUInt32LE(1000, 0);
    expect(createFrameDecoder(c4.rx, 1000).push(c4.tx.update(ok))).toEqual([]);
  });
});
