// Bounded, abortable polling for a step's effects.

export interface WaitOptions {
  timeoutMs: number;
  pollMs: number;
  signal: AbortSignal;
}

export type WaitResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Calls `probe` until it returns a value (not undefined), the deadline passes or the signal aborts. A probe that
 * throws (a liteserver hiccup, a block not ready) counts as "not yet"; its last error is part of the reason.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  o: WaitOptions,
): Promise<WaitResult<T>> {
  const deadline = performance.now() + o.timeoutMs;
  let lastError: string | undefined;
  for (;;) {
    if (o.signal.aborted) return { ok: false, reason: `stopped while waiting for ${what}` };
    try {
      const v = await probe();
      if (v !== undefined) return { ok: true, value: v };
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
    }
    if (performance.now() >= deadline) {
      return {
        ok: false,
        reason: `timed out after ${o.timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`,
      };
    }
    await sleep(o.pollMs, o.signal);
  }
}
