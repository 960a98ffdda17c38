// TONCO (concentrated liquidity) bodies, as ton-marker names them: the router's pay_to#a1daa96d (a swap's payout
// with its swap info, or exit code 201's burn payout), create_pool#2e3034ef, the pool's init#441c39ed,
// swap#a7fb58f8, fund_account#4468de77 (and the same tag as a jetton_notify payload), mint_and_refund#81702ef8,
// start_burn#530b5f2c, burn#d73ac09d; the account's add_liquidity#3ebe5431; the position NFT's init#d5ecca2a and
// burn#46ca335a. TONCO keeps its camelCase field names in two places (swap params), as there.
import {
  address,
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
  record,
  ref,
  uint,
} from './read.ts';

const int24 = int(24);
const uint128 = uint(128);
const uint160 = uint(160);
const ticks: Fields = [
  ['tick_lower', int24],
  ['tick_upper', int24],
];

const oldFee: Fields = [
  ['fee_growth_inside_0_last_x128', uint(256)],
  ['fee_growth_inside_1_last_x128', uint(256)],
];

const coinsInfo: Fields = [
  ['amount0', coins],
  ['jetton0_address', address],
  ['amount1', coins],
  ['jetton1_address', address],
];

// The payload_cell of a normal payout: payload_amount0 payload_0:(Maybe ^Cell) payload_amount1 payload_1
const payloadCell = record(null, [
  ['payload_amount0', coins],
  ['payload_0', maybeCell],
  ['payload_amount1', coins],
  ['payload_1', maybeCell],
]);

const payToHead: Fields = [
  ['query_id', queryId],
  ['reciever0', address],
  ['reciever1', address],
  ['exit_code', uint(32)],
  ['seqno', uint(64)],
];

