// Proofs that link blocks to each other: getShardBlockProof and lookupBlockWithProof (a shard block down from
// the masterchain block that committed it) and getBlockProof (masterchain blocks linked backward through
// prev_blocks and forward through key-block configurations and validator signatures).
// LiteQuery::continue_getShardBlockProof, continue_lookupBlockWithProof_*, construct_proof_chain.
import type { Cell } from '@ton/core';
import {
  type BlockIdExt,
  buildMerkleProof,
  lowerBit,
  parseBoc,
  prevBlockIds,
  sameBlockId,
  shardContains,
  shardIntersects,
  trackCellUsage,
} from '../../ton/index.ts';
import type { LiteServerBlockLink, LiteServerShardBlockLink } from '../tl/index.ts';
import { headerOnlyProof, stateRootProof } from './block-proofs.ts';
import { lookup } from './blocks.ts';
import { dictLookupRoot, findShardLeaf } from './cell-walk.ts';
import {
  blockParts,
  boc,
  readBlockExtra,
  readBlockInfo,
  readMcBlockExtra,
  readMcStateExtra,
  readStateRoot,
  visitAll,
} from './chain-read.ts';
import { type BlockSignatureSet, MASTERCHAIN, SHARD_ALL } from './chain-view.ts';
import { type HandlerContext, type HandlerTable, loadBlock, loadState } from './handler-context.ts';
import { formatBlockId, fromTlBlockId, isMasterchainExt, isValidFull, toTlBlockId, toUnsigned64 } from './ids.ts';
import { badRequest, notFound } from './lite-errors.ts';
import {
  checkOldMcBlock,
  isOldMcBlock,
  nextKeyBlockId,
  oldMcBlockId,
  prevKeyBlockId,
  visitConfigInfo,
} from './mc-state.ts';

/** Chains of shard blocks between masterchain blocks are at most 8 long (collator.cpp). */
const MAX_SHARD_LINKS = 8;
/** getBlockProof links per answer. */
const MAX_BLOCK_LINKS = 16;

/** The previous blocks a block names (BlockInfo.prev_ref) and its masterchain ref, reading root + info. */
function prevIds(root: Cell, id: BlockIdExt): BlockIdExt[] {
  const what = `block ${formatBlockId(id)}`;
  const info = readBlockInfo(blockParts(root, what), what);
  return prevBlockIds(info);
}

async function masterchainRef(ctx: HandlerContext, id: BlockIdExt): Promise<number> {
  const seqno = await ctx.view.masterchainRefSeqno?.(id);
  if (seqno === undefined || seqno === null) throw notFound(`block ${formatBlockId(id)} doesn't have masterchain ref`);
  return seqno;
}

async function mcBlockBySeqno(ctx: HandlerContext, seqno: number): Promise<BlockIdExt> {
  const id = await ctx.view.lookupBlock({ workchain: MASTERCHAIN, prefix: SHARD_ALL, seqno });
  if (!id) throw notFound(`masterchain block ${seqno} not found`);
  return id;
}

/**
 * From masterchain block `mcId` down the shard chain to `target`: each link names the next block and proves
 * it from the current one (the mc block's shard_hashes, then each shard block's prev_ref).
 */
async function shardLinks(
  ctx: HandlerContext,
  mcId: BlockIdExt,
  target: BlockIdExt,
): Promise<Array<{ id: BlockIdExt; proof: Cell }>> {
  const links: Array<{ id: BlockIdExt; proof: Cell }> = [];
  let cur = mcId;
  for (;;) {
    const rec = await loadBlock(ctx, cur);
    const what = `block ${formatBlockId(cur)}`;
    const usage = trackCellUsage(rec.root);
    let next: BlockIdExt | undefined;
    if (cur.workchain === MASTERCHAIN) {
      const extra = readBlockExtra(blockParts(usage.root, what), what);
      if (!extra.custom) throw badRequest(`cannot unpack header of block ${formatBlockId(cur)}`);
      const mc = readMcBlockExtra(extra.custom, what);
      const prefix = (target.shard & ~lowerBit(target.shard)) | 1n;
      const leaf = findShardLeaf(mc.shardHashes, target.workchain, prefix, false, `${what} shard_hashes`);
      if (!leaf) throw notFound('shard not found');
      const d = leaf.descr;
      d.loadUint(4);
      const seqno = d.loadUint(32);
      d.skip(32 + 64 + 64);
      next = {
        workchain: target.workchain,
        shard: leaf.shard,
        seqno,
        rootHash: d.loadBuffer(32),
        fileHash: d.loadBuffer(32),
      };
    } else {
      next = prevIds(usage.root, cur).find((p) => shardIntersects(p.shard, target.shard));
      if (!next) throw badRequest('failed to find block chain');
    }
    links.push({ id: next, proof: buildMerkleProof(rec.root, usage.visited) });
    if (sameBlockId(next, target)) return links;
    if (links.length === MAX_SHARD_LINKS) throw badRequest('proof chain is too long');
    cur = next;
  }
}

