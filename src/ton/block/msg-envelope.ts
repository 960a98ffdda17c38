// block.tlb:178-192
//   interm_addr_regular$0 use_dest_bits:(#<= 96)
//     = IntermediateAddress;
//   interm_addr_simple$10 workchain_id:int8 addr_pfx:uint64
//     = IntermediateAddress;
//   interm_addr_ext$11 workchain_id:int32 addr_pfx:uint64
//     = IntermediateAddress;
//   msg_envelope#4 cur_addr:IntermediateAddress
//     next_addr:IntermediateAddress fwd_fee_remaining:Grams
//     msg:^(Message Any) = MsgEnvelope;
//   msg_metadata#0 depth:uint32 initiator_addr:MsgAddressInt initiator_lt:uint64 = MsgMetadata;
//   msg_envelope_v2#5 cur_addr:IntermediateAddress
//     next_addr:IntermediateAddress fwd_fee_remaining:Grams
//     msg:^(Message Any)
//     emitted_lt:(Maybe uint64)
//     metadata:(Maybe MsgMetadata) = MsgEnvelope;
import type { Address, Builder, Cell, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, expectTag } from './codec-util.ts';

export type IntermediateAddress =
  | { kind: 'interm_addr_regular'; useDestBits: number }
  | { kind: 'interm_addr_simple'; workchainId: number; addrPfx: bigint }
  | { kind: 'interm_addr_ext'; workchainId: number; addrPfx: bigint };

export type MsgMetadata = { depth: number; initiatorAddr: Address; initiatorLt: bigint };

type MsgEnvelopeCommon = {
  curAddr: IntermediateAddress;
  nextAddr: IntermediateAddress;
  fwdFeeRemaining: bigint;
  /** The `Message Any` cell, kept as it arrived: its hash is the message hash (the descr key). */
  msg: Cell;
};

export type MsgEnvelope =
  | ({ kind: 'msg_envelope' } & MsgEnvelopeCommon)
  | ({ kind: 'msg_envelope_v2'; emittedLt: bigint | null; metadata: MsgMetadata | null } & MsgEnvelopeCommon);

export function loadIntermediateAddress(s: Slice): IntermediateAddress {
  return decoding('IntermediateAddress', () => {
    if (!s.loadBit()) {
      const useDestBits = s.loadUint(7);
      if (useDestBits > 96) {
        throw new CodecError(`IntermediateAddress: expected use_dest_bits <= 96, got ${useDestBits}`);
      }
      return { kind: 'interm_addr_regular', useDestBits };
    }
    if (!s.loadBit()) return { kind: 'interm_addr_simple', workchainId: s.loadInt(8), addrPfx: s.loadUintBig(64) };
    return { kind: 'interm_addr_ext', workchainId: s.loadInt(32), addrPfx: s.loadUintBig(64) };
  });
}

export function storeIntermediateAddress(v: IntermediateAddress): (b: Builder) => void {
  return (b) => {
    switch (v.kind) {
      case 'interm_addr_regular':
        b.storeBit(false).storeUint(v.useDestBits, 7);
        break;
      case 'interm_addr_simple':
        b.storeUint(0b10, 2).storeInt(v.workchainId, 8).storeUint(v.addrPfx, 64);
        break;
      case 'interm_addr_ext':
        b.storeUint(0b11, 2).storeInt(v.workchainId, 32).storeUint(v.addrPfx, 64);
        break;
    }
  };
}

export function loadMsgMetadata(s: Slice): MsgMetadata {
  return decoding('MsgMetadata', () => {
    expectTag(s, 'MsgMetadata', 0, 4);
    return { depth: s.loadUint(32), initiatorAddr: s.loadAddress(), initiatorLt: s.loadUintBig(64) };
  });
}

export function storeMsgMetadata(v: MsgMetadata): (b: Builder) => void {
  return (b) => {
    b.storeUint(0, 4).storeUint(v.depth, 32).storeAddress(v.initiatorAddr).storeUint(v.initiatorLt, 64);
  };
}

export function loadMsgEnvelope(s: Slice): MsgEnvelope {
  return decoding('MsgEnvelope', () => {
    const tag = s.loadUint(4);
    if (tag !== 4 && tag !== 5) throw new CodecError(`MsgEnvelope: expected tag 0x4 or 0x5, got 0x${tag.toString(16)}`);
    const curAddr = loadIntermediateAddress(s);
    const nextAddr = loadIntermediateAddress(s);
    const fwdFeeRemaining = s.loadCoins();
    const msg = s.loadRef();
    if (tag === 4) return { kind: 'msg_envelope', curAddr, nextAddr, fwdFeeRemaining, msg };
    const emittedLt = s.loadBit() ? s.loadUintBig(64) : null;
    const metadata = s.loadBit() ? loadMsgMetadata(s) : null;
    return { kind: 'msg_envelope_v2', curAddr, nextAddr, fwdFeeRemaining, msg, emittedLt, metadata };
  });
}

export function storeMsgEnvelope(v: MsgEnvelope): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.kind === 'msg_envelope_v2' ? 5 : 4, 4)
      .store(storeIntermediateAddress(v.curAddr))
      .store(storeIntermediateAddress(v.nextAddr))
      .storeCoins(v.fwdFeeRemaining)
      .storeRef(v.msg);
    if (v.kind === 'msg_envelope_v2') {
      if (v.emittedLt === null) b.storeBit(false);
      else b.storeBit(true).storeUint(v.emittedLt, 64);
      if (v.metadata === null) b.storeBit(false);
      else b.storeBit(true).store(storeMsgMetadata(v.metadata));
    }
  };
}
