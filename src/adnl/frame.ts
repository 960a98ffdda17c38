// ADNL-TCP packet framing (ton-libs.md §2.3): len:u32le ‖ nonce:32 ‖ payload ‖ SHA-256(nonce ‖ payload),
// len = 64 + |payload|, the whole byte stream enciphered by the connection's AES-256-CTR streams.
import { type Cipher, createHash, randomBytes } from 'node:crypto';
import { AdnlError } from '../common/index.ts';

/** The smallest legal `len` (an empty payload): nonce + checksum. */
export const MIN_PACKET_LEN = 64;
/** The reference node's limit on `len` (2^24), enforced by clients and servers alike. */
export const DEFAULT_MAX_PACKET_BYTES = 1 << 24;

/** Frames and enciphers one payload. Call in send order: the CTR stream position is part of the state. */
export function encodeFrame(tx: Cipher, payload: Buffer): Buffer {
  const nonce = randomBytes(32);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(MIN_PACKET_LEN + payload.length, 0);
  const checksum = createHash('sha256').update(nonce).update(payload).digest();
  return tx.update(Buffer.concat([head, nonce, payload, checksum]));
}

export interface FrameDecoder {
  /** Deciphers a chunk and returns the payloads it completes; throws AdnlError on a bad length or checksum. */
  push(encrypted: Buffer): Buffer[];
  /** Deciphered bytes held for an incomplete packet. */
  readonly buffered: number;
}

export function createFrameDecoder(rx: Cipher, maxPacketBytes = DEFAULT_MAX_PACKET_BYTES): FrameDecoder {
  // Chunks are kept as a list and joined once per packet, so a 16 MiB packet in 64 KiB reads stays linear.
  let chunks: Buffer[] = [];
  let buffered = 0;
  let expected = -1; // len of the packet being assembled, -1 until its 4-byte prefix is in
  let failed: AdnlError | undefined;

  function take(n: number): Buffer {
    const joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
    const out = joined.subarray(0, n);
    const rest = joined.subarray(n);
    chunks = rest.length > 0 ? [rest] : [];
    buffered = rest.length;
    return out;
  }

  function fail(message: string, details: Record<string, unknown>): never {
    failed = new AdnlError(message, { details });
    throw failed;
  }

  return {
    get buffered() {
      return buffered;
    },
    push(encrypted) {
      if (failed) throw failed;
      const plain = rx.update(encrypted);
      if (plain.length > 0) {
        chunks.push(plain);
        buffered += plain.length;
      }
      const out: Buffer[] = [];
      for (;;) {
        if (expected < 0) {
          if (buffered < 4) break;
          expected = take(4).readUInt32LE(0);
          if (expected < MIN_PACKET_LEN) {
            fail(`ADNL packet: expected len >= ${MIN_PACKET_LEN}, got ${expected}`, { reason: 'short', len: expected });
          }
          if (expected > maxPacketBytes) {
            fail(`ADNL packet: expected len <= ${maxPacketBytes}, got ${expected}`, {
              reason: 'oversized',
              len: expected,
            });
          }
        }
        if (buffered < expected) break;
        const packet = take(expected);
        expected = -1;
        const nonce = packet.subarray(0, 32);
        const payload = packet.subarray(32, packet.length - 32);
        const checksum = createHash('sha256').update(nonce).update(payload).digest();
        if (!checksum.equals(packet.subarray(packet.length - 32))) {
          fail(`ADNL packet: SHA-256 checksum mismatch on a ${payload.length}-byte payload`, { reason: 'checksum' });
        }
        out.push(payload);
      }
      return out;
    },
  };
}