function shardLinkTl(l: { id: BlockIdExt; proof: Cell }): LiteServerShardBlockLink {
  return { _: 'liteServer.shardBlockLink', id: toTlBlockId(l.id), proof: boc(l.proof) };
}

interface ChainLink {
  forward: boolean;
  from: BlockIdExt;
  to: BlockIdExt;
  isKey: boolean;
  destProof: Cell | null;
  proof: Cell;
  stateProof: Cell | null;
  signatures: BlockSignatureSet | null;
}

/** The header proof and key flag that close a link when the chain reaches its `to` block. */
function destOf(root: Cell, id: BlockIdExt): { proof: Cell; isKey: boolean } {
  const what = `block ${formatBlockId(id)}`;
  if (!root.hash(0).equals(id.rootHash)) throw badRequest(`root hash mismatch in block root of ${formatBlockId(id)}`);
  const usage = trackCellUsage(root);
  const info = readBlockInfo(blockParts(usage.root, what), what);
  return { proof: buildMerkleProof(root, usage.visited), isKey: info.keyBlock };
}

/** extract_from_key_block / extract_from_state with needValidatorSet: config params 34 (or 35) and 28. */
function visitValidatorConfig(configRoot: Cell, what: string): void {
  const param = (p: number) => dictLookupRoot(configRoot, 32, BigInt(p), `${what} config`);
  const vset = param(35) ?? param(34);
  if (!vset) throw badRequest(`${what}: no validator set in configuration`);
  visitAll(vset.loadRef(), `${what} validator set`);
  const cc = param(28);
  if (cc) visitAll(cc.loadRef(), `${what} catchain config`);
}

