// The LiteClient-level methods tongate uses, written once over an "executor" that decides which server runs each
// call: the pool (round robin, retries) or a pinned server (withServer). Requests are built with ton-lite-client's
// generated codecs; answers that need real parsing (account state, shard list, config) go through a LiteClient
// created for that one attempt, so its caches (keyed without block hashes, ton-libs.md §1.5.8) never outlive it
// and never mix servers.

import type { MasterchainStateExtra } from '@ton/core';
import { type Address, type Cell, crc16 } from '@ton/core';
import type { AllShardsResponse, ClientAccountState } from 'ton-lite-client';
import { LiteClient, type LiteEngine } from 'ton-lite-client';
import {
  Functions,
  type liteServer_blockHeader,
  type liteServer_blockTransactions,
  type liteServer_configInfo,
  type liteServer_libraryResult,
  type liteServer_masterchainInfo,
  type liteServer_masterchainInfoExt,
  type liteServer_transactionId3,
  type liteServer_transactionInfo,
  type tonNode_blockIdExt,
} from 'ton-lite-client/dist/schema.js';
import { CodecError, InputError, isTongateError, ProofError } from '../../common/index.ts';
import { parseBoc } from '../../ton/index.ts';
import {
  decodeTl,
  encodeTl,
  type TlFunctionObject,
  type TlObject,
  type TlResultOf,
  tlConstructor,
} from '../tl/index.ts';
import type { TlFunction } from './tl-buffer.ts';

/** Per-request options. */
export interface LiteRequestOptions {
  /** Whole-request deadline (all attempts); default the pool's requestTimeoutMs. */
  timeoutMs?: number;
  /** Ask the server to wait until it has this masterchain seqno (liteServer.waitMasterchainSeqno prefix). */
  awaitSeqno?: number;
  /** History request: start on archive servers (falls back to any server if none is available). */
  archive?: boolean;
}

/** What one attempt on one server can do. Queries share the attempt's deadline. */
export interface AttemptContext {
  readonly server: string;
  query<REQ, RES>(fn: TlFunction<REQ, RES>, req: REQ, method?: string): Promise<RES>;
  queryRaw(body: Buffer, method?: string): Promise<Buffer>;
  /** A ton-lite-client LiteClient whose every query goes to this server within this attempt's deadline. */
  liteClient(): LiteClient;
}

export type Executor = <T>(
  method: string,
  run: (ctx: AttemptContext) => Promise<T>,
  opts?: LiteRequestOptions,
) => Promise<T>;

