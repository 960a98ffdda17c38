// STON.fi DEX bodies (v1 router and pool, v2 router, pTON), as ton-marker names them. v1: swap#25938561 from the
// router to the pool, payment_request#f93bb43f from the pool; v2: swap#6664de2a (router -> pool, with the
// dex_payload the jetton_notify carried), pay_to#657b54f5 (pool -> router), pTON's ton_transfer#01f3835d. The swap's
// forward payloads (inside jetton_notify) share the router body's tag and come after it, as there.
import {
  address,
  body,
  bool,
  coins,
  either,
  eitherCell,
  type Fields,
  type MarkerConstructor,
  maybe,
  maybeCell,
  queryId,
  record,
  ref,
  uint,
} from './read.ts';

// swap_body#_ / cross_swap_body#_: what the pool does with the swap's output.
const swapBodyFields: Fields = [
  ['min_out', coins],
  ['receiver', address],
  ['fwd_gas', coins],
  ['custom_payload', maybeCell],
  ['refund_fwd_gas', coins],
  ['refund_payload', maybeCell],
  ['ref_fee', uint(16)],
  ['ref_address', address],
];

// dex_payload#_ transferred_op:uint32 token_wallet1 refund_address excesses_address tx_deadline:uint64 _:^swap_body
const dexPayload = record('dex_payload', [
  ['transferred_op', uint(32)],
  ['token_wallet1', address],
  ['refund_address', address],
  ['excesses_address', address],
  ['tx_deadline', uint(64)],
  ['_', ref(record('swap_body', swapBodyFields))],
]);

// pay_to_params#_ amount0_out token0_address amount1_out token1_address
const payToParams = record('pay_to_params', [
  ['amount0_out', coins],
  ['token0_address', address],
  ['amount1_out', coins],
  ['token1_address', address],
]);

export const STONFI_BODIES: readonly MarkerConstructor[] = [
  // v1 router -> pool: swap#25938561 query_id to_address sender_address jetton_amount min_out has_ref_address:Bool
  //   addrs:^swap_addresses (from_user)
  body('stonfi_swap', 0x25938561, [
    ['query_id', queryId],
    ['to_address', address],
    ['sender_address', address],
    ['jetton_amount', coins],
    ['min_out', coins],
    ['has_ref_address', bool],
    ['addrs', ref(record('swap_addresses', [['from_user', address]]))],
  ]),
  // v1 jetton_notify payload: swap#25938561 token_wallet min_out to_address referral_address:(Maybe MsgAddress)
  body('stonfi_swap_forward_payload', 0x25938561, [
    ['token_wallet', address],
    ['min_out', coins],
    ['to_address', address],
    ['referral_address', maybe(address)],
  ]),
  // v1 pool -> router: payment_request#f93bb43f query_id owner exit_code:uint32 params:(Either pay_to_params ^...)
  body('stonfi_payment_request', 0xf93bb43f, [
    ['query_id', queryId],
    ['owner', address],
    ['exit_code', uint(32)],
    ['params', either(payToParams, ref(payToParams))],
  ]),
  // v1 payment comments: swap_ok#c64370e5 and swap_ok_ref#45078540 (no fields).
  body('stonfi_swap_ok_forward_payload', 0xc64370e5, []),
  body('stonfi_swap_ok_ref_forward_payload', 0x45078540, []),
  // pTON: ton_transfer#01f3835d query_id ton_amount refund_address forward_payload:(Either Cell ^Cell)
  body('pton_ton_transfer', 0x01f3835d, [
    ['query_id', queryId],
    ['ton_amount', coins],
    ['refund_address', address],
    ['forward_payload', eitherCell],
  ]),
  // v2 pool -> router: pay_to#657b54f5 query_id to_address excesses_address original_caller exit_code:uint32
  //   custom_payload:(Maybe ^Cell) _:^additional_info (fwd_ton_amount amount0_out token0 amount1_out token1)
  body('stonfi_pay_to_v2', 0x657b54f5, [
    ['query_id', queryId],
    ['to_address', address],
    ['excesses_address', address],
    ['original_caller', address],
    ['exit_code', uint(32)],
    ['custom_payload', maybeCell],
    [
      '_',
      ref(
        record('additional_info_pay_to_v2', [
          ['fwd_ton_amount', coins],
          ['amount0_out', coins],
          ['token0_address', address],
          ['amount1_out', coins],
          ['token1_address', address],
        ]),
      ),
    ],
  ]),
  // v2 router -> pool: swap#6664de2a query_id from_user left_amount right_amount _:^dex_payload
  body('stonfi_swap_v2', 0x6664de2a, [
    ['query_id', queryId],
    ['from_user', address],
    ['left_amount', coins],
    ['right_amount', coins],
    ['_', ref(dexPayload)],
  ]),
  // v2 jetton_notify payload: swap#6664de2a token_wallet1 refund_address excesses_address tx_deadline:uint64
  //   _:^cross_swap_body
  body('stonfi_swap_v2_forward_payload', 0x6664de2a, [
    ['token_wallet1', address],
    ['refund_address', address],
    ['excesses_address', address],
    ['tx_deadline', uint(64)],
    ['_', ref(record('cross_swap_body', swapBodyFields))],
  ]),
];
