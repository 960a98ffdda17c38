// block.tlb:217-241
//   msg_export_ext$000 msg:^(Message Any)
//       transaction:^Transaction = OutMsg;
//   msg_export_imm$010 out_msg:^MsgEnvelope
//       transaction:^Transaction reimport:^InMsg = OutMsg;
//   msg_export_new$001 out_msg:^MsgEnvelope
//       transaction:^Transaction = OutMsg;
//   msg_export_tr$011  out_msg:^MsgEnvelope
//       imported:^InMsg = OutMsg;
//   msg_export_deq$1100 out_msg:^MsgEnvelope
//       import_block_lt:uint63 = OutMsg;
//   msg_export_deq_short$1101 msg_env_hash:bits256
//       next_workchain:int32 next_addr_pfx:uint64
//       import_block_lt:uint64 = OutMsg;
//   msg_export_tr_req$111 out_msg:^MsgEnvelope
//       imported:^InMsg = OutMsg;
//   msg_export_deq_imm$100 out_msg:^MsgEnvelope
//       reimport:^InMsg = OutMsg;
//   msg_export_new_defer$10100 out_msg:^MsgEnvelope
//       transaction:^Transaction = OutMsg;
//   msg_export_deferred_tr$10101  out_msg:^MsgEnvelope
//       imported:^InMsg = OutMsg;
//
//   _ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg;
//
//   _ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr;
import { type Builder, beginCell, type Cell, type CurrencyCollection, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type AugDict, type AugDictCodec, loadHashmapAugE, storeHashmapAugE } from '../dict/index.ts';
import { decoding, expectHash, loadWhole } from './codec-util.ts';
import { addCurrencies, loadCurrencies, storeCurrencies, zeroCurrencies } from './currency.ts';
import { type InMsg, loadInMsg, storeInMsg } from './in-msg.ts';
import { loadMsgEnvelope, type MsgEnvelope, storeMsgEnvelope } from './msg-envelope.ts';

export type OutMsg =
  | { kind: 'msg_export_ext'; msg: Cell; transaction: Cell }
  | { kind: 'msg_export_imm'; outMsg: MsgEnvelope; transaction: Cell; reimport: InMsg }
  | { kind: 'msg_export_new'; outMsg: MsgEnvelope; transaction: Cell }
  | { kind: 'msg_export_tr'; outMsg: MsgEnvelope; imported: InMsg }
  | { kind: 'msg_export_deq'; outMsg: MsgEnvelope; importBlockLt: bigint }
  | {
      kind: 'msg_export_deq_short';
      msgEnvHash: Buffer;
      nextWorkchain: number;
      nextAddrPfx: bigint;
      importBlockLt: bigint;
    }
  | { kind: 'msg_export_tr_req'; outMsg: MsgEnvelope; imported: InMsg }
  | { kind: 'msg_export_deq_imm'; outMsg: MsgEnvelope; reimport: InMsg }
  | { kind: 'msg_export_new_defer'; outMsg: MsgEnvelope; transaction: Cell }
  | { kind: 'msg_export_deferred_tr'; outMsg: MsgEnvelope; imported: InMsg };

/** Keyed by the message hash (256 bits); the extra of every node is the value exported by its subtree. */
export type OutMsgDescr = AugDict<OutMsg, CurrencyCollection>;

const envelope = (s: Slice): MsgEnvelope => loadWhole('MsgEnvelope', s.loadRef(), loadMsgEnvelope);
const envelopeRef = (v: MsgEnvelope): Cell => beginCell().store(storeMsgEnvelope(v)).endCell();
const inMsg = (s: Slice): InMsg => loadWhole('InMsg', s.loadRef(), loadInMsg);
const inMsgRef = (v: InMsg): Cell => beginCell().store(storeInMsg(v)).endCell();

