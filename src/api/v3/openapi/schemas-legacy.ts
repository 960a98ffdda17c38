// Request and response objects of the v2-style methods (v3-api.md §3.11), as OpenAPI 3.0 schemas merged into
// components.schemas by schemas.ts; the Schema type comes from primitives.ts. Names follow toncenter's
// document (V2AddressInformation, …) so clients generated from either find the same types.
import type { Schema } from './primitives.ts';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

const HASH = 'standard base64 (44 characters)';
const BOC = 'a base64 BoC';
const STATUS =
  'account status: from the index uninit, active, frozen or nonexist; with use_v2 the liteserver words uninitialized, active, frozen';

const fee = obj({
  in_fwd_fee: int('nanotons to import the inbound message'),
  storage_fee: int('nanotons of storage due since the account last paid'),
  gas_fee: int('nanotons of gas the message costs (0 when the contract would not accept it)'),
  fwd_fee: int('nanotons to forward the messages the contract sends'),
});

const stackEntry: Schema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['num', 'cell', 'slice', 'tuple', 'list'], description: 'entry type' },
    value: {
      description:
        'num: "0x…" hex string (or a decimal integer on input); cell, slice: ' +
        `${BOC}; tuple, list: an array of entries`,
    },
  },
  required: ['type', 'value'],
};

export const LEGACY_SCHEMAS: Record<string, Schema> = {
  V2AddressInformation: obj({
    balance: str('nanotons, decimal string'),
    code: nullable(str(`the account's code, ${BOC}; null without code`)),
    data: nullable(str(`the account's data, ${BOC}; null without data`)),
    last_transaction_lt: str('logical time of the last transaction, decimal string ("0" without one)'),
    last_transaction_hash: str(`hash of the last transaction, ${HASH} (all zero without one)`),
    frozen_hash: nullable(str(`state hash of a frozen account, ${HASH}; null otherwise`)),
    status: str(STATUS),
  }),
  V2WalletInformation: obj(
    {
      balance: str('nanotons, decimal string'),
      wallet_type: str('wallet version, e.g. "wallet v4 r2"; absent when the account is not a deployed wallet'),
      seqno: int('the wallet seqno; absent when not a deployed wallet'),
      wallet_id: int('the subwallet id; absent for v1/v2 wallets and non-wallets'),
      last_transaction_lt: str('logical time of the last transaction, decimal string'),
      last_transaction_hash: str(`hash of the last transaction, ${HASH}`),
      status: str(STATUS),
    },
    ['balance', 'last_transaction_lt', 'last_transaction_hash', 'status'],
  ),
  V2SendMessageRequest: obj({ boc: str(`the external message, ${BOC}`) }),
  V2SendMessageResult: obj({
    message_hash: str(`hash of the message cell, ${HASH}`),
    message_hash_norm: str(`normalised hash of the external message (TEP-467), ${HASH}`),
  }),
  V2StackEntry: stackEntry,
  V2RunGetMethodRequest: obj(
    {
      address: str('the contract, in any form'),
      method: str('get-method name, or its numeric id as a decimal string'),
      stack: { type: 'array', items: ref('V2StackEntry'), description: 'arguments, bottom first; [] when absent' },
    },
    ['address', 'method'],
  ),
  V2RunGetMethodResult: obj({
    gas_used: int('gas the get-method used'),
    exit_code: int('TVM exit code (0 and 1 are success; -13 for an account without code)'),
    stack: { type: 'array', items: ref('V2StackEntry'), description: 'the result stack, bottom first' },
  }),
  V2EstimateFeeRequest: obj(
    {
      address: str('the destination contract, in any form'),
      body: str(`the external message body, ${BOC}`),
      init_code: str(`code of a StateInit to deploy with the message, ${BOC}`),
      init_data: str(`data of that StateInit, ${BOC} (read only with init_code)`),
      ignore_chksig: {
        type: 'boolean',
        default: false,
        description: 'true: signature checks succeed whatever the signature (default false, as toncenter sends it)',
      },
    },
    ['address', 'body'],
  ),
  V2EstimatedFee: fee,
  V2EstimateFeeResult: obj({
    source_fees: ref('V2EstimatedFee'),
    destination_fees: { type: 'array', items: ref('V2EstimatedFee'), description: 'always empty for raw messages' },
  }),
};
