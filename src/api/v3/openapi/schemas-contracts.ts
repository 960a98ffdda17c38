// Response objects of the DNS, multisig and vesting endpoints (v3-api.md §3.6-3.8), as OpenAPI 3.0 schemas merged
// into components.schemas by schemas.ts (next to the token ones of schemas-tokens.ts); the Schema type comes
// from primitives.ts.
import type { Schema } from './primitives.ts';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const addresses = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });

const HASH = 'standard base64 (44 characters)';
const ADDRESS = 'raw address <workchain>:<64 upper-case hex digits>';
const withBook = (key: string, item: string): Schema =>
  obj({ [key]: { type: 'array', items: ref(item) }, address_book: ref('AddressBook') });

const dnsRecord = obj({
  nft_item_address: str(`the DNS item (an NFT of a .ton or .t.me collection), ${ADDRESS}`),
  nft_item_owner: nullable(str(`its owner, ${ADDRESS}; null while it is auctioned`)),
  domain: str('the full name, e.g. alice.ton'),
  dns_next_resolver: nullable(str(`the dns_next_resolver record, ${ADDRESS}; null without one`)),
  dns_wallet: nullable(str(`the wallet record, ${ADDRESS}; null without one`)),
  dns_site_adnl: nullable(str('the site record: ADNL address, 64 hex characters; null without one')),
  dns_storage_bag_id: nullable(str('the storage record: TON Storage bag id, 64 hex characters; null without one')),
});

const orderAction = obj({
  destination: nullable(str(`receiver of a send_message action, ${ADDRESS}; null otherwise`)),
  value: nullable(str('nanotons a send_message action sends, decimal string; null otherwise')),
  body_raw: nullable(str('the message body as a base64 BoC; null for other actions')),
  parsed: bool('the action was read'),
  error: nullable(str('why the action could not be read; null when it was')),
  parsed_body: nullable({
    type: 'object',
    additionalProperties: true,
    description:
      'the body by parsed_body_type: jetton_transfer, jetton_burn, jetton_mint, nft_transfer, ton_transfer {comment, encrypted}, multisig_update_params {new_threshold, new_signers, new_proposers}, jetton admin messages, unknown {opcode, data}; query ids as decimal strings, binary fields as base64 BoCs',
  }),
  parsed_body_type: str('the kind of parsed_body; "unknown" when the body or the action was not recognised'),
  send_mode: { type: 'integer', format: 'int32', description: 'send mode of a send_message action (0 otherwise)' },
});

const multisigOrder = obj({
  address: str(`the order contract, ${ADDRESS}`),
  multisig_address: str(`its multisig wallet, ${ADDRESS}`),
  order_seqno: nullable(str('order number in the multisig, decimal string')),
  threshold: nullable(int('approvals needed')),
  sent_for_execution: nullable(bool('the order reached its threshold and was sent for execution')),
  approvals_mask: nullable(str('bit i set when signer i approved, decimal string')),
  approvals_num: nullable(int('approvals so far')),
  expiration_date: nullable(int('unix time after which the order cannot execute')),
  order_boc: nullable(str('the order (Hashmap 8 ^Action) as a base64 BoC')),
  signers: addresses(`signers of the order, ${ADDRESS} each, in index order`),
  last_transaction_lt: str('lt of the last transaction the row reflects, decimal string'),
  code_hash: str(`code hash, ${HASH}`),
  data_hash: str(`data hash, ${HASH}`),
  actions: {
    type: 'array',
    items: ref('OrderAction'),
    description: 'the decoded order with parse_actions=true; empty otherwise',
  },
});

const multisig = obj({
  address: str(`the multisig v2 wallet, ${ADDRESS}`),
  next_order_seqno: nullable(str('next order number, decimal string (-1 when any seqno is allowed)')),
  threshold: nullable(int('approvals an order needs')),
  signers: addresses(`signers, ${ADDRESS} each, in index order`),
  proposers: addresses(`proposers, ${ADDRESS} each, in index order`),
  last_transaction_lt: str('lt of the last transaction the row reflects, decimal string'),
  code_hash: str(`code hash, ${HASH}`),
  data_hash: str(`data hash, ${HASH}`),
  orders: { type: 'array', items: ref('MultisigOrder'), description: 'its orders (empty with include_orders=false)' },
});

const vestingInfo = obj({
  address: str(`the vesting contract, ${ADDRESS}`),
  start_time: nullable(int('vesting start, unix seconds')),
  total_duration: nullable(int('vesting length, seconds')),
  unlock_period: nullable(int('unlock step, seconds')),
  cliff_duration: nullable(int('cliff, seconds')),
  sender_address: nullable(str(`who funded the vesting, ${ADDRESS}`)),
  owner_address: nullable(str(`who receives it, ${ADDRESS}`)),
  total_amount: nullable(str('nanotons vested in total, decimal string')),
  whitelist: addresses(`addresses the owner may send locked funds to, ${ADDRESS} each, in address order`),
});

export const CONTRACT_SCHEMAS: Record<string, Schema> = {
  DNSRecord: dnsRecord,
  DNSRecordsResponse: withBook('records', 'DNSRecord'),
  OrderAction: orderAction,
  MultisigOrder: multisigOrder,
  Multisig: multisig,
  MultisigResponse: withBook('multisigs', 'Multisig'),
  MultisigOrderResponse: withBook('orders', 'MultisigOrder'),
  VestingInfo: vestingInfo,
  VestingContractsResponse: withBook('vesting_contracts', 'VestingInfo'),
};
