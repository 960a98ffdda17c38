// /multisig/orders?parse_actions=true: a multisig v2 order (order_boc) decoded into v3 OrderAction objects
// (v3-api.md §3.7, contracts.md §6.2). The order is `_ (Hashmap 8 ^Action) = Order`, read in key order:
//   send_message#f1381e5b mode:uint8 message:^MessageRelaxed = Action;
//   update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
//     proposers:(HashmapE 8 MsgAddressInt) = Action;
// A send_message's body is recognised as toncenter's order parser does (parsed_body_type in brackets): jetton
// transfer 0x0f8a7ea5 with its forward payload (text or encrypted comment, STON.fi swap) [jetton_transfer], burn
// 0x595f07bc [jetton_burn], mint 0x642b7d07 / 0x15 [jetton_mint], NFT transfer 0x5fcc3d14 [nft_transfer], text
// comment, encrypted comment 0x2167da4b and bodies under 32 bits [ton_transfer], jetton minter admin messages
// (top_up 0x9fd3, change_admin 0x6501f354, claim_admin 0xfb88e119, change_content 0xcb862902, call_to 0x235caf52,
// set_status 0xeed236d3), single-nominator withdraw 0x1000 / change_validator 0x1001, vesting internal transfer
// 0x75097f5d; any other opcode is [unknown] {opcode, data}, and a known opcode whose body does not parse is
// [unknown] with opcode 0 (toncenter's fallback). Field names are toncenter's; binary fields are base64 BoCs.
// Where we differ on purpose: query ids (uint64) are decimal strings, not JSON numbers a JavaScript client
// would round; a text comment is the text after its op (toncenter's keeps the four zero bytes of the op);
// addr_none is null; update_multisig_param lists signers in index order.
import { type Address, type Cell, Dictionary, loadMessageRelaxed, type Slice } from '@ton/core';
import { readSnakeBytes } from '../../../ton/index.ts';

export interface OrderAction {
  destination: string | null;
  value: string | null;
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  parsed_body_type: string;
  send_mode: number;
}

type Parsed = { type: string; body: Record<string, unknown> };

const ACTION_SEND_MESSAGE = 0xf1381e5b;
const ACTION_UPDATE_PARAMS = 0x1d0cfbd3;

const boc = (c: Cell): string => c.toBoc().toString('base64');
const raw = (a: Address | null): string | null => (a ? `${a.workChain}:${a.hash.toString('hex').toUpperCase()}` : null);
/** Bytes as Go's JSON writes a string built from them: invalid UTF-8 becomes U+FFFD. */
const text = (bytes: Buffer | null): string => (bytes ? bytes.toString('utf8') : '');

/** `Either Cell ^Cell`: the rest of the slice, or the next reference. */
function loadEither(s: Slice): Cell {
  return s.loadBit() ? s.loadRef() : s.asCell();
}

