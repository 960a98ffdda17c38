// The job queue part: createQueue() over BullMQ (Redis) or an in-process queue, one interface; openQueueAdmin()
// to inspect and repair the shared (BullMQ) queue from outside.
import { createBullmqQueue } from './bullmq.ts';
import { createLocalQueue } from './local.ts';
import type { JobQueue, QueueConfig, QueueOptions } from './types.ts';

export {
  type DrainResult,
  type FailedByReason,
  type FailedGroup,
  openQueueAdmin,
  type QueueAdmin,
  type QueueSummary,
} from './admin.ts';
export { DEFAULT_QUEUE_PREFIX } from './bullmq.ts';
export { backoffDelay, describeError, isRetryableError } from './policy.ts';
export {
  DEFAULT_REDIS_LINK_POLICY,
  ENV_REDIS_BACKOFF,
  reconnectDelay,
} from './redis-link.ts';
export {
  DEFAULT_QUEUE_POLICY,
  type Job,
  type JobCounts,
  type JobHandler,
  type JobQueue,
  type JobSpec,
  type JobState,
  type ProcessOptions,
  type Processor,
  type QueueConfig,
  type QueueOptions,
  type QueuePolicy,
  type RedisLinkPolicy,
} from './types.ts';

/** The one factory that knows which back end runs (style guide §6.6, 2). */
export function createQueue(cfg: QueueConfig, options: QueueOptions = {}): JobQueue {
  return cfg.kind === 'bullmq' ? createBullmqQueue(cfg, options) : createLocalQueue(options);
}
