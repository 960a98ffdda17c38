// Wallet bodies, contracts.md §8.1: comments (op 0 text, 0x2167da4b encrypted), the signed external requests of
// v3 (also vesting and lockup), v4, highload v3 and v5 (external, internal and extension requests), highload v3's
// internal batch, and v4 plugin messages. v3, v4 and highload v3 externals start with a signature, not an
// opcode; their exact bit and ref counts tell them apart (v3: 608 + 8·refs bits, v4: 616 + ..., highload v3:
// 512 bits and one ref).
import {
  type Address,
  beginCell,
  type Cell,
  loadMessageRelaxed,
  loadOutList,
  loadStateInit,
  type MessageRelaxed,
  type OutAction,
  type Slice,
  type StateInit,
} from '@ton/core';
import { readSnakeBytes, utf8OrNull } from '../message/comment.ts';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import { loadMsgAddressInt, refuse } from './body-reader.ts';

export const WALLET_OP = {
  textComment: 0x00000000,
  encryptedComment: 0x2167da4b,
  externalSigned: 0x7369676e,
  internalSigned: 0x73696e74,
  extension: 0x6578746e,
  highloadV3InternalTransfer: 0xae42e5a4,
  pluginRequestFunds: 0x706c7567,
  pluginRequestFundsResponse: 0xf06c7567,
  pluginDestruct: 0x64737472,
  pluginDestructResponse: 0xe4737472,
  pluginInstalled: 0x6e6f7465,
} as const;

// text_comment#00000000 text:SnakeString  (valid UTF-8 only; other bytes are not a text comment)
export interface TextComment {
  text: string;
}

export function loadTextComment(s: Slice): TextComment {
  const bytes = readSnakeBytes(s);
  const text = bytes ? utf8OrNull(bytes) : null;
  return text === null ? refuse('text_comment: not UTF-8 snake bytes') : { text };
}

// encrypted_comment#2167da4b ciphertext:SnakeBytes
export interface EncryptedComment {
  ciphertext: Buffer;
}

export function loadEncryptedComment(s: Slice): EncryptedComment {
  const ciphertext = readSnakeBytes(s);
  return ciphertext ? { ciphertext } : refuse('encrypted_comment: not snake bytes');
}

/** One message a wallet sends: its send mode and the message (MessageRelaxed). */
export interface WalletMessage {
  mode: number;
  message: MessageRelaxed;
}

function loadMessages(s: Slice): WalletMessage[] {
  const out: WalletMessage[] = [];
  while (s.remainingRefs > 0) out.push({ mode: s.loadUint(8), message: loadMessageRelaxed(s.loadRef().beginParse()) });
  if (s.remainingBits !== 0) refuse('wallet request: bits left after the messages');
  return out;
}

// signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 (send_mode:uint8 ^MessageRelaxed)*
export interface WalletV3SignedRequest {
  signature: Buffer;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  messages: WalletMessage[];
}

export function loadWalletV3SignedRequest(s: Slice): WalletV3SignedRequest {
  if (s.remainingRefs > 4 || s.remainingBits !== 608 + 8 * s.remainingRefs) refuse('wallet v3 request: shape');
  return {
    signature: s.loadBuffer(64),
    subwalletId: s.loadUint(32),
    validUntil: s.loadUint(32),
    seqno: s.loadUint(32),
    messages: loadMessages(s),
  };
}

// signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 op:uint8 ...
//   op 0: (send_mode:uint8 ^MessageRelaxed)*
//   op 1: plugin_workchain:int8 plugin_balance:Coins state_init:^StateInit body:^Cell
//   op 2 / 3: wc:int8 addr_hash:bits256 amount:Coins query_id:uint64
export type WalletV4Action =
  | { op: 0; messages: WalletMessage[] }
  | { op: 1; pluginWorkchain: number; pluginBalance: bigint; stateInit: StateInit; body: Cell }
  | { op: 2 | 3; wc: number; addrHash: Buffer; amount: bigint; queryId: bigint };

export interface WalletV4SignedRequest {
  signature: Buffer;
  subwalletId: number;
  validUntil: number;
  seqno: number;
  action: WalletV4Action;
}

