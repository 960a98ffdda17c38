// JSON with integers kept exact: the vectors (and toncenter's classifier output) hold amounts, query ids and nonces as
// bare JSON integers up to 2^128, which JSON.parse rounds to doubles. parseLossless reads an integer literal beyond
// Number.MAX_SAFE_INTEGER as a bigint (other numbers as numbers); stringifyLossless writes bigints as bare integers.
// Strict RFC 8259 otherwise (no comments, no trailing commas); errors name the offset.

export type LosslessJson = null | boolean | number | bigint | string | LosslessJson[] | { [k: string]: LosslessJson };

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const MAX_DEPTH = 512;

export function parseLossless(text: string): LosslessJson {
  let i = 0;
  const ws = () => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= text.length ? 'unexpected end of JSON' : `${what} '${text[i]}'`, i);
  };
  const str = (): string => {
    // i is at the opening quote; the slice up to the closing quote is handed to JSON.parse for the escapes.
    const start = i;
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c < 0x20) fail('control character in a string:');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw new JsonSyntaxError('invalid string escape', start);
    }
  };
  const value = (depth: number): LosslessJson => {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`nested deeper than ${MAX_DEPTH}`, i);
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: { [k: string]: LosslessJson } = {};
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key, found');
        const k = str();
        ws();
        if (text[i] !== ':') fail("expected ':', found");
        i++;
        Object.defineProperty(out, k, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return out;
        }
        fail("expected ',' or '}', found");
      }
    }
    if (c === '[') {
      i++;
      const out: LosslessJson[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return out;
        }
        fail("expected ',' or ']', found");
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('unexpected character');
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const v = value(0);
  ws();
  if (i < text.length) fail('unexpected data after the JSON value:');
  return v;
}

/** JSON.stringify with bigints written as bare integers (JSON.stringify would throw on them). */
export function stringifyLossless(v: unknown, indent?: number): string {
  const marks: string[] = [];
  // A token no string in `v` holds: a string with a NUL and this random tag is not expected in real data.
  const tag = Math.random().toString(36).slice(2, 10);
  const text = JSON.stringify(
    v,
    (_k, x) => {
      if (typeof x !== 'bigint') return x;
      marks.push(x.toString());
      return `\u0000${tag}:${marks.length - 1}\u0000`;
    },
    indent,
  );
  if (text === undefined) return 'null';
  return marks.length === 0
    ? text
    : text.replace(new RegExp(`"\\\\u0000${tag}:(\\d+)\\\\u0000"`, 'g'), (_m, n: string) => marks[Number(n)]!);
}
