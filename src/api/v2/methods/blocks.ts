// getMasterchainInfo, getMasterchainBlockSignatures, getShardBlockProof, getConsensusBlock, lookupBlock,
// getShards (shards), getBlockHeader, getOutMsgQueueSize (v2-api.md §6.2), and what the block, transaction and
// config methods share: parameter checks in toncenter 2.1's words, block lookups on one server, the cache.
//
// A chain of dependent reads (head, then something at the head) runs on one liteserver through withServer
// (style guide §6.7 anti-pattern 3); the pool repeats the whole chain on another server if that one fails.
import { HttpError } from '../../../http/errors.ts';
import type {
  LiteMethods,
  LiteRequestOptions,
  LiteServerBlockLinkBack,
  TonNodeBlockIdExt,
} from '../../../lite/index.ts';
import { listShardsPresent, parseBoc } from '../../../ton/index.ts';
import { cachedAnswer, LATEST_TTL_MS } from '../cache.ts';
import type { V2Params } from '../params.ts';
import type { V2Context } from '../plugin.ts';
import {
  blockHeaderJson,
  blockSignaturesJson,
  checkLookup,
  masterchainInfoJson,
  outMsgQueueSizesJson,
  sameId,
  shardBlockProofJson,
  shardsJson,
  signedShard,
  tonBlockIdExt,
} from '../render/block.ts';
import type { V2Method } from './types.ts';

/** A block id as our TL codec holds it (shard: signed 64-bit bigint). */
export type BlockIdTl = Omit<TonNodeBlockIdExt, '_'>;

export const MC_SHARD = -(1n << 63n);
const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
/** Answers about a fixed block or transaction never change (issue 7). */
export const FOREVER = Number.POSITIVE_INFINITY;

/** A request that parsed but breaks a rule, worded like ton-http-api-cpp's ValidateRequest (422). */
export function invalid(message: string): HttpError {
  return new HttpError(422, `failed to validate request: ${message}`);
}

/** An int32 parameter (toncenter parses them as int32). */
export function optInt32(p: V2Params, name: string): number | undefined {
  return p.optInt(name, INT32_MIN, INT32_MAX);
}

export function int32(p: V2Params, name: string): number {
  return p.int(name, INT32_MIN, INT32_MAX);
}

/** A signed int64 parameter (lt, created_lt, after_lt in toncenter are int64). */
export function optInt64(p: V2Params, name: string): bigint | undefined {
  return p.optBigInt(name, -(1n << 63n), (1n << 63n) - 1n);
}

/** `seqno` of a block: required or not, and "seqno should be positive" when given. */
export function seqnoParam(p: V2Params, name: string, required: true): number;
export function seqnoParam(p: V2Params, name: string, required: false): number | undefined;
export function seqnoParam(p: V2Params, name: string, required: boolean): number | undefined {
  const n = required ? int32(p, name) : optInt32(p, name);
  if (n !== undefined && n <= 0) throw invalid(`${name} should be positive`);
  return n;
}

/** The request's answer through the response cache (`ttlMs` FOREVER for fixed blocks, LATEST_TTL_MS for the head). */
export function cached<T>(
  ctx: V2Context,
  p: V2Params,
  method: string,
  key: unknown[],
  ttlMs: number,
  load: () => Promise<T>,
): Promise<T> {
  const text = JSON.stringify(key, (_k, v) =>
    typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v,
  );
  return cachedAnswer(ctx.cache, p, `${method}:${text}`, ttlMs, load);
}

/** Runs dependent reads on one liteserver (another one if it fails for a server reason). */
export function pinned<T>(
  ctx: V2Context,
  fn: (c: LiteMethods) => Promise<T>,
  opts: { archive?: boolean } = {},
): Promise<T> {
  return ctx.lite.withServer((c) => fn(c), opts);
}

export type BlockLookup =
  | { workchain: number; shard: bigint; seqno: number }
  | { workchain: number; shard: bigint; lt: bigint }
  | { workchain: number; shard: bigint; utime: number };

/**
 * liteServer.lookupBlock: `shard` is an account prefix (the node finds the shard that contains it), as tonlib
 * passes toncenter's `shard` on. The answer is checked: right workchain, a shard containing the prefix, the seqno.
 */
export async function lookupBlock(c: LiteMethods, q: BlockLookup, opts?: LiteRequestOptions): Promise<BlockIdTl> {
  const id = { workchain: q.workchain, shard: signedShard(q.shard), seqno: 'seqno' in q ? q.seqno : 0 };
  const res = await c.queryTl(
    'seqno' in q
      ? { _: 'liteServer.lookupBlock', mode: 1, id }
      : 'lt' in q
        ? { _: 'liteServer.lookupBlock', mode: 2, id, lt: q.lt }
        : { _: 'liteServer.lookupBlock', mode: 4, id, utime: q.utime },
    opts,
  );
  checkLookup({ workchain: q.workchain, shard: q.shard, seqno: 'seqno' in q ? q.seqno : undefined }, res.id);
  return res.id;
}

