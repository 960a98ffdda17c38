// Backfill progress: on a TTY one bar redrawn in place (blocks done/total, tx/s, ETA); otherwise, or with
// --no-progress, a log line every few seconds. Rates are measured over a sliding window of samples.

export interface ProgressSample {
  blocks: number;
  transactions: number;
}

export interface ProgressView {
  update(s: ProgressSample): void;
  /** Draws the final state and ends the bar's line. */
  done(s: ProgressSample): void;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(r).padStart(2, '0')}s` : `${r}s`;
}

export interface Rates {
  blocksPerSecond: number;
  txPerSecond: number;
  etaSeconds: number;
}

/** Rates over the samples of the last `windowMs`. */
export function createRateMeter(total: number, windowMs = 30_000, now: () => number = Date.now) {
  const samples: Array<{ t: number } & ProgressSample> = [];
  return (s: ProgressSample): Rates => {
    const t = now();
    samples.push({ t, ...s });
    while (samples.length > 2 && t - (samples[0] as { t: number }).t > windowMs) samples.shift();
    const first = samples[0] as { t: number } & ProgressSample;
    const dt = (t - first.t) / 1000;
    const blocksPerSecond = dt > 0 ? (s.blocks - first.blocks) / dt : 0;
    const txPerSecond = dt > 0 ? (s.transactions - first.transactions) / dt : 0;
    const etaSeconds = blocksPerSecond > 0 ? (total - s.blocks) / blocksPerSecond : Number.POSITIVE_INFINITY;
    return { blocksPerSecond, txPerSecond, etaSeconds };
  };
}

export function renderBar(total: number, s: ProgressSample, r: Rates, width = 30): string {
  const frac = total > 0 ? Math.min(1, s.blocks / total) : 1;
  const filled = Math.round(frac * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${s.blocks}/${total} blocks  ${r.txPerSecond.toFixed(1)} tx/s  ETA ${s.blocks >= total ? '0s' : formatDuration(r.etaSeconds)}`;
}

export function createProgressView(opts: {
  total: number;
  tty: boolean;
  write: (chunk: string) => void;
  log: (msg: string, fields: Record<string, unknown>) => void;
  logEveryMs?: number;
}): ProgressView {
  const meter = createRateMeter(opts.total);
  const logEveryMs = opts.logEveryMs ?? 5000;
  let lastLog = 0;
  const fields = (s: ProgressSample, r: Rates) => ({
    blocks: s.blocks,
    total: opts.total,
    txPerSecond: Number(r.txPerSecond.toFixed(1)),
    blocksPerSecond: Number(r.blocksPerSecond.toFixed(2)),
    etaSeconds: Number.isFinite(r.etaSeconds) ? Math.round(r.etaSeconds) : null,
  });
  return {
    update(s) {
      const r = meter(s);
      if (opts.tty) {
        opts.write(`\r${renderBar(opts.total, s, r)}\x1b[K`);
      } else if (Date.now() - lastLog >= logEveryMs) {
        lastLog = Date.now();
        opts.log('Updated backfill progress', fields(s, r));
      }
    },
    done(s) {
      const r = meter(s);
      if (opts.tty) opts.write(`\r${renderBar(opts.total, s, r)}\x1b[K\n`);
      else opts.log('Updated backfill progress', fields(s, r));
    },
  };
}
