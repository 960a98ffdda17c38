// Mainnet blocks of shared/vectors/blocks (two masterchain blocks and ten basechain blocks of five shards,
// up to 510 transactions each) committed as two steps. Expected values are what the vector files state:
// header facts (start/end lt, gen_utime) and transaction lists from an independent walker, the bounce pair
// from the transaction vectors, and message hashes recomputed with @ton/core.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, Dictionary, loadTransaction, storeMessage } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVectorBlocks, type VectorBlock } from '../../../test/helpers/store-chain.ts';
import { loadVector } from '../../../test/helpers/vectors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import { openDevnetStore } from './index.ts';
import type { DevnetStore, StepBlockInput } from './types.ts';

const STEP_A = {
  mc: 'mainnet_tongo_block-5.json',
  shards: [
    'mainnet_0_8000000000000000_29836576.json',
    'mainnet_tongo_block-1.json',
    'mainnet_0_8000000000000000_34703989.json',
    'mainnet_tongo_block-4.json',
    'mainnet_0_c000000000000000_13516764.json',
  ],
};
const STEP_B = {
  mc: 'mainnet_-1_8000000000000000_24374597.json',
  shards: [
    'mainnet_tongo_block-2.json',
    'mainnet_tongo_block-3.json',
    'mainnet_tongo_block-7.json',
    'mainnet_tongo_block-6.json',
    'mainnet_0_8000000000000000_71398501.json',
  ],
};

