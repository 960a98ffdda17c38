// What both back ends share: job id rules, the retry classification and the backoff formula.
import { QueueError } from '../common/index.ts';
import { DEFAULT_QUEUE_POLICY, type QueuePolicy } from './types.ts';

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** BullMQ's rule for custom ids (no ':' and not all digits), checked in both back ends. */
export function checkJobId(jobId: string): void {
  if (jobId === '' || jobId.includes(':') || /^\d+$/.test(jobId)) {
    throw new QueueError(
      'TG_QUEUE_USAGE',
      `job id '${jobId}' is not usable: expected no ':' and not all digits (e.g. mc-123)`,
      {
        details: { jobId },
      },
    );
  }
}

export function checkJobName(name: string): void {
  if (!NAME.test(name)) {
    throw new QueueError('TG_QUEUE_USAGE', `job name '${name}' is not kebab-case (e.g. index-mc-block)`, {
      details: { name },
    });
  }
}

export function resolvePolicy(p: Partial<QueuePolicy> | undefined): QueuePolicy {
  const policy = { ...DEFAULT_QUEUE_POLICY, ...p };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) {
    throw new QueueError('TG_QUEUE_USAGE', `attempts must be a positive integer, got ${policy.attempts}`);
  }
  if (policy.jitter < 0 || policy.jitter > 1) {
    throw new QueueError('TG_QUEUE_USAGE', `jitter must be within 0..1, got ${policy.jitter}`);
  }
  return policy;
}

/**
 * Whether another attempt may succeed. An error that says `retryable: false` (a TongateError, or its
 * serialized form after crossing a process) is final; compared by property, never by instanceof.
 * Anything else (plain errors, crashes) is retried until attempts run out.
 */
export function isRetryableError(e: unknown): boolean {
  if (typeof e === 'object' && e !== null && 'retryable' in e && 'code' in e) {
    return (e as { retryable: unknown }).retryable !== false;
  }
  return true;
}

/** One line for logs and failed-job reasons: the code first when there is one. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && !e.message.startsWith(code) ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

/** The delay before retry number `retry` (1 = first retry): BullMQ's exponential formula with jitter. */
export function backoffDelay(retry: number, policy: QueuePolicy, random: () => number = Math.random): number {
  const raw = policy.backoffMs * 2 ** (retry - 1);
  return Math.round(raw * (1 - policy.jitter * random()));
}
