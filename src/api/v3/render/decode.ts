// The decoder behind /decode (v3-api.md §3.10, §7.8): opcode -> name, and a base64 or hex BoC -> the body as JSON,
// in the form toncenter's decoder (ton-marker) gives: {"@type": "<constructor>", ...fields}, {"@type":"empty_cell"}
// for an empty cell, {"error": "unknown: ..."} for anything it cannot read. Standard bodies come from our event
// parsers, the protocols' bodies (DEXes, lending, staking: src/ton/marker) from readers in ton-marker's names and
// order. Cells inside a decoded body are decoded in turn (ten levels at most, 256 decodes per body), else left as
// base64 BoCs. It never throws: bodies come from anyone, so every failure is an error object, bounded in size and
// work (limits below, ton-marker's own values).
import { beginCell, Cell } from '@ton/core';
import { knownOpcodeName, parseKnownBody } from '../../../ton/index.ts';
import { markerOpcodeName, parseMarkerBody } from '../../../ton/marker/index.ts';
import { type Json, type JsonObject, markerJson, objectJson } from './decode-json.ts';
import { bodyShape } from './decode-shapes.ts';

export const DECODE_LIMITS = {
  /** Nested levels of cells decoded inside a body. */
  maxDepth: 10,
  /** Nested decodes per body. */
  maxNestedDecodes: 256,
  /** BoC size after base64/hex decoding. */
  maxBocBytes: 1024 * 1024,
  /** Cells of the BoC's tree, counted as a tree (shared cells once per parent), so rendering stays bounded. */
  maxCells: 4096,
} as const;

/** bounce#ffffffff: a constructor of toncenter's decoder, read here apart (bounceFields) rather than by a table. */
const BOUNCE_OP = 0xffffffff;

/**
 * toncenter's name of an opcode (any 32-bit value, signed or not), or "unknown": its decoder names a tag by the
 * first constructor with it, so the protocol table (src/ton/marker, in ton-marker's order) is asked before our
 * parsers' table; 0x1-0x3 are EVAA's there before they are NFT collection ops.
 */
export function decodeOpcodeName(op: number): string {
  const u = op >>> 0;
  if (u === BOUNCE_OP) return 'bounce';
  return markerOpcodeName(u) ?? knownOpcodeName(u) ?? 'unknown';
}

/** A body the decoder could not read; the message is toncenter's "unknown: ..." text. */
class UndecodableError extends Error {}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The BoC bytes of a base64 (standard or url-safe) or hex (0x optional) string. */
function bocBytes(input: string): Buffer {
  // A '+' of base64 sent unescaped in a URL arrives as a space; base64 and hex have no spaces of their own.
  const s = input.trim().replace(/ /g, '+');
  if (s === '') throw new UndecodableError('unknown: empty boc');
  if (s.length > DECODE_LIMITS.maxBocBytes * 2 + 2)
    throw new UndecodableError('unknown: encoded boc size limit exceeded');
  const hex = /^0[xX]/.test(s) ? s.slice(2) : s;
  let bytes: Buffer;
  if (/^[0-9a-fA-F]+$/.test(hex)) {
    if (hex.length % 2 !== 0) throw new UndecodableError('unknown: failed to decode hex: odd number of digits');
    bytes = Buffer.from(hex, 'hex');
  } else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s) && s.length % 4 !== 1) {
    bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  } else {
    throw new UndecodableError('unknown: failed to decode base64: not a base64 or hex string');
  }
  if (bytes.length > DECODE_LIMITS.maxBocBytes) throw new UndecodableError('unknown: decoded boc size limit exceeded');
  return bytes;
}

function checkExpansion(root: Cell): void {
  const stack = [root];
  let cells = 0;
  for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
    if (++cells > DECODE_LIMITS.maxCells)
      throw new UndecodableError('unknown: decode limit - boc cell expansion limit exceeded');
    stack.push(...c.refs);
  }
}

function rootCell(input: string): Cell {
  const bytes = bocBytes(input);
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(bytes);
  } catch (e) {
    throw new UndecodableError(`unknown: failed to deserialize boc: ${reason(e)}`);
  }
  if (roots.length !== 1) {
    throw new UndecodableError(`unknown: failed to deserialize boc: expected one root cell, got ${roots.length}`);
  }
  const root = roots[0]!;
  checkExpansion(root);
  return root;
}

interface Walk {
  depth: number;
  /** Nested decodes left for this body (shared by all its levels). */
  budget: { left: number };
}

// bounce#ffffffff payload:Cell: a bounced message's body, the original body cut to 256 bits after the prefix.
function bounceFields(cell: Cell): Record<string, unknown> | null {
  const s = cell.beginParse();
  if (s.loadUint(32) !== BOUNCE_OP) return null;
  const payload = beginCell().storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs > 0) payload.storeRef(s.loadRef());
  return { payload: payload.endCell() };
}

function bocOf(cell: Cell): string | null {
  try {
    return cell.toBoc({ idx: false, crc32: false }).toString('base64');
  } catch {
    return null;
  }
}

/** A cell inside a body: decoded when it is a body we know and the limits allow, else its base64 BoC. */
function nestedCell(cell: Cell, walk: Walk): Json {
  const boc = bocOf(cell);
  if (walk.depth >= DECODE_LIMITS.maxDepth || walk.budget.left <= 0) return boc;
  walk.budget.left--;
  try {
    const decoded = decodeCell(cell, { depth: walk.depth + 1, budget: walk.budget });
    return typeof decoded === 'string' ? boc : decoded;
  } catch {
    return boc;
  }
}

/** The body as JSON, or the reason it cannot be decoded. */
function decodeCell(cell: Cell, walk: Walk): JsonObject | string {
  if (cell.isExotic) return 'unknown: boc root is an exotic cell';
  if (cell.bits.length === 0 && cell.refs.length === 0) return { '@type': 'empty_cell' };
  if (cell.bits.length < 32) return `unknown: boc is too small, size ${cell.bits.length}`;
  const nested = (c: Cell) => nestedCell(c, walk);
  const body = parseKnownBody(cell);
  if (body) {
    const shape = bodyShape(body);
    return { '@type': shape.name, ...objectJson(shape.fields, nested) };
  }
  // The protocols' bodies (DEXes, lending, staking...), already in ton-marker's names.
  const protocol = parseMarkerBody(cell);
  if (protocol) return markerJson(protocol.name, protocol.fields, nested);
  const bounce = bounceFields(cell);
  if (!bounce) return 'unknown: no parser succeeded';
  return { '@type': 'bounce', ...objectJson(bounce, nested) };
}

function errorText(e: unknown): string {
  return e instanceof UndecodableError ? e.message : `unknown: decode error - ${reason(e)}`;
}

/** One entry of /decode's `bodies`: the decoded body, or {"error": "unknown: ..."}. */
export function decodeBodyString(input: string): JsonObject {
  try {
    const decoded = decodeCell(rootCell(input), { depth: 0, budget: { left: DECODE_LIMITS.maxNestedDecodes } });
    return typeof decoded === 'string' ? { error: decoded } : decoded;
  } catch (e) {
    return { error: errorText(e) };
  }
}

/** A cell decoded as /decode would (for message_content.decoded and payloads), or null when it cannot be. */
export function decodedCellJson(cell: Cell): JsonObject | null {
  try {
    checkExpansion(cell);
    const decoded = decodeCell(cell, { depth: 0, budget: { left: DECODE_LIMITS.maxNestedDecodes } });
    return typeof decoded === 'string' ? null : decoded;
  } catch {
    return null;
  }
}
