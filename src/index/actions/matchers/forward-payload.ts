// Forward payloads of jetton and NFT transfers as toncenter's action details show them. The two parts of toncenter
// read comments differently, and the details keep those differences: the jetton classifier (Python) decodes a text
// comment with invalid bytes written as `\xNN` and NULs dropped, and reports `is_encrypted_comment` false whenever
// there is no encrypted comment; the NFT details (Go) decode the text with U+FFFD for invalid bytes and report
// both fields null when there is no payload at all.
import type { Cell, Slice } from '@ton/core';
import { COMMENT_OP, ENCRYPTED_COMMENT_OP } from './util.ts';

export interface PayloadComment {
  comment: string | null;
  encrypted: boolean | null;
}

/** Snake bytes: the whole bytes of this cell, then of its first reference, recursively (trailing bits ignored). */
function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse(true) : null;
  }
  return Buffer.concat(parts);
}

const strict = new TextDecoder('utf-8', { fatal: true });

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** UTF-8 with each byte that starts no valid sequence replaced by `invalid(byte)` (one byte at a time). */
export function decodeUtf8Lossy(bytes: Uint8Array, invalid: (byte: number) => string): string {
  try {
    return strict.decode(bytes);
  } catch {
    // Fall through to the byte-by-byte walk below.
  }
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const len = sequenceLength(bytes[i]!);
    if (len > 0 && i + len <= bytes.length) {
      try {
        out += strict.decode(bytes.subarray(i, i + len));
        i += len;
        continue;
      } catch {
        // Not a valid sequence: this byte is replaced.
      }
    }
    out += invalid(bytes[i]!);
    i += 1;
  }
  return out;
}

const pythonEscape = (b: number) => `\\x${b.toString(16).padStart(2, '0')}`;

function readComment(payload: Cell): { op: number; bytes: Buffer } | null {
  try {
    const s = payload.beginParse(true);
    if (s.remainingBits < 32) return null;
    const op = s.loadUint(32);
    if (op !== COMMENT_OP && op !== ENCRYPTED_COMMENT_OP) return null;
    return { op, bytes: snakeBytes(s) };
  } catch {
    return null;
  }
}

/** A jetton transfer's comment (`payload` as toncenter keeps it: null when it has no bits). */
export function jettonPayloadComment(payload: Cell | null): { comment: string | null; encrypted: boolean } {
  const c = payload ? readComment(payload) : null;
  if (!c) return { comment: null, encrypted: false };
  if (c.op === ENCRYPTED_COMMENT_OP) return { comment: c.bytes.toString('base64'), encrypted: true };
  return { comment: decodeUtf8Lossy(c.bytes, pythonEscape).replaceAll('\u0000', ''), encrypted: false };
}

/** An NFT transfer's comment (`payload` null when the message had none). */
export function nftPayloadComment(payload: Cell | null): PayloadComment {
  if (!payload) return { comment: null, encrypted: null };
  const c = readComment(payload);
  if (!c) return { comment: null, encrypted: false };
  if (c.op === ENCRYPTED_COMMENT_OP) return { comment: c.bytes.toString('base64'), encrypted: true };
  return { comment: decodeUtf8Lossy(c.bytes, () => '\ufffd'), encrypted: false };
}