/** A block id as callers hold it: shard as bigint (signed or unsigned form) or as ton-lite-client's decimal string. */
export interface BlockRef {
  workchain: number;
  shard: bigint | string;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export type BlockLookupQuery =
  | { workchain: number; shard: bigint | string; seqno: number }
  | { workchain: number; shard: bigint | string; lt: bigint }
  | { workchain: number; shard: bigint | string; utime: number };

export interface ListBlockTransactionsArgs {
  /** TL mode bits 0..2 (account, lt, hash) and 8; bits 5, 6, 7 are set from the fields below. Default 7. */
  mode?: number;
  /** At most 256 per answer; default 40. */
  count?: number;
  after?: { account: Buffer; lt: bigint | string };
  reverseOrder?: boolean;
  wantProof?: boolean;
}

export interface BlockData {
  id: tonNode_blockIdExt;
  /** The block file as the server sent it. */
  data: Buffer;
  /** The Block root cell, hash-checked against the requested root hash; null with `verify: false`. */
  root: Cell | null;
}

export interface RunMethodResult {
  exitCode: number;
  /** VmStack BoC (mode 4), null if the server sent none. */
  result: Buffer | null;
  block: tonNode_blockIdExt;
  shardBlock: tonNode_blockIdExt;
}

export interface LiteMethods {
  getMasterchainInfo(opts?: LiteRequestOptions): Promise<liteServer_masterchainInfo>;
  getMasterchainInfoExt(opts?: LiteRequestOptions): Promise<liteServer_masterchainInfoExt>;
  getTime(opts?: LiteRequestOptions): Promise<number>;
  lookupBlock(lookup: BlockLookupQuery, opts?: LiteRequestOptions): Promise<liteServer_blockHeader>;
  /** mode 1 (with state update) by default, as ton-lite-client sends it. */
  getBlockHeader(block: BlockRef, opts?: LiteRequestOptions & { mode?: number }): Promise<liteServer_blockHeader>;
  /**
   * The block's BoC file. Its root hash is checked against `block.rootHash` (ProofError, then another server, if
   * it differs); the parsed root comes back so callers do not parse the bytes a second time. `verify: false`
   * skips the parse (a large block costs a few hundred ms of CPU in @ton/core cells) and returns `root: null`.
   */
  getBlock(block: BlockRef, opts?: LiteRequestOptions & { verify?: boolean }): Promise<BlockData>;
  getAllShardsInfo(block: BlockRef, opts?: LiteRequestOptions): Promise<AllShardsResponse>;
  listBlockTransactions(
    block: BlockRef,
    args?: ListBlockTransactionsArgs,
    opts?: LiteRequestOptions,
  ): Promise<liteServer_blockTransactions>;
  getAccountState(address: Address, block: BlockRef, opts?: LiteRequestOptions): Promise<ClientAccountState>;
  /** Get-method by name or numeric id, mode 4 (result only); `params` is a VmStack BoC. */
  runMethod(
    address: Address,
    method: string | number,
    params: Buffer,
    block: BlockRef,
    opts?: LiteRequestOptions,
  ): Promise<RunMethodResult>;
  /** Up to `count` (≤16 per server answer) transactions ending at (lt, hash), newest first, as one multi-root BoC. */
  getTransactions(
    address: Address,
    lt: bigint | string,
    hash: Buffer,
    count: number,
    opts?: LiteRequestOptions,
  ): Promise<{ ids: tonNode_blockIdExt[]; transactions: Buffer }>;
  getOneTransaction(
    address: Address,
    lt: bigint | string,
    block: BlockRef,
    opts?: LiteRequestOptions,
  ): Promise<liteServer_transactionInfo>;
  sendMessage(boc: Buffer, opts?: LiteRequestOptions): Promise<{ status: number }>;
  /** McStateExtra of the block's state as ton-lite-client parses it (see ton-libs.md §4.3 for its limits). */
  getConfig(block: BlockRef, opts?: LiteRequestOptions): Promise<MasterchainStateExtra>;
  /** The raw liteServer.configInfo (state and config proofs), mode 0 unless given. */
  getConfigAll(block: BlockRef, opts?: LiteRequestOptions & { mode?: number }): Promise<liteServer_configInfo>;
  getLibraries(hashes: Buffer[], opts?: LiteRequestOptions): Promise<liteServer_libraryResult>;
  /** Any function of ton-lite-client's schema (`Functions.liteServer_x`), e.g. getShardInfo, getBlockProof. */
  query<REQ, RES>(fn: TlFunction<REQ, RES>, req: REQ, opts?: LiteRequestOptions & { method?: string }): Promise<RES>;
  /**
   * Any lite_api function as our own TL object (src/lite/tl: current schema, bigint longs), e.g.
   * `{ _: 'liteServer.getOutMsgQueueSizes', mode: 0 }`; the answer is decoded and must be of the function's type.
   */
  queryTl<F extends TlFunctionObject>(fn: F, opts?: LiteRequestOptions): Promise<TlResultOf<F['_']>>;
  /** A boxed lite_api function encoded by any codec; returns the boxed answer bytes. */
  queryRaw(body: Buffer, opts?: LiteRequestOptions & { method?: string }): Promise<Buffer>;
}

/** Signed decimal, as ton-lite-client's codecs want 64-bit shard ids. */
export function shardToString(shard: bigint | string): string {
  try {
    return BigInt.asIntN(64, BigInt(shard)).toString();
  } catch {
    throw new InputError(`shard: expected a 64-bit integer, got ${JSON.stringify(String(shard))}`);
  }
}

export function toBlockIdExt(b: BlockRef): tonNode_blockIdExt {
  if (b.rootHash?.length !== 32 || b.fileHash?.length !== 32) {
    throw new InputError(`block ${b.workchain}:${String(b.shard)}:${b.seqno}: expected 32-byte root and file hashes`);
  }
  return {
    kind: 'tonNode.blockIdExt',
    workchain: b.workchain,
    shard: shardToString(b.shard),
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
  };
}

/** A 64-bit TL `long` as ton-lite-client's codecs want it (decimal string). */
function toLong(v: bigint | string | number, what: string): string {
  try {
    const n = BigInt(v);
    if (n >= -(2n ** 63n) && n < 2n ** 64n) return n.toString();
  } catch {
    // reported below
  }
  throw new InputError(`${what}: expected a 64-bit integer, got ${JSON.stringify(String(v))}`);
}

/** Get-method id as the node computes it: (crc16(name) & 0xffff) | 0x10000. */
export function methodId(name: string): number {
  return (crc16(Buffer.from(name, 'utf8')).readUInt16BE(0) & 0xffff) | 0x10000;
}

function accountId(a: Address) {
  return { kind: 'liteServer.accountId' as const, workchain: a.workChain, id: a.hash };
}

/** Errors thrown by ton-lite-client's parsers mean the server's answer was malformed: another server may do better. */
async function parsed<T>(method: string, server: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isTongateError(e)) throw e;
    throw new CodecError(
      `${method}: the answer of liteserver ${server} could not be parsed: ${(e as Error)?.message}`,
      {
        cause: e,
        details: { server, method },
      },
    );
  }
}

