// The DNS steps of the activity: a genesis wallet registers a fresh name in the devnet's .ton-style zone (the first
// registration also deploys the collection), the owner sets its records (wallet = itself, a site, a storage bag, a
// next resolver), deletes one, and transfers the name to another genesis wallet. Effects are read back through
// the item's get_nft_data (owner, record dictionary) as any client would.
import { type Address, type Cell, internal, toNano } from '@ton/core';
import { DNS_OP } from '../../ton/index.ts';
import {
  DEVNET_DNS_COLLECTION,
  DEVNET_DNS_COLLECTION_INIT,
  DEVNET_DNS_SUFFIX,
  DNS_CATEGORY,
  DNS_REGISTRATION_PRICE,
  dnsItemAddress,
  dnsItemIndex,
  dnsRecordCell,
  dnsRegisterBody,
  readDnsContentRecords,
  readNftData,
  storeDnsChangeRecord,
  storeNftTransfer,
  textComment,
  toCell,
} from '../contracts/index.ts';
import type { LedgerDnsDomain, LedgerDnsRecords } from './ledger-dns.ts';
import {
  failed,
  genesisWallet,
  inboundFrom,
  ok,
  opOf,
  otherWallet,
  phrase,
  raw,
  type StepContext,
  type StepOutcome,
  sendFrom,
  skipped,
  wait,
  waitForTx,
} from './step-kit.ts';

const LABEL_WORDS = ['aurora', 'basalt', 'cedar', 'dune', 'estuary', 'fern', 'glacier', 'heath', 'isle', 'jade'];
/** What each change_dns_record carries (the item keeps it for storage). */
const RECORD_MESSAGE_VALUE = toNano('0.05');

/** An item's state as get_nft_data shows it: owner and records by category; undefined until initialised. */
async function itemState(
  ctx: StepContext,
  item: Address,
): Promise<{ owner: Address | null; records: Map<bigint, Cell> } | undefined> {
  const r = await ctx.chain.runGetMethod(item, 'get_nft_data');
  if (r.exitCode !== 0) return undefined;
  const d = readNftData(r.stack);
  return d.init ? { owner: d.ownerAddress, records: readDnsContentRecords(d.individualContent) } : undefined;
}

/** The records as cells, keyed by category, for comparison with what the item stores. */
function recordCells(r: LedgerDnsRecords): Map<bigint, Cell> {
  const cells = new Map<bigint, Cell>();
  if (r.wallet) cells.set(DNS_CATEGORY.wallet, dnsRecordCell({ type: 'smc_address', address: r.wallet }));
  if (r.siteAdnl) {
    cells.set(DNS_CATEGORY.site, dnsRecordCell({ type: 'adnl_address', adnl: Buffer.from(r.siteAdnl, 'hex') }));
  }
  if (r.storageBagId) {
    const bagId = Buffer.from(r.storageBagId, 'hex');
    cells.set(DNS_CATEGORY.storage, dnsRecordCell({ type: 'storage_address', bagId }));
  }
  if (r.nextResolver) {
    cells.set(DNS_CATEGORY.dnsNextResolver, dnsRecordCell({ type: 'next_resolver', resolver: r.nextResolver }));
  }
  return cells;
}

function sameRecords(a: Map<bigint, Cell>, b: Map<bigint, Cell>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v) === true);
}

/** Waits until the item shows `owner` and exactly `records`. */
function waitForItem(ctx: StepContext, d: LedgerDnsDomain, owner: Address, records: LedgerDnsRecords) {
  const want = recordCells(records);
  return wait(ctx, `${d.domain} (${raw(d.item)}) to show its owner and records`, async () => {
    const s = await itemState(ctx, d.item);
    return s?.owner?.equals(owner) && sameRecords(s.records, want) ? true : undefined;
  });
}

/** Names owned by genesis wallets (they can act on them). */
function ownedDomains(ctx: StepContext, filter: (d: LedgerDnsDomain) => boolean = () => true) {
  return ctx.ledger.dns.domains.filter((d) => genesisWallet(ctx, d.owner) !== undefined && filter(d));
}

function changeRecord(d: LedgerDnsDomain, queryId: bigint, key: bigint, value: Cell | null) {
  const body = toCell(storeDnsChangeRecord({ queryId, key, value }));
  return internal({ to: d.item, value: RECORD_MESSAGE_VALUE, bounce: true, body });
}

export async function dnsRegisterStep(ctx: StepContext): Promise<StepOutcome> {
  const owner = ctx.rng.pick(ctx.wallets);
  // A fresh label; a name already taken on this chain (an earlier run with the same seed) is drawn again.
  let label = '';
  for (let attempt = 0; attempt < 5 && label === ''; attempt++) {
    const candidate = `${ctx.rng.pick(LABEL_WORDS)}-${ctx.rng.bytes(3).toString('hex')}`;
    const taken = await ctx.chain.getAccount(dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex(candidate)));
    if (taken.status !== 'active') label = candidate;
  }
  if (label === '') return failed('every label drawn is already registered');
  const index = dnsItemIndex(label);
  const item = dnsItemAddress(DEVNET_DNS_COLLECTION, index);
  const deployed = (await ctx.chain.getAccount(DEVNET_DNS_COLLECTION)).status === 'active';
  const err = await sendFrom(ctx, owner, [
    internal({
      to: DEVNET_DNS_COLLECTION,
      value: DNS_REGISTRATION_PRICE + toNano('0.1'),
      bounce: true,
      init: deployed ? undefined : DEVNET_DNS_COLLECTION_INIT,
      body: dnsRegisterBody(label),
    }),
  ]);
  if (err) return failed(err);
  const records: LedgerDnsRecords = { wallet: null, siteAdnl: null, storageBagId: null, nextResolver: null };
  const d: LedgerDnsDomain = {
    step: ctx.step,
    label,
    domain: `${label}${DEVNET_DNS_SUFFIX}`,
    index,
    item,
    owner: owner.address,
    records,
  };
  const registered = await waitForItem(ctx, d, owner.address, records);
  if (!registered.ok) return failed(registered.reason, { domain: d.domain });
  ctx.ledger.dns.domains.push(d);
  return ok({ domain: d.domain, item: raw(item), owner: raw(owner.address), collectionDeployed: !deployed });
}

