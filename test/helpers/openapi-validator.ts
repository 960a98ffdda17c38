// Validates our v3 responses against the public v3 OpenAPI document (../shared/specs/v3-openapi.yaml), the
// reference we do not write ourselves (and, at the end of the file, answers against an OpenAPI 3.1 document such as
// our own /api/v2/openapi.json). OpenAPI 3.0 schemas are JSON Schema with a few extras: `nullable`
// becomes a type union here, refs point into components/schemas. Ajv (the maintained JSON-schema library)
// does the validation; strictness off because the document uses keywords Ajv does not know (example,
// format names such as int64).
//
// Where the document and toncenter's server disagree, v3-api.md says the server wins (e.g. opcode is a
// string, finality a string, shard hex): those known spec errors are listed in SPEC_FIXES and patched
// into the schema before compiling, each with its reason, so a deviation is never silently accepted.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { sharedPath } from './vectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are untyped JSON
type Json = Record<string, any>;

const DOC_PATH = sharedPath('specs', 'v3-openapi.yaml');

/** Spec corrections backed by v3-api.md (the server's actual behaviour): path in components/schemas -> patch. */
export const SPEC_FIXES: Array<{ schema: string; property: string; replace: Json; why: string }> = [
  {
    schema: 'AddressBookRow',
    property: 'domain',
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §2.8: domain is the reverse-resolved domain "else null" (Go *string without omitempty)',
  },
  {
    schema: 'AccountStateFull',
    property: 'contract_methods',
    replace: { type: ['array', 'null'], items: { type: 'integer' } },
    why:
      'v3-api.md §3.2: the source is latest_account_states LEFT JOIN contract_methods, so a code without a ' +
      'methods row gives null (§2.4: nullable fields are JSON null)',
  },
  // DNS and multisig (v3-api.md §3.6-3.7).
  ...['nft_item_owner', 'dns_next_resolver', 'dns_wallet', 'dns_site_adnl', 'dns_storage_bag_id'].map((property) => ({
    schema: 'DNSRecord',
    property,
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §3.6: an item being auctioned has no owner and a record category it does not set is absent; ' +
      '§2.4: nullable fields are JSON null (toncenter DNSRecord fields are Go pointers)',
  })),
  {
    schema: 'MultisigOrder',
    property: 'order_boc',
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §5.2: multisig_orders.order_boc is a nullable column (an order not yet initialised); §2.4: JSON null',
  },
  {
    schema: 'OrderAction',
    property: 'body_raw',
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §11.11: body_raw is a base64 string on the wire (swagger: array of integers); §3.7: only ' +
      'send_message actions have a body, the others null',
  },
  ...['destination', 'value', 'error'].map((property) => ({
    schema: 'OrderAction',
    property,
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §3.7: an update_multisig_param action has no destination or value, and error is set only when ' +
      'an action could not be parsed; §2.4: nullable fields are JSON null',
  })),
  // Message, Transaction, AccountState (the blockchain endpoints).
  ...['source', 'destination'].map((property) => ({
    schema: 'Message',
    property,
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §4.3: external-in messages have source null, external-out (logs) destination null',
  })),
  ...['value', 'fwd_fee', 'ihr_fee', 'extra_flags', 'created_lt', 'created_at', 'import_fee'].map((property) => ({
    schema: 'Message',
    property,
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §4.3: external-in messages have created_lt/created_at/value/fwd_fee null and import_fee set, ' +
      'the others import_fee null (its example); §2.4: nullable fields are JSON null',
  })),
  ...['ihr_disabled', 'bounce', 'bounced'].map((property) => ({
    schema: 'Message',
    property,
    replace: { type: ['boolean', 'null'] },
    why: 'v3-api.md §5.2/§2.4: int_msg_info flags are NULL columns for external messages, JSON null on the wire',
  })),
  {
    schema: 'Message',
    property: 'value_extra_currencies',
    replace: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    why: 'v3-api.md §2.4: nullable fields are JSON null; external messages carry no value at all (§4.3)',
  },
  {
    schema: 'Message',
    property: 'opcode',
    replace: { type: ['string', 'null'], pattern: '^0x[0-9a-f]{8}$' },
    why: 'v3-api.md §2.6 and §11.3: opcode is a "0x%08x" string on the wire (swagger: integer); null below 32 bits',
  },
  {
    schema: 'Message',
    property: 'decoded_opcode',
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §2.7: what the decoder cannot name is null',
  },
  ...['message_content', 'init_state'].map((property) => ({
    schema: 'Message',
    property,
    replace: { anyOf: [{ $ref: '#/definitions/MessageContent' }, { type: 'null' }] },
    why: 'v3-api.md §4.3: "init_state": null without a StateInit; message_content null if the body row is missing',
  })),
  {
    schema: 'MessageContent',
    property: 'decoded',
    replace: { type: ['object', 'null'] },
    why: 'v3-api.md §2.7: undecodable bodies give decoded null',
  },
  {
    schema: 'Transaction',
    property: 'in_msg',
    replace: { anyOf: [{ $ref: '#/definitions/Message' }, { type: 'null' }] },
    why: 'v3-api.md §6.1: tick-tock transactions have no inbound message; §2.4: nullable fields are JSON null',
  },
  {
    schema: 'Transaction',
    property: 'finality',
    replace: { type: 'string', enum: ['pending', 'confirmed', 'finalized'] },
    why: 'v3-api.md §2.6 and §11.2: finality is a string on the wire (swagger: integer 0/1/2)',
  },
  ...['balance', 'account_status', 'frozen_hash', 'data_hash', 'code_hash'].map((property) => ({
    schema: 'AccountState',
    property,
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §4.2: only hash is filled when the state row is missing; its example has "frozen_hash": null',
  })),
  {
    schema: 'AccountState',
    property: 'extra_currencies',
    replace: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    why: 'v3-api.md §4.2: only hash is filled when the state row is missing (the rest is JSON null)',
  },
  // Jetton and NFT events and objects (/jetton/*, /nft/*).
  ...[
    ['JettonTransfer', 'response_destination'],
    ['JettonBurn', 'response_destination'],
    ['NFTTransfer', 'response_destination'],
    ['JettonMaster', 'admin_address'],
    ['NFTCollection', 'owner_address'],
    ['NFTItem', 'collection_address'],
    ['NFTItem', 'owner_address'],
  ].map(([schema, property]) => ({
    schema: schema as string,
    property: property as string,
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §2.4: nullable fields are JSON null (Go *AccountAddress without omitempty): addr_none, a revoked ' +
      'admin, an ownerless collection, a standalone or uninitialised item',
  })),
  ...[
    ['JettonTransfer', 'custom_payload'],
    ['JettonTransfer', 'forward_payload'],
    ['JettonBurn', 'custom_payload'],
    ['NFTTransfer', 'custom_payload'],
    ['NFTTransfer', 'forward_payload'],
  ].map(([schema, property]) => ({
    schema: schema as string,
    property: property as string,
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §3.4: its JettonTransfer example has "custom_payload": null; a payload that is absent is null',
  })),
  ...[
    ['JettonTransfer', 'decoded_custom_payload'],
    ['JettonTransfer', 'decoded_forward_payload'],
    ['JettonBurn', 'decoded_custom_payload'],
    ['NFTTransfer', 'decoded_custom_payload'],
    ['NFTTransfer', 'decoded_forward_payload'],
  ].map(([schema, property]) => ({
    schema: schema as string,
    property: property as string,
    replace: { type: ['object', 'null'] },
    why: 'v3-api.md §2.7: undecodable (or absent) payloads give null; §3.4 example: "decoded_custom_payload": null',
  })),
  ...['JettonTransfer', 'JettonBurn', 'NFTTransfer'].map((schema) => ({
    schema,
    property: 'trace_id',
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §5.2: trace_id is a nullable column, NULL until traces are assembled; §2.4: null on the wire',
  })),
  {
    schema: 'NFTItem',
    property: 'collection',
    replace: { anyOf: [{ $ref: '#/definitions/NFTCollection' }, { type: 'null' }] },
    why: 'v3-api.md §3.5: the item LEFT JOINs its collection (Go *NFTCollection without omitempty): null when none',
  },
  // v2-style methods (v3-api.md §3.11).
  ...['code', 'data', 'frozen_hash'].map((property) => ({
    schema: 'V2AddressInformation',
    property,
    replace: { type: ['string', 'null'] },
    why:
      'v3-api.md §3.11: "code":"<boc>|null", "data":"<boc>|null", "frozen_hash":null (Go *string without omitempty: ' +
      'an account without code or data, every account that is not frozen)',
  })),
  // Traces and actions (v3-api.md §3.3, §4.8-4.9).
  {
    schema: 'Action',
    property: 'finality',
    replace: { type: 'string', enum: ['pending', 'confirmed', 'finalized'] },
    why: 'v3-api.md §2.6 and §11.2: finality is a string on the wire (swagger: integer 0/1/2)',
  },
  {
    schema: 'Trace',
    property: 'external_hash',
    replace: { type: ['string', 'null'] },
    why: 'v3-api.md §6.1: a trace rooted at a transaction without inbound message (tick-tock) has none (Go *HashType without omitempty)',
  },
  {
    schema: 'JettonWalletMintlessInfo',
    property: 'custom_payload_api_uri',
    replace: { type: ['array', 'null'], items: { type: 'string' } },
    why: 'v3-api.md §3.4/§5.2: the URIs come from a LEFT JOIN of mintless_jetton_masters; §2.4: missing is null',
  },
];

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

