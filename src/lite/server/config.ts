// getConfigAll / getConfigParams, getLibraries(WithProof), getValidatorStats: proofs over the masterchain
// state (McStateExtra and its ^[ … ] cell) tied to the block by a state root proof.
import type { Cell } from '@ton/core';
import { type BlockIdExt, buildMerkleProof, trackCellUsage } from '../../ton/index.ts';
import { stateRootProof } from './block-proofs.ts';
import { dictLookupRoot, dictNearest, dictNearestRoot } from './cell-walk.ts';
import {
  blockParts,
  boc,
  readBlockExtra,
  readBlockInfo,
  readMcBlockExtra,
  readMcStateExtra,
  readStateRoot,
  stateLibraries,
  visitAll,
} from './chain-read.ts';
import { type HandlerContext, type HandlerTable, loadBlock, loadState } from './handler-context.ts';
import { addressKey, formatBlockId, fromTlBlockId, isMasterchainExt, toTlBlockId } from './ids.ts';
import { badRequest } from './lite-errors.ts';
import { checkOldMcBlock, prevKeyBlockId, visitConfigInfo } from './mc-state.ts';

const MAX_LIBRARIES = 16;

// block::Config / ConfigInfo mode bits (crypto/block/mc-config.h) that make extract_config visit a parameter.
const NEED_VALIDATOR_SET = 16;
const NEED_SPECIAL_SMC = 32;
const NEED_PREV_BLOCKS = 128;
const NEED_WORKCHAIN_INFO = 256;
const NEED_CAPABILITIES = 512;

function configKey(param: number): bigint {
  return BigInt.asUintN(32, BigInt(param));
}

/** Visits the cells extract_config reads for `mode`, then every parameter asked for (or the whole dictionary). */
function visitConfig(configRoot: Cell, mode: number, params: readonly number[] | null, what: string): void {
  const visitParam = (p: number) => {
    const leaf = dictLookupRoot(configRoot, 32, configKey(p), `${what} config`);
    if (leaf) visitAll(leaf.loadRef(), `${what} config param ${p}`);
  };
  // get_config_param(35, 34): the lookup of 35 walks its own path even when the parameter is absent
  if (mode & NEED_VALIDATOR_SET) for (const p of [35, 34, 28]) visitParam(p);
  if (mode & NEED_SPECIAL_SMC) visitParam(31);
  if (mode & NEED_WORKCHAIN_INFO) visitParam(12);
  if (mode & NEED_CAPABILITIES) visitParam(8);
  if (params === null) visitAll(configRoot, `${what} config`);
  else for (const p of params) visitParam(p);
}

async function configInfo(ctx: HandlerContext, id: BlockIdExt, rawMode: number, params: readonly number[] | null) {
  if (!isMasterchainExt(id)) {
    throw badRequest('configuration parameters can be loaded with respect to a masterchain block only');
  }
  let mode = rawMode & 0xffff;
  if (mode & 0x8000) {
    // Configuration of the previous key block: a proof over that block's McBlockExtra, no state proof.
    const last = (await ctx.view.masterchainInfo()).last;
    if (id.seqno > last.seqno) {
      throw badRequest(
        `client knows block ${formatBlockId(id)} newer than the reference masterchain block ${formatBlockId(last)}`,
      );
    }
    const lastState = trackCellUsage(await loadState(ctx, last)).root;
    checkOldMcBlock(lastState, last, id);
    const keyId = prevKeyBlockId(lastState, last, id.seqno);
    const keyRec = await loadBlock(ctx, keyId);
    const what = `key block ${formatBlockId(keyId)}`;
    const usage = trackCellUsage(keyRec.root);
    const parts = blockParts(usage.root, what);
    readBlockInfo(parts, what);
    const extra = readBlockExtra(parts, what);
    const mc = extra.custom ? readMcBlockExtra(extra.custom, what) : null;
    if (!mc?.config) throw badRequest(`${what} is not a key block (no configuration)`);
    visitConfig(mc.config.root, mode, params, what);
    return {
      _: 'liteServer.configInfo' as const,
      mode,
      id: toTlBlockId(keyId),
      stateProof: Buffer.alloc(0),
      configProof: boc(buildMerkleProof(keyRec.root, usage.visited)),
    };
  }
  const rec = await loadBlock(ctx, id);
  const state = await loadState(ctx, id);
  const stateProof = stateRootProof(rec.root, id, state.hash(0));
  const what = `masterchain state of ${formatBlockId(id)}`;
  const usage = trackCellUsage(state);
  const extra = readMcStateExtra(readStateRoot(usage.root, what), what);
  // needPrevBlocks: the node reads the state as block::ConfigInfo (which adds needCapabilities and answers that
  // mode), visiting prev_blocks too; tonlib checks the proof the same way before running get-methods.
  if (mode & NEED_PREV_BLOCKS) {
    mode |= NEED_CAPABILITIES;
    visitConfigInfo(usage.root, id, true);
  }
  visitConfig(extra.configRoot, mode, params, what);
  return {
    _: 'liteServer.configInfo' as const,
    mode,
    id: toTlBlockId(id),
    stateProof: boc(stateProof),
    configProof: boc(buildMerkleProof(state, usage.visited)),
  };
}

