// Contract interface names of v3's `interfaces` fields (address_book entries, /accountStates), by toncenter's
// rule (contracts.md §1.2, v3-api.md §7.7): a code hash listed below gives that one name; otherwise every
// interface whose get-methods are all in the code's method dictionary (contract_methods), sorted. The names
// are v3-api.md Appendix B's 106 (kept as toncenter spells them, "dedust_liquidity_deposit " with its space);
// each entry lists the get-method names whose ids (crc16 | 0x10000) identify it and the code hashes (hex, as
// ../shared/vectors/code_hashes.json writes them) that identify it exactly; the wallets' hashes are the wallet
// code-hash table's (src/ton/contracts/wallets.ts). Data only: names and hashes.
import { crc16 } from '@ton/core';
import { walletCodeHashes } from '../../ton/index.ts';

export interface InterfaceRule {
  name: string;
  /** Get-method ids that must all be present (empty: recognised by code hash only). */
  methods: number[];
  /** Code hashes, standard base64 as stored in latest_account_states.code_hash. */
  codeHashes: string[];
}

/** A get-method's id as FunC and Tolk assign it: (crc16_xmodem(name) & 0xffff) | 0x10000. */
export function methodId(name: string): number {
  return (crc16(Buffer.from(name, 'utf8')).readUInt16BE(0) & 0xffff) | 0x10000;
}

function iface(name: string, getters: string[], hexHashes: string[]): InterfaceRule {
  return {
    name,
    methods: getters.map(methodId),
    codeHashes: hexHashes.map((h) => Buffer.from(h, 'hex').toString('base64')),
  };
}

/** A wallet's interface: its code hashes are the wallet code-hash table's (src/ton/contracts/wallets.ts). */
function wallet(name: string, getters: string[]): InterfaceRule {
  return iface(name, getters, walletCodeHashes(name));
}

