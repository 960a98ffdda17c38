// The long-running commands' shutdown: the first SIGINT or SIGTERM asks them to finish (close in order: what was
// opened last closes first), a second one or the grace period running out exits at once with 75.
import { EXIT_RETRYABLE } from './exit-codes.ts';
import type { Log } from './logger.ts';

/**
 * An AbortSignal fired by the first SIGINT or SIGTERM; a second signal, or the grace period running out
 * after the first, exits at once (a job cut off is reclaimed as stalled; its checkpoint makes a re-run safe).
 */
export function onShutdownSignal(log: Log, graceMs = 30_000): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const handler = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) {
      log('warn', 'Exited on a second signal', { signal: sig });
      process.exit(EXIT_RETRYABLE);
    }
    log('info', 'Received shutdown signal, finishing active jobs', { signal: sig, graceMs });
    ac.abort();
    timer = setTimeout(() => {
      log('warn', 'Exited after the shutdown grace period', { graceMs });
      process.exit(EXIT_RETRYABLE);
    }, graceMs);
    timer.unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      if (timer) clearTimeout(timer);
    },
  };
}
