// A tiny HTTP endpoint beside the liteserver: GET /global.config.json (what clients point at, as MyLocalTon serves
// its config) and GET /healthz (the head the node has published). Everything else is 404.
import { createServer, type Server } from 'node:http';

export interface HttpEndpoint {
  listen(): Promise<number>;
  close(): Promise<void>;
}

export interface HttpEndpointOptions {
  host: string;
  port: number;
  globalConfig: () => string;
  health: () => Record<string, unknown>;
}

export function createHttpEndpoint(o: HttpEndpointOptions): HttpEndpoint {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(405, 'application/json', JSON.stringify({ error: 'method not allowed' }));
    } else if (path === '/global.config.json') {
      send(200, 'application/json', o.globalConfig());
    } else if (path === '/healthz') {
      send(200, 'application/json', JSON.stringify(o.health()));
    } else {
      send(404, 'application/json', JSON.stringify({ error: 'not found', paths: ['/global.config.json', '/healthz'] }));
    }
  });
  return {
    listen: () =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(o.port, o.host, () => {
          server.off('error', reject);
          const addr = server.address();
          resolve(typeof addr === 'object' && addr ? addr.port : o.port);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
