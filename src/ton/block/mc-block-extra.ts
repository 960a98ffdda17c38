// block.tlb:600-607
//   masterchain_block_extra#cca5
//     key_block:(## 1)
//     shard_hashes:ShardHashes
//     shard_fees:ShardFees
//     ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair)
//        recover_create_msg:(Maybe ^InMsg)
//        mint_msg:(Maybe ^InMsg) ]
//     config:key_block?ConfigParams
//   = McBlockExtra;
// block.tlb:551-555
//   _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated;
//   _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees;
//
//   _ config_addr:bits256 config:^(Hashmap 32 ^Cell)
//     = ConfigParams;
// block.tlb:587-597
//   ed25519_signature#5 R:bits256 s:bits256 = CryptoSignatureSimple;  // 516 bits
//   _ CryptoSignatureSimple = CryptoSignature;
//   sig_pair$_ node_id_short:bits256 sign:CryptoSignature = CryptoSignaturePair;  // 256+x ~ 772 bits
//   ...
//   chained_signature#f signed_cert:^SignedCertificate temp_key_signature:CryptoSignatureSimple
//     = CryptoSignature;   // 4+(356+516)+516 = 520 bits+ref (1392 bits total)
import {
  type Builder,
  beginCell,
  type Cell,
  type CurrencyCollection,
  Dictionary,
  type DictionaryValue,
  type Slice,
} from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type AugDict, type AugDictCodec, loadHashmapAugE, storeHashmapAugE } from '../dict/index.ts';
import { decoding, expectHash, expectTag, loadWhole } from './codec-util.ts';
import { addCurrencies, loadCurrencies, storeCurrencies, zeroCurrencies } from './currency.ts';
import { type InMsg, loadInMsg, storeInMsg } from './in-msg.ts';
import { loadShardHashes, type ShardHashes, storeShardHashes } from './shard-descr.ts';

export type ShardFeeCreated = { fees: CurrencyCollection; create: CurrencyCollection };

/** Keyed by 96 bits: workchain (int32, two's complement) followed by the 64-bit shard id. */
export type ShardFees = AugDict<ShardFeeCreated, ShardFeeCreated>;

export type CryptoSignatureSimple = { kind: 'ed25519_signature'; R: Buffer; s: Buffer };

export type CryptoSignature =
  | CryptoSignatureSimple
  /** `signedCert` stays an opaque cell: no chain data we know of carries a chained signature. */
  | { kind: 'chained_signature'; signedCert: Cell; tempKeySignature: CryptoSignatureSimple };

export type CryptoSignaturePair = { nodeIdShort: Buffer; sign: CryptoSignature };

/** `config` is the root cell of the `Hashmap 32 ^Cell` of config params (src/ton/config decodes it). */
export type ConfigParams = { configAddr: Buffer; config: Cell };

export type McBlockExtra = {
  keyBlock: boolean;
  shardHashes: ShardHashes;
  shardFees: ShardFees;
  prevBlkSignatures: Dictionary<number, CryptoSignaturePair>;
  recoverCreateMsg: InMsg | null;
  mintMsg: InMsg | null;
  /** Present exactly when `keyBlock`. */
  config: ConfigParams | null;
};

const MC_BLOCK_EXTRA_TAG = 0xcca5;

export function loadShardFeeCreated(s: Slice): ShardFeeCreated {
  return decoding('ShardFeeCreated', () => ({ fees: loadCurrencies(s), create: loadCurrencies(s) }));
}

export function storeShardFeeCreated(v: ShardFeeCreated): (b: Builder) => void {
  return (b) => {
    b.store(storeCurrencies(v.fees)).store(storeCurrencies(v.create));
  };
}

/** The node's Aug_ShardFees: a fork's ShardFeeCreated is the field-wise sum of its children's. */
export const shardFeesCodec: AugDictCodec<ShardFeeCreated, ShardFeeCreated> = {
  loadValue: loadShardFeeCreated,
  storeValue: storeShardFeeCreated,
  loadExtra: loadShardFeeCreated,
  storeExtra: storeShardFeeCreated,
  combine: (l, r) => ({ fees: addCurrencies(l.fees, r.fees), create: addCurrencies(l.create, r.create) }),
  empty: () => ({ fees: zeroCurrencies(), create: zeroCurrencies() }),
};

export function loadShardFees(s: Slice): ShardFees {
  return decoding('ShardFees', () => loadHashmapAugE(s, 96, shardFeesCodec));
}

export function storeShardFees(v: ShardFees): (b: Builder) => void {
  return storeHashmapAugE(v.entries, 96, shardFeesCodec);
}

/** Splits a ShardFees key into its workchain and 64-bit shard id. */
export function shardFeesKey(key: bigint): { workchain: number; shard: bigint } {
  return { workchain: Number(BigInt.asIntN(32, key >> 64n)), shard: key & 0xffffffffffffffffn };
}

