// Small helpers the matchers share: reading a node's inbound body, comments, JSON-ready values.
import { beginCell, type Cell, type Slice } from '@ton/core';
import { type KnownBody, parseKnownBody } from '../../../ton/index.ts';
import type { TraceMessage, TraceNode } from '../types.ts';

export const COMMENT_OP = 0x00000000;
export const ENCRYPTED_COMMENT_OP = 0x2167da4b;

/** The node's inbound message body, if it has an inbound message. */
export function bodyOf(node: TraceNode): Cell | null {
  return node.tx.inMsg?.body ?? null;
}

/** `read` over the node's inbound body (null without a node or a body). */
export function parseBody<T>(node: TraceNode | undefined, read: (c: Cell) => T | null): T | null {
  const b = node ? bodyOf(node) : null;
  return b ? read(b) : null;
}

/** An internal inbound message that is not a bounce. */
export function internalIn(node: TraceNode): TraceMessage | null {
  const m = node.tx.inMsg;
  return m && m.source !== null && !m.bounced ? m : null;
}

/** The inbound message's body decoded by opcode, when it is one of ours and has type `type`. */
export function inBody<T extends KnownBody['type']>(node: TraceNode, type: T): Extract<KnownBody, { type: T }> | null {
  const m = internalIn(node);
  if (!m?.body) return null;
  const v = parseKnownBody(m.body, { direction: 'internal' });
  return v && v.type === type ? (v as Extract<KnownBody, { type: T }>) : null;
}

export function opcodeOf(m: TraceMessage | null | undefined): number | null {
  return m?.opcode ?? null;
}

/** `0x` + 8 hex digits: how toncenter renders an opcode in action details. */
export function opcodeHex(op: number): string {
  return `0x${(op >>> 0).toString(16).padStart(8, '0')}`;
}

function readTail(s: Slice): Buffer | null {
  // Snake format: bytes of this cell then of its first reference, recursively.
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    if (cur.remainingBits % 8 !== 0) return null;
    parts.push(cur.loadBuffer(cur.remainingBits / 8));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

export interface Comment {
  text: string;
  encrypted: boolean;
}

/** A text comment (op 0, UTF-8 snake) or an encrypted one (op 0x2167da4b, its bytes in base64); else null. */
export function commentOf(body: Cell | null): Comment | null {
  if (!body) return null;
  try {
    const s = body.beginParse(true);
    if (s.remainingBits < 32) return null;
    const op = s.loadUint(32);
    if (op !== COMMENT_OP && op !== ENCRYPTED_COMMENT_OP) return null;
    const bytes = readTail(s);
    if (!bytes) return null;
    if (op === ENCRYPTED_COMMENT_OP) return { text: bytes.toString('base64'), encrypted: true };
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text, encrypted: false };
  } catch {
    return null;
  }
}

/** A forward payload's comment (the same two formats), for jetton and NFT transfers. */
export function payloadComment(payload: Cell | null | undefined): Comment | null {
  return payload ? commentOf(payload) : null;
}

/** True for a body with no bits and no references (or none at all). */
export function isEmptyBody(body: Cell | null): boolean {
  return !body || (body.bits.length === 0 && body.refs.length === 0);
}

/** A cell as base64 BoC without index and CRC (te6ccg…): how toncenter's details hold messages (message_boc, order_boc). */
export function bocB64(c: Cell | null | undefined): string | null {
  return c ? c.toBoc({ idx: false, crc32: false }).toString('base64') : null;
}

/**
 * A transfer's payload (jetton and NFT forward_payload, custom_payload) as toncenter's classifier writes it: a BoC with
 * CRC32-C and without index (te6cck…), as the mainnet cases show (shared/vectors/actions/cases.json).
 */
export function payloadB64(c: Cell | null | undefined): string | null {
  return c ? c.toBoc({ idx: false, crc32: true }).toString('base64') : null;
}

/** Same as bocB64 for a slice-held payload (Either inline): the remaining bits and refs as a cell. */
export function sliceBoc(s: Slice | null | undefined): string | null {
  return s ? bocB64(beginCell().storeSlice(s).endCell()) : null;
}

export const str = (v: bigint | number | null | undefined): string | null =>
  v === null || v === undefined ? null : v.toString();

/** The child transaction that received the message `m` sent by `node`. */
export function receiverOf(node: TraceNode, m: TraceMessage): TraceNode | undefined {
  return node.children.find((c) => c.tx.inMsg?.hash === m.hash);
}

/** Children that received a message with opcode `op` from `node` (not bounced). */
export function childrenWithOp(node: TraceNode, op: number): TraceNode[] {
  return node.children.filter((c) => {
    const m = c.tx.inMsg;
    return m && !m.bounced && m.opcode === op;
  });
}

/** The child that received a bounce of the message `node` got, when there is one. */
export function bounceBack(node: TraceNode): TraceNode | undefined {
  return node.children.find((c) => c.tx.inMsg?.bounced === true && c.tx.account === node.tx.inMsg?.source);
}
