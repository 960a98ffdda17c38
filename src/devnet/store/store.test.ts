// The store on a real chain: the node-db packs (masterchain 1..264 with its basechain, which splits into two
// shards) committed step by step after a genesis made of the real zero states' (pruned) trees. Expected
// values come from the packs (ids in entry names, bytes), from the blocks decoded by our codec, and from
// cell trees walked with @ton/core.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Cell } from '@ton/core';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainBlock, loadNodeDbChain, type NodeDbChain } from '../../../test/helpers/store-chain.ts';
import { isTongateError } from '../../common/errors.ts';
import { type BlockIdExt, listBlockTransactions } from '../../ton/index.ts';
import { openDevnetStore, openDevnetStoreReader } from './index.ts';
import type { DevnetStore } from './types.ts';

const U64 = (1n << 64n) - 1n;

function idOf(b: ChainBlock): BlockIdExt {
  return b.id;
}

function hex(id: BlockIdExt): string {
  return `${id.workchain}:${id.shard.toString(16)}:${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
}

/** Distinct cells of the trees (by representation hash), walked with @ton/core. */
function distinctCells(roots: Cell[], into: Set<string>): number {
  let visits = 0;
  const stack = [...roots];
  const local = new Set<string>();
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (local.has(h)) continue;
    local.add(h);
    into.add(h);
    visits++;
    stack.push(...c.refs);
  }
  return visits;
}

async function expectCode(p: Promise<unknown>, code: string): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(isTongateError(e) ? e.code : String(e)).toBe(code);
    return e as Error;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

const META = {
  seed: 'store-test',
  globalId: -239,
  shardLayout: [0x4000000000000000n, 0xc000000000000000n],
  genesisUtime: 1,
};

describe('devnet store on the node-db chain', () => {
  let chain: NodeDbChain;
  let dir: string;
  let store: DevnetStore | undefined;
  const committed: ChainBlock[] = [];
  const STEPS = 120; // past the basechain split (masterchain ~85)

  beforeAll(async () => {
    chain = loadNodeDbChain();
    dir = await mkdtemp(join(tmpdir(), 'tongate-store-'));
  });

  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('commits the genesis and steps; blocks, files, states and manifests read back', async () => {
    store = await openDevnetStore(dir);
    expect(store.head()).toBeNull();
    expect(await store.meta()).toBeNull();
    // Basechain block 1 carries its zero state fully pruned (one pruned-branch cell): not a readable state.
    const pruned = await expectCode(
      store.commitGenesis({
        meta: META,
        mcZeroState: { boc: chain.mcZeroState },
        wcZeroStates: [{ boc: chain.wcZeroState }],
      }),
      'TG_DEVNET_STORE_REJECTED',
    );
    expect(pruned.message).toMatch(/zero state: expected ShardStateUnsplit tag/);
    const g = await store.commitGenesis({ meta: META, mcZeroState: { boc: chain.mcZeroState }, wcZeroStates: [] });
    const mc1 = chain.steps[0]!.mc;
    // The zero state id: root hash = state_update old hash of masterchain block 1, file hash = sha256 of the file.
    expect(g.mcSeqno).toBe(0);
    expect(g.mcBlock.id.rootHash).toEqual(mc1.block.stateUpdate.oldHash);
    expect(g.mcBlock.id.fileHash).toEqual(createHash('sha256').update(chain.mcZeroState).digest());
    expect(g.shardTops).toEqual([]);
    const meta = (await store.meta())!;
    expect(meta.seed).toBe(META.seed);
    expect(meta.shardLayout).toEqual(META.shardLayout);
    expect(hex(meta.mcZeroState)).toBe(hex(g.mcBlock.id));
    expect(meta.wcZeroStates).toEqual([]);
    expect(await store.zeroStateFile(meta.mcZeroState)).toEqual(chain.mcZeroState);
    expect(await store.blockFile(meta.mcZeroState)).toBeNull();
    expect((await store.stateRoot(meta.mcZeroState))!.hash()).toEqual(mc1.oldState.hash());

    for (const step of chain.steps.slice(0, STEPS)) {
      const head = await store.commitStep({
        mcBlock: { boc: step.mc.boc, state: step.mc.newState, accounts: step.mc.accounts },
        shardBlocks: step.shards.map((b) => ({ boc: b.boc, state: b.newState, accounts: b.accounts })),
      });
      expect(hex(head.mcBlock.id)).toBe(hex(idOf(step.mc)));
      expect(head.shardBlocks.map((e) => hex(e.id))).toEqual(step.shards.map((b) => hex(b.id)));
      committed.push(...step.shards, step.mc);
    }
    const head = store.head()!;
    expect(head.mcSeqno).toBe(chain.steps[STEPS - 1]!.mc.id.seqno);
    // After the split the tops are the two children, each the highest block of its shard so far.
    const tops = head.shardTops.map((e) => e.id);
    expect(tops.map((t) => t.shard)).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    for (const t of tops) {
      const newest = committed.filter((b) => b.id.shard === t.shard).sort((a, b) => b.id.seqno - a.id.seqno)[0]!;
      expect(hex(t)).toBe(hex(newest.id));
    }

    for (const b of committed) {
      const rec = await store.blockById(b.id);
      expect(rec, hex(b.id)).not.toBeNull();
      expect(rec!.startLt).toBe(b.block.info.startLt);
      expect(rec!.endLt).toBe(b.block.info.endLt);
      expect(rec!.genUtime).toBe(b.block.info.genUtime);
      expect(await store.blockFile(b.id)).toEqual(b.boc);
      const state = (await store.stateRoot(b.id))!;
      expect(state.hash(0)).toEqual(b.block.stateUpdate.newHash);
      expect(state.hash()).toEqual(b.newState.hash());
    }
    for (const step of chain.steps.slice(0, STEPS)) {
      const ids = await store.mcShardBlocks(step.mc.id.seqno);
      expect(ids!.map(hex)).toEqual(step.shards.map((b) => hex(b.id)));
      expect((await store.manifest(step.mc.id.seqno))!.mcBlock.file).toMatch(/^blocks\/-1_8000000000000000\/0\//);
    }
    expect(await store.blockById({ ...committed[0]!.id, rootHash: Buffer.alloc(32) })).toBeNull();
    expect(await store.manifest(STEPS + 1000)).toBeNull();
  });

  it('indexes every transaction and message of the committed blocks', async () => {
    const s = store!;
    let txs = 0;
    for (const b of committed) {
      for (const t of listBlockTransactions(b.block)) {
        const address = new Address(b.id.workchain, t.account);
        const loc = (await s.transactionLocation(address, t.lt))!;
        expect(loc.hash).toEqual(t.hash);
        expect(hex(loc.block)).toBe(hex(b.id));
        const tx = (await s.transaction(address, t.lt))!;
        expect(tx.cell.hash()).toEqual(t.hash);
        const msgs = t.cell.refs[0]!.beginParse();
        if (msgs.loadBit()) {
          const found = await s.messageTransactions(msgs.loadRef().hash());
          expect(found.some((m) => m.direction === 'in' && m.lt === t.lt && m.account.equals(address))).toBe(true);
        }
        txs++;
      }
    }
    expect(txs).toBeGreaterThan(300);
    // History walks newest first, across blocks: the elector (-1:333…) has a tick and a tock per block.
    const elector = Address.parseRaw(`-1:${'33'.repeat(32)}`);
    const expected = committed
      .flatMap((b) => listBlockTransactions(b.block).map((t) => ({ b, t })))
      .filter(({ b, t }) => b.id.workchain === -1 && t.account.equals(elector.hash))
      .map(({ t }) => t.lt)
      .sort((a, b) => (a < b ? 1 : -1));
    const page1 = await s.accountTransactions(elector, U64, 10);
    expect(page1.map((t) => t.lt)).toEqual(expected.slice(0, 10));
    const page2 = await s.accountTransactions(elector, page1.at(-1)!.lt - 1n, 10);
    expect(page2.map((t) => t.lt)).toEqual(expected.slice(10, 20));
    expect(await s.accountTransactions(elector, 0n, 10)).toEqual([]);
  });

  it('keeps each account at its newest version', async () => {
    const s = store!;
    const latest = new Map<string, { cell: Cell; block: BlockIdExt }>();
    for (const b of committed) {
      for (const a of b.accounts) latest.set(a.address.toRawString(), { cell: a.shardAccount, block: b.id });
    }
    expect(latest.size).toBeGreaterThan(3);
    for (const [raw, want] of latest) {
      const got = (await s.account(Address.parseRaw(raw)))!;
      expect(got.shardAccount.hash()).toEqual(want.cell.hash());
      expect(got.account.hash()).toEqual(want.cell.refs[0]!.hash());
      expect(hex(got.block)).toBe(hex(want.block));
      expect(got.lastTransLt).toBe(want.cell.beginParse().skip(256).loadUintBig(64));
    }
    expect(await s.account(Address.parseRaw(`0:${'ab'.repeat(32)}`))).toBeNull();
  });

  it('looks blocks up by seqno, lt and utime as the node does', async () => {
    const s = store!;
    const byShard = new Map<string, ChainBlock[]>();
    for (const b of committed) {
      const k = `${b.id.workchain}:${b.id.shard}`;
      byShard.set(k, [...(byShard.get(k) ?? []), b]);
    }
    for (const list of byShard.values()) {
      list.sort((a, b) => a.id.seqno - b.id.seqno);
      for (let i = 0; i < list.length; i++) {
        const b = list[i]!;
        const { workchain, shard, seqno } = b.id;
        const { startLt, endLt, genUtime } = b.block.info;
        expect(hex((await s.blockIdBySeqno(workchain, shard, seqno))!)).toBe(hex(b.id));
        for (const lt of [startLt, (startLt + endLt) / 2n, endLt]) {
          expect(hex((await s.blockByLt(workchain, shard, lt))!.id), `lt ${lt}`).toBe(hex(b.id));
        }
        // Between two blocks of a shard: the next one (the node's "first block at or after").
        const prev = list[i - 1];
        if (prev && prev.block.info.endLt + 1n < startLt) {
          expect(hex((await s.blockByLt(workchain, shard, prev.block.info.endLt + 1n))!.id)).toBe(hex(b.id));
        }
        // By utime: the first block of the shard with gen_utime >= utime.
        const firstAt = list.find((x) => x.block.info.genUtime >= genUtime)!;
        expect(hex((await s.blockByUtime(workchain, shard, genUtime))!.id)).toBe(hex(firstAt.id));
        if (prev && prev.block.info.genUtime < genUtime - 1) {
          expect(hex((await s.blockByUtime(workchain, shard, genUtime - 1))!.id)).toBe(hex(b.id));
        }
      }
    }
    const mcs = byShard.get(`-1:${0x8000000000000000n}`)!;
    const lastMc = mcs.at(-1)!.block.info;
    expect(await s.blockByLt(-1, 0x8000000000000000n, lastMc.endLt + 1n)).toBeNull();
    expect(await s.blockByUtime(-1, 0x8000000000000000n, lastMc.genUtime + 1)).toBeNull();
    expect(await s.blockIdBySeqno(-1, 0x8000000000000000n, mcs.at(-1)!.id.seqno + 1)).toBeNull();
    // The shard is an account prefix (ltdb): after the split, 0:8000… finds the right child, 0:4000… the left.
    const right = committed.find((b) => b.id.shard === 0xc000000000000000n)!;
    const left = committed.find((b) => b.id.shard === 0x4000000000000000n && b.id.seqno === right.id.seqno)!;
    expect(hex((await s.blockIdBySeqno(0, 0x8000000000000000n, right.id.seqno))!)).toBe(hex(right.id));
    expect(hex((await s.blockIdBySeqno(0, 0x2000000000000000n, left.id.seqno))!)).toBe(hex(left.id));
    expect(hex((await s.blockByLt(0, 0x8000000000000000n, right.block.info.startLt))!.id)).toBe(hex(right.id));
  });

  it('stores the cells that states share once', async () => {
    const s = store!;
    const union = new Set<string>();
    let perTree = 0;
    const roots: Cell[] = [];
    roots.push(Cell.fromBoc(chain.mcZeroState)[0]!);
    for (const b of committed) roots.push(b.newState, ...b.accounts.map((a) => a.shardAccount));
    for (const r of roots) perTree += distinctCells([r], union);
    expect(await s.countCells()).toBe(union.size);
    // Consecutive states keep most subtrees: far fewer rows than the trees have cells in total (here ~55%).
    expect(union.size).toBeLessThan(perTree * 0.7);
  });

  it('reopens with everything in place', async () => {
    const before = store!.head()!;
    await store!.close();
    store = await openDevnetStore(dir);
    expect(store.head()).toEqual(before);
    const last = committed.at(-1)!;
    expect(await store.blockFile(last.id)).toEqual(last.boc);
    expect((await store.stateRoot(last.id))!.hash()).toEqual(last.newState.hash());
    expect((await store.meta())!.seed).toBe(META.seed);
    // Continue the chain after the reopen.
    const step = chain.steps[STEPS]!;
    const head = await store.commitStep({
      mcBlock: { boc: step.mc.boc, state: step.mc.newState },
      shardBlocks: step.shards.map((b) => ({ boc: b.boc, state: b.newState })),
    });
    expect(hex(head.mcBlock.id)).toBe(hex(step.mc.id));
    committed.push(...step.shards, step.mc);
  });

  it('refuses writes that would break the store', async () => {
    const s = store!;
    const done = chain.steps[STEPS]!;
    const next = chain.steps[STEPS + 1]!;
    await expectCode(
      s.commitStep({ mcBlock: { boc: done.mc.boc, state: done.mc.newState }, shardBlocks: [] }),
      'TG_DEVNET_STORE_REJECTED',
    );
    const e = await expectCode(
      s.commitStep({ mcBlock: { boc: next.mc.boc, state: done.mc.newState }, shardBlocks: [] }),
      'TG_DEVNET_STORE_REJECTED',
    );
    expect(e.message).toMatch(/state_update new hash/);
    await expectCode(
      s.commitGenesis({ meta: META, mcZeroState: { boc: chain.mcZeroState }, wcZeroStates: [] }),
      'TG_DEVNET_STORE_REJECTED',
    );
    // A shard block the head already passed.
    const old = committed.find((b) => b.id.workchain === 0)!;
    await expectCode(
      s.commitStep({
        mcBlock: { boc: next.mc.boc, state: next.mc.newState },
        shardBlocks: [{ boc: old.boc, state: old.newState }],
      }),
      'TG_DEVNET_STORE_REJECTED',
    );
    expect(hex(s.head()!.mcBlock.id)).toBe(hex(done.mc.id));
    await expectCode(openDevnetStore(dir), 'TG_DEVNET_STORE_LOCKED');
  });

  it('keeps queued external messages across a restart until a step or an ack drops them', async () => {
    const s = store!;
    // Real messages: inbound messages of committed transactions.
    const bocs = committed
      .flatMap((b) => listBlockTransactions(b.block))
      .map((t) => t.cell.refs[0]!.beginParse())
      .filter((sl) => sl.loadBit())
      .map((sl) => sl.loadRef().toBoc())
      .slice(0, 3);
    const ids = [];
    for (const b of bocs) ids.push(await s.enqueueExternal(b));
    expect(ids[1]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
    const taken = await s.takeExternals(2);
    expect(taken.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect((await s.takeExternals()).map((m) => m.id)).toEqual([ids[2]]);
    const next = chain.steps[STEPS + 1]!;
    await s.commitStep({
      mcBlock: { boc: next.mc.boc, state: next.mc.newState },
      shardBlocks: next.shards.map((b) => ({ boc: b.boc, state: b.newState })),
      ackExternals: [ids[0]!],
    });
    committed.push(...next.shards, next.mc);
    await s.close();
    store = await openDevnetStore(dir);
    const again = await store.takeExternals();
    expect(again.map((m) => m.id)).toEqual(ids.slice(1));
    expect(again.map((m) => m.boc)).toEqual(bocs.slice(1));
    await store.ackExternals([ids[1]!]);
    await store.close();
    store = await openDevnetStore(dir);
    expect((await store.takeExternals()).map((m) => m.id)).toEqual([ids[2]]);
    const later = await store.enqueueExternal(bocs[0]!);
    expect(later > ids[2]!).toBe(true);
    await expectCode(store.enqueueExternal(Buffer.from('not a boc')), 'TG_DEVNET_STORE_REJECTED');
  });

  it('rebuilds the file layer from the database when head.json is gone', async () => {
    const s = store!;
    const head = s.head()!;
    const victim = committed.find((b) => b.id.workchain === 0 && b.id.shard === 0x4000000000000000n)!;
    const files = join(dir, 'files');
    const m = await s.manifest(5);
    await s.close();
    await rm(join(files, 'head.json'));
    await rm(join(files, 'manifests', '0', '5.json'));
    const shardFile = join(
      files,
      'blocks',
      '0_4000000000000000',
      '0',
      `${victim.id.seqno}_${victim.id.fileHash.toString('hex')}.boc`,
    );
    await rm(shardFile);
    await writeFile(join(files, 'manifests', '0', `${head.mcSeqno + 1}.json`), '{"format":"partial');
    store = await openDevnetStore(dir);
    const reader = await openDevnetStoreReader(dir);
    expect((await reader.head())!.mcSeqno).toBe(head.mcSeqno);
    expect(await reader.manifest(5)).toEqual(m);
    expect(await readFile(shardFile)).toEqual(victim.boc);
    expect(await reader.blockFile(victim.id)).toEqual(victim.boc);
    expect(await reader.manifest(head.mcSeqno + 1)).toBeNull();
    await expect(readFile(join(files, 'manifests', '0', `${head.mcSeqno + 1}.json`))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('says what is wrong with a damaged store or one from a newer layout', async () => {
    const head = store!.head()!;
    await store!.close();
    store = undefined;
    const db = new ClassicLevel<Buffer, Buffer>(join(dir, 'db'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
    const layout = (await db.get(Buffer.from('V')))!;
    await db.put(Buffer.from('V'), Buffer.from(JSON.stringify({ format: 'tongate-devnet-store', layout: 2 })));
    await db.close();
    const newer = await expectCode(openDevnetStore(dir), 'TG_DEVNET_STORE_CORRUPT');
    expect(newer.message).toMatch(/layout 2.*reads layout 1/);

    await db.open();
    await db.put(Buffer.from('V'), layout);
    const top = head.shardTops[0]!.id;
    const fileKey = Buffer.concat([Buffer.from('F'), Buffer.alloc(16)]);
    fileKey.writeInt32BE(top.workchain, 1);
    fileKey.writeBigUInt64BE(top.shard, 5);
    fileKey.writeUInt32BE(top.seqno, 13);
    const bytes = (await db.get(fileKey))!;
    await db.del(fileKey);
    await db.close();
    const broken = await expectCode(openDevnetStore(dir), 'TG_DEVNET_STORE_CORRUPT');
    expect(broken.message).toContain(`(0,${top.shard.toString(16).padStart(16, '0')},${top.seqno})`);

    await db.open();
    await db.put(fileKey, bytes);
    await db.close();
    store = await openDevnetStore(dir);
    expect(store.head()).toEqual(head);
  });
});
