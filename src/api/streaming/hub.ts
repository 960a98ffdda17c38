// The hub of one API process: events from the shared bus (pending, invalidations) and from this process's finalized
// feed go to every connection, each cut for that connection by its subscription (client-filter.ts) and handed to
// its transport, which queues them with a bound of its own. One connection is never waited on by the hub: a slow
// one overflows its own queue and is closed; the others go on.
//
// Resuming: a client that comes back with the cursor of the last finalized event it got is attached with its live
// events held back, given every finalized event after that cursor from the index (at most `replayBlocks`
// masterchain blocks back), then the held-back events it has not had, then live ones: in order and each once.
import type { Logger } from 'pino';
import type { Database } from '../../db/index.ts';
import type { FeedBus } from './bus.ts';
import { ClientFilter } from './client-filter.ts';
import { type ConfirmedFeed, type ConfirmedLite, createConfirmedFeed } from './confirmed-feed.ts';
import { type Cursor, compareCursors, parseCursor, withPart } from './cursor.ts';
import type { Json, Positioned } from './events.ts';
import { blockEvents } from './index-feed.ts';
import { createLiveFeed, type LiveFeed } from './live-feed.ts';
import type { Subscription } from './subscription.ts';

export interface Frame {
  json: Json;
  /** Finalized notifications only. */
  cursor?: string;
}

/** What the hub needs of a connection. */
export interface StreamClient {
  /** The connection's current subscription (null: a WebSocket that has not subscribed yet). */
  subscription(): Subscription | null;
  /** Queues frames on the connection (the transport bounds its queue and closes it when it overflows). */
  write(frames: Frame[]): void;
}

export interface ResumeResult {
  /** Finalized notifications replayed. */
  replayed: number;
  /** True when the cursor was older than the replay window: events before the window were not replayed. */
  gap: boolean;
}

export interface Attachment {
  /** Replays what the client missed after `cursor`, then goes live. */
  resume(cursor: Cursor): Promise<ResumeResult>;
  detach(): void;
}

export interface StreamHub {
  attach(client: StreamClient): Attachment;
  /** Hands an event to every process's clients (through the bus). */
  publish(p: Positioned): void;
  /** Connections attached now. */
  size(): number;
  /** Resolves once the finalized feed knows the index's head. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface StreamHubOptions {
  db: Database;
  bus: FeedBus;
  testnet: boolean;
  logger: Logger;
  /** Masterchain blocks a resume may reach back (default 1000). */
  replayBlocks?: number;
  pollMs?: number;
  /** The source's liteserver: `confirmed` events from shard blocks it shows before their commit (confirmed-feed.ts). */
  confirmed?: ConfirmedLite;
}

interface Entry {
  client: StreamClient;
  filter: ClientFilter;
  /** Events held back while the connection replays. */
  held: Positioned[] | null;
  /** Finalized notifications at or before this cursor were given already. */
  through: Cursor | null;
}

const PART: Readonly<Record<string, number>> = {
  transactions: 0,
  account_state_change: 0,
  actions: 1,
  jettons_change: 1,
  trace: 2,
};

export const DEFAULT_REPLAY_BLOCKS = 1000;

export function createStreamHub(opts: StreamHubOptions): StreamHub {
  const replayBlocks = opts.replayBlocks ?? DEFAULT_REPLAY_BLOCKS;
  const entries = new Set<Entry>();

  /** The frames of one event for one connection, minus finalized ones it was given already. */
  function framesFor(e: Entry, p: Positioned): Frame[] {
    const sub = e.client.subscription();
    if (!sub && p.event.kind !== 'trace_invalidated') return [];
    const notes = e.filter.notificationsFor(p.event, sub);
    if (notes.length === 0) return [];
    const frames: Frame[] = [];
    for (const json of notes) {
      if (p.cursor === undefined) {
        frames.push({ json });
        continue;
      }
      const cursor = withPart(p.cursor, PART[String(json.type)] ?? 0);
      if (e.through) {
        const parsed = parseCursor(cursor);
        if (parsed && compareCursors(parsed, e.through) <= 0) continue;
        // The feed is in cursor order: everything after this one is new to the connection too.
        e.through = null;
      }
      frames.push({ json, cursor });
    }
    return frames;
  }

  function deliver(p: Positioned): void {
    for (const e of entries) {
      if (e.held) {
        e.held.push(p);
        continue;
      }
      const frames = framesFor(e, p);
      if (frames.length > 0) e.client.write(frames);
    }
  }

  const wantsEnrichment = () => {
    for (const e of entries) {
      const s = e.client.subscription();
      if (s && (s.includeAddressBook || s.includeMetadata)) return true;
    }
    return false;
  };

  const unsubscribe = opts.bus.subscribe(deliver);
  const feed: LiveFeed = createLiveFeed({
    db: opts.db,
    testnet: opts.testnet,
    logger: opts.logger,
    pollMs: opts.pollMs,
    wantsEnrichment,
    onEvents: (events) => {
      for (const p of events) deliver(p);
    },
  });
  // Delivered here only: every process watches the source itself (no bus), as it reads the index itself.
  const confirmed: ConfirmedFeed | null = opts.confirmed
    ? createConfirmedFeed({
        lite: opts.confirmed,
        db: opts.db,
        logger: opts.logger,
        active: () => entries.size > 0,
        onEvents: (events) => {
          for (const p of events) deliver(p);
        },
      })
    : null;

  return {
    attach(client) {
      const e: Entry = { client, filter: new ClientFilter(), held: null, through: null };
      entries.add(e);
      return {
        async resume(from) {
          e.held = [];
          let replayed = 0;
          let gap = false;
          try {
            e.through = from;
            const head = feed.head();
            if (head !== null && from.mcSeqno <= head) {
              const oldest = Math.max(0, head - replayBlocks + 1);
              gap = from.mcSeqno < oldest;
              const sub = client.subscription();
              const enrich = !!sub && (sub.includeAddressBook || sub.includeMetadata);
              for (let n = Math.max(from.mcSeqno, oldest); n <= head && entries.has(e); n++) {
                for (const p of await blockEvents(opts.db, n, { testnet: opts.testnet, enrich })) {
                  const frames = framesFor(e, p);
                  if (frames.length === 0) continue;
                  replayed += frames.length;
                  client.write(frames);
                  const last = frames.at(-1)?.cursor;
                  const c = last ? parseCursor(last) : null;
                  if (c) e.through = c;
                }
              }
            }
          } finally {
            const held = e.held ?? [];
            e.held = null;
            for (const p of held) {
              const frames = framesFor(e, p);
              if (frames.length > 0) client.write(frames);
            }
          }
          return { replayed, gap };
        },
        detach() {
          entries.delete(e);
        },
      };
    },
    publish(p) {
      opts.bus.publish(p);
    },
    size: () => entries.size,
    ready: () => feed.ready(),
    async close() {
      unsubscribe();
      await confirmed?.close();
      entries.clear();
      await feed.close();
    },
  };
}
