// /api/v2/openapi.json: an OpenAPI 3.1 document of every method the v2 method table serves (methods/index.ts), built
// from the per-method entries of methods.ts and the schemas of schemas*.ts. Each read method is a GET (query string)
// and a POST (JSON body with the same names); POST-only methods are a POST, their GET a documented 405; JSON-RPC is
// POST /jsonRPC with `method` one of the names and aliases. Answers are the envelope {ok, result, @extra}, errors
// {ok: false, error, code, @extra} with the statuses the server really answers (README; plugin.ts, http/access.ts).
import type { V2Method } from '../methods/types.ts';
import { ref, type Schema } from './kit.ts';
import { METHOD_DOCS, type MethodDoc, TAGS } from './methods.ts';
import type { ParamDoc } from './params.ts';
import { SCHEMAS } from './schemas.ts';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> } & Record<string, unknown>;
};

export interface V2DocumentOptions {
  /** The served method table (the plugin's): only these methods, with their aliases, are described. */
  methods: readonly V2Method[];
  /** info.version: the X-API-Version the server sends. */
  version: string;
  /** servers[0].url: where the paths are mounted, relative to the host serving the document (e.g. /api/v2). */
  server: string;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'A BoC that does not parse or is not what the method takes; a JSON body that is empty',
  401: 'API key does not exist (a key was given that the server does not know)',
  404: 'transaction was not found',
  405: 'Method Not Allowed (POST only)',
  409: 'The contract is not a jetton or an NFT',
  413: 'request body is too large',
  415: 'unsupported content type: send application/json',
  422:
    'A parameter does not parse or breaks a rule of the method: "failed to parse get|post request: …", ' +
    '"failed to validate request: …"; JSON-RPC: "Unknown method", "params must contain an object"',
  429: 'Ratelimit exceeded (Retry-After: 1)',
  500:
    "A liteserver error in tonlib's words (LITE_SERVER_<NAME>: …), a liteserver answer whose proof does not check " +
    'out, or an internal error',
  503: 'Overloaded, retry (Retry-After: 1): the rate limiter cannot count, or too many get-method calls wait for the TVM',
  504: 'No liteserver answered in time',
  533: 'Result stack depth >= 256',
  542: 'No liteserver available; runGetMethod: an unsupported stack entry type',
};
/** Every operation: key and rate checks (401, 429, 503), bad input (422), failures (500). */
const COMMON_ERRORS = [401, 422, 429, 500, 503];
/** A liteserver read: timeout, no server. */
const LITE_ERRORS = [504, 542];
/** What reading a JSON body can answer before the method runs (http/server.ts, http/errors.ts). */
const BODY_ERRORS = [400, 413, 415];
/** Answered by the access check before any handler. */
const ACCESS_ERRORS = [401, 429, 503];

const SECURITY = [{}, { APIKeyHeader: [] }, { APIKeyQuery: [] }];
const VERSION_HEADER = { 'X-API-Version': { $ref: '#/components/headers/X-API-Version' } };

function json(schema: Schema): Record<string, unknown> {
  return { 'application/json': { schema } };
}

