// The node-db source against the liteserver protocol on the same chain. A devnet with activity is indexed over
// its liteserver (`tongate walk backfill --lite-config`), then stopped and exported as a node-format tree
// (`tongate devnet export-node-db`: packs, indexes, celldb), and the tree is indexed into a fresh database
// through `tongate walk backfill --node-db`: every table, core and contract decoders alike, must have the same
// checksum. Account states read from celldb are compared with what a separate liteserver client
// (ton-lite-client, not our lite pool) got from getAccountState at the same block, for every (block, account)
// a transaction touched.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Address, beginCell, Cell } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/index.ts';
import type { DevnetNode } from '../../src/devnet/node/index.ts';
import { createNodeDbSource } from '../../src/index/source/node-db-source.ts';
import { loadRocksAddon } from '../../src/nodedb/kv/rocks.ts';
import type { BlockIdExt } from '../../src/ton/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { startDevnetChain } from '../helpers/devnet-chain.ts';
import { CONTRACT_TABLES, checksums } from '../helpers/index-checksums.ts';

const SEED = 'nodedb-differential';
const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db differential test SKIPPED: the native RocksDB addon is missing (${addon.reason})`);

/** One transaction's block and account, with the liteserver's answer for the account's state after that block. */
interface StateCase {
  block: BlockIdExt;
  address: Buffer;
  /** The Account cell's hash as the liteserver gave it; the hash of account_none when it sent no state. */
  liteHash: string;
}

const ACCOUNT_NONE_HASH = beginCell().storeBit(false).endCell().hash().toString('hex');

let dir: string;
let node: DevnetNode | undefined;
let devnetDir: string;
let head: number;
const children: Child[] = [];
const cases: StateCase[] = [];
let diskOpened: { mode?: unknown; coverage?: { blocks?: unknown; states?: unknown } } = {};

/** `tongate <args>` to completion; fails the test with its stderr when it does not exit 0. */
async function tongate(args: string[]): Promise<Child> {
  const c = startTongate(args, {});
  children.push(c);
  const code = await c.exited;
  expect(code, `tongate ${args.join(' ')}:\n${c.err.slice(-30).join('\n')}`).toBe(0);
  return c;
}

const dbConfig = (name: string) => ({ kind: 'pglite' as const, dir: join(dir, name, 'pg') });

async function sumsOf(name: string) {
  const db = await createDatabase(dbConfig(name));
  try {
    return { core: await checksums(db), contracts: await checksums(db, CONTRACT_TABLES) };
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  if (!addon.ok) return;
  // A short chain: the core activity cycle (transfers, a jetton, an NFT collection, a bounce, a failed compute).
  const chain = await startDevnetChain({ seed: SEED, blockIntervalMs: 100 });
  dir = chain.dir;
  node = chain.node;
  devnetDir = chain.info.devnetDir;
  const engine = new LiteSingleEngine({
    host: `tcp://127.0.0.1:${chain.info.litePort}`,
    publicKey: chain.info.liteServerPublicKey,
  });
  engine.on('error', () => {});
  try {
    await new Promise((resolve) => engine.once('ready', resolve));
    const client = new LiteClient({ engine, cacheMap: 0 });
    head = (await client.getMasterchainInfo()).last.seqno;

    // Over the liteserver protocol, while the node runs.
    await tongate([
      'walk',
      'backfill',
      '--from',
      '1',
      '--to',
      String(head),
      '--lite-config',
      chain.info.globalConfigFile,
      '--data',
      join(dir, 'lite'),
      '--no-progress',
    ]);

    // Every (block, account) a transaction touched, and the liteserver's state of that account after that block.
    const db = await createDatabase(dbConfig('lite'));
    try {
      const r = await db.query<{ account: string; workchain: number; shard: string; seqno: number }>(
        `SELECT DISTINCT account::text AS account, block_workchain AS workchain, block_shard::text AS shard,
                block_seqno AS seqno FROM transactions`,
      );
      const ids = await db.query<{
        workchain: number;
        shard: string;
        seqno: number;
        root_hash: string;
        file_hash: string;
      }>('SELECT workchain, shard::text AS shard, seqno, root_hash, file_hash FROM blocks');
      const byKey = new Map(ids.rows.map((b) => [`${b.workchain}:${b.shard}:${b.seqno}`, b]));
      for (const row of r.rows) {
        const b = byKey.get(`${row.workchain}:${row.shard}:${row.seqno}`);
        if (!b) throw new Error(`no block row for transaction block ${row.workchain}:${row.shard}:${row.seqno}`);
        const block: BlockIdExt = {
          workchain: b.workchain,
          shard: BigInt.asUintN(64, BigInt(b.shard)),
          seqno: b.seqno,
          rootHash: Buffer.from(b.root_hash, 'base64'),
          fileHash: Buffer.from(b.file_hash, 'base64'),
        };
        const address = Address.parseRaw(row.account);
        const st = await engine.query(Functions.liteServer_getAccountState, {
          kind: 'liteServer.getAccountState',
          id: {
            kind: 'tonNode.blockIdExt',
            workchain: block.workchain,
            shard: BigInt.asIntN(64, block.shard).toString(),
            seqno: block.seqno,
            rootHash: block.rootHash,
            fileHash: block.fileHash,
          },
          account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
        });
        const liteHash =
          st.state.length > 0 ? Cell.fromBoc(Buffer.from(st.state))[0]!.hash().toString('hex') : ACCOUNT_NONE_HASH;
        cases.push({ block, address: address.hash, liteHash });
      }
    } finally {
      await db.close();
    }
  } finally {
    engine.close();
  }
  // The export reads states from the store's database, which the running node locks.
  await node.stop();
  node = undefined;
  await tongate([
    'devnet',
    'export-node-db',
    '--store',
    devnetDir,
    '--out',
    join(dir, 'node-db'),
    '--to',
    String(head),
    '--no-progress',
  ]);
  const disk = await tongate([
    'walk',
    'backfill',
    '--from',
    '1',
    '--to',
    String(head),
    '--node-db',
    join(dir, 'node-db'),
    '--data',
    join(dir, 'disk'),
    '--no-progress',
  ]);
  // Blocks through the archive indexes and states from celldb: the paths a real node is read by.
  diskOpened = JSON.parse(disk.err.find((l) => l.includes('"msg":"Opened node database"')) ?? '{}');
}, 900_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await node?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!addon.ok)('devnet: liteserver protocol vs its node-format export', () => {
  it('indexes to the same rows in every table', async () => {
    expect(diskOpened.mode).toEqual({ blocks: 'index', states: 'celldb' });
    expect(diskOpened.coverage?.blocks).toEqual({ from: 1, to: head });
    expect(diskOpened.coverage?.states).toEqual({ from: 1, to: head });
    const lite = await sumsOf('lite');
    const disk = await sumsOf('disk');
    expect(lite.core.index_checkpoints?.rows).toBe(head);
    expect(lite.core.transactions?.rows).toBeGreaterThan(20);
    expect(lite.core.account_states?.rows).toBeGreaterThan(0);
    expect(lite.contracts.jetton_wallets?.rows).toBeGreaterThan(0);
    expect(disk.core).toEqual(lite.core);
    expect(disk.contracts).toEqual(lite.contracts);
  });

  it('reads from celldb the account states the liteserver serves, at every block a transaction touched', async () => {
    expect(cases.length).toBeGreaterThan(20);
    const source = await createNodeDbSource({ root: join(dir, 'node-db') });
    try {
      for (const c of cases) {
        const [got] = await source.accountStates(c.block, [c.address]);
        const where = `${c.block.workchain}:${c.address.toString('hex')} after ${c.block.workchain}:${c.block.shard.toString(16)}:${c.block.seqno}`;
        expect(got, where).toBeDefined();
        expect(got!.complete, where).toBe(true);
        expect(got!.account.hash().toString('hex'), where).toBe(c.liteHash);
        expect(got!.hash.toString('hex'), where).toBe(c.liteHash);
      }
    } finally {
      await source.close();
    }
  });
});
