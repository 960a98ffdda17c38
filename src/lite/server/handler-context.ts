// What every handler gets, and the loads they share (the node's request_block_data / request_block_state).
import type { Cell } from '@ton/core';
import type { Log } from '../../common/logger.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import type { TlFunctionName, TlObjectByName, TlResultOf } from '../tl/index.ts';
import type { BlockRecord, ChainView } from './chain-view.ts';
import { formatBlockId, isValidFull } from './ids.ts';
import { badRequest, notFound } from './lite-errors.ts';

export interface HandlerContext {
  view: ChainView;
  log: Log<'debug' | 'info' | 'warn'>;
  /** Aborted when the client's connection closes or the query's deadline passes. */
  signal: AbortSignal;
}

export type Handler<F extends TlFunctionName> = (q: TlObjectByName[F], ctx: HandlerContext) => Promise<TlResultOf<F>>;
export type HandlerTable = { [F in TlFunctionName]?: Handler<F> };

export async function loadBlock(ctx: HandlerContext, id: BlockIdExt): Promise<BlockRecord> {
  if (!isValidFull(id)) throw badRequest(`invalid block id ${formatBlockId(id)}`);
  const rec = await ctx.view.block(id);
  if (!rec) throw notFound(`cannot load block ${formatBlockId(id)} : not in db`);
  if (!rec.root.hash(0).equals(id.rootHash)) {
    throw badRequest(`block ${formatBlockId(id)}: the stored root hash is ${rec.root.hash(0).toString('hex')}`);
  }
  return rec;
}

export async function loadState(ctx: HandlerContext, id: BlockIdExt): Promise<Cell> {
  const state = await ctx.view.shardState(id);
  if (!state) throw notFound(`cannot load state for ${formatBlockId(id)} : not in db`);
  return state;
}

/** request_mc_block_data: the reference block must be a valid masterchain block id. */
export function requireMasterchainId(id: BlockIdExt): void {
  if (id.workchain !== -1 || id.shard !== 0x8000000000000000n || !isValidFull(id)) {
    throw badRequest('reference block must belong to the masterchain');
  }
}
