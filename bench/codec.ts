// bench/codec: transactions decoded per second on real mainnet blocks, as a ratio to @ton/core's
// Cell.fromBoc alone on the same bytes, both measured in this run (machines are shared and noisy, so
// only the ratio means anything). Usage: npm run bench:codec [-- --rounds N]
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Cell } from '@ton/core';
import { listBlockTransactions, loadBlockCell, transactionFromCell, transactionView } from '../src/ton/index.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log('Usage: npm run bench:codec [-- --rounds N]\nDecodes every block in the vectors N times (default 5).');
  process.exit(0);
}
const rounds = Number(values.rounds);
const dir = resolve(
  process.env.TONGATE_VECTORS ?? join(import.meta.dirname, '..', '..', 'shared', 'vectors'),
  'blocks',
);
let files: string[];
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.json'));
} catch {
  console.error(`bench/codec: vectors not found at ${dir} (set TONGATE_VECTORS)`);
  process.exit(2);
}
const blocks = files.map((f) => Buffer.from(JSON.parse(readFileSync(join(dir, f), 'utf8')).boc_base64, 'base64'));

function parseOnly(): number {
  let cells = 0;
  for (const b of blocks) cells += Cell.fromBoc(b).length;
  return cells;
}

function decodeAll(): number {
  let txs = 0;
  for (const b of blocks) {
    const root = Cell.fromBoc(b)[0]!;
    const block = loadBlockCell(root);
    const workchain = block.info.shard.workchainId;
    for (const t of listBlockTransactions(block)) {
      transactionView(transactionFromCell(t.cell), { workchain });
      txs++;
    }
  }
  return txs;
}

function time(fn: () => number): { ms: number; n: number } {
  const t0 = process.hrtime.bigint();
  const n = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, n };
}

const txCount = decodeAll(); // warm-up, and the transaction count
parseOnly();
let parseMs = 0;
let decodeMs = 0;
// Interleave the two so drift in machine load hits both alike.
for (let r = 0; r < rounds; r++) {
  parseMs += time(parseOnly).ms;
  decodeMs += time(decodeAll).ms;
}
const bytes = blocks.reduce((a, b) => a + b.length, 0);
const parseTps = (txCount * rounds) / (parseMs / 1000);
const decodeTps = (txCount * rounds) / (decodeMs / 1000);
console.log(
  `bench/codec: ${blocks.length} real blocks, ${(bytes / 1024).toFixed(0)} KiB, ${txCount} transactions, ${rounds} rounds`,
);
console.log(
  `  baseline Cell.fromBoc only:          ${parseTps.toFixed(0)} tx/s (${(parseMs / rounds).toFixed(1)} ms/round)`,
);
console.log(
  `  fromBoc + block + transaction views: ${decodeTps.toFixed(0)} tx/s (${(decodeMs / rounds).toFixed(1)} ms/round)`,
);
console.log(`  ratio decode/baseline throughput:    ${(decodeTps / parseTps).toFixed(3)}`);
