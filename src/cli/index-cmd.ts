// `tongate index rederive`: recompute the contract tables from stored rows (src/index/contracts/rederive.ts), so
// a decoder fix never needs the chain again. Exit codes: 0 done, 1 failed, 2 bad usage, 75 retryable (database
// unreachable: run it again, finished batches stay done).

import { librariesFrom } from '../app.ts';
import { EXIT_RETRYABLE, firstLine } from '../common/exit-codes.ts';
import { isTongateError, resolveDatabaseConfig } from '../common/index.ts';
import { intOption, str, UsageError } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import { createDatabase, type Database, describeDatabase, migrate } from '../db/index.ts';
import { classifyTraceFiles } from '../index/actions/classify-trace.ts';
import { type ClassifyResult, reclassifyRange } from '../index/actions/index.ts';
import { createContractsEnv, type OwnedContractsEnv } from '../index/contracts/index.ts';
import { FAMILIES, type Family, rederive } from '../index/contracts/rederive.ts';
import { fetchOffchainMetadata, startMetadataLoop } from '../index/metadata/index.ts';
import { type RebuildResult, rebuildTraces, traceAssemblyState } from '../index/traces/index.ts';
import { createLitePool, loadGlobalConfig } from '../lite/index.ts';
import type { Command } from './command.ts';
import { databaseOptions } from './db.ts';
import { decoderConfig } from './indexer-options.ts';
import { createLog } from './log.ts';

/**
 * The derived families: the contract decoders' tables, `actions` (the classifier over assembled traces) and
 * `traces` (assemble every indexed block again, then classify: heavy, so never part of `all`).
 */
const ALL_FAMILIES = [...FAMILIES, 'actions', 'traces'] as const;
type AnyFamily = (typeof ALL_FAMILIES)[number];

function familiesOf(value: string | undefined): { contracts: Family[]; actions: boolean; traces: boolean } {
  if (value === undefined) {
    throw new UsageError(`--family is required: ${ALL_FAMILIES.join('|')}|all (comma-separated)`);
  }
  const names = value.split(',').map((f) => f.trim());
  for (const n of names) {
    if (n !== 'all' && !(ALL_FAMILIES as readonly string[]).includes(n)) {
      throw new UsageError(`--family: unknown family '${n}' (expected ${ALL_FAMILIES.join(', ')} or all)`);
    }
  }
  const set = new Set(names as AnyFamily[]);
  const traces = set.has('traces');
  if (names.includes('all')) return { contracts: [...FAMILIES], actions: true, traces };
  return { contracts: FAMILIES.filter((f) => set.has(f)), actions: set.has('actions') || traces, traces };
}

