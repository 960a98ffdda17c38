// Message body conventions that are not TL-B types of block.tlb: the 32-bit opcode, text comments
// (op 0 followed by a "snake" string) and encrypted comments (op 0x2167da4b), and the `msg_data`
// forms tonlib (toncenter v2) gives a message body.
import type { BitString, Cell, Slice } from '@ton/core';

/** Opcode of a text comment: `text_comment#00000000 text:SnakeString`. */
export const OP_TEXT_COMMENT = 0;
/** Opcode of an encrypted comment (TEP-74 forward payloads, wallets): `0x2167da4b`. */
export const OP_ENCRYPTED_COMMENT = 0x2167da4b;

/**
 * The first 32 bits of a body as a signed int32, as toncenter stores it (messages.opcode is a
 * Postgres integer); null when the body has fewer than 32 bits.
 */
export function bodyOpcode(body: Cell): number | null {
  if (body.isExotic) return null;
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadInt(32) : null;
}

/** "0x%08x" of the unsigned opcode: how v3 and tonapi print `opcode`. */
export function formatOpcode(opcode: number): string {
  return `0x${(opcode >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * The bytes of a snake string starting at `s`: the bits of each cell, following the first reference
 * until a cell has none (tonlib's CellString::load). Null when the bits do not add up to whole bytes
 * or a cell in the chain cannot be read (exotic).
 */
export function readSnakeBytes(s: Slice): Buffer | null {
  const chunks: BitString[] = [];
  let bits = 0;
  let cur: Slice | null = s.clone();
  try {
    while (cur) {
      const chunk = cur.loadBits(cur.remainingBits);
      chunks.push(chunk);
      bits += chunk.length;
      cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
    }
  } catch {
    return null;
  }
  if (bits % 8 !== 0) return null;
  // Whole bytes are copied as they are; a chunk that does not start on a byte boundary is placed bit by bit.
  const out = Buffer.alloc(bits / 8);
  let at = 0;
  for (const c of chunks) {
    const aligned = at % 8 === 0 && c.length % 8 === 0 ? c.subbuffer(0, c.length) : null;
    if (aligned) {
      aligned.copy(out, at / 8);
      at += c.length;
      continue;
    }
    for (let i = 0; i < c.length; i++, at++) if (c.at(i)) out[at >> 3] = (out[at >> 3] as number) | (0x80 >> (at % 8));
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text, or null when they are not valid UTF-8. */
export function utf8OrNull(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function afterOp(body: Cell, op: number): Slice | null {
  if (body.isExotic) return null;
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== op >>> 0) return null;
  return s;
}

/** The bytes of a text comment (op 0 + snake string); null if the body is not one. */
export function textCommentBytes(body: Cell): Buffer | null {
  const s = afterOp(body, OP_TEXT_COMMENT);
  return s ? readSnakeBytes(s) : null;
}

/** A text comment decoded as UTF-8; null if the body is not a comment or not valid UTF-8. */
export function textComment(body: Cell): string | null {
  const bytes = textCommentBytes(body);
  return bytes ? utf8OrNull(bytes) : null;
}

/** The ciphertext of an encrypted comment (op 0x2167da4b + snake bytes); null if not one. */
export function encryptedComment(body: Cell): Buffer | null {
  const s = afterOp(body, OP_ENCRYPTED_COMMENT);
  return s ? readSnakeBytes(s) : null;
}

/**
 * tonlib's `msg_data` for a body (what toncenter v2 returns in raw.message.msg_data): an op 0 body
 * whose tail is a snake string is `msg.dataText` (the raw bytes; JSON carries them base64), an op 1
 * body likewise is `msg.dataEncryptedText` (tonlib decrypts only with the receiver's key, which the
 * HTTP API never has), anything else is `msg.dataRaw` with the body and the init state.
 */
export type MsgDataV2 =
  | { type: 'msg.dataRaw'; body: Cell; initState: Cell | null }
  | { type: 'msg.dataText'; text: Buffer }
  | { type: 'msg.dataEncryptedText'; text: Buffer };

export function msgDataV2(body: Cell, initState: Cell | null): MsgDataV2 {
  const s = body.isExotic ? null : body.beginParse();
  if (s && s.remainingBits >= 32) {
    const op = s.loadUint(32);
    if (op <= 1) {
      const text = readSnakeBytes(s);
      if (text) return op === 0 ? { type: 'msg.dataText', text } : { type: 'msg.dataEncryptedText', text };
    }
  }
  return { type: 'msg.dataRaw', body, initState };
}
