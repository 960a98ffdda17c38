// block.tlb:194-215
//   msg_import_ext$000 msg:^(Message Any) transaction:^Transaction
//                 = InMsg;
//   msg_import_ihr$010 msg:^(Message Any) transaction:^Transaction
//       ihr_fee:Grams proof_created:^Cell = InMsg;
//   msg_import_imm$011 in_msg:^MsgEnvelope
//       transaction:^Transaction fwd_fee:Grams = InMsg;
//   msg_import_fin$100 in_msg:^MsgEnvelope
//       transaction:^Transaction fwd_fee:Grams = InMsg;
//   msg_import_tr$101  in_msg:^MsgEnvelope out_msg:^MsgEnvelope
//       transit_fee:Grams = InMsg;
//   msg_discard_fin$110 in_msg:^MsgEnvelope transaction_id:uint64
//       fwd_fee:Grams = InMsg;
//   msg_discard_tr$111 in_msg:^MsgEnvelope transaction_id:uint64
//       fwd_fee:Grams proof_delivered:^Cell = InMsg;
//   msg_import_deferred_fin$00100 in_msg:^MsgEnvelope
//       transaction:^Transaction fwd_fee:Grams = InMsg;
//   msg_import_deferred_tr$00101 in_msg:^MsgEnvelope out_msg:^MsgEnvelope = InMsg;
//   //
//   import_fees$_ fees_collected:Grams
//     value_imported:CurrencyCollection = ImportFees;
//
//   _ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr;
import { type Builder, beginCell, type Cell, type CurrencyCollection, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type AugDict, type AugDictCodec, loadHashmapAugE, storeHashmapAugE } from '../dict/index.ts';
import { decoding, loadWhole } from './codec-util.ts';
import { addCurrencies, loadCurrencies, storeCurrencies, zeroCurrencies } from './currency.ts';
import { loadMsgEnvelope, type MsgEnvelope, storeMsgEnvelope } from './msg-envelope.ts';