const rederiveCommand: Command = {
  name: 'rederive',
  summary:
    'Recompute Jetton/NFT/DNS/multisig/vesting rows and actions from what the database stores (no chain access).',
  details:
    'Latest-state tables (jetton_wallets, nft_items, ...) are recomputed from the stored code and data of every\n' +
    'account whose last transaction is in range; event tables (jetton_transfers, ...) from the stored\n' +
    'transactions and message bodies of the masterchain blocks in range. Each batch commits on its own, so an\n' +
    'interrupted run can simply be run again. --lite-config lends library cells (USDT-style wallets) to getters.\n' +
    'Exit codes: 0 done, 1 failed, 2 bad usage, 75 retryable.',
  options: {
    family: {
      type: 'string',
      value: 'jetton,nft,dns,multisig,vesting,actions,traces|all',
      description:
        'families to recompute (actions: classify the assembled traces again; traces: assemble every indexed block again from the lowest (or --from), then classify; all = the contract families and actions)',
    },
    from: { type: 'string', value: 'N', description: 'first masterchain seqno (default: the first indexed)' },
    to: { type: 'string', value: 'M', description: 'last masterchain seqno (default: the last indexed)' },
    'dns-root': {
      type: 'string',
      value: 'ADDR[=.suffix],...',
      description: 'NFT collections whose items are DNS names (default: the mainnet .ton root)',
    },
    'decoder-threads': { type: 'string', value: 'N', description: 'worker threads for the getters', default: '1' },
    'lite-config': { type: 'string', value: 'FILE|URL', description: 'liteservers to fetch library cells from' },
    'no-progress': { type: 'boolean', description: 'log progress lines instead of drawing a bar' },
    ...databaseOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const { contracts: families, actions, traces } = familiesOf(str(values, 'family'));
    const from = intOption(values, 'from');
    const to = intOption(values, 'to');
    if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
    const decoders = decoderConfig({ ...values, 'no-decoders': false });
    const log = createLog(err);
    const shutdown = onShutdownSignal(log);
    let db: Database | undefined;
    let env: OwnedContractsEnv | undefined;
    let closePool: (() => Promise<void>) | undefined;
    try {
      const cfg = resolveDatabaseConfig({
        flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
        env: process.env,
        applicationName: 'tongate-rederive',
      });
      db = await createDatabase(cfg);
      await migrate(db);
      const liteConfig = str(values, 'lite-config');
      let libraries: Parameters<typeof createContractsEnv>[0]['libraries'];
      if (liteConfig) {
        const pool = createLitePool({ servers: (await loadGlobalConfig(liteConfig)).liteservers, log });
        closePool = () => pool.close();
        libraries = (hashes) => librariesFrom(pool, hashes);
      }
      if (families.length > 0) {
        env = await createContractsEnv({ db, threads: decoders?.threads, dnsRoots: decoders?.dnsRoots, libraries });
      }
      log('info', 'Started rederive', {
        families,
        from: from ?? null,
        to: to ?? null,
        database: describeDatabase(cfg),
      });
      const tty = process.stderr.isTTY === true && values['no-progress'] !== true;
      let lastLog = 0;
      const result = !env
        ? { states: 0, events: 0 }
        : await rederive({
            db,
            env,
            families,
            ...(from === undefined ? {} : { from }),
            ...(to === undefined ? {} : { to }),
            signal: shutdown.signal,
            onProgress: (p) => {
              const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
              if (tty) {
                process.stderr.write(`\r${p.phase.padEnd(6)} ${p.done}/${p.total} (${pct}%) rows ${p.rows}\x1b[K`);
              } else if (Date.now() - lastLog > 5000 || p.done === p.total) {
                lastLog = Date.now();
                log('info', 'Updated rederive progress', { ...p });
              }
            },
          });
      if (tty) process.stderr.write('\n');
      let retraced: RebuildResult | null = null;
      if (traces && !shutdown.signal.aborted) {
        retraced = await rebuildTraces(db, {
          ...(from === undefined ? {} : { from }),
          log,
          signal: shutdown.signal,
          onProgress: (done, total) => {
            if (tty) process.stderr.write(`\rtraces ${done}/${total} blocks\x1b[K`);
            else if (Date.now() - lastLog > 5000 || done === total) {
              lastLog = Date.now();
              log('info', 'Updated rederive progress', { phase: 'traces', done, total });
            }
          },
        });
        if (tty) process.stderr.write('\n');
      }
      let classified: ClassifyResult | null = null;
      if (actions && !shutdown.signal.aborted) {
        const span = await assembledRange(db, from, to);
        classified = { traces: 0, actions: 0, failed: 0 };
        if (span) {
          classified = await reclassifyRange(span.from, span.to, {
            db,
            log,
            signal: shutdown.signal,
            onProgress: (done, total) => {
              if (tty) process.stderr.write(`\ractions ${done}/${total} blocks\x1b[K`);
              else if (Date.now() - lastLog > 5000 || done === total) {
                lastLog = Date.now();
                log('info', 'Updated rederive progress', { phase: 'actions', done, total });
              }
            },
          });
          if (tty) process.stderr.write('\n');
        }
      }
      if (shutdown.signal.aborted) {
        err('tongate index rederive: stopped; run it again to finish (finished batches are kept)');
        return EXIT_RETRYABLE;
      }
      if (families.length > 0) {
        out(`Rederived ${families.join(', ')}: ${result.states} latest-state rows, ${result.events} event rows.`);
      }
      if (retraced) {
        out(
          retraced.from === null
            ? 'Assembled no traces: nothing is indexed.'
            : `Assembled traces of masterchain blocks ${retraced.from}..${retraced.to}` +
                (retraced.stoppedAt !== null ? ` (stopped at ${retraced.stoppedAt}: not indexed)` : '') +
                '.',
        );
      }
      if (classified) {
        out(
          `Reclassified ${classified.traces} traces: ${classified.actions} actions` +
            (classified.failed > 0 ? `, ${classified.failed} failed (see the log)` : '') +
            '.',
        );
      }
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      err(`tongate index rederive: ${firstLine(e)}`);
      return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : 1;
    } finally {
      shutdown.dispose();
      await env?.close().catch(() => {});
      await closePool?.().catch(() => {});
      await db?.close().catch(() => {});
    }
  },
};

