// DNS record edits (TEP-81 items): change_dns_record#4eb1f0f9 with a value is change_dns, without one delete_dns,
// and without one for key 0 renew_dns (the usual way to refresh an item's last_fill_up_time). As toncenter's
// classifier: any sender, the item must be a known NFT item (toncenter cannot serialise the action without its
// collection and falls back to call_contract), success is that of the call (call-failed.ts), and a bounce coming
// back belongs to the action.
import type { Cell } from '@ton/core';
import { DNS_OP, formatAddressV3 } from '../../../ton/index.ts';
import type { ActionDraft, Details, JsonValue, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { bounceBack, internalIn } from './util.ts';

const raw = formatAddressV3;

/** The record value as toncenter's change_dns_record_data keeps it: schema, value, flags. */
interface DnsValue {
  schema: string;
  value: string | null;
  flags: number | null;
}

// dns_text#1eda chunks:(## 8) then len:(## 8) data per chunk, each further chunk in the next ref.
function readText(c: Cell): string {
  const s = c.beginParse();
  s.skip(16);
  const chunks = s.loadUint(8);
  const parts: Buffer[] = [];
  let cur = s;
  for (let i = 0; i < chunks; i++) {
    parts.push(cur.loadBuffer(cur.loadUint(8)));
    if (i + 1 < chunks) cur = cur.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Reads the value the way toncenter does: the tag, then the record's fixed fields (capability and protocol lists
 * are not read); an unknown tag is schema "Unknown". Throws on a known tag whose fields do not parse (toncenter
 * then leaves the message a call_contract).
 */
function readValue(c: Cell): DnsValue {
  const s = c.beginParse();
  const tag = s.loadUint(16);
  switch (tag) {
    case 0xba93: {
      const a = s.loadAddress();
      return { schema: 'DNSNextResolver', value: raw(a), flags: null };
    }
    case 0xad01: {
      const adnl = s.loadBuffer(32);
      return { schema: 'DNSAdnlAddress', value: adnl.toString('hex'), flags: s.loadUint(8) };
    }
    case 0x9fd3: {
      const a = s.loadAddress();
      return { schema: 'DNSSmcAddress', value: raw(a), flags: s.loadUint(8) };
    }
    case 0x7473:
      return { schema: 'DNSStorageAddress', value: s.loadBuffer(32).toString('hex'), flags: null };
    case 0x1eda:
      return { schema: 'DNSText', value: readText(c), flags: null };
    default:
      return { schema: 'Unknown', value: null, flags: null };
  }
}

/** `value` of change_dns details: one key per schema; toncenter's API puts DNSText under dns_storage_address. */
function valueDetails(v: DnsValue): { [k: string]: JsonValue } {
  const key: Record<string, string> = {
    DNSNextResolver: 'dns_next_resolver_address',
    DNSAdnlAddress: 'dns_adnl_address',
    DNSSmcAddress: 'dns_smc_address',
    DNSStorageAddress: 'dns_storage_address',
    DNSText: 'dns_storage_address',
  };
  const out: { [k: string]: JsonValue } = {
    sum_type: v.schema,
    dns_smc_address: null,
    dns_adnl_address: null,
    dns_text: null,
    dns_next_resolver_address: null,
    dns_storage_address: null,
    flags: v.flags,
  };
  const k = key[v.schema];
  if (k) out[k] = v.value;
  return out;
}

interface ChangeRecord {
  key: Buffer;
  value: Cell | null;
}

function readChange(body: Cell): ChangeRecord | null {
  try {
    const s = body.beginParse();
    if (s.loadUint(32) !== DNS_OP.changeDnsRecord) return null;
    s.skip(64);
    const key = s.loadBuffer(32);
    return { key, value: s.remainingRefs > 0 ? s.loadRef() : null };
  } catch {
    return null;
  }
}

function draftOf(node: TraceNode, collection: string | null): ActionDraft | null {
  const m = internalIn(node);
  if (!m?.body || m.opcode !== DNS_OP.changeDnsRecord) return null;
  const change = readChange(m.body);
  if (!change) return null;
  const item = node.tx.account;
  const back = bounceBack(node);
  const base = {
    nodes: back ? [node, back] : [node],
    success: !callFailed(node),
    source: m.source,
    destination: item,
    asset: collection,
  };
  const common: Details = { source: m.source, asset: item, nft_collection: collection };
  const key = change.key.toString('hex');
  if (change.value) {
    let value: DnsValue;
    try {
      value = readValue(change.value);
    } catch {
      return null;
    }
    return { ...base, type: 'change_dns', details: { key, value: valueDetails(value), ...common } };
  }
  if (change.key.every((b) => b === 0)) return { ...base, type: 'renew_dns', details: common };
  return { ...base, type: 'delete_dns', details: { hash: key, ...common } };
}

export const dnsMatcher: Matcher = {
  name: 'dns',
  types: ['change_dns', 'delete_dns', 'renew_dns'],
  match(node, ctx) {
    if (node.tx.inMsg?.opcode !== DNS_OP.changeDnsRecord) return null;
    const info = ctx.interfaces.get(node.tx.account);
    const item = info?.nftItem ?? info?.dnsItem;
    if (!item) return null;
    const d = draftOf(node, item.collection);
    return d ? [d] : null;
  },
};
