// getMasterchainInfo, getMasterchainBlockSignatures, getShardBlockProof, getConsensusBlock, lookupBlock,
// getShards (shards), getBlockHeader, getOutMsgQueueSize (v2-api.md §6.2). What these, the transaction and the
// config methods share lives in checks.ts (parameter checks) and block-reads.ts (cache, one server, lookups).
import { HttpError } from '../../../http/errors.ts';
import type { LiteMethods, LiteServerBlockLinkBack } from '../../../lite/index.ts';
import { listShardsPresent, parseBoc } from '../../../ton/index.ts';
import { LATEST_TTL_MS } from '../cache.ts';
import {
  blockHeaderJson,
  blockSignaturesJson,
  masterchainInfoJson,
  outMsgQueueSizesJson,
  sameId,
  shardBlockProofJson,
  shardsJson,
  tonBlockIdExt,
} from '../render/block.ts';
import {
  type BlockIdTl,
  type BlockLookup,
  blockKey,
  blockParams,
  cached,
  FOREVER,
  headBlock,
  lookupBlock,
  MC_SHARD,
  pinned,
  resolveBlock,
} from './block-reads.ts';
import { int32, invalid, optInt32, optInt64, seqnoParam } from './checks.ts';
import type { V2Method } from './types.ts';

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
