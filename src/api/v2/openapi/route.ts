// GET /openapi.json of the v2 plugin: the document of the methods it serves, built and serialised once, on first use.
// Paths are relative to the plugin's prefix (servers: [{url: "/api/v2"}]), so "try it out" in an explorer calls the
// host that served the document.
import type { FastifyInstance } from 'fastify';
import type { V2Method } from '../methods/types.ts';
import { buildV2OpenApiDocument } from './document.ts';

export function openApiRoute(app: FastifyInstance, methods: readonly V2Method[], version: string): void {
  let text: string | undefined;
  app.get('/openapi.json', async (_req, reply) => {
    text ??= JSON.stringify(buildV2OpenApiDocument({ methods, version, server: app.prefix || '/' }));
    return reply.type('application/json; charset=utf-8').send(text);
  });
}
