// DeDust v2 bodies (vault, pool, liquidity deposit), as ton-marker names them: swap#ea06185d (native vault) and its
// jetton-notify payload swap#e3a0d482, swap_external#61ee542d (vault -> pool), swap_peer#72aca8aa (pool -> pool),
// pay_out_from_pool#ad4eb6f5, payout#474f86cf; the liquidity path deposit_liquidity#d55e4686 (and its payload
// #40e108d6), create_liquidity_deposit#f04ec526, deposit_asset#54240fe5, deposit_liquidity_all#b56b9598,
// fulfill_deposit#aae79256, reject_deposit#e1a36cd4, pay_out_from_deposit#6b0b787f, install#9b3aa3fa.
import {
  address,
  addressInt,
  bits,
  body,
  bool,
  cell,
  coins,
  type Fields,
  int,
  type MarkerConstructor,
  maybe,
  maybeCell,
  queryId,
  type Read,
  record,
  ref,
  rest,
  tagged,
  uint,
} from './read.ts';

// native$0000 | jetton$0001 workchain_id:int8 address:bits256
const asset = tagged(4, [
  [0b0000, 'native', []],
  [
    0b0001,
    'jetton',
    [
      ['workchain_id', int(8)],
      ['address', bits(256)],
    ],
  ],
]);

// pool_params#_ is_stable:Bool asset0 asset1
const poolParams = record('pool_params', [
  ['is_stable', bool],
  ['asset0', asset],
  ['asset1', asset],
]);

// vault#01 | pool#02 | liquidity_deposit#03 | operator#04
const contractType = tagged(8, [
  [1, 'vault', []],
  [2, 'pool', []],
  [3, 'liquidity_deposit', []],
  [4, 'operator', []],
]);

// proof#_ {X} factory_addr:MsgAddressInt contract_type params:X, wrapped in a one-field record (`_ proof:...`).
const proofOf = (params: Read): Read =>
  record(null, [
    [
      'proof',
      record('proof', [
        ['factory_addr', addressInt],
        ['contract_type', contractType],
        ['params', params],
      ]),
    ],
  ]);
const vaultProof = proofOf(asset);
const poolProof = proofOf(poolParams);
const depositProof = proofOf(
  ref(
    record(null, [
      ['owner_addr', addressInt],
      ['pool_params', poolParams],
    ]),
  ),
);

// step_params#_ kind:(given_in$0 | given_out$1) limit:Coins next:(Maybe ^step); step#_ pool_addr params
const swapKind = tagged(1, [
  [0, 'given_in', []],
  [1, 'given_out', []],
]);
const stepParams: Read = (s) =>
  record('step_params', [
    ['kind', swapKind],
    ['limit', coins],
    ['next', maybe(ref(swapStep))],
  ])(s);
const swapStep: Read = (s) =>
  record('step', [
    ['pool_addr', addressInt],
    ['params', stepParams],
  ])(s);

// swap_params#_ deadline:(_ timestamp:uint32) recipient_addr referral_addr fulfill_payload reject_payload
const swapParams = record('swap_params', [
  ['deadline', record(null, [['timestamp', uint(32)]])],
  ['recipient_addr', address],
  ['referral_addr', address],
  ['fulfill_payload', maybeCell],
  ['reject_payload', maybeCell],
]);

const depositPayloads: Fields = [
  ['fulfill_payload', maybeCell],
  ['reject_payload', maybeCell],
];

