// Real full shard states, collated by our devnet (two basechain shards after a split, wallets deployed and paying
// each other, plus the masterchain state with its config), stored into a node-format celldb the ways a node does
// (v1 Puts, v2 Puts + Merges, --celldb-compress-depth 3) and read back: whole states by hash, every account of
// every accounts dictionary (compared with the Account cells @ton/core's Dictionary reads from the same states),
// absent addresses, a split_state, the desc list, a gc'd state and a deleted record. Then the same through a real
// RocksDB primary with the addon's merge operator, reopened as a secondary (skipped, loudly, without the addon).
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Address,
  beginCell,
  type Cell,
  Dictionary,
  type DictionaryValue,
  external,
  internal,
  loadDepthBalanceInfo,
  loadShardIdent,
  SendMode,
  storeMessage,
  toNano,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTops, collateStep } from '../../src/devnet/chain/step.ts';
import { createExecutorTvm } from '../../src/devnet/chain/test-support.ts';
import { createZeroStates, uninitAccount } from '../../src/devnet/chain/zero-state.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../../src/devnet/genesis/index.ts';
import {
  appendStateOps,
  type CellDbWriteOptions,
  cellDbWriteOps,
  cellRefcountMerge,
  createCellStore,
  listStoredStates,
  NodeDbMissingCellError,
  parseCellRecord,
  readAccountStates,
  recordRefcount,
  removeOldestStateOps,
  stateRootOf,
} from '../../src/nodedb/celldb/index.ts';
import { createMemoryKv } from '../../src/nodedb/kv/memory.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import type { KvReader, KvWriter } from '../../src/nodedb/kv/types.ts';
import { ACCOUNT_NONE, type BlockIdExt } from '../../src/ton/index.ts';
import { distinctCells, expectedRefcounts } from '../helpers/cells.ts';

const GEN_UTIME = 1_700_000_000;
const keys = deriveGenesisKeys('celldb-state-test');
const validator = { seed: keys.validator.seed, publicKey: keys.validator.publicKey };
const layout = shardLayout(2);
const wkey = keyPairFromSeed(createHash('sha256').update('celldb-state-wallet').digest());

/** v4r2 wallets of one key, `n` of them in each basechain half (the first address bit). */
function wallets(n: number): WalletContractV4[] {
  const out: WalletContractV4[] = [];
  const perHalf = [0, 0];
  for (let id = 0; out.length < 2 * n; id++) {
    const w = WalletContractV4.create({ workchain: 0, publicKey: wkey.publicKey, walletId: id });
    const half = (w.address.hash[0] as number) >> 7;
    if (perHalf[half]! < n) {
      perHalf[half]!++;
      out.push(w);
    }
  }
  return out;
}

const W = wallets(2);
const M = WalletContractV4.create({ workchain: -1, publicKey: wkey.publicKey, walletId: 7 });

function walletExternal(w: WalletContractV4, seqno: number, messages: ReturnType<typeof internal>[], deploy: boolean) {
  const body = w.createTransfer({
    seqno,
    secretKey: wkey.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: GEN_UTIME + 100_000,
  });
  return beginCell()
    .store(storeMessage(external({ to: w.address, init: deploy ? w.init : undefined, body })))
    .endCell();
}

interface StoredState {
  id: BlockIdExt;
  root: Cell;
}

/** Account cells of a ShardStateUnsplit as @ton/core's Dictionary reads them (leaf: DepthBalanceInfo, ^Account). */
const accountCell: DictionaryValue<Cell> = {
  parse: (cs) => {
    loadDepthBalanceInfo(cs);
    return cs.loadRef();
  },
  serialize: () => {
    throw new Error('read only');
  },
};
function accountsOf(state: Cell): Map<string, Cell> {
  const out = new Map<string, Cell>();
  const a = state.refs[1]!.beginParse();
  const dict = Dictionary.load(Dictionary.Keys.BigUint(256), accountCell, a);
  for (const [k, v] of dict) out.set(k.toString(16).padStart(64, '0'), v);
  return out;
}
const workchainOf = (state: Cell) => {
  const s = state.beginParse();
  s.skip(64);
  return loadShardIdent(s).workchainId;
};

const BASECHAIN_FILLER = 300;
const MASTERCHAIN_FILLER = 40;
const filler = (workchain: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    Address.parse(`${workchain}:${createHash('sha256').update(`filler ${workchain} ${i}`).digest('hex')}`),
  );

let states: StoredState[] = [];
/** Addresses that no state has. */
const ABSENT = [Buffer.alloc(32, 0x11), Buffer.alloc(32, 0xee)];