/** tonutils' Coins.String(): nanotons as TON with the fraction's trailing zeros cut ("1.5", "1"). */
function tonString(nano: bigint): string {
  const whole = nano / 1_000_000_000n;
  const frac = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

function forwardPayloadFields(payload: Cell): Record<string, unknown> {
  const s = payload.beginParse();
  const out: Record<string, unknown> = { comment: '', encrypted_comment: false, payload_sum_type: '' };
  if (s.remainingBits === 0) return out;
  if (s.remainingBits < 32) return { ...out, payload_sum_type: 'Unknown' };
  const op = s.loadUint(32);
  if (op === 0) return { ...out, comment: text(readSnakeBytes(s)), payload_sum_type: 'TextComment' };
  if (op === 0x2167da4b) {
    return {
      ...out,
      comment: text(readSnakeBytes(s)),
      encrypted_comment: true,
      payload_sum_type: 'EncryptedTextComment',
    };
  }
  if (op === 0x25938561) {
    try {
      const stonfi = {
        jetton_wallet: raw(s.loadMaybeAddress()),
        min_amount: tonString(s.loadCoins()),
        user_address: raw(s.loadMaybeAddress()),
      };
      return { ...out, payload_sum_type: 'StonfiSwap', stonfi_swap_body: stonfi };
    } catch {
      return { ...out, payload_sum_type: 'Unknown' };
    }
  }
  return { ...out, payload_sum_type: 'Unknown' };
}

function jettonTransfer(s: Slice): Record<string, unknown> {
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const destination = raw(s.loadMaybeAddress());
  const response = raw(s.loadMaybeAddress());
  const custom = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  const forward = loadEither(s);
  const fields = forwardPayloadFields(forward);
  return {
    query_id: queryId.toString(),
    amount: amount.toString(),
    destination,
    response,
    custom_payload: custom ? boc(custom) : null,
    forward_amount: forwardAmount.toString(),
    comment: fields.comment,
    encrypted_comment: fields.encrypted_comment,
    forward_payload: boc(forward),
    payload_sum_type: fields.payload_sum_type,
    stonfi_swap_body: fields.stonfi_swap_body ?? null,
  };
}

function nftTransfer(s: Slice): Record<string, unknown> {
  const queryId = s.loadUintBig(64);
  const newOwner = raw(s.loadMaybeAddress());
  const responseDestination = raw(s.loadMaybeAddress());
  const custom = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  const forward = loadEither(s);
  return {
    query_id: queryId.toString(),
    new_owner: newOwner,
    response_destination: responseDestination,
    custom_payload: custom ? boc(custom) : null,
    forward_amount: forwardAmount.toString(),
    forward_payload: boc(forward),
  };
}

function jettonMint(s: Slice, opcode: number): Record<string, unknown> {
  const queryId = s.loadUintBig(64);
  const to = raw(s.loadMaybeAddress());
  const tonAmount = s.loadCoins();
  const master = s.loadRef().beginParse();
  master.loadUint(32);
  const masterQueryId = master.loadUintBig(64);
  const jettonAmount = master.loadCoins();
  return {
    opcode,
    query_id: queryId.toString(),
    to_address: to,
    ton_amount: tonAmount.toString(),
    master_msg_query_id: masterQueryId.toString(),
    master_msg_jetton_amount: jettonAmount.toString(),
  };
}

const CALL_TO_ACTIONS: ReadonlyMap<number, string> = new Map([
  [0xeed236d3, 'JettonSetStatus'],
  [0x0f8a7ea5, 'JettonTransfer'],
  [0x595f07bc, 'JettonBurn'],
]);

function vestingInternalTransfer(s: Slice): Record<string, unknown> {
  const queryId = s.loadUintBig(64);
  const sendMode = s.loadUint(8);
  const msg = loadMessageRelaxed(s.loadRef().beginParse());
  const internal = msg.info.type === 'internal' ? msg.info : null;
  let comment = '';
  const body = msg.body.beginParse();
  if (body.remainingBits >= 32 && body.loadUint(32) === 0) comment = text(readSnakeBytes(body));
  return {
    query_id: queryId.toString(),
    send_mode: sendMode,
    destination: internal ? raw(internal.dest) : null,
    value: internal ? internal.value.coins.toString() : null,
    message_body: internal ? boc(msg.body) : null,
    comment,
  };
}

/** A body under 32 bits, or one whose op is 0 or the encrypted-comment op: toncenter's ton_transfer. */
function simpleMessage(body: Cell): Parsed {
  const s = body.beginParse();
  let encrypted = false;
  let comment = '';
  if (s.remainingBits >= 32) {
    const op = s.loadUint(32);
    encrypted = op === 0x2167da4b;
    comment = text(readSnakeBytes(s));
  } else if (s.remainingBits >= 8 && s.remainingBits % 8 === 0 && s.remainingRefs <= 1) {
    comment = text(readSnakeBytes(s));
  }
  return { type: 'ton_transfer', body: { comment, encrypted } };
}

/** The parsed body of a send_message action: its type and fields. */
export function parseOrderMessageBody(body: Cell): Parsed {
  const s = body.beginParse();
  if (s.remainingBits < 32) return simpleMessage(body);
  const op = s.loadUint(32);
  if (op === 0 || op === 0x2167da4b) return simpleMessage(body);
  try {
    switch (op) {
      case 0x0f8a7ea5:
        return { type: 'jetton_transfer', body: jettonTransfer(s) };
      case 0x595f07bc:
        return {
          type: 'jetton_burn',
          body: {
            query_id: s.loadUintBig(64).toString(),
            amount: s.loadCoins().toString(),
            response_destination: raw(s.loadMaybeAddress()),
          },
        };
      case 0x642b7d07:
      case 0x00000015:
        return { type: 'jetton_mint', body: jettonMint(s, op) };
      case 0x5fcc3d14:
        return { type: 'nft_transfer', body: nftTransfer(s) };
      case 0x00009fd3:
        return { type: 'jetton_top_up', body: { query_id: s.loadUintBig(64).toString() } };
      case 0x6501f354:
        return {
          type: 'jetton_change_admin',
          body: { query_id: s.loadUintBig(64).toString(), new_admin_address: raw(s.loadMaybeAddress()) },
        };
      case 0xfb88e119:
        return { type: 'jetton_claim_admin', body: { query_id: s.loadUintBig(64).toString() } };
      case 0xcb862902: {
        const queryId = s.loadUintBig(64).toString();
        const url = readSnakeBytes(s);
        if (url === null) throw new Error('change_content: the URL is not whole bytes');
        return { type: 'jetton_change_content', body: { query_id: queryId, new_metadata_url: text(url) } };
      }
      case 0x235caf52: {
        const queryId = s.loadUintBig(64).toString();
        const to = raw(s.loadMaybeAddress());
        const tonAmount = s.loadCoins().toString();
        const action = s.loadRef();
        const a = action.beginParse();
        const actionType = a.remainingBits >= 32 ? (CALL_TO_ACTIONS.get(a.loadUint(32)) ?? 'Unknown') : '';
        return {
          type: 'jetton_call_to',
          body: {
            query_id: queryId,
            to_address: to,
            ton_amount: tonAmount,
            action_type: actionType,
            action_data: boc(action),
          },
        };
      }
      case 0xeed236d3:
        return {
          type: 'jetton_set_status',
          body: { query_id: s.loadUintBig(64).toString(), new_status: s.loadUint(8) },
        };
      case 0x00001000:
        return {
          type: 'single_nominator_withdraw',
          body: { query_id: s.loadUintBig(64).toString(), coins: s.loadCoins().toString() },
        };
      case 0x00001001:
        return {
          type: 'single_nominator_change_validator',
          body: { query_id: s.loadUintBig(64).toString(), validator_address: raw(s.loadMaybeAddress()) },
        };
      case 0x75097f5d:
        return { type: 'vesting_internal_transfer', body: vestingInternalTransfer(s) };
      default:
        return { type: 'unknown', body: { opcode: op, data: boc(body) } };
    }
  } catch {
    return { type: 'unknown', body: { opcode: 0, data: boc(body) } };
  }
}

const ADDRESS_VALUES = Dictionary.Values.Address();

function addressList(dict: Cell | null): (string | null)[] | null {
  if (!dict) return null;
  const d = Dictionary.loadDirect(Dictionary.Keys.Uint(8), ADDRESS_VALUES, dict);
  return [...d.keys()].sort((a, b) => a - b).map((k) => raw(d.get(k) ?? null));
}

function failed(error: string): OrderAction {
  return {
    destination: null,
    value: null,
    body_raw: null,
    parsed: false,
    error: `failed to parse order action: ${error}`,
    parsed_body: null,
    parsed_body_type: 'unknown',
    send_mode: 0,
  };
}

function parseAction(action: Cell): OrderAction {
  try {
    const s = action.beginParse();
    const tag = s.remainingBits >= 32 ? s.loadUint(32) : null;
    if (tag === ACTION_SEND_MESSAGE) {
      const mode = s.loadUint(8);
      const msg = loadMessageRelaxed(s.loadRef().beginParse());
      const internal = msg.info.type === 'internal' ? msg.info : null;
      const parsed = parseOrderMessageBody(msg.body);
      return {
        destination: internal ? raw(internal.dest) : null,
        value: (internal?.value.coins ?? 0n).toString(),
        body_raw: boc(msg.body),
        parsed: true,
        error: null,
        parsed_body: parsed.body,
        parsed_body_type: parsed.type,
        send_mode: mode,
      };
    }
    if (tag === ACTION_UPDATE_PARAMS) {
      const threshold = s.loadUint(8);
      const signers = addressList(s.loadRef());
      const proposers = addressList(s.loadMaybeRef());
      return {
        destination: null,
        value: null,
        body_raw: null,
        parsed: true,
        error: null,
        parsed_body: { new_threshold: threshold, new_signers: signers, new_proposers: proposers },
        parsed_body_type: 'multisig_update_params',
        send_mode: 0,
      };
    }
    return failed(`unknown order action type: ${tag ?? 'none'}`);
  } catch (e) {
    return failed((e as Error).message);
  }
}

/** The actions of an order cell (the Hashmap 8 root), in key order; null when it is no such dictionary. */
export function parseOrderActions(order: Cell): OrderAction[] | null {
  try {
    const dict = Dictionary.loadDirect(
      Dictionary.Keys.Uint(8),
      {
        serialize: () => {
          throw new Error('order actions: read only');
        },
        parse: (s) => s.loadRef(),
      },
      order,
    );
    return [...dict.keys()].sort((a, b) => a - b).map((k) => parseAction(dict.get(k) as Cell));
  } catch {
    return null;
  }
}

/** Keys of parsed bodies that hold an address (the address book covers them, as toncenter's does). */
const ADDRESS_KEYS = new Set([
  'destination',
  'response',
  'new_owner',
  'response_destination',
  'to_address',
  'new_admin_address',
  'validator_address',
  'jetton_wallet',
  'user_address',
  'new_signers',
  'new_proposers',
]);

/** Every address an action names: its destination and the addresses in its parsed body. */
export function actionAddresses(a: OrderAction): string[] {
  const out: string[] = a.destination ? [a.destination] : [];
  const walk = (o: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(o)) {
      if (ADDRESS_KEYS.has(k)) {
        for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string') out.push(x);
      } else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>);
    }
  };
  if (a.parsed_body) walk(a.parsed_body);
  return out;
}
