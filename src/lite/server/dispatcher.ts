// From the bytes of an adnl.message.query to the bytes of its answer: unwrap liteServer.query (or the legacy
// liteServer.queryPrefix form), honour a liteServer.waitMasterchainSeqno prefix, run the function's handler
// and encode its result, or a liteServer.error with the node's code (validator/manager.cpp run_ext_query and
// validator/impl/liteserver.cpp). Nothing a client sends can make it throw: every failure is an answer.
import { LiteServerError, TongateError } from '../../common/index.ts';
import type { Log } from '../../common/logger.ts';
import {
  decodeTl,
  decodeTlPrefix,
  encodeTl,
  type TlFunctionName,
  type TlObject,
  type TlObjectByName,
  tlConstructorId,
} from '../tl/index.ts';
import { accountHandlers } from './accounts.ts';
import { blockHandlers } from './blocks.ts';
import { chainProofHandlers } from './chain-proofs.ts';
import type { ChainView } from './chain-view.ts';
import { configHandlers } from './config.ts';
import type { Handler, HandlerContext, HandlerTable } from './handler-context.ts';
import { badRequest, LITE_BAD_REQUEST, LITE_TIMEOUT, LITE_UNKNOWN_QUERY } from './lite-errors.ts';
import { miscHandlers } from './misc.ts';
import { queueHandlers } from './queues.ts';
import { transactionHandlers } from './transactions.ts';

export interface LiteDispatcherOptions {
  log?: Log<'debug' | 'info' | 'warn'>;
  /** Deadline of one query once it runs (the node's default_timeout_msec: 4.5 s). */
  queryTimeoutMs?: number;
  /** Longest waitMasterchainSeqno wait, whatever timeout_ms asks for (default 10 s). */
  maxWaitMs?: number;
  /** Answers above this are refused with -400 (a client drops packets over 16 MiB). Default 16 MiB - 64 KiB. */
  maxAnswerBytes?: number;
}

export interface LiteQueryContext {
  /** Aborted when the client's connection closes: waits stop, the answer is dropped. */
  signal?: AbortSignal;
  connectionId?: number;
  remote?: string;
}

export type LiteDispatcher = (query: Buffer, ctx?: LiteQueryContext) => Promise<Buffer>;

/** Every liteServer.* function of lite_api.tl and its handler. */
export const LITE_HANDLERS: HandlerTable = {
  ...miscHandlers,
  ...blockHandlers,
  ...transactionHandlers,
  ...accountHandlers,
  ...configHandlers,
  ...queueHandlers,
  ...chainProofHandlers,
};

const ID_QUERY = tlConstructorId('liteServer.query') >>> 0;
const ID_QUERY_PREFIX = tlConstructorId('liteServer.queryPrefix') >>> 0;
const ID_WAIT = tlConstructorId('liteServer.waitMasterchainSeqno') >>> 0;

const handlerById = new Map<number, TlFunctionName>();
for (const name of Object.keys(LITE_HANDLERS) as TlFunctionName[]) handlerById.set(tlConstructorId(name) >>> 0, name);

