// Streaming API v2 subscriptions (../shared/specs/streaming.md §1.3, §1.4, §2): decoding and validating the SSE body
// and the WebSocket operations into a Subscription, the per-connection state the hub filters events with. Pure: no
// I/O, no transport; the transports feed text or parsed JSON in and write the returned objects out.
//
// Decoding mirrors Go's encoding/json as the reference server uses it (fields matched by name, exact or ignoring
// case; unknown keys ignored; null leaves a field unset; a null array element becomes ""), so the same requests
// succeed and fail. The decoder's own messages for a JSON value of the wrong type cannot be Go's verbatim (they name
// Go struct and package types): they keep the server's prefix and say what was wrong in the same spirit, e.g.
// `invalid subscription request: id: cannot unmarshal number into string`. Every validation message (§2.5), the
// finality one and the limit ones are exact.

import { crc16 } from '@ton/core';
import { ACTION_TYPE_SETS } from '../../index/actions/supported.ts';
import { FINALITY_ORDER, type Finality } from './events.ts';

/** The event types a client can subscribe to; trace_invalidated is delivered unasked (§3.7) and is rejected here. */
export type StreamEventType = 'transactions' | 'actions' | 'trace' | 'account_state_change' | 'jettons_change';

const EVENT_TYPES: ReadonlySet<string> = new Set<StreamEventType>([
  'transactions',
  'actions',
  'trace',
  'account_state_change',
  'jettons_change',
]);

/** What one connection receives (read-only: the hub shares it; a change replaces the whole object). */
export interface Subscription {
  readonly types: ReadonlySet<StreamEventType>;
  /** Raw upper-case `wc:HEX` addresses. */
  readonly addresses: ReadonlySet<string>;
  /** trace_external_hash_norm values, trimmed, otherwise as the client sent them. */
  readonly traceHashes: ReadonlySet<string>;
  readonly minFinality: Finality;
  readonly includeAddressBook: boolean;
  readonly includeMetadata: boolean;
  /** The `action_types` filter (exact type names), null when there is none. */
  readonly actionTypes: ReadonlySet<string> | null;
  /** `supported_action_types` expanded (§2.4). */
  readonly supportedActionTypes: ReadonlySet<string>;
}

/** `{id?, error}`: an SSE 400/429 body or a WebSocket error frame. */
export type ErrorReply = { id?: string; error: string };
export type AckStatus = 'subscribed' | 'unsubscribed' | 'pong';
/** A WebSocket reply frame: `{id?, status}` (an acknowledgement) or `{id?, error}`; never both keys. */
export type WsReply = { id?: string; status?: AckStatus; error?: string };

// ---------------------------------------------------------------------------------------------------------------
// Addresses and hashes (§2.3)
// ---------------------------------------------------------------------------------------------------------------

