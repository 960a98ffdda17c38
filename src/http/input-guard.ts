// Text a request may carry, checked before any handler reads it: query parameters and JSON bodies must be valid
// UTF-8 without NUL characters (PostgreSQL cannot store or compare a NUL in text and answers such a parameter with an
// encoding error; a lone surrogate cannot be encoded at all), and a JSON body may nest at most MAX_JSON_DEPTH levels
// (checked by a linear scan before JSON.parse, so a megabyte of brackets costs a scan, not a parse and a walk).
// Violations are 4xx naming the parameter and the rule; no handler ever sees such input.
import { isUtf8 } from 'node:buffer';
import { HttpError } from './errors.ts';

/**
 * Deepest JSON body accepted. A get-method stack nests four JSON levels per tuple level in tonlib's typed form and
 * the TVM is given at most 256 levels (src/ton/stack/tvm-bounds.ts); nothing else the APIs take nests deeper.
 */
export const MAX_JSON_DEPTH = 1100;

/** Characters of a parameter name quoted in an error. */
const NAME_PREFIX = 40;

/** A UTF-16 surrogate without its pair (what a JSON "\ud800" escape decodes to). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function quoted(name: string): string {
  return `'${name.length > NAME_PREFIX ? `${name.slice(0, NAME_PREFIX)}...` : name}'`;
}

function badText(s: string): string | null {
  if (s.includes('\0')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(s)) return 'is not valid Unicode (a lone surrogate)';
  return null;
}

function decode(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Throws 422 when a query parameter of `url` is not percent-encoded UTF-8 or holds a NUL. */
export function checkQueryText(url: string): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  const hash = url.indexOf('#', q);
  for (const pair of url.slice(q + 1, hash < 0 ? undefined : hash).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const name = decode(rawName);
    if (name === null) throw new HttpError(422, `query parameter name ${quoted(rawName)} is not valid UTF-8`);
    const nameProblem = badText(name);
    if (nameProblem !== null) throw new HttpError(422, `query parameter name ${quoted(rawName)} ${nameProblem}`);
    if (eq < 0) continue;
    const value = decode(pair.slice(eq + 1));
    if (value === null) throw new HttpError(422, `invalid ${quoted(name)}: the value is not valid UTF-8`);
    const problem = badText(value);
    if (problem !== null) throw new HttpError(422, `invalid ${quoted(name)}: the value ${problem}`);
  }
}

/** Nesting depth of JSON text (brackets outside strings), stopping as soon as it passes `max`. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Throws 422 naming the first string (value or key) of a parsed JSON body that holds a NUL or a lone surrogate. */
export function checkJsonText(value: unknown, path = 'body'): void {
  if (typeof value === 'string') {
    const problem = badText(value);
    if (problem !== null) throw new HttpError(422, `invalid ${path}: the string ${problem}`);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkJsonText(value[i], `${path}[${i}]`);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const where = `${path}.${k.length > NAME_PREFIX ? `${k.slice(0, NAME_PREFIX)}...` : k}`;
    const problem = badText(k);
    if (problem !== null) throw new HttpError(422, `invalid ${where}: the key ${problem}`);
    checkJsonText(v, where);
  }
}

/** A request body that could not be read as JSON: 400 (v2 answers it as toncenter does, 422 "failed to parse"). */
export class BodyParseError extends HttpError {
  constructor(message: string, cause?: unknown) {
    super(400, message, { cause });
    this.name = 'BodyParseError';
  }
}

/** A JSON body's bytes as text, refused when they are not UTF-8 or nest too deep. */
export function jsonBodyText(body: Buffer): string {
  if (!isUtf8(body)) throw new BodyParseError('the JSON body is not valid UTF-8');
  const text = body.toString('utf8');
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new BodyParseError(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return text;
}
