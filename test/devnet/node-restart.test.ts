// Restarts: a stopped node continues from its store (same blocks, balances and history, then new blocks on top),
// an accepted external message survives a stop before any block took it, and a node process killed with SIGKILL
// during production restarts from its last committed step with a chain that still links up and proves.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, internal, toNano } from '@ton/core';
import { afterEach, describe, expect, it } from 'vitest';
import { walletTransferMessage } from '../../src/devnet/node/index.ts';
import {
  type BlockIdLike,
  connectLite,
  type Devnet,
  idKey,
  type Lite,
  mcBlockId,
  signingWallet,
  stackInt,
  startDevnet,
  tempDir,
  tlcId,
  transactionChain,
  verifiedAccountState,
  walkChain,
} from '../helpers/devnet-node.ts';
import { until } from '../helpers/until.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function transfer(d: { lite: Lite; wallets: Devnet['wallets'] }, version: string, to: Address, value: bigint) {
  const w = await signingWallet(d.wallets.find((x) => x.version === version)!);
  const head = (await d.lite.client.getMasterchainInfo()).last;
  const seqno = stackInt((await d.lite.client.runMethod(w.address, 'seqno', Buffer.alloc(0), head)).result);
  const msg = walletTransferMessage(w, {
    seqno: Number(seqno),
    messages: [internal({ to, value, bounce: false })],
    validUntil: Math.floor(Date.now() / 1000) + 600,
    deploy: false,
  });
  expect((await d.lite.client.sendMessage(msg.toBoc())).status).toBe(1);
}

async function fundsAt(lite: Lite, to: Address): Promise<bigint> {
  const st = await until(`funds at ${to.toRawString()}`, async () => {
    const s = await verifiedAccountState(lite, to, (await lite.client.getMasterchainInfo()).last as BlockIdLike);
    return s.exists ? s : null;
  });
  return st.balance;
}

async function snapshot(lite: Lite, wallets: Devnet['wallets'], extra: Address[], at: BlockIdLike) {
  const out: Record<string, { balance: bigint; txs: string[] }> = {};
  for (const a of [...wallets.map((w) => Address.parse(w.raw)), ...extra]) {
    const st = await verifiedAccountState(lite, a, at);
    const txs = st.lastTx ? await transactionChain(lite, a, st.lastTx) : [];
    out[a.toRawString()] = { balance: st.balance, txs: txs.map((t) => t.cell.hash().toString('hex')) };
  }
  return out;
}

function newAddress(): Address {
  return new Address(0, randomBytes(32));
}

describe('devnet node restarts', () => {
  it('a stopped node restarts with the same seqno, balances and history, then keeps producing', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await startDevnet({ dir, seed: 'node-restart', blockIntervalMs: 50 });
    cleanups.push(() => a.close({ keepDir: true }));
    await a.node.waitMasterchainSeqno(6);
    const x = newAddress();
    await transfer(a, 'v3r2', x, toNano('3'));
    expect(await fundsAt(a.lite, x)).toBe(toNano('3'));
    const seen = (await a.lite.client.getMasterchainInfo()).last as BlockIdLike;
    const before = await snapshot(a.lite, a.wallets, [x], seen);
    await a.close({ keepDir: true });
    const stoppedAt = a.info.head.seqno;

    const b = await startDevnet({ dir, blockIntervalMs: 50 });
    cleanups.push(() => b.close({ keepDir: true }));
    expect(b.info.head.seqno).toBeGreaterThanOrEqual(seen.seqno);
    expect(b.info.head.seqno).toBeGreaterThanOrEqual(stoppedAt);
    const again = await mcBlockId(b.lite, seen.seqno);
    expect(idKey(again)).toBe(idKey(seen));
    expect(await snapshot(b.lite, b.wallets, [x], seen)).toEqual(before);
    await b.node.waitMasterchainSeqno(b.info.head.seqno + 3);
    const head = (await b.lite.client.getMasterchainInfo()).last;
    await walkChain(b.lite, head.seqno);
    // The wallets and the recipient are where they were: nothing happened to them since.
    expect(await snapshot(b.lite, b.wallets, [x], head as BlockIdLike)).toEqual(before);
  });

  it('an accepted external message survives a stop before any block took it', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await startDevnet({ dir, seed: 'node-queue', blockIntervalMs: 50 });
    cleanups.push(() => a.close({ keepDir: true }));
    await a.node.waitMasterchainSeqno(6);
    await a.close({ keepDir: true });

    // A long interval: one step at start, then none for a minute.
    const b = await startDevnet({ dir, blockIntervalMs: 60_000 });
    cleanups.push(() => b.close({ keepDir: true }));
    const x = newAddress();
    await transfer(b, 'v4r2', x, toNano('1.25'));
    const head = (await b.lite.client.getMasterchainInfo()).last as BlockIdLike;
    expect((await verifiedAccountState(b.lite, x, head)).exists).toBe(false);
    await b.close({ keepDir: true });

    const c = await startDevnet({ dir, blockIntervalMs: 50 });
    cleanups.push(() => c.close({ keepDir: true }));
    expect(await fundsAt(c.lite, x)).toBe(toNano('1.25'));
  });

  it('kill -9 during production: the restart continues from the last committed step, and the chain proves', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'test', 'devnet', 'node-child.ts'), dir, '40'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let committed = 0;
    let ready: { litePort: number; publicKey: string } | null = null;
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    let buf = '';
    child.stdout?.on('data', (b: Buffer) => {
      buf += b.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = JSON.parse(buf.slice(0, i)) as { committed?: number; ready?: typeof ready };
        buf = buf.slice(i + 1);
        if (line.ready) ready = line.ready;
        if (line.committed !== undefined) committed = Math.max(committed, line.committed);
      }
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    await until(
      'the child node',
      async () => (ready && committed >= 8) || (child.exitCode !== null && 'exited'),
      90_000,
    );
    expect(stderr).toBe('');
    const r = ready as unknown as { litePort: number; publicKey: string };
    const lite = await connectLite(r.litePort, Buffer.from(r.publicKey, 'hex'));
    const wallets = JSON.parse(await readFile(join(dir, 'devnet', 'wallets.json'), 'utf8')) as Devnet['wallets'];
    const y = newAddress();
    await transfer({ lite, wallets }, 'v5r1', y, toNano('0.75'));
    const seen = (await lite.client.getMasterchainInfo()).last as BlockIdLike;
    const target = committed + 3;
    await until('more blocks', async () => committed >= target, 30_000);
    child.kill('SIGKILL');
    await exited;
    lite.close();
    const lastCommitted = committed;

    const b = await startDevnet({ dir, blockIntervalMs: 50 });
    cleanups.push(() => b.close({ keepDir: true }));
    expect(b.info.head.seqno).toBeGreaterThanOrEqual(lastCommitted);
    expect(idKey(await mcBlockId(b.lite, seen.seqno))).toBe(idKey(seen));
    // The transfer was accepted before the kill: it is in a block or still queued, and lands either way.
    expect(await fundsAt(b.lite, y)).toBe(toNano('0.75'));
    await b.node.waitMasterchainSeqno(b.info.head.seqno + 3);
    const head = (await b.lite.client.getMasterchainInfo()).last as BlockIdLike;
    const walk = await walkChain(b.lite, head.seqno);
    expect(walk.mcIds).toHaveLength(head.seqno);
    for (const w of b.wallets)
      expect((await verifiedAccountState(b.lite, Address.parse(w.raw), head)).exists).toBe(true);
    const header = await b.lite.client.getBlockHeader(tlcId(head));
    expect(header.id.seqno).toBe(head.seqno);
  }, 180_000);
});
