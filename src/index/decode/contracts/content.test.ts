// loadTokenContent against TEP-64 (contracts.md §3) and toncenter's parse_token_data rules: the content cells of
// the mainnet vectors decode as @ton/core reads them independently; hand-built cells cover each layout
// (off-chain snake across refs, on-chain snake / chunked / inline values, semi-chain), the values that are left
// out, the cells that are not TEP-64, and the bounds that keep hostile content cheap.
import { createHash } from 'node:crypto';
import { type Builder, beginCell, Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../../test/helpers/vectors.ts';
import { CONTENT_KEYS } from '../../../ton/index.ts';
import { loadTokenContent } from './content.ts';
import { type AccountVector, independentContent } from './detect/detect.test-util.ts';

const key = (name: string) => BigInt(`0x${createHash('sha256').update(name).digest('hex')}`);

/** A snake value: `bytes` split into cells of `per` bytes, each next part in the first ref. */
function snake(bytes: Buffer, per = 127, prefix?: (b: Builder) => void): Cell {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += per) parts.push(bytes.subarray(i, i + per));
  let tail: Cell | null = null;
  for (let i = parts.length - 1; i >= 1; i--) {
    const b = beginCell().storeBuffer(parts[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const head = beginCell();
  prefix?.(head);
  head.storeBuffer(parts[0] ?? Buffer.alloc(0));
  if (tail) head.storeRef(tail);
  return head.endCell();
}

const snakeValue = (text: string | Buffer) =>
  snake(typeof text === 'string' ? Buffer.from(text) : text, 126, (b) => b.storeUint(0, 8));

function onchain(entries: Array<[string | bigint, Cell]>): Cell {
  const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [k, v] of entries) d.set(typeof k === 'string' ? key(k) : k, v);
  return beginCell().storeUint(0, 8).storeDict(d).endCell();
}

describe.runIf(hasVectors)('loadTokenContent on the content cells of mainnet vectors', () => {
  const cells: Array<[string, Cell]> = [];
  for (const { file, data } of loadVectors<AccountVector>('accounts')) {
    const getters = data.computed_get_methods ?? {};
    const at = (getter: string, i: number) => getters[getter]?.stack[i]?.boc_base64;
    for (const [getter, i] of [
      ['get_jetton_data', 3],
      ['get_collection_data', 1],
    ] as const) {
      const boc = at(getter, i);
      if (boc) cells.push([`${file} ${getter}[${i}]`, Cell.fromBase64(boc)]);
    }
  }

  it('has content cells of both layouts', () => {
    const tags = cells.map(([, c]) => c.beginParse().loadUint(8));
    expect(tags).toContain(0);
    expect(tags).toContain(1);
  });

  it.each(cells)('%s', (_name, cell) => {
    expect(loadTokenContent(cell)).toEqual(independentContent(cell));
  });
});

describe('loadTokenContent layouts', () => {
  it("off-chain: 0x01 + a URI whose suffix sits in a ref (the reference collection's prefix + item tail)", () => {
    const cell = beginCell()
      .storeUint(1, 8)
      .storeStringTail('https://example.org/nft/')
      .storeRef(beginCell().storeStringTail('42.json'))
      .endCell();
    expect(loadTokenContent(cell)).toEqual({ uri: 'https://example.org/nft/42.json' });
    const long = `https://example.org/${'a'.repeat(600)}.json`;
    expect(loadTokenContent(snake(Buffer.from(long), 100, (b) => b.storeUint(1, 8)))).toEqual({ uri: long });
  });

  it('on-chain: snake, chunked and inline values, image_data in base64, the nine keys only', () => {
    const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    chunks.set(0, beginCell().storeStringTail('Chunk').endCell());
    chunks.set(1, beginCell().storeStringTail('ed ').endCell());
    chunks.set(2, beginCell().storeStringTail('name').endCell());
    chunks.set(4, beginCell().storeStringTail(' (after a gap: not read)').endCell());
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
    const cell = onchain([
      ['name', beginCell().storeUint(1, 8).storeDict(chunks).endCell()],
      ['symbol', snakeValue('TKN')],
      ['decimals', snakeValue('6')],
      ['description', snakeValue(`${'long text '.repeat(40)}`)],
      ['image_data', snakeValue(image)],
      ['attributes', snakeValue('[]')],
    ]);
    expect(loadTokenContent(cell)).toEqual({
      name: 'Chunked name',
      symbol: 'TKN',
      decimals: '6',
      description: 'long text '.repeat(40),
      image_data: image.toString('base64'),
    });

    // Some contracts store the ContentData inline, not behind a ref.
    const inline = Dictionary.empty(Dictionary.Keys.BigUint(256), {
      serialize: (v: Cell, b: Builder) => b.storeSlice(v.beginParse()),
      parse: (s) => s.asCell(),
    });
    inline.set(key('symbol'), beginCell().storeUint(0, 8).storeStringTail('INL').endCell());
    expect(loadTokenContent(beginCell().storeUint(0, 8).storeDict(inline).endCell())).toEqual({ symbol: 'INL' });
  });

  it('semi-chain: an on-chain dictionary with a uri key gives both', () => {
    const cell = onchain([
      ['uri', snakeValue('https://example.org/meta.json')],
      ['name', snakeValue('On-chain name')],
    ]);
    expect(loadTokenContent(cell)).toEqual({ uri: 'https://example.org/meta.json', name: 'On-chain name' });
  });

  it('leaves out values that do not decode: not UTF-8, unknown prefix, not whole bytes', () => {
    const cell = onchain([
      ['name', snakeValue(Buffer.from([0xc3, 0x28]))],
      ['symbol', beginCell().storeUint(2, 8).storeStringTail('X').endCell()],
      ['decimals', beginCell().storeUint(0, 8).storeUint(1, 3).endCell()],
      ['description', snakeValue('kept')],
    ]);
    expect(loadTokenContent(cell)).toEqual({ description: 'kept' });
    expect(loadTokenContent(onchain([]))).toEqual({});
  });

  it('null for cells that are not TEP-64 content', () => {
    expect(loadTokenContent(Cell.EMPTY)).toBeNull();
    expect(loadTokenContent(beginCell().storeUint(2, 8).storeStringTail('x').endCell())).toBeNull();
    expect(
      loadTokenContent(
        beginCell()
          .storeUint(1, 8)
          .storeBuffer(Buffer.from([0xff, 0xfe]))
          .endCell(),
      ),
    ).toBeNull();
    expect(loadTokenContent(beginCell().storeUint(1, 8).storeUint(1, 5).endCell())).toBeNull();
    // An on-chain dictionary followed by anything else (toncenter unpacks it exactly).
    expect(loadTokenContent(beginCell().storeUint(0, 8).storeBit(0).storeUint(1, 1).endCell())).toBeNull();
    // A malformed dictionary root.
    expect(loadTokenContent(beginCell().storeUint(0, 8).storeBit(1).storeRef(Cell.EMPTY).endCell())).toBeNull();
    const lib = new Cell({
      exotic: true,
      bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32)).endCell().bits,
    });
    expect(loadTokenContent(lib)).toBeNull();
  });

  it('bounds hostile content: 8 KiB per value, 1024 cells per chain, only the nine keys looked up', () => {
    // A 20 000-byte URI keeps the whole cells that fit in 8 KiB (toncenter's buffer).
    const uri = loadTokenContent(snake(Buffer.alloc(20_000, 0x61), 100, (b) => b.storeUint(1, 8)))?.uri;
    expect(uri?.length).toBe(8100);
    // A chain of 1500 one-byte cells stops after 1024 of them.
    let chain = beginCell().storeUint(0x62, 8).endCell();
    for (let i = 0; i < 1499; i++) chain = beginCell().storeUint(0x62, 8).storeRef(chain).endCell();
    const deep = loadTokenContent(beginCell().storeUint(1, 8).storeRef(chain).endCell())?.uri;
    expect(deep?.length).toBe(1023);
    // A dictionary with 2000 junk keys: only the nine keys are looked up.
    const many = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    const junk = snakeValue('junk');
    for (let i = 0; i < 2000; i++) many.set(BigInt(i) << 200n, junk);
    many.set(key('name'), snakeValue('found'));
    expect(loadTokenContent(beginCell().storeUint(0, 8).storeDict(many).endCell())).toEqual({ name: 'found' });
    expect(CONTENT_KEYS).toHaveLength(9);
  });
});