beforeAll(async () => {
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: GEN_UTIME,
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
  });
  const genesis = createZeroStates({
    config,
    // plus enough funded accounts that the accounts tries are several levels deep
    accounts: [
      ...W.map((w) => uninitAccount(w.address, toNano('1000'))),
      ...filler(0, BASECHAIN_FILLER).map((a) => uninitAccount(a, toNano('1'))),
    ],
    masterchainAccounts: [
      uninitAccount(Address.parse(`-1:${'55'.repeat(32)}`), 4_000_000_000_000_000_000n),
      uninitAccount(M.address, toNano('1000')),
      ...filler(-1, MASTERCHAIN_FILLER).map((a) => uninitAccount(a, toNano('1'))),
    ],
    layout,
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
  const tvm = await createExecutorTvm();
  const fresh = (i: number) => Address.parse(`0:${createHash('sha256').update(`new ${i}`).digest('hex')}`);
  const plan: Record<number, Cell[]> = {
    4: [...W.map((w) => walletExternal(w, 0, [], true)), walletExternal(M, 0, [], true)],
    5: [
      walletExternal(
        W[0]!,
        1,
        [
          internal({ to: W[2]!.address, value: toNano('5'), bounce: false, body: 'to the other half' }),
          internal({ to: fresh(1), value: toNano('1'), bounce: false }),
          internal({ to: fresh(2), value: toNano('2'), bounce: false }),
        ],
        false,
      ),
      walletExternal(W[3]!, 1, [internal({ to: M.address, value: toNano('3'), bounce: true })], false),
    ],
  };
  let tops: ChainTops = { mc: genesis.masterchain, shards: [genesis.workchain] };
  const kept: StoredState[] = [];
  for (let step = 1; step <= 7; step++) {
    const r = await collateStep(tops, {
      now: GEN_UTIME + 2 * step,
      seed: Buffer.from(`step ${step}`),
      externals: plan[step] ?? [],
      tvm,
      validator,
      layout,
    });
    // the node stores the state of every block; keep the last two steps' shard states and the final masterchain
    if (step >= 6) for (const b of r.shardBlocks) kept.push({ id: b.id, root: b.state });
    if (step === 7) kept.push({ id: r.mcBlock.id, root: r.mcBlock.state });
    tops = r.tops;
  }
  states = kept;
}, 240_000);

describe('the devnet states used', () => {
  it('are two shards over two steps plus the masterchain, with deployed wallets and new accounts', () => {
    expect(states.length).toBe(5);
    expect(states.filter((s) => s.id.workchain === 0).map((s) => s.id.shard.toString(16))).toEqual(
      expect.arrayContaining(['4000000000000000', 'c000000000000000']),
    );
    const last = states.slice(2);
    const basechainAccounts = last.filter((s) => s.id.workchain === 0).flatMap((s) => [...accountsOf(s.root).keys()]);
    for (const w of W) expect(basechainAccounts).toContain(w.address.hash.toString('hex'));
    expect(basechainAccounts.length).toBe(W.length + 2 + BASECHAIN_FILLER);
    // the wallets were deployed (code and data refs), the fresh addresses hold plain uninit accounts
    for (const w of W) {
      const shard = last.find((s) => s.id.workchain === 0 && accountsOf(s.root).has(w.address.hash.toString('hex')))!;
      expect(accountsOf(shard.root).get(w.address.hash.toString('hex'))!.refs.length).toBe(2);
    }
    const mc = accountsOf(last.at(-1)!.root);
    expect(mc.size).toBe(2 + MASTERCHAIN_FILLER);
    expect(mc.get(M.address.hash.toString('hex'))!.refs.length).toBe(2);
    expect(distinctCells(last.at(-1)!.root).size).toBeGreaterThan(500);
  });
});

/** Writes every kept state in order (cells + desc entry), as a node storing one block's state after another. */
async function storeStates(
  kv: KvWriter,
  opts: Omit<CellDbWriteOptions, 'has' | 'get'>,
  flushBetween?: () => Promise<void>,
) {
  for (const s of states) {
    const ops = await cellDbWriteOps(s.root, {
      ...opts,
      has: async (h) => (await kv.get(h)) !== null,
      get: (h) => kv.get(h),
    });
    await kv.write([...ops, ...(await appendStateOps(kv, s.id, s.root.hash()))], { sync: true });
    await flushBetween?.();
  }
}