function hex(id: BlockIdExt): string {
  return `${id.workchain}:${id.shard.toString(16)}:${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
}

function input(v: VectorBlock): StepBlockInput {
  return { boc: v.boc, state: v.newState, accounts: v.accounts };
}

function txCell(file: string): Cell {
  return Cell.fromBase64(loadVector<{ boc_base64: string }>('transactions', file).boc_base64);
}

describe('devnet store with mainnet blocks', () => {
  let dir: string;
  let store: DevnetStore;
  let blocks: VectorBlock[];
  const byFile = new Map<string, VectorBlock>();

  beforeAll(async () => {
    blocks = loadVectorBlocks([STEP_A.mc, ...STEP_A.shards, STEP_B.mc, ...STEP_B.shards]);
    for (const b of blocks) byFile.set(b.file, b);
    dir = await mkdtemp(join(tmpdir(), 'tongate-store-vectors-'));
    store = await openDevnetStore(dir, { sync: false });
    for (const step of [STEP_A, STEP_B]) {
      await store.commitStep({
        mcBlock: input(byFile.get(step.mc)!),
        shardBlocks: step.shards.map((f) => input(byFile.get(f)!)),
      });
    }
    // Read through a fresh instance: nothing comes from the writer's caches.
    await store.close();
    store = await openDevnetStore(dir, { sync: false });
  });

  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every block back: ids, bytes, headers, states', async () => {
    expect(store.head()!.mcSeqno).toBe(24374597);
    expect((await store.mcShardBlocks(17734191))!.map(hex)).toEqual(STEP_A.shards.map((f) => hex(byFile.get(f)!.id)));
    for (const b of blocks) {
      const rec = (await store.blockById(b.id))!;
      expect(rec, b.file).not.toBeNull();
      expect(rec.startLt).toBe(b.info.startLt);
      expect(rec.endLt).toBe(b.info.endLt);
      expect(rec.genUtime).toBe(b.info.genUtime);
      expect(rec.id.seqno).toBe(b.info.seqno);
      expect(await store.blockFile(b.id)).toEqual(b.boc);
      const state = (await store.stateRoot(b.id))!;
      expect(state.hash()).toEqual(b.newState.hash());
      expect(state.hash(0)).toEqual(b.block.stateUpdate.newHash);
    }
  });

  it('finds the block holding any transaction lt, and blocks by utime', async () => {
    for (const b of blocks) {
      const { workchain, shard } = b.id;
      for (const lt of [b.info.startLt, b.info.endLt, ...b.transactions.map((t) => t.lt)]) {
        expect(hex((await store.blockByLt(workchain, shard, lt))!.id), `${b.file} lt ${lt}`).toBe(hex(b.id));
      }
      expect(hex((await store.blockByUtime(workchain, shard, b.info.genUtime))!.id), b.file).toBe(hex(b.id));
      expect(hex((await store.blockIdBySeqno(workchain, shard, b.info.seqno))!)).toBe(hex(b.id));
    }
    // In the gap between two blocks of 0:a000… the next one is returned (the node's "first at or after").
    const b7 = byFile.get('mainnet_tongo_block-7.json')!;
    const b6 = byFile.get('mainnet_tongo_block-6.json')!;
    expect(b7.info.endLt + 1n < b6.info.startLt).toBe(true);
    expect(hex((await store.blockByLt(0, 0xa000000000000000n, b7.info.endLt + 1n))!.id)).toBe(hex(b6.id));
    // The shard argument is an account prefix, as in ltdb: 0:8000… also searches the shards holding that
    // point (0:c000… = prefix 1, 0:a000… = prefix 10), and the lowest seqno found wins. After 0:8000…:40484438
    // the next block there is 0:a000…:54302203, not 0:8000…:71398501.
    const b3 = byFile.get('mainnet_tongo_block-3.json')!;
    const last = byFile.get('mainnet_0_8000000000000000_71398501.json')!;
    expect(hex((await store.blockByLt(0, 0x8000000000000000n, b3.info.endLt + 1000n))!.id)).toBe(hex(b7.id));
    expect(hex((await store.blockByUtime(0, 0x8000000000000000n, b3.info.genUtime + 1))!.id)).toBe(hex(b7.id));
    expect(hex((await store.blockByLt(0, 0x8000000000000000n, b6.info.endLt + 1n))!.id)).toBe(hex(last.id));
    expect(await store.blockByLt(0, 0x8000000000000000n, last.info.endLt + 1n)).toBeNull();
  });

  it('indexes every transaction the vectors list, with account history newest first', async () => {
    const history = new Map<string, bigint[]>();
    let n = 0;
    for (const b of blocks) {
      for (const t of b.transactions) {
        const loc = (await store.transactionLocation(t.account, t.lt))!;
        expect(loc.hash).toEqual(t.hash);
        expect(hex(loc.block)).toBe(hex(b.id));
        const k = t.account.toRawString();
        history.set(k, [...(history.get(k) ?? []), t.lt]);
        n++;
      }
    }
    expect(n).toBeGreaterThan(1500);
    for (const [raw, lts] of history) {
      const want = [...lts].sort((a, b) => (a < b ? 1 : -1));
      const got = await store.accountTransactions(Address.parseRaw(raw), undefined, 1000);
      expect(got.map((t) => t.lt)).toEqual(want);
    }
  });

  it('finds the transactions that sent and received a message', async () => {
    // nft_transfer_failed_bounce a252965d bounces a message that bounced_receive c344e31c receives.
    const sender = txCell('nft_transfer_failed_bounce_a252965d.json');
    const receiver = txCell('bounced_receive_c344e31c.json');
    const rs = receiver.refs[0]!.beginParse();
    expect(rs.loadBit()).toBe(true);
    const bounceHash = rs.loadRef().hash();
    const ss = sender.refs[0]!.beginParse();
    if (ss.loadBit()) ss.loadRef();
    const outs = Dictionary.loadDirect(Dictionary.Keys.Uint(15), Dictionary.Values.Cell(), ss.loadMaybeRef());
    expect(outs.values().map((c) => c.hash().toString('hex'))).toContain(bounceHash.toString('hex'));
    const found = await store.messageTransactions(bounceHash);
    const seen = found.map((m) => `${m.direction}:${m.hash.toString('hex')}`).sort();
    expect(seen).toEqual([`in:${receiver.hash().toString('hex')}`, `out:${sender.hash().toString('hex')}`].sort());
    expect(await store.messageTransactions(Buffer.alloc(32))).toEqual([]);

    // External messages are also found by their normalized hash (TEP-467), built here with @ton/core.
    let externals = 0;
    for (const b of blocks) {
      for (const t of b.transactions) {
        const tx = (await store.transaction(t.account, t.lt))!;
        const m = loadTransaction(tx.cell.beginParse()).inMessage;
        if (m?.info.type !== 'external-in') continue;
        const norm = beginCell()
          .store(storeMessage({ info: { ...m.info, src: null, importFee: 0n }, body: m.body }, { forceRef: true }))
          .endCell()
          .hash();
        const hits = await store.messageTransactions(norm);
        const hit = hits.find((h) => h.lt === t.lt && h.account.equals(t.account));
        expect(hit, `${t.account.toRawString()}:${t.lt}`).toBeDefined();
        expect(hit!.direction).toBe('in');
        externals++;
      }
    }
    expect(externals).toBeGreaterThan(10);
  });

  it("keeps each account's newest version, whose last_trans_lt is its newest transaction", async () => {
    const newest = new Map<string, { lt: bigint; block: BlockIdExt }>();
    for (const step of [STEP_A, STEP_B]) {
      for (const b of [...step.shards, step.mc].map((f) => byFile.get(f)!)) {
        for (const a of b.accounts) {
          const lts = b.transactions.filter((t) => t.account.equals(a.address)).map((t) => t.lt);
          newest.set(a.address.toRawString(), { lt: lts.reduce((x, y) => (x > y ? x : y)), block: b.id });
        }
      }
    }
    expect(newest.size).toBeGreaterThan(100);
    for (const [raw, want] of newest) {
      const got = (await store.account(Address.parseRaw(raw)))!;
      expect(got.lastTransLt, raw).toBe(want.lt);
      expect(hex(got.block)).toBe(hex(want.block));
      const last = (await store.accountTransactions(got.address, undefined, 1))[0]!;
      expect(got.lastTransHash).toEqual(last.hash);
    }
  });
});