async function blockProofChain(
  ctx: HandlerContext,
  from: BlockIdExt,
  to: BlockIdExt,
  base: BlockIdExt,
  state0: Cell,
): Promise<{ complete: boolean; to: BlockIdExt; links: ChainLink[] }> {
  const links: ChainLink[] = [];
  const closeLast = async (cur: BlockIdExt, root?: Cell) => {
    const last = links[links.length - 1];
    if (!last || last.destProof || last.to.seqno === 0) return;
    const dest = destOf(root ?? (await loadBlock(ctx, cur)).root, cur);
    last.destProof = dest.proof;
    last.isKey = dest.isKey;
  };
  const back = async (cur: BlockIdExt, next: BlockIdExt) => {
    if (!isOldMcBlock(state0, base, cur) || !isOldMcBlock(state0, base, next) || cur.seqno <= next.seqno) {
      throw badRequest(`cannot construct backward proof link from ${formatBlockId(cur)} to ${formatBlockId(next)}`);
    }
    const rec = await loadBlock(ctx, cur);
    const state = await loadState(ctx, cur);
    await closeLast(cur, rec.root);
    const proof = stateRootProof(rec.root, cur, state.hash(0));
    const usage = trackCellUsage(state);
    // the verifier reads the state with ConfigInfo::extract_config(needPrevBlocks): zero state entry included
    visitConfigInfo(usage.root, cur, false);
    checkOldMcBlock(usage.root, cur, next);
    links.push({
      forward: false,
      from: cur,
      to: next,
      isKey: next.seqno === 0,
      destProof: null,
      proof,
      stateProof: buildMerkleProof(state, usage.visited),
      signatures: null,
    });
  };
  const forward = async (cur: BlockIdExt, next: BlockIdExt) => {
    if (!isOldMcBlock(state0, base, cur) || !isOldMcBlock(state0, base, next) || cur.seqno >= next.seqno) {
      throw badRequest(`cannot construct forward proof link from ${formatBlockId(cur)} to ${formatBlockId(next)}`);
    }
    const nextRec = await loadBlock(ctx, next);
    const signatures = (await ctx.view.blockSignatures?.(next)) ?? null;
    if (!signatures) throw notFound(`cannot load proof for ${formatBlockId(next)} : signatures not in db`);
    let curProof: Cell;
    if (cur.seqno > 0) {
      const curRec = await loadBlock(ctx, cur);
      await closeLast(cur, curRec.root);
      const what = `key block ${formatBlockId(cur)}`;
      const usage = trackCellUsage(curRec.root);
      const parts = blockParts(usage.root, what);
      readBlockInfo(parts, what);
      const extra = readBlockExtra(parts, what);
      const mc = extra.custom ? readMcBlockExtra(extra.custom, what) : null;
      if (!mc?.config) throw badRequest(`${what} is not a key block`);
      visitValidatorConfig(mc.config.root, what);
      curProof = buildMerkleProof(curRec.root, usage.visited);
    } else {
      const data = await ctx.view.zeroState?.(cur);
      if (!data) throw notFound(`cannot load zerostate of ${formatBlockId(cur)} : not in db`);
      const root = parseBoc(data)[0] as Cell;
      if (!root.hash(0).equals(cur.rootHash))
        throw badRequest(`incorrect root hash in zero state ${formatBlockId(cur)}`);
      const what = `zero state ${formatBlockId(cur)}`;
      const usage = trackCellUsage(root);
      visitValidatorConfig(readMcStateExtra(readStateRoot(usage.root, what), what).configRoot, what);
      curProof = buildMerkleProof(root, usage.visited);
    }
    const dest = destOf(nextRec.root, next);
    links.push({
      forward: true,
      from: cur,
      to: next,
      isKey: dest.isKey,
      destProof: dest.proof,
      proof: curProof,
      stateProof: null,
      signatures,
    });
  };

  let cur = from;
  for (;;) {
    if (links.length >= MAX_BLOCK_LINKS || sameBlockId(cur, to)) break;
    if (to.seqno === cur.seqno) {
      throw badRequest(
        `cannot have two different masterchain blocks ${formatBlockId(to)} and ${formatBlockId(cur)} of the same height`,
      );
    }
    if (to.seqno < cur.seqno) {
      await back(cur, to);
      cur = to;
      continue;
    }
    const prevKey = prevKeyBlockId(state0, base, cur.seqno);
    if (prevKey.seqno > cur.seqno || (prevKey.seqno === cur.seqno && !sameBlockId(prevKey, cur))) {
      throw badRequest(`block ${formatBlockId(prevKey)} cannot be the previous key block for ${formatBlockId(cur)}`);
    }
    if (prevKey.seqno !== cur.seqno) {
      await back(cur, prevKey);
      cur = prevKey;
      continue;
    }
    const nextKey = nextKeyBlockId(state0, base, cur.seqno + 1);
    if (nextKey && nextKey.seqno <= cur.seqno) {
      throw badRequest(`block ${formatBlockId(nextKey)} cannot be the next key block after ${formatBlockId(cur)}`);
    }
    const next = nextKey ?? to;
    await forward(cur, next);
    cur = next;
  }
  await closeLast(cur);
  return { complete: sameBlockId(cur, to), to: cur, links };
}

function linkTl(l: ChainLink): LiteServerBlockLink {
  const destProof = l.to.seqno && l.destProof ? boc(l.destProof) : Buffer.alloc(0);
  if (l.forward) {
    const sigs = l.signatures as BlockSignatureSet;
    return {
      _: 'liteServer.blockLinkForward',
      toKeyBlock: l.isKey,
      from: toTlBlockId(l.from),
      to: toTlBlockId(l.to),
      destProof,
      configProof: boc(l.proof),
      signatures: {
        _: 'liteServer.signatureSet.ordinary',
        validatorSetHash: sigs.validatorSetHash | 0,
        catchainSeqno: sigs.catchainSeqno | 0,
        signatures: sigs.signatures.map((s) => ({
          _: 'liteServer.signature' as const,
          nodeIdShort: s.nodeIdShort,
          signature: s.signature,
        })),
      },
    };
  }
  return {
    _: 'liteServer.blockLinkBack',
    toKeyBlock: l.isKey,
    from: toTlBlockId(l.from),
    to: toTlBlockId(l.to),
    destProof,
    proof: boc(l.proof),
    stateProof: boc(l.stateProof as Cell),
  };
}