/** components.responses: one entry per error status and body shape, which the operations refer to. */
function errorResponse(status: number, schema: 'Error' | 'JsonRpcError'): Record<string, unknown> {
  return {
    description: ERROR_TEXT[status] ?? 'Error',
    headers:
      status === 429 || status === 503
        ? { ...VERSION_HEADER, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
        : VERSION_HEADER,
    content: json(ref(schema)),
  };
}

const responseName = (status: number, schema: 'Error' | 'JsonRpcError') =>
  `${schema === 'Error' ? 'Error' : 'JsonRpcError'}${status}`;

function errorResponses(
  statuses: Iterable<number>,
  schema: 'Error' | 'JsonRpcError',
  used: Map<string, Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of [...new Set(statuses)].sort((a, b) => a - b)) {
    const name = responseName(s, schema);
    if (!used.has(name)) used.set(name, errorResponse(s, schema));
    out[s] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

function envelope(result: Schema): Schema {
  return {
    type: 'object',
    properties: { ok: { const: true }, result, '@extra': ref('Extra') },
    required: ['ok', 'result', '@extra'],
    additionalProperties: false,
  };
}

function errorsOf(doc: MethodDoc, withBody: boolean): number[] {
  return [
    ...COMMON_ERRORS,
    ...(doc.liteserver === false ? [] : LITE_ERRORS),
    ...(withBody ? BODY_ERRORS : []),
    ...(doc.errors ?? []),
  ];
}

const requestName = (method: string) => `${method}Request`;

/** The POST body (and JSON-RPC params) of a method: its parameters by name; unknown keys are ignored. */
function requestSchema(name: string, doc: MethodDoc): Schema {
  const properties: Record<string, Schema> = {};
  for (const p of doc.params) properties[p.name] = { ...p.body, description: p.description };
  return {
    type: 'object',
    description: `Parameters of ${name}.`,
    properties,
    required: doc.params.filter((p) => p.required).map((p) => p.name),
  };
}

function queryParameter(p: ParamDoc): Record<string, unknown> {
  const schema = p.query ?? {};
  return {
    name: p.name,
    in: 'query',
    description: p.description,
    required: p.required ?? false,
    ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    schema,
  };
}

type Responses = Map<string, Record<string, unknown>>;

function methodOperation(
  verb: 'get' | 'post',
  path: string,
  method: V2Method,
  doc: MethodDoc,
  used: Responses,
): Record<string, unknown> {
  const alias = path === method.name ? '' : ` (alias of ${method.name})`;
  const base = {
    operationId: `${path}_${verb}`,
    tags: [doc.tag],
    summary: `${doc.summary}${alias}`,
    description: `${doc.description}\n\nAnswers are cached ${doc.cache}.${
      method.verbs === 'post' ? ' POST only: GET answers 405.' : ''
    }`,
    security: SECURITY,
  };
  const responses = {
    200: { description: 'OK', headers: VERSION_HEADER, content: json(envelope(doc.result)) },
    ...errorResponses(errorsOf(doc, verb === 'post'), 'Error', used),
  };
  if (verb === 'get') return { ...base, parameters: doc.params.map(queryParameter), responses };
  return {
    ...base,
    requestBody: {
      required: doc.params.some((p) => p.required),
      description: 'The parameters as a JSON object; numbers may be JSON numbers or decimal text.',
      content: json(ref(requestName(method.name))),
    },
    responses,
  };
}

function notAllowed(path: string, message: string, used: Responses): Record<string, unknown> {
  return {
    operationId: `${path}_get`,
    tags: ['Not allowed'],
    summary: `${path}: POST only`,
    description: `GET ${path} is refused with 405 "${message}"; send a POST.`,
    security: SECURITY,
    responses: {
      ...errorResponses(ACCESS_ERRORS, 'Error', used),
      405: { description: message, headers: VERSION_HEADER, content: json(ref('Error')) },
    },
  };
}

/** JSON-RPC request, result and error objects for the served methods. */
function jsonRpcSchemas(served: Array<{ method: V2Method; doc: MethodDoc; names: string[] }>): Record<string, Schema> {
  const results = new Map<string, Schema>();
  for (const { doc } of served) results.set(JSON.stringify(doc.result), doc.result);
  const id = { type: ['string', 'number', 'null'], description: 'echoed back as a string; null or absent: no id' };
  return {
    JsonRpcRequest: {
      type: 'object',
      description:
        'One call (no batches): `method` a method name or alias, `params` its parameters as in a POST body (an ' +
        'empty array counts as {}).',
      properties: {
        jsonrpc: { type: 'string', description: '"2.0" (not checked)' },
        id,
        method: { type: 'string', enum: served.flatMap((s) => s.names) },
        params: { anyOf: [{ type: 'object' }, { type: 'array', maxItems: 0 }] },
      },
      required: ['method'],
      // One branch per method (their names do not overlap): its params are that method's POST body.
      oneOf: served.map(({ method, names }) => ({
        title: method.name,
        properties: {
          method: { enum: names },
          params: { anyOf: [ref(requestName(method.name)), { type: 'array', maxItems: 0 }] },
        },
      })),
    },
    JsonRpcResult: {
      type: 'object',
      description: 'The REST answer plus jsonrpc and the id as a string (absent when the request had none).',
      properties: {
        ok: { const: true },
        result: { description: "the method's result (see its REST operation)", anyOf: [...results.values()] },
        jsonrpc: { const: '2.0' },
        id: { type: 'string' },
        '@extra': ref('Extra'),
      },
      required: ['ok', 'result', 'jsonrpc', '@extra'],
      additionalProperties: false,
    },
    JsonRpcError: {
      type: 'object',
      description:
        "The REST error plus jsonrpc and the id. Key, rate-limit and body-parse failures happen before the request's " +
        'JSON-RPC envelope is read and come without them.',
      properties: {
        ok: { const: false },
        error: { type: 'string' },
        code: { type: 'integer', format: 'int32' },
        jsonrpc: { const: '2.0' },
        id: { type: 'string' },
        '@extra': ref('Extra'),
      },
      required: ['ok', 'error', 'code', '@extra'],
      additionalProperties: false,
    },
  };
}

export function buildV2OpenApiDocument(opts: V2DocumentOptions): OpenApiDocument {
  const served = opts.methods.flatMap((method) => {
    const doc = METHOD_DOCS[method.name];
    return doc ? [{ method, doc, names: [method.name, ...(method.aliases ?? [])] }] : [];
  });
  const paths: OpenApiDocument['paths'] = {};
  const used: Responses = new Map();
  const requests: Record<string, Schema> = {};
  for (const { method, doc, names } of served) {
    requests[requestName(method.name)] = requestSchema(method.name, doc);
    for (const name of names) {
      paths[`/${name}`] =
        method.verbs === 'read'
          ? {
              get: methodOperation('get', name, method, doc, used),
              post: methodOperation('post', name, method, doc, used),
            }
          : {
              get: notAllowed(name, 'Method Not Allowed', used),
              post: methodOperation('post', name, method, doc, used),
            };
    }
  }
  const rpcErrors = new Set([...BODY_ERRORS, ...served.flatMap(({ doc }) => errorsOf(doc, true))]);
  paths['/jsonRPC'] = {
    get: notAllowed('jsonRPC', 'method GET is not supported', used),
    post: {
      operationId: 'jsonRPC_post',
      tags: ['JSON-RPC'],
      summary: 'Call any method',
      description:
        'Calls the method named in the body with `params` as its parameters. The answer has the status of the same ' +
        'REST call; an unknown method is 422 "Unknown method".',
      security: SECURITY,
      requestBody: { required: true, content: json(ref('JsonRpcRequest')) },
      responses: {
        200: { description: 'OK', headers: VERSION_HEADER, content: json(ref('JsonRpcResult')) },
        ...errorResponses(rpcErrors, 'JsonRpcError', used),
      },
    },
  };
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi_get',
      tags: ['Docs'],
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of this API.',
      security: SECURITY,
      responses: {
        200: { description: 'OK', headers: VERSION_HEADER, content: json({ type: 'object' }) },
        ...errorResponses([...ACCESS_ERRORS, 500], 'Error', used),
      },
    },
  };
  const usedTags = new Set(served.map((s) => s.doc.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'tongate API v2',
      version: opts.version,
      description:
        "A bridge from HTTP to TON liteservers that answers as toncenter's v2 (2.1) does. Read methods take GET " +
        '(query string) and POST (a JSON body with the same names); sending, fee estimates and get-methods are POST ' +
        'only; every method is also callable through POST /jsonRPC. Answers are {"ok": true, "result": …, ' +
        '"@extra": …}, errors {"ok": false, "error": …, "code": <the HTTP status>, "@extra": …}. int64 values are ' +
        'decimal strings, hashes and BoCs standard base64. An API key goes in the X-API-Key header or the api_key ' +
        'query parameter; without one the keyless rate of the deployment applies.',
    },
    servers: [{ url: opts.server }],
    tags: TAGS.filter((t) => usedTags.has(t.name) || ['JSON-RPC', 'Docs', 'Not allowed'].includes(t.name)),
    security: SECURITY,
    paths,
    components: {
      schemas: { ...SCHEMAS, ...requests, ...jsonRpcSchemas(served) },
      responses: Object.fromEntries([...used].sort(([a], [b]) => a.localeCompare(b))),
      headers: {
        'X-API-Version': {
          description: 'Version of this API (2.1.0-tongate.N: toncenter 2.1 behaviour, our revision)',
          schema: { type: 'string' },
        },
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
      },
      securitySchemes: {
        APIKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key. Without a key the keyless rate of the deployment applies.',
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
