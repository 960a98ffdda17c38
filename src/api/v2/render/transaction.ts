// Transactions and messages of toncenter v2 (v2-api.md §5, §6.3) from the transaction cell, as tonlib builds them
// (TonlibClient.cpp ToRawTransactions) and ton-http-api-cpp 2.1 converts them (converters/transactions.hpp):
//   raw.transaction / raw.message     tonlib's form (getTransactionsStd, getBlockTransactionsExt):
//                                     message addresses are {"@type":"accountAddress","account_address":…}
//   raw.transactionExt                getBlockTransactionsExt items: raw.transaction + "account" (wc:UPPER-HEX)
//   ext.transaction / ext.message     getTransactions and tryLocate*: addresses as plain strings, "account", and
//                                     "message" (the decoded comment, or base64 of the body's root data + "\n")
// tonlib's rules kept here: ihr_fee is always 0 (the field is extra_flags since global version 12); fee =
// total_fees + the fwd_fee of every out message, storage_fee = the storage phase's fees, other_fee = the rest;
// a message address is url-safe bounceable, "" for none/extern/var; BoCs carry a CRC32-C and no index.
import type { Cell } from '@ton/core';
import { CodecError } from '../../../common/index.ts';
import { HttpError } from '../../../http/errors.ts';
import {
  encryptedComment,
  formatBocBase64,
  formatMsgAddressV2,
  formatRawAddress,
  type MessageView,
  type TransactionView,
  textCommentBytes,
  transactionFromCell,
  transactionView,
} from '../../../ton/index.ts';
import { b64 } from './block.ts';

function msgData(m: MessageView) {
  // tonlib's try_decode_messages: a body of at least 32 bits with op 0 (text) or 0x2167da4b (encrypted text)
  // whose tail reads as a snake string of whole bytes is text; anything else is the raw body and init state.
  const text = textCommentBytes(m.body);
  if (text) return { '@type': 'msg.dataText', text: text.toString('base64') } as const;
  const encrypted = encryptedComment(m.body);
  if (encrypted) return { '@type': 'msg.dataEncryptedText', text: encrypted.toString('base64') } as const;
  return {
    '@type': 'msg.dataRaw',
    body: formatBocBase64(m.body),
    init_state: m.initState ? formatBocBase64(m.initState) : '',
  } as const;
}

/**
 * ext.message's `message`: the text of a (decrypted or not) text message as it is, else the base64 of the body
 * root cell's data bits (padded with zero bits to whole bytes) followed by "\n", "" for an empty body
 * (ton-http-api-cpp keeps this for backward compatibility with the Python server).
 */
function messageText(m: MessageView, data: ReturnType<typeof msgData>): string {
  if (data['@type'] !== 'msg.dataRaw') return Buffer.from(data.text, 'base64').toString('utf8');
  const bits = m.body.bits;
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits.at(i)) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i % 8));
  return bytes.length === 0 ? '' : `${bytes.toString('base64')}\n`;
}

function extraCurrencies(m: MessageView) {
  return [...(m.valueExtraCurrencies ?? new Map<number, bigint>())]
    .sort((a, b) => a[0] - b[0])
    .map(([id, amount]) => ({ '@type': 'extraCurrency', id, amount: amount.toString() }));
}

/** The fields raw.message and ext.message share, with the two addresses as tonlib writes them. */
function messageFields(m: MessageView) {
  const data = msgData(m);
  return {
    hash: b64(m.hash),
    source: formatMsgAddressV2(m.source),
    destination: formatMsgAddressV2(m.destination),
    value: (m.value ?? 0n).toString(),
    extra_currencies: extraCurrencies(m),
    fwd_fee: (m.fwdFee ?? 0n).toString(),
    ihr_fee: '0',
    created_lt: (m.createdLt ?? 0n).toString(),
    body_hash: b64(m.bodyHash),
    msg_data: data,
  };
}

export function rawMessageJson(m: MessageView) {
  const f = messageFields(m);
  return {
    '@type': 'raw.message',
    ...f,
    source: { '@type': 'accountAddress', account_address: f.source },
    destination: { '@type': 'accountAddress', account_address: f.destination },
  };
}

export function extMessageJson(m: MessageView) {
  const f = messageFields(m);
  return { '@type': 'ext.message', ...f, message: messageText(m, f.msg_data) };
}

/** A transaction cell decoded once, with what every form needs. */
export interface DecodedTransaction {
  cell: Cell;
  view: TransactionView;
}

/** Decodes a transaction the liteserver sent; one that does not decode is the server's data, not the caller's. */
export function decodeTransaction(cell: Cell, workchain: number): DecodedTransaction {
  try {
    return { cell, view: transactionView(transactionFromCell(cell), { workchain }) };
  } catch (e) {
    if (e instanceof CodecError) {
      throw new HttpError(500, `failed to decode transaction ${cell.hash().toString('hex')}: ${e.message}`, {
        cause: e,
      });
    }
    throw e;
  }
}

function transactionFields(t: DecodedTransaction) {
  const v = t.view;
  let fee = v.totalFees;
  for (const m of v.outMsgs) fee += m.fwdFee ?? 0n;
  return {
    address: { '@type': 'accountAddress', account_address: formatMsgAddressV2(v.account) },
    utime: v.now,
    data: formatBocBase64(t.cell),
    transaction_id: { '@type': 'internal.transactionId', lt: v.lt.toString(), hash: b64(v.hash) },
    fee: fee.toString(),
    storage_fee: v.storageFee.toString(),
    other_fee: (fee - v.storageFee).toString(),
  };
}

/** "wc:HEX" (upper case) as ton-http-api-cpp writes `account` (block::StdAddress addr.to_hex()). */
function accountUpper(v: TransactionView): string {
  return formatRawAddress(v.account, { upperCase: true });
}

/** raw.transaction (getTransactionsStd); `in_msg` is absent without an inbound message, as in 2.1. */
export function rawTransactionJson(t: DecodedTransaction) {
  const v = t.view;
  return {
    '@type': 'raw.transaction',
    ...transactionFields(t),
    ...(v.inMsg ? { in_msg: rawMessageJson(v.inMsg) } : {}),
    out_msgs: v.outMsgs.map(rawMessageJson),
  };
}

/**
 * getBlockTransactionsExt items. Which @type 2.1 emits is unconfirmed (v2-api.md §14): its schema composes
 * raw.transaction with raw.transactionExt, and the later part of the composition wins when serialized.
 */
export function transactionExtJson(t: DecodedTransaction) {
  const { '@type': _, address, ...rest } = rawTransactionJson(t);
  return { '@type': 'raw.transactionExt', address, account: accountUpper(t.view), ...rest };
}

/** ext.transaction (getTransactions, tryLocate*). */
export function extTransactionJson(t: DecodedTransaction) {
  const v = t.view;
  const { address, ...rest } = transactionFields(t);
  return {
    '@type': 'ext.transaction',
    address,
    account: accountUpper(v),
    ...rest,
    ...(v.inMsg ? { in_msg: extMessageJson(v.inMsg) } : {}),
    out_msgs: v.outMsgs.map(extMessageJson),
  };
}

export function transactionIdJson(lt: bigint, hash: Uint8Array) {
  return { '@type': 'internal.transactionId', lt: lt.toString(), hash: b64(hash) };
}
