// The shared text parsers and parameter normalisation, without a database. The same parsers run on
// real rows from both back ends in test/db/database.test.ts.
import { describe, expect, it } from 'vitest';
import { normalizeParam, parseArray, parseBytea, parseTimestamp, TEXT_PARSERS } from './values.ts';

describe('text parsers', () => {
  it('reads int8 as bigint at both limits', () => {
    expect(TEXT_PARSERS[20]!('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(TEXT_PARSERS[20]!('9223372036854775807')).toBe(9223372036854775807n);
  });

  it('reads bytea in hex and escape output as Buffers', () => {
    expect(parseBytea('\\x00ff5c')).toEqual(Buffer.from([0, 0xff, 0x5c]));
    expect(parseBytea('a\\\\\\001')).toEqual(Buffer.from([0x61, 0x5c, 1]));
  });

  it('reads timestamps with any offset as the same instant', () => {
    const utc = Date.UTC(2026, 6, 17, 10, 20, 30, 123);
    expect(parseTimestamp('2026-07-17 10:20:30.123456+00').getTime()).toBe(utc);
    expect(parseTimestamp('2026-07-17 13:20:30.123456+03').getTime()).toBe(utc);
    expect(parseTimestamp('2026-07-17 05:50:30.123-04:30').getTime()).toBe(utc);
    expect(parseTimestamp('2026-07-17 10:20:30').getTime()).toBe(Date.UTC(2026, 6, 17, 10, 20, 30));
  });

  it('reads array literals: quotes, escapes, NULL, nesting, bounds', () => {
    expect(parseArray('{1,NULL,3}', (s) => BigInt(s))).toEqual([1n, null, 3n]);
    expect(parseArray('{"a \\"b\\"","NULL",""}', (s) => s)).toEqual(['a "b"', 'NULL', '']);
    expect(parseArray('{{1,2},{3,4}}', Number)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parseArray('[0:1]={7,8}', Number)).toEqual([7, 8]);
    expect(parseArray('{}', Number)).toEqual([]);
  });
});

describe('normalizeParam', () => {
  it('turns bigints into decimal text, Uint8Arrays into Buffers, objects into JSON', () => {
    expect(normalizeParam(-9223372036854775808n)).toBe('-9223372036854775808');
    expect(Buffer.isBuffer(normalizeParam(new Uint8Array([1, 2])))).toBe(true);
    expect(normalizeParam({ a: 1n })).toBe('{"a":"1"}');
    expect(normalizeParam([1n, null, [2n]])).toEqual(['1', null, ['2']]);
    expect(normalizeParam(undefined)).toBe(null);
    expect(normalizeParam('x')).toBe('x');
  });
});
