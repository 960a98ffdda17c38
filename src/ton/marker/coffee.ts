// swap.coffee bodies, as ton-marker names them. The DEX (tags 0xc0ffeeNN): swap#c0ffee00 to a vault, the vault's
// swap_internal#c0ffee20 to the pool, payout_internal#c0ffee21 back to a vault, payout#c0ffee32 to the user, the
// pool's swap_succeeded#c0ffee30 / deposit_liquidity_succeeded#c0ffee33 / withdraw_liquidity_succeeded#c0ffee35
// external logs, pool creation (#c0ffee02, #c0ffee11 payload, #c0ffee23, #c0ffee25), liquidity deposits (#c0ffee04,
// #c0ffee27, #c0ffee29), deploy#c0ffee22, create_vault#c0ffee06 and notification#c0ffee36. Staking:
// deposit#f9471134, claim_rewards#b30c7310 (the same tag as the rewards_claimed log), MEV protection's
// hold_funds#6bc79e7e.
import {
  addressInt,
  body,
  cell,
  coins,
  type Fields,
  int,
  type MarkerConstructor,
  maybe,
  maybeCell,
  queryId,
  queryOnly,
  type Read,
  record,
  ref,
  tagged,
  uint,
} from './read.ts';

// native$00 | jetton$01 chain:uint8 hash:uint256 | extra$10 id:uint32
const asset = tagged(2, [
  [0b00, 'native', []],
  [
    0b01,
    'jetton',
    [
      ['chain', uint(8)],
      ['hash', uint(256)],
    ],
  ],
  [0b10, 'extra', [['id', uint(32)]]],
]);

// constant_product$000 | curve_fi_stable$001
const amm = tagged(3, [
  [0b000, 'constant_product', []],
  [0b001, 'curve_fi_stable', []],
]);

// pool_params#_ first second amm amm_settings:(Maybe ^Cell)
const poolParams = record('pool_params', [
  ['first', asset],
  ['second', asset],
  ['amm', amm],
  ['amm_settings', maybeCell],
]);

// pool_creation_params#_ public:(recipient use_recipient_on_failure:int1 notification_data:(Maybe ^Cell))
//   private:(is_active:uint1 extra_settings:(Maybe ^Cell))
const poolCreationParams = record('pool_creation_params', [
  [
    'public',
    record('public_pool_creation_params', [
      ['recipient', addressInt],
      ['use_recipient_on_failure', int(1)],
      ['notification_data', maybeCell],
    ]),
  ],
  [
    'private',
    record('private_pool_creation_params', [
      ['is_active', uint(1)],
      ['extra_settings', maybeCell],
    ]),
  ],
]);

// notification_data_single#_ receiver fwd_gas payload:^Cell; notification_data#_ on_success on_failure
const notificationSingle = record('notification_data_single', [
  ['receiver', addressInt],
  ['fwd_gas', coins],
  ['payload', cell],
]);
const notificationData = record('notification_data', [
  ['on_success', maybe(ref(notificationSingle))],
  ['on_failure', maybe(ref(notificationSingle))],
]);

// none$00 | lp_quantity$01 min_lp_amount | reserves_ratio$10 denominator min_nominator max_nominator | complex$11
const ratio: Fields = [
  ['denominator', uint(16)],
  ['min_nominator', uint(16)],
  ['max_nominator', uint(16)],
];
const depositCondition = tagged(2, [
  [0b00, 'none', []],
  [0b01, 'lp_quantity', [['min_lp_amount', coins]]],
  [0b10, 'reserves_ratio', ratio],
  [0b11, 'complex', [['min_lp_amount', coins], ...ratio]],
]);

