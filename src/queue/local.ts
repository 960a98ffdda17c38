// The in-process queue for the embedded default: jobs live in memory keyed by jobId, so adding an id
// that exists (or finished recently) is a no-op exactly as on BullMQ, with the same attempts, backoff,
// retention and non-retryable rule. Nothing survives the process: the database checkpoint is the
// durable record, and the planner re-plans from it on the next start.
import { QueueError } from '../common/index.ts';
import { backoffDelay, checkJobId, checkJobName, describeError, isRetryableError, resolvePolicy } from './policy.ts';
import type {
  Job,
  JobCounts,
  JobHandler,
  JobQueue,
  JobSpec,
  JobState,
  ProcessOptions,
  Processor,
  QueueOptions,
} from './types.ts';

interface Entry {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  attemptsMade: number;
  failedReason?: string;
  finishedAt?: number;
  timer?: NodeJS.Timeout;
}

interface Lane {
  jobs: Map<string, Entry>;
  waiting: string[];
  finished: string[];
  active: Set<Promise<void>>;
  processor?: {
    handler: JobHandler<unknown, unknown>;
    opts: ProcessOptions<unknown, unknown>;
    concurrency: number;
    closing: boolean;
  };
  idleWaiters: Set<() => void>;
}

export function createLocalQueue(options: QueueOptions = {}): JobQueue {
  const policy = resolvePolicy(options.policy);
  const log = options.log ?? (() => {});
  const lanes = new Map<string, Lane>();
  let closed = false;

  const lane = (name: string): Lane => {
    checkJobName(name);
    let l = lanes.get(name);
    if (!l) {
      l = { jobs: new Map(), waiting: [], finished: [], active: new Set(), idleWaiters: new Set() };
      lanes.set(name, l);
    }
    return l;
  };

  const checkOpen = (what: string) => {
    if (closed) throw new QueueError('TG_QUEUE_USAGE', `queue.${what}: the queue was closed`);
  };

  const isIdle = (l: Lane) => {
    for (const e of l.jobs.values()) {
      if (e.state === 'waiting' || e.state === 'active' || e.state === 'delayed') return false;
    }
    return true;
  };

  const notifyIdle = (l: Lane) => {
    if (l.idleWaiters.size === 0 || !isIdle(l)) return;
    for (const w of [...l.idleWaiters]) w();
  };

  const trimFinished = (l: Lane) => {
    const now = Date.now();
    while (l.finished.length > 0) {
      const id = l.finished[0] as string;
      const e = l.jobs.get(id);
      if (!e || (e.state !== 'completed' && e.state !== 'failed')) {
        l.finished.shift();
        continue;
      }
      const keep = e.state === 'completed' ? policy.keepCompleted : policy.keepFailed;
      const count = l.finished.filter((x) => l.jobs.get(x)?.state === e.state).length;
      if (count > keep.count || now - (e.finishedAt ?? now) > keep.ageSeconds * 1000) {
        l.finished.shift();
        l.jobs.delete(id);
        continue;
      }
      break;
    }
  };

  const finish = (l: Lane, e: Entry, state: 'completed' | 'failed', reason?: string) => {
    e.state = state;
    e.finishedAt = Date.now();
    if (reason !== undefined) e.failedReason = reason;
    l.finished.push(e.id);
    trimFinished(l);
  };

  const pump = (l: Lane) => {
    const p = l.processor;
    if (!p || p.closing || closed) return;
    while (l.active.size < p.concurrency && l.waiting.length > 0) {
      const id = l.waiting.shift() as string;
      const e = l.jobs.get(id);
      if (e?.state !== 'waiting') continue;
      e.state = 'active';
      const job: Job<unknown> = { id: e.id, name: e.name, data: e.data, attemptsMade: e.attemptsMade };
      const run = (async () => {
        try {
          const result = await p.handler(job);
          finish(l, e, 'completed');
          p.opts.onCompleted?.(job, result);
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          e.attemptsMade += 1;
          const final = !isRetryableError(err) || e.attemptsMade >= policy.attempts;
          if (final) {
            finish(l, e, 'failed', describeError(err));
          } else {
            e.state = 'delayed';
            const delay = backoffDelay(e.attemptsMade, policy);
            e.timer = setTimeout(() => {
              e.timer = undefined;
              if (e.state !== 'delayed') return;
              e.state = 'waiting';
              l.waiting.push(e.id);
              pump(l);
            }, delay);
          }
          log(final ? 'error' : 'warn', final ? 'Failed job' : 'Failed job attempt, will retry', {
            queue: e.name,
            jobId: e.id,
            attemptsMade: e.attemptsMade,
            error: describeError(err),
          });
          p.opts.onFailed?.(job, error, final);
        }
      })();
      l.active.add(run);
      void run.finally(() => {
        l.active.delete(run);
        pump(l);
        notifyIdle(l);
      });
    }
  };

  const addOne = (name: string, data: unknown, jobId: string, restartFinished: boolean): boolean => {
    checkJobId(jobId);
    const l = lane(name);
    const existing = l.jobs.get(jobId);
    if (existing) {
      if (!restartFinished || (existing.state !== 'completed' && existing.state !== 'failed')) return false;
      l.finished = l.finished.filter((x) => x !== jobId);
    }
    l.jobs.set(jobId, { id: jobId, name, data, state: 'waiting', attemptsMade: 0 });
    l.waiting.push(jobId);
    return true;
  };

  const closeLane = async (l: Lane) => {
    if (l.processor) l.processor.closing = true;
    await Promise.allSettled([...l.active]);
  };

  return {
    kind: 'local',
    async add(name, data, { jobId }) {
      checkOpen('add');
      const added = addOne(name, data, jobId, false);
      pump(lane(name));
      return added;
    },
    async addBulk<D>(jobs: readonly JobSpec<D>[]) {
      checkOpen('addBulk');
      for (const j of jobs) {
        checkJobName(j.name);
        checkJobId(j.jobId);
      }
      let n = 0;
      const touched = new Set<string>();
      for (const j of jobs) {
        if (addOne(j.name, j.data, j.jobId, false)) n += 1;
        touched.add(j.name);
      }
      for (const name of touched) pump(lane(name));
      return n;
    },
    async requeue(name, data, { jobId }) {
      checkOpen('requeue');
      const added = addOne(name, data, jobId, true);
      pump(lane(name));
      return added;
    },
    process<D, R>(name: string, handler: JobHandler<D, R>, opts: ProcessOptions<D, R> = {}): Processor {
      checkOpen('process');
      const l = lane(name);
      if (l.processor && !l.processor.closing) {
        throw new QueueError('TG_QUEUE_USAGE', `queue.process: '${name}' already has a processor`);
      }
      const concurrency = opts.concurrency ?? 1;
      if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new QueueError('TG_QUEUE_USAGE', `concurrency must be a positive integer, got ${concurrency}`);
      }
      const p = {
        handler: handler as JobHandler<unknown, unknown>,
        opts: opts as ProcessOptions<unknown, unknown>,
        concurrency,
        closing: false,
      };
      l.processor = p;
      pump(l);
      return {
        async close() {
          p.closing = true;
          await Promise.allSettled([...l.active]);
        },
      };
    },
    async getState(name, jobId) {
      return lane(name).jobs.get(jobId)?.state ?? 'unknown';
    },
    async failedReason(name, jobId) {
      const e = lane(name).jobs.get(jobId);
      return e?.state === 'failed' ? e.failedReason : undefined;
    },
    async counts(name): Promise<JobCounts> {
      const c: JobCounts = { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 };
      for (const e of lane(name).jobs.values()) {
        if (e.state !== 'unknown') c[e.state] += 1;
      }
      return c;
    },
    whenIdle(name, opts = {}) {
      const l = lane(name);
      return new Promise<void>((resolve, reject) => {
        if (isIdle(l)) return resolve();
        const onAbort = () => {
          l.idleWaiters.delete(done);
          reject(opts.signal?.reason ?? new Error('aborted'));
        };
        const done = () => {
          l.idleWaiters.delete(done);
          opts.signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        if (opts.signal?.aborted) return onAbort();
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        l.idleWaiters.add(done);
      });
    },
    async obliterate(name) {
      const l = lane(name);
      for (const e of l.jobs.values()) if (e.timer) clearTimeout(e.timer);
      l.jobs.clear();
      l.waiting = [];
      l.finished = [];
      notifyIdle(l);
    },
    async connect() {
      checkOpen('connect');
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...lanes.values()].map(closeLane));
      for (const l of lanes.values()) {
        for (const e of l.jobs.values()) {
          if (e.timer) clearTimeout(e.timer);
          e.timer = undefined;
        }
      }
    },
  };
}
