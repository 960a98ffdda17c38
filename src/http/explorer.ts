// The interactive API explorers (Swagger UI at <prefix>/ for every API that has an OpenAPI document) and the landing
// page at /. Swagger UI comes from the swagger-ui-dist package and is served from node_modules by this server: no
// CDN, so the pages work on an offline machine. Its request validator (an external service) is switched off.
// The pages sit outside the APIs' plugins, so reading the docs needs no API key and counts against no limit;
// "try it out" calls go to the APIs themselves, with the key given in the explorer's Authorize dialog.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ExplorerApi {
  /** Where the API is mounted, e.g. /api/v3. */
  prefix: string;
  /** Shown as the page title, e.g. "API v3". */
  title: string;
  /** One line about the API on the landing page. */
  summary: string;
  /** URL of its OpenAPI document. */
  document: string;
}

export interface LandingLink {
  href: string;
  label: string;
  summary: string;
}

export const ASSET_PREFIX = '/explorer/swagger-ui';

/** The files of swagger-ui-dist a page loads; nothing else of the package is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

interface Asset {
  type: string;
  raw: Buffer;
  /** Compressed once, off the event loop, on first request; null for formats that do not shrink. */
  gzip: Buffer | null;
  etag: string;
}

const gzipAsync = promisify(gzip);

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function swaggerUiDir(): { dir: string; version: string } {
  const pkgPath = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string };
  return { dir: dirname(pkgPath), version: pkg.version };
}

const PAGE_STYLE = `body{margin:0;font-family:system-ui,sans-serif}
.tg-bar{display:flex;gap:1.2em;align-items:center;padding:.6em 1.2em;background:#0b2239;color:#fff;font-size:14px}
.tg-bar a{color:#9cd2ff;text-decoration:none}.tg-bar b{font-size:16px}`;

function bar(apis: ExplorerApi[], current?: ExplorerApi): string {
  const links = apis.map((a) =>
    a === current ? `<span>${esc(a.title)}</span>` : `<a href="${esc(a.prefix)}/">${esc(a.title)}</a>`,
  );
  const doc = current ? [`<a href="${esc(current.document)}">openapi.json</a>`] : [];
  return `<div class="tg-bar"><b><a href="/">tongate</a></b>${[...links, ...doc].join('')}</div>`;
}

/** The explorer page of one API. */
export function explorerPage(api: ExplorerApi, all: ExplorerApi[]): string {
  // The options are JSON, so a document URL can never break out of the script.
  const options = JSON.stringify({
    url: api.document,
    dom_id: '#explorer',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>tongate ${esc(api.title)} explorer</title>
<link rel="icon" type="image/png" href="${ASSET_PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSET_PREFIX}/swagger-ui.css">
<style>${PAGE_STYLE}</style></head>
<body>${bar(all, api)}<div id="explorer"></div>
<script src="${ASSET_PREFIX}/swagger-ui-bundle.js"></script>
<script>window.explorer = SwaggerUIBundle(${options});</script>
</body></html>
`;
}

/** The page at /: what this server offers and where. */
export function landingPage(apis: ExplorerApi[], links: LandingLink[], version: string): string {
  const items = [
    ...apis.map(
      (a) =>
        `<li><a href="${esc(a.prefix)}/">${esc(a.title)}</a>: ${esc(a.summary)} (<a href="${esc(a.document)}">OpenAPI document</a>)</li>`,
    ),
    ...links.map((l) => `<li><a href="${esc(l.href)}">${esc(l.label)}</a>: ${esc(l.summary)}</li>`),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>tongate</title><style>${PAGE_STYLE}
main{max-width:46em;margin:2em auto;padding:0 1em;line-height:1.6}li{margin:.4em 0}</style></head>
<body>${bar(apis)}<main><h1>tongate ${esc(version)}</h1>
<p>A self-hostable TON blockchain access service: toncenter-compatible APIs over this server's own index and
liteservers.</p>
<ul>${items.join('\n')}</ul></main></body></html>
`;
}

export interface ExplorerOptions {
  apis: ExplorerApi[];
  links: LandingLink[];
  version: string;
}

/** Registers /, <prefix>/ and <prefix>/index.html for each API, and the Swagger UI assets. */
export function registerExplorers(app: FastifyInstance, opts: ExplorerOptions): void {
  const ui = swaggerUiDir();
  const assets = new Map<string, Promise<Asset>>();
  const load = async (name: string, type: string): Promise<Asset> => {
    const raw = await readFile(join(ui.dir, name));
    const gz = type.startsWith('image/') ? null : await gzipAsync(raw);
    return { type, raw, gzip: gz, etag: `"swagger-ui-${ui.version}-${name}"` };
  };
  const assetOf = (name: string): Promise<Asset> | undefined => {
    const type = ASSETS[name];
    if (type === undefined) return undefined;
    let a = assets.get(name);
    if (!a) {
      a = load(name, type);
      // A failed read is not kept: the next request tries again.
      a.catch(() => assets.delete(name));
      assets.set(name, a);
    }
    return a;
  };
  app.get(`${ASSET_PREFIX}/:file`, async (req: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const pending = assetOf(req.params.file);
    if (!pending) return reply.callNotFound();
    const a = await pending;
    reply.type(a.type).header('cache-control', 'public, max-age=86400').header('etag', a.etag);
    if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
    const gzip = a.gzip !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding');
    return reply.send(gzip ? a.gzip : a.raw);
  });

  const html = (reply: FastifyReply, page: string) => reply.type('text/html; charset=utf-8').send(page);
  for (const api of opts.apis) {
    const page = explorerPage(api, opts.apis);
    // ignoreTrailingSlash makes `${prefix}/` answer `${prefix}` too.
    app.get(`${api.prefix}/`, async (_req, reply) => html(reply, page));
    app.get(`${api.prefix}/index.html`, async (_req, reply) => html(reply, page));
  }
  const landing = landingPage(opts.apis, opts.links, opts.version);
  app.get('/', async (_req, reply) => html(reply, landing));
}
