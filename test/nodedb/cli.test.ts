// `--node-db` and `tongate devnet export-node-db` as operators run them (child processes through bin/tongate.js):
//  - help and usage errors (exit 2, one line);
//  - the export of a devnet: refused while the running devnet locks its states, blocks-only allowed then; an
//    export extended in two runs equals one made in one run (every pack byte and every RocksDB key and value);
//    extensions that would change the layout or leave a gap are refused; one stopped by a signal extends too;
//  - `walk tail --node-db` on that export answers /healthz with the source's head and coverage;
//  - `walk backfill --node-db` over a tree made of the three real node packs (vectors/node-db, no indexes, so
//    blocks are found by scanning the packs) stores every block and transaction they hold exactly once: the
//    expected sets come from the packs, parsed by the test support's own reader and @ton/core.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/index.ts';
import type { DevnetInfo, DevnetNode } from '../../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../../src/devnet/store/index.ts';
import { EXPORT_MARKER_FILE, exportDevnetNodeDb, readExportMarker } from '../../src/nodedb/export-devnet.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import { listBlockTransactions, listShards, loadBlockCell } from '../../src/ton/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { freePort, startDevnetChain } from '../helpers/devnet-chain.ts';
import { hasVectors, loadNodePackage, vectorPath } from '../helpers/vectors.ts';

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db export tests SKIPPED: the native RocksDB addon is missing (${addon.reason})`);

let scratch: string;
const children: Child[] = [];

function start(args: string[]): Child {
  const c = startTongate(args, {});
  children.push(c);
  return c;
}

/** Runs `tongate <args>` to its end: exit code, stdout, stderr lines. */
async function run(args: string[]): Promise<{ code: number | null; out: string; err: string[] }> {
  const c = start(args);
  const code = await c.exited;
  return { code, out: c.out.join('\n'), err: c.err.filter((l) => l.trim() !== '') };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tongate-nodedb-cli-'));
});

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('help and usage', () => {
  it('documents the node-db flags on walk and work, and the export command', async () => {
    for (const args of [
      ['walk', 'backfill', '--help'],
      ['walk', 'tail', '--help'],
      ['work', '--help'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(0);
      for (const flag of ['--node-db DIR', '--node-db-secondary DIR', '--node-db-blocks auto|index|packscan']) {
        expect(r.out, `${args.join(' ')} ${flag}`).toContain(flag);
      }
    }
    const ex = await run(['devnet', 'export-node-db', '--help']);
    expect(ex.code).toBe(0);
    for (const flag of [
      '--store DIR',
      '--out DIR',
      '--generation',
      '--split-depth N',
      '--no-states',
      '--from N',
      '--to N',
    ]) {
      expect(ex.out).toContain(flag);
    }
    expect((await run(['devnet', '--help'])).out).toContain('export-node-db');
  }, 120_000);

  it('refuses bad usage with exit 2 and one line', async () => {
    const full = join(scratch, 'not-empty');
    await mkdir(full, { recursive: true });
    await writeFile(join(full, 'something'), 'x');
    const cases: Array<[string[], RegExp]> = [
      [
        ['walk', 'backfill', '--from', '1', '--to', '2', '--node-db', scratch, '--lite-config', 'x.json'],
        /exactly one block source/,
      ],
      [
        ['walk', 'backfill', '--from', '1', '--to', '2', '--node-db', scratch, '--node-db-blocks', 'fast'],
        /--node-db-blocks must be one of auto, index, packscan/,
      ],
      [
        ['walk', 'tail', '--devnet-store', scratch, '--node-db-secondary', scratch],
        /--node-db-secondary needs --node-db/,
      ],
      [['work', '--devnet-store', scratch, '--node-db-blocks', 'index'], /--node-db-blocks needs --node-db/],
      [
        ['walk', 'backfill', '--from', '1', '--to', '2', '--node-db', join(scratch, 'nothing')],
        /--node-db .*nothing: not a TON node database: .* is not a folder/,
      ],
      [['walk', 'backfill', '--from', '1', '--to', '2', '--node-db', full], /has no archive\/ folder/],
      [['devnet', 'export-node-db', '--store', scratch], /--out DIR is required/],
      [['devnet', 'export-node-db', '--out', join(scratch, 'o'), '--generation', 'v2'], /--generation must be one of/],
      [
        ['devnet', 'export-node-db', '--out', join(scratch, 'o'), '--generation', 'sliced', '--split-depth', '2'],
        /shard-split generations only/,
      ],
      [
        ['devnet', 'export-node-db', '--out', join(scratch, 'o'), '--split-depth', '61'],
        /--split-depth must be an integer in 0..60/,
      ],
      [
        ['devnet', 'export-node-db', '--out', join(scratch, 'o'), '--from', '5', '--to', '3'],
        /--to \(3\) is below --from \(5\)/,
      ],
      [['devnet', 'export-node-db', '--store', scratch, '--out', full], /is not empty and holds no previous export/],
      [
        ['devnet', 'export-node-db', '--store', join(scratch, 'nothing'), '--out', join(scratch, 'o')],
        /no devnet store here/,
      ],
    ];
    for (const [args, re] of cases) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.err.join('\n')}`).toBe(2);
      expect(r.err, args.join(' ')).toHaveLength(1);
      expect(r.err[0], args.join(' ')).toMatch(re);
    }
  }, 300_000);
});

