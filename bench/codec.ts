// bench/codec: transactions decoded per second on the 12 real mainnet blocks of the vectors, as the indexer's hot
// path decodes them (checkedBlock: file hash, the one parse, every cell hashed for the root check; the Block; every
// transaction's table rows), as ratios to two baselines measured in this run (machines are shared and noisy, so only
// the ratios mean anything):
//   SHA-256 floor   only hashing every cell of the same BoCs once with node:crypto (each cell's representation,
//                   prepared beforehand): no decoder that checks the root hash can beat it;
//   Cell.fromBoc    @ton/core's reader alone on the same bytes, as @ton/core ships it (its pure-JS SHA-256), in a
//                   thread of its own (bench/support/ton-core-fromboc-worker.ts: see why there).
// The decode uses the native cell reader and hasher (native/tonhash) when it is built, as the indexer does; a fourth
// phase decodes with it turned off (node:crypto per cell), and the hasher in use is printed.
// Usage: npm run bench:codec [-- --rounds N]
import { createHash, hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startTsWorker, workerEntry } from '../src/common/ts-worker.ts';
import { blockGlobalVersion, forgetRecentBocs, toBlockRow, toTransactionRows } from '../src/index/decode/index.ts';
import { cellHasherName, useNativeHasher } from '../src/ton/cell/native-hash.ts';
import {
  type BlockIdExt,
  checkedBlock,
  listBlockTransactions,
  loadBlockCell,
  readCellTable,
} from '../src/ton/index.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log(
    'Usage: npm run bench:codec [-- --rounds N]\n' +
      'Decodes every block of the vectors N times (default 5) as the indexer does, and prints tx/s as ratios to\n' +
      'the SHA-256 floor and to @ton/core Cell.fromBoc, both measured in the same run.',
  );
  process.exit(0);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('bench/codec: --rounds must be an integer >= 1');
  process.exit(2);
}
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

interface VectorBlock {
  id: BlockIdExt;
  bytes: Buffer;
}
const blocks: VectorBlock[] = files.map((f) => {
  const v = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
    ids: { workchain: number; shard: string; seqno: number; root_hash: string };
    boc_base64: string;
  };
  const bytes = Buffer.from(v.boc_base64, 'base64');
  return {
    bytes,
    id: {
      workchain: v.ids.workchain,
      shard: BigInt(`0x${v.ids.shard}`),
      seqno: v.ids.seqno,
      rootHash: Buffer.from(v.ids.root_hash, 'hex'),
      // The stored BoCs are re-serialisations: their file hash is their own SHA-256.
      fileHash: createHash('sha256').update(bytes).digest(),
    },
  };
});

// Every cell's representation (what its hash is taken over), prepared outside the timed loop.
const reprs: Buffer[] = [];
let rootCheckHashes = 0;
for (const b of blocks) {
  const t = readCellTable(b.bytes);
  for (let i = 0; i < t.count; i++) reprs.push(t.representation(i));
  rootCheckHashes += t.hashCount;
}

function floor(): void {
  for (const r of reprs) hash('sha256', r, 'buffer');
}

function decodeAll(): number {
  forgetRecentBocs();
  let txs = 0;
  for (const { id, bytes } of blocks) {
    const block = loadBlockCell(checkedBlock(id, bytes).root);
    const gv = blockGlobalVersion(block);
    const list = listBlockTransactions(block);
    toBlockRow(block, id, 1, list.length);
    for (const t of list) {
      toTransactionRows(t.cell, id, 1, gv);
      txs++;
    }
  }
  return txs;
}

const core = startTsWorker(
  workerEntry(new URL('./support/ton-core-fromboc-worker.ts', import.meta.url), import.meta.url),
  {
    blocks: blocks.map((b) => new Uint8Array(b.bytes)),
  },
);
/** One round of the @ton/core baseline in its thread: its own timing (ms). */
const tonCoreOnly = () =>
  new Promise<number>((resolve, reject) => {
    core.once('message', resolve);
    core.once('error', reject);
    core.postMessage('round');
  });

function time(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

// Warm-up (three rounds each: the decoder's code is optimised by then), and the transaction count. No forced garbage collection between phases: a full collection before a
// phase (the earlier method) threw away the heap the decoder had grown and its compiled code's warm state, which
// made the decode phase 1.5x slower than it runs steadily in ingest (measured: 300 vs 470 ms a round). Each phase
// pays for its own garbage at its steady rate instead, and the median of the rounds is reported.
const txCount = decodeAll();
/** decodeAll with the native cell layer turned off: cells read and hashed in TypeScript, node:crypto per cell. */
const decodeAllTs = () => {
  const was = useNativeHasher(false);
  try {
    return decodeAll();
  } finally {
    useNativeHasher(was);
  }
};
for (let w = 0; w < 3; w++) {
  decodeAll();
  decodeAllTs();
  floor();
  await tonCoreOnly();
}
const floorRuns: number[] = [];
const decodeRuns: number[] = [];
const tsRuns: number[] = [];
const coreRuns: number[] = [];
// Interleave the phases so drift in machine load hits all alike.
for (let r = 0; r < rounds; r++) {
  floorRuns.push(time(floor));
  decodeRuns.push(time(decodeAll));
  tsRuns.push(time(decodeAllTs));
  coreRuns.push(await tonCoreOnly());
}
const floorMs = median(floorRuns);
const decodeMs = median(decodeRuns);
const coreMs = median(coreRuns);
core.postMessage('close');
const tps = (ms: number) => txCount / (ms / 1000);
const bytes = blocks.reduce((a, b) => a + b.bytes.length, 0);
console.log(
  `bench/codec: ${blocks.length} real blocks, ${(bytes / 1024).toFixed(0)} KiB, ${reprs.length} cells, ${txCount} transactions, ${rounds} rounds`,
);
console.log(
  `  SHA-256 floor (every cell once):   ${floorMs.toFixed(1)} ms/round (median) (a root check hashes ${rootCheckHashes}: cells under Merkle updates once per level)`,
);
console.log(`  @ton/core Cell.fromBoc only:       ${coreMs.toFixed(1)} ms/round (median)`);
console.log(
  `  decode (checked parse, rows):      ${decodeMs.toFixed(1)} ms/round (median), cells: ${cellHasherName()}`,
);
console.log(
  `  decode, cells read and hashed in TypeScript: ${median(tsRuns).toFixed(1)} ms/round (median) = ${(median(tsRuns) / decodeMs).toFixed(2)} x the above`,
);
const decodeTps = tps(decodeMs);
console.log(
  `bench/codec: decode ${decodeTps.toFixed(0)} tx/s = ${(decodeTps / tps(floorMs)).toFixed(3)} x the SHA-256 floor (${tps(floorMs).toFixed(0)} tx/s), ${(decodeTps / tps(coreMs)).toFixed(2)} x @ton/core Cell.fromBoc`,
);