/** The owner points the name at itself (wallet record) and sets a site, a storage bag and a next resolver. */
export async function dnsSetWalletStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ownedDomains(ctx);
  if (candidates.length === 0) return skipped('no DNS name is owned by one of our wallets');
  const d = ctx.rng.pick(candidates);
  const owner = genesisWallet(ctx, d.owner)!;
  const records: LedgerDnsRecords = {
    wallet: owner.address,
    siteAdnl: ctx.rng.bytes(32).toString('hex'),
    storageBagId: ctx.rng.bytes(32).toString('hex'),
    nextResolver: otherWallet(ctx, owner)?.address ?? owner.address,
  };
  const cells = recordCells(records);
  const q = BigInt(ctx.step);
  // Four messages: what every genesis wallet version sends in one external.
  const err = await sendFrom(
    ctx,
    owner,
    [DNS_CATEGORY.wallet, DNS_CATEGORY.site, DNS_CATEGORY.storage, DNS_CATEGORY.dnsNextResolver].map((key) =>
      changeRecord(d, q, key, cells.get(key)!),
    ),
  );
  if (err) return failed(err);
  const set = await waitForItem(ctx, d, d.owner, records);
  if (!set.ok) return failed(set.reason);
  d.records = records;
  return ok({ domain: d.domain, wallet: raw(owner.address), site: records.siteAdnl, storage: records.storageBagId });
}

/** The owner deletes one of the name's non-wallet records (change_dns_record without a value). */
export async function dnsDeleteStep(ctx: StepContext): Promise<StepOutcome> {
  const deletable = (d: LedgerDnsDomain): bigint[] => {
    const keys: bigint[] = [];
    if (d.records.siteAdnl) keys.push(DNS_CATEGORY.site);
    if (d.records.storageBagId) keys.push(DNS_CATEGORY.storage);
    if (d.records.nextResolver) keys.push(DNS_CATEGORY.dnsNextResolver);
    return keys;
  };
  const candidates = ownedDomains(ctx, (d) => deletable(d).length > 0);
  if (candidates.length === 0) return skipped('no DNS name of ours has a record to delete');
  const d = ctx.rng.pick(candidates);
  const owner = genesisWallet(ctx, d.owner)!;
  const key = ctx.rng.pick(deletable(d));
  const records: LedgerDnsRecords = { ...d.records };
  if (key === DNS_CATEGORY.site) records.siteAdnl = null;
  if (key === DNS_CATEGORY.storage) records.storageBagId = null;
  if (key === DNS_CATEGORY.dnsNextResolver) records.nextResolver = null;
  const err = await sendFrom(ctx, owner, [changeRecord(d, BigInt(ctx.step), key, null)]);
  if (err) return failed(err);
  const deleted = await waitForItem(ctx, d, d.owner, records);
  if (!deleted.ok) return failed(deleted.reason);
  d.records = records;
  return ok({ domain: d.domain, deleted: key.toString(16).padStart(64, '0') });
}

/** The owner transfers the name to another genesis wallet (TEP-62 transfer with a comment for the new owner). */
export async function dnsTransferStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ownedDomains(ctx);
  if (candidates.length === 0) return skipped('no DNS name is owned by one of our wallets');
  const d = ctx.rng.pick(candidates);
  const from = genesisWallet(ctx, d.owner)!;
  const to = otherWallet(ctx, from);
  if (!to) return skipped('only one wallet: nobody to transfer the name to');
  const body = toCell(
    storeNftTransfer({
      queryId: BigInt(ctx.step),
      newOwner: to.address,
      responseDestination: from.address,
      customPayload: null,
      forwardAmount: toNano('0.01'),
      forwardPayload: { kind: 'right', value: textComment(phrase(ctx)) },
    }),
  );
  const err = await sendFrom(ctx, from, [internal({ to: d.item, value: toNano('0.1'), bounce: true, body })]);
  if (err) return failed(err);
  const moved = await waitForItem(ctx, d, to.address, d.records);
  if (!moved.ok) return failed(moved.reason);
  const assigned = await waitForTx(ctx, `ownership_assigned to ${raw(to.address)}`, to.address, (tx) => {
    const m = inboundFrom(tx, d.item);
    return m !== undefined && opOf(m.body) === DNS_OP.ownershipAssigned;
  });
  if (!assigned.ok) return failed(assigned.reason);
  d.owner = to.address;
  return ok({ domain: d.domain, from: raw(from.address), to: raw(to.address) });
}
