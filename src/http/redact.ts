// Secrets out of every log line, found by parsing, not by matching text: a query parameter is a secret when its name,
// percent-decoded the way the query parser decodes it (`api%5Fkey`, `API_KEY`), is a secret name; a header by its
// name; a JSON value by its key, at any depth. The HTTP server installs these as the serializers of the logger its
// requests log through, so any line with a `url`, `headers`, `body` or `params` field is redacted whoever writes it.

/** Query parameter and JSON field names that carry secrets (toncenter's key parameter, and common spellings). */
const SECRET_NAMES = new Set(['api_key', 'apikey', 'api-key', 'x-api-key', 'x_api_key', 'token', 'access_token']);
/** Headers that carry secrets. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export const REDACTED = '[redacted]';

/** Depth past which a logged JSON value is cut (a hostile body must not make logging expensive). */
const MAX_DEPTH = 16;

/** A query component decoded as the query parser does (`+` is a space); undecodable text stays as it is. */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

export function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name.trim().toLowerCase());
}

/** The URL with the value of every secret query parameter replaced; the rest kept byte for byte. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    return isSecretName(decodeComponent(name)) ? `${name}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

/** Headers with secret ones replaced (names compared case-insensitively). */
export function redactHeaders(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object') return headers;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) || isSecretName(name) ? REDACTED : value;
  }
  return out;
}

/** A JSON value with the value of every secret key replaced, at any depth (cut below MAX_DEPTH). */
export function redactJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : redactJson(v, depth + 1);
  return out;
}

/** pino serializers for the fields requests are logged with. */
export const REDACTING_SERIALIZERS = {
  url: (v: unknown) => (typeof v === 'string' ? redactUrl(v) : v),
  headers: redactHeaders,
  body: (v: unknown) => redactJson(v),
  params: (v: unknown) => redactJson(v),
  query: (v: unknown) => redactJson(v),
};
