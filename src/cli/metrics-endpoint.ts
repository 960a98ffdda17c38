// --metrics-port for processes without the API server (tongate work, tongate walk): a bare node:http
// listener that answers GET /metrics with the process's Prometheus registry and 404 otherwise.
import { createServer, type Server } from 'node:http';
import type { Registry } from '../common/index.ts';
import type { OptionSpec } from './command.ts';

export const metricsOptions: Record<string, OptionSpec> = {
  'metrics-port': {
    type: 'string',
    value: 'PORT',
    description: 'serve Prometheus metrics at http://HOST:PORT/metrics (off by default)',
  },
  'metrics-host': {
    type: 'string',
    value: 'HOST',
    description: 'interface of the metrics listener',
    default: '127.0.0.1',
  },
};

export async function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try GET /metrics\n');
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
