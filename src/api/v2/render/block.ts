// Block-level objects of toncenter v2 (v2-api.md §5, §6.2) as ton-http-api-cpp 2.1 writes them: tonlib's
// `ton.blockIdExt`, `blocks.header`, `blocks.shards`, `blocks.shortTxId`, the signature and proof objects, and
// the queue sizes. Numbers follow tonlib's JSON: int64 as decimal strings (shard signed), int32 as numbers,
// hashes and bytes as standard base64.
import type { Cell } from '@ton/core';
import { ProofError } from '../../../common/index.ts';
import type {
  LiteServerBlockLinkBack,
  LiteServerOutMsgQueueSizes,
  LiteServerShardBlockLink,
  LiteServerSignatureSet,
} from '../../../lite/index.ts';
import {
  type BlockInfo,
  loadBlockInfo,
  parseBoc,
  prevBlockIds,
  shardContains,
  shardIdOf,
  verifyBlockProof,
} from '../../../ton/index.ts';

/** A block id as any of our sources hold it: shard as bigint (signed or not) or as a decimal string. */
export interface AnyBlockId {
  workchain: number;
  shard: bigint | string;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}

export interface TonBlockIdExtJson {
  '@type': 'ton.blockIdExt';
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** The shard id as v2 writes it: signed 64-bit decimal (the masterchain is "-9223372036854775808"). */
export function signedShard(shard: bigint | string): bigint {
  return BigInt.asIntN(64, BigInt(shard));
}

/** The shard id as an unsigned 64-bit value (what shard arithmetic works on). */
export function unsignedShard(shard: bigint | string): bigint {
  return BigInt.asUintN(64, BigInt(shard));
}

export function tonBlockIdExt(id: AnyBlockId): TonBlockIdExtJson {
  return {
    '@type': 'ton.blockIdExt',
    workchain: id.workchain,
    shard: signedShard(id.shard).toString(),
    seqno: id.seqno,
    root_hash: b64(id.rootHash),
    file_hash: b64(id.fileHash),
  };
}

/** tonlib names the zero state with shard 0 and seqno 0 in blocks.masterchainInfo.init. */
export function zeroStateIdExt(z: {
  workchain: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}): TonBlockIdExtJson {
  return {
    '@type': 'ton.blockIdExt',
    workchain: z.workchain,
    shard: '0',
    seqno: 0,
    root_hash: b64(z.rootHash),
    file_hash: b64(z.fileHash),
  };
}

export function masterchainInfoJson(info: {
  last: AnyBlockId;
  stateRootHash: Uint8Array;
  init: { workchain: number; rootHash: Uint8Array; fileHash: Uint8Array };
}) {
  return {
    '@type': 'blocks.masterchainInfo',
    last: tonBlockIdExt(info.last),
    state_root_hash: b64(info.stateRootHash),
    init: zeroStateIdExt(info.init),
  };
}

/** The same block (workchain, shard, seqno and both hashes)? */
export function sameId(a: AnyBlockId, b: AnyBlockId): boolean {
  return (
    a.workchain === b.workchain &&
    unsignedShard(a.shard) === unsignedShard(b.shard) &&
    a.seqno === b.seqno &&
    Buffer.from(a.rootHash).equals(Buffer.from(b.rootHash)) &&
    Buffer.from(a.fileHash).equals(Buffer.from(b.fileHash))
  );
}

/**
 * Opens a liteserver's block header proof against the block's root hash and reads `global_id` and the
 * BlockInfo; a proof that does not prove this block, or a header of another block, is the server's fault.
 */
export function readHeaderProof(id: AnyBlockId, headerProof: Uint8Array): { globalId: number; info: BlockInfo } {
  const what = `block header proof of (${id.workchain},${unsignedShard(id.shard).toString(16)},${id.seqno})`;
  let root: Cell;
  let info: BlockInfo;
  try {
    const proof = parseBoc(headerProof)[0];
    if (!proof) throw new Error('empty BoC');
    root = verifyBlockProof(proof, Buffer.from(id.rootHash));
    const infoCell = root.refs[0];
    if (!infoCell) throw new Error('the Block has no info reference');
    info = loadBlockInfo(infoCell.beginParse(true));
  } catch (e) {
    if (e instanceof ProofError) throw e;
    throw new ProofError(`${what}: ${(e as Error).message}`, { cause: e });
  }
  if (
    info.seqNo !== id.seqno ||
    info.shard.workchainId !== id.workchain ||
    shardIdOf(info.shard) !== unsignedShard(id.shard)
  ) {
    throw new ProofError(`${what}: the header is of block (${info.shard.workchainId},…,${info.seqNo})`);
  }
  // Block: block#11ef55aa global_id:int32 …
  const globalId = root.beginParse(true).skip(32).loadInt(32);
  return { globalId, info };
}

/**
 * blocks.header as tonlib fills it from the header proof (TonlibClient.cpp blocks.getBlockHeader); toncenter 2.1
 * drops `flags` and `vert_seqno`. The 32-bit fields are tonlib's int32 (validator_list_hash_short can be negative);
 * prev_key_block_seqno is only read for masterchain blocks.
 */
export function blockHeaderJson(id: AnyBlockId, headerProof: Uint8Array) {
  const { globalId, info } = readHeaderProof(id, headerProof);
  return {
    '@type': 'blocks.header',
    id: tonBlockIdExt(id),
    global_id: globalId,
    version: info.version | 0,
    after_merge: info.afterMerge,
    after_split: info.afterSplit,
    before_split: info.beforeSplit,
    want_merge: info.wantMerge,
    want_split: info.wantSplit,
    validator_list_hash_short: info.genValidatorListHashShort | 0,
    catchain_seqno: info.genCatchainSeqno | 0,
    min_ref_mc_seqno: info.minRefMcSeqno | 0,
    is_key_block: info.keyBlock,
    prev_key_block_seqno: info.notMaster ? 0 : info.prevKeyBlockSeqno | 0,
    start_lt: info.startLt.toString(),
    end_lt: info.endLt.toString(),
    gen_utime: info.genUtime,
    prev_blocks: prevBlockIds(info).map(tonBlockIdExt),
  };
}

/** Checks what a lookup answered: the asked workchain, a shard that contains the asked prefix, the asked seqno. */
export function checkLookup(
  asked: { workchain: number; shard: bigint; seqno?: number },
  found: AnyBlockId,
  server?: string,
): void {
  if (
    found.workchain !== asked.workchain ||
    !shardContains(unsignedShard(found.shard), unsignedShard(asked.shard)) ||
    (asked.seqno !== undefined && found.seqno !== asked.seqno)
  ) {
    throw new ProofError(
      `lookupBlock: asked for (${asked.workchain},${unsignedShard(asked.shard).toString(16)},${asked.seqno ?? '…'}), ` +
        `liteserver${server ? ` ${server}` : ''} answered (${found.workchain},${unsignedShard(found.shard).toString(16)},${found.seqno})`,
    );
  }
}

export function shardsJson(shards: AnyBlockId[]) {
  return { '@type': 'blocks.shards', shards: shards.map(tonBlockIdExt) };
}

/** blocks.shortTxId: `account` is "<workchain of the block>:<lower-case hex>". */
export function shortTxIdJson(
  workchain: number,
  t: { mode: number; account: Uint8Array; lt: bigint | string; hash: Uint8Array },
) {
  return {
    '@type': 'blocks.shortTxId',
    mode: t.mode,
    account: `${workchain}:${Buffer.from(t.account).toString('hex')}`,
    lt: BigInt(t.lt).toString(),
    hash: b64(t.hash),
  };
}

/** blocks.blockSignatures, or blocks.blockSignatures.simplex for a block signed under the new consensus. */
export function blockSignaturesJson(id: AnyBlockId, set: LiteServerSignatureSet) {
  const signatures = set.signatures.map((s) => ({
    '@type': 'blocks.signature',
    node_id_short: b64(s.nodeIdShort),
    signature: b64(s.signature),
  }));
  if (set._ === 'liteServer.signatureSet.simplex') {
    return {
      '@type': 'blocks.blockSignatures.simplex',
      id: tonBlockIdExt(id),
      signatures,
      session_id: b64(set.sessionId),
      slot: set.slot,
      candidate: b64(set.candidate),
    };
  }
  return { '@type': 'blocks.blockSignatures', id: tonBlockIdExt(id), signatures };
}

export function shardBlockProofJson(
  from: AnyBlockId,
  mcId: AnyBlockId,
  links: Array<Pick<LiteServerShardBlockLink, 'id' | 'proof'>>,
  back: Array<Omit<LiteServerBlockLinkBack, '_'>>,
) {
  return {
    '@type': 'blocks.shardBlockProof',
    from: tonBlockIdExt(from),
    mc_id: tonBlockIdExt(mcId),
    links: links.map((l) => ({ '@type': 'blocks.shardBlockLink', id: tonBlockIdExt(l.id), proof: b64(l.proof) })),
    mc_proof: back.map((l) => ({
      '@type': 'blocks.blockLinkBack',
      to_key_block: l.toKeyBlock,
      from: tonBlockIdExt(l.from),
      to: tonBlockIdExt(l.to),
      dest_proof: b64(l.destProof),
      proof: b64(l.proof),
      state_proof: b64(l.stateProof),
    })),
  };
}

export function outMsgQueueSizesJson(r: Omit<LiteServerOutMsgQueueSizes, '_'>) {
  return {
    '@type': 'blocks.outMsgQueueSizes',
    shards: r.shards.map((s) => ({ '@type': 'blocks.outMsgQueueSize', id: tonBlockIdExt(s.id), size: s.size })),
    ext_msg_queue_size_limit: r.extMsgQueueSizeLimit,
  };
}