// `msg` and `transaction` are opaque leaves here (their own codecs live in src/ton/message): the cells are
// kept as they arrived, so their hashes are the message / transaction hashes and a re-encode is exact.
export type InMsg =
  | { kind: 'msg_import_ext'; msg: Cell; transaction: Cell }
  | { kind: 'msg_import_ihr'; msg: Cell; transaction: Cell; ihrFee: bigint; proofCreated: Cell }
  | { kind: 'msg_import_imm'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { kind: 'msg_import_fin'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { kind: 'msg_import_tr'; inMsg: MsgEnvelope; outMsg: MsgEnvelope; transitFee: bigint }
  | { kind: 'msg_discard_fin'; inMsg: MsgEnvelope; transactionId: bigint; fwdFee: bigint }
  | { kind: 'msg_discard_tr'; inMsg: MsgEnvelope; transactionId: bigint; fwdFee: bigint; proofDelivered: Cell }
  | { kind: 'msg_import_deferred_fin'; inMsg: MsgEnvelope; transaction: Cell; fwdFee: bigint }
  | { kind: 'msg_import_deferred_tr'; inMsg: MsgEnvelope; outMsg: MsgEnvelope };

export type ImportFees = { feesCollected: bigint; valueImported: CurrencyCollection };

/** Keyed by the message hash (256 bits); the extra of every node is the ImportFees of its subtree. */
export type InMsgDescr = AugDict<InMsg, ImportFees>;

function envelope(s: Slice): MsgEnvelope {
  return loadWhole('MsgEnvelope', s.loadRef(), loadMsgEnvelope);
}

function envelopeRef(v: MsgEnvelope): Cell {
  return beginCell().store(storeMsgEnvelope(v)).endCell();
}

export function loadInMsg(s: Slice): InMsg {
  return decoding('InMsg', () => {
    const tag = s.loadUint(3);
    switch (tag) {
      case 0b000:
        return { kind: 'msg_import_ext', msg: s.loadRef(), transaction: s.loadRef() };
      case 0b010:
        return {
          kind: 'msg_import_ihr',
          msg: s.loadRef(),
          transaction: s.loadRef(),
          ihrFee: s.loadCoins(),
          proofCreated: s.loadRef(),
        };
      case 0b011:
      case 0b100:
        return {
          kind: tag === 0b011 ? 'msg_import_imm' : 'msg_import_fin',
          inMsg: envelope(s),
          transaction: s.loadRef(),
          fwdFee: s.loadCoins(),
        };
      case 0b101:
        return { kind: 'msg_import_tr', inMsg: envelope(s), outMsg: envelope(s), transitFee: s.loadCoins() };
      case 0b110:
        return { kind: 'msg_discard_fin', inMsg: envelope(s), transactionId: s.loadUintBig(64), fwdFee: s.loadCoins() };
      case 0b111:
        return {
          kind: 'msg_discard_tr',
          inMsg: envelope(s),
          transactionId: s.loadUintBig(64),
          fwdFee: s.loadCoins(),
          proofDelivered: s.loadRef(),
        };
      default: {
        // $001 starts the two five-bit constructors $00100 / $00101.
        const sub = s.loadUint(2);
        if (sub === 0b00) {
          return {
            kind: 'msg_import_deferred_fin',
            inMsg: envelope(s),
            transaction: s.loadRef(),
            fwdFee: s.loadCoins(),
          };
        }
        if (sub === 0b01) return { kind: 'msg_import_deferred_tr', inMsg: envelope(s), outMsg: envelope(s) };
        throw new CodecError(
          `InMsg: expected tag $000, $010, $011, $100, $101, $110, $111, $00100 or $00101, got $001${sub.toString(2).padStart(2, '0')}`,
        );
      }
    }
  });
}

export function storeInMsg(v: InMsg): (b: Builder) => void {
  return (b) => {
    switch (v.kind) {
      case 'msg_import_ext':
        b.storeUint(0b000, 3).storeRef(v.msg).storeRef(v.transaction);
        break;
      case 'msg_import_ihr':
        b.storeUint(0b010, 3).storeRef(v.msg).storeRef(v.transaction).storeCoins(v.ihrFee).storeRef(v.proofCreated);
        break;
      case 'msg_import_imm':
      case 'msg_import_fin':
        b.storeUint(v.kind === 'msg_import_imm' ? 0b011 : 0b100, 3)
          .storeRef(envelopeRef(v.inMsg))
          .storeRef(v.transaction)
          .storeCoins(v.fwdFee);
        break;
      case 'msg_import_tr':
        b.storeUint(0b101, 3).storeRef(envelopeRef(v.inMsg)).storeRef(envelopeRef(v.outMsg)).storeCoins(v.transitFee);
        break;
      case 'msg_discard_fin':
        b.storeUint(0b110, 3).storeRef(envelopeRef(v.inMsg)).storeUint(v.transactionId, 64).storeCoins(v.fwdFee);
        break;
      case 'msg_discard_tr':
        b.storeUint(0b111, 3)
          .storeRef(envelopeRef(v.inMsg))
          .storeUint(v.transactionId, 64)
          .storeCoins(v.fwdFee)
          .storeRef(v.proofDelivered);
        break;
      case 'msg_import_deferred_fin':
        b.storeUint(0b00100, 5).storeRef(envelopeRef(v.inMsg)).storeRef(v.transaction).storeCoins(v.fwdFee);
        break;
      case 'msg_import_deferred_tr':
        b.storeUint(0b00101, 5).storeRef(envelopeRef(v.inMsg)).storeRef(envelopeRef(v.outMsg));
        break;
    }
  };
}

export function loadImportFees(s: Slice): ImportFees {
  return decoding('ImportFees', () => ({ feesCollected: s.loadCoins(), valueImported: loadCurrencies(s) }));
}

export function storeImportFees(v: ImportFees): (b: Builder) => void {
  return (b) => {
    b.storeCoins(v.feesCollected).store(storeCurrencies(v.valueImported));
  };
}

/** The node's Aug_InMsgDescr: a fork's ImportFees is the field-wise sum of its children's (block-parse.cpp). */
export const inMsgDescrCodec: AugDictCodec<InMsg, ImportFees> = {
  loadValue: loadInMsg,
  storeValue: storeInMsg,
  loadExtra: loadImportFees,
  storeExtra: storeImportFees,
  combine: (l, r) => ({
    feesCollected: l.feesCollected + r.feesCollected,
    valueImported: addCurrencies(l.valueImported, r.valueImported),
  }),
  empty: () => ({ feesCollected: 0n, valueImported: zeroCurrencies() }),
};

export function loadInMsgDescr(s: Slice): InMsgDescr {
  return decoding('InMsgDescr', () => loadHashmapAugE(s, 256, inMsgDescrCodec));
}

export function storeInMsgDescr(v: InMsgDescr): (b: Builder) => void {
  return storeHashmapAugE(v.entries, 256, inMsgDescrCodec);
}
