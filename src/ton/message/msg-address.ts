// block.tlb:100-110
//   addr_none$00 = MsgAddressExt;
//   addr_extern$01 len:(## 9) external_address:(bits len) = MsgAddressExt;
//   anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth) = Anycast;
//   addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256  = MsgAddressInt;
//   addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9) workchain_id:int32 address:(bits addr_len) = MsgAddressInt;
//   _ _:MsgAddressInt = MsgAddress;
//   _ _:MsgAddressExt = MsgAddress;
//
// Written here rather than with @ton/core's Address because that one folds an anycast prefix into the
// hash and cannot read addr_var, so a message carrying either would not re-encode bit-exactly.
// The `len` / `depth` / `addr_len` fields are the lengths of the BitStrings that follow them.
import { Address, type BitString, type Builder, ExternalAddress, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadBits256, storeBits256 } from './util.ts';

export interface Anycast {
  /** `rewrite_pfx:(bits depth)`, 1..30 bits. */
  rewritePfx: BitString;
}

export type MsgAddressExt = { kind: 'addr_none' } | { kind: 'addr_extern'; externalAddress: BitString };

export type MsgAddressInt =
  | { kind: 'addr_std'; anycast: Anycast | null; workchainId: number; address: Buffer }
  | { kind: 'addr_var'; anycast: Anycast | null; workchainId: number; address: BitString };

export type MsgAddress = MsgAddressInt | MsgAddressExt;

function need(s: Slice, bits: number, type: string): void {
  if (s.remainingBits < bits) throw new CodecError(`${type}: expected ${bits} more bits, got only ${s.remainingBits}`);
}

function loadAnycast(s: Slice): Anycast | null {
  need(s, 1, 'Anycast');
  if (!s.loadBit()) return null;
  need(s, 5, 'Anycast');
  const depth = s.loadUint(5);
  if (depth < 1 || depth > 30) throw new CodecError(`Anycast: expected depth 1..30, got ${depth}`);
  need(s, depth, 'Anycast');
  return { rewritePfx: s.loadBits(depth) };
}

function storeAnycast(b: Builder, a: Anycast | null): void {
  if (a === null) {
    b.storeBit(false);
    return;
  }
  const depth = a.rewritePfx.length;
  if (depth < 1 || depth > 30) throw new CodecError(`Anycast: expected depth 1..30, got ${depth}`);
  b.storeBit(true).storeUint(depth, 5).storeBits(a.rewritePfx);
}

/** The rest of an internal address after its 2-bit tag (2 = addr_std, 3 = addr_var). */
function loadIntBody(s: Slice, tag: number): MsgAddressInt {
  const anycast = loadAnycast(s);
  if (tag === 2) {
    need(s, 8, 'MsgAddressInt');
    const workchainId = s.loadInt(8);
    return { kind: 'addr_std', anycast, workchainId, address: loadBits256(s, 'MsgAddressInt', 'address') };
  }
  need(s, 9 + 32, 'MsgAddressInt');
  const addrLen = s.loadUint(9);
  const workchainId = s.loadInt(32);
  need(s, addrLen, 'MsgAddressInt');
  return { kind: 'addr_var', anycast, workchainId, address: s.loadBits(addrLen) };
}

function loadExtBody(s: Slice, tag: number): MsgAddressExt {
  if (tag === 0) return { kind: 'addr_none' };
  need(s, 9, 'MsgAddressExt');
  const len = s.loadUint(9);
  need(s, len, 'MsgAddressExt');
  return { kind: 'addr_extern', externalAddress: s.loadBits(len) };
}

function loadTag(s: Slice, type: string): number {
  need(s, 2, type);
  return s.loadUint(2);
}

export function loadMsgAddressInt(s: Slice): MsgAddressInt {
  const tag = loadTag(s, 'MsgAddressInt');
  if (tag < 2) throw new CodecError(`MsgAddressInt: expected tag $10 or $11, got $${tag.toString(2).padStart(2, '0')}`);
  return loadIntBody(s, tag);
}

