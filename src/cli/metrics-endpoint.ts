// --metrics-port for processes without the API server (tongate work, tongate walk): a bare node:http
// listener that answers GET /metrics with the process's Prometheus registry, GET /healthz with the block
// source's state (for a node-db source also what the node's database covers) and, given the database, the index's
// lags (behind the source, trace assembly, classification), and 404 otherwise.
import { createServer, type Server } from 'node:http';
import type { Registry } from '../common/index.ts';
import type { Queryable } from '../db/index.ts';
import { type PipelineHealth, pipelineHealth, pipelineStalled, registerPipelineGauges } from '../index/health.ts';
import type { OptionSpec } from './command.ts';

export const metricsOptions: Record<string, OptionSpec> = {
  'metrics-port': {
    type: 'string',
    value: 'PORT',
    description: 'serve Prometheus metrics at http://HOST:PORT/metrics and health at /healthz (off by default)',
  },
  'metrics-host': {
    type: 'string',
    value: 'HOST',
    description: 'interface of the metrics listener',
    default: '127.0.0.1',
  },
};

/**
 * The /healthz body. `ok` is false (status 503) when the source cannot say where its head is, the database cannot
 * be read, or trace assembly waits on a masterchain block that is not indexed (src/index/health.ts).
 */
export interface Health {
  ok: boolean;
  source: {
    name: string;
    /** The source's masterchain head; null when asking failed. */
    head: number | null;
    /** What a node-db source's database holds (blocks, states, garbage-collected packages). */
    coverage?: unknown;
    error?: string;
  };
  /** With a database: indexed range, lag behind the source's head, trace assembly and classification lag. */
  index?: PipelineHealth & { lag_blocks: number | null };
  error?: string;
}

/** What /healthz reports about: the process's block source, its coverage when it has one, the index database. */
export interface HealthSource {
  name: string;
  head(): Promise<number>;
  coverage?: () => Promise<unknown>;
  /** The index database: /healthz adds the pipeline's lags and /metrics their gauges. */
  db?: Queryable;
  /** Seconds a hole may hold up assembly before ok=false (default ASSEMBLY_STALL_GRACE_SECONDS). */
  assemblyGraceSeconds?: number;
}

/** Asks the source; never throws (a failure becomes ok: false with the first line of the error). */
export async function healthOf(source: HealthSource): Promise<Health> {
  const line = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  const out: Health = { ok: true, source: { name: source.name, head: null } };
  try {
    out.source.head = await source.head();
  } catch (e) {
    out.ok = false;
    out.source.error = line(e);
  }
  if (source.coverage) {
    try {
      out.source.coverage = await source.coverage();
    } catch (e) {
      out.ok = false;
      out.source.error ??= line(e);
    }
  }
  if (source.db) {
    try {
      const p = await pipelineHealth(source.db, { graceSeconds: source.assemblyGraceSeconds });
      const head = out.source.head;
      out.index = {
        ...p,
        lag_blocks: head !== null && p.indexed_mc_seqno !== null ? Math.max(0, head - p.indexed_mc_seqno) : null,
      };
      if (pipelineStalled(p)) out.ok = false;
    } catch (e) {
      out.ok = false;
      out.error = `database: ${line(e)}`;
    }
  }
  return out;
}

/** JSON with bigints as decimal strings and buffers (hashes in block ids) as hex. */
const json = (v: unknown) =>
  JSON.stringify(v, function (this: Record<string, unknown>, k, x) {
    const raw = this[k]; // before toJSON: a Buffer arrives here as {type, data}
    return typeof x === 'bigint' ? x.toString() : Buffer.isBuffer(raw) ? raw.toString('hex') : x;
  });

export async function serveMetrics(
  registry: Registry,
  port: number,
  host: string,
  health?: HealthSource,
): Promise<Server> {
  if (health?.db) registerPipelineGauges(registry, health.db);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/healthz' && health) {
      healthOf(health).then((h) =>
        res.writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' }).end(`${json(h)}\n`),
      );
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: try GET /metrics${health ? ' or GET /healthz' : ''}\n`);
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${e.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