function sameId(a: tonNode_blockIdExt, b: tonNode_blockIdExt): boolean {
  return (
    a.workchain === b.workchain &&
    shardToString(a.shard) === shardToString(b.shard) &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

export function createLiteMethods(exec: Executor): LiteMethods {
  return {
    getMasterchainInfo: (opts) =>
      exec(
        'getMasterchainInfo',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getMasterchainInfo,
            { kind: 'liteServer.getMasterchainInfo' },
            'getMasterchainInfo',
          ),
        opts,
      ),

    getMasterchainInfoExt: (opts) =>
      exec(
        'getMasterchainInfoExt',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getMasterchainInfoExt,
            { kind: 'liteServer.getMasterchainInfoExt', mode: 0 },
            'getMasterchainInfoExt',
          ),
        opts,
      ),

    getTime: (opts) =>
      exec(
        'getTime',
        async (ctx) => (await ctx.query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' }, 'getTime')).now,
        opts,
      ),

    lookupBlock: async (lookup, opts) => {
      const shard = shardToString(lookup.shard);
      let mode: number;
      let lt: string | null = null;
      let utime: number | null = null;
      let seqno = 0;
      if ('seqno' in lookup) {
        mode = 1;
        seqno = lookup.seqno;
      } else if ('lt' in lookup) {
        mode = 2;
        lt = toLong(lookup.lt, 'lookupBlock lt');
      } else {
        // ton-lite-client's encoder skips a flagged field whose value is falsy (ton-libs.md §1.5.6): utime 0
        // would go out as a malformed request.
        if (!Number.isInteger(lookup.utime) || lookup.utime <= 0) {
          throw new InputError(`lookupBlock: expected a positive unix time, got ${lookup.utime}`);
        }
        mode = 4;
        utime = lookup.utime;
      }
      return exec(
        'lookupBlock',
        (ctx) =>
          ctx.query(
            Functions.liteServer_lookupBlock,
            {
              kind: 'liteServer.lookupBlock',
              mode,
              id: { kind: 'tonNode.blockId', workchain: lookup.workchain, shard, seqno },
              lt,
              utime,
            },
            'lookupBlock',
          ),
        opts,
      );
    },

    getBlockHeader: async (block, opts) => {
      const id = toBlockIdExt(block);
      return exec(
        'getBlockHeader',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getBlockHeader,
            { kind: 'liteServer.getBlockHeader', id, mode: opts?.mode ?? 1 },
            'getBlockHeader',
          ),
        opts,
      );
    },

    getBlock: async (block, opts) => {
      const id = toBlockIdExt(block);
      return exec(
        'getBlock',
        async (ctx) => {
          const res = await ctx.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id }, 'getBlock');
          if (!sameId(res.id, id)) {
            throw new ProofError(
              `getBlock: liteserver ${ctx.server} answered for another block (seqno ${res.id.seqno})`,
              {
                details: { server: ctx.server, method: 'getBlock' },
              },
            );
          }
          if (opts?.verify === false) return { id: res.id, data: res.data, root: null };
          let root: Cell | undefined;
          try {
            root = parseBoc(res.data)[0];
          } catch (e) {
            throw new CodecError(`getBlock: liteserver ${ctx.server} sent block data that is not a valid BoC`, {
              cause: e,
              details: { server: ctx.server, method: 'getBlock' },
            });
          }
          if (!root?.hash().equals(id.rootHash)) {
            throw new ProofError(
              `getBlock: expected block root hash ${id.rootHash.toString('hex')}, liteserver ${ctx.server} sent ` +
                `${root?.hash().toString('hex') ?? 'no root'}`,
              { details: { server: ctx.server, method: 'getBlock' } },
            );
          }
          return { id: res.id, data: res.data, root };
        },
        opts,
      );
    },

    getAllShardsInfo: async (block, opts) => {
      const id = toBlockIdExt(block);
      return exec(
        'getAllShardsInfo',
        (ctx) => parsed('getAllShardsInfo', ctx.server, () => ctx.liteClient().getAllShardsInfo(id)),
        opts,
      );
    },

    listBlockTransactions: async (block, args = {}, opts) => {
      const id = toBlockIdExt(block);
      const count = args.count ?? 40;
      if (!Number.isInteger(count) || count < 1 || count > 256) {
        throw new InputError(`listBlockTransactions: expected count in 1..256, got ${count}`);
      }
      // reverse_order and want_proof are `?true` flags (no payload). ton-lite-client's encoder would write a
      // 4-byte Bool for them (ton-libs.md §1.5.6), so we set only the mode bits and pass null.
      let mode = (args.mode ?? 7) & ~(32 | 64 | 128);
      if (args.wantProof) mode |= 32;
      if (args.reverseOrder) mode |= 64;
      let after: liteServer_transactionId3 | null = null;
      if (args.after) {
        mode |= 128;
        after = {
          kind: 'liteServer.transactionId3',
          account: args.after.account,
          lt: toLong(args.after.lt, 'listBlockTransactions after.lt'),
        };
      }
      return exec(
        'listBlockTransactions',
        (ctx) =>
          ctx.query(
            Functions.liteServer_listBlockTransactions,
            {
              kind: 'liteServer.listBlockTransactions',
              id,
              mode,
              count,
              after,
              reverseOrder: null,
              wantProof: null,
            },
            'listBlockTransactions',
          ),
        opts,
      );
    },

    getAccountState: async (address, block, opts) => {
      const id = toBlockIdExt(block);
      return exec(
        'getAccountState',
        (ctx) => parsed('getAccountState', ctx.server, () => ctx.liteClient().getAccountStateRaw(address, id)),
        opts,
      );
    },

    runMethod: async (address, method, params, block, opts) => {
      const id = toBlockIdExt(block);
      const mid = typeof method === 'number' ? method : methodId(method);
      return exec(
        'runMethod',
        async (ctx) => {
          const res = await ctx.query(
            Functions.liteServer_runSmcMethod,
            {
              kind: 'liteServer.runSmcMethod',
              mode: 4,
              id,
              account: accountId(address),
              methodId: BigInt(mid).toString(),
              params,
            },
            'runMethod',
          );
          return { exitCode: res.exitCode, result: res.result, block: res.id, shardBlock: res.shardblk };
        },
        opts,
      );
    },

    getTransactions: async (address, lt, hash, count, opts) => {
      const from = toLong(lt, 'getTransactions lt');
      return exec(
        'getTransactions',
        async (ctx) => {
          const res = await ctx.query(
            Functions.liteServer_getTransactions,
            {
              kind: 'liteServer.getTransactions',
              count,
              account: accountId(address),
              lt: from,
              hash,
            },
            'getTransactions',
          );
          return { ids: res.ids, transactions: res.transactions };
        },
        opts,
      );
    },

    getOneTransaction: async (address, lt, block, opts) => {
      const id = toBlockIdExt(block);
      const at = toLong(lt, 'getOneTransaction lt');
      return exec(
        'getOneTransaction',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getOneTransaction,
            { kind: 'liteServer.getOneTransaction', id, account: accountId(address), lt: at },
            'getOneTransaction',
          ),
        opts,
      );
    },

    sendMessage: (boc, opts) =>
      exec(
        'sendMessage',
        async (ctx) => {
          const res = await ctx.query(
            Functions.liteServer_sendMessage,
            { kind: 'liteServer.sendMessage', body: boc },
            'sendMessage',
          );
          return { status: res.status };
        },
        opts,
      ),

    getConfig: async (block, opts) => {
      const id = toBlockIdExt(block);
      return exec('getConfig', (ctx) => parsed('getConfig', ctx.server, () => ctx.liteClient().getConfig(id)), opts);
    },

    getConfigAll: async (block, opts) => {
      const id = toBlockIdExt(block);
      return exec(
        'getConfigAll',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getConfigAll,
            { kind: 'liteServer.getConfigAll', mode: opts?.mode ?? 0, id },
            'getConfigAll',
          ),
        opts,
      );
    },

    getLibraries: (hashes, opts) =>
      exec(
        'getLibraries',
        (ctx) =>
          ctx.query(
            Functions.liteServer_getLibraries,
            { kind: 'liteServer.getLibraries', libraryList: hashes },
            'getLibraries',
          ),
        opts,
      ),

    query: async (fn, req, opts) => {
      const method = opts?.method ?? functionName(fn);
      return exec(method, (ctx) => ctx.query(fn, req, method), opts);
    },

    queryTl: async <F extends TlFunctionObject>(fn: F, opts?: LiteRequestOptions) => {
      const method = fn._.replace(/^liteServer\./, '');
      let body: Buffer;
      try {
        body = encodeTl(fn);
      } catch (e) {
        throw new InputError(`${method}: the request could not be encoded: ${(e as Error).message}`, { cause: e });
      }
      const expected = tlConstructor(fn._)?.type;
      return exec(
        method,
        async (ctx) => {
          const answer = await ctx.queryRaw(body, method);
          let obj: TlObject;
          try {
            obj = decodeTl(answer);
          } catch (e) {
            throw new CodecError(
              `${method}: liteserver ${ctx.server} sent an answer that does not decode: ${(e as Error).message}`,
              {
                cause: e,
                details: { server: ctx.server, method },
              },
            );
          }
          if (tlConstructor(obj._)?.type !== expected) {
            throw new CodecError(`${method}: expected a ${expected} from liteserver ${ctx.server}, got ${obj._}`, {
              details: { server: ctx.server, method },
            });
          }
          return obj as TlResultOf<F['_']>;
        },
        opts,
      );
    },

    queryRaw: async (body, opts) => {
      const method = opts?.method ?? 'queryRaw';
      return exec(method, (ctx) => ctx.queryRaw(body, method), opts);
    },
  };
}

