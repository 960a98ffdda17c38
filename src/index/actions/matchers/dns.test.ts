// DNS record actions over real TVM runs (@ton/sandbox with the devnet's .ton-style collection and item): an owner
// sets each record kind (one of them a real mainnet change_dns_record body from vectors/messages), a text record,
// deletes one, renews with key 0 (the real mainnet "delete zero key" body), and a stranger's change is refused and
// bounced. Expected details come from the records as built here, the vectors' own decoded fields, the item's
// get_nft_data and the emulator's transactions; not from the reader the matcher uses.
import { randomBytes } from 'node:crypto';
import { type Address, beginCell, Cell, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../../test/helpers/vectors.ts';
import {
  DEVNET_DNS_COLLECTION,
  DEVNET_DNS_COLLECTION_INIT,
  DNS_CATEGORY,
  DNS_REGISTRATION_PRICE,
  dnsItemAddress,
  dnsItemIndex,
  dnsRecordCell,
  dnsRegisterBody,
  readNftData,
  storeDnsChangeRecord,
  toCell,
} from '../../../devnet/contracts/index.ts';
import { classifyTrace } from '../classify.ts';
import { interfacesOf } from '../interfaces.ts';
import type { Action, Interfaces, TraceInput } from '../types.ts';
import { nodeOf, rawOf, sandboxTrace } from './sandbox-trace.test-util.ts';

const CHANGE = 0x4eb1f0f9;
const hex256 = (k: bigint) => k.toString(16).padStart(64, '0');
const one = (actions: Action[], type: string) => {
  const found = actions.filter((a) => a.type === type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const emptyValue = {
  dns_smc_address: null,
  dns_adnl_address: null,
  dns_text: null,
  dns_next_resolver_address: null,
  dns_storage_address: null,
};

/** dns_text#1eda chunks:(## 8), each chunk len:(## 8) data, further chunks in refs (block.tlb Text). */
function dnsTextCell(chunks: string[]): Cell {
  let tail: Cell | null = null;
  for (let i = chunks.length - 1; i >= 1; i--) {
    const b = beginCell().storeUint(Buffer.byteLength(chunks[i]!), 8).storeBuffer(Buffer.from(chunks[i]!));
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const head = beginCell().storeUint(0x1eda, 16).storeUint(chunks.length, 8);
  head.storeUint(Buffer.byteLength(chunks[0]!), 8).storeBuffer(Buffer.from(chunks[0]!));
  if (tail) head.storeRef(tail);
  return head.endCell();
}

interface MessageVector {
  boc_base64: string;
  expected: { query_id: string; key: string; value: { type: string; address: string } | null };
  verification: { decoded: { value: { address: string } | null } };
}

describe('DNS matchers over sandbox runs', () => {
  let bc: Blockchain;
  let owner: SandboxContract<TreasuryContract>;
  let stranger: SandboxContract<TreasuryContract>;
  let item: Address;
  let known: Interfaces;
  let collection: string;

  /** The owner (or `from`) sends `body` to the item; the trace and the item's transaction. */
  async function send(body: Cell, from = owner): Promise<{ trace: TraceInput; aborted: boolean }> {
    const r = await from.send({ to: item, value: toNano('0.05'), bounce: true, body });
    const trace = sandboxTrace(r.transactions);
    return { trace, aborted: nodeOf(trace, { to: item, op: CHANGE }).tx.aborted };
  }
  const change = (key: bigint, value: Cell | null, queryId = 5n) =>
    toCell(storeDnsChangeRecord({ queryId, key, value }));

  beforeAll(async () => {
    bc = await Blockchain.create();
    owner = await bc.treasury('owner');
    stranger = await bc.treasury('stranger');
    const label = 'matcher-test';
    await owner.send({
      to: DEVNET_DNS_COLLECTION,
      value: DNS_REGISTRATION_PRICE + toNano('0.1'),
      init: DEVNET_DNS_COLLECTION_INIT,
      body: dnsRegisterBody(label),
    });
    item = dnsItemAddress(DEVNET_DNS_COLLECTION, dnsItemIndex(label));
    // What the decoders would have stored: the item verified through get_nft_data.
    const d = readNftData((await bc.runGetMethod(item, 'get_nft_data')).stack);
    expect(d.init && d.ownerAddress?.equals(owner.address)).toBe(true);
    collection = rawOf(d.collectionAddress!);
    expect(collection).toBe(rawOf(DEVNET_DNS_COLLECTION));
    known = interfacesOf(
      new Map([[rawOf(item), { nftItem: { collection, index: d.index.toString(), owner: rawOf(owner.address) } }]]),
    );
  });

  it('change_dns for each record kind, with the value under its own key and the flags', async () => {
    const adnl = randomBytes(32);
    const bag = randomBytes(32);
    const cases: { key: bigint; cell: Cell; value: Record<string, unknown> }[] = [
      {
        key: DNS_CATEGORY.wallet,
        cell: dnsRecordCell({ type: 'smc_address', address: owner.address, isWallet: true }),
        value: { sum_type: 'DNSSmcAddress', dns_smc_address: rawOf(owner.address), flags: 1 },
      },
      {
        key: DNS_CATEGORY.site,
        cell: dnsRecordCell({ type: 'adnl_address', adnl }),
        value: { sum_type: 'DNSAdnlAddress', dns_adnl_address: adnl.toString('hex'), flags: 0 },
      },
      {
        key: DNS_CATEGORY.storage,
        cell: dnsRecordCell({ type: 'storage_address', bagId: bag }),
        value: { sum_type: 'DNSStorageAddress', dns_storage_address: bag.toString('hex'), flags: null },
      },
      {
        key: DNS_CATEGORY.dnsNextResolver,
        cell: dnsRecordCell({ type: 'next_resolver', resolver: stranger.address }),
        value: { sum_type: 'DNSNextResolver', dns_next_resolver_address: rawOf(stranger.address), flags: null },
      },
    ];
    for (const c of cases) {
      const { trace, aborted } = await send(change(c.key, c.cell));
      expect(aborted).toBe(false);
      const a = one(classifyTrace(trace, known), 'change_dns');
      expect(a.details).toEqual({
        key: hex256(c.key),
        value: { ...emptyValue, ...c.value },
        source: rawOf(owner.address),
        asset: rawOf(item),
        nft_collection: collection,
      });
      expect(a.success).toBe(true);
      expect([a.source, a.destination, a.asset]).toEqual([rawOf(owner.address), rawOf(item), collection]);
      // The owner's wallet transaction and the item's; the collection is no participant.
      const itemNode = nodeOf(trace, { from: owner.address, to: item, op: CHANGE });
      expect(a.txHashes).toEqual([itemNode.parent!, itemNode].map((n) => n.tx.hash));
      expect(a.accounts).toEqual([rawOf(owner.address), rawOf(item)].sort());
    }
  });

  it('a text record is reported under dns_storage_address, as toncenter does', async () => {
    const { trace } = await send(change(DNS_CATEGORY.site, dnsTextCell(['hello ', 'world'])));
    const a = one(classifyTrace(trace, known), 'change_dns');
    expect(a.details.value).toEqual({
      ...emptyValue,
      sum_type: 'DNSText',
      dns_storage_address: 'hello world',
      flags: null,
    });
  });

  it.skipIf(!hasVectors)(
    'the real mainnet "wallet" body is a change_dns with the vector\'s key and address',
    async () => {
      const v = loadVector<MessageVector>('messages', 'dns_change_record_wallet.json');
      const { trace } = await send(Cell.fromBase64(v.boc_base64));
      const a = one(classifyTrace(trace, known), 'change_dns');
      const address = v.verification.decoded.value!.address;
      expect(a.details).toMatchObject({
        key: v.expected.key,
        value: { ...emptyValue, sum_type: v.expected.value!.type, dns_smc_address: address.toUpperCase(), flags: 0 },
      });
    },
  );

  it('no value and a non-zero key is delete_dns with the key as `hash`', async () => {
    const { trace, aborted } = await send(change(DNS_CATEGORY.storage, null));
    expect(aborted).toBe(false);
    const a = one(classifyTrace(trace, known), 'delete_dns');
    expect(a.details).toEqual({
      hash: hex256(DNS_CATEGORY.storage),
      source: rawOf(owner.address),
      asset: rawOf(item),
      nft_collection: collection,
    });
  });

  it.skipIf(!hasVectors)('no value and key 0 (the real mainnet body) is renew_dns', async () => {
    const v = loadVector<MessageVector>('messages', 'dns_delete_record.json');
    expect(v.expected.key).toBe('0'.repeat(64));
    const { trace, aborted } = await send(Cell.fromBase64(v.boc_base64));
    const a = one(classifyTrace(trace, known), 'renew_dns');
    expect(a.details).toEqual({ source: rawOf(owner.address), asset: rawOf(item), nft_collection: collection });
    expect(a.success).toBe(!aborted);
  });

  it("a stranger's change is refused: change_dns failed, the bounce coming back belongs to it", async () => {
    const { trace, aborted } = await send(
      change(DNS_CATEGORY.wallet, dnsRecordCell({ type: 'smc_address', address: stranger.address })),
      stranger,
    );
    expect(aborted).toBe(true);
    const actions = classifyTrace(trace, known);
    const a = one(actions, 'change_dns');
    expect(a.success).toBe(false);
    const bounce = trace.nodes.find((n) => n.tx.inMsg?.bounced === true);
    expect(bounce?.tx.account).toBe(rawOf(stranger.address));
    expect(a.txHashes).toContain(bounce!.tx.hash);
    expect(actions.map((x) => x.type)).toEqual(['change_dns']);
  });

  it('an item nobody verified is left to the basic matchers (toncenter cannot serialise it either)', async () => {
    const { trace } = await send(change(DNS_CATEGORY.site, null));
    expect(classifyTrace(trace, interfacesOf(new Map())).map((a) => a.type)).toEqual(['call_contract']);
  });
});
