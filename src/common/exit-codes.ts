// The commands' exit codes (style guide §6.5): 0 done, 1 failed, 2 bad usage or configuration, 75 retryable
// (EX_TEMPFAIL: a source, database or Redis unreachable; a supervisor runs the command again).
import { ConfigError, isTongateError } from './errors.ts';
import { UsageError } from './options.ts';

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_RETRYABLE = 75;

/** Exit code for an error that ended a command: 2 bad usage or config, 75 retryable, 1 otherwise. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError || e instanceof ConfigError) return EXIT_USAGE;
  if (isTongateError(e) && e.retryable) return EXIT_RETRYABLE;
  return EXIT_FAILED;
}

/** An error's message up to its first line break: what a command prints when it ends on it. */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
