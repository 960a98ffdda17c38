// Route table entries of the v2-style methods (routes/legacy.ts, v3-api.md §3.11), merged into ROUTES by routes.ts.
// Kept apart so the main table does not grow with them; the entry types come from primitives.ts.
import { ADDRESS_PARAM, type ParamDoc, type RouteDoc, schemaRef } from './primitives.ts';

export const LEGACY_TAG = {
  name: 'Legacy',
  description:
    "toncenter's v2-style methods of v3: account and wallet information from the index (or the liteserver pool with " +
    'use_v2=true), get-methods, fee estimates and sending through the liteserver pool. A missing required field is 401, ' +
    'as toncenter answers it.',
};

/** Liteserver failures keep v2's statuses: 500 (the liteserver refused), 504 (timeout), 542 (no server). */
const POOL_ERRORS = [504, 542];
const CHAIN_ERRORS = [400, ...POOL_ERRORS];

const address: ParamDoc = {
  name: 'address',
  in: 'query',
  description: 'The account, in any form: raw (0:…), user-friendly (EQ…/UQ…) or url-safe. Missing: 401.',
  required: true,
  schema: ADDRESS_PARAM,
};
const useV2: ParamDoc = {
  name: 'use_v2',
  in: 'query',
  description:
    "false (default, toncenter's code default): the index's latest state; true: the chain's head state read through " +
    'the liteserver pool (501 when the server has none).',
  schema: { type: 'boolean', default: false },
};
const timeout: ParamDoc = {
  name: 'X-Timeout',
  in: 'header',
  description: 'Statement timeout in ms of the index read, at most the server cap; also accepted as x_timeout.',
  schema: { type: 'integer', format: 'int32', minimum: 1 },
};

function accountRoute(path: string, alias: string | null): RouteDoc {
  return {
    method: 'get',
    path,
    tag: LEGACY_TAG.name,
    summary: alias ? `Address information (alias of ${alias})` : 'Address information',
    description:
      'Balance, code, data, last transaction and status of an account. An account the index does not hold answers ' +
      'balance "0", status "uninit", last transaction lt "0" with a zero hash.',
    params: [address, useV2, timeout],
    response: schemaRef('V2AddressInformation'),
    errors: [501, ...POOL_ERRORS],
  };
}

function walletRoute(path: string, alias: string | null): RouteDoc {
  return {
    method: 'get',
    path,
    tag: LEGACY_TAG.name,
    summary: alias ? `Wallet information (alias of ${alias})` : 'Wallet information',
    description:
      'Wallet type, seqno and wallet id of a wallet v1r1 … v5r1, with its balance and last transaction. An uninit ' +
      'account answers without the wallet fields; any other account that is not a wallet is 409 "not a wallet".',
    params: [address, useV2, timeout],
    response: schemaRef('V2WalletInformation'),
    errors: [409, 501, ...POOL_ERRORS],
  };
}

export const LEGACY_ROUTES: RouteDoc[] = [
  accountRoute('/addressInformation', null),
  accountRoute('/account', '/addressInformation'),
  walletRoute('/walletInformation', null),
  walletRoute('/wallet', '/walletInformation'),
  {
    method: 'post',
    path: '/message',
    tag: LEGACY_TAG.name,
    summary: 'Send an external message',
    description:
      'Sends one inbound external message (a base64 BoC) to the network through the liteserver pool, as v2 ' +
      'sendBocReturnHash does, and answers its hash and normalised hash. Empty boc: 401; a BoC that is not one ' +
      'ext_in message: 400.',
    params: [],
    body: schemaRef('V2SendMessageRequest'),
    response: schemaRef('V2SendMessageResult'),
    errors: CHAIN_ERRORS,
  },
  {
    method: 'post',
    path: '/runGetMethod',
    tag: LEGACY_TAG.name,
    summary: 'Run a get-method',
    description:
      "Runs a get-method on the account's state at the chain's head. Stack entries in: num (hex or decimal), cell, " +
      'slice; out: num ("0x…"), cell (top-level slices come back as cells), tuple, list. A result holding NaN or a ' +
      'builder is 501. Missing address or method: 401.',
    params: [],
    body: schemaRef('V2RunGetMethodRequest'),
    response: schemaRef('V2RunGetMethodResult'),
    errors: [...CHAIN_ERRORS, 501, 533],
  },
  {
    method: 'post',
    path: '/estimateFee',
    tag: LEGACY_TAG.name,
    summary: 'Estimate the fees of an external message',
    description:
      "Emulates the external message (body, with an optional StateInit) on the account's state at the chain's " +
      'head and answers the fees it would cost, in nanotons.',
    params: [],
    body: schemaRef('V2EstimateFeeRequest'),
    response: schemaRef('V2EstimateFeeResult'),
    errors: CHAIN_ERRORS,
  },
];