// ---- OpenAPI 3.1 (our /api/v2/openapi.json) -------------------------------------------------------------------
// In 3.1 a schema object is JSON Schema 2020-12 as it is (type unions instead of `nullable`, const, prefixItems), so
// no conversion: refs into components/schemas are pointed at a `$defs` copy and Ajv's 2020 dialect validates.

type Ajv2020Instance = InstanceType<typeof Ajv2020>;

function ajv2020(opts: { coerce?: boolean; strict?: boolean } = {}): Ajv2020Instance {
  return new Ajv2020({
    strict: opts.strict ?? false,
    allErrors: true,
    allowUnionTypes: true,
    ...(opts.strict ? { formats: { int32: true, int64: true } } : { validateFormats: false }),
    ...(opts.coerce ? { coerceTypes: 'array' as const } : {}),
  });
}

const COMPONENT_REF = /"#\/components\/schemas\//g;
const inDoc = (schema: unknown): Json => JSON.parse(JSON.stringify(schema).replace(COMPONENT_REF, '"doc#/$defs/'));

function messages(fn: ValidateFunction): string[] {
  return (fn.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** Resolves a `$ref` into components (#/components/<kind>/<name>) of `doc`; other objects as they are. */
function resolved(doc: Json, node: Json | undefined): Json | undefined {
  const r = node?.$ref;
  if (typeof r !== 'string') return node;
  const m = /^#\/components\/([^/]+)\/(.+)$/.exec(r);
  return m ? doc.components?.[m[1]!]?.[m[2]!] : undefined;
}

export interface OpenApi31 {
  doc: Json;
  /** Errors (empty when valid) of `value` against `schema`, a schema of the document. */
  errors(schema: Json, value: unknown): string[];
  /** Errors of a query parameter's text (repeated: several) read as its schema's type (integer, boolean, array). */
  queryErrors(schema: Json, value: string | string[]): string[];
  /** The operation of method+path (a key of `paths`), or undefined. */
  operation(method: 'get' | 'post', path: string): Json | undefined;
  /** The JSON schema of the answer with `status`; undefined when the operation declares no such status. */
  responseSchema(method: 'get' | 'post', path: string, status: number): Json | undefined;
}

/** A validator of answers and requests against an OpenAPI 3.1 document. */
export function openApi31(doc: Json): OpenApi31 {
  const plain = ajv2020();
  const coercing = ajv2020({ coerce: true });
  const defs = inDoc(doc.components?.schemas ?? {});
  plain.addSchema({ $id: 'doc', $defs: defs });
  coercing.addSchema({ $id: 'doc', $defs: defs });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ajv: Ajv2020Instance, key: string, schema: Json) => {
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(schema);
      compiled.set(key, fn);
    }
    return fn;
  };
  const operation = (method: 'get' | 'post', path: string): Json | undefined => doc.paths?.[path]?.[method];
  return {
    doc,
    errors(schema, value) {
      const s = inDoc(schema);
      const fn = compile(plain, `plain ${JSON.stringify(s)}`, s);
      return fn(value) ? [] : messages(fn);
    },
    queryErrors(schema, value) {
      const s = { type: 'object', properties: { v: inDoc(schema) } };
      const fn = compile(coercing, `query ${JSON.stringify(s)}`, s);
      // Coercion rewrites the data in place; a copy keeps the caller's value.
      return fn({ v: Array.isArray(value) ? [...value] : value }) ? [] : messages(fn);
    },
    operation,
    responseSchema(method, path, status) {
      const resp = resolved(doc, operation(method, path)?.responses?.[String(status)]);
      return resp?.content?.['application/json']?.schema;
    },
  };
}

/**
 * What makes `doc` not a usable OpenAPI 3.1 document (empty when none): the shape of the document, operations,
 * parameters, request bodies and responses; every `$ref` resolves; operation ids unique; the tags and security
 * schemes used are declared; and every schema compiles as JSON Schema 2020-12 in Ajv's strict mode (which also
 * checks them against the 2020-12 meta-schema and refuses unknown keywords such as 3.0's `nullable`).
 */
/** Every `$ref` value anywhere in a document, in document order. */
export function refsIn(doc: unknown): string[] {
  const refs: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref') refs.push(String(x));
        else walk(x);
      }
    }
  };
  walk(doc);
  return refs;
}

