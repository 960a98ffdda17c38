import { type Command, runCommand } from './command.ts';
import { decodeCommand } from './decode.ts';

export const VERSION = '0.1.0';

export const rootCommand: Command = {
  name: 'tongate',
  summary: `tongate ${VERSION}: self-hostable TON blockchain access (indexer, toncenter-compatible API v2/v3, devnet).`,
  subcommands: [decodeCommand],
};

export function main(argv: string[]): Promise<number> {
  return runCommand(rootCommand, argv);
}