export const chainProofHandlers: HandlerTable = {
  'liteServer.getShardBlockProof': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (!isValidFull(id)) throw badRequest('invalid block id');
    if (id.workchain === MASTERCHAIN)
      return { _: 'liteServer.shardBlockProof', masterchainId: toTlBlockId(id), links: [] };
    const mcId = await mcBlockBySeqno(ctx, await masterchainRef(ctx, id));
    const links = await shardLinks(ctx, mcId, id);
    return { _: 'liteServer.shardBlockProof', masterchainId: toTlBlockId(mcId), links: links.map(shardLinkTl) };
  },

  'liteServer.lookupBlockWithProof': async (q, ctx) => {
    if (!((1 << (q.mode & 7)) & 0x16)) throw badRequest('exactly one of mode.0, mode.1 and mode.2 bits must be set');
    const clientMc = fromTlBlockId(q.mcBlockId);
    if (!isMasterchainExt(clientMc)) throw badRequest('masterchain block id must be specified');
    const found = await lookup(ctx, q.mode, q.id, q.lt, q.utime);
    const mcRefSeqno = await masterchainRef(ctx, found);
    if (mcRefSeqno > clientMc.seqno) throw badRequest("specified mc block is older than block's masterchain ref");
    const rec = await loadBlock(ctx, found);
    const header = headerOnlyProof(rec.root, found);
    let prevHeader: Buffer = Buffer.alloc(0);
    if (q.mode & 6) {
      const prefix = toUnsigned64(q.id.shard);
      const prev = prevIds(rec.root, found)
        .filter((p) => shardContains(p.shard, prefix))
        .pop();
      if (!prev) throw badRequest('failed to choose previous block');
      prevHeader = boc(headerOnlyProof((await loadBlock(ctx, prev)).root, prev));
    }
    let alt = found;
    let links: Array<{ id: BlockIdExt; proof: Cell }> = [];
    if (found.workchain !== MASTERCHAIN) {
      alt = await mcBlockBySeqno(ctx, mcRefSeqno);
      links = await shardLinks(ctx, alt, found);
    }
    let clientMcStateProof: Buffer = Buffer.alloc(0);
    let mcBlockProof: Buffer = Buffer.alloc(0);
    if (!sameBlockId(alt, clientMc)) {
      const mcRec = await loadBlock(ctx, clientMc);
      const state = await loadState(ctx, clientMc);
      const usage = trackCellUsage(state);
      if (!oldMcBlockId(usage.root, clientMc, alt.seqno) || !isOldMcBlock(usage.root, clientMc, alt)) {
        throw badRequest('client mc blkid is not in prev_blocks');
      }
      mcBlockProof = boc(buildMerkleProof(state, usage.visited));
      clientMcStateProof = boc(stateRootProof(mcRec.root, clientMc, state.hash(0)));
    }
    return {
      _: 'liteServer.lookupBlockResult',
      id: toTlBlockId(found),
      mode: q.mode,
      mcBlockId: toTlBlockId(alt),
      clientMcStateProof,
      mcBlockProof,
      shardLinks: links.map(shardLinkTl),
      header: boc(header),
      prevHeader,
    };
  },

  'liteServer.getBlockProof': async (q, ctx) => {
    let mode = q.mode;
    const from = fromTlBlockId(q.knownBlock);
    let to = mode & 1 && q.targetBlock ? fromTlBlockId(q.targetBlock) : null;
    if (!isMasterchainExt(from))
      throw badRequest(`source block ${formatBlockId(from)} is not a valid masterchain block id`);
    if (mode & 1 && (!to || !isMasterchainExt(to))) {
      throw badRequest(`destination block ${to ? formatBlockId(to) : '(none)'} is not a valid masterchain block id`);
    }
    const last = (await ctx.view.masterchainInfo()).last;
    if (!to) {
      to = last;
      // No target and no mode.1: the node proves up to its shard client block (here: the last block).
      if (!(mode & 2)) mode |= 0x1001;
    }
    const base = mode & 1 && mode & 0x1000 ? (from.seqno > to.seqno ? from : to) : last;
    const state0 = await loadState(ctx, base);
    if (from.seqno > base.seqno) {
      throw badRequest(
        `client knows block ${formatBlockId(from)} newer than the reference masterchain block ${formatBlockId(base)}`,
      );
    }
    if (to.seqno > base.seqno) {
      throw badRequest(
        `client knows block ${formatBlockId(to)} newer than the reference masterchain block ${formatBlockId(base)}`,
      );
    }
    if (!isOldMcBlock(state0, base, from)) {
      throw badRequest(
        `proof source masterchain block ${formatBlockId(from)} is unknown from the perspective of reference block ${formatBlockId(base)}`,
      );
    }
    if (!isOldMcBlock(state0, base, to)) {
      throw badRequest(
        `proof destination masterchain block ${formatBlockId(to)} is unknown from the perspective of reference block ${formatBlockId(base)}`,
      );
    }
    const chain = await blockProofChain(ctx, from, to, base, state0);
    return {
      _: 'liteServer.partialBlockProof',
      complete: chain.complete,
      from: toTlBlockId(from),
      to: toTlBlockId(chain.to),
      steps: chain.links.map(linkTl),
    };
  },
};