/** Everything a reader should get back from a celldb holding the kept states. */
async function checkReads(kv: KvReader): Promise<void> {
  const listed = await listStoredStates(kv);
  expect(listed.map((s) => s.id.rootHash.toString('hex'))).toEqual(states.map((s) => s.id.rootHash.toString('hex')));
  const store = createCellStore(kv, { cacheBytes: 1 << 20 });
  for (const s of states) {
    const rootHash = (await stateRootOf(kv, s.id))!;
    expect(rootHash.equals(s.root.hash())).toBe(true);
    const loaded = await store.loadCell(rootHash);
    expect(loaded.hash().equals(s.root.hash())).toBe(true);

    const want = accountsOf(s.root);
    const addresses = [...want.keys()].map((k) => Buffer.from(k, 'hex'));
    const wc = workchainOf(s.root);
    const absent = inShardOnly(s, ABSENT);
    expect(absent.length).toBeGreaterThan(0);
    const got = await readAccountStates(store, rootHash, wc, [...addresses, ...absent]);
    expect(got.length).toBe(addresses.length + absent.length);
    got.slice(0, addresses.length).forEach((a, i) => {
      const expected = want.get(addresses[i]!.toString('hex'))!;
      expect(a.address.equals(addresses[i]!)).toBe(true);
      expect(a.workchain).toBe(wc);
      expect(a.complete).toBe(true);
      expect(a.hash.equals(expected.hash())).toBe(true);
      expect(a.account.hash().equals(expected.hash())).toBe(true);
      expect(a.account.toBoc().equals(expected.toBoc())).toBe(true);
    });
    for (const a of got.slice(addresses.length)) expect(a.account.hash().equals(ACCOUNT_NONE.hash())).toBe(true);
  }
}

/** The absent addresses that fall in state `s`'s shard (a reader refuses addresses of another shard). */
function inShardOnly(s: StoredState, addrs: Buffer[]): Buffer[] {
  if (s.id.workchain === -1) return addrs;
  const bit = Number(s.id.shard >> 63n);
  return addrs.filter((a) => a[0]! >> 7 === (bit === 0 ? 0 : 1));
}

