// DNS items (TEP-81, contracts.md §5): the NFT items of a configured DNS collection (the .ton root on mainnet,
// ours on the devnet) get a domain and the records toncenter's dns_entries keep (ton-index-worker
// NftItemDetectorR::get_dns_entry_data):
//   domain: get_full_domain ("me\0t\0name\0", t.me style, labels reversed) when the item has it, else
//           get_domain (the label bytes) + the collection's suffix;
//   records: dnsresolve("\0", 0) must resolve 8 bits; its cell is the HashmapE 256 ^DNSRecord record set:
//   dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) { flags <= 1 } cap_list:flags . 0?SmcCapList = DNSRecord;
//   dns_next_resolver#ba93 resolver:MsgAddressInt = DNSRecord;
//   dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) { flags <= 1 } proto_list:flags . 0?ProtoList = DNSRecord;
//   dns_storage_address#7473 bag_id:bits256 = DNSRecord;
//   cap_list_nil$0 / cap_list_next$1 head:SmcCapability tail:SmcCapList; cap_is_wallet#2177 = SmcCapability;
//   proto_list_nil$0 / proto_list_next$1 head:Protocol tail:ProtoList;     proto_http#4854 = Protocol;
// A record that does not parse is left out, as toncenter leaves it; a failed dnsresolve gives no records at all.
import { createHash } from 'node:crypto';
import { type Address, beginCell, type Cell, type Slice } from '@ton/core';
import { lookupHashmap } from '../../../../ton/index.ts';
import type { DnsRecordValues } from '../types.ts';
import type { ContractState, GetterRunner } from './getter.ts';
import { cellAt, intArg, intAt } from './stack.ts';

const category = (name: string) => BigInt(`0x${createHash('sha256').update(name).digest('hex')}`);
const CATEGORY = {
  wallet: category('wallet'),
  site: category('site'),
  nextResolver: category('dns_next_resolver'),
  storage: category('storage'),
};

/** The bytes of a slice entry, when it is a whole number of bytes. */
function sliceBytes(c: Cell): Buffer | null {
  const s = c.beginParse();
  return s.remainingBits % 8 === 0 ? s.loadBuffer(s.remainingBits / 8) : null;
}

/** The item's full domain name, or null when it has neither getter or its answer is not a byte string. */
export async function loadDomain(
  item: ContractState,
  suffix: string,
  has: (name: string) => boolean,
  getters: GetterRunner,
): Promise<string | null> {
  const full = has('get_full_domain');
  if (!full && !has('get_domain')) return null;
  const s = await getters.run(item, full ? 'get_full_domain' : 'get_domain', [], ['slice']);
  const bytes = s ? sliceBytes(cellAt(s, 0)!) : null;
  if (!bytes) return null;
  if (!full) return bytes.toString('utf8') + suffix;
  const labels = bytes.toString('utf8').split('\0');
  // Every label ends with \0, so the last piece is the empty string after the final one.
  if (labels.at(-1) === '') labels.pop();
  return labels.reverse().join('.');
}

function end(s: Slice): boolean {
  return s.remainingBits === 0 && s.remainingRefs === 0;
}

/** A list of 1-bit-tagged 16-bit items (SmcCapList, ProtoList) whose only constructor is `tag`. */
function skipTaggedList(s: Slice, tag: number): boolean {
  while (s.loadBit()) if (s.loadUint(16) !== tag) return false;
  return true;
}

/** The DNSRecord under `key` in the record set, when present and of constructor `prefix`, as its body slice. */
function record(set: Cell, key: bigint, prefix: number): Slice | null {
  const v = lookupHashmap(set, 256, key);
  if (!v) return null;
  const s = v.loadRef().beginParse();
  return s.loadUint(16) === prefix ? s : null;
}

function attempt<T>(f: () => T | null): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

function smcAddress(set: Cell, key: bigint): Address | null {
  return attempt(() => {
    const s = record(set, key, 0x9fd3);
    if (!s) return null;
    const a = s.loadAddress();
    const flags = s.loadUint(8);
    if (flags > 1 || (flags & 1 && !skipTaggedList(s, 0x2177))) return null;
    return end(s) ? a : null;
  });
}

function nextResolver(set: Cell): Address | null {
  return attempt(() => {
    const s = record(set, CATEGORY.nextResolver, 0xba93);
    if (!s) return null;
    const a = s.loadAddress();
    return end(s) ? a : null;
  });
}

/** Hex as toncenter prints a td::Bits256 (upper case). */
const hex256 = (b: Buffer) => b.toString('hex').toUpperCase();

function adnlAddress(set: Cell): string | null {
  return attempt(() => {
    const s = record(set, CATEGORY.site, 0xad01);
    if (!s) return null;
    const adnl = s.loadBuffer(32);
    const flags = s.loadUint(8);
    if (flags > 1 || (flags & 1 && !skipTaggedList(s, 0x4854))) return null;
    return end(s) ? hex256(adnl) : null;
  });
}

function storageBag(set: Cell): string | null {
  return attempt(() => {
    const s = record(set, CATEGORY.storage, 0x7473);
    if (!s) return null;
    const bag = s.loadBuffer(32);
    return end(s) ? hex256(bag) : null;
  });
}

/** The records of a DNS item with domain `domain`, or null when dnsresolve("\0", 0) does not answer as required. */
export async function loadDnsRecords(
  item: ContractState,
  domain: string,
  getters: GetterRunner,
): Promise<DnsRecordValues | null> {
  const zero = beginCell().storeUint(0, 8).endCell();
  const s = await getters.run(item, 'dnsresolve', [{ type: 'slice', cell: zero }, intArg(0n)], ['int']);
  if (s?.length !== 2 || intAt(s, 0) !== 8n) return null;
  const set = s[1]!.type === 'cell' ? s[1]!.cell : null;
  if (!set) return { domain, nextResolver: null, wallet: null, siteAdnl: null, storageBagId: null };
  return {
    domain,
    nextResolver: nextResolver(set),
    wallet: smcAddress(set, CATEGORY.wallet),
    siteAdnl: adnlAddress(set),
    storageBagId: storageBag(set),
  };
}
