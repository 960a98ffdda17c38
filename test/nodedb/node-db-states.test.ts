// Account states through NodeDb and the node-db source: a devnet chain collated in-process (test/helpers/node-db.ts) written
// with its full shard states into a node-format tree (celldb with Merge records), read back and compared with the
// accounts @ton/core's Dictionary reads from the same state cells. Then gc: a handle marked deleted_boc and a
// state root record removed from celldb read as pruned, and the source falls back to the state update.
// Needs the native addon (celldb is RocksDB); skipped, loudly, without it. The source's pack-scan head is checked
// on the real packs, which needs no addon.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeDbSource } from '../../src/index/source/node-db-source.ts';
import { HANDLE_FLAGS } from '../../src/nodedb/handle.ts';
import { type NodeDb, NodeDbPrunedError, openNodeDb } from '../../src/nodedb/index.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import { cellDbDir, indexDir } from '../../src/nodedb/layout.ts';
import { handleOp, readHandle } from '../../src/nodedb/slice-index.ts';
import { ACCOUNT_NONE, type BlockIdExt } from '../../src/ton/index.ts';
import {
  accountsOfState,
  type DevnetBlock,
  type DevnetChainSteps,
  devnetChain,
  fullKeyOf,
  loadRealBlocks,
  placeRealPacks,
  writeTree,
} from '../helpers/node-db.ts';
import { hasVectors } from '../helpers/vectors.ts';

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db states: celldb tests SKIPPED: ${addon.reason}`);

let scratch = '';
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tongate-nodedb-states-'));
});

afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => {});
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Addresses absent from the state but inside the block's shard (a reader refuses other shards' addresses). */
function absentIn(id: BlockIdExt, accounts: Map<string, unknown>): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; out.length < 2; i++) {
    const a = Buffer.alloc(32, i);
    if (id.workchain === 0 && id.shard !== 1n << 63n && a[0]! >> 7 !== Number(id.shard >> 63n)) continue;
    if (!accounts.has(a.toString('hex'))) out.push(a);
  }
  return out;
}

describe.skipIf(!addon.ok)('account states from celldb (a devnet chain with its states)', () => {
  let chain: DevnetChainSteps;
  let root = '';
  let db: NodeDb;
  const all = () => chain.steps.flatMap((s) => [s.mc, ...s.shardBlocks]) as DevnetBlock[];

  beforeAll(async () => {
    chain = await devnetChain();
    root = join(scratch, 'devnet');
    await writeTree(root, chain.steps, { generation: 'shard-split' });
    db = await openNodeDb({ root, secondaryDir: `${root}-secondary` });
    closers.push(() => db.close());
  }, 240_000);

  it('the chain splits its basechain in two, deploys its wallets and keeps every block state', () => {
    const shards = new Set(all().map((b) => `${b.id.workchain}:${b.id.shard.toString(16)}`));
    expect(shards).toEqual(
      new Set(['-1:8000000000000000', '0:8000000000000000', '0:4000000000000000', '0:c000000000000000']),
    );
    const last = chain.steps.at(-1)!;
    const deployed = chain.wallets.filter((w) =>
      [last.mc, ...last.shardBlocks].some(
        (b) => (accountsOfState(b.state).get(w.address.hash.toString('hex'))?.refs.length ?? 0) === 2,
      ),
    );
    expect(deployed.length).toBe(chain.wallets.length);
  });

  it('reads celldb: coverage, state roots, every account of every block equal to the state, absent ones none', async () => {
    expect(db.mode).toEqual({ blocks: 'index', states: 'celldb' });
    expect((await db.coverage()).states).toEqual({ from: 1, to: chain.steps.length });
    let accounts = 0;
    for (const b of all()) {
      expect((await db.stateRoot(b.id))?.toString('hex')).toBe(b.state.hash().toString('hex'));
      const want = accountsOfState(b.state);
      const addresses = [...want.keys()].map((k) => Buffer.from(k, 'hex'));
      const absent = absentIn(b.id, want);
      const got = await db.accountStates(b.id, [...addresses, ...absent]);
      expect(got.length).toBe(addresses.length + absent.length);
      got.slice(0, addresses.length).forEach((a, i) => {
        const expected = want.get(addresses[i]!.toString('hex'))!;
        expect(a.address.equals(addresses[i]!)).toBe(true);
        expect(a.workchain).toBe(b.id.workchain);
        expect(a.complete).toBe(true);
        expect(a.hash.equals(expected.hash())).toBe(true);
        expect(a.account.toBoc().equals(expected.toBoc())).toBe(true);
      });
      for (const a of got.slice(addresses.length)) {
        expect(a.account.hash().equals(ACCOUNT_NONE.hash())).toBe(true);
        expect(a.complete).toBe(true);
      }
      accounts += addresses.length;
    }
    expect(accounts).toBeGreaterThan(100);
  }, 120_000);

  it('without celldb: the accounts each block changed, from its state update, complete: false unless absent', async () => {
    const none = await openNodeDb({ root, states: 'none', secondaryDir: `${root}-secondary-none` });
    closers.push(() => none.close());
    expect(none.mode.states).toBe('none');
    const b = chain.steps[2]!.shardBlocks.find((x) => x.id.shard === 0x4000000000000000n)!;
    const want = accountsOfState(b.state);
    const addresses = [...want.keys()].map((k) => Buffer.from(k, 'hex'));
    const got = await none.accountStates(b.id, addresses);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(addresses.length);
    for (const a of got) {
      expect(a.hash.equals(want.get(a.address.toString('hex'))!.hash())).toBe(true);
      expect(a.complete).toBe(false);
    }
    expect(await none.stateRoot(b.id)).toBeNull();
  });

  it('the source: head is the shard client, blocks beyond it are absent, states complete', async () => {
    const source = await createNodeDbSource({ root, secondaryDir: `${root}-secondary-source` });
    closers.push(() => source.close());
    expect(source.name).toBe('node-db');
    const n = chain.steps.length;
    expect(await source.head()).toBe(n);
    expect(await source.mcBlock(n + 1)).toBeNull();
    const mc = (await source.mcBlock(n))!;
    expect(fullKeyOf(mc.id)).toBe(fullKeyOf(chain.steps[n - 1]!.mc.id));
    const b = chain.steps[n - 1]!.shardBlocks[0]!;
    expect((await source.block(b.id)).bytes.equals(b.bytes)).toBe(true);
    const address = [...accountsOfState(b.state).keys()][0]!;
    const [state] = await source.accountStates(b.id, [Buffer.from(address, 'hex')]);
    expect(state?.complete).toBe(true);
    expect(await source.nodeDb.shardBlocksCommittedBy(n)).toEqual(chain.steps[n - 1]!.shardBlocks.map((x) => x.id));
  });

  it('a gc’d state: deleted_boc in the handle, or the root record gone, reads as pruned', async () => {
    const gcRoot = join(scratch, 'devnet-gc');
    await writeTree(gcRoot, chain.steps, { generation: 'sliced' });
    const [byFlag, byRecord] = [chain.steps[1]!.shardBlocks[0]!, chain.steps[2]!.mc];
    // the node's gc: the handle gets deleted_boc; a state whose cells went away loses its root record
    const index = await openRocks(indexDir(gcRoot, 0), { mode: 'primary' });
    const h = (await readHandle(index, byFlag.id))!;
    expect(h.flags & HANDLE_FLAGS.initedStateBoc).toBeTruthy();
    await index.write([handleOp({ ...h, flags: h.flags | HANDLE_FLAGS.deletedBoc })], { sync: true });
    await index.close();
    const cells = await openRocks(cellDbDir(gcRoot), { mode: 'primary', cellRefcountMerge: true });
    await cells.write([{ type: 'del', key: byRecord.state.hash() }], { sync: true });
    await cells.close();

    const gdb = await openNodeDb({ root: gcRoot, secondaryDir: `${gcRoot}-secondary` });
    closers.push(() => gdb.close());
    const someAddress = (b: DevnetBlock) => [Buffer.from([...accountsOfState(b.state).keys()][0]!, 'hex')];
    for (const b of [byFlag, byRecord]) {
      await expect(gdb.stateRoot(b.id)).rejects.toThrow(NodeDbPrunedError);
      await expect(gdb.accountStates(b.id, someAddress(b))).rejects.toThrow(NodeDbPrunedError);
    }
    // other blocks still read
    const other = chain.steps[3]!.mc;
    expect((await gdb.accountStates(other.id, someAddress(other)))[0]?.complete).toBe(true);

    // the source falls back to the block's state update, or throws when told to
    const warnings: string[] = [];
    const source = await createNodeDbSource({
      root: gcRoot,
      secondaryDir: `${gcRoot}-secondary-source`,
      log: (level, msg) => {
        if (level === 'warn') warnings.push(msg);
      },
    });
    closers.push(() => source.close());
    const fallback = await source.accountStates(byFlag.id, someAddress(byFlag));
    for (const a of fallback) expect(a.complete).toBe(a.account.hash().equals(ACCOUNT_NONE.hash()));
    expect(warnings.some((w) => w.includes('garbage-collected'))).toBe(true);
    const strict = await createNodeDbSource({
      root: gcRoot,
      secondaryDir: `${gcRoot}-secondary-strict`,
      prunedStates: 'error',
    });
    closers.push(() => strict.close());
    await expect(strict.accountStates(byFlag.id, someAddress(byFlag))).rejects.toThrow(NodeDbPrunedError);
  }, 60_000);
});

describe.skipIf(!hasVectors)('the source over the real packs (pack scan)', () => {
  it('head is the newest masterchain block whose shard blocks are all there; beyond it nothing', async () => {
    const real = await loadRealBlocks();
    const root = join(scratch, 'real-source');
    await placeRealPacks(root);
    const source = await createNodeDbSource({ root, blocks: 'packscan', states: 'none' });
    closers.push(() => source.close());
    expect(await source.head()).toBe(263);
    // 264 is in the archive, but not all it commits: not served yet
    expect(await source.nodeDb.mcBlockId(264)).not.toBeNull();
    expect(await source.mcBlock(264)).toBeNull();
    const mc = (await source.mcBlock(263))!;
    expect(mc.bytes.equals(real.steps[262]!.mc.bytes)).toBe(true);
    // account states from the state update only
    const b = real.committed.get(200)![0]!;
    const states = await source.accountStates(b, [Buffer.alloc(32, 0x33)]);
    for (const s of states) expect(s.complete).toBe(s.account.hash().equals(ACCOUNT_NONE.hash()));
  });
});
