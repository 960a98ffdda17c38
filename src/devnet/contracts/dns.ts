// Typed wrappers of the devnet's DNS contracts (contracts/dns: a .ton-style collection and its items, TEP-62 +
// TEP-81): name encoding, item index and address derivation, DNSRecord and change_dns_record writers, the devnet's
// own collection (its address is a constant, for the indexer's DNS roots), and readers of the getters' stacks.
// Layouts: shared/specs/contracts.md §5.
import {
  type Address,
  type Builder,
  beginCell,
  Cell,
  contractAddress,
  Dictionary,
  type Slice,
  type StateInit,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { DNS_OP } from '../../ton/index.ts';
import { DNS_COLLECTION_CODE_BOC } from './dns-collection.compiled.ts';
import { DNS_ITEM_CODE_BOC } from './dns-item.compiled.ts';
import { contentKey, onchainContent, textComment } from './payload.ts';

export const DNS_COLLECTION_CODE: Cell = Cell.fromBase64(DNS_COLLECTION_CODE_BOC);
export const DNS_ITEM_CODE: Cell = Cell.fromBase64(DNS_ITEM_CODE_BOC);

/** Exit codes of contracts/dns (the .ton reference's numbers). */
export const DNS_ERROR = {
  notWholeBytes: 70,
  labelTooShort: 200,
  labelTooLong: 201,
  emptyLabel: 201,
  labelNotBytes: 202,
  labelBadChars: 203,
  notEnoughTon: 204,
  labelBlacklisted: 205,
  notFromOwner: 401,
  notEnoughBalance: 402,
  notFromCollection: 405,
  renewNotFromOwner: 406,
  editNotFromOwner: 410,
  recordNotFromOwner: 411,
  contentNotOnchain: 412,
  noLeadingZero: 413,
  wrongWorkchain: 333,
  wrongOp: 0xffff,
} as const;

/** What the devnet collection charges for a name (the reference auctions from a length-dependent minimum). */
export const DNS_REGISTRATION_PRICE = 1_000_000_000n;

/** Record categories: sha256 of the category name (TEP-81); 0 asks dnsresolve for every record. */
export const DNS_CATEGORY = {
  all: 0n,
  dnsNextResolver: contentKey('dns_next_resolver'),
  wallet: contentKey('wallet'),
  site: contentKey('site'),
  storage: contentKey('storage'),
} as const;

const TAG = { smcAddress: 0x9fd3, nextResolver: 0xba93, adnlAddress: 0xad01, storageAddress: 0x7473 } as const;
const CAP_IS_WALLET = 0x2177;
const PROTO_HTTP = 0x4854;

/**
 * DNSRecord (TEP-81, block.tlb):
 * dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) cap_list:flags . 0?SmcCapList
 * dns_next_resolver#ba93 resolver:MsgAddressInt
 * dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) proto_list:flags . 0?ProtoList
 * dns_storage_address#7473 bag_id:bits256
 * The capability and protocol lists are written with one entry (cap_is_wallet#2177, proto_http#4854) when asked.
 */
export type DnsRecord =
  | { type: 'smc_address'; address: Address; isWallet?: boolean }
  | { type: 'next_resolver'; resolver: Address }
  | { type: 'adnl_address'; adnl: Buffer; http?: boolean }
  | { type: 'storage_address'; bagId: Buffer };

function check256(name: string, b: Buffer): void {
  if (b.length !== 32) throw new RangeError(`${name}: expected 32 bytes, got ${b.length}`);
}

export function storeDnsRecord(r: DnsRecord) {
  return (b: Builder) => {
    switch (r.type) {
      case 'smc_address':
        b.storeUint(TAG.smcAddress, 16).storeAddress(r.address);
        // cap_list_next$1 head:cap_is_wallet tail:cap_list_nil$0
        if (r.isWallet) b.storeUint(1, 8).storeBit(1).storeUint(CAP_IS_WALLET, 16).storeBit(0);
        else b.storeUint(0, 8);
        return;
      case 'next_resolver':
        b.storeUint(TAG.nextResolver, 16).storeAddress(r.resolver);
        return;
      case 'adnl_address':
        check256('dns_adnl_address', r.adnl);
        b.storeUint(TAG.adnlAddress, 16).storeBuffer(r.adnl);
        if (r.http) b.storeUint(1, 8).storeBit(1).storeUint(PROTO_HTTP, 16).storeBit(0);
        else b.storeUint(0, 8);
        return;
      case 'storage_address':
        check256('dns_storage_address', r.bagId);
        b.storeUint(TAG.storageAddress, 16).storeBuffer(r.bagId);
        return;
    }
  };
}

export function dnsRecordCell(r: DnsRecord): Cell {
  return beginCell().store(storeDnsRecord(r)).endCell();
}

function loadCapabilities(s: Slice, entry: number): boolean {
  const flags = s.loadUint(8);
  if (flags > 1) throw new Error(`DNSRecord: flags must be 0 or 1, got ${flags}`);
  let found = false;
  if (flags === 1) {
    while (s.loadBit()) found = s.loadUint(16) === entry || found;
  }
  return found;
}

/** Reads a DNSRecord cell (the value of a record dictionary, or a dnsresolve result). */
export function loadDnsRecord(cell: Cell): DnsRecord {
  const s = cell.beginParse();
  const tag = s.loadUint(16);
  switch (tag) {
    case TAG.smcAddress: {
      const address = s.loadAddress();
      return { type: 'smc_address', address, isWallet: loadCapabilities(s, CAP_IS_WALLET) };
    }
    case TAG.nextResolver:
      return { type: 'next_resolver', resolver: s.loadAddress() };
    case TAG.adnlAddress: {
      const adnl = s.loadBuffer(32);
      return { type: 'adnl_address', adnl, http: loadCapabilities(s, PROTO_HTTP) };
    }
    case TAG.storageAddress:
      return { type: 'storage_address', bagId: s.loadBuffer(32) };
    default:
      throw new Error(`DNSRecord: unknown tag 0x${tag.toString(16)}`);
  }
}

/**
 * change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 value:(Maybe ^DNSRecord): the value is present iff the
 * body has a ref (there is no presence bit); null deletes the key.
 */
export interface DnsChangeRecord {
  queryId: bigint;
  key: bigint;
  value: Cell | null;
}

export function storeDnsChangeRecord(v: DnsChangeRecord) {
  return (b: Builder) => {
    b.storeUint(DNS_OP.changeDnsRecord, 32).storeUint(v.queryId, 64).storeUint(v.key, 256);
    if (v.value) b.storeRef(v.value);
  };
}

/** edit_content#1a0b9d51 query_id:uint64 content:^Cell */
export function storeDnsEditContent(v: { queryId: bigint; content: Cell }) {
  return (b: Builder) => {
    b.storeUint(DNS_OP.editContent, 32).storeUint(v.queryId, 64).storeRef(v.content);
  };
}

/** fill_up#370fec51 query_id:uint64 */
export function storeDnsFillUp(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(DNS_OP.fillUp, 32).storeUint(v.queryId, 64);
  };
}

