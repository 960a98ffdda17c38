// The job queue interface both back ends implement (style guide §6.6, 2): BullMQ on Redis for
// production, an in-process queue for the embedded default. Callers never look at `kind`.

import type { QueueConfig } from '../common/index.ts';
import type { Log } from '../common/logger.ts';

export type { QueueConfig };

/** Retry and retention policy, identical in both back ends. */
export interface QueuePolicy {
  /** Runs per job including the first (default 8). A non-retryable error ends the job after one. */
  attempts: number;
  /** Exponential backoff: the n-th retry waits backoffMs * 2^(n-1), minus up to `jitter` of it (default 1000). */
  backoffMs: number;
  /** Fraction of each delay taken off at random, 0..1 (default 0.5), so retries of many jobs spread out. */
  jitter: number;
  /** Completed job ids kept (so a re-add within this window is still a no-op); default 10000 ids / 24 h. */
  keepCompleted: { count: number; ageSeconds: number };
  /** Failed jobs kept for inspection (and so `add` does not silently restart them); default 50000 / 7 days. */
  keepFailed: { count: number; ageSeconds: number };
  /**
   * BullMQ only: how long a worker's lock on an active job lasts without renewal, and how often workers
   * look for stalled jobs (a job whose worker died) to hand them to another worker. Defaults 30000 / 15000.
   */
  lockDurationMs: number;
  stalledIntervalMs: number;
  /** BullMQ only: how often a job may stall before it is failed (default 3). */
  maxStalledCount: number;
}

export const DEFAULT_QUEUE_POLICY: QueuePolicy = {
  attempts: 8,
  backoffMs: 1000,
  jitter: 0.5,
  keepCompleted: { count: 10_000, ageSeconds: 24 * 3600 },
  keepFailed: { count: 50_000, ageSeconds: 7 * 24 * 3600 },
  lockDurationMs: 30_000,
  stalledIntervalMs: 15_000,
  maxStalledCount: 3,
};

/** BullMQ only: how the Redis connections come back after an outage (redis-link.ts; defaults there). */
export interface RedisLinkPolicy {
  /** First reconnect delay; it doubles per failed attempt up to maxDelayMs (default 250 / 5000). */
  firstDelayMs: number;
  maxDelayMs: number;
  /** While Redis stays unreachable, a reminder line this often (default 60 000). */
  stillDownEveryMs: number;
  /** How long one connection attempt may take, and so the first connection of a producer (default 5000). */
  connectTimeoutMs: number;
}

export interface QueueOptions {
  policy?: Partial<QueuePolicy>;
  log?: Log;
  /** BullMQ only: reconnect backoff, outage reminders and connect timeout (redis-link.ts; defaults there). */
  redis?: Partial<RedisLinkPolicy>;
}

export interface JobSpec<D> {
  name: string;
  data: D;
  /** Deterministic id: no ':' and never all digits (e.g. mc-48213770). */
  jobId: string;
}

export interface Job<D> {
  id: string;
  name: string;
  data: D;
  /** Runs that already failed before this one (0 on the first run). */
  attemptsMade: number;
}

export type JobHandler<D, R> = (job: Job<D>) => Promise<R>;

export type JobState = 'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'unknown';

export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

export interface ProcessOptions<D, R> {
  /** Jobs run at once by this processor (default 1). */
  concurrency?: number;
  onCompleted?: (job: Job<D>, result: R) => void;
  /** `final` is true when the job will not run again (attempts used up, or a non-retryable error). */
  onFailed?: (job: Job<D>, error: Error, final: boolean) => void;
}

export interface Processor {
  /**
   * Stops taking jobs and waits for the active ones to finish. BullMQ: while Redis is down the connections end
   * instead of waiting for it (a job cut off is handed to another worker as stalled later).
   */
  close(): Promise<void>;
}

export interface JobQueue {
  readonly kind: QueueConfig['kind'];
  /**
   * Adds a job unless one with this jobId exists (waiting, active, delayed, or kept after finishing):
   * then nothing happens. Returns true when the job was added.
   */
  add<D>(name: string, data: D, opts: { jobId: string }): Promise<boolean>;
  /** Adds many jobs at once with the same rule per job; returns how many were new. */
  addBulk<D>(jobs: readonly JobSpec<D>[]): Promise<number>;
  /**
   * Like add, but a job that already finished (completed or failed) and is still kept is started again
   * with fresh attempts. Used to re-queue gaps. Returns true when a job was added or restarted.
   */
  requeue<D>(name: string, data: D, opts: { jobId: string }): Promise<boolean>;
  /** Runs `handler` for jobs named `name`. One processor per name per queue object. */
  process<D, R>(name: string, handler: JobHandler<D, R>, opts?: ProcessOptions<D, R>): Processor;
  getState(name: string, jobId: string): Promise<JobState>;
  /** The failure message of a failed job, if kept. */
  failedReason(name: string, jobId: string): Promise<string | undefined>;
  counts(name: string): Promise<JobCounts>;
  /** Resolves once `name` has nothing waiting, delayed or active (polls on BullMQ). */
  whenIdle(name: string, opts?: { signal?: AbortSignal; pollMs?: number }): Promise<void>;
  /** Removes every job of `name` (tests and resets); active jobs finish but leave nothing behind. */
  obliterate(name: string): Promise<void>;
  /**
   * Checks that the back end can be reached, so a command can fail at start instead of retrying forever: BullMQ
   * connects to Redis within its connect timeout (default 5 s) or fails with TG_QUEUE_UNAVAILABLE (retryable:
   * exit 75 in the CLI). The in-process queue is always there.
   */
  connect(): Promise<void>;
  /**
   * Closes processors (waiting for active jobs; at once while Redis is down), then the connections. Idempotent.
   */
  close(): Promise<void>;
}
