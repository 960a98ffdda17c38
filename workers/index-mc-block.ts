// The index-mc-block worker: a thin queue processor around indexMcBlock (src/index), the one pipeline.
// `tongate work` and embedded `tongate walk` start it in their own process through startIndexWorker; run
// this file directly (node --import tsx workers/index-mc-block.ts [work options]) to get a bare worker
// process with the same flags as `tongate work`.
import { pathToFileURL } from 'node:url';
import { type IndexDeps, type IndexMetrics, type IndexResult, indexMcBlock } from '../src/index/index.ts';
import { INDEX_MC_BLOCK, type IndexMcBlockJob } from '../src/index/plan/index.ts';
import type { JobQueue, Processor } from '../src/queue/index.ts';

export interface IndexWorkerOptions extends IndexDeps {
  queue: JobQueue;
  /** Jobs at once (default 1): fetching is I/O bound, decoding is CPU bound; prefer more processes. */
  concurrency?: number;
  onIndexed?: (result: IndexResult) => void;
  onFailed?: (mcSeqno: number, error: Error, final: boolean) => void;
  metrics?: IndexMetrics;
}

/** Processes index-mc-block jobs from `queue` until the returned processor is closed. */
export function startIndexWorker(opts: IndexWorkerOptions): Processor {
  const { queue, concurrency, onIndexed, onFailed, metrics, ...deps } = opts;
  const started = new Map<number, number>();
  return queue.process<IndexMcBlockJob, IndexResult>(
    INDEX_MC_BLOCK,
    (job) => {
      started.set(job.data.mcSeqno, performance.now());
      return indexMcBlock(job.data.mcSeqno, deps);
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
}

// Run directly: `tongate work` with the same flags. No top-level await: the CLI imports this module, so
// awaiting the CLI here would wait on itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void import('../src/cli/main.ts')
    .then(({ main }) => main(['work', ...process.argv.slice(2)]))
    .then((code) => {
      process.exitCode = code;
    });
}