// deposit_liquidity_params_trimmed#_ recipient use_recipient_on_failure:int1 referral deadline:uint32 condition
//   extra_settings:(Maybe ^Cell) notification_data:(Maybe ^notification_data)
const depositParamsTrimmed = record('deposit_liquidity_params_trimmed', [
  ['recipient', addressInt],
  ['use_recipient_on_failure', int(1)],
  ['referral', addressInt],
  ['deadline', uint(32)],
  ['condition', depositCondition],
  ['extra_settings', maybeCell],
  ['notification_data', maybe(ref(notificationData))],
]);
// deposit_liquidity_params#_ params:^trimmed pool_params:^pool_params
const depositParams = record('deposit_liquidity_params', [
  ['params', ref(depositParamsTrimmed)],
  ['pool_params', ref(poolParams)],
]);

// swap_step_params#_ pool_address_hash:uint256 min_output_amount next:(Maybe ^swap_step_params)
const swapStepParams: Read = (s) =>
  record('swap_step_params', [
    ['pool_address_hash', uint(256)],
    ['min_output_amount', coins],
    ['next', maybe(ref(swapStepParams))],
  ])(s);

// swap_step_internal_params#_ previous_amount previous_asset_hint:(Maybe asset) min_output_amount next
const swapStepInternalParams = record('swap_step_internal_params', [
  ['previous_amount', coins],
  ['previous_asset_hint', maybe(asset)],
  ['min_output_amount', coins],
  ['next', maybe(ref(swapStepParams))],
]);

// swap_params#_ deadline:uint32 recipient referral notification_data:(Maybe ^notification_data)
const swapParams = record('swap_params', [
  ['deadline', uint(32)],
  ['recipient', addressInt],
  ['referral', addressInt],
  ['notification_data', maybe(ref(notificationData))],
]);

// pool_reserves#_ input_reserve output_reserve
const reserves = record('pool_reserves', [
  ['input_reserve', coins],
  ['output_reserve', coins],
]);

const liquidityLog = (name: string, op: number) =>
  body(name, op, [
    ['query_id', queryId],
    ['amount1', coins],
    ['amount2', coins],
    ['lp_amount', coins],
    ['total_supply', reserves],
    ['reserves', reserves],
  ]);

