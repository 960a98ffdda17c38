// toncenter's v2-style methods of v3 (v3-api.md §3.11): /addressInformation (/account), /walletInformation (/wallet),
// POST /message, /runGetMethod, /estimateFee. toncenter proxies them to a ton-http-api; we call our own v2 functions
// (src/api/v2/methods) on the v2 context, so both APIs read the chain through the same pool, cache and emulator.
// The two GETs answer from the index by default (toncenter's code default use_v2=false; its swagger says true) and
// from the liteserver pool with use_v2=true. The POSTs exist only when the deployment has a pool.
//
// Deviations, all toward clearer errors: a missing required field is 401 as toncenter answers it (v3-api.md §2.10),
// but every other error of the v2 functions keeps v2's status (bad input 400/422, liteserver trouble 5xx) where
// toncenter turns most of them into 500; an unsupported stack entry type is 422 (toncenter: 500).
import { Address } from '@ton/core';
import type { FastifyRequest } from 'fastify';
import { CodecError } from '../../../common/index.ts';
import { HttpError } from '../../../http/errors.ts';
import { parseAddress, parseV3Stack, toV3Stack } from '../../../ton/index.ts';
import {
  accountAt,
  describeV2Error,
  estimateFeeOf,
  rawFullAccountStateV2,
  runGetMethodWith,
  sendExternalMessage,
  type V2Context,
  V2Params,
  walletInformationV2,
} from '../../v2/shared.ts';
import type { V3Context, V3RouteGroup } from '../context.ts';
import { boolParam, invalid, oneParam, parseAddressParam, type Query } from '../params.ts';
import { type AccountStateRow, asAccountStateRow } from '../render/account.ts';
import {
  addressInformationFromRow,
  addressInformationFromV2,
  estimateFeeJson,
  unknownAccountInformation,
  unknownWalletInformation,
  walletInformationFromRow,
  walletInformationFromV2,
} from '../render/legacy.ts';
import { parseWalletState } from '../wallet-state.ts';
import { latestStatesQuery } from './accounts.ts';

/** toncenter's status for a missing required field of these methods. */
const MISSING = 401;

/** `address` of the two GETs, normalised to the raw form. */
function accountParam(q: Query): string {
  const v = oneParam(q, 'address');
  if (v === undefined) throw new HttpError(MISSING, 'address of account is required');
  return parseAddressParam(v, 'address');
}

/** The v2 context, or the reason use_v2 cannot be honoured here. */
function poolFor(ctx: V3Context): V2Context {
  if (!ctx.v2) throw new HttpError(501, 'use_v2=true needs a liteserver pool, and this server has none');
  return ctx.v2;
}

/** Runs v2 code; its errors keep v2's status and wording (liteserver errors in tonlib's words, as v2 sends them). */
async function viaV2<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const m = describeV2Error(e);
    throw new HttpError(m.status, m.message, { cause: e });
  }
}

/**
 * Only the masterchain and the basechain hold accounts. A liteserver asked about another workchain fails with a
 * server error (a 500 through v2), so such an address is refused up front as bad input. Text that is no address
 * at all is left to the v2 function, which words the error as toncenter does.
 */
function requireAccountWorkchain(text: string): void {
  let workchain: number;
  try {
    workchain = parseAddress(text).address.workChain;
  } catch {
    return;
  }
  if (workchain !== 0 && workchain !== -1)
    throw invalid(`invalid address in address: workchain ${workchain} holds no accounts (only -1 and 0 do)`);
}

/** The account at the head of the chain, read as v2 reads it (one pinned liteserver, the shared response cache). */
function chainAccount(v2: V2Context, raw: string) {
  requireAccountWorkchain(raw);
  return viaV2(() => accountAt(v2, new V2Params({}, 'get'), Address.parseRaw(raw), undefined));
}

async function indexedAccount(ctx: V3Context, req: FastifyRequest, raw: string): Promise<AccountStateRow | undefined> {
  const { sql, params } = latestStatesQuery([raw], [], true);
  const rows = await ctx.query(req, sql, params);
  return rows[0] === undefined ? undefined : asAccountStateRow(rows[0]);
}