function loadV4Action(s: Slice): WalletV4Action {
  const op = s.loadUint(8);
  switch (op) {
    case 0:
      if (s.remainingRefs > 4 || s.remainingBits !== 8 * s.remainingRefs) refuse('wallet v4 request: shape');
      return { op, messages: loadMessages(s) };
    case 1: {
      const a: WalletV4Action = {
        op,
        pluginWorkchain: s.loadInt(8),
        pluginBalance: s.loadCoins(),
        stateInit: loadStateInit(s.loadRef().beginParse()),
        body: s.loadRef(),
      };
      s.endParse();
      return a;
    }
    case 2:
    case 3: {
      const a: WalletV4Action = {
        op,
        wc: s.loadInt(8),
        addrHash: s.loadBuffer(32),
        amount: s.loadCoins(),
        queryId: s.loadUintBig(64),
      };
      s.endParse();
      return a;
    }
    default:
      return refuse(`wallet v4 request: unknown op ${op}`);
  }
}

export function loadWalletV4SignedRequest(s: Slice): WalletV4SignedRequest {
  if (s.remainingBits < 616) refuse('wallet v4 request: too short');
  return {
    signature: s.loadBuffer(64),
    subwalletId: s.loadUint(32),
    validUntil: s.loadUint(32),
    seqno: s.loadUint(32),
    action: loadV4Action(s),
  };
}

// signature:bits512 ^MsgInner;  MsgInner = subwallet_id:uint32 message_to_send:^MessageRelaxed send_mode:uint8
//     query_id:(shift:uint13 bit_number:uint10) created_at:uint64 timeout:uint22
export interface HighloadV3SignedRequest {
  signature: Buffer;
  subwalletId: number;
  messageToSend: MessageRelaxed;
  sendMode: number;
  shift: number;
  bitNumber: number;
  createdAt: bigint;
  timeout: number;
}

export function loadHighloadV3SignedRequest(s: Slice): HighloadV3SignedRequest {
  if (s.remainingBits !== 512 || s.remainingRefs !== 1) refuse('highload v3 request: shape');
  const signature = s.loadBuffer(64);
  const m = s.loadRef().beginParse();
  if (m.remainingBits !== 149 || m.remainingRefs !== 1) refuse('highload v3 MsgInner: shape');
  return {
    signature,
    subwalletId: m.loadUint(32),
    messageToSend: loadMessageRelaxed(m.loadRef().beginParse()),
    sendMode: m.loadUint(8),
    shift: m.loadUint(13),
    bitNumber: m.loadUint(10),
    createdAt: m.loadUintBig(64),
    timeout: m.loadUint(22),
  };
}

// internal_transfer#ae42e5a4 query_id:uint64 actions:^OutList  (highload v3, to itself)
export interface HighloadV3InternalRequest {
  queryId: bigint;
  actions: OutAction[];
}

export function loadHighloadV3InternalRequest(s: Slice): HighloadV3InternalRequest {
  return { queryId: s.loadUintBig(64), actions: loadOutList(s.loadRef().beginParse()) };
}

// add_ext#02 addr:MsgAddressInt; delete_ext#03 addr:MsgAddressInt; set_signature_auth_allowed#04 allowed:(## 1)
export type W5ExtendedAction =
  | { kind: 'add_ext'; addr: Address }
  | { kind: 'delete_ext'; addr: Address }
  | { kind: 'set_signature_auth_allowed'; allowed: boolean };

/** The v5 inner request: out_actions:(Maybe ^OutList) has_other_actions:(## 1) then extended actions. */
export interface W5InnerRequest {
  /** c5 send actions in the order they run; null when the request has none. */
  actions: OutAction[] | null;
  /** Extended actions, null when has_other_actions is 0. */
  extended: W5ExtendedAction[] | null;
}

