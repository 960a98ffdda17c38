// The finalized feed of one API process: it watches the index and, for each masterchain block that became final
// (indexed, traces assembled and classified), reads the block's events (index-feed.ts) and hands them on, blocks in
// order and each once. It starts at the index's head: history is what clients replay by cursor.
import type { Logger } from 'pino';
import type { Database } from '../../db/index.ts';
import type { Positioned } from './events.ts';
import { blockEvents, readyThrough } from './index-feed.ts';
import { startPollLoop } from './poll-loop.ts';

export interface LiveFeedOptions {
  db: Database;
  testnet: boolean;
  logger: Logger;
  /** How often the index is asked for its head (default 250 ms). */
  pollMs?: number;
  /** Blocks read per poll at most, so a long catch-up does not hold the database (default 20). */
  maxBlocksPerPoll?: number;
  /** Whether any client wants address books or metadata now. */
  wantsEnrichment: () => boolean;
  onEvents: (events: Positioned[], mcSeqno: number) => void;
}

export interface LiveFeed {
  /** The last block whose events were handed on (null before the index has a final block). */
  head(): number | null;
  /** Resolves once the first head is known. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createLiveFeed(opts: LiveFeedOptions): LiveFeed {
  const maxBlocks = opts.maxBlocksPerPoll ?? 20;
  let head: number | null = null;
  let started = false;
  let closed = false;
  let resolveReady!: () => void;
  const readyP = new Promise<void>((r) => {
    resolveReady = r;
  });

  async function poll(): Promise<void> {
    const ready = await readyThrough(opts.db);
    if (!started) {
      started = true;
      head = ready;
      resolveReady();
      return;
    }
    if (ready === null) return;
    const from = head === null ? ready : head + 1;
    for (let n = from; n <= Math.min(ready, from + maxBlocks - 1) && !closed; n++) {
      const events = await blockEvents(opts.db, n, { testnet: opts.testnet, enrich: opts.wantsEnrichment() });
      if (closed) return;
      // Handed on and recorded in one synchronous step: a client attaching between blocks sees a head whose
      // events it was either given live or will replay, never both and never neither.
      head = n;
      opts.onEvents(events, n);
    }
  }

  const loop = startPollLoop(poll, {
    pollMs: opts.pollMs ?? 250,
    logger: opts.logger,
    failing: 'Streaming feed cannot read the index; retrying',
    back: 'Streaming feed reads the index again',
  });

  return {
    head: () => head,
    ready: () => readyP,
    async close() {
      closed = true;
      resolveReady();
      await loop.close();
    },
  };
}