/** The JSON body as an object (absent = empty); toncenter's body parser refuses anything else with 422. */
function jsonBody(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null || b === '') return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw invalid('request body must be a JSON object');
  return b as Record<string, unknown>;
}

function bodyString(b: Record<string, unknown>, name: string): string | undefined {
  const v = b[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`${name} must be a string`);
  return v;
}

function bodyBool(b: Record<string, unknown>, name: string): boolean | undefined {
  const v = b[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalid(`${name} must be a boolean`);
  return v;
}

export const legacyRoutes: V3RouteGroup = (app, ctx) => {
  const addressInformation = async (req: FastifyRequest) => {
    const q = req.query as Query;
    const raw = accountParam(q);
    if (boolParam(q, 'use_v2') ?? false) {
      // `suspended` (the second argument) is not part of the v3 answer.
      return addressInformationFromV2(rawFullAccountStateV2(await chainAccount(poolFor(ctx), raw), false));
    }
    const row = await indexedAccount(ctx, req, raw);
    return row === undefined ? unknownAccountInformation() : addressInformationFromRow(row);
  };
  app.get('/addressInformation', addressInformation);
  app.get('/account', addressInformation);

  const walletInformation = async (req: FastifyRequest) => {
    const q = req.query as Query;
    const raw = accountParam(q);
    let info: ReturnType<typeof walletInformationFromRow>;
    if (boolParam(q, 'use_v2') ?? false) {
      info = walletInformationFromV2(walletInformationV2(await chainAccount(poolFor(ctx), raw)));
    } else {
      const row = await indexedAccount(ctx, req, raw);
      if (row === undefined) return unknownWalletInformation();
      info = walletInformationFromRow(row, parseWalletState(row.code_hash, row.data_boc));
    }
    if (info === null) throw new HttpError(409, 'not a wallet');
    return info;
  };
  app.get('/walletInformation', walletInformation);
  app.get('/wallet', walletInformation);

  // Sending, get-methods and fees need the chain itself: without a pool these routes are not served (and not
  // documented in openapi.json).
  const v2 = ctx.v2;
  if (!v2) return;

  app.post('/message', async (req) => {
    const boc = bodyString(jsonBody(req), 'boc');
    if (boc === undefined || boc === '') throw new HttpError(MISSING, 'boc is required');
    const m = await viaV2(() => sendExternalMessage(new V2Params({ boc }, 'post'), v2));
    return { message_hash: m.hash.toString('base64'), message_hash_norm: m.hashNorm.toString('base64') };
  });

  app.post('/runGetMethod', async (req) => {
    const b = jsonBody(req);
    const address = bodyString(b, 'address');
    if (address === undefined || address === '') throw new HttpError(MISSING, 'address is required');
    requireAccountWorkchain(address);
    // A method name, or its numeric id as v2 takes it.
    const method = b.method;
    if (method === undefined || method === null || method === '') throw new HttpError(MISSING, 'method is required');
    if (typeof method !== 'string' && typeof method !== 'number') throw invalid('method must be a string');
    // toncenter forwards a missing stack as [].
    const p = new V2Params({ address, method, stack: b.stack ?? [] }, 'post');
    const { res } = await viaV2(() => runGetMethodWith(p, v2, parseV3Stack));
    try {
      return { gas_used: res.gasUsed, exit_code: res.exitCode, stack: toV3Stack(res.stack) };
    } catch (e) {
      // NaN, builders and continuations have no v3 form: toncenter's 501 "failed to decode api/v2 stack".
      if (e instanceof CodecError) throw new HttpError(501, `failed to decode api/v2 stack: ${e.message}`);
      throw e;
    }
  });

  app.post('/estimateFee', async (req) => {
    const b = jsonBody(req);
    const address = bodyString(b, 'address');
    if (address !== undefined) requireAccountWorkchain(address);
    const p = new V2Params(
      {
        address,
        body: bodyString(b, 'body'),
        init_code: bodyString(b, 'init_code'),
        init_data: bodyString(b, 'init_data'),
        // toncenter forwards its Go struct's zero value: an absent ignore_chksig is false here (v2's default is true).
        ignore_chksig: bodyBool(b, 'ignore_chksig') ?? false,
      },
      'post',
    );
    return estimateFeeJson(await viaV2(() => estimateFeeOf(p, v2)));
  });
};
