// Transactions and messages of /api/v2 (render/transaction.ts) as OpenAPI 3.1 schemas, named after their @type:
// tonlib's raw.transaction / raw.message (getTransactionsStd, getBlockTransactionsExt), raw.transactionExt (the
// items of getBlockTransactionsExt) and toncenter 2.1's ext.transaction / ext.message (getTransactions, tryLocate*).
import { bytes, hashB64, int32, list, ref, type Schema, str, tl, uint64Str } from './kit.ts';

const HASH = 'standard base64 (44 characters)';
const FRIENDLY = 'url-safe bounceable user-friendly address; "" for none, an external or a var address';

const messageFields = {
  hash: hashB64(`hash of the message cell, ${HASH}`),
  value: uint64Str('nanotons carried ("0" for external messages)'),
  extra_currencies: list(ref('extraCurrency'), 'extra currencies carried'),
  fwd_fee: uint64Str('forwarding fee, nanotons'),
  ihr_fee: { const: '0', description: 'always "0" (the field is extra_flags since global version 12)' },
  created_lt: uint64Str('logical time the message was created ("0" for external-in messages)'),
  body_hash: hashB64(`hash of the body cell, ${HASH}`),
  msg_data: {
    description: 'the body: a text comment (op 0), an encrypted comment (op 0x2167da4b), or the raw body',
    oneOf: ['msg.dataRaw', 'msg.dataText', 'msg.dataEncryptedText'].map(ref),
  },
};

function transactionFields(message: string): Record<string, Schema> {
  return {
    address: { ...ref('accountAddress'), description: 'the account, url-safe bounceable' },
    utime: int32('time of the transaction, unix seconds'),
    data: bytes('the transaction cell, a base64 BoC'),
    transaction_id: ref('internal.transactionId'),
    fee: uint64Str("total fees plus every outbound message's forwarding fee, nanotons"),
    storage_fee: uint64Str('storage fees, nanotons'),
    other_fee: uint64Str('fee - storage_fee, nanotons'),
    in_msg: { ...ref(message), description: 'the inbound message; absent without one (tick-tock)' },
    out_msgs: list(ref(message), 'outbound messages, in order'),
  };
}
const ACCOUNT = str('the account, <workchain>:<64 upper-case hex digits>');

export const TRANSACTION_SCHEMAS: Record<string, Schema> = {
  'msg.dataRaw': tl('msg.dataRaw', 'A body that is not a comment.', {
    body: bytes('the body cell, a base64 BoC'),
    init_state: bytes('the StateInit carried, a base64 BoC; "" without one'),
  }),
  'msg.dataText': tl('msg.dataText', 'A text comment.', { text: bytes('the comment bytes, base64') }),
  'msg.dataEncryptedText': tl('msg.dataEncryptedText', 'An encrypted comment.', {
    text: bytes('the encrypted bytes, base64'),
  }),
  'raw.message': tl('raw.message', 'A message as tonlib writes it.', {
    ...messageFields,
    source: { ...ref('accountAddress'), description: 'the sender' },
    destination: { ...ref('accountAddress'), description: 'the receiver' },
  }),
  'ext.message': tl('ext.message', "A message as toncenter 2.1's getTransactions writes it.", {
    ...messageFields,
    source: str(`the sender, ${FRIENDLY}`),
    destination: str(`the receiver, ${FRIENDLY}`),
    message: str(
      'the comment text (UTF-8, bytes that are not UTF-8 replaced), else the base64 of the body root data bits ' +
        'followed by "\\n"; "" for an empty body',
    ),
  }),
  'raw.transaction': tl('raw.transaction', 'A transaction as tonlib writes it.', transactionFields('raw.message'), [
    'in_msg',
  ]),
  'raw.transactionExt': tl(
    'raw.transactionExt',
    'raw.transaction plus the account in raw form (the items of getBlockTransactionsExt).',
    { ...transactionFields('raw.message'), account: ACCOUNT },
    ['in_msg'],
  ),
  'ext.transaction': tl(
    'ext.transaction',
    "A transaction as toncenter 2.1's getTransactions and tryLocate* write it.",
    { ...transactionFields('ext.message'), account: ACCOUNT },
    ['in_msg'],
  ),
  'raw.transactions': tl('raw.transactions', "A page of an account's history (getTransactionsStd).", {
    transactions: list(ref('raw.transaction'), 'newest first'),
    previous_transaction_id: {
      ...ref('internal.transactionId'),
      description: 'where the next page starts (exclusive); lt "0" at the start of the history',
    },
  }),
};
