import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseLossless, stringifyLossless } from './lossless-json.ts';

describe('lossless JSON', () => {
  it('keeps integers beyond 2^53 exact and others as numbers', () => {
    const v = parseLossless(
      '{"a": 908814249160002342682739450328523377, "b": 9007199254740991, "c": -12, "d": 49.0, "e": 1e3}',
    );
    expect(v).toEqual({ a: 908814249160002342682739450328523377n, b: 9007199254740991, c: -12, d: 49, e: 1000 });
    expect(parseLossless('-9007199254740993')).toBe(-9007199254740993n);
  });

  it('reads strings with escapes, nested values and literals', () => {
    expect(parseLossless(' ["a\\"b\\u00e9\\n", {"x": [true, false, null]}, {}] ')).toEqual([
      'a"bé\n',
      { x: [true, false, null] },
      {},
    ]);
  });

  it('keeps a key named __proto__ as data', () => {
    const v = parseLossless('{"__proto__": 1}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('refuses malformed JSON naming the offset', () => {
    for (const [text, offset] of [
      ['{"a": 1,}', 8],
      ['[1 2]', 3],
      ['{"a" 1}', 5],
      ['01', 1],
      ['"abc', 4],
      ['', 0],
      ['{"a": tru}', 6],
    ] as const) {
      let err: unknown;
      try {
        parseLossless(text);
      } catch (e) {
        err = e;
      }
      expect(err, text).toBeInstanceOf(JsonSyntaxError);
      expect((err as JsonSyntaxError).offset, text).toBe(offset);
    }
  });

  it('writes bigints as bare integers and round-trips', () => {
    const v = { a: 2n ** 100n, b: [1, -3n], s: 'text with "quotes" and \u0000' };
    const text = stringifyLossless(v);
    expect(text).toBe(`{"a":${(2n ** 100n).toString()},"b":[1,-3],"s":"text with \\"quotes\\" and \\u0000"}`);
    expect(parseLossless(text)).toEqual({ a: 2n ** 100n, b: [1, -3], s: 'text with "quotes" and \u0000' });
    expect(stringifyLossless({ x: 1n }, 2)).toBe('{\n  "x": 1\n}');
  });
});