/** The collection's deploy message to an item (no opcode): bidder:MsgAddress ^[label bytes]. */
export function storeDnsItemInit(v: { bidder: Address; label: string }) {
  return (b: Builder) => {
    b.storeAddress(v.bidder).storeRef(beginCell().storeBuffer(Buffer.from(v.label, 'utf8')).endCell());
  };
}

/** A label the collection accepts: 4–126 of a-z, 0-9 and '-', the hyphen neither first nor last. */
export function isValidDnsLabel(label: string): boolean {
  return /^[a-z0-9][a-z0-9-]{2,124}[a-z0-9]$/.test(label);
}

/** The registration body: op 0 and the label as a text comment. */
export function dnsRegisterBody(label: string): Cell {
  return textComment(label);
}

/** An item's index: the hash of a cell holding the label's bytes (the collection's `slice_hash`). */
export function dnsItemIndex(label: string): bigint {
  return BigInt(`0x${beginCell().storeBuffer(Buffer.from(label, 'utf8')).endCell().hash().toString('hex')}`);
}

/** Collection storage: collection_content:^Cell item_code:^Cell */
export function storeDnsCollectionData(v: { content: Cell; itemCode: Cell }) {
  return (b: Builder) => {
    b.storeRef(v.content).storeRef(v.itemCode);
  };
}

