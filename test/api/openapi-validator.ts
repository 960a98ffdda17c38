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