const URL_SAFE_48 = /^[A-Za-z0-9_-]{48}$/;
const RAW_WORKCHAIN = /^[+-]?[0-9]+$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * An address in any accepted form as `"<wc>:<UPPERCASE HEX>"`, or null. The reference converter tries a
 * user-friendly form (url-safe base64, where Go's decoder skips CR and LF), then the same with `+`→`-` and `/`→`_`,
 * then `wc:hex` (workchain an int8, an optional sign). The tag byte is not checked there, so this does not use
 * ../../ton/address's parser, which rejects tags other than bounceable/non-bounceable.
 */
export function normalizeStreamAddress(text: string): string | null {
  const friendly = text
    .replace(/[\r\n]/g, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  if (URL_SAFE_48.test(friendly)) {
    const bytes = Buffer.from(friendly, 'base64url');
    if (crc16(bytes.subarray(0, 34)).equals(bytes.subarray(34, 36))) {
      return `${bytes.readInt8(1)}:${bytes.toString('hex', 2, 34).toUpperCase()}`;
    }
  }
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const wcText = text.slice(0, colon);
  const hex = text.slice(colon + 1);
  if (!RAW_WORKCHAIN.test(wcText) || !HEX_64.test(hex)) return null;
  const wc = Number(wcText);
  if (wc < -128 || wc > 127) return null;
  return `${wc}:${hex.toUpperCase()}`;
}

// Go's strings.TrimSpace: unicode.IsSpace, which unlike JavaScript's trim() includes U+0085 and excludes U+FEFF.
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Addresses normalised and deduplicated (first occurrence order), or the first `invalid address: <input>`. */
function normalizeAddressList(list: readonly string[]): Checked<string[]> {
  const seen = new Set<string>();
  for (const text of list) {
    const raw = normalizeStreamAddress(text);
    if (raw === null) return { ok: false, error: `invalid address: ${text}` };
    seen.add(raw);
  }
  return { ok: true, value: [...seen] };
}

/** Hashes trimmed and deduplicated; nothing else is checked, so a hex or url-safe hash is accepted but never matches. */
function normalizeHashList(list: readonly string[]): Checked<string[]> {
  const seen = new Set<string>();
  for (const text of list) {
    const hash = text.replace(GO_TRIM, '');
    if (hash === '') return { ok: false, error: 'trace_external_hash_norms contains empty value' };
    seen.add(hash);
  }
  return { ok: true, value: [...seen] };
}

// ---------------------------------------------------------------------------------------------------------------
// supported_action_types (§2.4)
// ---------------------------------------------------------------------------------------------------------------

function shortcut(name: string): readonly string[] | undefined {
  return Object.hasOwn(ACTION_TYPE_SETS, name) ? ACTION_TYPE_SETS[name] : undefined;
}

/** Shortcuts expanded, other names kept as they are, and v1 always added (an empty list gives v1 alone). */
export function expandSupportedActionTypes(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const name of [...names, 'v1']) {
    const set = shortcut(name);
    if (set === undefined) out.add(name);
    else for (const t of set) out.add(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// A small Go-like JSON object decoder
// ---------------------------------------------------------------------------------------------------------------

type FieldKind = 'string' | 'strings' | 'bool' | 'finality';
type FieldValue<K extends FieldKind> = K extends 'strings'
  ? string[]
  : K extends 'bool'
    ? boolean
    : K extends 'finality'
      ? Finality
      : string;
type Decoded<S extends Record<string, FieldKind>> = { [F in keyof S]?: FieldValue<S[F]> };

const NOTHING: ReadonlySet<string> = new Set();

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // string, number
}

function isFinality(s: string): s is Finality {
  return Object.hasOwn(FINALITY_ORDER, s);
}

/** A field's value, or a type error to remember (Go keeps decoding and reports the first one). */
function decodeField(name: string, kind: FieldKind, value: unknown): { value: unknown } | { typeError: string } {
  const wrong = (want: string) => ({ typeError: `${name}: cannot unmarshal ${jsonKind(value)} into ${want}` });
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? { value } : wrong('string');
    case 'bool':
      return typeof value === 'boolean' ? { value } : wrong('bool');
    case 'finality':
      // Checked by the caller: its errors stop the decoder at once.
      return { value };
    case 'strings': {
      if (!Array.isArray(value)) return wrong('array of strings');
      const out: string[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === null) out.push('');
        else if (typeof item === 'string') out.push(item);
        else return { typeError: `${name}[${i}]: cannot unmarshal ${jsonKind(item)} into string` };
      }
      return { value: out };
    }
  }
}

/**
 * Decodes `body` into the fields of `schema`: keys match a field exactly or ignoring case, later keys overwrite
 * earlier ones, null unsets a field (`keepOnNull` fields, Go non-pointer strings, keep their value). A bad
 * min_finality ends decoding with its own error, ahead of any type error; otherwise the first type error wins.
 */
function decodeObject<S extends Record<string, FieldKind>>(
  body: unknown,
  schema: S,
  keepOnNull: ReadonlySet<string> = NOTHING,
): { ok: true; value: Decoded<S> } | { ok: false; error: string } {
  const out: Record<string, unknown> = {};
  if (body === null) return { ok: true, value: out as Decoded<S> };
  if (typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: `cannot unmarshal ${jsonKind(body)} into an object` };
  }
  let typeError: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    const name = fieldName(schema, key);
    if (name === undefined) continue;
    const kind = schema[name]!;
    if (value === null) {
      if (!keepOnNull.has(name)) delete out[name];
      continue;
    }
    if (kind === 'finality') {
      if (typeof value !== 'string')
        return { ok: false, error: `${name}: cannot unmarshal ${jsonKind(value)} into string` };
      if (!isFinality(value)) return { ok: false, error: `unknown finality state: ${value}` };
    }
    const r = decodeField(name, kind, value);
    if ('typeError' in r) typeError ??= r.typeError;
    else out[name] = r.value;
  }
  return typeError === undefined ? { ok: true, value: out as Decoded<S> } : { ok: false, error: typeError };
}

