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

type Codec = 'same' | 'int' | 'hex' | 'transfer' | 'peer_swaps' | 'excesses' | 'claimed_rewards';

export interface NameRow {
  /** The key in `details`. */
  details: string;
  /** The classifier's path: a generic field (`source`) or a per-type record field (`jetton_transfer_data.query_id`). */
  classifier: string;
  codec: Codec;
  /** No mainnet case shows this classifier field: named by toncenter's `<type>_data.<key>` convention. */
  assumed?: true;
  /**
   * A field toncenter's classifier stores that its API leaves out of `details` (v3-api.md §6.6 lists no such key):
   * kept in our stored details, so classify-trace and re-derivation keep it, and removed where the API renders them.
   */
  hidden?: true;
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
const hidden = (details: string, classifier: string, codec: Codec = 'same'): NameRow => ({
  details,
  classifier,
  codec,
  hidden: true,
});
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
const COCOON_INTS = new Set([
  'query_id',
  'new_stake',
  'nonce',
  'withdraw_amount',
  'new_tokens',
  'worker_tokens',
  'new_tokens_used',
]);
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

/** tgBTC: the API's names for the generic fields (toncenter's API takes them from the columns alone). */
const tgbtcMintRows: NameRow[] = [
  row('source', 'source'),
  row('destination', 'destination'),
  row('amount', 'amount', 'int'),
  row('asset', 'asset'),
  row('bitcoin_tx_id', 'asset_secondary'),
  row('destination_wallet', 'destination_secondary'),
];
const tgbtcBurnRows: NameRow[] = [
  row('source', 'source'),
  row('source_wallet', 'source_secondary'),
  row('destination', 'destination'),
  row('amount', 'amount', 'int'),
  row('asset', 'asset'),
];
const tgbtcNewKeyRows: NameRow[] = [
  row('source', 'source'),
  row('pubkey', 'source_secondary'),
  row('coordinator', 'destination'),
  row('pegout', 'destination_secondary'),
  row('amount', 'amount', 'int'),
  row('asset', 'asset'),
];

/** LayerZero: the packet and send records are kept whole (their integers are JSON numbers on both sides). */
const layerzeroSendRows: NameRow[] = [
  row('layerzero_send_data', 'layerzero_send_data'),
  row('layerzero_packet_data', 'layerzero_packet_data'),
];

/** JVault unstakes: the stake wallet's exit code is the opcode column; the staked jetton is asset2. */
const jvaultUnstakeRows: NameRow[] = [
  row('source', 'source'),
  row('stake_wallet', 'source_secondary'),
  row('pool', 'destination'),
  row('amount', 'amount', 'int'),
  row('exit_code', 'opcode'),
  row('asset', 'asset'),
  row('staking_asset', 'asset2'),
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
  // DEX liquidity. `pool` is the destination column for every DEX. A deposit's `destination_liquidity` is the pool
  // for TONCO and swap.coffee but DeDust's deposit contract (destination_secondary): it mirrors no single column.
  dex_deposit_liquidity: [
    row('dex', 'dex_deposit_liquidity_data.dex'),
    row('source', 'source'),
    row('pool', 'destination'),
    assumed('destination_liquidity', 'dex_deposit_liquidity_data.destination_liquidity'),
    row('amount_1', 'dex_deposit_liquidity_data.amount1', 'int'),
    row('amount_2', 'dex_deposit_liquidity_data.amount2', 'int'),
    row('asset_1', 'dex_deposit_liquidity_data.asset1'),
    row('asset_2', 'dex_deposit_liquidity_data.asset2'),
    row('user_jetton_wallet_1', 'dex_deposit_liquidity_data.user_jetton_wallet_1'),
    row('user_jetton_wallet_2', 'dex_deposit_liquidity_data.user_jetton_wallet_2'),
    row('lp_tokens_minted', 'dex_deposit_liquidity_data.lp_tokens_minted', 'int'),
    row('target_asset_1', 'dex_deposit_liquidity_data.target_asset_1'),
    row('target_asset_2', 'dex_deposit_liquidity_data.target_asset_2'),
    row('target_amount_1', 'dex_deposit_liquidity_data.target_amount_1', 'int'),
    row('target_amount_2', 'dex_deposit_liquidity_data.target_amount_2', 'int'),
    row('vault_excesses', 'dex_deposit_liquidity_data.vault_excesses', 'excesses'),
    row('tick_lower', 'dex_deposit_liquidity_data.tick_lower', 'int'),
    row('tick_upper', 'dex_deposit_liquidity_data.tick_upper', 'int'),
    row('nft_index', 'dex_deposit_liquidity_data.nft_index', 'int'),
    row('nft_address', 'dex_deposit_liquidity_data.nft_address'),
  ],
  dex_withdraw_liquidity: [
    row('dex', 'dex_withdraw_liquidity_data.dex'),
    row('source', 'source'),
    row('pool', 'destination'),
    // The pool again (the API repeats the destination column): kept under the record, one path per key.
    assumed('destination_liquidity', 'dex_withdraw_liquidity_data.destination_liquidity'),
    row('amount_1', 'dex_withdraw_liquidity_data.amount1', 'int'),
    row('amount_2', 'dex_withdraw_liquidity_data.amount2', 'int'),
    row('asset_1', 'dex_withdraw_liquidity_data.asset1_out'),
    row('asset_2', 'dex_withdraw_liquidity_data.asset2_out'),
    row('user_jetton_wallet_1', 'dex_withdraw_liquidity_data.user_jetton_wallet_1'),
    row('user_jetton_wallet_2', 'dex_withdraw_liquidity_data.user_jetton_wallet_2'),
    row('lp_tokens_burnt', 'dex_withdraw_liquidity_data.lp_tokens_burnt', 'int'),
    assumed('is_refund', 'dex_withdraw_liquidity_data.is_refund'),
    row('burnt_nft_index', 'dex_withdraw_liquidity_data.burned_nft_index', 'int'),
    row('burnt_nft_address', 'dex_withdraw_liquidity_data.burned_nft_address'),
    row('tick_lower', 'dex_withdraw_liquidity_data.tick_lower', 'int'),
    row('tick_upper', 'dex_withdraw_liquidity_data.tick_upper', 'int'),
    hidden('dex_wallet_1', 'dex_withdraw_liquidity_data.dex_wallet_1'),
    hidden('dex_wallet_2', 'dex_withdraw_liquidity_data.dex_wallet_2'),
    hidden('dex_jetton_wallet_1', 'dex_withdraw_liquidity_data.dex_jetton_wallet_1'),
    hidden('dex_jetton_wallet_2', 'dex_withdraw_liquidity_data.dex_jetton_wallet_2'),
  ],
  tonco_deploy_pool: [
    row('source', 'source'),
    row('router', 'destination'),
    row('pool', 'destination_secondary'),
    row('router_jetton_wallet_1', 'tonco_deploy_pool_data.jetton0_router_wallet'),
    row('router_jetton_wallet_2', 'tonco_deploy_pool_data.jetton1_router_wallet'),
    row('jetton_minter_1', 'tonco_deploy_pool_data.jetton0_minter'),
    row('jetton_minter_2', 'tonco_deploy_pool_data.jetton1_minter'),
    row('tick_spacing', 'tonco_deploy_pool_data.tick_spacing', 'int'),
    row('initial_price_x96', 'tonco_deploy_pool_data.initial_price_x96', 'int'),
    row('protocol_fee', 'tonco_deploy_pool_data.protocol_fee', 'int'),
    row('lp_fee_base', 'tonco_deploy_pool_data.lp_fee_base', 'int'),
    assumed('lp_fee_current', 'tonco_deploy_pool_data.lp_fee_current', 'int'),
    assumed('pool_active', 'tonco_deploy_pool_data.pool_active'),
  ],
  nft_mint: [
    row('owner', 'source'),
    row('nft_item', 'asset_secondary'),
    row('nft_collection', 'asset'),
    row('nft_item_index', 'nft_mint_data.nft_item_index', 'int'),
  ],
  nft_transfer: nftTransferRows,
  nft_purchase: nftTransferRows,
  change_dns: dnsRows('change_dns'),
  delete_dns: dnsRows('delete_dns'),
  renew_dns: dnsRows('renew_dns'),
  election_deposit: [row('stake_holder', 'source'), row('amount', 'amount', 'int')],
  election_recover: [row('stake_holder', 'source'), row('amount', 'amount', 'int')],
  stake_deposit: [
    ...stakingRows('destination'),
    row('amount', 'amount', 'int'),
    row('tokens_minted', 'staking_data.tokens_minted', 'int'),
    row('source_asset', 'asset2'),
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
  cocoon_worker_payout: cocoonRows(
    'cocoon_worker_payout',
    ['payout_type', 'query_id', 'new_tokens', 'worker_state', 'worker_tokens'],
    { amount: true },
  ),
  cocoon_grant_refund: cocoonRows('cocoon_grant_refund', ['query_id', 'new_tokens_used', 'expected_address'], {
    amount: true,
  }),
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
  // swap.coffee pools. toncenter's API reads provided_asset and pool_creator_contract from the coffee_create_pool
  // record for both types, which its classifier fills only with a pool's amounts, initiators, provided asset and LP.
  coffee_create_pool_creator: [
    row('source', 'source'),
    row('source_jetton_wallet', 'source_secondary'),
    row('deposit_recipient', 'destination'),
    row('pool_creator_contract', 'destination_secondary'),
    assumed('provided_asset', 'coffee_create_pool_data.provided_asset'),
    row('asset_1', 'asset'),
    row('asset_2', 'asset2'),
    row('amount', 'amount', 'int'),
  ],
  coffee_create_pool: [
    row('source', 'source'),
    row('source_jetton_wallet', 'source_secondary'),
    row('pool', 'destination'),
    row('asset_1', 'asset'),
    row('asset_2', 'asset2'),
    row('amount', 'amount', 'int'),
    row('amount_1', 'coffee_create_pool_data.amount_1', 'int'),
    row('amount_2', 'coffee_create_pool_data.amount_2', 'int'),
    row('lp_tokens_minted', 'coffee_create_pool_data.lp_tokens_minted', 'int'),
    assumed('initiator_1', 'coffee_create_pool_data.initiator_1'),
    assumed('initiator_2', 'coffee_create_pool_data.initiator_2'),
    assumed('provided_asset', 'coffee_create_pool_data.provided_asset'),
    assumed('pool_creator_contract', 'coffee_create_pool_data.pool_creator_contract'),
  ],
  tgbtc_mint: tgbtcMintRows,
  tgbtc_mint_fallback: tgbtcMintRows,
  tgbtc_burn: tgbtcBurnRows,
  tgbtc_burn_fallback: tgbtcBurnRows,
  tgbtc_new_key: tgbtcNewKeyRows,
  tgbtc_new_key_fallback: tgbtcNewKeyRows,
  tgbtc_dkg_log_fallback: [row('coordinator', 'source'), row('pubkey', 'asset'), row('timestamp', 'value', 'int')],
  layerzero_send: [row('initiator', 'source'), ...layerzeroSendRows],
  layerzero_send_tokens: [
    row('sender', 'source'),
    row('sender_wallet', 'source_secondary'),
    row('oapp', 'destination'),
    row('oapp_wallet', 'destination_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
    ...layerzeroSendRows,
  ],
  layerzero_receive: [
    row('sender', 'source'),
    row('oapp', 'destination'),
    row('channel', 'destination_secondary'),
    row('layerzero_packet_data', 'layerzero_packet_data'),
  ],
  layerzero_commit_packet: [
    row('sender', 'source'),
    row('endpoint', 'source_secondary'),
    row('uln', 'destination'),
    row('uln_connection', 'destination_secondary'),
    row('channel', 'asset'),
    row('msglib_connection', 'asset_secondary'),
    row('layerzero_packet_data', 'layerzero_packet_data'),
  ],
  layerzero_dvn_verify: [
    row('initiator', 'source'),
    ...['nonce', 'status', 'dvn', 'proxy', 'uln', 'uln_connection'].map((k) =>
      row(k, `layerzero_dvn_verify_data.${k}`),
    ),
  ],
  evaa_supply: [
    assumed('sender_jetton_wallet', 'evaa_supply_data.sender_jetton_wallet'),
    row('recipient_jetton_wallet', 'evaa_supply_data.recipient_jetton_wallet'),
    row('master_jetton_wallet', 'evaa_supply_data.master_jetton_wallet'),
    row('master', 'evaa_supply_data.master'),
    row('asset_id', 'evaa_supply_data.asset_id'),
    row('is_ton', 'evaa_supply_data.is_ton'),
    row('source', 'source'),
    row('source_wallet', 'source_secondary'),
    row('recipient', 'destination'),
    row('recipient_contract', 'destination_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
  ],
  evaa_withdraw: [
    row('recipient_jetton_wallet', 'evaa_withdraw_data.recipient_jetton_wallet'),
    row('master_jetton_wallet', 'evaa_withdraw_data.master_jetton_wallet'),
    row('master', 'evaa_withdraw_data.master'),
    row('fail_reason', 'evaa_withdraw_data.fail_reason'),
    row('asset_id', 'evaa_withdraw_data.asset_id'),
    hidden('is_ton', 'evaa_withdraw_data.is_ton'),
    row('source', 'source'),
    row('recipient', 'destination'),
    row('owner_contract', 'destination_secondary'),
    row('asset', 'asset'),
    row('amount', 'amount', 'int'),
  ],
  // The API resolves `asset` and `is_known_asset` from the asset id; the classifier has neither.
  evaa_liquidate: [
    assumed('fail_reason', 'evaa_liquidate_data.fail_reason'),
    assumed('debt_amount', 'evaa_liquidate_data.debt_amount', 'int'),
    row('source', 'source'),
    row('borrower', 'destination'),
    row('borrower_contract', 'destination_secondary'),
    row('collateral', 'asset'),
    assumed('asset_id', 'evaa_liquidate_data.asset_id'),
    assumed('asset', 'evaa_liquidate_data.asset'),
    assumed('is_known_asset', 'evaa_liquidate_data.is_known_asset'),
    row('amount', 'amount', 'int'),
  ],
  jvault_stake: [
    row('period', 'jvault_stake_data.period'),
    assumed('minted_stake_jettons', 'jvault_stake_data.minted_stake_jettons', 'int'),
    row('stake_wallet', 'jvault_stake_data.stake_wallet'),
    row('source', 'source'),
    row('source_jetton_wallet', 'source_secondary'),
    row('asset', 'asset'),
    row('pool', 'destination'),
    row('amount', 'amount', 'int'),
  ],
  jvault_unstake: jvaultUnstakeRows,
  jvault_unstake_request: jvaultUnstakeRows,
  // claimed_rewards pairs the classifier's two lists (claimed_jettons[i], claimed_amounts[i]).
  jvault_claim: [
    row('claimed_rewards', 'jvault_claim_data', 'claimed_rewards'),
    row('source', 'source'),
    row('stake_wallet', 'source_secondary'),
    row('pool', 'destination'),
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

/** JVault's claimed_rewards [{jetton, amount}] <-> the classifier's {claimed_jettons[], claimed_amounts[]}. */
function claimedRewards(v: unknown, toClassifier: boolean): ClassifierValue | JsonValue {
  if (toClassifier) {
    const pairs = Array.isArray(v) ? v.filter(isObject) : [];
    return {
      claimed_jettons: pairs.map((p) => (p.jetton ?? null) as ClassifierValue),
      claimed_amounts: pairs.map((p) => intToClassifier(p.amount)),
    };
  }
  const jettons = isObject(v) && Array.isArray(v.claimed_jettons) ? v.claimed_jettons : [];
  const amounts = isObject(v) && Array.isArray(v.claimed_amounts) ? v.claimed_amounts : [];
  if (jettons.length !== amounts.length) return [];
  return jettons.map((jetton, i) => ({ jetton: (jetton ?? null) as JsonValue, amount: intToDetails(amounts[i]) }));
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
    case 'claimed_rewards':
      return claimedRewards(v, toClassifier);
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

const NO_KEYS: ReadonlySet<string> = new Set();
const HIDDEN_KEYS = new Map(
  Object.entries(CLASSIFIER_NAMES).map(([type, rows]) => [
    type,
    new Set(rows.filter((r) => r.hidden).map((r) => r.details)) as ReadonlySet<string>,
  ]),
);

/** The details keys of `type` the API does not show (NameRow.hidden). */
export function hiddenDetailsKeys(type: string): ReadonlySet<string> {
  return HIDDEN_KEYS.get(type) ?? NO_KEYS;
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
  // A row that maps the whole record (jvault_claim_data) leaves none of its keys to keep as they are.
  if (isObject(own) && !rows.some((r) => r.classifier === `${type}_data`)) {
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
