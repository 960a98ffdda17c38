// Our OpenAPI document against the server that serves it: every route the v3 plugin registers is documented and
// every documented route is registered; the document is well formed (refs resolve, schemas compile as JSON
// Schema in strict mode); the docs page renders every endpoint without external resources.
import { Ajv } from 'ajv';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiToJsonSchema, refsIn } from '../../../../test/helpers/openapi-validator.ts';
import type { Database } from '../../../db/index.ts';
import { createAccessControl, policyFor } from '../../../http/access.ts';
import { createMemoryRateLimiter } from '../../../http/rate-limit.ts';
import { V3_DEFAULTS } from '../context.ts';
import { v3Plugin } from '../plugin.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts';
import { ROUTES } from './routes.ts';

const PREFIX = '/api/v3';
/** The reference page itself is HTML, not an API operation; everything else must be in the document. */
const HTML_PAGES = new Set([`${PREFIX}/reference`]);

let app: FastifyInstance;
/** Method + URL of every route the v3 plugin registered, seen by our own onRoute hook. */
const registered = new Set<string>();

beforeAll(async () => {
  app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) if (m !== 'HEAD' && r.url.startsWith(PREFIX)) registered.add(`${m} ${r.url}`);
  });
  // Registration touches no database; requests to data routes are not made here.
  const db = {} as Database;
  await app.register(
    v3Plugin({
      db,
      access: createAccessControl({ api: 'v3', policy: policyFor('open', 'v3'), limiter: createMemoryRateLimiter() }),
      testnet: false,
      ...V3_DEFAULTS,
      version: '1.2.0-test',
    }),
    { prefix: PREFIX },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

async function servedDocument(): Promise<OpenApiDocument> {
  const r = await app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` });
  expect(r.statusCode).toBe(200);
  return r.json() as OpenApiDocument;
}

describe('v3 OpenAPI document', () => {
  it('documents every registered /api/v3 route, and registers every documented one', async () => {
    const doc = await servedDocument();
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const apiRoutes = [...registered].filter((r) => !HTML_PAGES.has(r.split(' ')[1]!));
    expect(apiRoutes.length).toBeGreaterThan(5);
    expect(apiRoutes.filter((r) => !documented.has(r))).toEqual([]);
    for (const op of documented) {
      const [method, url] = op.split(' ') as ['GET' | 'POST', string];
      expect(app.hasRoute({ method, url }), op).toBe(true);
    }
    // The account routes of this issue are among them, with the docs endpoint.
    for (const p of ['/accountStates', '/walletStates', '/addressBook', '/metadata', '/topAccountsByBalance']) {
      expect(documented.has(`GET ${PREFIX}${p}`), p).toBe(true);
    }
  });

  it('leaves out table entries the server does not register', () => {
    const all = buildOpenApiDocument({ prefix: PREFIX, version: 'x' });
    expect(Object.keys(all.paths)).toHaveLength(new Set(ROUTES.map((r) => r.path)).size);
    const none = buildOpenApiDocument({ prefix: PREFIX, version: 'x', served: () => false });
    expect(none.paths).toEqual({});
    expect(none.tags).toEqual([]);
  });

  it('is a well-formed OpenAPI 3.0 document whose schemas compile and whose refs resolve', async () => {
    const doc = await servedDocument();
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '1.2.0-test' });
    const schemas = doc.components.schemas;
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) {
      expect(r).toMatch(/^#\/components\/schemas\//);
      expect(schemas[r.slice('#/components/schemas/'.length)], r).toBeDefined();
    }
    // Strict Ajv refuses unknown keywords and malformed schemas, so a typo in schemas.ts fails here.
    const ajv = new Ajv({ strict: true, formats: { int32: true, int64: true } });
    ajv.addSchema({ $id: 'doc', definitions: openApiToJsonSchema(schemas) as Record<string, unknown> });
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith(PREFIX)).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        const o = op as { parameters: Array<Record<string, unknown>>; responses: Record<string, unknown> };
        const names = o.parameters.map((p) => `${p.in}:${p.name}`);
        expect(new Set(names).size, `${method} ${path} repeats a parameter`).toBe(names.length);
        for (const p of o.parameters) {
          expect(p).toMatchObject({ name: expect.any(String), in: expect.stringMatching(/^(query|header)$/) });
          expect(String(p.description).length, `${path} ${String(p.name)}`).toBeGreaterThan(5);
        }
        const ok = (o.responses['200'] as { content: Record<string, { schema: unknown }> }).content['application/json']!
          .schema;
        const json = JSON.stringify(openApiToJsonSchema(ok)).replace(/"#\/definitions\//g, '"doc#/definitions/');
        expect(() => ajv.compile(JSON.parse(json)), `${method} ${path}`).not.toThrow();
      }
    }
  });

  it('serves a self-contained reference page at /api/v3/reference', async () => {
    const doc = await servedDocument();
    for (const url of [`${PREFIX}/reference`, `${PREFIX}/reference/`]) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      const html = r.body;
      for (const path of Object.keys(doc.paths)) expect(html).toContain(`${path}</`);
      for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
      expect(html).toContain(`href="${PREFIX}/openapi.json"`);
      // Offline: nothing is loaded from elsewhere, and there is no script at all.
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    }
  });

  it('escapes text from the document', async () => {
    const { renderDocsPage } = await import('./html.ts');
    const doc = buildOpenApiDocument({ prefix: PREFIX, version: '<b>1</b>' });
    const html = renderDocsPage(doc, '/x');
    expect(html).not.toContain('<b>1</b>');
    expect(html).toContain('&#60;b&#62;1&#60;/b&#62;');
  });
});
