// Prometheus metrics: one prom-client registry per process (the best-kept exporter for Node), shared by
// the indexer, the queue and the HTTP APIs, served at /metrics by the API server or by --metrics-port.
// Parts that keep their own counters (the liteserver pool) hand snapshots to renderFamilies().
import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export function createMetricsRegistry(opts: { defaults?: boolean } = {}): Registry {
  const registry = new Registry();
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'tongate_process_' });
  return registry;
}

interface Sample {
  labels: Record<string, string>;
  value?: number;
  buckets?: number[];
  counts?: number[];
  sum?: number;
  count?: number;
}

function labelText(labels: Record<string, string>, extra?: [string, string]): string {
  const all = Object.entries(labels);
  if (extra) all.push(extra);
  if (all.length === 0) return '';
  const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
  return `{${all.map(([k, v]) => `${k}="${esc(v)}"`).join(',')}}`;
}

/** Prometheus text for families kept outside prom-client (counters, gauges, histograms by snapshot). */
export function renderFamilies(
  families: Array<{ name: string; help: string; type: 'counter' | 'gauge' | 'histogram'; samples: Sample[] }>,
): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${f.help.replace(/\n/g, ' ')}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      if (f.type !== 'histogram') {
        out.push(`${f.name}${labelText(s.labels)} ${s.value ?? 0}`);
        continue;
      }
      const buckets = s.buckets ?? [];
      buckets.forEach((le, i) => {
        out.push(`${f.name}_bucket${labelText(s.labels, ['le', String(le)])} ${s.counts?.[i] ?? 0}`);
      });
      out.push(`${f.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count ?? 0}`);
      out.push(
        `${f.name}_sum${labelText(s.labels)} ${s.sum ?? 0}`,
        `${f.name}_count${labelText(s.labels)} ${s.count ?? 0}`,
      );
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