export function openApi31Problems(doc: Json): string[] {
  const problems: string[] = [];
  const structure = ajv2020().compile(OPENAPI31_SHAPE);
  if (!structure(doc)) problems.push(...messages(structure));
  for (const r of refsIn(doc)) {
    if (resolved(doc, { $ref: r }) === undefined) problems.push(`unresolved $ref ${r}`);
  }
  const strict = ajv2020({ strict: true });
  strict.addSchema({ $id: 'doc', $defs: inDoc(doc.components?.schemas ?? {}) });
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    // Ajv knows 3.0's `nullable` as a keyword of its own, so strict mode lets it through; 3.1 has no such keyword.
    for (const k of schemaKeywords(schema)) {
      if (k === 'nullable') problems.push(`components.schemas.${name}: nullable is OpenAPI 3.0 (use a type union)`);
    }
    try {
      strict.getSchema(`doc#/$defs/${name}`);
    } catch (e) {
      problems.push(`components.schemas.${name}: ${(e as Error).message}`);
    }
  }
  const ids = new Set<string>();
  const tags = new Set<string>((doc.tags ?? []).map((t: Json) => t.name));
  const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const where = `${method} ${path}`;
      if (op.operationId) {
        if (ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} repeated`);
        ids.add(op.operationId);
      }
      for (const t of op.tags ?? []) if (!tags.has(t)) problems.push(`${where}: tag ${t} is not declared`);
      for (const req of [...(op.security ?? []), ...(doc.security ?? [])]) {
        for (const s of Object.keys(req)) if (!schemes.has(s)) problems.push(`${where}: security scheme ${s}?`);
      }
      const names = (op.parameters ?? []).map((p: Json) => `${p.in}:${p.name}`);
      if (new Set(names).size !== names.length) problems.push(`${where}: a parameter is repeated`);
      const schemas: Json[] = [
        ...(op.parameters ?? []).map((p: Json) => p.schema),
        ...Object.values<Json>(op.requestBody?.content ?? {}).map((c) => c.schema),
        ...Object.values<Json>(op.responses ?? {}).flatMap((r) =>
          Object.values<Json>(resolved(doc, r)?.content ?? {}).map((c) => c.schema),
        ),
      ];
      for (const s of schemas) {
        try {
          strict.compile(inDoc(s));
        } catch (e) {
          problems.push(`${where}: ${(e as Error).message}`);
        }
      }
    }
  }
  return problems;
}

/** The keywords used anywhere in a schema (property names of `properties` and the like are not keywords). */
function schemaKeywords(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) schemaKeywords(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      out.push(k);
      if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'dependentSchemas') {
        for (const sub of Object.values(v as Json)) schemaKeywords(sub, out);
      } else if (k !== 'const' && k !== 'enum' && k !== 'default' && k !== 'examples') schemaKeywords(v, out);
    }
  }
  return out;
}

// The parts of the OpenAPI 3.1 document structure (spec sections 4.8.x) a document of ours uses, written from the
// specification's text: what is required, which values are allowed, what may appear where.
const REF_OR = (schema: Json): Json => ({
  oneOf: [{ type: 'object', required: ['$ref'], properties: { $ref: { type: 'string' } } }, schema],
});
const MEDIA = { type: 'object', additionalProperties: { type: 'object', required: ['schema'] } };
const RESPONSE = REF_OR({
  type: 'object',
  required: ['description'],
  not: { required: ['$ref'] },
  properties: {
    description: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'object' } },
    content: MEDIA,
  },
  additionalProperties: false,
});
const PARAMETER = {
  type: 'object',
  required: ['name', 'in'],
  properties: {
    name: { type: 'string', minLength: 1 },
    in: { enum: ['query', 'header', 'path', 'cookie'] },
    description: { type: 'string' },
    required: { type: 'boolean' },
    style: { enum: ['form', 'simple', 'label', 'matrix', 'spaceDelimited', 'pipeDelimited', 'deepObject'] },
    explode: { type: 'boolean' },
    schema: { type: 'object' },
  },
  // A path parameter must say required: true.
  anyOf: [
    { properties: { in: { enum: ['query', 'header', 'cookie'] } } },
    { required: ['required'], properties: { required: { const: true } } },
  ],
  additionalProperties: false,
};
const SECURITY_REQ = { type: 'array', items: { type: 'object', additionalProperties: { type: 'array' } } };
const OPERATION = {
  type: 'object',
  required: ['responses'],
  properties: {
    operationId: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    summary: { type: 'string' },
    description: { type: 'string' },
    deprecated: { type: 'boolean' },
    security: SECURITY_REQ,
    parameters: { type: 'array', items: PARAMETER },
    requestBody: {
      type: 'object',
      required: ['content'],
      properties: { description: { type: 'string' }, required: { type: 'boolean' }, content: MEDIA },
      additionalProperties: false,
    },
    responses: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^([1-5][0-9X]{2}|default)$' },
      additionalProperties: RESPONSE,
    },
  },
  additionalProperties: false,
};
const OPENAPI31_SHAPE: Json = {
  type: 'object',
  required: ['openapi', 'info'],
  anyOf: [{ required: ['paths'] }, { required: ['components'] }, { required: ['webhooks'] }],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } },
      additionalProperties: false,
    },
    jsonSchemaDialect: { type: 'string' },
    servers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url'],
        properties: { url: { type: 'string' }, description: { type: 'string' } },
      },
    },
    tags: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, description: { type: 'string' } },
      },
    },
    security: SECURITY_REQ,
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: {
          enum: [
            'get',
            'put',
            'post',
            'delete',
            'options',
            'head',
            'patch',
            'trace',
            'summary',
            'description',
            'parameters',
            'servers',
          ],
        },
        additionalProperties: OPERATION,
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', propertyNames: { pattern: '^[a-zA-Z0-9.\\-_]+$' } },
        responses: {
          type: 'object',
          propertyNames: { pattern: '^[a-zA-Z0-9.\\-_]+$' },
          additionalProperties: RESPONSE,
        },
        headers: {
          type: 'object',
          additionalProperties: { type: 'object', required: ['schema'], properties: { schema: { type: 'object' } } },
        },
        securitySchemes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] } },
            // An apiKey scheme names its parameter and where it goes.
            anyOf: [
              { properties: { type: { not: { const: 'apiKey' } } } },
              { required: ['name', 'in'], properties: { in: { enum: ['query', 'header', 'cookie'] } } },
            ],
          },
        },
      },
    },
  },
};
