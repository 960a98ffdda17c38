// Counters and histograms of the pool, kept as plain numbers and handed out as a snapshot whose shape maps
// one-to-one onto Prometheus families (names follow style.md §6.3: tongate_lite_<thing>_<unit>).

export type MetricLabels = Record<string, string>;

export interface MetricFamily<S> {
  name: string;
  help: string;
  samples: S[];
}

export interface ValueSample {
  labels: MetricLabels;
  value: number;
}

export interface HistogramSample {
  labels: MetricLabels;
  /** Upper bounds in seconds, ascending; the implicit last bucket is +Inf. */
  buckets: number[];
  /** Cumulative counts per bound (Prometheus `le` semantics), same length as `buckets`. */
  counts: number[];
  sum: number;
  count: number;
}

export interface LitePoolMetrics {
  counters: MetricFamily<ValueSample>[];
  gauges: MetricFamily<ValueSample>[];
  histograms: MetricFamily<HistogramSample>[];
}

export const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function keyOf(labels: MetricLabels): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface Counter {
  inc(labels: MetricLabels, by?: number): void;
  family(): MetricFamily<ValueSample>;
}

export function createCounter(name: string, help: string): Counter {
  const values = new Map<string, ValueSample>();
  return {
    inc(labels, by = 1) {
      const k = keyOf(labels);
      const s = values.get(k);
      if (s) s.value += by;
      else values.set(k, { labels: { ...labels }, value: by });
    },
    family: () => ({
      name,
      help,
      samples: [...values.values()].map((s) => ({ labels: { ...s.labels }, value: s.value })),
    }),
  };
}

export interface Histogram {
  observe(labels: MetricLabels, seconds: number): void;
  family(): MetricFamily<HistogramSample>;
}

export function createHistogram(name: string, help: string, buckets = LATENCY_BUCKETS_SECONDS): Histogram {
  const values = new Map<string, { labels: MetricLabels; counts: number[]; sum: number; count: number }>();
  return {
    observe(labels, seconds) {
      const k = keyOf(labels);
      let s = values.get(k);
      if (!s) {
        s = { labels: { ...labels }, counts: buckets.map(() => 0), sum: 0, count: 0 };
        values.set(k, s);
      }
      for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) s.counts[i]!++;
      s.sum += seconds;
      s.count++;
    },
    family: () => ({
      name,
      help,
      samples: [...values.values()].map((s) => ({
        labels: { ...s.labels },
        buckets: [...buckets],
        counts: [...s.counts],
        sum: s.sum,
        count: s.count,
      })),
    }),
  };
}
