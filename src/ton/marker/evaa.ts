// EVAA lending bodies, as ton-marker names them: the master's supply#00000001, withdraw#00000002 and
// liquidate#00000003 requests (with the signed prices they carry), the user contract's reports to the master
// (supply_success#11a, supply_fail#11f, withdraw_collateralized#211, liquidate_satisfied#311,
// liquidate_unsatisfied#31f), the master's answers (withdraw_success#211a, withdraw_fail#211f,
// liquidate_success#311a, liquidate_fail#311f, liquidate_success_report#311d) and the refusals and excesses of a
// withdrawal. Several tags have layouts of several EVAA versions, tried newest first as there; 0x00000001 is also
// Pyth's update_guardian_set, which ton-marker tries before EVAA's layouts.
import {
  address,
  addressInt,
  bits,
  body,
  cell,
  coins,
  type Fields,
  int,
  type MarkerConstructor,
  maybe,
  queryId,
  queryOnly,
  type Read,
  record,
  ref,
  rest,
  tagged,
  uint,
} from './read.ts';

// One-field wrappers: EvaaAmount (amount:uint64), EvaaAssetId (asset_id:uint256), EvaaPrincipal (principal:int64),
// EvaaTrackingIndex (tracking_index:uint64).
const amount = record(null, [['amount', uint(64)]]);
const assetId = record(null, [['asset_id', uint(256)]]);
const principal = record(null, [['principal', int(64)]]);
const trackingIndex = record(null, [['tracking_index', uint(64)]]);

// bool_true$11 | bool_false$00
const boolExtended = tagged(2, [
  [0b11, 'bool_true', []],
  [0b00, 'bool_false', []],
]);

// prices_packed$_ assets:^price_assets (id:uint256 price:Coins next_asset:(Maybe ^...)) oracles_data:^
//   price_oracles_data (oracle_id:uint32 proof:^Cell signature:bits512 next_oracles_data:(Maybe ^...))
const priceAssets: Read = (s) =>
  record('price_assets', [
    ['id', uint(256)],
    ['price', coins],
    ['next_asset', maybe(ref(priceAssets))],
  ])(s);
const oraclesData: Read = (s) =>
  record('price_oracles_data', [
    ['oracle_id', uint(32)],
    ['proof', cell],
    ['signature', bits(512)],
    ['next_oracles_data', maybe(ref(oraclesData))],
  ])(s);
const pricesPacked = record('prices_packed', [
  ['assets', ref(priceAssets)],
  ['oracles_data', ref(oraclesData)],
]);

// liquidate_unsatisfied's error (32-bit tags)
const liquidationError = tagged(32, [
  [0x31f0, 'user_withdraw_in_progress', []],
  [0x31f2, 'not_liquidatable', []],
  [0x31f7, 'liquidation_prices_missing', []],
  [0x31f3, 'min_collateral_not_satisfied', [['collateral_amount', amount]]],
  [0x31f4, 'user_not_enough_collateral', [['collateral_present', amount]]],
  [0x31f5, 'user_liquidating_too_much', [['max_not_too_much', amount]]],
  [0x31fe, 'liqudation_execution_crashed', []],
]);

const supplyMasterHead: Fields = [
  ['query_id', queryId],
  ['include_user_code', boolExtended],
  ['supply_amount', amount],
  ['recipient_address', addressInt],
];

const liquidateMasterHead: Fields = [
  ['query_id', queryId],
  ['borrower_address', addressInt],
  ['liquidator_address', address],
  ['collateral_asset_id', assetId],
  ['min_collateral_amount', amount],
  ['include_user_code', boolExtended],
  ['liquidate_incoming_amount', amount],
  [
    '_',
    ref(
      record(null, [
        ['forward_ton_amount', amount],
        ['custom_response_payload', cell],
      ]),
    ),
  ],
];

const supplySuccessHead: Fields = [
  ['query_id', queryId],
  ['owner_address', addressInt],
  ['asset_id', assetId],
  ['amount_supplied', amount],
  ['user_new_principal', principal],
  ['repay_amount_principal', principal],
];

const supplyFailHead: Fields = [
  ['query_id', queryId],
  ['owner_address', addressInt],
  ['asset_id', assetId],
  ['amount', amount],
  ['forward_ton_amount', amount],
  ['custom_response_payload', cell],
];

const withdrawCollateralizedHead: Fields = [
  ['query_id', queryId],
  ['owner_address', addressInt],
  ['asset_id', assetId],
  ['withdraw_amount_current', amount],
  ['user_new_principal', principal],
  ['borrow_amount_principal', principal],
];

const liquidateUserHead: Fields = [
  ['query_id', queryId],
  ['owner_address', addressInt],
  ['liquidator_address', addressInt],
  ['transferred_asset_id', assetId],
];