function fieldName(schema: Record<string, FieldKind>, key: string): string | undefined {
  if (Object.hasOwn(schema, key)) return key;
  const lower = key.toLowerCase();
  for (const name of Object.keys(schema)) if (name === lower) return name;
  return undefined;
}

const SUBSCRIBE_FIELDS = {
  types: 'strings',
  addresses: 'strings',
  trace_external_hash_norms: 'strings',
  min_finality: 'finality',
  include_address_book: 'bool',
  include_metadata: 'bool',
  action_types: 'strings',
  supported_action_types: 'strings',
} as const satisfies Record<string, FieldKind>;
const SSE_FIELDS = { id: 'string', ...SUBSCRIBE_FIELDS } as const satisfies Record<string, FieldKind>;
const ENVELOPE_FIELDS = { id: 'string', operation: 'string' } as const satisfies Record<string, FieldKind>;
const UNSUBSCRIBE_FIELDS = {
  addresses: 'strings',
  trace_external_hash_norms: 'strings',
} as const satisfies Record<string, FieldKind>;
// Go's Envelope.Operation is a plain string: null leaves it as it was.
const ENVELOPE_KEEP_ON_NULL: ReadonlySet<string> = new Set(['operation']);

type SubscribeRequest = Decoded<typeof SUBSCRIBE_FIELDS>;

// ---------------------------------------------------------------------------------------------------------------
// Validation (§2.5), shared by both transports
// ---------------------------------------------------------------------------------------------------------------

interface Validated {
  types: StreamEventType[];
  addresses: string[];
  traceHashes: string[];
}

/** Checks 1–7 of §2.5, in order; the two transports word checks 1 and 7 differently. */
function validateSubscribe(req: SubscribeRequest, transport: 'sse' | 'ws'): Checked<Validated> {
  const types = req.types ?? [];
  if (types.length === 0) {
    return { ok: false, error: transport === 'sse' ? 'types are required for subscription' : 'types are required' };
  }
  for (const t of types) if (!EVENT_TYPES.has(t)) return { ok: false, error: `invalid event type: ${t}` };
  const addresses = normalizeAddressList(req.addresses ?? []);
  if (!addresses.ok) return addresses;
  const hashes = normalizeHashList(req.trace_external_hash_norms ?? []);
  if (!hashes.ok) return hashes;
  const hasTrace = types.includes('trace');
  if (hashes.value.length > 0 && !hasTrace) {
    return { ok: false, error: 'trace_external_hash_norms requires type "trace"' };
  }
  if (hasTrace && hashes.value.length === 0) {
    return { ok: false, error: 'trace_external_hash_norms are required for trace subscription' };
  }
  if (types.some((t) => t !== 'trace') && addresses.value.length === 0) {
    return {
      ok: false,
      error: transport === 'sse' ? 'addresses are required for subscription' : 'addresses are required',
    };
  }
  return {
    ok: true,
    value: { types: types as StreamEventType[], addresses: addresses.value, traceHashes: hashes.value },
  };
}

function withId<T extends object>(id: string | undefined, reply: T): T & { id?: string } {
  return id === undefined ? reply : { id, ...reply };
}

// ---------------------------------------------------------------------------------------------------------------
// SSE (§1.3)
// ---------------------------------------------------------------------------------------------------------------

/** Stands for a request body that could not be parsed as JSON; `message` goes after the error prefix. */
export class DecodeFailure {
  constructor(readonly message: string) {}
}