/** In toncenter's order: the first entry holding a code hash names it. */
export const INTERFACES: readonly InterfaceRule[] = [
  iface(
    'airdrop_interlocker_v1',
    ['get_contract_data'],
    ['acd2b8ec4db7414396fa53698653ecc04a416ee3649d8f5b20b41f176ad833f0'],
  ),
  iface(
    'airdrop_interlocker_v2',
    ['get_distribution_info', 'get_unlocks_info', 'get_available_claim_amount'],
    ['0ff44a96fc2481111236d8d9920fd6e29b6108215e3ec5ba761ead9602adada4'],
  ),
  iface('bidask_pool', ['get_pool_info', 'get_current_bin', 'get_sqrt_p', 'get_active_range'], []),
  iface('bidask_range', ['get_pool_addr', 'get_lp_multitoken_wallet'], []),
  iface('bidask_lp_multitoken', ['get_bins_number', 'get_nft_data'], []),
  iface('bidask_internal_liquidity_vault', ['get_liquidity_data'], []),
  iface('cron', ['get_cron_info'], []),
  iface('daolama_vault', ['get_pool_data'], []),
  iface('dedust_factory', ['get_vault_address', 'get_pool_address', 'get_liquidity_deposit_address'], []),
  iface('dedust_liquidity_deposit ', ['get_balances', 'get_target_balances'], []),
  iface(
    'dedust_pool',
    ['get_reserves', 'get_assets', 'get_jetton_data', 'is_stable', 'get_trade_fee', 'estimate_swap_out'],
    [],
  ),
  iface('dedust_vault', ['get_asset'], []),
  iface('dns', ['dnsresolve'], []),
  iface('gram_miner', ['get_pow_params'], ['ccae6ffb603c7d3e779ab59ec267ffc22dc1ebe0af9839902289a7a83e4c00f1']),
  iface('jetton_master', ['get_jetton_data', 'get_wallet_address'], []),
  iface('jetton_wallet', ['get_wallet_data'], []),
  iface('jetton_wallet_v1', [], ['beb0683ebeb8927fe9fc8ec0a18bc7dd17899689825a121eab46c5a3a860d0ce']),
  iface('jetton_wallet_v2', [], ['8d28ea421b77e805fea52acf335296499f03aec8e9fd21ddb5f2564aa65c48de']),
  iface('jetton_wallet_governed', [], ['89468f02c78e570802e39979c8516fc38df07ea76a48357e0536f2ba7b3ee37b']),
  iface('tonstake_pool', ['get_pool_full_data'], []),
  iface('validator_controller', ['get_validator_controller_data'], []),
  iface('locker', ['get_locker_data', 'get_bill_address'], []),
  iface('locker_bill', ['get_locker_bill_data'], []),
  iface('lockup_vesting', ['get_lockup_data'], []),
  iface('lockup_universal', ['get_balances'], []),
  iface('megatonfi_router', ['get_mining_data', 'get_lp_data'], []),
  iface('megatonfi_exchange', ['get_lp_swap_data', 'get_lp_mining_data'], []),
  iface(
    'moon_pool',
    ['get_jetton_data', 'get_reserves', 'get_assets', 'get_wallet_address'],
    ['2808165253286a1e4fe63efab9ba35481137aac0b1a0f9edccb8f6442dde46c4'],
  ),
  iface(
    'moon_booster',
    ['get_status', 'get_pool'],
    ['ce84c382c8b6ac0d05212bbaa34d05e54e1e30e2cc9289f2d9c9d64726a112a8'],
  ),
  iface(
    'moon_order_factory',
    ['get_id', 'get_pipe'],
    ['d04737d6f678103a9e448c22109919d0f9cbe05ef1b1a83c5e7b886683a54704'],
  ),
  iface(
    'moon_order',
    ['get_status', 'get_order_amount', 'get_fill_out', 'get_vesting_data'],
    [
      '88c38d29586b5d748badbc7b4dbfe239c25cb85ca9c4586a44e05507a6edf6a6',
      'ee07140b3ccfe261ed28580f60a16bda4c4b9c6d7da7ae05f5b7c7e2b1dfe226',
    ],
  ),
  iface(
    'multisig_v2',
    ['get_multisig_data', 'get_order_address'],
    ['d3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac'],
  ),
  iface('multisig_order_v2', ['get_order_data'], ['a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc']),
  iface('nft_sale', ['get_sale_data'], []),
  iface('nft_auction_v1', ['get_sale_data'], []),
  iface('nft_offer_getgems_v1', [], ['6e5d667fa6efa8187c6d029efd4015601232fd2e36c291dbc346dedab6dc8024']),
  iface(
    'nft_sale_getgems_v4',
    ['get_fix_price_data_v4'],
    ['6b95a6418b9c9d2359045d1e7559b8d549ae0e506f24caab58fa30c8fb1feb86'],
  ),
  iface(
    'nft_sale_getgems_v3',
    [],
    [
      '24221fa571e542e055c77bedfdbf527c7af460cfdc7f344c450787b4cfa1eb4d',
      'deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31',
      '32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323',
    ],
  ),
  iface('nft_sale_getgems_v2', [], ['8278f4c5233de6fbedc969af519344a7a9bffc544856dba986a95c0bcf8571c9']),
  iface(
    'nft_auction_getgems_v3',
    [],
    [
      '1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df',
      '6668872fa79705443ffd47523e8e9ea9f76ab99f9a0b59d27de8f81a1c27b9d4',
    ],
  ),
  iface(
    'nft_auction_getgems_v4',
    ['get_auction_data_v4'],
    ['ce5a78534eaaa6ceed8dafd486d076eb60a9b0d6dbfb53676f662649c0689956'],
  ),
  iface('nft_collection', ['get_nft_content', 'get_collection_data', 'get_nft_address_by_index'], []),
  iface('nft_item', ['get_nft_data'], []),
  iface('nft_item_simple', [], ['4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42']),
  iface('editable', ['get_editor'], []),
  iface('sbt', ['get_authority_address'], []),
  iface('payment_channel', ['get_channel_data'], []),
  iface(
    'pyth_price_oracle',
    [
      'get_update_fee',
      'get_single_update_fee',
      'get_governance_data_source_index',
      'get_governance_data_source',
      'get_last_executed_governance_sequence',
      'get_is_valid_data_source',
      'get_price_unsafe',
      'get_price_no_older_than',
      'get_ema_price_unsafe',
      'get_ema_price_no_older_than',
      'get_chain_id',
      'get_current_guardian_set_index',
      'get_guardian_set',
      'get_governance_chain_id',
      'get_governance_contract',
      'governance_action_is_consumed',
    ],
    [],
  ),
  iface(
    'stonfi_pool',
    [
      'get_pool_data',
      'get_expected_outputs',
      'get_expected_tokens',
      'get_expected_liquidity',
      'get_lp_account_address',
    ],
    [],
  ),
  iface(
    'stonfi_pool_v2',
    ['get_pool_data', 'get_pool_type', 'get_lp_account_address', 'get_jetton_data', 'get_wallet_address'],
    [],
  ),
  iface('stonfi_router_v2', ['get_vault_address', 'get_pool_address', 'get_router_data', 'get_router_version'], []),
  iface('stonfi_router', ['get_router_data', 'get_pool_address'], []),
  iface('stonfi_lp_account_v2', ['get_lp_account_data'], []),
  iface('stonfi_vault_v2', ['get_vault_data'], []),
  iface(
    'omniston_referral',
    [],
    [
      'edcc62f1752297fbda2408c09ca420b3af9528102e33b9e0a0ebe38553c18fec',
      '6cda351c3c0ee368873a5ea10f53b9a47a55aacdc8deb3fd103c2f968c952527',
    ],
  ),
  iface(
    'storage_provider',
    ['get_wallet_params', 'get_storage_params', 'seqno', 'get_public_key', 'get_storage_contract_address'],
    [],
  ),
  iface('storage_contract', ['get_storage_contract_data', 'get_torrent_hash', 'is_active', 'get_next_proof_info'], []),
  iface(
    'storm_vamm',
    [
      'get_amm_name',
      'get_amm_status',
      'get_amm_contract_data',
      'get_exchange_settings',
      'get_spot_price',
      'get_terminal_amm_price',
      'get_vamm_type',
    ],
    [],
  ),
  iface('storm_referral', ['get_nft_data', 'get_referral_data'], []),
  iface('storm_referral_collection', ['get_referral_vaults_whitelist'], []),
  iface('storm_executor', ['get_nft_data', 'get_executor_balances'], []),
  iface('storm_executor_collection', ['get_amm_name'], []),
  iface(
    'storm_vault',
    [
      'get_executor_collection_address',
      'get_referral_collection_address',
      'get_vault_contract_data',
      'get_lp_minter_address',
      'get_vault_whitelisted_addresses',
      'get_vault_data',
      'get_vault_type',
    ],
    [],
  ),
  iface('storm_position_manager', ['get_position_manager_contract_data'], []),
  iface('subscription_v1', ['get_subscription_data'], []),
  iface(
    'subscription_v2',
    ['get_subscription_info', 'get_payment_info', 'get_cron_info'],
    ['5d41bb7062ecff2aafeff205a6912d7c5cb22308db1d12c2087dc8cc0391c32e'],
  ),
  iface('coffee_mev_protector', [], ['58fbc2dba2684d38b80bfce3dc5a9ffce00af9b464c7b4dc21cf57e3aae11f1c']),
  iface('coffee_cross_dex', [], ['fea9c6a1ef5eab2c5ca94d6bef1e33994c5786abeb5264760e150da33bfb3677']),
  iface(
    'coffee_staking_master',
    ['get_stored_data', 'get_collection_data', 'get_nft_address_by_index', 'get_nft_content'],
    [],
  ),
  iface('coffee_staking_vault', ['get_stored_data', 'get_master_address'], []),
  iface('coffee_staking_item', ['get_stored_data', 'get_nft_data'], []),
  iface(
    'coffee_factory',
    [
      'get_vault_address',
      'get_pool_address',
      'get_pool_address_no_settings',
      'get_pool_creator_address',
      'get_pool_creator_address_no_settings',
      'get_liquidity_depository_address',
      'get_liquidity_depository_address_no_settings',
      'get_admin_address',
      'get_code',
    ],
    [],
  ),
  iface('coffee_vault', ['get_asset', 'is_active'], []),
  iface('coffee_vault_native', [], []),
  iface('coffee_vault_jetton', [], []),
  iface('coffee_vault_extra', [], []),
  iface(
    'coffee_pool',
    [
      'get_jetton_data',
      'get_wallet_address',
      'get_pool_data',
      'estimate_swap_amount',
      'estimate_liquidity_withdraw_amount',
      'estimate_liquidity_deposit_amount',
    ],
    [],
  ),
  iface('jetton_wallet_coffee_lp', [], ['d7c38fa994a8282657209f93ebc5dfe908a5f06d2e41f0c085e917bc4f54a2b3']),
  iface('teleitem', ['get_telemint_auction_state', 'get_telemint_auction_config', 'get_telemint_token_name'], []),
  iface(
    'tonco_pool',
    ['get_collection_data', 'getIsActive', 'getPoolStateAndConfiguration', 'getChildContracts', 'getAllTickInfos'],
    ['bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e'],
  ),
  iface(
    'tonco_router',
    ['getRouterState', 'getPoolAddress', 'getChildContracts'],
    ['9b9891eaa7db7becc6ccdda1bd9a8d25dc3df2817d57e4b27ec003daf81a4439'],
  ),
  iface(
    'tonkeeper_2fa',
    ['get_wallet_addr', 'get_root_pubkey', 'get_seed_pubkey', 'get_delegation_state', 'get_estimated_attached_value'],
    ['c5ef19df22aee8b707bd7a181174e400a4225223c5ae40d8320f5ddd707d34a1'],
  ),
  iface('tv_pool', ['get_pool_data', 'get_nominator_data', 'list_nominators', 'list_votes'], []),
  wallet('wallet_v1r1', []),
  wallet('wallet_v1r2', ['seqno']),
  wallet('wallet_v1r3', ['seqno', 'get_public_key']),
  wallet('wallet_v2r1', ['seqno']),
  wallet('wallet_v2r2', ['seqno', 'get_public_key']),
  wallet('wallet_v3r1', ['seqno']),
  wallet('wallet_v3r2', ['get_public_key', 'seqno']),
  wallet('wallet_v4r1', ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id']),
  wallet('wallet_v4r2', ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id']),
  wallet('wallet_v5_beta', ['seqno']),
  wallet('wallet_v5r1', ['seqno', 'get_public_key', 'get_subwallet_id', 'get_extensions', 'is_signature_allowed']),
  wallet('wallet_highload_v1r1', []),
  wallet('wallet_highload_v1r2', []),
  wallet('wallet_highload_v2', ['get_public_key']),
  wallet('wallet_highload_v2r1', []),
  wallet('wallet_highload_v2r2', []),
  wallet('wallet_highload_v3r1', ['get_public_key', 'get_subwallet_id', 'get_timeout']),
  wallet('wallet_preprocessed_v2', []),
  wallet('wallet_vesting', ['seqno', 'get_public_key', 'get_vesting_data']),
  iface('whales_pool', ['get_staking_status', 'get_pool_status', 'get_member', 'get_members_raw', 'get_params'], []),
  iface('x1000_wallet_v1', [], ['43d44716d326a832ced56a6b60a02cb67630e04f5785fe89f8784a110cf36151']),
  iface(
    'x1000_affiliate_account',
    ['get_affiliate_account_data'],
    ['4456fad12a434c4898b05ac65bab5de80db33f275c6020746de8e111a5cda4e6'],
  ),
  iface(
    'x1000_affiliate_program',
    ['get_affiliate_account_address'],
    ['c8bb962f993e269f91435bbe76c1bbadd6fa4ead3e9ac81ca0975e1820cbef0b'],
  ),
];

const byCodeHash = new Map<string, string>();
for (const rule of INTERFACES) for (const h of rule.codeHashes) if (!byCodeHash.has(h)) byCodeHash.set(h, rule.name);

/**
 * The interfaces of a contract from its code hash (base64) and the ids of its code's get-methods (null when the
 * code has no method dictionary). Unknown code without methods: [].
 */
export function detectInterfaces(codeHash: string | null, methods: readonly (number | bigint)[] | null): string[] {
  const exact = codeHash === null ? undefined : byCodeHash.get(codeHash);
  if (exact !== undefined) return [exact];
  if (!methods || methods.length === 0) return [];
  const present = new Set(methods.map(Number));
  return INTERFACES.filter((r) => r.methods.length > 0 && r.methods.every((id) => present.has(id)))
    .map((r) => r.name)
    .sort();
}

/** Code hashes named exactly (their method lists never matter): the address book skips loading their code. */
export function knownInterfaceCodeHashes(): string[] {
  return [...byCodeHash.keys()];
}