function loadExtended(s: Slice): W5ExtendedAction[] {
  const out: W5ExtendedAction[] = [];
  let cur = s;
  for (;;) {
    if (out.length >= 255) refuse('w5 extended actions: too many');
    const op = cur.loadUint(8);
    if (op === 2) out.push({ kind: 'add_ext', addr: loadMsgAddressInt(cur) });
    else if (op === 3) out.push({ kind: 'delete_ext', addr: loadMsgAddressInt(cur) });
    else if (op === 4) out.push({ kind: 'set_signature_auth_allowed', allowed: cur.loadBit() });
    else refuse(`w5 extended action: unknown op ${op}`);
    if (cur.remainingRefs === 0) return out;
    cur = cur.loadRef().beginParse();
  }
}

function loadW5Inner(s: Slice): W5InnerRequest {
  const outList = s.loadMaybeRef();
  const hasOther = s.loadBit();
  return { actions: outList ? loadOutList(outList.beginParse()) : null, extended: hasOther ? loadExtended(s) : null };
}

// external_signed#7369676e / internal_signed#73696e74 wallet_id:uint32 valid_until:uint32 seqno:uint32
//     inner:InnerRequest signature:bits512  (the signature is the last 512 bits of the body's root cell)
export interface W5SignedRequest extends W5InnerRequest {
  walletId: number;
  validUntil: number;
  seqno: number;
  signature: Buffer;
}

export function loadW5SignedRequest(s: Slice): W5SignedRequest {
  const walletId = s.loadUint(32);
  const validUntil = s.loadUint(32);
  const seqno = s.loadUint(32);
  const innerBits = s.remainingBits - 512;
  if (innerBits < 2) refuse('w5 request: too short');
  const b = beginCell().storeBits(s.loadBits(innerBits));
  while (s.remainingRefs > 0) b.storeRef(s.loadRef());
  const signature = s.loadBuffer(64);
  return { walletId, validUntil, seqno, ...loadW5Inner(b.endCell().beginParse()), signature };
}

// extension_action#6578746e query_id:uint64 inner:InnerRequest
export interface W5ExtensionRequest extends W5InnerRequest {
  queryId: bigint;
}

export function loadW5ExtensionRequest(s: Slice): W5ExtensionRequest {
  return { queryId: s.loadUintBig(64), ...loadW5Inner(s) };
}

// request_funds#706c7567 query_id:uint64 amount:Coins extra:(HashmapE 32 (VarUInteger 32))  (plugin -> v4)
export interface WalletPluginRequestFunds {
  queryId: bigint;
  amount: bigint;
  extra: Cell | null;
}

export function loadWalletPluginRequestFunds(s: Slice): WalletPluginRequestFunds {
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), extra: s.loadMaybeRef() };
}

export const WALLET_BODIES = [
  bodyParser('text_comment', WALLET_OP.textComment, loadTextComment),
  bodyParser('encrypted_text_comment', WALLET_OP.encryptedComment, loadEncryptedComment),
  bodyParser('w5_external_signed_request', WALLET_OP.externalSigned, loadW5SignedRequest),
  bodyParser('w5_internal_signed_request', WALLET_OP.internalSigned, loadW5SignedRequest),
  bodyParser('w5_extension_action_request', WALLET_OP.extension, loadW5ExtensionRequest),
  bodyParser('highload_v3_internal_request', WALLET_OP.highloadV3InternalTransfer, loadHighloadV3InternalRequest),
  bodyParser('payment_request', WALLET_OP.pluginRequestFunds, loadWalletPluginRequestFunds),
  bodyParser('payment_confirmed', WALLET_OP.pluginRequestFundsResponse, loadQueryOnly),
  bodyParser('wallet_plugin_destruct', WALLET_OP.pluginDestruct, loadQueryOnly),
  bodyParser('wallet_plugin_destruct_response', WALLET_OP.pluginDestructResponse, loadQueryOnly),
  bodyParser('wallet_plugin_installation_notification', WALLET_OP.pluginInstalled, loadQueryOnly),
] as const;

/** External bodies without an opcode, tried in this order (their shapes exclude each other). */
export const WALLET_EXTERNAL_BODIES = [
  { name: 'wallet_v3_signed_request', load: loadWalletV3SignedRequest },
  { name: 'wallet_v4_signed_request', load: loadWalletV4SignedRequest },
  { name: 'highload_v3_signed_request', load: loadHighloadV3SignedRequest },
] as const;
