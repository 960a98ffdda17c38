// Golden test of the cell layer on the indexer's hot path (src/ton/cell: the lazily hashed cell table, its
// @ton/core-compatible views, lazy cells, the fast toBoc and BitReader) and of the decode thread pool: what is
// indexed must not change. The same blocks go through the same pipeline three times, each run into its own fresh
// database, and every table is then compared row by row (ordered by primary key) and column by column:
// - OLD: every BoC of the run (blocks; on the devnet also the liteserver's account states and libraries) parsed by
//   @ton/core's own Cell.fromBoc (plain @ton/core cells, eagerly hashed), with @ton/crypto's pure-JS SHA-256 put
//   back behind @ton/core for the whole run, as @ton/core ships;
// - NEW: the sources as they are (cell tables, native SHA-256), decoded on this thread;
// - POOL: the new path decoded by a pool of two decode threads, rows coming back as COPY text.
// Inputs: the real mainnet blocks of vectors/blocks (file source, states from the blocks' state updates; skipped
// without the vectors), and a devnet chain that ran the activity cycle once, core traffic and every contract family
// (devnet store source, complete account states from the node's liteserver, so the contract decoders fill their
// tables).
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { librariesFrom } from '../../src/app.ts';
import { EncodedCopy, migrate } from '../../src/db/index.ts';
import { ACTIVITY_CYCLE, devnetDnsRoots } from '../../src/devnet/activity/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { createContractsEnv } from '../../src/index/contracts/index.ts';
import { createDecodePool } from '../../src/index/decode-pool/index.ts';
import {
  type BlockSource,
  CORE_TABLES,
  createDevnetStoreSource,
  createFileSource,
  createLiteSource,
  indexMcBlock,
  type UnitDecoder,
} from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig, toBlockIdExt } from '../../src/lite/index.ts';
import {
  ACCOUNT_NONE,
  type AccountStateAfter,
  type BlockIdExt,
  blockId,
  blockKey,
  checkedBlock,
  type FetchedBlock,
  fastPaddedBitsInstalled,
  installFastPaddedBits,
  installNativeSha256,
  loadBlockCell,
  nativeSha256Installed,
  statesFromNewState,
  stateUpdateNewSide,
  uninstallFastPaddedBits,
  uninstallNativeSha256,
} from '../../src/ton/index.ts';
import { type Kind, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';
import { CONTRACT_TABLES } from '../helpers/index-checksums.ts';
import { hasVectors, loadVectors } from '../helpers/vectors.ts';

/** One back end for every run: the comparison is between parse paths, not between databases. */
const KIND: Kind = 'postgres';

interface BlockVector {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
  boc_base64: string;
}

const dbs: TestDatabase[] = [];

async function freshDb(): Promise<TestDatabase> {
  const t = await setupDatabase(KIND);
  dbs.push(t);
  await migrate(t.db);
  return t;
}

afterAll(async () => {
  for (const t of dbs) await t.cleanup();
});

/** True for a cell @ton/core's own constructor made (not a view of a cell table, not a lazy cell). */
const isCoreCell = (c: Cell): boolean => Object.getPrototypeOf(c) === Cell.prototype;

/**
 * The OLD parse over a source: blocks are taken from `inner` as bytes only (its `root`, which would parse them
 * with the new layer, is never read), parsed by @ton/core's Cell.fromBoc and checked against the id as the old
 * checkedBlock did (file hash; root hash of the parse). Account states are `states` when given, else read from each
 * block's own state update (as the file and devnet store sources do) in the cells of that same old parse.
 */
function oldParseSource(inner: BlockSource, states?: BlockSource['accountStates']): BlockSource & { roots: number } {
  const parsed = new Map<string, FetchedBlock>();
  let roots = 0;
  const parse = (f: FetchedBlock): FetchedBlock => {
    const k = `${blockKey(f.id)}:${f.id.rootHash.toString('hex')}`;
    const have = parsed.get(k);
    if (have) return have;
    const root = Cell.fromBoc(f.bytes)[0]!;
    if (!isCoreCell(root)) throw new Error(`old parse of ${k}: not a plain @ton/core cell`);
    const fetched = checkedBlock(f.id, f.bytes, root);
    // The id the inner source derived (with the new layer) agrees with one derived from the old parse alone.
    const fileHash = Buffer.from(f.id.fileHash);
    const again = blockId(loadBlockCell(root), root.hash(), fileHash) as BlockIdExt;
    if (blockKey(again) !== blockKey(f.id)) throw new Error(`old parse of ${k}: block id ${blockKey(again)}`);
    parsed.set(k, fetched);
    roots++;
    return fetched;
  };
  const source: BlockSource & { roots: number } = {
    name: inner.name,
    get roots() {
      return roots;
    },
    head: () => inner.head(),
    async mcBlock(seqno) {
      const f = await inner.mcBlock(seqno);
      return f ? parse(f) : null;
    },
    async block(id) {
      return parse(await inner.block(id));
    },
    async accountStates(id, addresses) {
      if (states) return states(id, addresses);
      const f = await source.block(id);
      return statesFromNewState(stateUpdateNewSide(f.root), id.workchain, addresses);
    },
    async close() {},
  };
  if (inner.declaredUnit) source.declaredUnit = (n) => inner.declaredUnit!(n);
  return source;
}

/** @ton/crypto's SHA-256 module: the seam src/ton/cell/native-sha256.ts swaps, which @ton/core reads on each call. */
const sha256Module = createRequire(import.meta.url)('@ton/crypto/dist/primitives/sha256.js') as {
  sha256_sync: (source: Buffer | string) => Buffer;
};

/** A decode pool as the decoder, counting the units whose core rows came back from a thread as COPY text. */
function countingDecoder(pool: UnitDecoder): UnitDecoder & { pooled: number } {
  const d = {
    pooled: 0,
    async decode(n: number, opts: { contracts: boolean }) {
      const unit = await pool.decode(n, opts);
      if (unit.rows.transactions instanceof EncodedCopy && unit.rows.messages instanceof EncodedCopy) d.pooled++;
      return unit;
    },
  };
  return d;
}

/**
 * Runs `fn` with @ton/core as it ships (@ton/crypto's pure-JS SHA-256 and @ton/core's bit-by-bit padding behind
 * its cells), then puts the fast ones back.
 */
async function withPureJsSha256<T>(fn: () => Promise<T>): Promise<T> {
  uninstallNativeSha256();
  uninstallFastPaddedBits();
  try {
    expect(nativeSha256Installed()).toBe(false);
    expect(fastPaddedBitsInstalled()).toBe(false);
    // The swap reaches @ton/core here: a cell it builds is hashed by the function now in the seam.
    const pure = sha256Module.sha256_sync;
    let calls = 0;
    sha256Module.sha256_sync = (source) => {
      calls++;
      return pure(source);
    };
    beginCell().storeUint(calls, 32).endCell();
    sha256Module.sha256_sync = pure;
    expect(calls).toBeGreaterThan(0);
    return await fn();
  } finally {
    installNativeSha256();
    installFastPaddedBits();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing two databases: every table of the public schema (partitions through their parents), all columns but
// the timestamps the database stamps itself (now() defaults: index_checkpoints.indexed_at, trace_assembly.updated_at).

interface TableShape {
  table: string;
  key: string[];
  columns: string[];
}

async function tableShapes(t: TestDatabase): Promise<TableShape[]> {
  const tables = await t.db.query<{ table: string }>(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  const out: TableShape[] = [];
  for (const { table } of tables.rows) {
    const cols = await t.db.query<{ column_name: string; data_type: string; column_default: string | null }>(
      `SELECT column_name, data_type, column_default FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    const stamped = (c: { data_type: string; column_default: string | null }) =>
      c.data_type.startsWith('timestamp') && (c.column_default ?? '').includes('now()');
    const key = await t.db.query<{ attname: string }>(
      `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
       WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      [table],
    );
    const columns = cols.rows.filter((c) => !stamped(c)).map((c) => c.column_name);
    out.push({ table, key: key.rows.length > 0 ? key.rows.map((r) => r.attname) : columns, columns });
  }
  return out;
}

type TextRow = Record<string, string | null>;

/** Every row of a table, each column as PostgreSQL's text form, ordered by the primary key. */
async function rowsOf(t: TestDatabase, s: TableShape): Promise<TextRow[]> {
  const list = s.columns.map((c) => `t."${c}"::text AS "${c}"`).join(', ');
  const order = s.key.map((c) => `t."${c}"`).join(', ');
  return (await t.db.query<TextRow>(`SELECT ${list} FROM ${s.table} t ORDER BY ${order}`)).rows;
}

const show = (v: string | null | undefined) =>
  v === undefined ? '(no row)' : v === null ? 'NULL' : v.length > 240 ? `${v.slice(0, 240)}… (${v.length} chars)` : v;

/** Every difference between two databases' rows: table, row (by key), column, both values; at most 20 per table. */
async function differences(
  a: { name: string; t: TestDatabase },
  b: { name: string; t: TestDatabase },
): Promise<{ counts: Record<string, number>; diffs: string[] }> {
  const shapes = await tableShapes(a.t);
  expect(await tableShapes(b.t)).toEqual(shapes);
  const counts: Record<string, number> = {};
  const diffs: string[] = [];
  for (const s of shapes) {
    const [ra, rb] = [await rowsOf(a.t, s), await rowsOf(b.t, s)];
    counts[s.table] = ra.length;
    const keyOf = (r: TextRow) => s.key.map((k) => `${k}=${r[k]}`).join(' ');
    const mb = new Map(rb.map((r) => [keyOf(r), r]));
    const here: string[] = [];
    for (const r of ra) {
      const k = keyOf(r);
      const other = mb.get(k);
      mb.delete(k);
      if (!other) {
        here.push(`${s.table} [${k}]: row only in ${a.name}`);
        continue;
      }
      for (const c of s.columns) {
        if (r[c] !== other[c]) {
          here.push(`${s.table} [${k}] ${c}: ${a.name}=${show(r[c])} ${b.name}=${show(other[c])}`);
        }
      }
    }
    for (const k of mb.keys()) here.push(`${s.table} [${k}]: row only in ${b.name}`);
    if (ra.length !== rb.length) here.unshift(`${s.table}: ${ra.length} rows in ${a.name}, ${rb.length} in ${b.name}`);
    diffs.push(...here.slice(0, 20));
    if (here.length > 20) diffs.push(`${s.table}: … and ${here.length - 20} more differences`);
  }
  return { counts, diffs };
}

/**
 * The contract decoders' tables the devnet's activity cycle fills (test/index/contracts.test.ts checks the same); its
 * GetGems sale is a fixed-price one, so no auction.
 */
const FILLED_CONTRACT_TABLES = CONTRACT_TABLES.map((t) => t.table).filter(
  (t) => t !== 'vesting_whitelist' && t !== 'getgems_nft_auctions',
);

// ---------------------------------------------------------------------------------------------------------------

describe.skipIf(!hasVectors)('vector blocks: old parse, new parse and the decode pool index the same rows', () => {
  const vectors = loadVectors<BlockVector>('blocks');
  const bocs = () => vectors.map((v) => Buffer.from(v.data.boc_base64, 'base64'));

  /**
   * Every unit of the file source, with the contract decoders. (Traces and actions are derived from the stored rows
   * alone, so identical rows give identical ones; the devnet part below runs them anyway.)
   */
  async function indexVectors(source: BlockSource, units: number[], decoder?: UnitDecoder): Promise<TestDatabase> {
    const t = await freshDb();
    const contracts = await createContractsEnv({ db: t.db });
    try {
      for (const n of units) {
        const r = await indexMcBlock(n, { source, db: t.db, contracts, ...(decoder ? { decoder } : {}) });
        expect(r.skipped).toBe(false);
      }
    } finally {
      await contracts.close();
    }
    return t;
  }

  it('every table, row by row and column by column', async () => {
    expect(vectors.length).toBeGreaterThan(0);
    const fresh = await createFileSource({ blocks: bocs() });
    const units = fresh.unitSeqnos();
    // The new path's roots are views of cell tables, not @ton/core's own cells.
    for (const n of units) {
      for (const id of (await fresh.declaredUnit!(n))!.blocks) {
        expect(isCoreCell((await fresh.block(id)).root)).toBe(false);
      }
    }
    // NEW and POOL side by side (the file source reads states from the blocks: the threads read them themselves).
    const poolSource = await createFileSource({ blocks: bocs() });
    const pool = createDecodePool({ source: poolSource, threads: 2 });
    const decoder = countingDecoder(pool);
    let newDb: TestDatabase;
    let poolDb: TestDatabase;
    try {
      [newDb, poolDb] = await Promise.all([indexVectors(fresh, units), indexVectors(poolSource, units, decoder)]);
    } finally {
      await pool.close();
    }
    expect(decoder.pooled).toBe(units.length);

    // OLD: the file source only for its units and ids (each id cross-checked against the old parse).
    const old = oldParseSource(await createFileSource({ blocks: bocs() }));
    const oldDb = await withPureJsSha256(() => indexVectors(old, units));
    expect(old.roots).toBe(vectors.length);

    const vsNew = await differences({ name: 'OLD', t: oldDb }, { name: 'NEW', t: newDb });
    expect(vsNew.diffs).toEqual([]);
    const vsPool = await differences({ name: 'NEW', t: newDb }, { name: 'POOL', t: poolDb });
    expect(vsPool.diffs).toEqual([]);
    for (const table of CORE_TABLES) expect(vsNew.counts[table], table).toBeGreaterThan(0);
  }, 120_000);
});

describe('a devnet history: old parse, new parse and the decode pool index the same rows', () => {
  let chain: DevnetChain;
  let lite: LitePool;
  let head: number;

  beforeAll(async () => {
    chain = await startDevnetChain({
      seed: 'golden-cell-layer',
      steps: ACTIVITY_CYCLE.length,
      cycle: ACTIVITY_CYCLE,
      blockIntervalMs: 0,
    });
    lite = createLitePool({ servers: (await loadGlobalConfig(chain.info.globalConfigFile)).liteservers });
    await lite.ready({ timeoutMs: 10_000 });
    head = (await lite.getMasterchainInfo()).last.seqno;
  }, 120_000);

  afterAll(async () => {
    await lite?.close();
    await chain?.node.stop();
    if (chain) await rm(chain.dir, { recursive: true, force: true });
  });

  /**
   * The devnet store source with account states from the node's liteserver (complete states: code and data, which
   * the contract decoders need).
   */
  const storeSource = () => createDevnetStoreSource(chain.info.devnetDir, { fallback: createLiteSource(lite) });

  /**
   * The OLD parse of what the liteserver answers: account states and libraries read by @ton/core's Cell.fromBoc,
   * one address after another (the lite source also checks each state's proof: that decides no row, and is left out).
   */
  async function oldAccountStates(id: BlockIdExt, addresses: readonly Buffer[]): Promise<AccountStateAfter[]> {
    const out: AccountStateAfter[] = [];
    for (const address of addresses) {
      const r = await lite.query(Functions.liteServer_getAccountState, {
        kind: 'liteServer.getAccountState',
        id: toBlockIdExt(id),
        account: { kind: 'liteServer.accountId', workchain: id.workchain, id: address },
      });
      const account = r.state.length > 0 ? Cell.fromBoc(Buffer.from(r.state))[0]! : ACCOUNT_NONE;
      if (!isCoreCell(account)) throw new Error('old parse of an account state: not a plain @ton/core cell');
      out.push({ address, workchain: id.workchain, account, hash: account.hash(), complete: true });
    }
    return out;
  }
  async function oldLibraries(hashes: Buffer[]): Promise<Map<string, Cell>> {
    const out = new Map<string, Cell>();
    for (const e of (await lite.getLibraries(hashes)).result) {
      const [cell] = Cell.fromBoc(Buffer.from(e.data));
      if (cell?.hash().equals(Buffer.from(e.hash))) out.set(cell.hash().toString('hex'), cell);
    }
    return out;
  }

  /**
   * Masterchain blocks 1..head in order with the contract decoders, then what the workers do after them: trace
   * assembly (once, over the whole range: the same traces as block by block) and each block's classification.
   */
  async function indexDevnet(
    source: BlockSource,
    libraries: (hashes: Buffer[]) => Promise<Map<string, Cell>>,
    decoder?: UnitDecoder,
  ): Promise<TestDatabase> {
    const t = await freshDb();
    const contracts = await createContractsEnv({ db: t.db, dnsRoots: devnetDnsRoots(), libraries });
    try {
      for (let n = 1; n <= head; n++) {
        await indexMcBlock(n, { source, db: t.db, contracts, ...(decoder ? { decoder } : {}) });
      }
    } finally {
      await contracts.close();
    }
    await assembleTraces(t.db);
    for (let n = 1; n <= head; n++) await classifyMcBlock(n, { db: t.db });
    return t;
  }

  it('every table, row by row and column by column', async () => {
    // NEW and POOL side by side (both with node:crypto's SHA-256: the pool's threads decode, this thread writes),
    // then OLD alone, since it swaps @ton/core's SHA-256 for the whole thread.
    const newSource = await storeSource();
    const first = await newSource.mcBlock(1);
    expect(first && !isCoreCell(first.root)).toBe(true);
    const poolSource = await storeSource();
    const pool = createDecodePool({ source: poolSource, threads: 2 });
    const decoder = countingDecoder(pool);
    let newDb: TestDatabase;
    let poolDb: TestDatabase;
    try {
      [newDb, poolDb] = await Promise.all([
        indexDevnet(newSource, (h) => librariesFrom(lite, h)),
        indexDevnet(poolSource, (h) => librariesFrom(lite, h), decoder),
      ]);
    } finally {
      await pool.close();
    }
    expect(decoder.pooled).toBe(head);
    const oldInner = await storeSource();
    const old = oldParseSource(oldInner, oldAccountStates);
    const oldDb = await withPureJsSha256(() => indexDevnet(old, oldLibraries));
    expect(old.roots).toBeGreaterThan(head);
    await Promise.all([newSource.close(), oldInner.close(), poolSource.close()]);

    const vsNew = await differences({ name: 'OLD', t: oldDb }, { name: 'NEW', t: newDb });
    expect(vsNew.diffs).toEqual([]);
    const vsPool = await differences({ name: 'NEW', t: newDb }, { name: 'POOL', t: poolDb });
    expect(vsPool.diffs).toEqual([]);
    for (const table of [...CORE_TABLES, ...FILLED_CONTRACT_TABLES])
      expect(vsNew.counts[table], table).toBeGreaterThan(0);
  }, 120_000);
});
