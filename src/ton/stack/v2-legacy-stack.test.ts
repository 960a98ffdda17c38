import { Address, beginCell, Cell, serializeTuple, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { formatBocBase64 } from './boc-base64.ts';
import { parseV2CellObject, toV2CellObject } from './v2-cell-object.ts';
import { parseV2LegacyStack, toV2LegacyStack } from './v2-legacy-stack.ts';
import { makeList, toV2StdStack } from './v2-std-stack.ts';

const num = (v: bigint): TupleItem => ({ type: 'int', value: v });
// 267 bits: an addr_std, the cell of the v2-api.md §6.5 example ("len": 267).
const addrCell = beginCell().storeAddress(Address.parse('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N')).endCell();
const tree = beginCell()
  .storeUint(1, 4)
  .storeRef(addrCell)
  .storeRef(beginCell().storeStringTail('hi').endCell())
  .endCell();

describe('legacy runGetMethod stack: output', () => {
  it('writes the spec example shapes: hex numbers and cells with bytes and object', () => {
    const out = toV2LegacyStack([num(0x67c6e7f0n), { type: 'cell', cell: addrCell }]);
    expect(out[0]).toEqual(['num', '0x67c6e7f0']);
    const [tag, value] = out[1] as ['cell', { bytes: string; object: unknown }];
    expect(tag).toBe('cell');
    expect(Object.keys(value)).toEqual(['bytes', 'object']);
    expect(value.bytes).toBe(formatBocBase64(addrCell));
    expect(value.object).toMatchObject({ data: { len: 267 }, refs: [], special: false });
    // addr_std: tag 10, no anycast, workchain 0 -> first byte 0x80, like the "gA…" of the spec example.
    expect(Buffer.from((value.object as { data: { b64: string } }).data.b64, 'base64')[0]).toBe(0x80);
    expect(JSON.stringify(value.object)).toMatch(
      /^\{"data":\{"b64":"[^"]+","len":267\},"refs":\[\],"special":false\}$/,
    );
  });

  it('writes slices as cells, null as an empty list, builders as unsupported', () => {
    const out = toV2LegacyStack([
      { type: 'slice', cell: addrCell },
      { type: 'null' },
      makeList([num(5n), { type: 'slice', cell: addrCell }]),
      { type: 'tuple', items: [num(-5n), num(6n), num(7n)] },
      { type: 'builder', cell: addrCell },
    ]);
    expect(out[0]![0]).toBe('cell');
    expect(out[1]).toEqual(['list', { '@type': 'tvm.list', elements: [] }]);
    // Inside lists and tuples the elements are tonlib typed entries: decimal numbers, slices stay slices.
    expect(out[2]).toEqual([
      'list',
      {
        '@type': 'tvm.list',
        elements: toV2StdStack([num(5n), { type: 'slice', cell: addrCell }]),
      },
    ]);
    const list = out[2] as ['list', { elements: Array<Record<string, unknown>> }];
    expect(list[1].elements.map((e) => e['@type'])).toEqual(['tvm.stackEntryNumber', 'tvm.stackEntrySlice']);
    expect(out[3]).toMatchObject(['tuple', { '@type': 'tvm.tuple', elements: [{ number: { number: '-5' } }, {}, {}] }]);
    expect(out[4]).toEqual(['unsupported', '']);
  });

  it('has no form for NaN (toncenter cannot render it)', () => {
    expect(() => toV2LegacyStack([{ type: 'nan' }])).toThrowError(
      expect.objectContaining({ code: 'TG_CODEC_INVALID' }),
    );
  });

  it('pads cell object data with the completion tag (2.1) or zeros (2.0)', () => {
    const c = beginCell().storeUint(0b101, 3).endCell();
    expect(toV2CellObject(c).data).toEqual({ b64: Buffer.from([0b10110000]).toString('base64'), len: 3 });
    expect(toV2CellObject(c, 'zeros').data).toEqual({ b64: Buffer.from([0b10100000]).toString('base64'), len: 3 });
    const [, v] = toV2LegacyStack([{ type: 'cell', cell: c }], { cellDataPadding: 'zeros' })[0] as [
      'cell',
      { object: { data: { b64: string } } },
    ];
    expect(v.object.data.b64).toBe('oA==');
    expect(toV2CellObject(Cell.EMPTY)).toEqual({ data: { b64: '', len: 0 }, refs: [], special: false });
  });
});

describe('legacy runGetMethod stack: input', () => {
  it('reads the input forms of v2-api.md §7.1', () => {
    const b64 = formatBocBase64(tree);
    const items = parseV2LegacyStack([
      ['num', 42],
      ['num', '0x1f'],
      ['int', '-0x1f'],
      ['number', '123'],
      ['integer', '-7'],
      ['tvm.Slice', b64],
      ['tvm.Cell', b64],
      ['cell', { bytes: b64 }],
      ['slice', { bytes: b64, object: toV2CellObject(tree) }],
      ['tuple', { '@type': 'tvm.tuple', elements: toV2StdStack([num(1n), { type: 'null' }]) }],
      ['tvm.List', { '@type': 'tvm.list', elements: toV2StdStack([num(1n), num(2n)]) }],
      ['list', { '@type': 'tvm.list', elements: [] }],
    ]);
    expect(items.slice(0, 5)).toEqual([num(42n), num(31n), num(-31n), num(123n), num(-7n)]);
    expect(items.slice(5, 9).map((i) => i.type)).toEqual(['slice', 'cell', 'cell', 'slice']);
    for (const i of items.slice(5, 9)) if ('cell' in i) expect(i.cell.equals(tree)).toBe(true);
    // A null inside the tuple travels as an empty tvm.list and comes back as null.
    expect(items[9]).toEqual({ type: 'tuple', items: [num(1n), { type: 'null' }] });
    expect(items[10]).toEqual(makeList([num(1n), num(2n)]));
    expect(items[11]).toEqual({ type: 'null' });
  });

  it('reads the Python 2.0 cell-object string and the forms @ton/ton exchanges', () => {
    const b64 = formatBocBase64(tree);
    const [py, nul, builder, tvmBuilder] = parseV2LegacyStack([
      ['cell', JSON.stringify(toV2CellObject(tree, 'zeros'))],
      ['null'],
      ['builder', { bytes: b64 }],
      ['tvm.Builder', b64],
    ]);
    expect(py?.type === 'cell' && py.cell.equals(tree)).toBe(true);
    expect(nul).toEqual({ type: 'null' });
    expect(builder?.type).toBe('builder');
    expect(tvmBuilder?.type).toBe('builder');
  });

  it('parses its own output back to the same stack, slices turning into cells', () => {
    const stack: TupleItem[] = [
      num(-(2n ** 256n)),
      { type: 'cell', cell: tree },
      makeList([num(1n), makeList([{ type: 'slice', cell: addrCell }])]),
      { type: 'tuple', items: [{ type: 'cell', cell: tree }, num(2n)] },
    ];
    const json = JSON.parse(JSON.stringify(toV2LegacyStack(stack)));
    expect(serializeTuple(parseV2LegacyStack(json)).equals(serializeTuple(stack))).toBe(true);
    const [back] = parseV2LegacyStack(toV2LegacyStack([{ type: 'slice', cell: addrCell }]));
    expect(back?.type).toBe('cell');
  });

  it('rebuilds cells from cell objects, exotic ones included', () => {
    expect(parseV2CellObject(toV2CellObject(tree), 'o').equals(tree)).toBe(true);
    expect(parseV2CellObject(toV2CellObject(tree, 'zeros'), 'o').equals(tree)).toBe(true);
    const pruned = beginCell()
      .storeUint(1, 8)
      .storeUint(1, 8)
      .storeBuffer(tree.hash())
      .storeUint(tree.depth(), 16)
      .endCell({ exotic: true });
    expect(parseV2CellObject(toV2CellObject(pruned), 'o').equals(pruned)).toBe(true);
    expect(toV2CellObject(pruned).special).toBe(true);
  });

  it("rejects bad entries with toncenter's messages", () => {
    const b64 = formatBocBase64(tree);
    const cases: Array<[unknown, RegExp]> = [
      [{ a: 1 }, /stack: expected an array/],
      [[['num']], /expected 2 elements in stack entry, got 1/],
      [[['num', 1, 2]], /expected 2 elements in stack entry, got 3/],
      [[[1, 2]], /stack\[0\]\[0\]: expected the entry type as a string/],
      [[['num', '12abc']], /stack\[0\]\[1\]: expected a decimal/],
      [[['num', 1.5]], /expected an integer, got 1.5/],
      [[['num', null]], /expected an integer or a numeric string, got null/],
      [[['tvm.Cell', '']], /empty string/],
      [[['tvm.Slice', { bytes: b64 }]], /expected a base64 BoC string, got an object/],
      [[['cell', { object: toV2CellObject(tree) }]], /stack\[0\]\[1\]\.bytes: expected a base64 BoC string/],
      [[['slice', b64]], /use tvm.Cell\/tvm.Slice for a bare base64 BoC/],
      [[['tuple', []]], /expected \{"@type": "tvm.tuple"/],
      [[['list', { '@type': 'tvm.tuple', elements: [] }]], /@type: expected 'tvm.list'/],
      [[['tuple', { elements: [['num', 1]] }]], /elements\[0\]: expected a tvm.StackEntry object, got an array/],
      [[['unsupported', '']], /unsupported stack entry type: unsupported/],
      [[['dict', {}]], /unsupported stack entry type: dict/],
      [[['cell', '{"data":{"b64":"AA==","len":9},"refs":[]}']], /9 bits need 2 bytes/],
      [[['cell', '{"data":{"b64":"AA==","len":2},"refs":[],"special":"no"}']], /special: expected a boolean/],
    ];
    for (const [input, message] of cases) {
      expect(() => parseV2LegacyStack(input)).toThrowError(message);
      expect(() => parseV2LegacyStack(input)).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
    }
    expect(() => parseV2LegacyStack([['dict', {}]])).toThrowError(
      expect.objectContaining({ code: 'TG_INPUT_INVALID', details: { toncenterStatus: 542 } }),
    );
  });
});
