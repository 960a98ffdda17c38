// Crash safety: a child process commits the node-db chain step by step and is killed with SIGKILL at random
// moments. After each kill, before the store is opened, no file under a final name is partial and the file
// layer is at most one step ahead of head.json; then the store opens, its head is complete (every block,
// file, state and index it names reads back and hashes check against the packs), and the file layer agrees.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeDbChain, type NodeDbChain } from '../../../test/helpers/store-chain.ts';
import { spawnWriter, type WriterProcess } from '../../../test/helpers/store-writer.ts';
import { type BlockIdExt, listBlockTransactions, loadBlockCell, parseBoc } from '../../ton/index.ts';
import { openDevnetStore } from './index.ts';

const KILLS = 10;

function hex(id: BlockIdExt): string {
  return `${id.workchain}:${id.shard.toString(16)}:${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
}

/** mulberry32: reproducible kill delays. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  await walk(root);
  return out;
}

/** The raw file layer after a kill, checked with plain fs + JSON.parse + sha256 (not the store's code). */
async function inspectFiles(dir: string): Promise<{ fileHead: number | null; maxManifest: number }> {
  const root = join(dir, 'files');
  let fileHead: number | null = null;
  let maxManifest = -1;
  for (const path of await listFiles(root)) {
    const rel = relative(root, path);
    if (rel.includes('.tmp-')) continue; // temp files may be left by a kill; readers never look at them
    const bytes = await readFile(path);
    if (rel.endsWith('.boc')) {
      const fh = /_([0-9a-f]{64})\.boc$/.exec(rel)?.[1];
      expect(fh, rel).toBeDefined();
      expect(createHash('sha256').update(bytes).digest('hex'), `${rel} is whole`).toBe(fh);
    } else if (rel.startsWith('manifests/')) {
      const m = JSON.parse(bytes.toString('utf8'));
      expect(m.format).toBe('tongate-devnet-manifest');
      expect(`${m.mcSeqno}.json`).toBe(rel.split('/').at(-1));
      maxManifest = Math.max(maxManifest, m.mcSeqno);
    } else if (rel === 'head.json') {
      const h = JSON.parse(bytes.toString('utf8'));
      expect(h.format).toBe('tongate-devnet-head');
      fileHead = h.mcSeqno;
    } else {
      expect(rel).toBe('meta.json');
      expect(JSON.parse(bytes.toString('utf8')).format).toBe('tongate-devnet-meta');
    }
  }
  return { fileHead, maxManifest };
}

describe('devnet store under SIGKILL', () => {
  let chain: NodeDbChain;
  let work: string;
  let dir: string;
  let plan: string;
  let writer: WriterProcess | undefined;

  beforeAll(async () => {
    chain = loadNodeDbChain();
    work = await mkdtemp(join(tmpdir(), 'tongate-store-crash-'));
    dir = join(work, 'devnet');
    plan = join(work, 'plan.json');
    await writeFile(plan, JSON.stringify(chain.plan));
  });

  afterAll(async () => {
    await writer?.kill();
    await rm(work, { recursive: true, force: true });
  });

  /** Opens the store after a kill and checks everything its head names; returns the head's mc seqno. */
  async function verifyAfterKill(): Promise<{ head: number; fileHead: number | null; maxManifest: number }> {
    const byMcSeqno = new Map(chain.steps.map((s) => [s.mc.id.seqno, s]));
    const packBytes = new Map(chain.steps.flatMap((s) => [s.mc, ...s.shards]).map((b) => [hex(b.id), b.boc]));
    const { fileHead, maxManifest } = await inspectFiles(dir);
    const store = await openDevnetStore(dir);
    try {
      const head = store.head()!;
      expect(head).not.toBeNull();
      // head.json is written after the database commit, manifests before it.
      expect(fileHead === null || fileHead === head.mcSeqno || fileHead === head.mcSeqno - 1).toBe(true);
      expect(maxManifest === head.mcSeqno || maxManifest === head.mcSeqno + 1).toBe(true);

      // Every committed step: its manifest names the blocks the chain groups under that mc block.
      for (let s = 1; s <= head.mcSeqno; s++) {
        const step = byMcSeqno.get(s)!;
        const m = (await store.manifest(s))!;
        expect(hex(m.mcBlock.id)).toBe(hex(step.mc.id));
        expect(m.shardBlocks.map((e) => hex(e.id))).toEqual(step.shards.map((b) => hex(b.id)));
      }
      // The head's blocks: files equal the pack bytes, states hash to the blocks' state_update new hashes.
      for (const e of [head.mcBlock, ...head.shardTops]) {
        const file = (await store.blockFile(e.id))!;
        expect(file).toEqual(packBytes.get(hex(e.id)));
        const block = loadBlockCell(parseBoc(file)[0]!);
        const state = (await store.stateRoot(e.id))!;
        expect(state.hash(0)).toEqual(block.stateUpdate.newHash);
        for (const t of listBlockTransactions(block)) {
          const loc = (await store.transactionLocation(new Address(e.id.workchain, t.account), t.lt))!;
          expect(loc.hash).toEqual(t.hash);
          expect(hex(loc.block)).toBe(hex(e.id));
        }
      }
      // Opening brought the file layer in line: head.json = the database head, nothing above it.
      const after = await inspectFiles(dir);
      expect(after.fileHead).toBe(head.mcSeqno);
      expect(after.maxManifest).toBe(head.mcSeqno);
      const next = byMcSeqno.get(head.mcSeqno + 1);
      if (next) {
        for (const b of [next.mc, ...next.shards]) {
          const name = `${b.id.seqno}_${b.id.fileHash.toString('hex')}.boc`;
          expect(
            (await listFiles(join(dir, 'files'))).some((f) => f.endsWith(name)),
            name,
          ).toBe(false);
        }
      }
      return { head: head.mcSeqno, fileHead, maxManifest };
    } finally {
      await store.close();
    }
  }

  it(`keeps a complete head through ${KILLS} kills at random points`, { timeout: 300_000 }, async () => {
    const random = prng(0x5eed);
    let lastHead = -1;
    const heads: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      writer = spawnWriter(dir, plan, ['--prefetch', '24']);
      // Every other run is killed only after its first commit (so the chain surely advances); the others
      // may die anywhere from the open (files being repaired) on. Steps take tens of ms, mostly fsyncs.
      await writer.waitFor((l) => l.startsWith(k % 2 === 0 ? 'ready' : 'committed'));
      await new Promise((r) => setTimeout(r, Math.floor(random() * 200)));
      await writer.kill();
      writer = undefined;
      const { head } = await verifyAfterKill();
      expect(head).toBeGreaterThanOrEqual(lastHead);
      lastHead = head;
      heads.push(head);
    }
    // Half of the runs were killed after committing: the head moved at least that often.
    expect(new Set(heads).size).toBeGreaterThanOrEqual(KILLS / 2);
  });

  it('recovers from a kill between the files and the database batch', { timeout: 120_000 }, async () => {
    writer = spawnWriter(dir, plan, ['--die-at', 'files-written', '--die-after', '3']);
    expect(await writer.exited).toBeNull(); // killed by its own SIGKILL
    const lines = writer.lines.filter((l) => l.startsWith('committed'));
    writer = undefined;
    expect(lines).toHaveLength(2);
    const { head, fileHead, maxManifest } = await verifyAfterKill();
    // The third step's manifest was on disk, its batch was not: the head is the second step.
    expect(head).toBe(Number(lines[1]!.split(' ')[1]));
    expect(fileHead).toBe(head);
    expect(maxManifest).toBe(head + 1);
  });

  it('recovers from a kill between the database batch and head.json', { timeout: 120_000 }, async () => {
    writer = spawnWriter(dir, plan, ['--die-at', 'batch-written', '--die-after', '2']);
    expect(await writer.exited).toBeNull();
    const lines = writer.lines.filter((l) => l.startsWith('committed'));
    writer = undefined;
    expect(lines).toHaveLength(1);
    const { head, fileHead, maxManifest } = await verifyAfterKill();
    // The second step is in the database; head.json still named the first until the store reopened.
    expect(head).toBe(Number(lines[0]!.split(' ')[1]) + 1);
    expect(fileHead).toBe(head - 1);
    expect(maxManifest).toBe(head);
  });
});
