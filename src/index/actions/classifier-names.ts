// toncenter's classifier names for an action's fields, and the one mapping between them and the API's `details`
// (v3-api.md §6.3, §6.6). toncenter's classifier fills generic fields (`source`, `source_secondary`, `destination`,
// `destination_secondary`, `asset`, `asset_secondary`, `asset2`, `asset2_secondary`, `amount`, `value`, `opcode`)
// and one per-type record (`jetton_transfer_data`, `staking_data`, …); its API then renames them into `details`
// (jetton_transfer: source -> sender, destination -> receiver, …). Our matchers produce both at once (ActionDraft:
// the generic columns and the details), so this table is what ties the two together:
// - details -> classifier names (classifierFromDetails): what `tongate index classify-trace` prints and what the
//   mainnet cases (shared/vectors/actions/cases.json, written in classifier names) are compared with;
// - classifier names -> details (detailsFromClassifier): the same rows read the other way.
// Each row names one details key, its classifier path and how the value is written on each side (`int`: the API's
// decimal string, the classifier's integer; `hex`: "0x…" and an integer; nested codecs for swaps). A generic field
// that a details key mirrors (sender = source) must agree with the action's column: the round-trip test checks it.
// Rows marked ASSUMED name a classifier field the mainnet cases never show: they follow toncenter's
// `<type>_data.<details key>` convention so every details key has exactly one counterpart.
import type { Action, Details, JsonValue } from './types.ts';

/** A JSON value whose integers may be bigints (toncenter's integers exceed 2^53). */
export type ClassifierValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | ClassifierValue[]
  | { [k: string]: ClassifierValue };
export type ClassifierDoc = { [k: string]: ClassifierValue };

type Codec = 'same' | 'int' | 'hex' | 'transfer' | 'peer_swaps' | 'excesses';

export interface NameRow {
  /** The key in `details`. */
  details: string;
  /** The classifier's path: a generic field (`source`) or a per-type record field (`jetton_transfer_data.query_id`). */
  classifier: string;
  codec: Codec;
  /** No mainnet case shows this classifier field: named by toncenter's `<type>_data.<key>` convention. */
  assumed?: true;
}

/** The generic fields, as the classifier names them, and the Action properties holding them. */
export const GENERIC_FIELDS = {
  source: 'source',
  source_secondary: 'sourceSecondary',
  destination: 'destination',
  destination_secondary: 'destinationSecondary',
  asset: 'asset',
  asset_secondary: 'assetSecondary',
  asset2: 'asset2',
  asset2_secondary: 'asset2Secondary',
  amount: 'amount',
  value: 'value',
  opcode: 'opcode',
} as const satisfies Record<string, keyof Action>;

const row = (details: string, classifier: string, codec: Codec = 'same'): NameRow => ({ details, classifier, codec });
const assumed = (details: string, classifier: string, codec: Codec = 'same'): NameRow => ({
  details,
  classifier,
  codec,
  assumed: true,
});

const stakingRows = (pool: string): NameRow[] => [
  row('provider', 'staking_data.provider'),
  row('stake_holder', 'source'),
  row('pool', pool),
  row('asset', 'asset'),
];

const nftTransferRows: NameRow[] = [
  row('nft_collection', 'asset'),
  row('nft_item', 'asset_secondary'),
  row('nft_item_index', 'nft_transfer_data.nft_item_index', 'int'),
  row('old_owner', 'source'),
  row('new_owner', 'destination'),
  row('is_purchase', 'nft_transfer_data.is_purchase'),
  row('price', 'nft_transfer_data.price', 'int'),
  row('query_id', 'nft_transfer_data.query_id', 'int'),
  row('response_destination', 'nft_transfer_data.response_destination'),
  row('custom_payload', 'nft_transfer_data.custom_payload'),
  row('forward_payload', 'nft_transfer_data.forward_payload'),
  row('forward_amount', 'nft_transfer_data.forward_amount', 'int'),
  assumed('comment', 'nft_transfer_data.comment'),
  assumed('is_encrypted_comment', 'nft_transfer_data.is_encrypted_comment'),
  row('marketplace', 'nft_transfer_data.marketplace'),
  row('real_old_owner', 'nft_transfer_data.real_prev_owner'),
  row('marketplace_address', 'nft_transfer_data.marketplace_address'),
  assumed('payout_amount', 'nft_transfer_data.payout_amount', 'int'),
  assumed('payout_address', 'nft_transfer_data.payout_address'),
  assumed('payout_comment', 'nft_transfer_data.payout_comment'),
  assumed('payout_comment_encrypted', 'nft_transfer_data.payout_comment_encrypted'),
  assumed('payout_comment_encoded', 'nft_transfer_data.payout_comment_encoded'),
  assumed('royalty_amount', 'nft_transfer_data.royalty_amount', 'int'),
  assumed('royalty_address', 'nft_transfer_data.royalty_address'),
];

