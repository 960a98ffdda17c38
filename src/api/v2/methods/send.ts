// sendBoc, sendBocReturnHash, estimateFee: POST only (v2-api.md §6.4).
// Sending follows toncenter 2.1: the BoC must be one inbound external message (tonlib's hash_norm needs it), and it
// goes to up to five liteservers at once; the first that accepts answers, an error comes back only if every one
// refused (the last refusal; the plugin words liteserver errors as tonlib does).
import type { Cell } from '@ton/core';
import { HttpError } from '../../../http/errors.ts';
import { messageFromCell, normalizedMessageHash, parseBoc } from '../../../ton/index.ts';
import type { ExternalMessage, V2Context } from '../context.ts';
import { estimateFees, type QueryFeesV2 } from '../emulate/fees.ts';
import type { V2Params } from '../params.ts';
import { accountAt, addressParam } from './accounts.ts';
import type { V2Method } from './types.ts';

const MAX_SEND_SERVERS = 5;
// td::base64_decode: standard alphabet, length a multiple of 4.
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A `bytes` parameter: "" when absent; standard base64 otherwise (types/bytes.cpp). */
function bytesParam(p: V2Params, name: string): Buffer {
  const v = p.raw(name);
  if (v === undefined) return Buffer.alloc(0);
  if (typeof v !== 'string') throw p.fail(`${name}: invalid base64 encoded bytes: expected a string`);
  if (!BASE64_RE.test(v)) throw p.fail(`${name}: invalid base64 encoded bytes: not standard base64`);
  return Buffer.from(v, 'base64');
}

/** One BoC root, as tonlib's std_boc_deserialize demands; its failure is tonlib's INVALID_BAG_OF_CELLS (400). */
function bocRoot(bytes: Buffer, what: string): Cell {
  let roots: Cell[];
  try {
    roots = parseBoc(bytes);
  } catch (e) {
    throw new HttpError(400, `INVALID_BAG_OF_CELLS: ${what} (${(e as Error).message})`);
  }
  if (roots.length !== 1)
    throw new HttpError(400, `INVALID_BAG_OF_CELLS: ${what} (expected one root, got ${roots.length})`);
  return roots[0]!;
}

/** The `boc` of a send call: one ext_in message (get_ext_in_msg_hash_norm's checks, as 400s). */
function externalParam(p: V2Params): ExternalMessage {
  const boc = bytesParam(p, 'boc');
  if (boc.length === 0) throw new HttpError(422, 'failed to validate request: empty boc');
  const root = bocRoot(boc, 'body');
  let hashNorm: Buffer | null;
  try {
    hashNorm = normalizedMessageHash(messageFromCell(root));
  } catch {
    throw new HttpError(400, 'Failed to unpack Message');
  }
  if (hashNorm === null) throw new HttpError(400, 'CommonMsgInfo tag is not ext_in_msg_info');
  return { boc, hash: root.hash(), hashNorm };
}

function shuffled<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

async function broadcast(ctx: V2Context, boc: Buffer): Promise<void> {
  const ids = shuffled(
    ctx.lite
      .health()
      .filter((s) => s.inRotation)
      .map((s) => s.id),
  ).slice(0, MAX_SEND_SERVERS);
  if (ids.length <= 1) {
    await ctx.lite.sendMessage(boc);
    return;
  }
  const errors: unknown[] = [];
  const attempts = ids.map((server) =>
    ctx.lite
      .withServer((c) => c.sendMessage(boc), { server, retry: false })
      .catch((e) => {
        errors.push(e);
        throw e;
      }),
  );
  try {
    await Promise.any(attempts);
  } catch {
    throw errors[errors.length - 1];
  }
}

/** Tells the deployment's hook about an accepted message; a failing hook is logged, the send stands. */
function announce(ctx: V2Context, m: ExternalMessage): void {
  const hook = ctx.onExternalMessage;
  if (!hook) return;
  const report = (err: unknown) =>
    ctx.logger?.warn({ err, hash: m.hash.toString('base64') }, 'onExternalMessage hook failed; the message was sent');
  try {
    // The hook type returns void, but an async function fits it too: its rejection must not go unhandled.
    const r: unknown = hook(m);
    if (r instanceof Promise) r.catch(report);
  } catch (err) {
    report(err);
  }
}

/**
 * The `boc` parameter sent to the network (sendBoc, sendBocReturnHash, v3 /message): one ext_in message, broadcast,
 * then announced to the onExternalMessage hook.
 */
export async function sendExternalMessage(p: V2Params, ctx: V2Context): Promise<ExternalMessage> {
  const m = externalParam(p);
  await broadcast(ctx, m.boc);
  announce(ctx, m);
  return m;
}

/** estimateFee's parameters (address, body, init_code, init_data, ignore_chksig) to tonlib's query.fees. */
export async function estimateFeeOf(p: V2Params, ctx: V2Context): Promise<QueryFeesV2> {
  const { address } = addressParam(p);
  const body = bocRoot(bytesParam(p, 'body'), 'body');
  const initCode = bytesParam(p, 'init_code');
  // As tonlib: init_data is read only when init_code is given, and must then be a BoC too.
  const init =
    initCode.length > 0
      ? { code: bocRoot(initCode, 'init_code'), data: bocRoot(bytesParam(p, 'init_data'), 'init_data') }
      : null;
  const ignoreChksig = p.optBool('ignore_chksig') ?? true;
  // Fees are estimated on the newest state, as tonlib's raw.createQuery reads it (no seqno parameter).
  const account = await accountAt(ctx, p, address, undefined);
  return estimateFees(ctx, account, body, init, ignoreChksig);
}

export const sendMethods: V2Method[] = [
  {
    name: 'sendBoc',
    verbs: 'post',
    async run(p, ctx) {
      await sendExternalMessage(p, ctx);
      return { '@type': 'ok' };
    },
  },
  {
    name: 'sendBocReturnHash',
    verbs: 'post',
    async run(p, ctx) {
      const m = await sendExternalMessage(p, ctx);
      return {
        '@type': 'raw.extMessageInfo',
        hash: m.hash.toString('base64'),
        hash_norm: m.hashNorm.toString('base64'),
      };
    },
  },
  {
    name: 'estimateFee',
    verbs: 'post',
    run: (p, ctx) => estimateFeeOf(p, ctx),
  },
];
