// Everything toncenter v3 (`Message`, the `messages` table, v3-api.md §4.3/§5.2) and v2 (tonlib's
// `raw.message`, v2-api.md) report about a message, computed from the decoded cell. Values stay typed
// (bigint, Buffer, @ton/core Address); the API layer formats them.
import { type Address, beginCell, type Cell, type Dictionary, type ExternalAddress } from '@ton/core';
import { bodyOpcode, encryptedComment, type MsgDataV2, msgDataV2, textComment } from './comment.ts';
import { type Message, messageHash } from './message.ts';
import { msgAddressToAddress, msgAddressToExternal, storeMsgAddressInt } from './msg-address.ts';
import { storeStateInit } from './state-init.ts';

export interface MessageViewOptions {
  /**
   * Global version (config param 8) the message was created under. From 12 on, the field that used to
   * be `ihr_fee` is `extra_flags`, and toncenter reports ihr_fee 0 and extra_flags = the value; below
   * 12 it reports ihr_fee = the value and extra_flags null. Default: 12 (the current chain).
   */
  globalVersion?: number;
}

export interface MessageView {
  /** Hash of the message cell. */
  hash: Buffer;
  /** TEP-467 normalized hash; external-in messages only (v3 `hash_norm` / `msg_hash_norm`). */
  hashNorm: Buffer | null;
  /** CommonMsgInfo constructor: int_msg_info, ext_in_msg_info or ext_out_msg_info. */
  kind: Message['info']['kind'];
  /** Sender; null for external-in (v3 reports null even when an addr_extern is present). */
  source: Address | null;
  /** Receiver; null for external-out. */
  destination: Address | null;
  /** The addr_extern of an external message's outer side, when it has one. */
  sourceExternal: ExternalAddress | null;
  destinationExternal: ExternalAddress | null;
  /** Internal messages only (null otherwise), like every field down to `createdAt` unless noted. */
  value: bigint | null;
  valueExtraCurrencies: Map<number, bigint> | null;
  fwdFee: bigint | null;
  ihrFee: bigint | null;
  extraFlags: bigint | null;
  /** Internal and external-out messages. */
  createdLt: bigint | null;
  createdAt: number | null;
  ihrDisabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /** External-in only. */
  importFee: bigint | null;
  /** First 32 body bits as a signed int32 (v3 stores it so; print with formatOpcode); null if < 32 bits. */
  opcode: number | null;
  /** The body as its own cell (v3 `message_content.body`; inline bodies become a cell). */
  body: Cell;
  bodyHash: Buffer;
  /** The StateInit as its own cell (v3 `init_state.body`), null without init. */
  initState: Cell | null;
  initStateHash: Buffer | null;
}

/** What a message's body says as text (messageTexts): the indexer's rows need none of it, the CLI and v2 do. */
export interface MessageTexts {
  /** op 0 text comment as UTF-8, null otherwise. */
  comment: string | null;
  /** op 0x2167da4b encrypted comment ciphertext, null otherwise. */
  encryptedComment: Buffer | null;
  /** tonlib's msg_data (v2). */
  msgData: MsgDataV2;
}

/** The body's comment, encrypted comment and tonlib msg_data. */
export function messageTexts(v: Pick<MessageView, 'body' | 'initState'>): MessageTexts {
  return {
    comment: textComment(v.body),
    encryptedComment: encryptedComment(v.body),
    msgData: msgDataV2(v.body, v.initState),
  };
}

/**
 * TEP-467 normalized hash of an external-in message, as the node (ton#1557) and ton-indexer compute
 * it: src := addr_none, import_fee := 0, init := nothing, body always in a ref; dest kept as it is.
 * Null for other messages.
 */
export function normalizedMessageHash(m: Message): Buffer | null {
  if (m.info.kind !== 'ext_in_msg_info') return null;
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0b00, 2) // src: addr_none$00
    .store(storeMsgAddressInt(m.info.dest))
    .storeUint(0, 4) // import_fee: Grams 0 (VarUInteger 16, len 0)
    .storeBit(false) // init: nothing$0
    .storeBit(true) // body: right$1 ^X
    .storeRef(m.body)
    .endCell()
    .hash();
}

/** ExtraCurrencyCollection as a plain Map (currency id -> amount). */
export function extraCurrencyMap(other: Dictionary<number, bigint> | null | undefined): Map<number, bigint> {
  const out = new Map<number, bigint>();
  if (!other) return out;
  for (const k of other.keys()) out.set(k, other.get(k)!);
  return out;
}

export function messageView(m: Message, opts: MessageViewOptions = {}): MessageView {
  const info = m.info;
  const initState = m.initCell ?? (m.init ? beginCell().store(storeStateInit(m.init)).endCell() : null);
  const legacyIhr = (opts.globalVersion ?? 12) < 12;
  const view: MessageView = {
    hash: messageHash(m),
    hashNorm: normalizedMessageHash(m),
    kind: info.kind,
    source: null,
    destination: null,
    sourceExternal: null,
    destinationExternal: null,
    value: null,
    valueExtraCurrencies: null,
    fwdFee: null,
    ihrFee: null,
    extraFlags: null,
    createdLt: null,
    createdAt: null,
    ihrDisabled: null,
    bounce: null,
    bounced: null,
    importFee: null,
    opcode: bodyOpcode(m.body),
    body: m.body,
    bodyHash: m.body.hash(),
    initState,
    initStateHash: initState ? initState.hash() : null,
  };
  switch (info.kind) {
    case 'int_msg_info':
      view.source = msgAddressToAddress(info.src);
      view.destination = msgAddressToAddress(info.dest);
      view.value = info.value.coins;
      view.valueExtraCurrencies = extraCurrencyMap(info.value.other);
      view.fwdFee = info.fwdFee;
      view.ihrFee = legacyIhr ? info.extraFlags : 0n;
      view.extraFlags = legacyIhr ? null : info.extraFlags;
      view.createdLt = info.createdLt;
      view.createdAt = info.createdAt;
      view.ihrDisabled = info.ihrDisabled;
      view.bounce = info.bounce;
      view.bounced = info.bounced;
      break;
    case 'ext_in_msg_info':
      view.sourceExternal = msgAddressToExternal(info.src);
      view.destination = msgAddressToAddress(info.dest);
      view.importFee = info.importFee;
      break;
    case 'ext_out_msg_info':
      view.source = msgAddressToAddress(info.src);
      view.destinationExternal = msgAddressToExternal(info.dest);
      view.createdLt = info.createdLt;
      view.createdAt = info.createdAt;
      break;
  }
  return view;
}
