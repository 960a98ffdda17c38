// block.tlb:126-140
//   int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool
//     src:MsgAddressInt dest:MsgAddressInt
//     value:CurrencyCollection extra_flags:(VarUInteger 16) fwd_fee:Grams
//     created_lt:uint64 created_at:uint32 = CommonMsgInfo;
//   ext_in_msg_info$10 src:MsgAddressExt dest:MsgAddressInt
//     import_fee:Grams = CommonMsgInfo;
//   ext_out_msg_info$11 src:MsgAddressInt dest:MsgAddressExt
//     created_lt:uint64 created_at:uint32 = CommonMsgInfo;
//
//   int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool
//     src:MsgAddress dest:MsgAddressInt
//     value:CurrencyCollection extra_flags:(VarUInteger 16) fwd_fee:Grams
//     created_lt:uint64 created_at:uint32 = CommonMsgInfoRelaxed;
//   ext_out_msg_info$11 src:MsgAddress dest:MsgAddressExt
//     created_lt:uint64 created_at:uint32 = CommonMsgInfoRelaxed;
//
// `extra_flags` is the field that was `ihr_fee:Grams` before global version 12 (same bits); which one a
// message means depends on the config it was created under, so the view decides (message-view.ts).
import {
  type Builder,
  type CurrencyCollection,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import {
  loadMsgAddress,
  loadMsgAddressExt,
  loadMsgAddressInt,
  type MsgAddress,
  type MsgAddressExt,
  type MsgAddressInt,
  storeMsgAddress,
  storeMsgAddressExt,
  storeMsgAddressInt,
} from './msg-address.ts';
import { decoding, loadGrams, loadVarUInteger, storeGrams, storeVarUInteger } from './util.ts';

interface IntMsgInfoOf<Src> {
  kind: 'int_msg_info';
  ihrDisabled: boolean;
  bounce: boolean;
  bounced: boolean;
  src: Src;
  dest: MsgAddressInt;
  value: CurrencyCollection;
  extraFlags: bigint;
  fwdFee: bigint;
  createdLt: bigint;
  createdAt: number;
}

interface ExtOutMsgInfoOf<Src> {
  kind: 'ext_out_msg_info';
  src: Src;
  dest: MsgAddressExt;
  createdLt: bigint;
  createdAt: number;
}

export type IntMsgInfo = IntMsgInfoOf<MsgAddressInt>;
export interface ExtInMsgInfo {
  kind: 'ext_in_msg_info';
  src: MsgAddressExt;
  dest: MsgAddressInt;
  importFee: bigint;
}
export type ExtOutMsgInfo = ExtOutMsgInfoOf<MsgAddressInt>;

export type CommonMsgInfo = IntMsgInfo | ExtInMsgInfo | ExtOutMsgInfo;
export type CommonMsgInfoRelaxed = IntMsgInfoOf<MsgAddress> | ExtOutMsgInfoOf<MsgAddress>;

const T = 'CommonMsgInfo';
const TR = 'CommonMsgInfoRelaxed';

function loadIntRest<Src>(s: Slice, type: string, loadSrc: (s: Slice) => Src): IntMsgInfoOf<Src> {
  const ihrDisabled = s.loadBit();
  const bounce = s.loadBit();
  const bounced = s.loadBit();
  const src = loadSrc(s);
  const dest = loadMsgAddressInt(s);
  const value = decoding('CurrencyCollection', () => loadCurrencyCollection(s));
  const extraFlags = loadVarUInteger(s, 16, type, 'extra_flags');
  const fwdFee = loadGrams(s, type, 'fwd_fee');
  const createdLt = s.loadUintBig(64);
  const createdAt = s.loadUint(32);
  return {
    kind: 'int_msg_info',
    ihrDisabled,
    bounce,
    bounced,
    src,
    dest,
    value,
    extraFlags,
    fwdFee,
    createdLt,
    createdAt,
  };
}

function loadExtOutRest<Src>(s: Slice, loadSrc: (s: Slice) => Src): ExtOutMsgInfoOf<Src> {
  const src = loadSrc(s);
  const dest = loadMsgAddressExt(s);
  const createdLt = s.loadUintBig(64);
  const createdAt = s.loadUint(32);
  return { kind: 'ext_out_msg_info', src, dest, createdLt, createdAt };
}

export function loadCommonMsgInfo(s: Slice): CommonMsgInfo {
  return decoding(T, () => {
    if (!s.loadBit()) return loadIntRest(s, T, loadMsgAddressInt);
    if (!s.loadBit()) {
      const src = loadMsgAddressExt(s);
      const dest = loadMsgAddressInt(s);
      return { kind: 'ext_in_msg_info', src, dest, importFee: loadGrams(s, T, 'import_fee') };
    }
    return loadExtOutRest(s, loadMsgAddressInt);
  });
}

export function loadCommonMsgInfoRelaxed(s: Slice): CommonMsgInfoRelaxed {
  return decoding(TR, () => {
    if (!s.loadBit()) return loadIntRest(s, TR, loadMsgAddress);
    if (!s.loadBit()) throw new CodecError(`${TR}: expected tag $0 or $11, got $10 (ext_in_msg_info is not relaxed)`);
    return loadExtOutRest(s, loadMsgAddress);
  });
}

function storeIntRest<Src>(b: Builder, v: IntMsgInfoOf<Src>, type: string, storeSrc: (a: Src) => (b: Builder) => void) {
  b.storeBit(false).storeBit(v.ihrDisabled).storeBit(v.bounce).storeBit(v.bounced);
  b.store(storeSrc(v.src)).store(storeMsgAddressInt(v.dest));
  b.store(storeCurrencyCollection(v.value));
  storeVarUInteger(b, v.extraFlags, 16, type, 'extra_flags');
  storeGrams(b, v.fwdFee, type, 'fwd_fee');
  b.storeUint(v.createdLt, 64).storeUint(v.createdAt, 32);
}

function storeExtOutRest<Src>(b: Builder, v: ExtOutMsgInfoOf<Src>, storeSrc: (a: Src) => (b: Builder) => void) {
  b.storeUint(3, 2).store(storeSrc(v.src)).store(storeMsgAddressExt(v.dest));
  b.storeUint(v.createdLt, 64).storeUint(v.createdAt, 32);
}

export function storeCommonMsgInfo(v: CommonMsgInfo): (b: Builder) => void {
  return (b) => {
    switch (v.kind) {
      case 'int_msg_info':
        storeIntRest(b, v, T, storeMsgAddressInt);
        return;
      case 'ext_in_msg_info':
        b.storeUint(2, 2).store(storeMsgAddressExt(v.src)).store(storeMsgAddressInt(v.dest));
        storeGrams(b, v.importFee, T, 'import_fee');
        return;
      case 'ext_out_msg_info':
        storeExtOutRest(b, v, storeMsgAddressInt);
        return;
    }
  };
}

export function storeCommonMsgInfoRelaxed(v: CommonMsgInfoRelaxed): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'int_msg_info') storeIntRest(b, v, TR, storeMsgAddress);
    else storeExtOutRest(b, v, storeMsgAddress);
  };
}
