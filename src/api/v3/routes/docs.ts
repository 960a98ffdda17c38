// GET /openapi.json (our OpenAPI document) and /reference, the document rendered to a static page (no script). The
// interactive explorer at / and /index.html is the HTTP server's (src/http/explorer.ts), over this document.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { V3RouteGroup } from '../context.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts';
import { renderDocsPage } from '../openapi/html.ts';

export const docsRoutes: V3RouteGroup = (app, ctx) => {
  // Built on first use: by then every route group has registered, so the document lists exactly what is served.
  let doc: OpenApiDocument | undefined;
  let page: string | undefined;
  const documentOf = (a: FastifyInstance): OpenApiDocument => {
    doc ??= buildOpenApiDocument({
      prefix: a.prefix,
      version: ctx.version,
      served: (method, url) => a.hasRoute({ method: method.toUpperCase() as 'GET' | 'POST', url }),
    });
    return doc;
  };
  app.get('/openapi.json', async () => documentOf(app));
  const sendPage = (reply: FastifyReply) => {
    page ??= renderDocsPage(documentOf(app), `${app.prefix}/openapi.json`);
    return reply.type('text/html; charset=utf-8').send(page);
  };
  app.get('/reference', async (_req, reply) => sendPage(reply));
};