export const EVAA_BODIES: readonly MarkerConstructor[] = [
  // ton-marker's first constructor of 0x00000001 (named for EVAA, Pyth and wallet v4's deploy_install_plugin) only
  // reads a 32-bit salt, rand#387da03b, that no body carries: it names the tag and lets the others be tried.
  body('evaa_supply_master', 0x00000001, [['rand', tagged(32, [[0x387da03b, 'rand', []]])]]),
  // Pyth update_guardian_set#00000001 ^[ version:uint8 guardian_set_index:uint32 signatures_length:uint8
  //   rest_signatures:Any ]
  body('pyth_update_guardian_set', 0x00000001, [
    [
      '_',
      ref(
        record(null, [
          ['version', uint(8)],
          ['guardian_set_index', uint(32)],
          ['signatures_length', uint(8)],
          ['rest_signatures', rest],
        ]),
      ),
    ],
  ]),
  // withdraw_success#211a query_id asset_id principal_amount tracking_supply_index tracking_borrow_index
  body('evaa_withdraw_success', 0x0000211a, [
    ['query_id', queryId],
    ['asset_id', assetId],
    ['principal_amount', principal],
    ['tracking_supply_index', trackingIndex],
    ['tracking_borrow_index', trackingIndex],
  ]),
  // supply_master#1 query_id include_user_code supply_amount recipient_address forward_ton_amount
  //   custom_response_payload:^Cell
  body('evaa_supply_master', 0x00000001, [
    ...supplyMasterHead,
    ['forward_ton_amount', amount],
    ['custom_response_payload', cell],
  ]),
  // supply_success#11a (v9): ... supply_amount_principal custom_response_payload:^Cell subaccount_id:int16
  //   return_repay_remainings_flag ^[ custom_payload_recipient ] custom_payload_saturation_flag
  body('evaa_supply_success', 0x0000011a, [
    ...supplySuccessHead,
    ['supply_amount_principal', principal],
    ['custom_response_payload', cell],
    ['subaccount_id', int(16)],
    ['return_repay_remainings_flag', boolExtended],
    ['_', ref(record(null, [['custom_payload_recipient', address]]))],
    ['custom_payload_saturation_flag', boolExtended],
  ]),
  // supply_fail#11f (v9): ... subaccount_id:int16 return_repay_remainings_flag ^[ initial_sender ]
  body('evaa_supply_fail', 0x0000011f, [
    ...supplyFailHead,
    ['subaccount_id', int(16)],
    ['return_repay_remainings_flag', boolExtended],
    ['_', ref(record(null, [['initial_sender', addressInt]]))],
  ]),
  // withdraw_master#2 query_id asset_id amount recipient_addr include_user_code forward_ton_amount
  //   custom_response_payload:^Cell prices_with_signature_packed:^prices_packed
  body('evaa_withdraw_master', 0x00000002, [
    ['query_id', queryId],
    ['asset_id', assetId],
    ['amount', amount],
    ['recipient_addr', addressInt],
    ['include_user_code', boolExtended],
    ['forward_ton_amount', amount],
    ['custom_response_payload', cell],
    ['prices_with_signature_packed', ref(pricesPacked)],
  ]),
  // withdraw_collateralized#211 (v9): ... reclaim_amount_principal ^[ recipient_address forward_ton_amount
  //   custom_response_payload:^Cell ]
  body('evaa_withdraw_collateralized', 0x00000211, [
    ...withdrawCollateralizedHead,
    ['reclaim_amount_principal', principal],
    [
      '_',
      ref(
        record(null, [
          ['recipient_address', addressInt],
          ['forward_ton_amount', amount],
          ['custom_response_payload', cell],
        ]),
      ),
    ],
  ]),
  // withdraw_success#211a with data: query_id custom_response_payload:^Cell
  body('evaa_withdraw_success_excess_with_data', 0x0000211a, [
    ['query_id', queryId],
    ['custom_response_payload', cell],
  ]),
  // withdraw_fail#211f query_id asset_id principal_amount
  body('evaa_withdraw_fail', 0x0000211f, [
    ['query_id', queryId],
    ['asset_id', assetId],
    ['principal_amount', principal],
  ]),
  queryOnly('evaa_withdraw_locked_excess', 0x000021e6),
  queryOnly('evaa_withdraw_not_collateralized_excess', 0x000021e7),
  queryOnly('evaa_withdraw_no_funds_excess', 0x00211fe8),
  queryOnly('evaa_withdraw_missing_prices_excess', 0x000021e8),
  queryOnly('evaa_withdraw_execution_crashed', 0x000021ec),
  // supply_master#1 (v8): ... custom_response_payload:^Cell supply_master_optional:sm_opt_data (subaccount_id:int16
  //   return_repay_remainings_flag custom_payload_recipient custom_payload_saturation_flag)
  body('evaa_supply_master', 0x00000001, [
    ...supplyMasterHead,
    ['custom_response_payload', cell],
    [
      'supply_master_optional',
      record('sm_opt_data', [
        ['subaccount_id', int(16)],
        ['return_repay_remainings_flag', boolExtended],
        ['custom_payload_recipient', addressInt],
        ['custom_payload_saturation_flag', boolExtended],
      ]),
    ],
  ]),
  // supply_success#11a (v8): ... supply_amount_principal custom_response_payload:^Cell
  body('evaa_supply_success', 0x0000011a, [
    ...supplySuccessHead,
    ['supply_amount_principal', principal],
    ['custom_response_payload', cell],
  ]),
  // supply_fail#11f (v8): query_id owner_address asset_id amount forward_ton_amount custom_response_payload:^Cell
  body('evaa_supply_fail', 0x0000011f, supplyFailHead),
  // withdraw_collateralized#211 (older): ... reclaim_amount_principal_optional:Any
  body('evaa_withdraw_collateralized', 0x00000211, [
    ...withdrawCollateralizedHead,
    ['reclaim_amount_principal_optional', rest],
  ]),
  // withdraw_success#211a with data (older): query_id custom_response_payload:Any
  body('evaa_withdraw_success_excess_with_data', 0x0000211a, [
    ['query_id', queryId],
    ['custom_response_payload', rest],
  ]),
  // liquidate_master#3 query_id borrower_address liquidator_address collateral_asset_id min_collateral_amount
  //   include_user_code liquidate_incoming_amount ^[ forward_ton_amount custom_response_payload:^Cell ]
  //   prices_with_signature_packed:^prices_packed
  body('evaa_liquidate_master', 0x00000003, [
    ...liquidateMasterHead,
    ['prices_with_signature_packed', ref(pricesPacked)],
  ]),
  // liquidate_unsatisfied#31f ... ^[ transferred_amount collateral_asset_id min_collateral_amount
  //   forward_ton_amount:Coins custom_response_payload:^Cell error ]
  body('evaa_liquidate_unsatisfied', 0x0000031f, [
    ...liquidateUserHead,
    [
      '_',
      ref(
        record(null, [
          ['transferred_amount', amount],
          ['collateral_asset_id', assetId],
          ['min_collateral_amount', amount],
          ['forward_ton_amount', coins],
          ['custom_response_payload', cell],
          ['error', liquidationError],
        ]),
      ),
    ],
  ]),
  // liquidate_satisfied#311 ... ^[ delta_loan_principal liquidatable_amount protocol_gift new_user_loan_principal
  //   collateral_asset_id delta_collateral_principal collateral_reward min_collateral_amount
  //   new_user_collateral_principal forward_ton_amount:Coins custom_response_payload:^Cell ]
  body('evaa_liquidate_satisfied', 0x00000311, [
    ...liquidateUserHead,
    [
      '_',
      ref(
        record(null, [
          ['delta_loan_principal', principal],
          ['liquidatable_amount', amount],
          ['protocol_gift', amount],
          ['new_user_loan_principal', principal],
          ['collateral_asset_id', assetId],
          ['delta_collateral_principal', principal],
          ['collateral_reward', amount],
          ['min_collateral_amount', amount],
          ['new_user_collateral_principal', principal],
          ['forward_ton_amount', coins],
          ['custom_response_payload', cell],
        ]),
      ),
    ],
  ]),
  // liquidate_success#311a query_id transferred_asset_id delta_loan_principal loan_tracking_supply_index
  //   loan_tracking_borrow_index collateral_asset_id delta_collateral_principal collateral_tracking_supply_index
  //   collateral_tracking_borrow_index
  body('evaa_liquidate_success', 0x0000311a, [
    ['query_id', queryId],
    ['transferred_asset_id', assetId],
    ['delta_loan_principal', principal],
    ['loan_tracking_supply_index', trackingIndex],
    ['loan_tracking_borrow_index', trackingIndex],
    ['collateral_asset_id', assetId],
    ['delta_collateral_principal', principal],
    ['collateral_tracking_supply_index', trackingIndex],
    ['collateral_tracking_borrow_index', trackingIndex],
  ]),
  // liquidate_fail#311f query_id transferred_asset_id delta_loan_principal collateral_asset_id
  //   delta_collateral_principal
  body('evaa_liquidate_fail', 0x0000311f, [
    ['query_id', queryId],
    ['transferred_asset_id', assetId],
    ['delta_loan_principal', principal],
    ['collateral_asset_id', assetId],
    ['delta_collateral_principal', principal],
  ]),
  // liquidate_success_report#311d transferred_asset_id transferred_amount collateral_asset_id collateral_reward
  //   custom_response_payload:^Cell (no query id)
  body('evaa_liquidate_success_report', 0x0000311d, [
    ['transferred_asset_id', assetId],
    ['transferred_amount', amount],
    ['collateral_asset_id', assetId],
    ['collateral_reward', amount],
    ['custom_response_payload', cell],
  ]),
  // supply_master#1 (older): ... custom_response_payload:^Cell supply_master_optional:Any
  body('evaa_supply_master', 0x00000001, [
    ...supplyMasterHead,
    ['custom_response_payload', cell],
    ['supply_master_optional', rest],
  ]),
  // supply_success#11a (older): ... repay_amount_principal custom_response_payload:Any
  body('evaa_supply_success', 0x0000011a, [...supplySuccessHead, ['custom_response_payload', rest]]),
  // liquidate_master#3 (older): without the prices
  body('evaa_liquidate_master', 0x00000003, liquidateMasterHead),
];