const metadataCommand: Command = {
  name: 'metadata',
  summary: 'Fetch off-chain token metadata (TEP-64 uri) into address_metadata, rate-limited, until stopped.',
  details:
    'Opt-in and separate from indexing (which never waits for it): jetton masters, NFT collections and items\n' +
    'whose content has a uri get their JSON document fetched (http/https; ipfs:// through --ipfs-gateway), capped\n' +
    'in size and time, and stored for /metadata and the metadata sections. Failures are retried later.\n' +
    'It requests whatever URLs contract content names: run it where that cannot reach private services.',
  options: {
    rate: { type: 'string', value: 'N', description: 'requests started per second', default: '2' },
    'max-bytes': { type: 'string', value: 'N', description: 'largest document accepted', default: '1048576' },
    'timeout-ms': { type: 'string', value: 'N', description: 'deadline per document', default: '10000' },
    'ipfs-gateway': {
      type: 'string',
      value: 'URL',
      description: 'gateway for ipfs:// URIs (e.g. https://ipfs.io/ipfs/)',
    },
    once: { type: 'boolean', description: 'one pass, then exit' },
    ...databaseOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const rate = intOption(values, 'rate', { min: 1 }) ?? 2;
    const maxBytes = intOption(values, 'max-bytes', { min: 1024 }) ?? 1_048_576;
    const timeoutMs = intOption(values, 'timeout-ms', { min: 100 }) ?? 10_000;
    const ipfsGateway = str(values, 'ipfs-gateway');
    const log = createLog(err);
    const shutdown = onShutdownSignal(log);
    let db: Database | undefined;
    try {
      const cfg = resolveDatabaseConfig({
        flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
        env: process.env,
        applicationName: 'tongate-metadata',
      });
      db = await createDatabase(cfg);
      await migrate(db);
      const job = {
        db,
        ratePerSecond: rate,
        maxBytes,
        timeoutMs,
        log,
        ...(ipfsGateway ? { ipfsGateway } : {}),
      };
      if (values.once === true) {
        const r = await fetchOffchainMetadata(job);
        out(`Fetched ${r.fetched} metadata documents: ${r.valid} valid, ${r.invalid} invalid.`);
        return 0;
      }
      log('info', 'Started metadata fetcher', { rate, maxBytes, timeoutMs, database: describeDatabase(cfg) });
      const loop = startMetadataLoop({ ...job, intervalMs: 30_000 });
      await new Promise<void>((r) => shutdown.signal.addEventListener('abort', () => r(), { once: true }));
      await loop.stop();
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      err(`tongate index metadata: ${firstLine(e)}`);
      return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : 1;
    } finally {
      shutdown.dispose();
      await db?.close().catch(() => {});
    }
  },
};

const classifyTraceCommand: Command = {
  name: 'classify-trace',
  summary: 'Classify trace files (shared/vectors/actions/traces format) in a scratch database; print their actions.',
  args: 'FILE...',
  details:
    "Each file (one trace as toncenter stores it, with its accounts' interfaces) is stored as the indexer stores\n" +
    'rows (transactions, messages, bodies, jetton wallets, NFT items, account data), assembled by our trace\n' +
    'assembler and classified by the classify job; one JSON document per file is printed:\n' +
    '{"trace_id": ..., "actions": [...]}, each action with toncenter\'s classifier names (source, destination,\n' +
    'asset, amount, tx_hashes, accounts, jetton_transfer_data, ...). The database is a temporary PGlite one unless\n' +
    '--database-url names an empty PostgreSQL database. Interfaces we hold no table for and differences between\n' +
    'our assembly and the file are reported on stderr.\n' +
    'Exit codes: 0 done, 1 failed, 2 bad usage or a malformed file (named with the problem).',
  options: {
    'database-url': {
      type: 'string',
      value: 'URL',
      description: 'an empty PostgreSQL database to work in (default: a temporary PGlite database)',
    },
    pretty: { type: 'boolean', description: 'indent the JSON (default: one line per file)' },
  },
  run: ({ values, positionals, out, err }) =>
    classifyTraceFiles({
      files: positionals,
      ...(str(values, 'database-url') === undefined ? {} : { databaseUrl: str(values, 'database-url') }),
      pretty: values.pretty === true,
      out,
      err,
    }),
};

export const indexCommand: Command = {
  name: 'index',
  summary: 'Maintain the index in place: rederive the contract tables, fetch off-chain metadata, classify trace files.',
  subcommands: [rederiveCommand, metadataCommand, classifyTraceCommand],
};

/** The assembled masterchain blocks within [from, to] (defaults: all of them), or null when none. */
async function assembledRange(
  db: Database,
  from: number | undefined,
  to: number | undefined,
): Promise<{ from: number; to: number } | null> {
  const st = await traceAssemblyState(db);
  if (!st) return null;
  const lo = Math.max(from ?? st.firstMcSeqno, st.firstMcSeqno);
  const hi = Math.min(to ?? st.nextMcSeqno - 1, st.nextMcSeqno - 1);
  return lo <= hi ? { from: lo, to: hi } : null;
}
