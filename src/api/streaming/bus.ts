// The feed every API process shares: events one process produces (pending traces it emulated, invalidations of
// those that expired) reach every process's clients. Embedded mode passes them in memory; with Redis they go through
// one pub/sub channel, so any number of `tongate serve` processes stream the same events. Pub/sub keeps nothing: an
// event published while a process is cut off from Redis is lost to that process's clients (pending events only;
// finalized ones each process reads from the index, and clients resume those by cursor).
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Positioned } from './events.ts';

export interface FeedBus {
  publish(p: Positioned): void;
  /** Calls `fn` with every event published by any process (this one included); returns the unsubscribe. */
  subscribe(fn: (p: Positioned) => void): () => void;
  close(): Promise<void>;
}

export function createMemoryBus(): FeedBus {
  const subs = new Set<(p: Positioned) => void>();
  return {
    publish(p) {
      // Delivered on a later tick, as through Redis: a producer never runs its consumers' code inside its own call.
      queueMicrotask(() => {
        for (const fn of subs) fn(p);
      });
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    async close() {
      subs.clear();
    },
  };
}

export const STREAM_CHANNEL = 'tongate:streaming:v2';
/** Environment variable naming another channel: API processes that should not share events (tests) on one Redis. */
export const ENV_STREAM_CHANNEL = 'TONGATE_STREAM_CHANNEL';

export function createRedisBus(url: string, opts: { logger: Logger; channel?: string }): FeedBus {
  const channel = opts.channel ?? STREAM_CHANNEL;
  const log = opts.logger;
  const pub = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1000 });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  const subs = new Set<(p: Positioned) => void>();
  // One line per change of state, not one per failed publish.
  let down = false;
  const lost = (e: Error) => {
    if (down) return;
    down = true;
    log.warn(
      { err: e.message },
      'Streaming feed lost Redis; pending events of other processes are missed until it is back',
    );
  };
  const back = () => {
    if (!down) return;
    down = false;
    log.warn('Streaming feed reached Redis again');
  };
  pub.on('error', lost);
  sub.on('error', lost);
  sub.on('ready', back);
  void sub.subscribe(channel).catch(lost);
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let p: Positioned;
    try {
      p = JSON.parse(text) as Positioned;
    } catch {
      return;
    }
    for (const fn of subs) fn(p);
  });
  return {
    publish(p) {
      pub.publish(channel, JSON.stringify(p)).then(back, lost);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    async close() {
      subs.clear();
      pub.disconnect();
      sub.disconnect();
    },
  };
}