export const COFFEE_BODIES: readonly MarkerConstructor[] = [
  queryOnly('coffee_mev_protect_hold_funds', 0x6bc79e7e),
  // staking deposit#f9471134 query_id sender jetton_amount from_user period_id:uint32
  body('coffee_staking_deposit', 0xf9471134, [
    ['query_id', queryId],
    ['sender', addressInt],
    ['jetton_amount', coins],
    ['from_user', addressInt],
    ['period_id', uint(32)],
  ]),
  // claim_rewards#b30c7310 query_id jetton_wallet jetton_amount receiver payload:(Maybe ^(gas payload:^Cell))
  body('coffee_staking_claim_rewards', 0xb30c7310, [
    ['query_id', queryId],
    ['jetton_wallet', addressInt],
    ['jetton_amount', coins],
    ['receiver', addressInt],
    [
      'payload',
      maybe(
        ref(
          record('staking_forward_data', [
            ['gas', coins],
            ['payload', cell],
          ]),
        ),
      ),
    ],
  ]),
  // swap#c0ffee00 query_id amount _:swap_step_params params:^swap_params
  body('coffee_swap', 0xc0ffee00, [
    ['query_id', queryId],
    ['amount', coins],
    ['_', swapStepParams],
    ['params', ref(swapParams)],
  ]),
  // swap_internal#c0ffee20 query_id _:swap_step_internal_params params:^swap_params proof:^Cell
  body('coffee_swap_internal', 0xc0ffee20, [
    ['query_id', queryId],
    ['_', swapStepInternalParams],
    ['params', ref(swapParams)],
    ['proof', cell],
  ]),
  queryOnly('coffee_payout', 0xc0ffee32),
  // payout_internal#c0ffee21 query_id recipient amount notification_data:(Maybe ^single) proof:(Maybe ^Cell)
  body('coffee_payout_internal', 0xc0ffee21, [
    ['query_id', queryId],
    ['recipient', addressInt],
    ['amount', coins],
    ['notification_data', maybe(ref(notificationSingle))],
    ['proof', maybeCell],
  ]),
  // deploy#c0ffee22 code:^Cell data:^Cell action:(Maybe ^Cell)
  body('coffee_deploy', 0xc0ffee22, [
    ['code', cell],
    ['data', cell],
    ['action', maybeCell],
  ]),
  // create_pool#c0ffee02 query_id amount params:pool_params creation_params:pool_creation_params
  body('coffee_create_pool', 0xc0ffee02, [
    ['query_id', queryId],
    ['amount', coins],
    ['params', poolParams],
    ['creation_params', poolCreationParams],
  ]),
  // create_pool_creator_request#c0ffee23 query_id amount params creation_params:^... sender proof:^Cell
  body('coffee_create_pool_creator_request', 0xc0ffee23, [
    ['query_id', queryId],
    ['amount', coins],
    ['params', poolParams],
    ['creation_params', ref(poolCreationParams)],
    ['sender', addressInt],
    ['proof', cell],
  ]),
  // create_pool_request#c0ffee25 query_id amount1 amount2 tx_initiator creation_params:^... proof:^Cell
  body('coffee_create_pool_request', 0xc0ffee25, [
    ['query_id', queryId],
    ['amount1', coins],
    ['amount2', coins],
    ['tx_initiator', addressInt],
    ['creation_params', ref(poolCreationParams)],
    ['proof', cell],
  ]),
  // deposit_liquidity#c0ffee04 query_id input_amount params:deposit_liquidity_params
  body('coffee_deposit_liquidity', 0xc0ffee04, [
    ['query_id', queryId],
    ['input_amount', coins],
    ['params', depositParams],
  ]),
  // create_liquidity_depository_request#c0ffee27 query_id amount params sender proof:^Cell
  body('coffee_create_liquidity_depository_request', 0xc0ffee27, [
    ['query_id', queryId],
    ['amount', coins],
    ['params', depositParams],
    ['sender', addressInt],
    ['proof', cell],
  ]),
  // deposit_liquidity_internal#c0ffee29 query_id amount1 amount2 tx_initiator params:^trimmed proof:^Cell
  body('coffee_deposit_liquidity_internal', 0xc0ffee29, [
    ['query_id', queryId],
    ['amount1', coins],
    ['amount2', coins],
    ['tx_initiator', addressInt],
    ['params', ref(depositParamsTrimmed)],
    ['proof', cell],
  ]),
  // create_vault#c0ffee06 query_id asset
  body('coffee_create_vault', 0xc0ffee06, [
    ['query_id', queryId],
    ['asset', asset],
  ]),
  // notification#c0ffee36 query_id body:^Cell (a message body, and with the same layout a forward payload)
  body('coffee_notification', 0xc0ffee36, [
    ['query_id', queryId],
    ['body', cell],
  ]),
  // swap_succeeded#c0ffee30 query_id input:asset input_amount output_amount reserves protocol_fee (external log)
  body('coffee_swap_succeeded', 0xc0ffee30, [
    ['query_id', queryId],
    ['input', asset],
    ['input_amount', coins],
    ['output_amount', coins],
    ['reserves', reserves],
    ['protocol_fee', coins],
  ]),
  // rewards_claimed#b30c7310 query_id jetton_wallet amount receiver (external log, after claim_rewards)
  body('coffee_staking_rewards_claimed', 0xb30c7310, [
    ['query_id', queryId],
    ['jetton_wallet', addressInt],
    ['amount', coins],
    ['receiver', addressInt],
  ]),
  liquidityLog('coffee_deposit_liquidity_succeeded', 0xc0ffee33),
  liquidityLog('coffee_withdraw_liquidity_succeeded', 0xc0ffee35),
  // create_pool#c0ffee11 (jetton_notify payload): params:pool_params creation_params:pool_creation_params
  body('coffee_create_pool_forward_payload', 0xc0ffee11, [
    ['params', poolParams],
    ['creation_params', poolCreationParams],
  ]),
];
