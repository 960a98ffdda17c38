// Queues for tests: the in-process one, or BullMQ on the real Redis (TONGATE_TEST_REDIS_URL, default
// redis://127.0.0.1:6379) under a key prefix of its own, whose keys are deleted by cleanup.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createQueue, type JobQueue, type QueueConfig, type QueueOptions } from '../../src/queue/index.ts';

export const TEST_REDIS_URL = process.env.TONGATE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export const QUEUE_KINDS = ['local', 'bullmq'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

export function uniquePrefix(): string {
  return `tgtest-${randomBytes(6).toString('hex')}`;
}

export function queueConfig(kind: QueueKind, prefix = uniquePrefix()): QueueConfig {
  return kind === 'local' ? { kind: 'local' } : { kind: 'bullmq', url: TEST_REDIS_URL, prefix };
}

/** Deletes every Redis key under `prefix`. */
export async function deletePrefix(prefix: string): Promise<void> {
  const r = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    await r.quit();
  }
}

export interface TestQueue {
  queue: JobQueue;
  prefix: string;
  /** Another queue object on the same back end and prefix (a second process, in effect). */
  another(options?: QueueOptions): JobQueue;
  cleanup(): Promise<void>;
}

export function setupQueue(kind: QueueKind, options: QueueOptions = {}): TestQueue {
  const prefix = uniquePrefix();
  const cfg = queueConfig(kind, prefix);
  const queue = createQueue(cfg, options);
  const others: JobQueue[] = [];
  return {
    queue,
    prefix,
    another(o = options) {
      const q = createQueue(cfg, o);
      others.push(q);
      return q;
    },
    async cleanup() {
      await Promise.all([queue, ...others].map((q) => q.close()));
      if (kind === 'bullmq') await deletePrefix(prefix);
    },
  };
}
