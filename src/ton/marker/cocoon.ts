// Cocoon (decentralised AI inference) bodies, as ton-marker names them: the proxy's payouts and returns
// (payout#c59a7cd3, return_excesses_back#2565934c), the worker's and client's requests through the proxy
// (#4d725d2c, #65448ff4), the owner's client commands, proxy registration, and the signed payloads a worker or
// client sends (payout#a040ad28, last_payout#f5f26a36, grant_refund#efd711e1).
import {
  address,
  body,
  cell,
  coins,
  type Fields,
  type MarkerConstructor,
  maybeCell,
  queryId,
  queryOnly,
  rest,
  uint,
} from './read.ts';

const excessesTo: Fields = [['send_excesses_to', address]];
const withExcesses = (name: string, op: number, middle: Fields = []) =>
  body(name, op, [['query_id', queryId], ...middle, ...excessesTo]);
// A signed payload: query_id new_tokens:uint64 expected_my_address
const signedPayload = (name: string, op: number, tokens: string) =>
  body(name, op, [
    ['query_id', queryId],
    [tokens, uint(64)],
    ['expected_my_address', address],
  ]);

export const COCOON_BODIES: readonly MarkerConstructor[] = [
  queryOnly('cocoon_return_excesses_back', 0x2565934c),
  queryOnly('cocoon_payout', 0xc59a7cd3),
  // worker_proxy_request#4d725d2c query_id owner_address state:uint2 tokens:uint64 payload:(Maybe ^Cell)
  body('cocoon_worker_proxy_request', 0x4d725d2c, [
    ['query_id', queryId],
    ['owner_address', address],
    ['state', uint(2)],
    ['tokens', uint(64)],
    ['payload', maybeCell],
  ]),
  // client_proxy_request#65448ff4 query_id owner_address state_data:^Cell payload:(Maybe ^Cell)
  body('cocoon_client_proxy_request', 0x65448ff4, [
    ['query_id', queryId],
    ['owner_address', address],
    ['state_data', cell],
    ['payload', maybeCell],
  ]),
  // client_proxy_refund_granted#c68ebc7b coins send_excesses_to (no query id)
  body('cocoon_client_proxy_refund_granted', 0xc68ebc7b, [['coins', coins], ...excessesTo]),
  signedPayload('cocoon_payout_payload', 0xa040ad28, 'new_tokens'),
  signedPayload('cocoon_last_payout_payload', 0xf5f26a36, 'new_tokens'),
  // register_proxy#927c7cb5 query_id proxy_info:Cell (the rest of the body)
  body('cocoon_register_proxy', 0x927c7cb5, [
    ['query_id', queryId],
    ['proxy_info', rest],
  ]),
  // unregister_proxy#6d49eaf2 query_id seqno:uint32
  body('cocoon_unregister_proxy', 0x6d49eaf2, [
    ['query_id', queryId],
    ['seqno', uint(32)],
  ]),
  withExcesses('cocoon_ext_proxy_payout_request', 0x7610e6eb),
  withExcesses('cocoon_ext_client_top_up', 0xf172e6c2, [['top_up_amount', coins]]),
  withExcesses('cocoon_owner_client_register', 0xc45f9f3b, [['nonce', uint(64)]]),
  withExcesses('cocoon_owner_client_change_secret_hash', 0xa9357034, [['new_secret_hash', uint(256)]]),
  withExcesses('cocoon_owner_client_increase_stake', 0x6a1f6a60, [['new_stake', coins]]),
  withExcesses('cocoon_owner_client_withdraw', 0xda068e78),
  withExcesses('cocoon_owner_client_request_refund', 0xfafa6cc1),
  signedPayload('cocoon_grant_refund_payload', 0xefd711e1, 'new_tokens_used'),
];