export function loadOutMsg(s: Slice): OutMsg {
  return decoding('OutMsg', () => {
    const tag = s.loadUint(3);
    switch (tag) {
      case 0b000:
        return { kind: 'msg_export_ext', msg: s.loadRef(), transaction: s.loadRef() };
      case 0b001:
        return { kind: 'msg_export_new', outMsg: envelope(s), transaction: s.loadRef() };
      case 0b010:
        return { kind: 'msg_export_imm', outMsg: envelope(s), transaction: s.loadRef(), reimport: inMsg(s) };
      case 0b011:
        return { kind: 'msg_export_tr', outMsg: envelope(s), imported: inMsg(s) };
      case 0b100:
        return { kind: 'msg_export_deq_imm', outMsg: envelope(s), reimport: inMsg(s) };
      case 0b111:
        return { kind: 'msg_export_tr_req', outMsg: envelope(s), imported: inMsg(s) };
      case 0b110:
        if (!s.loadBit()) return { kind: 'msg_export_deq', outMsg: envelope(s), importBlockLt: s.loadUintBig(63) };
        return {
          kind: 'msg_export_deq_short',
          msgEnvHash: s.loadBuffer(32),
          nextWorkchain: s.loadInt(32),
          nextAddrPfx: s.loadUintBig(64),
          importBlockLt: s.loadUintBig(64),
        };
      default: {
        // $101 starts the two five-bit constructors $10100 / $10101.
        const sub = s.loadUint(2);
        if (sub === 0b00) return { kind: 'msg_export_new_defer', outMsg: envelope(s), transaction: s.loadRef() };
        if (sub === 0b01) return { kind: 'msg_export_deferred_tr', outMsg: envelope(s), imported: inMsg(s) };
        throw new CodecError(
          `OutMsg: expected tag $000, $001, $010, $011, $100, $111, $1100, $1101, $10100 or $10101, got $101${sub.toString(2).padStart(2, '0')}`,
        );
      }
    }
  });
}

export function storeOutMsg(v: OutMsg): (b: Builder) => void {
  if (v.kind === 'msg_export_deq_short') expectHash('OutMsg', 'msg_env_hash', v.msgEnvHash);
  return (b) => {
    switch (v.kind) {
      case 'msg_export_ext':
        b.storeUint(0b000, 3).storeRef(v.msg).storeRef(v.transaction);
        break;
      case 'msg_export_new':
        b.storeUint(0b001, 3).storeRef(envelopeRef(v.outMsg)).storeRef(v.transaction);
        break;
      case 'msg_export_imm':
        b.storeUint(0b010, 3).storeRef(envelopeRef(v.outMsg)).storeRef(v.transaction).storeRef(inMsgRef(v.reimport));
        break;
      case 'msg_export_tr':
        b.storeUint(0b011, 3).storeRef(envelopeRef(v.outMsg)).storeRef(inMsgRef(v.imported));
        break;
      case 'msg_export_deq_imm':
        b.storeUint(0b100, 3).storeRef(envelopeRef(v.outMsg)).storeRef(inMsgRef(v.reimport));
        break;
      case 'msg_export_tr_req':
        b.storeUint(0b111, 3).storeRef(envelopeRef(v.outMsg)).storeRef(inMsgRef(v.imported));
        break;
      case 'msg_export_deq':
        b.storeUint(0b1100, 4).storeRef(envelopeRef(v.outMsg)).storeUint(v.importBlockLt, 63);
        break;
      case 'msg_export_deq_short':
        b.storeUint(0b1101, 4)
          .storeBuffer(v.msgEnvHash)
          .storeInt(v.nextWorkchain, 32)
          .storeUint(v.nextAddrPfx, 64)
          .storeUint(v.importBlockLt, 64);
        break;
      case 'msg_export_new_defer':
        b.storeUint(0b10100, 5).storeRef(envelopeRef(v.outMsg)).storeRef(v.transaction);
        break;
      case 'msg_export_deferred_tr':
        b.storeUint(0b10101, 5).storeRef(envelopeRef(v.outMsg)).storeRef(inMsgRef(v.imported));
        break;
    }
  };
}

/** The node's Aug_OutMsgDescr: a fork's exported value is the sum of its children's (block-parse.cpp). */
export const outMsgDescrCodec: AugDictCodec<OutMsg, CurrencyCollection> = {
  loadValue: loadOutMsg,
  storeValue: storeOutMsg,
  loadExtra: loadCurrencies,
  storeExtra: storeCurrencies,
  combine: addCurrencies,
  empty: zeroCurrencies,
};

export function loadOutMsgDescr(s: Slice): OutMsgDescr {
  return decoding('OutMsgDescr', () => loadHashmapAugE(s, 256, outMsgDescrCodec));
}

export function storeOutMsgDescr(v: OutMsgDescr): (b: Builder) => void {
  return storeHashmapAugE(v.entries, 256, outMsgDescrCodec);
}