/** The newest masterchain block this server has. */
export async function headBlock(c: LiteMethods): Promise<BlockIdTl> {
  return (await c.queryTl({ _: 'liteServer.getMasterchainInfo' })).last;
}

/** The masterchain block `seqno`, or the head when it is undefined. */
export function masterchainBlock(c: LiteMethods, seqno: number | undefined): Promise<BlockIdTl> {
  return seqno === undefined ? headBlock(c) : lookupBlock(c, { workchain: -1, shard: MC_SHARD, seqno });
}

/** The `workchain`, `shard`, `seqno` (+ optional `root_hash`, `file_hash`) parameters of a block method. */
export interface BlockParams {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
}

export function blockParams(p: V2Params): BlockParams {
  const workchain = int32(p, 'workchain');
  const shard = p.shard('shard');
  const seqno = seqnoParam(p, 'seqno', true);
  return { workchain, shard, seqno, rootHash: p.optHash('root_hash'), fileHash: p.optHash('file_hash') };
}

/** The block as given (both hashes) or looked up by seqno, as ton-http-api-cpp resolves it. */
export async function resolveBlock(c: LiteMethods, b: BlockParams): Promise<BlockIdTl> {
  if (b.rootHash && b.fileHash) {
    return { workchain: b.workchain, shard: b.shard, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
  }
  return lookupBlock(c, { workchain: b.workchain, shard: b.shard, seqno: b.seqno });
}

/** The key of a block request in the cache: with both hashes the block itself, else what was looked up. */
export function blockKey(b: BlockParams): unknown[] {
  return b.rootHash && b.fileHash
    ? [b.workchain, b.shard, b.seqno, b.rootHash, b.fileHash]
    : [b.workchain, b.shard, b.seqno];
}

export const blockMethods: V2Method[] = [
  {
    name: 'getMasterchainInfo',
    verbs: 'read',
    run: (p, ctx) =>
      cached(ctx, p, 'getMasterchainInfo', [], LATEST_TTL_MS, async () =>
        masterchainInfoJson(await ctx.lite.queryTl({ _: 'liteServer.getMasterchainInfo' })),
      ),
  },

  {
    // tonlib: the proof of block seqno from seqno-1 ends in a forward link signed by the validators; its
    // signature set is the answer. The devnet's single validator signs every masterchain block, so the list has
    // one signature, checkable against config param 34.
    name: 'getMasterchainBlockSignatures',
    verbs: 'read',
    run(p, ctx) {
      const seqno = seqnoParam(p, 'seqno', true);
      return cached(ctx, p, 'getMasterchainBlockSignatures', [seqno], FOREVER, () =>
        pinned(ctx, async (c) => {
          const block = await lookupBlock(c, { workchain: -1, shard: MC_SHARD, seqno });
          const prev =
            seqno === 1
              ? await zeroStateBlock(c)
              : await lookupBlock(c, { workchain: -1, shard: MC_SHARD, seqno: seqno - 1 });
          const proof = await c.queryTl({
            _: 'liteServer.getBlockProof',
            mode: 0x1001,
            knownBlock: prev,
            targetBlock: block,
          });
          const last = proof.steps[proof.steps.length - 1];
          if (!proof.complete || !last || last._ !== 'liteServer.blockLinkForward' || !sameId(last.to, block)) {
            throw new HttpError(500, 'got invalid proof chain');
          }
          return blockSignaturesJson(block, last.signatures);
        }),
      );
    },
  },

  {
    // tonlib GetShardBlockProof: the links from the shard block up to the masterchain block that commits it, and,
    // when `from_seqno` (else the head) is newer, the backward link from there down to that masterchain block.
    name: 'getShardBlockProof',
    verbs: 'read',
    run(p, ctx) {
      const workchain = int32(p, 'workchain');
      const shard = p.shard('shard');
      const seqno = seqnoParam(p, 'seqno', true);
      const fromSeqno = optInt32(p, 'from_seqno');
      if (fromSeqno !== undefined && fromSeqno < 0) throw invalid('from_seqno should be non-negative');
      const ttl = fromSeqno === undefined ? LATEST_TTL_MS : FOREVER;
      return cached(ctx, p, 'getShardBlockProof', [workchain, shard, seqno, fromSeqno], ttl, () =>
        pinned(ctx, async (c) => {
          const id = await lookupBlock(c, { workchain, shard, seqno });
          const from =
            fromSeqno === undefined
              ? await headBlock(c)
              : fromSeqno === 0
                ? await zeroStateBlock(c)
                : await lookupBlock(c, { workchain: -1, shard: MC_SHARD, seqno: fromSeqno });
          const res = await c.queryTl({ _: 'liteServer.getShardBlockProof', id });
          const mcId = res.masterchainId;
          // tonlib's refusal, which 2.1 answers 500 with its text: the client's choice of from_seqno, not our failure.
          if (mcId.seqno > from.seqno) throw new HttpError(500, 'from mc block is too old', { expected: true });
          let back: Array<Omit<LiteServerBlockLinkBack, '_'>> = [];
          if (!sameId(from, mcId)) {
            const chain = await c.queryTl({
              _: 'liteServer.getBlockProof',
              mode: 0x1001,
              knownBlock: from,
              targetBlock: mcId,
            });
            const links = chain.steps;
            if (!chain.complete || links.length > 1 || links.some((l) => l._ !== 'liteServer.blockLinkBack')) {
              throw new HttpError(500, 'got invalid proof chain');
            }
            back = links as typeof back;
          }
          return shardBlockProofJson(from, mcId, res.links, back);
        }),
      );
    },
  },

  {
    // No liteserver call (toncenter: the pool's state): the best masterchain seqno a healthy server reports.
    name: 'getConsensusBlock',
    verbs: 'read',
    async run(_p, ctx) {
      const seqno = ctx.lite.headSeqno();
      if (seqno === null || seqno <= 0) throw new HttpError(500, 'no workers alive');
      return { '@type': 'ext.blocks.consensusBlock', consensus_block: seqno, timestamp: Math.floor(Date.now() / 1000) };
    },
  },

  {
    name: 'lookupBlock',
    verbs: 'read',
    run(p, ctx) {
      const workchain = int32(p, 'workchain');
      const shard = p.shard('shard');
      const seqno = optInt32(p, 'seqno');
      const lt = optInt64(p, 'lt');
      const utime = optInt32(p, 'unixtime');
      if (seqno !== undefined && seqno <= 0) throw invalid('seqno should be positive');
      if (lt !== undefined && lt < 0n) throw invalid('lt should be non-negative');
      if (utime !== undefined && utime < 0) throw invalid('unixtime should be non-negative');
      const given = [seqno, lt, utime].filter((x) => x !== undefined).length;
      if (given !== 1) throw invalid('exactly one of seqno, lt, unixtime should be specified');
      // Once found, the block for a seqno, lt or time does not change; a lookup past the head fails and is not kept.
      return cached(ctx, p, 'lookupBlock', [workchain, shard, seqno, lt, utime], FOREVER, async () => {
        const q: BlockLookup =
          seqno !== undefined
            ? { workchain, shard, seqno }
            : lt !== undefined
              ? { workchain, shard, lt }
              : { workchain, shard, utime: utime as number };
        return tonBlockIdExt(await pinned(ctx, (c) => lookupBlock(c, q)));
      });
    },
  },

  {
    name: 'getShards',
    aliases: ['shards'],
    verbs: 'read',
    run(p, ctx) {
      const seqno = seqnoParam(p, 'seqno', true);
      return cached(ctx, p, 'getShards', [seqno], FOREVER, () =>
        pinned(ctx, async (c) => {
          const mc = await lookupBlock(c, { workchain: -1, shard: MC_SHARD, seqno });
          const res = await c.queryTl({ _: 'liteServer.getAllShardsInfo', id: mc });
          const root = parseBoc(res.data)[0];
          if (!root) throw new HttpError(500, 'getAllShardsInfo: the liteserver sent no shard data');
          const { shards, pruned } = listShardsPresent(root.beginParse());
          if (pruned > 0) throw new HttpError(500, 'getAllShardsInfo: the liteserver sent an incomplete shard list');
          return shardsJson(
            shards.map((s) => ({
              workchain: s.workchain,
              shard: s.shard,
              seqno: s.descr.seqNo,
              rootHash: s.descr.rootHash,
              fileHash: s.descr.fileHash,
            })),
          );
        }),
      );
    },
  },

  {
    name: 'getBlockHeader',
    verbs: 'read',
    run(p, ctx) {
      const b = blockParams(p);
      return cached(ctx, p, 'getBlockHeader', blockKey(b), FOREVER, () =>
        pinned(ctx, async (c) => {
          const id = await resolveBlock(c, b);
          const res = await c.queryTl({ _: 'liteServer.getBlockHeader', id, mode: 0 });
          if (!sameId(res.id, id)) throw new HttpError(500, 'Liteserver responded with wrong block');
          return blockHeaderJson(id, res.headerProof);
        }),
      );
    },
  },

  {
    name: 'getOutMsgQueueSize',
    verbs: 'read',
    run: (p, ctx) =>
      cached(ctx, p, 'getOutMsgQueueSize', [], LATEST_TTL_MS, async () =>
        outMsgQueueSizesJson(await ctx.lite.queryTl({ _: 'liteServer.getOutMsgQueueSizes', mode: 0 })),
      ),
  },
];

/** The masterchain zero state as a block id (lookups by seqno start at 1). */
async function zeroStateBlock(c: LiteMethods): Promise<BlockIdTl> {
  const z = (await c.queryTl({ _: 'liteServer.getMasterchainInfo' })).init;
  return { workchain: z.workchain, shard: MC_SHARD, seqno: 0, rootHash: z.rootHash, fileHash: z.fileHash };
}
