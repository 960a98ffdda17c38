// Test-only decoders written straight from shared/specs/contracts.md (§0, §2.2, §3, §4.1), independent of the
// writers in this folder, so contract tests check the bodies our contracts emit against the spec, not against
// our own builders.
import { type Address, type Cell, Dictionary, type Slice } from '@ton/core';

export interface ParsedEither {
  inRef: boolean;
  /** The payload: the ref (inRef) or the rest of the body as a cell. */
  cell: Cell;
}

function either(s: Slice): ParsedEither {
  const inRef = s.loadBit();
  if (inRef) {
    const cell = s.loadRef();
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new Error('Either ^Cell with data left after the ref');
    return { inRef, cell };
  }
  const cell = s.asCell();
  s.skip(s.remainingBits);
  while (s.remainingRefs > 0) s.loadRef();
  return { inRef, cell };
}

function op(s: Slice, expected: number, name: string): void {
  const got = s.loadUint(32);
  if (got !== expected) throw new Error(`${name}: expected op 0x${expected.toString(16)}, got 0x${got.toString(16)}`);
}

function end(s: Slice, name: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new Error(`${name}: ${s.remainingBits} bits and ${s.remainingRefs} refs left over`);
  }
}

// transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress response_destination:MsgAddress
//   custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
export function parseJettonTransfer(body: Cell) {
  const s = body.beginParse();
  op(s, 0x0f8a7ea5, 'transfer');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadVarUintBig(4),
    destination: s.loadMaybeAddress(),
    responseDestination: s.loadMaybeAddress(),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadVarUintBig(4),
    forwardPayload: either(s),
  };
}

// internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress response_address:MsgAddress
//   forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
export function parseJettonInternalTransfer(body: Cell) {
  const s = body.beginParse();
  op(s, 0x178d4519, 'internal_transfer');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadVarUintBig(4),
    from: s.loadMaybeAddress(),
    responseAddress: s.loadMaybeAddress(),
    forwardTonAmount: s.loadVarUintBig(4),
    forwardPayload: either(s),
  };
}

// transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//   forward_payload:(Either Cell ^Cell)
export function parseJettonTransferNotification(body: Cell) {
  const s = body.beginParse();
  op(s, 0x7362d09c, 'transfer_notification');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadVarUintBig(4),
    sender: s.loadMaybeAddress(),
    forwardPayload: either(s),
  };
}

// excesses#d53276db query_id:uint64
export function parseExcesses(body: Cell) {
  const s = body.beginParse();
  op(s, 0xd53276db, 'excesses');
  const queryId = s.loadUintBig(64);
  end(s, 'excesses');
  return { queryId };
}

// burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress response_destination:MsgAddress
export function parseJettonBurnNotification(body: Cell) {
  const s = body.beginParse();
  op(s, 0x7bdd97de, 'burn_notification');
  const v = {
    queryId: s.loadUintBig(64),
    amount: s.loadVarUintBig(4),
    sender: s.loadMaybeAddress(),
    responseDestination: s.loadMaybeAddress(),
  };
  end(s, 'burn_notification');
  return v;
}

// take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress)
export function parseTakeWalletAddress(body: Cell) {
  const s = body.beginParse();
  op(s, 0xd1735400, 'take_wallet_address');
  const queryId = s.loadUintBig(64);
  const walletAddress = s.loadMaybeAddress();
  const ownerRef = s.loadMaybeRef();
  end(s, 'take_wallet_address');
  return { queryId, walletAddress, ownerAddress: ownerRef ? ownerRef.beginParse().loadMaybeAddress() : undefined };
}

// ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)
export function parseNftOwnershipAssigned(body: Cell) {
  const s = body.beginParse();
  op(s, 0x05138d91, 'ownership_assigned');
  return { queryId: s.loadUintBig(64), prevOwner: s.loadMaybeAddress(), forwardPayload: either(s) };
}

// report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress
export function parseNftReportStaticData(body: Cell) {
  const s = body.beginParse();
  op(s, 0x8b771735, 'report_static_data');
  const v = { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: s.loadMaybeAddress() };
  end(s, 'report_static_data');
  return v;
}

// report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress
export function parseNftReportRoyaltyParams(body: Cell) {
  const s = body.beginParse();
  op(s, 0xa8cb00ad, 'report_royalty_params');
  const v = {
    queryId: s.loadUintBig(64),
    numerator: s.loadUint(16),
    denominator: s.loadUint(16),
    destination: s.loadMaybeAddress(),
  };
  end(s, 'report_royalty_params');
  return v;
}

/** A text comment: op 0 + snake UTF-8 (bits concatenated across first refs). */
export function parseTextComment(cell: Cell): string {
  const s = cell.beginParse();
  if (s.loadUint(32) !== 0) throw new Error('text comment: expected op 0');
  return snakeBytes(s).toString('utf8');
}

/** Snake data: the bytes of this cell, then of its first ref, recursively; bits must be byte-aligned. */
export function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    if (cur.remainingBits % 8 !== 0) throw new Error('snake data: bits not byte-aligned');
    parts.push(cur.loadBuffer(cur.remainingBits / 8));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

export type ParsedContent =
  | { layout: 'offchain'; uri: string }
  | { layout: 'onchain'; attributes: Map<bigint, string> };

/** TEP-64 full content: offchain#01 uri:Text, or onchain#00 HashmapE 256 ^(snake#00 | chunks#01). */
export function parseTep64(content: Cell): ParsedContent {
  const s = content.beginParse();
  const prefix = s.loadUint(8);
  if (prefix === 0x01) return { layout: 'offchain', uri: snakeBytes(s).toString('utf8') };
  if (prefix !== 0x00) throw new Error(`TEP-64: unknown content prefix 0x${prefix.toString(16)}`);
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const attributes = new Map<bigint, string>();
  for (const [key, valueCell] of dict) {
    const v = valueCell.beginParse();
    const kind = v.loadUint(8);
    if (kind !== 0x00) throw new Error(`TEP-64: only snake values are expected here, got 0x${kind.toString(16)}`);
    attributes.set(key, snakeBytes(v).toString('utf8'));
  }
  return { layout: 'onchain', attributes };
}

export function sameAddress(a: Address | null | undefined, b: Address | null | undefined): boolean {
  if (!a || !b) return a === b || (!a && !b);
  return a.equals(b);
}