/** Sorted (as the node sorts td::Bits256), duplicates removed, at most 16. */
function libraryList(list: readonly Buffer[]): Buffer[] {
  const first = list.slice(0, MAX_LIBRARIES).map((b) => Buffer.from(b));
  first.sort(Buffer.compare);
  return first.filter((b, i) => i === 0 || !b.equals(first[i - 1] as Buffer));
}

/** shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True): the library cell if it hashes to `hash`. */
function libraryOf(libRoot: Cell | null, hash: Buffer, what: string, visitPublishers: boolean): Cell | null {
  const leaf = dictLookupRoot(libRoot, 256, addressKey(hash), `${what} libraries`);
  if (!leaf || leaf.remainingBits < 2 || leaf.preloadUint(2) !== 0 || leaf.remainingRefs === 0) return null;
  leaf.loadUint(2);
  const lib = leaf.loadRef();
  if (visitPublishers) {
    // The node walks the first 16 publishers so that the proof shows who published the library.
    let key = 0n;
    for (let i = 0; i < 16; i++) {
      const e = dictNearest(leaf.clone(), 256, key, true, i === 0, `${what} library publishers`);
      if (!e) break;
      key = e.key;
    }
  }
  return lib.hash(0).equals(hash) ? lib : null;
}

export const configHandlers: HandlerTable = {
  'liteServer.getConfigAll': async (q, ctx) => configInfo(ctx, fromTlBlockId(q.id), q.mode, null),

  'liteServer.getConfigParams': async (q, ctx) => configInfo(ctx, fromTlBlockId(q.id), q.mode, q.paramList),

  'liteServer.getLibraries': async (q, ctx) => {
    const hashes = libraryList(q.libraryList);
    const last = (await ctx.view.masterchainInfo()).last;
    const state = await loadState(ctx, last);
    const what = `masterchain state of ${formatBlockId(last)}`;
    const libRoot = stateLibraries(readStateRoot(state, what), what);
    const result = [];
    for (const hash of hashes) {
      const lib = libraryOf(libRoot, hash, what, false);
      if (!lib) continue;
      visitAll(lib, `library ${hash.toString('hex')}`);
      result.push({ _: 'liteServer.libraryEntry' as const, hash, data: boc(lib) });
    }
    return { _: 'liteServer.libraryResult', result };
  },

  'liteServer.getLibrariesWithProof': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (!isMasterchainExt(id)) throw badRequest('reference block must belong to the masterchain');
    const hashes = libraryList(q.libraryList);
    const rec = await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const stateProof = stateRootProof(rec.root, id, state.hash(0));
    const what = `masterchain state of ${formatBlockId(id)}`;
    const usage = trackCellUsage(state);
    const libRoot = stateLibraries(readStateRoot(usage.root, what), what);
    const found = hashes.filter((h) => libraryOf(libRoot, h, what, (q.mode & 1) !== 0) !== null);
    const dataProof = buildMerkleProof(state, usage.visited);
    const plainRoot = stateLibraries(readStateRoot(state, what), what);
    const result = found.map((hash) => {
      const lib = libraryOf(plainRoot, hash, what, false) as Cell;
      if (!(q.mode & 2)) visitAll(lib, `library ${hash.toString('hex')}`);
      return { _: 'liteServer.libraryEntry' as const, hash, data: q.mode & 2 ? Buffer.alloc(0) : boc(lib) };
    });
    return {
      _: 'liteServer.libraryResultWithProof',
      id: toTlBlockId(id),
      mode: q.mode,
      result,
      stateProof: boc(stateProof),
      dataProof: boc(dataProof),
    };
  },

  'liteServer.getValidatorStats': async (q, ctx) => {
    if (q.limit <= 0) throw badRequest('requested entry count limit must be positive');
    if (q.mode & ~7) throw badRequest('unknown flags set in mode');
    const id = fromTlBlockId(q.id);
    if (!isMasterchainExt(id)) throw badRequest('reference block must belong to the masterchain');
    const rec = await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const stateProof = stateRootProof(rec.root, id, state.hash(0));
    const what = `masterchain state of ${formatBlockId(id)}`;
    const usage = trackCellUsage(state);
    const r1 = readMcStateExtra(readStateRoot(usage.root, what), what).r1;
    const stats = r1.blockCreateStats;
    if (!stats) throw badRequest('cannot extract block create stats from mc state');
    const root = stats.kind === 'block_create_stats' ? stats.counters : stats.counters.root;
    const limit = Math.min(q.limit, 1000);
    let allowEq = (q.mode & 3) !== 1;
    let key = q.mode & 1 && q.startAfter ? addressKey(q.startAfter) : 0n;
    let count = 0;
    let complete = false;
    for (; count < limit; count++) {
      const entry = dictNearestRoot(root, 256, key, true, allowEq, `${what} block_create_stats`);
      if (!entry) {
        complete = true;
        break;
      }
      if (stats.kind === 'block_create_stats_ext') entry.value.loadUint(32);
      // CreatorStats: creator_info#4 mc_blocks:Counters shard_blocks:Counters (inline).
      if (entry.value.loadUint(4) !== 4) throw badRequest(`invalid CreatorStats record with key ${key.toString(16)}`);
      key = entry.key;
      allowEq = false;
    }
    return {
      _: 'liteServer.validatorStats',
      mode: q.mode & 0xff,
      id: toTlBlockId(id),
      count,
      complete,
      stateProof: boc(stateProof),
      dataProof: boc(buildMerkleProof(state, usage.visited)),
    };
  },
};
