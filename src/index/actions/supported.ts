// supported_action_types (v3-api.md §6.4): clients name the versions, topics or types they understand; v1 is always
// added. A stored action is shown iff its type is supported and none of its ancestors' types is: an old client sees
// the parts of a composite action it does not know, a newer one sees only the composite.
const V1 = [
  'call_contract',
  'contract_deploy',
  'ton_transfer',
  'stake_deposit',
  'stake_withdrawal',
  'stake_withdrawal_request',
  'dex_deposit_liquidity',
  'jetton_transfer',
  'nft_transfer',
  'nft_mint',
  'jetton_burn',
  'jetton_mint',
  'jetton_swap',
  'change_dns',
  'delete_dns',
  'renew_dns',
  'subscribe',
  'dex_withdraw_liquidity',
  'unsubscribe',
  'election_deposit',
  'election_recover',
  'auction_bid',
  'tick_tock',
] as const;
const V2_ADDED = [
  'multisig_create_order',
  'multisig_approve',
  'multisig_execute',
  'vesting_send_message',
  'vesting_add_whitelist',
  'evaa_supply',
  'evaa_withdraw',
  'evaa_liquidate',
  'jvault_stake',
  'jvault_unstake',
  'jvault_claim',
  'jvault_unstake_request',
  'nft_discovery',
  'tonco_deploy_pool',
  'coffee_create_vault',
  'coffee_create_pool_creator',
  'coffee_create_pool',
  'coffee_mev_protect_hold_funds',
  'coffee_mev_protect_failed_swap',
  'coffee_staking_claim_rewards',
  'coffee_staking_deposit',
  'coffee_staking_withdraw',
  'unknown',
] as const;
const V3_ADDED = [
  'nft_put_on_sale',
  'nft_put_on_auction',
  'auction_outbid',
  'nft_cancel_sale',
  'nft_purchase',
  'nft_cancel_auction',
  'nft_finish_auction',
  'teleitem_start_auction',
  'teleitem_cancel_auction',
  'nft_update_sale',
  'dns_purchase',
  'dns_release',
  'layerzero_send',
  'layerzero_send_tokens',
  'layerzero_receive',
  'layerzero_commit_packet',
  'layerzero_dvn_verify',
] as const;
const V4_ADDED = [
  'cocoon_worker_payout',
  'cocoon_proxy_payout',
  'cocoon_proxy_charge',
  'cocoon_client_top_up',
  'cocoon_register_proxy',
  'cocoon_unregister_proxy',
  'cocoon_client_register',
  'cocoon_client_change_secret_hash',
  'cocoon_client_request_refund',
  'cocoon_grant_refund',
  'cocoon_client_increase_stake',
  'cocoon_client_withdraw',
] as const;
const TGBTC = [
  'tgbtc_dkg_log_fallback',
  'tgbtc_new_key',
  'tgbtc_new_key_fallback',
  'tgbtc_burn',
  'tgbtc_burn_fallback',
  'tgbtc_mint',
  'tgbtc_mint_fallback',
] as const;

const v2 = [...V1, ...V2_ADDED];
const v3 = [...v2, ...V3_ADDED];
const v4 = [...v3, ...V4_ADDED];

const NFT_TOPIC = ['nft_transfer', 'nft_mint', 'auction_bid'];
const DNS_TOPIC = ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'];

/** Every name a client may send besides single types. */
export const ACTION_TYPE_SETS: Readonly<Record<string, readonly string[]>> = {
  v1: V1,
  v2,
  v3,
  v4,
  latest: v4,
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  // The topic groups as toncenter's indexer lists them (ton-index-go models/action_versioning.go), flattened: nft.v3
  // includes nft, dns.v2 includes dns. jetton_swap is v1 but in no topic; coffee leaves the failed MEV swap out.
  jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
  nft: NFT_TOPIC,
  'nft.v3': [
    ...NFT_TOPIC,
    'nft_put_on_sale',
    'nft_put_on_auction',
    'auction_outbid',
    'nft_cancel_sale',
    'nft_purchase',
    'nft_cancel_auction',
    'nft_finish_auction',
    'teleitem_start_auction',
    'teleitem_cancel_auction',
    'nft_update_sale',
    'dns_purchase',
    'dns_release',
  ],
  dns: DNS_TOPIC,
  'dns.v2': DNS_TOPIC,
  multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  vesting: ['vesting_send_message', 'vesting_add_whitelist'],
  evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
  coffee: V2_ADDED.filter((t) => t.startsWith('coffee_') && t !== 'coffee_mev_protect_failed_swap'),
  tgbtc: TGBTC,
  layerzero: V3_ADDED.filter((t) => t.startsWith('layerzero_')),
  cocoon: V4_ADDED,
};

/** Types of versions v1..v4 (the v4 set): what `latest` means. */
export const LATEST_ACTION_TYPES: readonly string[] = v4;
export const V1_ACTION_TYPES: readonly string[] = V1;

/** The set of types a client understands: its names expanded, `latest` when it sent none, v1 always. */
export function expandSupported(names: readonly string[] | undefined): Set<string> {
  const out = new Set<string>(V1);
  const list = names && names.length > 0 ? names : ['latest'];
  for (const n of list) {
    const set = ACTION_TYPE_SETS[n];
    if (set) for (const t of set) out.add(t);
    else out.add(n);
  }
  return out;
}

/** The ancestor rule: shown iff the type is supported (or asked for) and no enclosing action's type is supported. */
export function isShown(
  type: string,
  ancestorType: readonly string[],
  supported: ReadonlySet<string>,
  asked?: ReadonlySet<string>,
): boolean {
  if (!(asked ? asked.has(type) : supported.has(type))) return false;
  return !ancestorType.some((t) => supported.has(t));
}