export function loadMsgAddressExt(s: Slice): MsgAddressExt {
  const tag = loadTag(s, 'MsgAddressExt');
  if (tag > 1) throw new CodecError(`MsgAddressExt: expected tag $00 or $01, got $${tag.toString(2)}`);
  return loadExtBody(s, tag);
}

export function loadMsgAddress(s: Slice): MsgAddress {
  const tag = loadTag(s, 'MsgAddress');
  return tag < 2 ? loadExtBody(s, tag) : loadIntBody(s, tag);
}

export function storeMsgAddress(a: MsgAddress): (b: Builder) => void {
  return (b) => {
    switch (a.kind) {
      case 'addr_none':
        b.storeUint(0, 2);
        return;
      case 'addr_extern':
        if (a.externalAddress.length > 511) {
          throw new CodecError(`MsgAddressExt: external_address of ${a.externalAddress.length} bits exceeds 511`);
        }
        b.storeUint(1, 2).storeUint(a.externalAddress.length, 9).storeBits(a.externalAddress);
        return;
      case 'addr_std':
        b.storeUint(2, 2);
        storeAnycast(b, a.anycast);
        b.storeInt(a.workchainId, 8);
        storeBits256(b, a.address, 'MsgAddressInt', 'address');
        return;
      case 'addr_var':
        if (a.address.length > 511) throw new CodecError(`MsgAddressInt: addr_var of ${a.address.length} bits`);
        b.storeUint(3, 2);
        storeAnycast(b, a.anycast);
        b.storeUint(a.address.length, 9).storeInt(a.workchainId, 32).storeBits(a.address);
        return;
    }
  };
}

/** Stores `a`, failing unless it is an internal address (MsgAddressInt positions). */
export function storeMsgAddressInt(a: MsgAddressInt): (b: Builder) => void {
  if (a.kind !== 'addr_std' && a.kind !== 'addr_var') {
    throw new CodecError(`MsgAddressInt: expected addr_std or addr_var, got ${(a as MsgAddress).kind}`);
  }
  return storeMsgAddress(a);
}

/** Stores `a`, failing unless it is an external address (MsgAddressExt positions). */
export function storeMsgAddressExt(a: MsgAddressExt): (b: Builder) => void {
  if (a.kind !== 'addr_none' && a.kind !== 'addr_extern') {
    throw new CodecError(`MsgAddressExt: expected addr_none or addr_extern, got ${(a as MsgAddress).kind}`);
  }
  return storeMsgAddress(a);
}

/**
 * The standard (workchain, 256-bit) address an internal address denotes, as the node's
 * extract_std_address computes it: the anycast prefix replaces the first `depth` bits, and an addr_var
 * qualifies only with exactly 256 bits and a workchain that fits int8. Null when there is none.
 */
export function msgAddressToAddress(a: MsgAddress): Address | null {
  if (a.kind === 'addr_none' || a.kind === 'addr_extern') return null;
  let hash: Buffer;
  if (a.kind === 'addr_std') {
    hash = Buffer.from(a.address);
  } else {
    if (a.address.length !== 256 || a.workchainId < -128 || a.workchainId > 127) return null;
    hash = Buffer.alloc(32);
    for (let i = 0; i < 256; i++) if (a.address.at(i)) hash[i >> 3] = (hash[i >> 3] ?? 0) | (0x80 >> (i % 8));
  }
  const pfx = a.anycast?.rewritePfx;
  if (pfx) {
    for (let i = 0; i < pfx.length; i++) {
      const mask = 0x80 >> (i % 8);
      const byte = hash[i >> 3]!;
      hash[i >> 3] = pfx.at(i) ? byte | mask : byte & ~mask;
    }
  }
  return new Address(a.workchainId, hash);
}

/** An addr_extern as @ton/core's ExternalAddress (value = the bits as an unsigned integer); else null. */
export function msgAddressToExternal(a: MsgAddress): ExternalAddress | null {
  if (a.kind !== 'addr_extern') return null;
  const bits = a.externalAddress;
  let v = 0n;
  for (let i = 0; i < bits.length; i++) v = (v << 1n) | (bits.at(i) ? 1n : 0n);
  return new ExternalAddress(v, bits.length);
}
