// The loop both streaming feeds run: one poll at a time, the next pollMs after the last ended; a failing source is
// said once when it starts failing and once when it answers again, not at every poll.
import type { Logger } from 'pino';

export interface PollLoop {
  /** Stops polling and resolves once the poll in progress has ended. */
  close(): Promise<void>;
}

export function startPollLoop(
  poll: () => Promise<void>,
  opts: { pollMs: number; logger: Logger; failing: string; back: string },
): PollLoop {
  let closed = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = poll()
      .then(() => {
        if (failing) opts.logger.warn(opts.back);
        failing = false;
      })
      .catch((e: Error) => {
        if (!failing) opts.logger.warn({ err: e.message }, opts.failing);
        failing = true;
      })
      .finally(() => {
        if (!closed) timer = setTimeout(tick, opts.pollMs);
      });
  };
  tick();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
