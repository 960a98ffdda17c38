// bench/codec's @ton/core baseline, in its own thread: Cell.fromBoc as @ton/core ships it (its pure-JS SHA-256; this
// isolate never loads tongate's cell layer, which replaces @ton/core's SHA-256 export with node:crypto's). Run on the
// main thread, the baseline had to swap that export back and forth around each phase, and the swaps left the decode
// phase's code deoptimised (measured 1.6x slower than the same decode alone). The main thread waits for each round,
// so one core works at a time, as in the other phases.
import { parentPort, workerData } from 'node:worker_threads';
import { Cell } from '@ton/core';

const blocks = (workerData as { blocks: Uint8Array[] }).blocks.map((b) => Buffer.from(b));
parentPort?.on('message', (m: 'round' | 'close') => {
  if (m === 'close') {
    parentPort?.close();
    return;
  }
  const t0 = process.hrtime.bigint();
  for (const b of blocks) Cell.fromBoc(b);
  parentPort?.postMessage(Number(process.hrtime.bigint() - t0) / 1e6);
});
