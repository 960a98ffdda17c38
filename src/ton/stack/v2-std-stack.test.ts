import { beginCell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { formatBocBase64 } from './boc-base64.ts';
import { formatTvmIntHex, parseTvmInt, TVM_INT_MAX, TVM_INT_MIN } from './tvm-int.ts';
import { listElements, makeList, parseTvmStackEntry, parseV2StdStack, toV2StdStack } from './v2-std-stack.ts';

const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeBit(true).endCell()).endCell();
const sliceCell = beginCell().storeUint(5, 3).endCell();
const num = (v: bigint): TupleItem => ({ type: 'int', value: v });
const NULL: TupleItem = { type: 'null' };

/** A stack with every kind of value, including a list, a pair that is not a list, and deep nesting. */
const SAMPLE: TupleItem[] = [
  num(0n),
  num(-1n),
  num(TVM_INT_MAX),
  num(TVM_INT_MIN),
  { type: 'cell', cell },
  { type: 'slice', cell: sliceCell },
  NULL,
  makeList([num(1n), { type: 'cell', cell }, makeList([num(2n)])]),
  { type: 'tuple', items: [num(1n), num(2n)] }, // 2-tuple whose tail is not a list: a tuple
  { type: 'tuple', items: [] },
  { type: 'tuple', items: [num(3n), { type: 'tuple', items: [NULL, { type: 'slice', cell: sliceCell }] }, num(4n)] },
];

describe('tonlib typed entries (runGetMethodStd)', () => {
  it('writes each value as tonlib does', () => {
    const json = toV2StdStack(SAMPLE);
    expect(json[0]).toEqual({
      '@type': 'tvm.stackEntryNumber',
      number: { '@type': 'tvm.numberDecimal', number: '0' },
    });
    expect(json[1]).toMatchObject({ number: { number: '-1' } });
    expect(json[2]).toMatchObject({ number: { number: (2n ** 256n - 1n).toString() } });
    expect(json[4]).toEqual({
      '@type': 'tvm.stackEntryCell',
      cell: { '@type': 'tvm.cell', bytes: formatBocBase64(cell) },
    });
    expect(json[5]).toEqual({
      '@type': 'tvm.stackEntrySlice',
      slice: { '@type': 'tvm.slice', bytes: formatBocBase64(sliceCell) },
    });
    // null is the empty list; a chain of pairs ending in null is a list of its heads.
    expect(json[6]).toEqual({ '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } });
    expect(json[7]).toMatchObject({ '@type': 'tvm.stackEntryList', list: { elements: [{}, {}, {}] } });
    expect(json[8]).toMatchObject({ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple' } });
    expect(json[9]).toEqual({ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [] } });
    // JSON key order is part of the wire form: @type first.
    expect(JSON.stringify(json[0])).toBe(
      '{"@type":"tvm.stackEntryNumber","number":{"@type":"tvm.numberDecimal","number":"0"}}',
    );
  });

  it('round-trips through JSON text and through the VmStack cell (serializeTuple/parseTuple)', () => {
    const text = JSON.stringify(toV2StdStack(SAMPLE));
    const back = parseV2StdStack(JSON.parse(text));
    expect(serializeTuple(back).equals(serializeTuple(SAMPLE))).toBe(true);
    const viaCell = parseTuple(serializeTuple(SAMPLE));
    expect(JSON.stringify(toV2StdStack(viaCell))).toBe(text);
  });

  it('writes NaN as tonlib does and reads it back; builders are unsupported', () => {
    const json = toV2StdStack([{ type: 'nan' }, { type: 'builder', cell }]);
    expect(json).toEqual([
      { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: 'NaN' } },
      { '@type': 'tvm.stackEntryUnsupported' },
    ]);
    expect(parseTvmStackEntry(json[0])).toEqual({ type: 'nan' });
    expect(() => parseTvmStackEntry(json[1])).toThrowError(/cannot be sent to a contract/);
  });

  it('reads hex numbers and Python-style inner @types', () => {
    const [a, b] = parseV2StdStack([
      { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '0x1F' } },
      { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.Cell', bytes: formatBocBase64(cell) } },
    ]);
    expect(a).toEqual(num(31n));
    expect(b).toMatchObject({ type: 'cell' });
    if (b?.type === 'cell') expect(b.cell.equals(cell)).toBe(true);
  });

  it('rejects malformed entries with the path of the culprit', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /stack: expected an array/],
      [[42], /stack\[0\]: expected a tvm.StackEntry object, got number 42/],
      [[{ '@type': 'tvm.stackEntryFoo' }], /stack\[0\]\.@type: expected tvm.stackEntryNumber/],
      [
        [{ '@type': 'tvm.stackEntryNumber', number: { number: '1.5' } }],
        /stack\[0\]\.number\.number: expected a decimal/,
      ],
      [[{ '@type': 'tvm.stackEntryNumber', number: { number: 'NaN', '@type': 'tvm.cell' } }], /expected @type/],
      [[{ '@type': 'tvm.stackEntryCell', cell: { bytes: 'AAAA' } }], /stack\[0\]\.cell\.bytes: not a valid BoC/],
      [[{ '@type': 'tvm.stackEntrySlice' }], /stack\[0\]\.slice: expected a tvm.slice object/],
      [
        [{ '@type': 'tvm.stackEntryTuple', tuple: { elements: [{ '@type': 'tvm.stackEntryList', list: {} }] } }],
        /stack\[0\]\.tuple\.elements\[0\]\.list\.elements: expected an array/,
      ],
    ];
    for (const [input, message] of cases) {
      expect(() => parseV2StdStack(input)).toThrowError(message);
      expect(() => parseV2StdStack(input)).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
    }
  });

  it("enforces tonlib's depth and size limits both ways", () => {
    let deep: unknown = { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [] } };
    for (let i = 0; i < 1025; i++) deep = { '@type': 'tvm.stackEntryTuple', tuple: { elements: [deep] } };
    expect(() => parseV2StdStack([deep])).toThrowError(/nested deeper than 1024/);
    const wide = Array.from({ length: 8001 }, () => ({ '@type': 'tvm.stackEntryList', list: { elements: [] } }));
    const big = { '@type': 'tvm.stackEntryTuple', tuple: { elements: wide } };
    expect(() => parseV2StdStack([big])).toThrowError(/more than 8000/);
    expect(() => toV2StdStack(Array.from({ length: 8000 }, () => NULL))).toThrowError(/more than 7999 entries/);
    expect(toV2StdStack(Array.from({ length: 7999 }, () => NULL))).toHaveLength(7999);
  });
});

