// The explorer pages and their assets, through a bare Fastify (the browser test, test/api/explorer.test.ts, drives
// them in Chromium on a live stack).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_PREFIX, type ExplorerApi, registerExplorers } from './explorer.ts';

const V3: ExplorerApi = { prefix: '/api/v3', title: 'API v3', summary: 'the index', document: '/api/v3/openapi.json' };
const ODD: ExplorerApi = {
  prefix: '/api/x',
  title: '<b>x</b>',
  summary: 'a "quoted" & <i>odd</i> one',
  document: '/api/x/openapi.json?</script><script>alert(1)</script>',
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  registerExplorers(app, {
    apis: [V3, ODD],
    links: [{ href: '/healthz', label: '/healthz', summary: 'health' }],
    version: '9.9.9',
  });
  await app.ready();
});
afterAll(() => app.close());

describe('explorer pages', () => {
  it('serves each API explorer at <prefix>, <prefix>/ and <prefix>/index.html, loading only local assets', async () => {
    for (const url of ['/api/v3', '/api/v3/', '/api/v3/index.html']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.body).toContain(`"url":"/api/v3/openapi.json"`);
      expect(r.body).toContain('"validatorUrl":null');
      const refs = [...r.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
      expect(refs.length).toBeGreaterThan(3);
      for (const ref of refs) expect(ref, url).toMatch(/^\/(?!\/)/);
    }
  });

  it('escapes what it is given, in HTML and in the script', async () => {
    const r = await app.inject({ url: '/api/x/' });
    expect(r.body).not.toContain('<b>x</b>');
    expect(r.body).not.toContain('</script><script>alert(1)');
    expect(r.body.match(/<script/g)).toHaveLength(2);
    const landing = await app.inject({ url: '/' });
    expect(landing.body).not.toContain('<i>odd</i>');
    expect(landing.body).toContain('&#60;i&#62;odd&#60;/i&#62;');
  });

  it('lists every API and link on the landing page', async () => {
    const r = await app.inject({ url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('tongate 9.9.9');
    for (const href of ['/api/v3/', '/api/v3/openapi.json', '/api/x/', '/healthz'])
      expect(r.body).toContain(`href="${href}"`);
  });

  it('serves the Swagger UI files the page names, compressed when asked, cached by ETag, and nothing else', async () => {
    const page = (await app.inject({ url: '/api/v3/' })).body;
    const assets = [...page.matchAll(/(?:src|href)="(\/explorer\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets).toHaveLength(3);
    for (const url of assets) {
      const plain = await app.inject({ url });
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(500);
      const etag = String(plain.headers.etag);
      expect((await app.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
      if (url.endsWith('.png')) continue;
      const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    }
    for (const file of ['package.json', 'index.html', '..%2F..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      expect((await app.inject({ url: `${ASSET_PREFIX}/${file}` })).statusCode, file).toBe(404);
    }
  });
});
