// Waiting for something a test cannot be told about (a log line, a row, a server's state): poll a probe until
// it answers, or fail naming what was awaited.

export interface UntilOptions {
  /** Gives up after this long (default 30 s). */
  timeoutMs?: number;
  /** Polls this often (default 50 ms). */
  stepMs?: number;
  /** A probe that throws means "not yet" (a server still starting, a connection refused) rather than a failure. */
  ignoreErrors?: boolean;
}

/** What a probe answers once it is done: anything but undefined, null, false, 0 or ''. */
export type Found<T> = Exclude<T, undefined | null | false | 0 | ''>;

/**
 * Polls `probe` until it returns a truthy value, and resolves with that value; throws
 * `timed out waiting for <what>` once `timeoutMs` (or the number given instead of options) has passed. A probe that
 * throws fails the wait at once unless `ignoreErrors`.
 */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: UntilOptions | number = {},
): Promise<Found<T>> {
  const {
    timeoutMs = 30_000,
    stepMs = 50,
    ignoreErrors = false,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = ignoreErrors
      ? await Promise.resolve()
          .then(probe)
          .catch(() => undefined)
      : await probe();
    if (v) return v as Found<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