export const TONCO_BODIES: readonly MarkerConstructor[] = [
  // pay_to#a1daa96d query_id reciever0 reciever1 exit_code seqno coinsinfo_cell:(Maybe ^(coins info, payload_cell))
  //   indexer_swap_info_cell:(Maybe ^(liquidity price_sqrt tick fee_growth_global_0x128 fee_growth_global_1x128))
  body('tonco_router_pay_to_normal', 0xa1daa96d, [
    ...payToHead,
    ['coinsinfo_cell', maybe(ref(record(null, [...coinsInfo, ['payload_cell', ref(payloadCell)]])))],
    [
      'indexer_swap_info_cell',
      maybe(
        ref(
          record(null, [
            ['liquidity', uint128],
            ['price_sqrt', uint160],
            ['tick', int24],
            ['fee_growth_global_0x128', int(256)],
            ['fee_growth_global_1x128', int(256)],
          ]),
        ),
      ),
    ],
  ]),
  // pool -> router: swap#a7fb58f8 query_id owner_address source_wallet swap_params:^(amount sqrtPriceLimitX96
  //   minOutAmount) swap_payloads:^(target_address ok_forward_amount ok_forward_payload ret_forward_amount
  //   ret_forward_payload)
  body('tonco_pool_swap', 0xa7fb58f8, [
    ['query_id', queryId],
    ['owner_address', address],
    ['source_wallet', address],
    [
      'swap_params',
      ref(
        record(null, [
          ['amount', coins],
          ['sqrtPriceLimitX96', uint160],
          ['minOutAmount', coins],
        ]),
      ),
    ],
    [
      'swap_payloads',
      ref(
        record(null, [
          ['target_address', address],
          ['ok_forward_amount', coins],
          ['ok_forward_payload', maybeCell],
          ['ret_forward_amount', coins],
          ['ret_forward_payload', maybeCell],
        ]),
      ),
    ],
  ]),
  // mint_and_refund#81702ef8 query_id amount0_funded amount1_funded recipient liquidity:uint128 tick_lower tick_upper
  body('tonco_pool_mint_and_refund', 0x81702ef8, [
    ['query_id', queryId],
    ['amount0_funded', coins],
    ['amount1_funded', coins],
    ['recipient', address],
    ['liquidity', uint128],
    ...ticks,
  ]),
  // start_burn#530b5f2c query_id burned_index:uint64 liquidity_to_burn:uint128 tick_lower tick_upper
  body('tonco_pool_start_burn', 0x530b5f2c, [
    ['query_id', queryId],
    ['burned_index', uint(64)],
    ['liquidity_to_burn', uint128],
    ...ticks,
  ]),
  // burn#d73ac09d query_id recipient burned_index liquidity tick_lower tick_upper liquidity_to_burn
  //   old_fee_cell:^(inside_0_last inside_1_last) new_fee_cell:^(inside_0_current inside_1_current)
  body('tonco_pool_burn', 0xd73ac09d, [
    ['query_id', queryId],
    ['recipient', address],
    ['burned_index', uint(64)],
    ['liquidity', uint128],
    ...ticks,
    ['liquidity_to_burn', uint128],
    ['old_fee_cell', ref(record(null, oldFee))],
    [
      'new_fee_cell',
      ref(
        record(null, [
          ['fee_growth_inside_0_current_x128', uint(256)],
          ['fee_growth_inside_1_current_x128', uint(256)],
        ]),
      ),
    ],
  ]),
  // fund_account#4468de77 query_id owner_address amount0 amount1 enough0 enough1 liquidity tick_lower tick_upper
  body('tonco_pool_fund_account', 0x4468de77, [
    ['query_id', queryId],
    ['owner_address', address],
    ['amount0', coins],
    ['amount1', coins],
    ['enough0', coins],
    ['enough1', coins],
    ['liquidity', uint128],
    ...ticks,
  ]),
  // init#441c39ed query_id from_admin has_admin admin_address has_controller controller_address set_spacing
  //   tick_spacing:int24 set_price initial_price_x96:uint160 set_active pool_active protocol_fee:uint16
  //   lp_fee_base:uint16 lp_fee_current:uint16 nftv3_content:^Cell nftv3item_content:^Cell
  //   minter_cell:(Maybe ^(jetton0_minter jetton1_minter))
  body('tonco_pool_init', 0x441c39ed, [
    ['query_id', queryId],
    ['from_admin', bool],
    ['has_admin', bool],
    ['admin_address', address],
    ['has_controller', bool],
    ['controller_address', address],
    ['set_spacing', bool],
    ['tick_spacing', int24],
    ['set_price', bool],
    ['initial_price_x96', uint160],
    ['set_active', bool],
    ['pool_active', bool],
    ['protocol_fee', uint(16)],
    ['lp_fee_base', uint(16)],
    ['lp_fee_current', uint(16)],
    ['nftv3_content', cell],
    ['nftv3item_content', cell],
    [
      'minter_cell',
      maybe(
        ref(
          record(null, [
            ['jetton0_minter', address],
            ['jetton1_minter', address],
          ]),
        ),
      ),
    ],
  ]),
  // create_pool#2e3034ef query_id jetton_wallet0 jetton_wallet1 tick_spacing initial_price_x96 protocol_fee
  //   lp_fee_base lp_fee_current nftv3_content:^Cell nftv3item_content:^Cell
  //   minter_cell:^(jetton0_minter jetton1_minter controller_addr)
  body('tonco_router_create_pool', 0x2e3034ef, [
    ['query_id', queryId],
    ['jetton_wallet0', address],
    ['jetton_wallet1', address],
    ['tick_spacing', int24],
    ['initial_price_x96', uint160],
    ['protocol_fee', uint(16)],
    ['lp_fee_base', uint(16)],
    ['lp_fee_current', uint(16)],
    ['nftv3_content', cell],
    ['nftv3item_content', cell],
    [
      'minter_cell',
      ref(
        record(null, [
          ['jetton0_minter', address],
          ['jetton1_minter', address],
          ['controller_addr', address],
        ]),
      ),
    ],
  ]),
  // position NFT init#d5ecca2a query_id user_address liquidity tick_lower tick_upper old_fee_cell:^(inside_0_last
  //   inside_1_last nft_index:uint64 jetton0_amount jetton1_amount tick:int24)
  body('tonco_position_nft_init', 0xd5ecca2a, [
    ['query_id', queryId],
    ['user_address', address],
    ['liquidity', uint128],
    ...ticks,
    [
      'old_fee_cell',
      ref(
        record(null, [
          ...oldFee,
          ['nft_index', uint(64)],
          ['jetton0_amount', coins],
          ['jetton1_amount', coins],
          ['tick', int24],
        ]),
      ),
    ],
  ]),
  // position NFT burn#46ca335a query_id nft_owner liquidity_to_burn tick_lower tick_upper old_fee_cell:^(...)
  body('tonco_position_nft_burn', 0x46ca335a, [
    ['query_id', queryId],
    ['nft_owner', address],
    ['liquidity_to_burn', uint128],
    ...ticks,
    ['old_fee_cell', ref(record(null, oldFee))],
  ]),
  // account add_liquidity#3ebe5431 query_id new_amount0 new_amount1 new_enough0 new_enough1 liquidity tick_lower
  //   tick_upper
  body('tonco_account_add_liquidity', 0x3ebe5431, [
    ['query_id', queryId],
    ['new_amount0', coins],
    ['new_amount1', coins],
    ['new_enough0', coins],
    ['new_enough1', coins],
    ['liquidity', uint128],
    ...ticks,
  ]),
  // pay_to#a1daa96d with exit code 201 (a burn's payout): coinsinfo_cell:(Maybe ^(coins info))
  //   indexer_burn_info_cell:(Maybe ^(nft_index liquidity_burned tick_lower tick_upper tick_burn))
  body('tonco_router_pay_to_exit_code_201', 0xa1daa96d, [
    ...payToHead,
    ['coinsinfo_cell', maybe(ref(record(null, coinsInfo)))],
    [
      'indexer_burn_info_cell',
      maybe(
        ref(record(null, [['nft_index', uint(64)], ['liquidity_burned', uint128], ...ticks, ['tick_burn', int24]])),
      ),
    ],
  ]),
  // fund_account#4468de77 as a jetton_notify payload: other_jetton_wallet amount0 amount1 liquidity tick_lower
  //   tick_upper
  body('tonco_pool_fund_account_payload', 0x4468de77, [
    ['other_jetton_wallet', address],
    ['amount0', coins],
    ['amount1', coins],
    ['liquidity', uint128],
    ...ticks,
  ]),
];
