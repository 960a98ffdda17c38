// How the block, transaction and config methods read: through the response cache, on one liteserver, and
// blocks looked up the way ton-http-api-cpp resolves them.
//
// A chain of dependent reads (head, then something at the head) runs on one liteserver through withServer
// (style guide §6.7 anti-pattern 3); the pool repeats the whole chain on another server if that one fails.
import type { LiteMethods, LiteRequestOptions, TonNodeBlockIdExt } from '../../../lite/index.ts';
import { MC_SHARD_SIGNED } from '../../../ton/index.ts';
import { cachedAnswer } from '../cache.ts';
import type { V2Context } from '../context.ts';
import type { V2Params } from '../params.ts';
import { checkLookup, signedShard } from '../render/block.ts';
import { int32, seqnoParam } from './checks.ts';

/** A block id as our TL codec holds it (shard: signed 64-bit bigint). */
export type BlockIdTl = Omit<TonNodeBlockIdExt, '_'>;

export { MC_SHARD_SIGNED as MC_SHARD } from '../../../ton/index.ts';
/** Answers about a fixed block or transaction never change (issue 7). */
export const FOREVER = Number.POSITIVE_INFINITY;

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
  return seqno === undefined ? headBlock(c) : lookupBlock(c, { workchain: -1, shard: MC_SHARD_SIGNED, seqno });
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