export const DEDUST_BODIES: readonly MarkerConstructor[] = [
  // deposit_liquidity#d55e4686 query_id amount pool_params deposit_params:^(min_lp_amount asset0_target_balance
  //   asset1_target_balance) fulfill_payload reject_payload; the flat form (targets in place) is tried next.
  body('dedust_deposit_liquidity', 0xd55e4686, [
    ['query_id', queryId],
    ['amount', coins],
    ['pool_params', poolParams],
    [
      'deposit_params',
      ref(
        record(null, [
          ['min_lp_amount', coins],
          ['asset0_target_balance', coins],
          ['asset1_target_balance', coins],
        ]),
      ),
    ],
    ...depositPayloads,
  ]),
  // create_liquidity_deposit#f04ec526 query_id proof:^vault_proof owner_addr pool_params ^[ asset0_target_balance
  //   asset1_target_balance deposit_asset deposit_amount min_lp_amount ] fulfill_payload reject_payload
  body('dedust_create_liquidity_deposit', 0xf04ec526, [
    ['query_id', queryId],
    ['proof', ref(vaultProof)],
    ['owner_addr', addressInt],
    ['pool_params', poolParams],
    [
      '_',
      ref(
        record(null, [
          ['asset0_target_balance', coins],
          ['asset1_target_balance', coins],
          ['deposit_asset', asset],
          ['deposit_amount', coins],
          ['min_lp_amount', coins],
        ]),
      ),
    ],
    ...depositPayloads,
  ]),
  // install#9b3aa3fa query_id blank_code:^Cell code_version:(_ version:uint16) code:^Cell extra_params:Cell
  body('dedust_install', 0x9b3aa3fa, [
    ['query_id', queryId],
    ['blank_code', cell],
    ['code_version', record(null, [['version', uint(16)]])],
    ['code', cell],
    ['extra_params', rest],
  ]),
  // pay_out_from_deposit#6b0b787f query_id proof:^deposit_proof amount payload:(Maybe ^Cell)
  body('dedust_pay_out_from_deposit', 0x6b0b787f, [
    ['query_id', queryId],
    ['proof', ref(depositProof)],
    ['amount', coins],
    ['payload', maybeCell],
  ]),
  // pay_out_from_pool#ad4eb6f5 query_id proof:^pool_proof amount recipient_addr payload:(Maybe ^Cell)
  body('dedust_pay_out_from_pool', 0xad4eb6f5, [
    ['query_id', queryId],
    ['proof', ref(poolProof)],
    ['amount', coins],
    ['recipient_addr', address],
    ['payload', maybeCell],
  ]),
  // deposit_liquidity#d55e4686, the flat form: query_id amount pool_params min_lp_amount asset0_target_balance
  //   asset1_target_balance fulfill_payload reject_payload
  body('dedust_deposit_liquidity', 0xd55e4686, [
    ['query_id', queryId],
    ['amount', coins],
    ['pool_params', poolParams],
    ['min_lp_amount', coins],
    ['asset0_target_balance', coins],
    ['asset1_target_balance', coins],
    ...depositPayloads,
  ]),
  // payout#474f86cf query_id payload:(Maybe ^Cell)
  body('dedust_payout', 0x474f86cf, [
    ['query_id', queryId],
    ['payload', maybeCell],
  ]),
  // swap#ea06185d query_id amount _:step swap_params:^swap_params (to the native vault)
  body('dedust_swap', 0xea06185d, [
    ['query_id', queryId],
    ['amount', coins],
    ['_', swapStep],
    ['swap_params', ref(swapParams)],
  ]),
  // deposit_liquidity#40e108d6 (jetton_notify payload): pool_params min_lp_amount asset0_target_balance
  //   asset1_target_balance fulfill_payload reject_payload
  body('dedust_deposit_liquidity', 0x40e108d6, [
    ['pool_params', poolParams],
    ['min_lp_amount', coins],
    ['asset0_target_balance', coins],
    ['asset1_target_balance', coins],
    ...depositPayloads,
  ]),
  // swap#e3a0d482 (jetton_notify payload): _:step swap_params:^swap_params
  body('dedust_swap', 0xe3a0d482, [
    ['_', swapStep],
    ['swap_params', ref(swapParams)],
  ]),
  // deposit_liquidity_all#b56b9598 query_id proof:^deposit_proof owner_addr min_lp_amount ^[ asset0 asset0_amount
  //   asset1 asset1_amount ] fulfill_payload reject_payload
  body('dedust_deposit_liquidity_all', 0xb56b9598, [
    ['query_id', queryId],
    ['proof', ref(depositProof)],
    ['owner_addr', addressInt],
    ['min_lp_amount', coins],
    [
      '_',
      ref(
        record(null, [
          ['asset0', asset],
          ['asset0_amount', coins],
          ['asset1', asset],
          ['asset1_amount', coins],
        ]),
      ),
    ],
    ...depositPayloads,
  ]),
  // swap_external#61ee542d query_id proof:^vault_proof amount sender_addr current:step_params swap_params:^...
  body('dedust_swap_external', 0x61ee542d, [
    ['query_id', queryId],
    ['proof', ref(vaultProof)],
    ['amount', coins],
    ['sender_addr', addressInt],
    ['current', stepParams],
    ['swap_params', ref(swapParams)],
  ]),
  // swap_peer#72aca8aa query_id proof:^pool_proof asset amount sender_addr current:step_params swap_params:^...
  body('dedust_swap_peer', 0x72aca8aa, [
    ['query_id', queryId],
    ['proof', ref(poolProof)],
    ['asset', asset],
    ['amount', coins],
    ['sender_addr', addressInt],
    ['current', stepParams],
    ['swap_params', ref(swapParams)],
  ]),
  // deposit_asset#54240fe5 query_id asset amount
  body('dedust_deposit_asset', 0x54240fe5, [
    ['query_id', queryId],
    ['asset', asset],
    ['amount', coins],
  ]),
  // fulfill_deposit#aae79256 query_id proof:^pool_proof asset0_deposit asset1_deposit
  body('dedust_fulfill_deposit', 0xaae79256, [
    ['query_id', queryId],
    ['proof', ref(poolProof)],
    ['asset0_deposit', coins],
    ['asset1_deposit', coins],
  ]),
  // reject_deposit#e1a36cd4 query_id proof:^pool_proof payload:(Maybe ^Cell)
  body('dedust_reject_deposit', 0xe1a36cd4, [
    ['query_id', queryId],
    ['proof', ref(poolProof)],
    ['payload', maybeCell],
  ]),
];