/** Every file of a tree by relative path: pack and other files by sha256, RocksDB folders by their keys and values. */
async function treeDigest(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (!e.isDirectory()) {
        out[relative(root, p)] = createHash('sha256')
          .update(await readFile(p))
          .digest('hex');
      } else if ((await readdir(p)).includes('CURRENT')) {
        // RocksDB file names and table layouts differ run to run; the contents must not.
        const kv = await openRocks(p, { mode: 'readonly', cellRefcountMerge: e.name === 'celldb' });
        try {
          const h = createHash('sha256');
          const all = await kv.range({});
          for (const [k, v] of all) h.update(`${k.toString('hex')}=${v.toString('hex')};`);
          out[`${relative(root, p)}/`] = `${all.length} ${h.digest('hex')}`;
        } finally {
          await kv.close();
        }
      } else {
        await visit(p);
      }
    }
  };
  await visit(root);
  return out;
}

describe.skipIf(!addon.ok)('tongate devnet export-node-db', () => {
  let node: DevnetNode | undefined;
  let info: DevnetInfo;
  let chainDir: string | undefined;
  let head: number;
  const tree = () => join(scratch, 'export-two-runs');

  beforeAll(async () => {
    ({ node, info, dir: chainDir } = await startDevnetChain({ seed: 'nodedb-cli', steps: 2 }));
  }, 600_000);

  afterAll(async () => {
    await node?.stop();
    if (chainDir) await rm(chainDir, { recursive: true, force: true });
  });

  it('exports blocks only while the devnet runs, and refuses states until it stops', async () => {
    const locked = await run(['devnet', 'export-node-db', '--store', info.devnetDir, '--out', join(scratch, 'locked')]);
    expect(locked.code, locked.err.join('\n')).toBe(2);
    expect(locked.err.at(-1)).toMatch(/the devnet is running .*--no-states/);
    const blocksOnly = join(scratch, 'blocks-only');
    const r = await run(['devnet', 'export-node-db', '--store', info.devnetDir, '--out', blocksOnly, '--no-states']);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toMatch(/Exported masterchain blocks 1\.\.\d+ \(\d+ blocks, \d+ transactions, states not written\)/);
    const names = await readdir(blocksOnly);
    expect(names).not.toContain('celldb');
    expect(names).toEqual(expect.arrayContaining(['archive', 'files', 'state', EXPORT_MARKER_FILE]));
    expect((await readExportMarker(blocksOnly))?.states).toBe(false);
    await node?.stop();
    node = undefined;
    // The devnet's head once stopped: what its store committed last.
    const reader = await openDevnetStoreReader(info.devnetDir);
    head = (await reader.head())?.mcSeqno ?? 0;
    await reader.close();
  }, 300_000);

  it('extends an export, giving the same tree as one run, and refuses changes and gaps', async () => {
    const store = info.devnetDir;
    expect(head).toBeGreaterThan(4);
    const half = Math.floor(head / 2);

    const first = await run([
      'devnet',
      'export-node-db',
      '--store',
      store,
      '--out',
      tree(),
      '--to',
      String(half),
      '--no-progress',
    ]);
    expect(first.code, first.err.join('\n')).toBe(0);
    expect(first.out).toMatch(new RegExp(`Exported masterchain blocks 1\\.\\.${half} .*states in celldb`));
    expect(first.err.some((l) => l.includes('"msg":"Updated export progress"'))).toBe(true);

    // Settings of the tree cannot change, and an extension starts right after its last block.
    const changed = await run([
      'devnet',
      'export-node-db',
      '--store',
      store,
      '--out',
      tree(),
      '--generation',
      'unsliced',
    ]);
    expect(changed.code).toBe(2);
    expect(changed.err.at(-1)).toMatch(/exported with generation shard-split/);
    const gap = await run(['devnet', 'export-node-db', '--store', store, '--out', tree(), '--from', String(half + 2)]);
    expect(gap.code).toBe(2);
    expect(gap.err.at(-1)).toMatch(new RegExp(`an extension starts at ${half + 1}, not ${half + 2}`));

    const second = await run(['devnet', 'export-node-db', '--store', store, '--out', tree(), '--no-progress']);
    expect(second.code, second.err.join('\n')).toBe(0);
    expect(second.out).toContain(`Extended masterchain blocks ${half + 1}..${head}`);
    expect(second.out).toContain(`which now holds 1..${head}`);
    const again = await run(['devnet', 'export-node-db', '--store', store, '--out', tree()]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`Nothing new to export`);

    const once = join(scratch, 'export-one-run');
    const one = await run(['devnet', 'export-node-db', '--store', store, '--out', once, '--no-progress']);
    expect(one.code, one.err.join('\n')).toBe(0);
    const a = await treeDigest(tree());
    const b = await treeDigest(once);
    expect(Object.keys(a).some((k) => k.endsWith('.pack'))).toBe(true);
    expect(Object.keys(a).some((k) => k.startsWith('celldb'))).toBe(true);
    expect(a).toEqual(b);
  }, 300_000);

  it('stops on a signal after the block being written, leaving a tree that extends to the same result', async () => {
    const out = join(scratch, 'export-stopped');
    const ac = new AbortController();
    const r = await exportDevnetNodeDb({
      store: info.devnetDir,
      out,
      onProgress: (p) => {
        if (p.blocks === 3) ac.abort();
      },
      signal: ac.signal,
    });
    expect(r).toMatchObject({ from: 1, to: 3, stopped: true, tree: { from: 1, to: 3 } });
    expect(await readExportMarker(out)).toMatchObject({ status: 'complete', from: 1, to: 3 });
    const rest = await exportDevnetNodeDb({ store: info.devnetDir, out });
    expect(rest).toMatchObject({ from: 4, to: head, stopped: false, extended: true });
    expect(await treeDigest(out)).toEqual(await treeDigest(join(scratch, 'export-one-run')));
  }, 300_000);

  it('walk tail --node-db answers /healthz with the head and coverage, beside another reader of the same tree', async () => {
    const port = await freePort();
    const data = join(scratch, 'tail-data');
    const secondary = join(scratch, 'secondary');
    const tail = start([
      'walk',
      'tail',
      '--from',
      '1',
      '--poll-ms',
      '100',
      '--node-db',
      tree(),
      '--node-db-secondary',
      secondary,
      '--data',
      data,
      '--no-decoders',
      '--metrics-port',
      String(port),
    ]);
    const opened = await tail.waitFor(/"msg":"Opened node database"/);
    expect(JSON.parse(opened).coverage.blocks).toEqual({ from: 1, to: head });
    await tail.waitFor(/"msg":"Serving metrics"/);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      ok: boolean;
      source: { name: string; head: number; coverage: { blocks: unknown; states: unknown; packages: number } };
    };
    expect(body.ok).toBe(true);
    expect(body.source.head).toBe(head);
    expect(body.source.coverage.blocks).toEqual({ from: 1, to: head });
    expect(body.source.coverage.states).toEqual({ from: 1, to: head });
    expect(body.source.coverage.packages).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    // A second process reads the same tree meanwhile, with the same secondary folder: each has its own subfolder.
    const own = `${hostname()}-${tail.proc.pid}`;
    expect(await readdir(secondary)).toContain(own);
    const backfill = await run([
      'walk',
      'backfill',
      '--from',
      '1',
      '--to',
      String(head),
      '--node-db',
      tree(),
      '--node-db-secondary',
      secondary,
      '--data',
      join(scratch, 'backfill-data'),
      '--no-decoders',
      '--no-progress',
    ]);
    expect(backfill.code, backfill.err.join('\n')).toBe(0);
    expect(backfill.out).toContain(`Indexed masterchain blocks 1..${head}: ${head} blocks`);
    await tail.waitFor(new RegExp(`"indexedThrough":${head},`));
    tail.proc.kill('SIGTERM');
    expect(await tail.exited, tail.err.join('\n')).toBe(0);
    // Both processes removed their own subfolders when they stopped.
    expect(await readdir(secondary)).toEqual([]);
  }, 300_000);
});

