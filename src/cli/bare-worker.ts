// A bare worker process: `tongate work` with the same flags, started from this file rather than bin/tongate.js
// (node --import tsx src/cli/bare-worker.ts [work options]). It runs the processor of workers/index-mc-block.ts
// through the work command; the worker module itself never imports the CLI.
import { main } from './main.ts';

process.exitCode = await main(['work', ...process.argv.slice(2)]);
