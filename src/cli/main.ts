// The root of the command tree. Each command's module (and with it fastify, @ton/core, PGlite, BullMQ, ...) is
// imported only when that command is chosen, so `tongate --help` starts at once. The summaries here are the
// commands' own (test/cli/lazy-commands.test.ts compares them).
import { type Command, type LazyCommand, runCommand } from './command.ts';

export const VERSION = '0.1.0';

const commands: LazyCommand[] = [
  {
    name: 'up',
    summary: 'Run everything on one process: devnet node + activity, tail indexing, API v2 and v3.',
    load: async () => (await import('./up.ts')).upCommand,
  },
  {
    name: 'serve',
    summary: 'Serve the HTTP APIs: v2 over liteservers (--lite-config), v3 over the index database.',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    name: 'walk',
    summary: 'Plan indexing: backfill a range of masterchain blocks, follow the head, repair gaps.',
    load: async () => (await import('./walk.ts')).walkCommand,
  },
  {
    name: 'work',
    summary: 'Process index-mc-block jobs from the shared queue (REDIS_URL) until SIGINT/SIGTERM.',
    load: async () => (await import('./work.ts')).workCommand,
  },
  {
    name: 'queue',
    summary: 'Inspect and repair the shared job queue (REDIS_URL): status, retry-failed, drain.',
    load: async () => (await import('./queue.ts')).queueCommand,
  },
  {
    name: 'index',
    summary:
      'Maintain the index in place: rederive the contract tables, fetch off-chain metadata, classify trace files.',
    load: async () => (await import('./index-cmd.ts')).indexCommand,
  },
  {
    name: 'db',
    summary: 'Manage the indexer database (PostgreSQL, or the embedded PGlite by default).',
    load: async () => (await import('./db.ts')).dbCommand,
  },
  {
    name: 'keys',
    summary: 'Manage API keys (stored hashed in the database).',
    load: async () => (await import('./keys.ts')).keysCommand,
  },
  {
    name: 'devnet',
    summary: 'Run a local TON devnet node (real blocks, liteserver protocol), use its faucet, or export it.',
    load: async () => (await import('./devnet.ts')).devnetCommand,
  },
  {
    name: 'decode',
    summary: 'Decode a BoC (block, transaction, account, message or shard state) and print it as JSON.',
    load: async () => (await import('./decode.ts')).decodeCommand,
  },
];

export const rootCommand: Command = {
  name: 'tongate',
  summary: `tongate ${VERSION}: self-hostable TON blockchain access (indexer, toncenter-compatible API v2/v3, devnet).`,
  subcommands: commands,
};

export function main(argv: string[]): Promise<number> {
  return runCommand(rootCommand, argv);
}
