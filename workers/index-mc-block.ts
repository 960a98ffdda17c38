// The index-mc-block worker: a thin queue processor around indexMcBlock (src/index), the one pipeline. After each
// block it advances the trace assembler (in masterchain order, over the database) and queues a classify-mc-block
// job for every block in which traces became final; the same processor set runs those jobs, so classification
// never holds up block indexing. `tongate work` and embedded `tongate walk` start it in their own process through
// startIndexWorker; src/cli/bare-worker.ts runs `tongate work` as a bare worker process (node --import tsx
// src/cli/bare-worker.ts [work options]). Nothing here imports the CLI: the CLI imports this.
import { type ClassifyResult, classifyMcBlock } from '../src/index/actions/index.ts';
import { type IndexDeps, type IndexMetrics, type IndexResult, indexMcBlock } from '../src/index/index.ts';
import { CLASSIFY_MC_BLOCK, classifyJob, INDEX_MC_BLOCK, type IndexMcBlockJob } from '../src/index/plan/index.ts';
import { assembleTraces } from '../src/index/traces/index.ts';
import type { JobQueue, Processor } from '../src/queue/index.ts';

export interface IndexWorkerOptions extends IndexDeps {
  queue: JobQueue;
  /** Jobs at once (default 1): fetching is I/O bound, decoding is CPU bound; prefer more processes. */
  concurrency?: number;
  onIndexed?: (result: IndexResult) => void;
  onFailed?: (mcSeqno: number, error: Error, final: boolean) => void;
  /** Called after each classify job. */
  onClassified?: (result: ClassifyResult & { mcSeqno: number }) => void;
  metrics?: IndexMetrics;
  /** Assemble traces and classify them (default true). */
  traces?: boolean;
}

/** Processes index-mc-block (and classify-mc-block) jobs from `queue` until the returned processor is closed. */
export function startIndexWorker(opts: IndexWorkerOptions): Processor {
  const { queue, concurrency, onIndexed, onFailed, onClassified, metrics, traces, ...deps } = opts;
  const withTraces = traces !== false;
  const started = new Map<number, number>();
  // Assembly runs after every block's job, skipped or not, so a restart or a lost job resumes it. A failure fails
  // the job (retried: the block is already indexed, only assembly runs again). A classify job lost with the queue
  // is covered by the next one's sweep of final traces left unclassified.
  const assemble = () =>
    assembleTraces(deps.db, {
      ...(deps.log ? { log: deps.log } : {}),
      onAssembled: async (b) => {
        if (b.finished === 0) return;
        const j = classifyJob(b.mcSeqno);
        await queue.add(j.name, j.data, { jobId: j.jobId });
      },
    });
  const indexing = queue.process<IndexMcBlockJob, IndexResult>(
    INDEX_MC_BLOCK,
    async (job) => {
      started.set(job.data.mcSeqno, performance.now());
      const result = await indexMcBlock(job.data.mcSeqno, deps);
      if (withTraces) await assemble();
      return result;
    },
    {
      concurrency: concurrency ?? 1,
      onCompleted: (_job, result) => {
        const t0 = started.get(result.mcSeqno);
        started.delete(result.mcSeqno);
        metrics?.indexed(result, t0 === undefined ? 0 : (performance.now() - t0) / 1000);
        onIndexed?.(result);
      },
      onFailed: (job, error, final) => {
        started.delete(job.data.mcSeqno);
        metrics?.failed(final);
        onFailed?.(job.data.mcSeqno, error, final);
      },
    },
  );
  if (!withTraces) return indexing;
  const classifying = queue.process<IndexMcBlockJob, ClassifyResult & { mcSeqno: number }>(
    CLASSIFY_MC_BLOCK,
    (job) => classifyMcBlock(job.data.mcSeqno, { db: deps.db, log: deps.log }),
    {
      concurrency: 1,
      onCompleted: (_job, r) => {
        metrics?.classified(r);
        onClassified?.(r);
      },
      onFailed: (job, error, final) =>
        deps.log?.(final ? 'error' : 'warn', 'Classification failed', {
          mcSeqno: job.data.mcSeqno,
          error: error.message,
          final,
        }),
    },
  );
  return {
    async close() {
      await Promise.all([indexing.close(), classifying.close()]);
    },
  };
}