function loadCryptoSignatureSimple(s: Slice): CryptoSignatureSimple {
  return decoding('CryptoSignatureSimple', () => {
    expectTag(s, 'CryptoSignatureSimple', 0x5, 4);
    return { kind: 'ed25519_signature', R: s.loadBuffer(32), s: s.loadBuffer(32) };
  });
}

function storeCryptoSignatureSimple(v: CryptoSignatureSimple): (b: Builder) => void {
  expectHash('CryptoSignatureSimple', 'R', v.R);
  expectHash('CryptoSignatureSimple', 's', v.s);
  return (b) => {
    b.storeUint(0x5, 4).storeBuffer(v.R).storeBuffer(v.s);
  };
}

export function loadCryptoSignature(s: Slice): CryptoSignature {
  return decoding('CryptoSignature', () => {
    const tag = s.preloadUint(4);
    if (tag === 0x5) return loadCryptoSignatureSimple(s);
    if (tag !== 0xf) throw new CodecError(`CryptoSignature: expected tag 0x5 or 0xf, got 0x${tag.toString(16)}`);
    s.skip(4);
    return { kind: 'chained_signature', signedCert: s.loadRef(), tempKeySignature: loadCryptoSignatureSimple(s) };
  });
}

export function storeCryptoSignature(v: CryptoSignature): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'ed25519_signature') b.store(storeCryptoSignatureSimple(v));
    else b.storeUint(0xf, 4).storeRef(v.signedCert).store(storeCryptoSignatureSimple(v.tempKeySignature));
  };
}

export function loadCryptoSignaturePair(s: Slice): CryptoSignaturePair {
  return decoding('CryptoSignaturePair', () => ({ nodeIdShort: s.loadBuffer(32), sign: loadCryptoSignature(s) }));
}

export function storeCryptoSignaturePair(v: CryptoSignaturePair): (b: Builder) => void {
  expectHash('CryptoSignaturePair', 'node_id_short', v.nodeIdShort);
  return (b) => {
    b.storeBuffer(v.nodeIdShort).store(storeCryptoSignature(v.sign));
  };
}

/** Dictionary value codec for `HashmapE 16 CryptoSignaturePair` (block signatures). */
export const cryptoSignaturePairValue: DictionaryValue<CryptoSignaturePair> = {
  serialize: (v, b) => {
    b.store(storeCryptoSignaturePair(v));
  },
  parse: loadCryptoSignaturePair,
};

export function loadConfigParams(s: Slice): ConfigParams {
  return decoding('ConfigParams', () => ({ configAddr: s.loadBuffer(32), config: s.loadRef() }));
}

export function storeConfigParams(v: ConfigParams): (b: Builder) => void {
  expectHash('ConfigParams', 'config_addr', v.configAddr);
  return (b) => {
    b.storeBuffer(v.configAddr).storeRef(v.config);
  };
}

const maybeInMsg = (s: Slice): InMsg | null => {
  const c = s.loadMaybeRef();
  return c ? loadWhole('InMsg', c, loadInMsg) : null;
};

export function loadMcBlockExtra(s: Slice): McBlockExtra {
  return decoding('McBlockExtra', () => {
    expectTag(s, 'McBlockExtra', MC_BLOCK_EXTRA_TAG, 16);
    const keyBlock = s.loadBit();
    const shardHashes = decoding('ShardHashes', () => loadShardHashes(s));
    const shardFees = loadShardFees(s);
    const signed = loadWhole('McBlockExtra', s.loadRef(), (c) => ({
      prevBlkSignatures: c.loadDict(Dictionary.Keys.Uint(16), cryptoSignaturePairValue),
      recoverCreateMsg: maybeInMsg(c),
      mintMsg: maybeInMsg(c),
    }));
    const config = keyBlock ? loadConfigParams(s) : null;
    return { keyBlock, shardHashes, shardFees, ...signed, config };
  });
}

export function storeMcBlockExtra(v: McBlockExtra): (b: Builder) => void {
  if (v.keyBlock !== (v.config !== null)) {
    throw new CodecError(`McBlockExtra: config must be present exactly when key_block (key_block = ${v.keyBlock})`);
  }
  return (b) => {
    b.storeUint(MC_BLOCK_EXTRA_TAG, 16)
      .storeBit(v.keyBlock)
      .store(storeShardHashes(v.shardHashes))
      .store(storeShardFees(v.shardFees));
    const signed = beginCell().storeDict(v.prevBlkSignatures);
    signed.storeMaybeRef(v.recoverCreateMsg ? beginCell().store(storeInMsg(v.recoverCreateMsg)) : null);
    signed.storeMaybeRef(v.mintMsg ? beginCell().store(storeInMsg(v.mintMsg)) : null);
    b.storeRef(signed);
    if (v.config) b.store(storeConfigParams(v.config));
  };
}
