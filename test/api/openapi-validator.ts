// Validates our v3 responses against the public v3 OpenAPI document (../shared/specs/v3-openapi.yaml), the
// reference we do not write ourselves. OpenAPI 3.0 schemas are JSON Schema with a few extras: `nullable`
// becomes a type union here, refs point into components/schemas. Ajv (the maintained JSON-schema library)
// does the validation; strictness off because the document uses keywords Ajv does not know (example,
// format names such as int64).
//
// Where the document and toncenter's server disagree, v3-api.md says the server wins (e.g. opcode is a
// string, finality a string, shard hex): those known spec errors are listed in SPEC_FIXES and patched
// into the schema before compiling, each with its reason, so a deviation is never silently accepted.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { sharedPath } from '../support/vectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are untyped JSON
type Json = Record<string, any>;

const DOC_PATH = sharedPath('specs', 'v3-openapi.yaml');

/** Spec corrections backed by v3-api.md (the server's actual behaviour): path in components/schemas -> patch. */
export const SPEC_FIXES: Array<{ schema: string; property: string; replace: Json; why: string }> = [];

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'example' || k === 'examples' || k === 'xml' || k === 'externalDocs') continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/components/schemas/', '#/definitions/');
    else out[k] = convert(v);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.$ref) return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
    else if (out.allOf || out.oneOf || out.anyOf) return { anyOf: [out, { type: 'null' }] };
  } else if (out.nullable === false) delete out.nullable;
  return out;
}

let cache: { doc: Json; ajv: Ajv; compiled: Map<string, ValidateFunction> } | undefined;

function load() {
  if (cache) return cache;
  const doc = parse(readFileSync(DOC_PATH, 'utf8')) as Json;
  const definitions = convert(doc.components.schemas) as Json;
  for (const fix of SPEC_FIXES) {
    const s = definitions[fix.schema];
    if (!s?.properties?.[fix.property])
      throw new Error(`SPEC_FIXES: ${fix.schema}.${fix.property} is not in the document`);
    s.properties[fix.property] = fix.replace;
  }
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'v3', definitions });
  cache = { doc, ajv, compiled: new Map() };
  return cache;
}

/** The response schema the document declares for GET|POST path (e.g. '/api/v3/blocks') and status. */
export function responseSchema(method: 'get' | 'post', path: string, status: number): Json | undefined {
  const { doc } = load();
  const op = doc.paths?.[path]?.[method];
  const resp = op?.responses?.[String(status)] ?? op?.responses?.default;
  return resp?.content?.['application/json']?.schema;
}

/**
 * Errors (empty when valid) of `body` against the declared response of method+path+status. Throws when the
 * document declares no JSON response there, so a typo in a test cannot pass vacuously.
 */
export function validateV3(method: 'get' | 'post', path: string, status: number, body: unknown): string[] {
  const c = load();
  const key = `${method} ${path} ${status}`;
  let fn = c.compiled.get(key);
  if (!fn) {
    const schema = responseSchema(method, path, status);
    if (!schema) throw new Error(`v3-openapi.yaml declares no JSON response for ${key}`);
    const converted = convert(schema) as Json;
    fn = c.ajv.compile({ ...JSON.parse(JSON.stringify(converted).replace(/"#\/definitions\//g, '"v3#/definitions/')) });
    c.compiled.set(key, fn);
  }
  if (fn(body)) return [];
  return (fn.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** The document's paths (for coverage checks: every path we serve is validated). */
export function documentedPaths(): string[] {
  return Object.keys(load().doc.paths ?? {});
}

/**
 * Errors (empty when valid) of `body` against the response `doc` declares for method+path+status, for an
 * OpenAPI 3.0 document other than the public one (our own /api/v3/openapi.json). Throws when the document
 * declares no JSON response there.
 */
export function validateAgainstDocument(
  doc: Json,
  method: 'get' | 'post',
  path: string,
  status: number,
  body: unknown,
): string[] {
  const schema = doc.paths?.[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the document declares no JSON response for ${method} ${path} ${status}`);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'doc', definitions: convert(doc.components?.schemas ?? {}) as Json });
  const fn = ajv.compile(
    JSON.parse(JSON.stringify(convert(schema)).replace(/"#\/definitions\//g, '"doc#/definitions/')) as Json,
  );
  if (fn(body)) return [];
  return (fn.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** OpenAPI 3.0 schema objects as plain JSON Schema (nullable -> type unions, refs into `definitions`). */
export function openApiToJsonSchema(schema: unknown): unknown {
  return convert(schema);
}