/** JSON.parse, with a failure as a DecodeFailure for parseSseRequest (an empty body included). */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return new DecodeFailure('unexpected end of JSON input');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return new DecodeFailure((err as Error).message);
  }
}

/**
 * Whether the reference server (Fiber's body parser) decodes a Content-Type as JSON: lower-cased, cut at `;`,
 * ending in `json` (so `application/json; charset=utf-8` and `application/vnd.api+json` do; a missing one does not).
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase();
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).endsWith('json');
}

export type SseParseResult =
  | { ok: true; id?: string; subscription: Subscription }
  | { ok: false; status: 400; body: ErrorReply };

function sseError(error: string, id?: string): SseParseResult {
  return { ok: false, status: 400, body: withId(id, { error }) };
}

/** The 400 body the reference server gives a request of a content type it cannot decode (anything but JSON here). */
export function unsupportedContentType(): ErrorReply {
  return { error: 'invalid subscription request: Unprocessable Entity' };
}

export interface SseParseOptions {
  /** Every X-Actions-Version header value, in order (a comma-separated value is one name). */
  actionsVersionHeader: readonly string[];
  /** X-Max-Subscribed-Addr; -1 (or no limiting key) is unlimited, 0 rejects any address. */
  maxAddresses: number;
}

/**
 * The SSE request body (JSON.parse's result, or a DecodeFailure) as a subscription, or the 400 to answer. Decoding
 * errors carry no id; validation errors and the address limit carry the body's id. The 429 connection limit (§2.5
 * check 8) belongs between validation and the address limit: to keep that order, pass maxAddresses -1 and call
 * sseAddressLimitError after the connection check.
 */
export function parseSseRequest(body: unknown, opts: SseParseOptions): SseParseResult {
  if (body instanceof DecodeFailure) return sseError(`invalid subscription request: ${body.message}`);
  const decoded = decodeObject(body, SSE_FIELDS);
  if (!decoded.ok) return sseError(`invalid subscription request: ${decoded.error}`);
  const req = decoded.value;
  const id = req.id;
  const valid = validateSubscribe(req, 'sse');
  if (!valid.ok) return sseError(valid.error, id);
  const limit = sseAddressLimitError(valid.value.addresses.length, opts.maxAddresses, id);
  if (limit) return limit;
  const supported =
    req.supported_action_types && req.supported_action_types.length > 0
      ? req.supported_action_types
      : opts.actionsVersionHeader.length > 0
        ? opts.actionsVersionHeader
        : ['latest'];
  const subscription: Subscription = {
    types: new Set(valid.value.types),
    addresses: new Set(valid.value.addresses),
    traceHashes: new Set(valid.value.traceHashes),
    minFinality: req.min_finality ?? 'finalized',
    includeAddressBook: req.include_address_book ?? false,
    includeMetadata: req.include_metadata ?? false,
    actionTypes: req.action_types && req.action_types.length > 0 ? new Set(req.action_types) : null,
    supportedActionTypes: expandSupportedActionTypes(supported),
  };
  return withId(id, { ok: true as const, subscription });
}

/** §2.5 check 9 on SSE: `too many addresses: <n> > max <m>` unless the limit is -1; undefined when within it. */
export function sseAddressLimitError(count: number, maxAddresses: number, id?: string): SseParseResult | undefined {
  if (maxAddresses === -1 || count <= maxAddresses) return undefined;
  return sseError(`too many addresses: ${count} > max ${maxAddresses}`, id);
}

// ---------------------------------------------------------------------------------------------------------------
// WebSocket (§1.4)
// ---------------------------------------------------------------------------------------------------------------

export interface WsSessionOptions {
  /** The first X-Actions-Version value of the upgrade request; absent or empty means `latest`. */
  actionsVersion?: string;
  /** X-Max-Subscribed-Addr as stored for the limiting key; only a value > 0 limits. */
  maxAddresses: number;
}

/** One WebSocket connection's subscription and its operations: each incoming message in, its reply frame out. */
export class WsSession {
  private current: Subscription;
  private readonly maxAddresses: number;

