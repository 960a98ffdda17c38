// The validator group of a shard and its hash, and block signatures, as the node computes them:
// - Config::do_compute_validator_set (crypto/block/mc-config.cpp): the masterchain group is the `main` head of
//   the current set (ConfigParam 34), shuffled with ValidatorSetPRNG when CatchainConfig.shuffle_mc_validators;
//   a shardchain group draws `shard_validators_num` validators by weight, each with weight 1.
// - compute_validator_set_hash (crypto/block/block.cpp): crc32c of the TL-like bytes
//   magic(-1877581587) cc_seqno n [pubkey weight adnl_addr]*, all little-endian.
//   A block header's gen_validator_list_hash_short hashes with the group's catchain seqno; the masterchain
//   state's ValidatorInfo hashes the same list with cc_seqno 0 (Collator::create_mc_state_extra).
// - A block signature is ed25519 over the TL object `ton.blockId root_cell_hash:int256 file_hash:int256`
//   (constructor 0xc50b6e70, little-endian), by the validator whose node id short is sha256(TL pub.ed25519 key).
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { crc32c } from '@ton/core';
import { type CatchainConfig, MASTER_SHARD, MASTERCHAIN, type ValidatorSet } from '../../ton/index.ts';

export interface ValidatorNode {
  publicKey: Buffer;
  weight: bigint;
  /** The validator's ADNL address (zero when the set has a plain `validator#53` entry). */
  adnlAddr: Buffer;
}

const ZERO256 = Buffer.alloc(32);
const U64 = (1n << 64n) - 1n;

/** ValidatorSetPRNG with a zero seed: SHA-512 of seed ‖ shard ‖ workchain ‖ cc_seqno (big-endian), 8 words a hash. */
function validatorSetPrng(workchain: number, shard: bigint, ccSeqno: number) {
  const seed = Buffer.alloc(32);
  let hash = Buffer.alloc(0);
  let pos = 0;
  let limit = 0;
  const next = (): bigint => {
    if (pos < limit) return hash.readBigUInt64BE(8 * pos++);
    const descr = Buffer.alloc(48);
    seed.copy(descr, 0);
    descr.writeBigUInt64BE(shard, 32);
    descr.writeInt32BE(workchain, 40);
    descr.writeUInt32BE(ccSeqno >>> 0, 44);
    hash = createHash('sha512').update(descr).digest();
    for (let i = 31; i >= 0; i--) {
      seed[i] = ((seed[i] as number) + 1) & 0xff;
      if (seed[i] !== 0) break;
    }
    pos = 1;
    limit = 8;
    return hash.readBigUInt64BE(0);
  };
  return { nextRanged: (range: bigint): bigint => (range * next()) >> 64n };
}

function listOf(vset: ValidatorSet): ValidatorNode[] {
  return [...vset.list.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, d]) => ({
      publicKey: d.publicKey,
      weight: d.weight,
      adnlAddr: d.kind === 'validator_addr' ? d.adnlAddr : ZERO256,
    }));
}

/** The validator group that creates blocks of (workchain, shard) with catchain seqno `ccSeqno`. */
export function computeValidatorNodes(
  cc: CatchainConfig,
  workchain: number,
  shard: bigint,
  vset: ValidatorSet,
  ccSeqno: number,
): ValidatorNode[] {
  const list = listOf(vset);
  const isMc = workchain === MASTERCHAIN;
  const count = Math.min(isMc ? vset.main : cc.shardValidatorsNum, vset.total);
  if (count === 0) return [];
  const gen = validatorSetPrng(workchain, isMc ? MASTER_SHARD : shard, ccSeqno);
  if (isMc) {
    if (cc.kind === 'catchain_config' || !cc.shuffleMcValidators) return list.slice(0, count);
    const idx = new Array<number>(count).fill(0);
    for (let i = 0; i < count; i++) {
      const j = Number(gen.nextRanged(BigInt(i + 1)));
      idx[i] = idx[j] as number;
      idx[j] = i;
    }
    return idx.map((i) => list[i] as ValidatorNode);
  }
  // Shardchain groups: weighted draws without replacement ("holes" of already drawn weight are skipped).
  const cum: bigint[] = [];
  let total = 0n;
  for (const v of list) {
    cum.push(total);
    total += v.weight;
  }
  const holes: Array<[bigint, bigint]> = [];
  const nodes: ValidatorNode[] = [];
  let left = total;
  for (let i = 0; i < count; i++) {
    let p = gen.nextRanged(left);
    for (const [start, weight] of holes) {
      if (p < start) break;
      p += weight;
    }
    let k = list.length - 1;
    while (k > 0 && (cum[k] as bigint) > p) k--;
    const entry = list[k] as ValidatorNode;
    nodes.push({ publicKey: entry.publicKey, weight: 1n, adnlAddr: entry.adnlAddr });
    left -= entry.weight;
    holes.push([cum[k] as bigint, entry.weight]);
    holes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  return nodes;
}

/** compute_validator_set_hash(cc_seqno, shard, nodes): the 32-bit short hash of a validator list. */
export function validatorSetHash(ccSeqno: number, nodes: readonly ValidatorNode[]): number {
  const b = Buffer.alloc(12 + nodes.length * 72);
  b.writeInt32LE(-1877581587, 0);
  b.writeUInt32LE(ccSeqno >>> 0, 4);
  b.writeUInt32LE(nodes.length, 8);
  nodes.forEach((n, i) => {
    const at = 12 + i * 72;
    n.publicKey.copy(b, at);
    b.writeBigUInt64LE(n.weight & U64, at + 32);
    n.adnlAddr.copy(b, at + 40);
  });
  return crc32c(b).readUInt32LE(0);
}

/** The bytes a validator signs for a block: TL `ton.blockId root_cell_hash:int256 file_hash:int256`. */
export function blockSignatureMessage(rootHash: Buffer, fileHash: Buffer): Buffer {
  const tl = Buffer.alloc(68);
  tl.writeUInt32LE(0xc50b6e70, 0);
  rootHash.copy(tl, 4);
  fileHash.copy(tl, 36);
  return tl;
}

/** An ed25519 private key object from a 32-byte RFC 8032 seed. */
function privateKeyOf(seed: Buffer) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

export function signBlock(seed: Buffer, rootHash: Buffer, fileHash: Buffer): Buffer {
  return sign(null, blockSignatureMessage(rootHash, fileHash), privateKeyOf(seed));
}