describe.skipIf(!hasVectors)('walk backfill --node-db over the real node packs (vectors/node-db)', () => {
  const PACKS = ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack'];

  it('stores every block and transaction of the packs exactly once', async () => {
    // The packs, parsed by the test support's own reader: each block file once (the packs repeat some names).
    const files = new Map<string, { wc: number; shard: bigint; seqno: number; root: Cell }>();
    for (const pack of PACKS) {
      for (const e of loadNodePackage(pack)) {
        const m = /^block_\((-?\d+),([0-9a-f]{16}),(\d+)\):([0-9A-F]{64}):([0-9A-F]{64})$/.exec(e.name);
        if (!m) continue;
        const root = Cell.fromBoc(e.data)[0]!;
        expect(root.hash().toString('hex').toUpperCase(), e.name).toBe(m[4]);
        files.set(e.name, { wc: Number(m[1]), shard: BigInt(`0x${m[2]}`), seqno: Number(m[3]), root });
      }
    }
    expect(files.size).toBe(674); // node_db_vectors.json: 191 + 293 + 194 block entries, 4 of them repeats
    const mc = [...files.values()].filter((f) => f.wc === -1);
    const mcTop = Math.max(...mc.map((f) => f.seqno));
    expect(mcTop).toBe(264);
    // The archive ends inside masterchain block 264's commit: one shard block it commits is not in the packs
    // (0:4000000000000000 seqno 244), so 263 is the last complete masterchain block. What 1..263 commit is every
    // shard block up to the tops masterchain block 263 lists.
    const last = mc.find((f) => f.seqno === mcTop - 1)!;
    const tops = listShards(loadBlockCell(last.root).extra.custom!.shardHashes);
    const committed = (f: { wc: number; shard: bigint; seqno: number }) =>
      f.wc === -1
        ? f.seqno < mcTop
        : // a shard split away before 263 (8000000000000000 here) is committed in full
          tops.every((t) => t.shard !== f.shard) || tops.some((t) => t.shard === f.shard && f.seqno <= t.descr.seqNo);
    const expected = new Map<string, number>();
    for (const f of files.values()) {
      if (!committed(f)) continue;
      const key = `${f.wc}:${BigInt.asIntN(64, f.shard)}:${f.seqno}:${f.root.hash().toString('base64')}`;
      expected.set(key, listBlockTransactions(loadBlockCell(f.root)).length);
    }
    expect(expected.size).toBeGreaterThan(files.size - 10);
    const txTotal = [...expected.values()].reduce((a, b) => a + b, 0);
    const to = mcTop - 1;

    // A node tree that has nothing but the packs: archive/packages/arch0000/archive.<slice>.pack.
    const root = join(scratch, 'real-packs');
    await mkdir(join(root, 'archive', 'packages', 'arch0000'), { recursive: true });
    for (const p of PACKS) {
      await copyFile(vectorPath('node-db', p), join(root, 'archive', 'packages', 'arch0000', p));
    }
    const data = join(scratch, 'real-packs-data');
    const r = await run([
      'walk',
      'backfill',
      '--from',
      '1',
      '--to',
      String(to),
      '--node-db',
      root,
      '--data',
      data,
      '--no-decoders',
      '--no-progress',
    ]);
    expect(r.code, r.err.slice(-20).join('\n')).toBe(0);
    expect(r.out).toContain(`Indexed masterchain blocks 1..${to}: ${to} blocks, ${txTotal} transactions.`);
    // Found without indexes, by scanning the packs; the coverage says where the archive ends.
    const opened = JSON.parse(r.err.find((l) => l.includes('"msg":"Opened node database"'))!);
    expect(opened.mode.blocks).toBe('packscan');
    expect(opened.coverage.blocks).toEqual({ from: 1, to });

    const db = await createDatabase({ kind: 'pglite', dir: join(data, 'pg') });
    try {
      const rows = await db.query<{ workchain: number; shard: string; seqno: number; root_hash: string; tx: string }>(
        `SELECT b.workchain, b.shard::text AS shard, b.seqno, b.root_hash,
                (SELECT count(*) FROM transactions t WHERE t.block_workchain = b.workchain AND t.block_shard = b.shard
                   AND t.block_seqno = b.seqno)::text AS tx
         FROM blocks b`,
      );
      const got = new Map<string, number>();
      for (const row of rows.rows) {
        const key = `${row.workchain}:${row.shard}:${row.seqno}:${row.root_hash}`;
        expect(got.has(key), `block ${key} stored twice`).toBe(false);
        got.set(key, Number(row.tx));
      }
      expect(got).toEqual(expected);
      const tx = await db.query<{ n: string; distinct: string }>(
        'SELECT count(*)::text AS n, count(DISTINCT (account, lt))::text AS distinct FROM transactions',
      );
      expect(Number(tx.rows[0]!.n)).toBe(txTotal);
      expect(tx.rows[0]!.distinct).toBe(tx.rows[0]!.n);
      expect(txTotal).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 600_000);
});
