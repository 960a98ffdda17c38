// Liquid and validator staking bodies, as ton-marker names them. Tonstakers: the pool's deposit#47d54391,
// withdraw#319b0cdc (the jetton burn notification), withdrawal#0a77535c, payout_mint_jettons#1674b0a0, and its
// withdrawal NFTs' init#132f9a45, burn#f127fe4e, burn_notification#ed58b0b2, payout#db3b8abd. The elector's
// new_stake#4e73744b (signed), its confirmation#f374484c, recover_stake#47657424 and its response#f96f7324.
import { address, bits, body, coins, type MarkerConstructor, queryId, queryOnly, ref, rest, uint } from './read.ts';

export const STAKING_BODIES: readonly MarkerConstructor[] = [
  // elector new_stake#4e73744b query_id validator_pubkey:bits256 stake_at:uint32 max_factor:uint32
  //   adnl_addr:bits256 signature:^bits512
  body('elector_new_stake', 0x4e73744b, [
    ['query_id', queryId],
    ['validator_pubkey', bits(256)],
    ['stake_at', uint(32)],
    ['max_factor', uint(32)],
    ['adnl_addr', bits(256)],
    ['signature', ref(bits(512))],
  ]),
  queryOnly('elector_new_stake_confirmation', 0xf374484c),
  queryOnly('elector_recover_stake_request', 0x47657424),
  queryOnly('elector_recover_stake_response', 0xf96f7324),
  // tonstakers deposit#47d54391 query_id referral:Cell (the rest of the body)
  body('tonstake_pool_deposit', 0x47d54391, [
    ['query_id', queryId],
    ['referral', rest],
  ]),
  // withdraw#319b0cdc query_id jetton_amount from_address response_address
  body('tonstake_pool_withdraw', 0x319b0cdc, [
    ['query_id', queryId],
    ['jetton_amount', coins],
    ['from_address', address],
    ['response_address', address],
  ]),
  queryOnly('tonstake_pool_withdrawal', 0x0a77535c),
  queryOnly('tonstake_nft_burn', 0xf127fe4e),
  // nft burn_notification#ed58b0b2 query_id amount owner index:uint64
  body('tonstake_nft_burn_notification', 0xed58b0b2, [
    ['query_id', queryId],
    ['amount', coins],
    ['owner', address],
    ['index', uint(64)],
  ]),
  // nft init#132f9a45 query_id owner amount prev next
  body('tonstake_nft_init', 0x132f9a45, [
    ['query_id', queryId],
    ['owner', address],
    ['amount', coins],
    ['prev', address],
    ['next', address],
  ]),
  queryOnly('tonstake_nft_payout', 0xdb3b8abd),
  // payout_mint_jettons#1674b0a0 query_id destination amount notification forward
  body('tonstake_payout_mint_jettons', 0x1674b0a0, [
    ['query_id', queryId],
    ['destination', address],
    ['amount', coins],
    ['notification', coins],
    ['forward', coins],
  ]),
];