const dnsRows = (type: string): NameRow[] => [
  row('source', 'source'),
  // The DNS item (details `asset`) is the destination column; its collection the asset column.
  row('asset', 'destination'),
  row('nft_collection', 'asset'),
  ...(type === 'change_dns'
    ? [assumed('key', 'change_dns_data.key'), assumed('value', 'change_dns_data.value')]
    : type === 'delete_dns'
      ? [assumed('hash', 'delete_dns_data.hash')]
      : []),
];

/** Cocoon's records: `<type>_data` fields (integers as `int`), the generic source/destination/amount. */
const COCOON_INTS = new Set(['query_id', 'new_stake', 'nonce', 'withdraw_amount']);
const cocoonRows = (type: string, data: string[], o: { amount?: boolean; source?: boolean } = {}): NameRow[] => [
  ...data.map((k) => row(k, `${type}_data.${k}`, COCOON_INTS.has(k) ? 'int' : 'same')),
  ...(o.source === false ? [] : [row('source', 'source')]),
  row('destination', 'destination'),
  ...(o.amount ? [row('amount', 'amount', 'int')] : []),
];

/** swap.coffee staking: the staker and the pool (toncenter's destination column) with their jetton wallets. */
const coffeeStakingRows: NameRow[] = [
  row('source', 'source'),
  row('source_jetton_wallet', 'source_secondary'),
  row('pool', 'destination'),
  row('pool_jetton_wallet', 'destination_secondary'),
  row('asset', 'asset'),
  row('amount', 'amount', 'int'),
];

