// The COPY text encoder on its own: the exact bytes for each kind of value. That both back ends read
// these bytes back as the same rows is test/db/database.test.ts.
import { describe, expect, it } from 'vitest';
import { encodeCopyField, encodeCopyRows, encodeCopyText, pgComposite, pgJson, toPgText } from './copy.ts';
import { CopyTextWriter } from './copy-writer.ts';

async function collect(gen: AsyncGenerator<Buffer>): Promise<string[]> {
  const out: string[] = [];
  for await (const b of gen) out.push(b.toString('utf8'));
  return out;
}

describe('encodeCopyField', () => {
  it('writes NULL as \\N and the empty string as nothing', () => {
    expect(encodeCopyField(null)).toBe('\\N');
    expect(encodeCopyField(undefined)).toBe('\\N');
    expect(encodeCopyField('')).toBe('');
  });

  it('escapes backslash, newline, carriage return and tab, and nothing else', () => {
    expect(encodeCopyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    // A value that looks like NULL or the end-of-data marker stays data.
    expect(encodeCopyField('\\N')).toBe('\\\\N');
    expect(encodeCopyField('\\.')).toBe('\\\\.');
    expect(encodeCopyField('é ₮ 😀 \u0001 \u007f')).toBe('é ₮ 😀 \u0001 \u007f');
  });

  it('writes 64-bit values exactly, booleans as t/f', () => {
    expect(encodeCopyField(-9223372036854775808n)).toBe('-9223372036854775808');
    expect(encodeCopyField(18446744073709551615n)).toBe('18446744073709551615');
    expect(encodeCopyField(0)).toBe('0');
    expect(encodeCopyField(-2147483648)).toBe('-2147483648');
    expect(encodeCopyField(true)).toBe('t');
    expect(encodeCopyField(false)).toBe('f');
  });

  it('writes bytes as bytea hex with the backslash escaped for COPY', () => {
    expect(toPgText(Buffer.from([0, 0xff, 0x5c]))).toBe('\\x00ff5c');
    expect(encodeCopyField(Buffer.from([0, 0xff, 0x5c]))).toBe('\\\\x00ff5c');
    expect(encodeCopyField(new Uint8Array([1, 2]).subarray(1))).toBe('\\\\x02');
    expect(encodeCopyField(Buffer.alloc(0))).toBe('\\\\x');
  });

  it('writes arrays with every element quoted and NULL bare, nested arrays as nested braces', () => {
    expect(toPgText([1n, null, 'a"b\\c', ''])).toBe('{"1",NULL,"a\\"b\\\\c",""}');
    expect(toPgText([])).toBe('{}');
    expect(
      toPgText([
        [1, 2],
        [3, 4],
      ]),
    ).toBe('{{"1","2"},{"3","4"}}');
    // The array literal's backslashes are escaped once more for COPY.
    expect(encodeCopyField(['a\\b'])).toBe('{"a\\\\\\\\b"}');
  });

  it('writes composites with NULL fields empty and others quoted, also inside arrays', () => {
    expect(toPgText(pgComposite(-1, -9223372036854775808n, 5))).toBe('("-1","-9223372036854775808","5")');
    expect(toPgText(pgComposite(1, null, ''))).toBe('("1",,"")');
    expect(toPgText([pgComposite(0, 1n, 2)])).toBe('{"(\\"0\\",\\"1\\",\\"2\\")"}');
  });

  it('writes objects and pgJson values as JSON, bigints as decimal strings', () => {
    expect(toPgText({ '-1': 5n, x: 'a\tb' })).toBe('{"-1":"5","x":"a\\tb"}');
    expect(encodeCopyField({ x: 'a\tb' })).toBe('{"x":"a\\\\tb"}');
    expect(toPgText(pgJson([1, 2]))).toBe('[1,2]');
    expect(toPgText(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02T03:04:05.006Z');
  });

  it('refuses values PostgreSQL cannot store or this encoder cannot place', () => {
    const refused = (v: unknown) => {
      try {
        encodeCopyField(v);
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return 'accepted';
    };
    expect(refused('a\u0000b')).toBe('TG_DB_ENCODE');
    expect(refused(Number.NaN)).toBe('TG_DB_ENCODE');
    expect(refused(Number.POSITIVE_INFINITY)).toBe('TG_DB_ENCODE');
    expect(refused(new Date(Number.NaN))).toBe('TG_DB_ENCODE');
    expect(refused(new Map())).toBe('TG_DB_ENCODE');
    expect(refused(Symbol('x'))).toBe('TG_DB_ENCODE');
    expect(refused(() => 1)).toBe('TG_DB_ENCODE');
  });
});

describe('encodeCopyText / encodeCopyRows', () => {
  it('joins fields with tabs and ends each row with a newline', () => {
    expect(encodeCopyText([['a', null, 1n, true]], 4).text.toString()).toBe('a\t\\N\t1\tt\n');
  });

  it('yields chunks that end on row boundaries and counts the rows', async () => {
    let count = -1;
    const rows = Array.from({ length: 10 }, (_, i) => [i, 'x'.repeat(10)]);
    const chunks = await collect(encodeCopyRows(rows, 2, { chunkBytes: 30, onRows: (n) => (count = n) }));
    expect(count).toBe(10);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    expect(chunks.join('')).toBe(rows.map((r) => `${r[0]}\t${r[1]}\n`).join(''));
  });

  it('accepts async iterables', async () => {
    async function* gen() {
      yield [1n];
      yield [null];
    }
    expect((await collect(encodeCopyRows(gen(), 1))).join('')).toBe('1\n\\N\n');
  });

  it('names the row that has the wrong width or an unencodable value', async () => {
    await expect(collect(encodeCopyRows([[1, 2], [3]], 2))).rejects.toMatchObject({
      code: 'TG_DB_ENCODE',
      message: expect.stringContaining('row 1 has 1 values, expected 2'),
    });
    await expect(collect(encodeCopyRows([['ok'], ['bad\u0000']], 1))).rejects.toMatchObject({
      code: 'TG_DB_ENCODE',
      message: expect.stringContaining('row 1: text contains a NUL'),
    });
  });
});

describe('CopyTextWriter', () => {
  const sample = (i: number): unknown[] => [
    i,
    -i - 0.5,
    BigInt(i) * 10n ** 20n - 3n,
    i % 2 === 0,
    null,
    undefined,
    `plain ${i}`,
    `tab\there ${i}\nnew\\line\r`,
    `ünïcödé ${'\u{1F600}'.repeat(i % 4)} \ud800 lone`,
    Buffer.from([i & 0xff, 0, 0xff]),
    new Uint8Array([9, 8, 7, 6, 5]).subarray(1, 4),
    [`a${i}`, null, 'q"uote\\'],
    pgComposite(-1, 0x8000000000000000n, i),
    { k: `v\t${i}`, n: BigInt(i) },
    {},
    pgJson([1, 'x']),
    new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    '',
  ];

  it("writes each row as encodeCopyField's fields joined by tabs, growing past its first buffer", () => {
    const rows = Array.from({ length: 300 }, (_, i) => sample(i));
    const w = new CopyTextWriter(16);
    for (const r of rows) w.row(r, r.length);
    expect(w.rows).toBe(300);
    const lines = rows.map((r) => `${r.map(encodeCopyField).join('\t')}\n`);
    expect(w.take().equals(Buffer.from(lines.join(''), 'utf8'))).toBe(true);
    expect(w.length).toBe(0);
  });

  it('names the refused row and keeps the rows before it whole', () => {
    const w = new CopyTextWriter(16);
    w.row(['ok', 1], 2);
    expect(() => w.row(['fine', 'bad\u0000'], 2)).toThrow(/^row 1: text contains a NUL/);
    expect(() => w.row([1], 2)).toThrow(/^row 1 has 1 values, expected 2/);
    w.row(['next', 2], 2);
    expect(w.take().toString()).toBe('ok\t1\nnext\t2\n');
  });
});
