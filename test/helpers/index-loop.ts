// The index worker's loop, run by the streaming tests and bench/streaming in their own process: poll the chain's
// head, index every new masterchain block, assemble traces, classify what became final, sleep, repeat until stopped.
// As `tongate work` does, a pass that fails is reported and retried (a test that needs the block then times out
// naming it).
import type { Database } from '../../src/db/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { createLiteSource, type IndexDeps, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import type { LitePool } from '../../src/lite/index.ts';

export interface IndexLoopOptions {
  /** Where blocks are read (a lite source over it). */
  pool: LitePool;
  /** Where the chain's head is read (default: `pool`), e.g. a test's own liteserver connection. */
  head?: { getMasterchainInfo(): Promise<{ last: { seqno: number } }> };
  db: Database;
  /** The last masterchain block already indexed: the loop starts after it. */
  from: number;
  /** Contract decoders, as `tongate work` runs them (default: core tables only). The caller closes them. */
  contracts?: IndexDeps['contracts'];
  /** Pause between passes (default 200 ms). */
  intervalMs?: number;
  /** A pass failed (default: a console warning); the loop goes on. */
  onError?: (e: Error) => void;
  /** Each pass, the head just read (before its blocks are indexed). */
  onHead?: (seqno: number) => void;
  /** After each pass that did not fail (indexed, assembled, classified). */
  afterPass?: () => Promise<void>;
}

export interface IndexLoop {
  /** The last masterchain block indexed. */
  indexed(): number;
  /** Ends the loop after the block or pass under way. */
  stop(): Promise<void>;
}

export function startIndexLoop(opts: IndexLoopOptions): IndexLoop {
  const { db, contracts } = opts;
  const source = createLiteSource(opts.pool);
  const head = opts.head ?? opts.pool;
  const onError = opts.onError ?? ((e: Error) => console.warn(`index loop: ${e.message}`));
  let indexed = opts.from;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const top = (await head.getMasterchainInfo()).last.seqno;
        opts.onHead?.(top);
        for (let n = indexed + 1; n <= top && !stopped; n++) {
          await indexMcBlock(n, { source, db, contracts });
          indexed = n;
        }
        for (const b of await assembleTraces(db)) await classifyMcBlock(b.mcSeqno, { db });
        await opts.afterPass?.();
      } catch (e) {
        onError(e as Error);
      }
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
    }
  })();
  return {
    indexed: () => indexed,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