describe('a node-format celldb holding real states', () => {
  for (const [name, opts] of [
    ['v1 (plain Puts)', { mode: 'plain' }],
    ['v2 (Puts and Merges)', { mode: 'merge' }],
    ['compress depth 3 (−1+BoC records, their descendants left out)', { mode: 'merge', compressDepth: 3 }],
    [
      'compress depth 3, descendants stored as the node does',
      { mode: 'merge', compressDepth: 3, compressedChildren: 'store' },
    ],
  ] as const) {
    it(`${name}: states, every account, absent addresses`, async () => {
      const kv = createMemoryKv({ merge: cellRefcountMerge });
      await storeStates(kv, opts);
      await checkReads(kv);
      const entries = await kv.range({});
      const records = entries.filter(([k]) => k.length === 32);
      if (!('compressDepth' in opts)) {
        const want = expectedRefcounts(states.map((s) => s.root));
        expect(new Map(records.map(([k, v]) => [k.toString('hex'), recordRefcount(v)]))).toEqual(want);
      } else {
        const boc = records.filter(([k, v]) => parseCellRecord(v, k).kind === 'boc');
        expect(boc.length).toBeGreaterThan(10);
      }
    });
  }

  it('v1 and v2 leave the same bytes', async () => {
    const a = createMemoryKv({ merge: cellRefcountMerge });
    const b = createMemoryKv({ merge: cellRefcountMerge });
    await storeStates(a, { mode: 'plain' });
    await storeStates(b, { mode: 'merge' });
    expect(await a.range({})).toEqual(await b.range({}));
  });

  it('finds accounts in a split_state by the halves’ shard prefixes', async () => {
    const [s1, s2] = states.filter((s) => s.id.workchain === 0).slice(-2) as [StoredState, StoredState];
    const [left, right] = s1.id.shard < s2.id.shard ? [s1, s2] : [s2, s1];
    const split = beginCell().storeUint(0x5f327da5, 32).storeRef(left.root).storeRef(right.root).endCell();
    const kv = createMemoryKv({ merge: cellRefcountMerge });
    await kv.write(await cellDbWriteOps(split, { has: async (h) => (await kv.get(h)) !== null }));
    const want = new Map([...accountsOf(left.root), ...accountsOf(right.root)]);
    const addresses = [...want.keys()].map((k) => Buffer.from(k, 'hex'));
    const got = await readAccountStates(createCellStore(kv), split.hash(), 0, [...addresses, ...ABSENT]);
    got.slice(0, addresses.length).forEach((a, i) => {
      expect(a.hash.equals(want.get(addresses[i]!.toString('hex'))!.hash())).toBe(true);
    });
    for (const a of got.slice(addresses.length)) expect(a.hash.equals(ACCOUNT_NONE.hash())).toBe(true);
  });

  it('walks a batch of addresses one trie level per round: one multiGet each, not one per address', async () => {
    const kv = createMemoryKv({ merge: cellRefcountMerge });
    await storeStates(kv, { mode: 'merge' });
    let calls = 0;
    const counted: KvReader = {
      ...kv,
      path: kv.path,
      multiGet: (k) => {
        calls++;
        return kv.multiGet(k);
      },
    };
    const s = states.filter((x) => x.id.workchain === 0).at(-1)!;
    const addresses = [...accountsOf(s.root).keys()].map((k) => Buffer.from(k, 'hex'));
    expect(addresses.length).toBeGreaterThan(100);
    const got = await readAccountStates(createCellStore(counted), s.root.hash(), 0, addresses);
    expect(got.length).toBe(addresses.length);
    // root, accounts, ≤ 1 + log-depth trie rounds (labels shorten it), the accounts' own levels (uninit: 1; wallets: a few)
    expect(calls).toBeLessThan(30);
  });

  it('refuses an address of another shard or workchain', async () => {
    const kv = createMemoryKv({ merge: cellRefcountMerge });
    await storeStates(kv, { mode: 'merge' });
    const s = states.find((x) => x.id.workchain === 0)!;
    const other = Buffer.alloc(32, Number(s.id.shard >> 63n) === 1 ? 0x00 : 0xff);
    const store = createCellStore(kv);
    await expect(readAccountStates(store, s.root.hash(), 0, [other])).rejects.toThrow(/not in its shard/);
    await expect(readAccountStates(store, s.root.hash(), -1, [])).resolves.toEqual([]);
    await expect(readAccountStates(store, s.root.hash(), -1, [ABSENT[0]!])).rejects.toThrow(/not in its shard/);
  });

  it('gc of the oldest state and a deleted record: null root, typed missing-cell error naming the cell', async () => {
    const kv = createMemoryKv({ merge: cellRefcountMerge });
    await storeStates(kv, { mode: 'merge' });
    await kv.write(await removeOldestStateOps(kv));
    expect(await stateRootOf(kv, states[0]!.id)).toBeNull();
    expect((await listStoredStates(kv)).length).toBe(states.length - 1);

    // delete the record of one wallet's code cell: reading that account must fail, naming the cell
    const mc = states.at(-1)!;
    const account = accountsOf(mc.root).get(M.address.hash.toString('hex'))!;
    const victim = [...distinctCells(account).values()].find((c) => c.refs.length === 0 && c.bits.length > 256)!;
    await kv.write([{ type: 'del', key: victim.hash() }]);
    const err = await readAccountStates(createCellStore(kv), mc.root.hash(), -1, [M.address.hash]).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NodeDbMissingCellError);
    expect((err as NodeDbMissingCellError).hash.equals(victim.hash())).toBe(true);
    // a trie node on the way
    const trieRoot = mc.root.refs[1]!.refs[0]!;
    await kv.write([{ type: 'del', key: trieRoot.hash() }]);
    const err2 = await readAccountStates(createCellStore(kv), mc.root.hash(), -1, [ABSENT[0]!]).catch(
      (e: unknown) => e,
    );
    expect(err2).toBeInstanceOf(NodeDbMissingCellError);
    expect((err2 as NodeDbMissingCellError).hash.equals(trieRoot.hash())).toBe(true);
  });
});

const rocks = loadRocksAddon();
if (!rocks.ok) console.warn(`celldb RocksDB round trip SKIPPED: ${rocks.reason}`);

describe.skipIf(!rocks.ok)(
  'the same states through a real RocksDB (addon merge operator, reopened as secondary)',
  () => {
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tongate-celldb-'));
    });
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('v2 writes with memtable flushes in between read back through a secondary, byte for byte as in memory', async () => {
      const path = join(dir, 'celldb');
      const primary = await openRocks(path, { mode: 'primary', createIfMissing: true, cellRefcountMerge: true });
      // flushing after each state puts base records in table files and later Merges above them
      await storeStates(primary, { mode: 'merge' }, () => primary.flushMemtable());
      await primary.close();

      const secondary = await openRocks(path, { mode: 'secondary', cellRefcountMerge: true });
      try {
        await secondary.catchUp();
        await checkReads(secondary);
        const mem = createMemoryKv({ merge: cellRefcountMerge });
        await storeStates(mem, { mode: 'merge' });
        expect(await secondary.range({})).toEqual(await mem.range({}));
      } finally {
        await secondary.close();
      }
    });
  },
);
