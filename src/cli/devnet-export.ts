// `tongate devnet export-node-db`: writes the devnet as a TON node's on-disk tree (archive packs and indexes,
// global index, state db, celldb), which `tongate walk|work --node-db` then read as they would a real node's.
import { join } from 'node:path';
import { EXIT_FAILED, EXIT_USAGE } from '../common/exit-codes.ts';
import { ENV_DATA_DIR, resolveDataDir } from '../common/index.ts';
import { intOption, UsageError } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import {
  ARCHIVE_GENERATIONS,
  EXPORT_MARKER_FILE,
  ExportRefusedError,
  exportDevnetNodeDb,
  MAX_SPLIT_DEPTH,
} from '../nodedb/export-devnet.ts';
import type { ArchiveGeneration } from '../nodedb/layout.ts';
import type { Command } from './command.ts';
import { createLog } from './log.ts';
import { createProgressView } from './progress.ts';

export const exportNodeDbCommand: Command = {
  name: 'export-node-db',
  summary: "Write the devnet's blocks and states as a TON node's database folder, for --node-db.",
  details:
    'Writes what a validator-engine keeps under --db: archive packs with their RocksDB indexes (block handles,\n' +
    'ltdb lists), files/globalindex, the state db and, unless --no-states, celldb with the shard state after every\n' +
    'block. Then `tongate walk backfill --node-db OUT` indexes it as it would a real node. Blocks come from the\n' +
    "store's files (safe while the devnet runs); states come from its database, which the running devnet locks:\n" +
    'stop the devnet first, or use --no-states. Needs the native RocksDB addon (npm run build:native).\n' +
    `--out must be empty or new, or hold an earlier export (${EXPORT_MARKER_FILE}): that one is extended with the\n` +
    'blocks after its last, with its own layout settings. SIGINT/SIGTERM stops after the block being written,\n' +
    'leaving a tree that can be extended. Progress goes to stderr. Exit codes: 0 done, 1 failed, 2 bad usage or\n' +
    'a refused --out, store or range.',
  options: {
    store: {
      type: 'string',
      value: 'DIR',
      description: `the devnet store folder (default: DATA/devnet, DATA from --data or ${ENV_DATA_DIR}, else ./data)`,
    },
    data: { type: 'string', value: 'DIR', description: 'data folder whose devnet/ is the store' },
    out: { type: 'string', value: 'DIR', description: 'the node database folder to write (required)' },
    generation: {
      type: 'string',
      value: ARCHIVE_GENERATIONS.join('|'),
      description: "archive layout generation of the packs (default: shard-split, or an earlier export's)",
    },
    'split-depth': {
      type: 'string',
      value: 'N',
      description: `shard-prefix bits that separate workchain packs (shard-split generations), 0..${MAX_SPLIT_DEPTH} (default: 0, or an earlier export's)`,
    },
    'no-states': { type: 'boolean', description: 'write no celldb (blocks only; works while the devnet runs)' },
    from: {
      type: 'string',
      value: 'N',
      description: 'first masterchain seqno (default 1, or after an earlier export)',
    },
    to: { type: 'string', value: 'N', description: "last masterchain seqno (default: the devnet's head)" },
    'no-progress': { type: 'boolean', description: 'log progress lines instead of drawing a bar' },
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const outDir = values.out as string | undefined;
    if (outDir === undefined || outDir.trim() === '') throw new UsageError('--out DIR is required');
    const generation = values.generation as string | undefined;
    if (generation !== undefined && !(ARCHIVE_GENERATIONS as readonly string[]).includes(generation)) {
      throw new UsageError(`--generation must be one of ${ARCHIVE_GENERATIONS.join(', ')}; got '${generation}'`);
    }
    const splitDepth = intOption(values, 'split-depth', { min: 0, max: MAX_SPLIT_DEPTH, interval: true });
    if (splitDepth !== undefined && splitDepth > 0 && (generation === 'unsliced' || generation === 'sliced')) {
      throw new UsageError(`--split-depth applies to the shard-split generations only, not '${generation}'`);
    }
    const from = intOption(values, 'from', { min: 1, max: 0xffffffff, interval: true });
    const to = intOption(values, 'to', { min: 1, max: 0xffffffff, interval: true });
    if (from !== undefined && to !== undefined && to < from) {
      throw new UsageError(`--to (${to}) is below --from (${from})`);
    }
    const store =
      (values.store as string | undefined) ??
      join(resolveDataDir({ flags: { data: values.data as string | undefined }, env: process.env }), 'devnet');

    const log = createLog(err);
    const shutdown = onShutdownSignal(log);
    let view: ReturnType<typeof createProgressView> | undefined;
    try {
      const r = await exportDevnetNodeDb({
        store,
        out: outDir,
        // Settings left at their defaults give way to an earlier export's; given ones must match it.
        ...(generation === undefined ? {} : { generation: generation as ArchiveGeneration }),
        ...(splitDepth === undefined ? {} : { splitDepth }),
        ...(values['no-states'] === true ? { states: false } : {}),
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        signal: shutdown.signal,
        onProgress: (p) => {
          view ??= createProgressView({
            total: p.total,
            tty: process.stderr.isTTY === true && values['no-progress'] !== true,
            write: (c) => process.stderr.write(c),
            log: (_msg, f) => log('info', 'Updated export progress', { ...f, mcSeqno: p.mcSeqno }),
          });
          if (p.blocks === p.total) view.done(p);
          else view.update(p);
        },
      });
      const what = `${r.blocks} blocks, ${r.transactions} transactions, states ${r.states ? 'in celldb' : 'not written'}`;
      if (r.to < r.from) {
        out(`Nothing new to export: ${outDir} already holds masterchain blocks ${r.tree.from}..${r.tree.to}.`);
      } else {
        out(
          `${r.extended ? 'Extended' : 'Exported'} masterchain blocks ${r.from}..${r.to} (${what}) to ${outDir}` +
            `${r.extended ? `, which now holds ${r.tree.from}..${r.tree.to}` : ''}.`,
        );
      }
      if (r.stopped) err(`tongate devnet export-node-db: stopped by a signal after masterchain block ${r.to}`);
      return 0;
    } catch (e) {
      if (e instanceof ExportRefusedError) {
        err(`tongate devnet export-node-db: ${e.message}`);
        return EXIT_USAGE;
      }
      err(`tongate devnet export-node-db: failed: ${(e as Error).message.split('\n')[0]}`);
      return EXIT_FAILED;
    } finally {
      shutdown.dispose();
    }
  },
};
