import { beginCell, serializeTuple, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { formatBocBase64 } from './boc-base64.ts';
import { makeList } from './v2-std-stack.ts';
import { parseV3Stack, toV3Stack } from './v3-stack.ts';

const num = (v: bigint): TupleItem => ({ type: 'int', value: v });
const cell = beginCell().storeUint(0x12a, 16).storeRef(beginCell().storeBit(false).endCell()).endCell();
const slice = beginCell().storeUint(3, 2).endCell();

describe('v3 runGetMethod stack', () => {
  it('reads the request example of v3-openapi.yaml and writes its number back unchanged', () => {
    // v3-openapi.yaml /api/v3/runGetMethod description; the "te6..." placeholders stand for real BoCs.
    const request = [
      { type: 'num', value: '0x12a' },
      { type: 'cell', value: formatBocBase64(cell) },
      { type: 'slice', value: formatBocBase64(slice) },
    ];
    const items = parseV3Stack(request);
    expect(items[0]).toEqual(num(0x12an));
    expect(items.map((i) => i.type)).toEqual(['int', 'cell', 'slice']);
    expect(toV3Stack([items[0]!, items[1]!])).toEqual(request.slice(0, 2));
  });

  it('writes what ton-index-go makes of the legacy result', () => {
    const out = toV3Stack([
      num(-26n),
      { type: 'slice', cell: slice },
      { type: 'null' },
      makeList([num(7n), { type: 'slice', cell: slice }, { type: 'cell', cell }]),
      { type: 'tuple', items: [num(0n), { type: 'tuple', items: [num(-1n), num(2n), num(3n)] }] },
    ]);
    expect(out).toEqual([
      { type: 'num', value: '-0x1a' },
      // A top-level slice arrives from v2 as ["cell", …] and stays "cell"; nested slices keep their type.
      { type: 'cell', value: formatBocBase64(slice) },
      { type: 'list', value: [] },
      {
        type: 'list',
        value: [
          { type: 'num', value: '0x7' },
          { type: 'slice', value: formatBocBase64(slice) },
          { type: 'cell', value: formatBocBase64(cell) },
        ],
      },
      {
        type: 'tuple',
        value: [
          { type: 'num', value: '0x0' },
          {
            type: 'tuple',
            value: [
              { type: 'num', value: '-0x1' },
              { type: 'num', value: '0x2' },
              { type: 'num', value: '0x3' },
            ],
          },
        ],
      },
    ]);
    expect(JSON.stringify(out[0])).toBe('{"type":"num","value":"-0x1a"}');
  });

  it('parses its own output back (nested lists and tuples are a tongate extension on input)', () => {
    const stack: TupleItem[] = [
      num(2n ** 200n),
      { type: 'cell', cell },
      makeList([num(1n), makeList([{ type: 'slice', cell: slice }])]),
      { type: 'tuple', items: [num(1n), num(2n), num(3n)] },
    ];
    const back = parseV3Stack(JSON.parse(JSON.stringify(toV3Stack(stack))));
    expect(serializeTuple(back).equals(serializeTuple(stack))).toBe(true);
    expect(parseV3Stack([{ type: 'num', value: 5 }])).toEqual([num(5n)]);
  });

  it('has no form for NaN, builders and continuations (toncenter answers 501)', () => {
    for (const bad of [
      [{ type: 'nan' }],
      [{ type: 'builder', cell }],
      [{ type: 'tuple', items: [{ type: 'nan' }] }],
      [makeList([{ type: 'builder', cell }])],
    ] as TupleItem[][]) {
      expect(() => toV3Stack(bad)).toThrowError(expect.objectContaining({ code: 'TG_CODEC_INVALID' }));
    }
  });

  it('rejects bad request entries', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['[]', /stack: expected an array/],
      [[['num', '1']], /stack\[0\]: expected \{"type", "value"\}, got an array/],
      [[{ type: 'int', value: '1' }], /unsupported stack parameter type: 'int'/],
      [[{ type: 'num', value: '0xZZ' }], /stack\[0\]\.value: expected a decimal/],
      [[{ type: 'cell', value: 'te6...' }], /stack\[0\]\.value: expected standard base64/],
      [[{ type: 'slice' }], /stack\[0\]\.value: expected a base64 BoC string, got undefined/],
      [[{ type: 'tuple', value: { type: 'num' } }], /stack\[0\]\.value: expected an array of entries/],
    ];
    for (const [input, message] of cases) {
      expect(() => parseV3Stack(input)).toThrowError(message);
      expect(() => parseV3Stack(input)).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
    }
  });
});