export function dnsCollectionStateInit(v: { content: Cell; itemCode?: Cell }): StateInit {
  const data = beginCell()
    .store(storeDnsCollectionData({ content: v.content, itemCode: v.itemCode ?? DNS_ITEM_CODE }))
    .endCell();
  return { code: DNS_COLLECTION_CODE, data };
}

/** An item's StateInit: its code and index:uint256 ‖ collection address. */
export function dnsItemStateInit(collection: Address, index: bigint, itemCode: Cell = DNS_ITEM_CODE): StateInit {
  return { code: itemCode, data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() };
}

/** The item address as the collection's get_nft_address_by_index and dnsresolve derive it (basechain). */
export function dnsItemAddress(collection: Address, index: bigint, itemCode: Cell = DNS_ITEM_CODE): Address {
  return contractAddress(0, dnsItemStateInit(collection, index, itemCode));
}

/** The devnet's DNS zone: the same content and code on every devnet, so its collection address is a constant. */
export const DEVNET_DNS_SUFFIX = '.ton';
export const DEVNET_DNS_COLLECTION_CONTENT: Cell = onchainContent({
  name: 'tongate devnet .ton',
  description: 'Second-level names of the tongate devnet, sold at a fixed price to the first sender.',
});
export const DEVNET_DNS_COLLECTION_INIT: StateInit = dnsCollectionStateInit({ content: DEVNET_DNS_COLLECTION_CONTENT });
export const DEVNET_DNS_COLLECTION: Address = contractAddress(0, DEVNET_DNS_COLLECTION_INIT);

/**
 * A domain name in TEP-81's internal form: labels in reverse order, each followed by \0 ("alice.ton" gives
 * "ton\0alice\0"). Resolvers below the root are asked with a leading \0, so pass `leadingZero` for them.
 */
export function encodeDnsName(name: string, leadingZero = false): Buffer {
  const labels = name.split('.').filter((l) => l.length > 0);
  const parts = labels.reverse().map((l) => Buffer.concat([Buffer.from(l, 'utf8'), Buffer.from([0])]));
  return Buffer.concat([leadingZero ? Buffer.from([0]) : Buffer.alloc(0), ...parts]);
}

/** Arguments of dnsresolve(slice subdomain, int category). */
export function dnsresolveArgs(subdomain: Buffer, category: bigint): TupleItem[] {
  return [
    { type: 'slice', cell: beginCell().storeBuffer(subdomain).endCell() },
    { type: 'int', value: category },
  ];
}

/** dnsresolve() -> (int resolved_bits, cell|null result) */
export function readDnsResolve(stack: TupleItem[]): { resolvedBits: number; result: Cell | null } {
  const r = new TupleReader(stack);
  return { resolvedBits: r.readNumber(), result: r.readCellOpt() };
}

/** A record dictionary (HashmapE 256 ^DNSRecord) by category; the root as a cell, or null when empty. */
export function readDnsRecords(root: Cell | null): Map<bigint, Cell> {
  if (!root) return new Map();
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), root);
  return new Map(dict);
}

/** An item's content (0x00 + HashmapE 256 ^DNSRecord) as records by category. */
export function readDnsContentRecords(content: Cell): Map<bigint, Cell> {
  const s = content.beginParse();
  const prefix = s.loadUint(8);
  if (prefix !== 0)
    throw new Error(`DNS item content: expected the on-chain prefix 0x00, got 0x${prefix.toString(16)}`);
  return new Map(s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell()));
}

/** get_domain() -> slice (the label bytes) */
export function readDnsDomain(stack: TupleItem[]): string {
  const s = new TupleReader(stack).readCell().beginParse();
  return s.loadBuffer(s.remainingBits / 8).toString('utf8');
}

/** get_auction_info() -> (slice|null max_bid_address, int max_bid_amount, int auction_end_time) */
export function readDnsAuctionInfo(stack: TupleItem[]): {
  maxBidAddress: Address | null;
  maxBidAmount: bigint;
  auctionEndTime: number;
} {
  const r = new TupleReader(stack);
  return { maxBidAddress: r.readAddressOpt(), maxBidAmount: r.readBigNumber(), auctionEndTime: r.readNumber() };
}

/** get_last_fill_up_time() -> int */
export function readDnsLastFillUpTime(stack: TupleItem[]): number {
  return new TupleReader(stack).readNumber();
}