export function createLiteDispatcher(view: ChainView, opts: LiteDispatcherOptions = {}): LiteDispatcher {
  const log: Log<'debug' | 'info' | 'warn'> = opts.log ?? (() => {});
  const queryTimeoutMs = opts.queryTimeoutMs ?? 4500;
  const maxWaitMs = opts.maxWaitMs ?? 10_000;
  const maxAnswerBytes = opts.maxAnswerBytes ?? 16 * 1024 * 1024 - 64 * 1024;

  const errorAnswer = (code: number, message: string): Buffer => encodeTl({ _: 'liteServer.error', code, message });

  return async (query, qctx = {}) => {
    let fn: TlFunctionName | undefined;
    try {
      const data = unwrap(query);
      const { body, wait } = splitWait(data);
      if (wait) await waitFor(view, wait.seqno, Math.min(Math.max(wait.timeoutMs, 0), maxWaitMs), qctx.signal);
      const call = decodeFunction(body);
      fn = call._;
      const handler = LITE_HANDLERS[fn] as Handler<typeof fn> | undefined;
      if (!handler) throw new LiteServerError(LITE_UNKNOWN_QUERY, 'unknown query');
      const result = await withDeadline(queryTimeoutMs, qctx.signal, (signal) =>
        handler(call as never, { view, log, signal } satisfies HandlerContext),
      );
      const answer = encodeTl(result as TlObject);
      if (answer.length > maxAnswerBytes) {
        return errorAnswer(
          LITE_BAD_REQUEST,
          `answer too large: ${answer.length} bytes, the limit is ${maxAnswerBytes}`,
        );
      }
      return answer;
    } catch (e) {
      if (e instanceof LiteServerError) {
        log('debug', 'Answered liteserver query with an error', { fn, code: e.liteCode, error: e.message });
        return errorAnswer(e.liteCode, e.message);
      }
      // Anything else is our bug or the view's: log it in full, answer without internals.
      log('warn', 'Failed liteserver query', { fn, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      const retryable = e instanceof TongateError && e.retryable;
      return errorAnswer(
        retryable ? LITE_TIMEOUT : LITE_BAD_REQUEST,
        `cannot process ${fn ?? 'query'}: internal error`,
      );
    }
  };
}

/** liteServer.query data:bytes, or the legacy liteServer.queryPrefix followed by the function itself. */
function unwrap(query: Buffer): Buffer {
  const id = query.length >= 4 ? query.readUInt32LE(0) : undefined;
  if (id === ID_QUERY_PREFIX) return query.subarray(4);
  if (id !== ID_QUERY) throw badRequest(`expected liteServer.query, got constructor ${hexId(id)}`);
  let q: TlObject;
  try {
    q = decodeTl(query);
  } catch (e) {
    throw badRequest(`cannot parse liteServer.query: ${(e as Error).message}`);
  }
  return (q as TlObjectByName['liteServer.query']).data;
}

function splitWait(data: Buffer): { body: Buffer; wait: { seqno: number; timeoutMs: number } | null } {
  if (data.length < 4 || data.readUInt32LE(0) !== ID_WAIT) return { body: data, wait: null };
  try {
    const { value, rest } = decodeTlPrefix(data);
    const w = value as TlObjectByName['liteServer.waitMasterchainSeqno'];
    return { body: rest, wait: { seqno: w.seqno, timeoutMs: w.timeoutMs } };
  } catch (e) {
    throw badRequest(`cannot parse liteServer.waitMasterchainSeqno: ${(e as Error).message}`);
  }
}

function decodeFunction(body: Buffer): TlObjectByName[TlFunctionName] {
  const id = body.length >= 4 ? body.readUInt32LE(0) : undefined;
  const name = id === undefined ? undefined : handlerById.get(id);
  if (!name) throw new LiteServerError(LITE_UNKNOWN_QUERY, 'unknown query');
  try {
    return decodeTl(body) as TlObjectByName[TlFunctionName];
  } catch (e) {
    throw badRequest(`cannot parse ${name}: ${(e as Error).message}`);
  }
}

async function waitFor(
  view: ChainView,
  seqno: number,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<void> {
  const info = await view.masterchainInfo().catch(() => null);
  if (info && info.last.seqno >= seqno) return;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  const unfollow = follow(outer, ac);
  try {
    await view.waitMasterchainSeqno(seqno, ac.signal);
  } catch (e) {
    if (ac.signal.aborted) throw new LiteServerError(LITE_TIMEOUT, `timeout waiting for masterchain block ${seqno}`);
    throw e;
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/** Runs `fn` with a signal that aborts at the deadline or with `outer`; a missed deadline is -503 "timeout". */
async function withDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const unfollow = follow(outer, ac);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ac.abort();
      reject(new LiteServerError(LITE_TIMEOUT, 'timeout'));
    }, ms);
  });
  try {
    return await Promise.race([fn(ac.signal), deadline]);
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/**
 * The running queries' controllers of each outer signal, behind a single 'abort' listener. Every query of one
 * ADNL connection gets that connection's signal: one listener per query would put hundreds on it under load,
 * and Node warns past 10 (MaxListenersExceededWarning).
 */
const followers = new WeakMap<AbortSignal, { controllers: Set<AbortController>; onAbort: () => void }>();

/** Aborts `ac` when `outer` aborts, until the returned function is called (then `outer` is as it was). */
function follow(outer: AbortSignal | undefined, ac: AbortController): () => void {
  if (!outer) return () => {};
  if (outer.aborted) {
    ac.abort();
    return () => {};
  }
  let entry = followers.get(outer);
  if (!entry) {
    const controllers = new Set<AbortController>();
    const onAbort = () => {
      followers.delete(outer);
      for (const c of controllers) c.abort();
    };
    entry = { controllers, onAbort };
    followers.set(outer, entry);
    outer.addEventListener('abort', onAbort, { once: true });
  }
  const { controllers, onAbort } = entry;
  controllers.add(ac);
  return () => {
    controllers.delete(ac);
    if (controllers.size > 0 || followers.get(outer)?.controllers !== controllers) return;
    followers.delete(outer);
    outer.removeEventListener('abort', onAbort);
  };
}

function hexId(id: number | undefined): string {
  return id === undefined ? '(none: fewer than 4 bytes)' : `0x${id.toString(16).padStart(8, '0')}`;
}
