// DNS (TEP-81, ton-blockchain/dns-contract) item bodies, contracts.md §5.2, and the DNSRecord values they carry
// (also what a DNS item's content dictionary holds).
import type { Address, Cell, Slice } from '@ton/core';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import { loadMsgAddressInt, readCell, refuse } from './body-reader.ts';
import { DNS_OP } from './dns.ts';

/** SmcCapability names: cap_method_seqno#5371, cap_method_pubkey#71f4, cap_is_wallet#2177, cap_name#ff name:Text. */
export type SmcCapability =
  | { kind: 'cap_method_seqno' }
  | { kind: 'cap_method_pubkey' }
  | { kind: 'cap_is_wallet' }
  | { kind: 'cap_name'; name: Buffer };

// dns_text#1eda _:Text = DNSRecord;
// dns_next_resolver#ba93 resolver:MsgAddressInt = DNSRecord;
// dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) { flags <= 1 } proto_list:flags . 0?ProtoList = DNSRecord;
// dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) { flags <= 1 } cap_list:flags . 0?SmcCapList = DNSRecord;
// dns_storage_address#7473 bag_id:bits256 = DNSRecord;
export type DnsRecord =
  | { kind: 'dns_text'; text: Buffer }
  | { kind: 'dns_next_resolver'; resolver: Address }
  | { kind: 'dns_adnl_address'; adnlAddr: Buffer; flags: number }
  | { kind: 'dns_smc_address'; smcAddr: Address; flags: number; capabilities: SmcCapability[] }
  | { kind: 'dns_storage_address'; bagId: Buffer };

// text$_ chunks:(## 8) rest:(TextChunks chunks) = Text;  chunk: len:(## 8) data:(bits (len*8)) next:^(TextChunks n)
function loadText(s: Slice): Buffer {
  const chunks = s.loadUint(8);
  const parts: Buffer[] = [];
  let cur = s;
  for (let i = 0; i < chunks; i++) {
    const len = cur.loadUint(8);
    parts.push(cur.loadBuffer(len));
    if (i + 1 < chunks) cur = cur.loadRef().beginParse();
  }
  return Buffer.concat(parts);
}

// cap_list_nil$0 = SmcCapList;  cap_list_next$1 head:SmcCapability tail:SmcCapList = SmcCapList;
function loadCapabilities(s: Slice): SmcCapability[] {
  const out: SmcCapability[] = [];
  while (s.loadBit()) {
    if (out.length > 64) refuse('SmcCapList: too long');
    const tag8 = s.preloadUint(8);
    if (tag8 === 0xff) {
      s.skip(8);
      out.push({ kind: 'cap_name', name: loadText(s) });
      continue;
    }
    const tag = s.loadUint(16);
    if (tag === 0x5371) out.push({ kind: 'cap_method_seqno' });
    else if (tag === 0x71f4) out.push({ kind: 'cap_method_pubkey' });
    else if (tag === 0x2177) out.push({ kind: 'cap_is_wallet' });
    else refuse(`SmcCapability: unknown tag 0x${tag.toString(16)}`);
  }
  return out;
}

export function loadDnsRecordSlice(s: Slice): DnsRecord {
  const tag = s.loadUint(16);
  switch (tag) {
    case 0x1eda:
      return { kind: 'dns_text', text: loadText(s) };
    case 0xba93:
      return { kind: 'dns_next_resolver', resolver: loadMsgAddressInt(s) };
    case 0xad01: {
      const adnlAddr = s.loadBuffer(32);
      const flags = s.loadUint(8);
      if (flags > 1) refuse('dns_adnl_address: flags > 1');
      return { kind: 'dns_adnl_address', adnlAddr, flags };
    }
    case 0x9fd3: {
      const smcAddr = loadMsgAddressInt(s);
      const flags = s.loadUint(8);
      if (flags > 1) refuse('dns_smc_address: flags > 1');
      return { kind: 'dns_smc_address', smcAddr, flags, capabilities: flags & 1 ? loadCapabilities(s) : [] };
    }
    case 0x7473:
      return { kind: 'dns_storage_address', bagId: s.loadBuffer(32) };
    default:
      return refuse(`DNSRecord: unknown tag 0x${tag.toString(16)}`);
  }
}

/** A DNSRecord cell, or null when its tag is unknown or it does not parse. */
export function loadDnsRecord(c: Cell): DnsRecord | null {
  return readCell(c, loadDnsRecordSlice);
}

// change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 value:(Maybe ^DNSRecord): the item sets the key when the
// body has a ref and deletes it otherwise (the Maybe bit itself is not read), so that is the rule here too.
export interface DnsChangeRecord {
  queryId: bigint;
  /** sha256 of the category name ("wallet", "site", ...), or 0 for "all" (the renew trick). */
  key: bigint;
  /** The record cell, null for a delete. */
  value: Cell | null;
  /** The value decoded, null for a delete or an unknown record type. */
  record: DnsRecord | null;
}

export function loadDnsChangeRecord(s: Slice): DnsChangeRecord {
  const queryId = s.loadUintBig(64);
  const key = s.loadUintBig(256);
  const value = s.remainingRefs > 0 ? s.loadRef() : null;
  return { queryId, key, value, record: value ? loadDnsRecord(value) : null };
}

const loadDnsSet = (s: Slice): DnsChangeRecord => {
  const r = loadDnsChangeRecord(s);
  return r.value ? r : refuse('change_dns_record: no value');
};

const loadDnsDelete = (s: Slice): DnsChangeRecord => {
  const r = loadDnsChangeRecord(s);
  return r.value ? refuse('delete_dns_record: has a value') : r;
};

export const DNS_BODIES = [
  bodyParser('change_dns_record', DNS_OP.changeDnsRecord, loadDnsSet),
  bodyParser('delete_dns_record', DNS_OP.changeDnsRecord, loadDnsDelete),
  bodyParser('dns_balance_release', DNS_OP.releaseBalance, loadQueryOnly),
  bodyParser('auction_fill_up', DNS_OP.fillUp, loadQueryOnly),
  bodyParser('outbid_notification', DNS_OP.outbidNotification, loadQueryOnly),
  bodyParser('process_governance_decision', DNS_OP.processGovernanceDecision, loadQueryOnly),
] as const;
