import { type Command, runCommand } from './command.ts';
import { dbCommand } from './db.ts';
import { decodeCommand } from './decode.ts';
import { devnetCommand } from './devnet.ts';
import { indexCommand } from './index-cmd.ts';
import { keysCommand } from './keys.ts';
import { queueCommand } from './queue.ts';
import { serveCommand } from './serve.ts';
import { upCommand } from './up.ts';
import { walkCommand } from './walk.ts';
import { workCommand } from './work.ts';

export const VERSION = '0.1.0';

export const rootCommand: Command = {
  name: 'tongate',
  summary: `tongate ${VERSION}: self-hostable TON blockchain access (indexer, toncenter-compatible API v2/v3, devnet).`,
  subcommands: [
    upCommand,
    serveCommand,
    walkCommand,
    workCommand,
    queueCommand,
    indexCommand,
    dbCommand,
    keysCommand,
    devnetCommand,
    decodeCommand,
  ],
};

export function main(argv: string[]): Promise<number> {
  return runCommand(rootCommand, argv);
}
