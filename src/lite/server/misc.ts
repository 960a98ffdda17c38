// getMasterchainInfo(Ext), getTime, getVersion, sendMessage, nonfinal.getPendingShardBlocks.
import { LiteServerError } from '../../common/index.ts';
import { shardIntersects } from '../../ton/index.ts';
import type { LiteVersion } from './chain-view.ts';
import type { HandlerContext, HandlerTable } from './handler-context.ts';
import { toTlBlockId, toUnsigned64 } from './ids.ts';
import { badRequest } from './lite-errors.ts';

/** The reference liteserver's ls_version / ls_capabilities (validator/impl/liteserver.hpp). */
export const DEFAULT_VERSION: LiteVersion = { version: 0x101, capabilities: 7n };

function version(ctx: HandlerContext): LiteVersion {
  return ctx.view.version?.() ?? DEFAULT_VERSION;
}

export const miscHandlers: HandlerTable = {
  'liteServer.getMasterchainInfo': async (_q, ctx) => {
    const info = await ctx.view.masterchainInfo();
    return {
      _: 'liteServer.masterchainInfo',
      last: toTlBlockId(info.last),
      stateRootHash: info.stateRootHash,
      init: { _: 'tonNode.zeroStateIdExt', ...info.init },
    };
  },

  'liteServer.getMasterchainInfoExt': async (q, ctx) => {
    const mode = q.mode & 0x7fffffff;
    if (mode > 0) throw badRequest('unsupported getMasterchainInfo mode');
    const info = await ctx.view.masterchainInfo();
    const v = version(ctx);
    return {
      _: 'liteServer.masterchainInfoExt',
      mode,
      version: v.version,
      capabilities: v.capabilities,
      last: toTlBlockId(info.last),
      lastUtime: info.lastUtime,
      now: ctx.view.now(),
      stateRootHash: info.stateRootHash,
      init: { _: 'tonNode.zeroStateIdExt', ...info.init },
    };
  },

  'liteServer.getTime': async (_q, ctx) => ({ _: 'liteServer.currentTime', now: ctx.view.now() }),

  'liteServer.getVersion': async (_q, ctx) => {
    const v = version(ctx);
    return { _: 'liteServer.version', mode: 0, version: v.version, capabilities: v.capabilities, now: ctx.view.now() };
  },

  'liteServer.sendMessage': async (q, ctx) => {
    if (!ctx.view.sendMessage) throw badRequest('cannot apply external message to current state : not supported');
    try {
      await ctx.view.sendMessage(q.body);
    } catch (e) {
      if (e instanceof LiteServerError) {
        throw new LiteServerError(e.liteCode, `cannot apply external message to current state : ${e.message}`);
      }
      throw e;
    }
    return { _: 'liteServer.sendMsgStatus', status: 1 };
  },

  'liteServer.nonfinal.getPendingShardBlocks': async (q, ctx) => {
    const pending = (await ctx.view.pendingShardBlocks?.()) ?? { signedBlocks: [], candidates: [] };
    const keep = (id: { workchain: number; shard: bigint }) =>
      !(q.mode & 1) || (id.workchain === q.wc && shardIntersects(id.shard, toUnsigned64(q.shard ?? 0n)));
    return {
      _: 'liteServer.nonfinal.pendingShardBlocks',
      signedBlocks: pending.signedBlocks.filter(keep).map(toTlBlockId),
      candidates: pending.candidates.filter(keep).map(toTlBlockId),
    };
  },
};
