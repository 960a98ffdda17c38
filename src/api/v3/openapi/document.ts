// /api/v3/openapi.json: an OpenAPI 3.0 document built from our route table (routes.ts) and response schemas
// (schemas.ts). Only routes this server registered appear, so a deployment never advertises what it does not
// serve.
import { type RouteDoc, type Schema, schemaRef } from './primitives.ts';
import { ROUTES, TAGS } from './routes.ts';
import { SCHEMAS } from './schemas.ts';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> } & Record<string, unknown>;
};

const COMMON_ERRORS: Record<number, string> = {
  401: 'Unknown or revoked API key',
  422: 'Invalid parameter: the message names it',
  429: 'Over the request rate of the key (or of keyless callers)',
  500: 'Internal error or statement timeout ("timeout: context deadline exceeded")',
  503: 'Temporarily unavailable: the database cannot be reached or is busy; retry',
};
/** What the HTTP layer answers before an operation with a JSON body runs (src/http/errors.ts). */
const BODY_ERRORS: Record<number, string> = {
  400: 'The body is not JSON (or not UTF-8), or the message it carries is not valid',
  413: 'The body is larger than the server accepts',
  415: 'The body is not sent as application/json',
};
const OTHER_ERRORS: Record<number, string> = {
  400: 'Not a valid BoC or message',
  404: 'Nothing found',
  409: 'Not a wallet',
  501: 'Not available here (no liteserver pool; a get-method result with no JSON form)',
  504: 'The liteserver did not answer in time',
  533: 'Get-method result nested too deep',
  542: 'No liteserver available',
};

function operation(route: RouteDoc, prefix: string): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    200: { description: 'OK', content: { 'application/json': { schema: route.response } } },
  };
  const common = route.body ? { ...COMMON_ERRORS, ...BODY_ERRORS } : COMMON_ERRORS;
  const errors = [...new Set([...(route.errors ?? []), ...Object.keys(common).map(Number)])].sort((a, b) => a - b);
  for (const status of errors) {
    responses[status] = {
      description: common[status] ?? OTHER_ERRORS[status] ?? 'Error',
      // A limited request gets the body of toncenter's gateway, not an Error.
      content: { 'application/json': { schema: schemaRef(status === 429 ? 'RateLimitError' : 'Error') } },
    };
  }
  return {
    operationId: `v3_${route.method}_${(prefix + route.path).replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    parameters: route.params.map((p) => ({
      name: p.name,
      in: p.in,
      description: p.description,
      required: p.required ?? false,
      ...(p.schema.type === 'array' ? { style: 'form', explode: true } : {}),
      schema: p.schema,
    })),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
}

export interface DocumentOptions {
  /** Mount point of v3 (paths are written with it, as toncenter's are). */
  prefix: string;
  /** Value of info.version (the X-API-Version the server sends). */
  version: string;
  /** Which routes to describe: the server passes "is this route registered". */
  served?: (method: RouteDoc['method'], path: string) => boolean;
}

export function buildOpenApiDocument(opts: DocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of ROUTES) {
    const full = opts.prefix + route.path;
    if (opts.served && !opts.served(route.method, full)) continue;
    const item = paths[full] ?? {};
    item[route.method] = operation(route, opts.prefix);
    paths[full] = item;
  }
  const usedTags = new Set(ROUTES.filter((r) => paths[opts.prefix + r.path]).map((r) => r.tag));
  return {
    openapi: '3.0.3',
    info: {
      title: 'tongate API v3',
      version: opts.version,
      description:
        'Indexed TON blockchain data (blocks, transactions, messages, account states) with toncenter v3 ' +
        'compatible paths, parameters and response shapes. Addresses are accepted in any form and returned raw ' +
        '(upper-case hex); 64-bit numbers are decimal strings; hashes are standard base64. Errors are ' +
        '{"error": "<message>"} (429: {"ok": false, "result": "Ratelimit exceed", "code": 429}). List parameters ' +
        'are repeated (?address=A&address=B) or comma-separated.',
    },
    servers: [{ url: '/' }],
    tags: TAGS.filter((t) => usedTags.has(t.name)),
    security: [{}, { APIKeyHeader: [] }, { APIKeyQuery: [] }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        APIKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key (tongate keys create). Without a key the keyless rate of the deployment applies.',
        },
        APIKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'The same key as a query parameter.',
        },
      },
    },
  };
}
