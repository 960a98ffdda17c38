// JVault staking bodies, as ton-marker names them: the pool's receive_jettons#d68a4ac1 (with its whitelist),
// unstake_jettons#499a9262 and unstake_request#0168d4b7, claim_rewards#78d9f109, and the commands ton-marker shows
// as their tag and the rest of the body (send_claimed_rewards, update_rewards, set_data, referrer updates).
import { addressMap, body, bool, coins, type MarkerConstructor, queryId, record, rest, uint } from './read.ts';

// (HashmapE 267 Bit): addresses -> `_ bit:(## 1)`
const addressSet = addressMap(record(null, [['bit', uint(1)]]));
const restOnly = (name: string, op: number) => body(name, op, [['rest', rest]]);

export const JVAULT_BODIES: readonly MarkerConstructor[] = [
  // receive_jettons#d68a4ac1 query_id min_deposit max_deposit unstake_commission:uint16 unstake_fee whitelist
  //   received_jettons
  body('jvault_receive_jettons', 0xd68a4ac1, [
    ['query_id', queryId],
    ['min_deposit', coins],
    ['max_deposit', coins],
    ['unstake_commission', uint(16)],
    ['unstake_fee', coins],
    ['whitelist', addressSet],
    ['received_jettons', coins],
  ]),
  // unstake_jettons#499a9262 query_id jettons_to_unstake force_unstake:Bool
  body('jvault_unstake_jettons', 0x499a9262, [
    ['query_id', queryId],
    ['jettons_to_unstake', coins],
    ['force_unstake', bool],
  ]),
  // unstake_request#0168d4b7 query_id jettons_to_unstake
  body('jvault_unstake_request', 0x0168d4b7, [
    ['query_id', queryId],
    ['jettons_to_unstake', coins],
  ]),
  // claim_rewards#78d9f109 query_id jettons_to_claim:(HashmapE 267 Bit)
  body('jvault_claim_rewards_msg', 0x78d9f109, [
    ['query_id', queryId],
    ['jettons_to_claim', addressSet],
  ]),
  restOnly('jvault_send_claimed_rewards', 0x44bc1fe3),
  restOnly('jvault_request_update_rewards', 0xf5c5baa3),
  restOnly('jvault_update_rewards', 0xae9307ce),
  restOnly('jvault_request_update_referrer', 0x55c35b40),
  restOnly('jvault_update_referrer', 0x076ee4e0),
  restOnly('jvault_set_data', 0x383411ea),
];