  constructor(opts: WsSessionOptions) {
    this.maxAddresses = opts.maxAddresses;
    this.current = {
      types: new Set(),
      addresses: new Set(),
      traceHashes: new Set(),
      minFinality: 'finalized',
      includeAddressBook: false,
      includeMetadata: false,
      actionTypes: null,
      supportedActionTypes: expandSupportedActionTypes([opts.actionsVersion || 'latest']),
    };
  }

  /** The live subscription. Never mutated: a successful subscribe or unsubscribe replaces the object. */
  get subscription(): Subscription {
    return this.current;
  }

  /** The reply frame for one text (or binary, as text) message. */
  handle(text: string): WsReply {
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch (err) {
      const message = text.length === 0 ? 'unexpected end of JSON input' : (err as Error).message;
      return { error: `invalid request envelope: ${message}` };
    }
    const env = decodeObject(body, ENVELOPE_FIELDS, ENVELOPE_KEEP_ON_NULL);
    if (!env.ok) return { error: `invalid request envelope: ${env.error}` };
    const id = env.value.id;
    const op = env.value.operation ?? '';
    switch (op) {
      case 'ping':
        return withId(id, { status: 'pong' as const });
      case 'subscribe':
        return withId(id, this.subscribe(body));
      case 'unsubscribe':
        return withId(id, this.unsubscribe(body));
      default:
        return withId(id, { error: `unknown operation: ${op}` });
    }
  }

  private subscribe(body: unknown): { status: 'subscribed' } | { error: string } {
    const decoded = decodeObject(body, SUBSCRIBE_FIELDS);
    if (!decoded.ok) return { error: `invalid subscribe request: ${decoded.error}` };
    const req = decoded.value;
    const valid = validateSubscribe(req, 'ws');
    if (!valid.ok) return { error: valid.error };
    const n = valid.value.addresses.length;
    // Every subscribe replaces the addresses, so the count already held is 0.
    if (this.maxAddresses > 0 && n > this.maxAddresses) {
      return { error: `address limit exceeded: current 0 + new ${n} > max ${this.maxAddresses}` };
    }
    const prev = this.current;
    // Addresses, hashes and types are replaced; the rest changes only when given (the arrays: non-empty).
    this.current = {
      types: new Set(valid.value.types),
      addresses: new Set(valid.value.addresses),
      traceHashes: new Set(valid.value.traceHashes),
      minFinality: req.min_finality ?? prev.minFinality,
      includeAddressBook: req.include_address_book ?? prev.includeAddressBook,
      includeMetadata: req.include_metadata ?? prev.includeMetadata,
      actionTypes: req.action_types && req.action_types.length > 0 ? new Set(req.action_types) : prev.actionTypes,
      supportedActionTypes:
        req.supported_action_types && req.supported_action_types.length > 0
          ? expandSupportedActionTypes(req.supported_action_types)
          : prev.supportedActionTypes,
    };
    return { status: 'subscribed' };
  }

  private unsubscribe(body: unknown): { status: 'unsubscribed' } | { error: string } {
    const decoded = decodeObject(body, UNSUBSCRIBE_FIELDS);
    if (!decoded.ok) return { error: `invalid unsubscribe request: ${decoded.error}` };
    const addressList = decoded.value.addresses ?? [];
    const hashList = decoded.value.trace_external_hash_norms ?? [];
    if (addressList.length === 0 && hashList.length === 0) {
      return { error: 'addresses or trace_external_hash_norms are required' };
    }
    const addresses = normalizeAddressList(addressList);
    if (!addresses.ok) return { error: addresses.error };
    const hashes = normalizeHashList(hashList);
    if (!hashes.ok) return { error: hashes.error };
    const prev = this.current;
    const remainingAddresses = new Set(prev.addresses);
    for (const a of addresses.value) remainingAddresses.delete(a);
    const remainingHashes = new Set(prev.traceHashes);
    for (const h of hashes.value) remainingHashes.delete(h);
    this.current = { ...prev, addresses: remainingAddresses, traceHashes: remainingHashes };
    return { status: 'unsubscribed' };
  }
}
