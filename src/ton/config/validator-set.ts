// block.tlb:586, 614-621, 803-808
// ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;  // 288 bits
//
// validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr;
// validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256 = ValidatorDescr;
// validators#11 utime_since:uint32 utime_until:uint32
//   total:(## 16) main:(## 16) { main <= total } { main >= 1 }
//   list:(Hashmap 16 ValidatorDescr) = ValidatorSet;
// validators_ext#12 utime_since:uint32 utime_until:uint32
//   total:(## 16) main:(## 16) { main <= total } { main >= 1 }
//   total_weight:uint64 list:(HashmapE 16 ValidatorDescr) = ValidatorSet;
//
// _ prev_validators:ValidatorSet = ConfigParam 32;
// _ prev_temp_validators:ValidatorSet = ConfigParam 33;
// _ cur_validators:ValidatorSet = ConfigParam 34;
// _ cur_temp_validators:ValidatorSet = ConfigParam 35;
// _ next_validators:ValidatorSet = ConfigParam 36;
// _ next_temp_validators:ValidatorSet = ConfigParam 37;
import { createHash } from 'node:crypto';
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { check, dictToMap, loadTag, mapToDict, storeBits256, strictValue } from './codec-helpers.ts';

/** SigPubKey has one constructor, so it is held as the bare 32-byte ed25519 key. */
export function loadSigPubKey(slice: Slice): Buffer {
  loadTag(slice, 32, [0x8e81278a], 'SigPubKey');
  return slice.loadBuffer(32);
}

export function storeSigPubKey(pubkey: Buffer): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x8e81278a, 32);
    storeBits256(b, pubkey, 'SigPubKey', 'pubkey');
  };
}

export type ValidatorDescr =
  | { kind: 'validator'; publicKey: Buffer; weight: bigint }
  | { kind: 'validator_addr'; publicKey: Buffer; weight: bigint; adnlAddr: Buffer };

/**
 * The node id short of a validator key: sha256 of TL `pub.ed25519 key:int256` (0x4813b4c6, little-endian). It is
 * the key's ADNL address (`validator_addr`'s adnl_addr) and names the signer in block signatures (node_id_short).
 */
export function nodeIdShort(publicKey: Buffer): Buffer {
  const tl = Buffer.alloc(36);
  tl.writeUInt32LE(0x4813b4c6, 0);
  publicKey.copy(tl, 4);
  return createHash('sha256').update(tl).digest();
}

export function loadValidatorDescr(slice: Slice): ValidatorDescr {
  const tag = loadTag(slice, 8, [0x53, 0x73], 'ValidatorDescr');
  const publicKey = loadSigPubKey(slice);
  const weight = slice.loadUintBig(64);
  if (tag === 0x53) return { kind: 'validator', publicKey, weight };
  return { kind: 'validator_addr', publicKey, weight, adnlAddr: slice.loadBuffer(32) };
}

export function storeValidatorDescr(value: ValidatorDescr): (b: Builder) => void {
  return (b) => {
    b.storeUint(value.kind === 'validator' ? 0x53 : 0x73, 8);
    b.store(storeSigPubKey(value.publicKey));
    b.storeUint(value.weight, 64);
    if (value.kind === 'validator_addr') storeBits256(b, value.adnlAddr, 'ValidatorDescr', 'adnl_addr');
  };
}

const validatorDescrValue = strictValue('ValidatorDescr', loadValidatorDescr, storeValidatorDescr);

type ValidatorSetCommon = {
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  /** uint16 index -> validator; main validators come first. */
  list: Map<number, ValidatorDescr>;
};

export type ValidatorSet =
  | ({ kind: 'validators' } & ValidatorSetCommon)
  | ({ kind: 'validators_ext'; totalWeight: bigint } & ValidatorSetCommon);

export function loadValidatorSet(slice: Slice): ValidatorSet {
  const T = 'ValidatorSet';
  const tag = loadTag(slice, 8, [0x11, 0x12], T);
  const utimeSince = slice.loadUint(32);
  const utimeUntil = slice.loadUint(32);
  const total = slice.loadUint(16);
  const main = slice.loadUint(16);
  check(main <= total, T, 'main <= total', `${main} > ${total}`);
  check(main >= 1, T, 'main >= 1', main);
  if (tag === 0x11) {
    // Hashmap (not HashmapE): the root node continues in this cell.
    const list = dictToMap(Dictionary.loadDirect(Dictionary.Keys.Uint(16), validatorDescrValue, slice));
    return { kind: 'validators', utimeSince, utimeUntil, total, main, list };
  }
  const totalWeight = slice.loadUintBig(64);
  const list = dictToMap(Dictionary.load(Dictionary.Keys.Uint(16), validatorDescrValue, slice));
  return { kind: 'validators_ext', utimeSince, utimeUntil, total, main, totalWeight, list };
}

export function storeValidatorSet(value: ValidatorSet): (b: Builder) => void {
  return (b) => {
    b.storeUint(value.kind === 'validators' ? 0x11 : 0x12, 8);
    b.storeUint(value.utimeSince, 32);
    b.storeUint(value.utimeUntil, 32);
    b.storeUint(value.total, 16);
    b.storeUint(value.main, 16);
    const dict = mapToDict(value.list, Dictionary.Keys.Uint(16), validatorDescrValue);
    if (value.kind === 'validators') {
      if (value.list.size === 0) throw new CodecError('ValidatorSet: validators#11 needs a non-empty list');
      dict.storeDirect(b);
    } else {
      b.storeUint(value.totalWeight, 64);
      b.storeDict(dict);
    }
  };
}