describe('TVM lists', () => {
  it('tells lists from tuples as tonlib does', () => {
    expect(listElements(NULL)).toEqual([]);
    expect(listElements(makeList([num(1n), num(2n)]))).toEqual([num(1n), num(2n)]);
    expect(makeList([num(1n)])).toEqual({ type: 'tuple', items: [num(1n), NULL] });
    expect(listElements({ type: 'tuple', items: [num(1n), num(2n)] })).toBeUndefined();
    expect(listElements({ type: 'tuple', items: [num(1n), NULL, NULL] })).toBeUndefined();
    expect(listElements(num(1n))).toBeUndefined();
  });
});

describe('stack numbers', () => {
  it('parse the forms toncenter accepts and check the 257-bit range', () => {
    expect(parseTvmInt('123', 'n')).toEqual(num(123n));
    expect(parseTvmInt('-123', 'n')).toEqual(num(-123n));
    expect(parseTvmInt('0x1a', 'n')).toEqual(num(26n));
    expect(parseTvmInt('-0x1A', 'n')).toEqual(num(-26n));
    expect(parseTvmInt(42, 'n')).toEqual(num(42n));
    expect(parseTvmInt(`0x${'f'.repeat(64)}`, 'n')).toEqual(num(TVM_INT_MAX));
    expect(parseTvmInt(`-0x1${'0'.repeat(64)}`, 'n')).toEqual(num(TVM_INT_MIN));
    expect(() => parseTvmInt(`0x1${'0'.repeat(64)}`, 'n')).toThrowError(/does not fit a 257-bit/);
    expect(() => parseTvmInt(2 ** 60, 'n')).toThrowError(/send large numbers as strings/);
    for (const bad of ['', '+1', '0b101', '1e3', ' 1', '0x', 'NaN']) {
      expect(() => parseTvmInt(bad, 'n')).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
    }
    expect(parseTvmInt('NaN', 'n', true)).toEqual({ type: 'nan' });
    expect(() => parseTvmInt(true, 'n')).toThrowError(/got boolean true/);
  });

  it('format hex as the legacy stack does', () => {
    expect(formatTvmIntHex(0n)).toBe('0x0');
    expect(formatTvmIntHex(-1n)).toBe('-0x1');
    expect(formatTvmIntHex(0x67c6e7f0n)).toBe('0x67c6e7f0');
    expect(formatTvmIntHex(TVM_INT_MIN)).toBe(`-0x1${'0'.repeat(64)}`);
  });
});