const FUNCTION_NAMES = new Map<unknown, string>(
  Object.entries(Functions).map(([key, fn]) => [fn, key.replace(/^liteServer_/, '')]),
);

/** 'getShardInfo' for Functions.liteServer_getShardInfo; 'query' for functions from elsewhere. */
export function functionName(fn: unknown): string {
  return FUNCTION_NAMES.get(fn) ?? 'query';
}

/** A LiteEngine (ton-lite-client's interface) that sends every query through one attempt context. */
export function createAttemptEngine(ctx: Pick<AttemptContext, 'query'>): LiteEngine {
  const engine = {
    query: <REQ, RES>(fn: TlFunction<REQ, RES>, req: REQ) => ctx.query(fn, req, functionName(fn)),
    close: () => {},
    isClosed: () => false,
    isReady: () => true,
    emit: () => false,
    on: () => engine,
    once: () => engine,
  };
  return engine as unknown as LiteEngine;
}

/** ton-lite-client's LiteClient over one attempt, with its caches switched off. */
export function createAttemptLiteClient(ctx: Pick<AttemptContext, 'query'>): LiteClient {
  const noCache = { get: () => undefined, set: () => noCache, delete: () => false, clear: () => {} };
  return new LiteClient({ engine: createAttemptEngine(ctx), batchSize: 1, cacheMap: () => noCache });
}