/** Per action type: every details key our matchers write, with its classifier name. */
export const CLASSIFIER_NAMES: Readonly<Record<string, readonly NameRow[]>> = {
  ton_transfer: [
    row('source', 'source'),
    row('destination', 'destination'),
    row('value', 'value', 'int'),
    assumed('value_extra_currencies', 'ton_transfer_data.value_extra_currencies'),
    row('comment', 'ton_transfer_data.content'),
    row('encrypted', 'ton_transfer_data.encrypted'),
  ],
  call_contract: [
    row('opcode', 'opcode', 'hex'),
    row('source', 'source'),
    row('destination', 'destination'),
    row('value', 'value', 'int'),
    assumed('extra_currencies', 'call_contract_data.extra_currencies'),
  ],
  contract_deploy: [
    row('opcode', 'opcode', 'hex'),
    row('source', 'source'),
    row('destination', 'destination'),
    row('value', 'value', 'int'),
  ],
  tick_tock: [assumed('account', 'tick_tock_data.account')],
  jetton_transfer: [
    row('asset', 'asset'),
    row('sender', 'source'),
    row('receiver', 'destination'),
    row('sender_jetton_wallet', 'source_secondary'),
    row('receiver_jetton_wallet', 'destination_secondary'),
    row('amount', 'amount', 'int'),
    row('comment', 'jetton_transfer_data.comment'),
    row('is_encrypted_comment', 'jetton_transfer_data.is_encrypted_comment'),
    row('query_id', 'jetton_transfer_data.query_id', 'int'),
    row('response_destination', 'jetton_transfer_data.response_destination'),
    row('custom_payload', 'jetton_transfer_data.custom_payload'),
    row('forward_payload', 'jetton_transfer_data.forward_payload'),
    row('forward_amount', 'jetton_transfer_data.forward_amount', 'int'),
  ],
  jetton_burn: [
    row('owner', 'source'),
    row('owner_jetton_wallet', 'source_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
  ],
  jetton_mint: [
    row('asset', 'asset'),
    row('receiver', 'destination'),
    row('receiver_jetton_wallet', 'destination_secondary'),
    row('amount', 'amount', 'int'),
    row('ton_amount', 'value', 'int'),
  ],
  jetton_swap: [
    row('dex', 'jetton_swap_data.dex'),
    row('sender', 'jetton_swap_data.sender'),
    row('asset_in', 'asset'),
    row('asset_out', 'asset2'),
    row('dex_incoming_transfer', 'jetton_swap_data.dex_incoming_transfer', 'transfer'),
    row('dex_outgoing_transfer', 'jetton_swap_data.dex_outgoing_transfer', 'transfer'),
    row('peer_swaps', 'jetton_swap_data.peer_swaps', 'peer_swaps'),
    row('min_out_amount', 'jetton_swap_data.min_out_amount', 'int'),
  ],
  nft_mint: [
    row('owner', 'source'),
    row('nft_item', 'asset_secondary'),
    row('nft_collection', 'asset'),
    row('nft_item_index', 'nft_mint_data.nft_item_index', 'int'),
  ],
  nft_transfer: nftTransferRows,
  change_dns: dnsRows('change_dns'),
  delete_dns: dnsRows('delete_dns'),
  renew_dns: dnsRows('renew_dns'),
  election_deposit: [row('stake_holder', 'source'), row('amount', 'amount', 'int')],
  election_recover: [row('stake_holder', 'source'), row('amount', 'amount', 'int')],
  stake_deposit: [
    ...stakingRows('destination'),
    row('amount', 'amount', 'int'),
    row('tokens_minted', 'staking_data.tokens_minted', 'int'),
    assumed('source_asset', 'staking_data.source_asset'),
  ],
  stake_withdrawal: [
    ...stakingRows('destination'),
    row('amount', 'amount', 'int'),
    row('payout_nft', 'staking_data.ts_nft'),
    row('tokens_burnt', 'staking_data.tokens_burnt', 'int'),
  ],
  stake_withdrawal_request: [
    ...stakingRows('destination'),
    row('payout_nft', 'staking_data.ts_nft'),
    row('tokens_burnt', 'amount', 'int'),
    row('tokens_minted', 'staking_data.tokens_minted', 'int'),
  ],
  multisig_create_order: [
    assumed('query_id', 'multisig_create_order_data.query_id', 'int'),
    assumed('order_seqno', 'multisig_create_order_data.order_seqno', 'int'),
    assumed('is_created_by_signer', 'multisig_create_order_data.is_created_by_signer'),
    assumed('is_signed_by_creator', 'multisig_create_order_data.is_signed_by_creator'),
    assumed('creator_index', 'multisig_create_order_data.creator_index'),
    assumed('expiration_date', 'multisig_create_order_data.expiration_date'),
    assumed('order_boc', 'multisig_create_order_data.order_boc'),
    row('source', 'source'),
    row('destination', 'destination'),
    row('destination_order', 'destination_secondary'),
  ],
  multisig_approve: [
    assumed('signer_index', 'multisig_approve_data.signer_index'),
    assumed('exit_code', 'multisig_approve_data.exit_code'),
    row('source', 'source'),
    row('destination', 'destination'),
  ],
  multisig_execute: [
    assumed('query_id', 'multisig_execute_data.query_id', 'int'),
    assumed('order_seqno', 'multisig_execute_data.order_seqno', 'int'),
    assumed('expiration_date', 'multisig_execute_data.expiration_date'),
    assumed('approvals_num', 'multisig_execute_data.approvals_num'),
    assumed('signers_hash', 'multisig_execute_data.signers_hash'),
    assumed('order_boc', 'multisig_execute_data.order_boc'),
    row('source', 'source'),
    row('destination', 'destination'),
  ],
  vesting_send_message: [
    row('query_id', 'vesting_send_message_data.query_id', 'int'),
    row('message_boc', 'vesting_send_message_data.message_boc'),
    row('source', 'source'),
    row('vesting', 'destination'),
    row('destination', 'destination_secondary'),
    row('amount', 'amount', 'int'),
  ],
  vesting_add_whitelist: [
    row('query_id', 'vesting_add_whitelist_data.query_id', 'int'),
    row('accounts_added', 'vesting_add_whitelist_data.accounts_added'),
    row('source', 'source'),
    row('vesting', 'destination'),
  ],
  cocoon_client_top_up: cocoonRows('cocoon_client_top_up', ['query_id'], { amount: true }),
  cocoon_client_increase_stake: cocoonRows('cocoon_client_increase_stake', ['query_id', 'new_stake'], {
    amount: true,
  }),
  cocoon_client_change_secret_hash: cocoonRows('cocoon_client_change_secret_hash', ['query_id', 'new_secret_hash']),
  cocoon_client_register: cocoonRows('cocoon_client_register', ['query_id', 'nonce']),
  cocoon_client_request_refund: cocoonRows('cocoon_client_request_refund', ['query_id', 'via_wallet']),
  cocoon_client_withdraw: cocoonRows('cocoon_client_withdraw', ['query_id', 'withdraw_amount'], { amount: true }),
  cocoon_register_proxy: cocoonRows('cocoon_register_proxy', ['query_id'], { source: false }),
  cocoon_unregister_proxy: cocoonRows('cocoon_unregister_proxy', ['query_id', 'seqno'], { source: false }),
  cocoon_proxy_payout: cocoonRows('cocoon_proxy_payout', ['query_id']),
  coffee_create_vault: [
    row('source', 'source'),
    row('vault', 'destination'),
    row('asset', 'asset'),
    row('value', 'value', 'int'),
  ],
  coffee_mev_protect_hold_funds: [
    row('source', 'source'),
    row('source_jetton_wallet', 'source_secondary'),
    row('mev_contract', 'destination'),
    row('mev_contract_jetton_wallet', 'destination_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
  ],
  coffee_staking_deposit: [
    ...coffeeStakingRows,
    row('minted_item_address', 'coffee_staking_deposit_data.minted_item_address'),
    row('minted_item_index', 'coffee_staking_deposit_data.minted_item_index', 'int'),
  ],
  coffee_staking_withdraw: [
    ...coffeeStakingRows,
    row('nft_address', 'coffee_staking_withdraw_data.nft_address'),
    row('nft_index', 'coffee_staking_withdraw_data.nft_index', 'int'),
    row('points', 'coffee_staking_withdraw_data.points', 'int'),
  ],
  coffee_staking_claim_rewards: [
    row('pool', 'source'),
    row('pool_jetton_wallet', 'source_secondary'),
    row('recipient', 'destination'),
    row('recipient_jetton_wallet', 'destination_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
  ],
  unknown: [],
};

// ---- value codecs ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An integer as the classifier writes it: a number when exact, else a bigint. */
export function classifierInt(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** A classifier integer (number, bigint, or an integral float such as 49.0) as a bigint; null for anything else. */
export function bigOf(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}

function intToClassifier(v: unknown): ClassifierValue {
  if (v === null || v === undefined) return null;
  const b = bigOf(v);
  if (b === null) throw new TypeError(`not an integer: ${JSON.stringify(v)}`);
  return classifierInt(b);
}

function intToDetails(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  const b = bigOf(v);
  if (b === null) throw new TypeError(`not an integer: ${String(v)}`);
  return b.toString();
}

const TRANSFER_INTS = new Set(['amount']);
const PEER_INTS = new Set(['amount_in', 'amount_out']);
const EXCESS_INTS = new Set(['amount']);

function mapRecord(v: unknown, ints: ReadonlySet<string>, toClassifier: boolean): ClassifierValue | JsonValue {
  if (!isObject(v)) return (v ?? null) as JsonValue;
  const out: Record<string, ClassifierValue | JsonValue> = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = ints.has(k) ? (toClassifier ? intToClassifier(x) : intToDetails(x)) : (x as JsonValue);
  }
  return out as JsonValue;
}

function encode(codec: Codec, v: unknown, toClassifier: boolean): ClassifierValue | JsonValue {
  switch (codec) {
    case 'same':
      return (v ?? null) as JsonValue;
    case 'int':
      return toClassifier ? intToClassifier(v) : intToDetails(v);
    case 'hex': {
      if (v === null || v === undefined) return null;
      if (toClassifier) {
        if (typeof v !== 'string' || !/^0x[0-9a-f]{1,8}$/i.test(v)) throw new TypeError(`not an opcode: ${String(v)}`);
        return Number.parseInt(v.slice(2), 16);
      }
      const b = bigOf(v);
      if (b === null) throw new TypeError(`not an opcode: ${String(v)}`);
      return `0x${BigInt.asUintN(32, b).toString(16).padStart(8, '0')}`;
    }
    case 'transfer':
      return mapRecord(v, TRANSFER_INTS, toClassifier);
    case 'excesses':
    case 'peer_swaps': {
      if (!Array.isArray(v)) return (v ?? null) as JsonValue;
      const ints = codec === 'peer_swaps' ? PEER_INTS : EXCESS_INTS;
      return v.map((x) => mapRecord(x, ints, toClassifier)) as JsonValue;
    }
  }
}

function getPath(doc: Record<string, unknown>, path: string): unknown {
  let cur: unknown = doc;
  for (const k of path.split('.')) {
    if (!isObject(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function setPath(doc: Record<string, unknown>, path: string, v: unknown): void {
  const keys = path.split('.');
  let cur = doc;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]!] = v;
}

/** The rows of a type; undefined for a type this table does not cover yet. */
export function namesOf(type: string): readonly NameRow[] | undefined {
  return Object.hasOwn(CLASSIFIER_NAMES, type) ? CLASSIFIER_NAMES[type] : undefined;
}

/**
 * The classifier's fields that `details` determine (details keys present only; a key the table does not know is
 * kept under `<type>_data` as it is, so nothing is lost). Throws on a value its codec cannot read.
 */
export function classifierFromDetails(type: string, details: Details): ClassifierDoc {
  const rows = namesOf(type) ?? [];
  const out: ClassifierDoc = {};
  const known = new Set(rows.map((r) => r.details));
  for (const r of rows) {
    if (!Object.hasOwn(details, r.details)) continue;
    setPath(out, r.classifier, encode(r.codec, details[r.details], true));
  }
  for (const [k, v] of Object.entries(details)) {
    if (!known.has(k)) setPath(out, `${type}_data.${k}`, v);
  }
  return out;
}

/** The details a classifier document names (the inverse of classifierFromDetails for the table's rows). */
export function detailsFromClassifier(type: string, doc: ClassifierDoc): Details {
  const rows = namesOf(type) ?? [];
  const out: Details = {};
  for (const r of rows) {
    const v = getPath(doc, r.classifier);
    if (v === undefined) continue;
    out[r.details] = encode(r.codec, v, false) as JsonValue;
  }
  const known = new Set(rows.map((r) => r.classifier.split('.').slice(1).join('.')));
  const own = doc[`${type}_data`];
  if (isObject(own)) {
    for (const [k, v] of Object.entries(own)) {
      if (!known.has(k) && !rows.some((r) => r.details === k)) out[k] = v as JsonValue;
    }
  }
  return out;
}

const columnValue = (v: unknown): ClassifierValue => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return classifierInt(v);
  return v as ClassifierValue;
};

/**
 * An action as toncenter's classifier names it: ids, type, success, transactions and participants, the generic
 * fields from the action's columns, and the per-type records from its details.
 */
export function actionToClassifierNames(a: Action): ClassifierDoc {
  const doc: ClassifierDoc = {
    type: a.type,
    action_id: a.actionId,
    trace_id: a.traceId,
    success: a.success,
    start_lt: classifierInt(a.startLt),
    end_lt: classifierInt(a.endLt),
    start_utime: a.startUtime,
    end_utime: a.endUtime,
    tx_hashes: [...a.txHashes],
    accounts: [...a.accounts],
    parent_action_id: a.parentActionId,
    ancestor_type: [...a.ancestorType],
  };
  for (const [name, prop] of Object.entries(GENERIC_FIELDS)) {
    doc[name] = columnValue(a[prop]);
  }
  const fromDetails = classifierFromDetails(a.type, a.details);
  for (const [k, v] of Object.entries(fromDetails)) {
    // Generic fields come from the columns; details only add the per-type records.
    if (!Object.hasOwn(GENERIC_FIELDS, k)) doc[k] = v;
  }
  return doc;
}
