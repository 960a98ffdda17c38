// Test-only checks that what the activity's DNS and governed-jetton ledgers claim is what a sandbox chain shows,
// read through the contracts' getters and the chain's transactions (not through the driver's own readers).
import { Address, beginCell, type Cell, type Transaction, type TupleItem } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import { expect } from 'vitest';
import { parseTep64, snakeBytes } from '../contracts/tep-parsers.test-util.ts';
import type { ActivityLedger } from './types.ts';

// contracts.md §5.1 (categories) and §3 (TEP-64 key of `uri`).
const CATEGORY = {
  wallet: 'e8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1b',
  site: 'fbae041b02c41ed0fd8a4efb039bc780dd6af4a1f0c420f42561ae705dda43fe',
  storage: '49a25f9feefaffecad0fcd30c50dc9331cff8b55ece53def6285c09e17e6f5d7',
  dnsNextResolver: '19f02441ee588fdb26ee24b2568dd035c3c9206e11ab979be62e55558a1d17ff',
};
const KEY_URI = '70e5d7b6a29b392f85076fe15ca2f2053c56c2338728c4e33c9e8ddb1ee827cc';
const OP_TRANSFER = 0x0f8a7ea5;

async function getter(bc: Blockchain, address: Address, method: string, args: TupleItem[] = []) {
  const r = await bc.runGetMethod(address, method, args);
  expect(r.exitCode, `${method} on ${address.toRawString()}`).toBe(0);
  return r.stack;
}

function sliceAddress(item: TupleItem | undefined): Address | null {
  if (item?.type !== 'slice') throw new Error(`expected a slice, got ${item?.type}`);
  return item.cell.beginParse().loadMaybeAddress();
}

function int(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new Error(`expected an int, got ${item?.type}`);
  return item.value;
}

function cellOrNull(item: TupleItem | undefined): Cell | null {
  if (item?.type === 'null') return null;
  if (item?.type !== 'cell') throw new Error(`expected a cell or null, got ${item?.type}`);
  return item.cell;
}

const bytes = (b: Buffer) => ({ type: 'slice' as const, cell: beginCell().storeBuffer(b).endCell() });
const category = (hex: string) => ({ type: 'int' as const, value: BigInt(`0x${hex}`) });

/** A DNSRecord read per block.tlb: the tag, then an address (9fd3, ba93) or 256 bits (ad01, 7473). */
function record(cell: Cell | null): { tag: number; address?: Address; hex?: string } | null {
  if (!cell) return null;
  const s = cell.beginParse();
  const tag = s.loadUint(16);
  if (tag === 0x9fd3 || tag === 0xba93) return { tag, address: s.loadAddress() };
  return { tag, hex: s.loadBuffer(32).toString('hex') };
}

export async function checkDnsLedger(bc: Blockchain, ledger: ActivityLedger): Promise<void> {
  const { collection, domains } = ledger.dns;
  expect(domains.length).toBeGreaterThan(0);
  for (const d of domains) {
    const byIndex = await getter(bc, collection, 'get_nft_address_by_index', [{ type: 'int', value: d.index }]);
    expect(sliceAddress(byIndex[0])?.equals(d.item)).toBe(true);
    // The collection hands "\0<label>\0" to the item as its next resolver.
    const viaCollection = await getter(bc, collection, 'dnsresolve', [
      bytes(Buffer.from(`\0${d.label}\0`, 'latin1')),
      category(CATEGORY.wallet),
    ]);
    expect(int(viaCollection[0])).toBe(BigInt(8 * (d.label.length + 1)));
    expect(record(cellOrNull(viaCollection[1]))?.address?.equals(d.item)).toBe(true);

    const nft = await getter(bc, d.item, 'get_nft_data');
    expect(int(nft[0])).toBe(-1n);
    expect(sliceAddress(nft[2])?.equals(collection)).toBe(true);
    expect(sliceAddress(nft[3])?.equals(d.owner)).toBe(true);
    const domain = await getter(bc, d.item, 'get_domain');
    expect(domain[0]?.type === 'slice' && snakeBytes(domain[0].cell.beginParse()).toString('utf8')).toBe(d.label);
    expect(d.domain).toBe(`${d.label}${ledger.dns.suffix}`);

    const at = async (hex: string) =>
      record(cellOrNull((await getter(bc, d.item, 'dnsresolve', [bytes(Buffer.from([0])), category(hex)]))[1]));
    const wallet = await at(CATEGORY.wallet);
    expect(wallet?.address?.toRawString() ?? null).toBe(d.records.wallet?.toRawString() ?? null);
    expect((await at(CATEGORY.site))?.hex ?? null).toBe(d.records.siteAdnl);
    expect((await at(CATEGORY.storage))?.hex ?? null).toBe(d.records.storageBagId);
    const next = await at(CATEGORY.dnsNextResolver);
    expect(next?.address?.toRawString() ?? null).toBe(d.records.nextResolver?.toRawString() ?? null);
  }
  // The run set records on some name and deleted one of them.
  expect(domains.some((d) => d.records.wallet !== null)).toBe(true);
  expect(
    domains.some((d) => d.records.wallet && !(d.records.siteAdnl && d.records.storageBagId && d.records.nextResolver)),
  ).toBe(true);
}

export async function checkGovernedLedger(bc: Blockchain, txs: Transaction[], ledger: ActivityLedger): Promise<void> {
  expect(ledger.governedJettons.length).toBeGreaterThan(0);
  let forced = 0;
  for (const j of ledger.governedJettons) {
    const data = await getter(bc, j.master, 'get_jetton_data');
    expect(int(data[0])).toBe(j.totalSupply);
    expect(sliceAddress(data[2])?.equals(j.admin)).toBe(true);
    const content = parseTep64(cellOrNull(data[3])!);
    expect(content.layout === 'onchain' && content.attributes.get(BigInt(`0x${KEY_URI}`))).toBe(j.metadataUri);
    let sum = 0n;
    for (const [ownerRaw, balance] of j.balances) {
      const owner = Address.parseRaw(ownerRaw);
      const wallet = sliceAddress(
        (
          await getter(bc, j.master, 'get_wallet_address', [
            { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
          ])
        )[0],
      )!;
      const wd = await getter(bc, wallet, 'get_wallet_data');
      expect(int(wd[0]), `balance of ${ownerRaw}`).toBe(balance);
      expect(sliceAddress(wd[1])?.equals(owner)).toBe(true);
      expect(int((await getter(bc, wallet, 'get_status'))[0])).toBe(BigInt(j.statuses.get(ownerRaw) ?? 0));
      sum += balance;
      // A transfer the master forced: the holder wallet's inbound transfer#0f8a7ea5 came from the master.
      forced += txs.filter((t) => {
        const m = t.inMessage;
        if (m?.info.type !== 'internal' || !m.info.src.equals(j.master) || !m.info.dest.equals(wallet)) return false;
        const s = m.body.beginParse();
        return s.remainingBits >= 32 && s.loadUint(32) === OP_TRANSFER;
      }).length;
    }
    expect(sum).toBe(j.totalSupply);
  }
  expect(forced).toBeGreaterThan(0);
}
