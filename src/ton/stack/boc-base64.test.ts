import { beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { serializeBoc } from '../boc/index.ts';
import { formatBocBase64, parseBocBase64 } from './boc-base64.ts';

describe.skipIf(!hasVectors)('formatBocBase64 on real data', () => {
  it('writes the one-cell BoC anton asserts for an NFT individual content (abi/get_test.go)', () => {
    const v = loadVector<{ expected: { get_nft_data: { individual_content_boc: string } } }>(
      'accounts',
      'nft_item_loton_100_EQAQKmY9.json',
    );
    const asserted = v.expected.get_nft_data.individual_content_boc;
    expect(formatBocBase64(parseBocBase64(asserted, 'content'))).toBe(asserted);
    expect(formatBocBase64(beginCell().storeStringTail('100.json').endCell())).toBe(asserted);
  });

  it('writes a multi-cell code BoC in the node order, unlike @ton/core (anton account_test.go fixture)', () => {
    const v = loadVector<{ code_boc_base64: string }>('accounts', 'jetton_wallet_fake_EQD9vvnQ.json');
    const code = parseBocBase64(v.code_boc_base64, 'code');
    expect(formatBocBase64(code)).toBe(v.code_boc_base64);
    expect(code.toBoc().toString('base64')).not.toBe(v.code_boc_base64);
  });
});

describe('parseBocBase64', () => {
  it('reads what formatBocBase64 writes', () => {
    const c = beginCell().storeUint(1, 1).storeRef(beginCell().storeUint(2, 2).endCell()).endCell();
    expect(parseBocBase64(formatBocBase64(c), 'x').equals(c)).toBe(true);
    expect(parseBocBase64(c.toBoc({ crc32: false }).toString('base64'), 'x').equals(c)).toBe(true);
  });

  it('rejects what is not a one-root standard-base64 BoC, naming the field', () => {
    const two = serializeBoc([Cell.EMPTY, beginCell().storeBit(true).endCell()]).toString('base64');
    const badCrc = Buffer.from(formatBocBase64(Cell.EMPTY), 'base64');
    badCrc[badCrc.length - 1]! ^= 1;
    const cases: Array<[unknown, RegExp]> = [
      [42, /stack\[0\]: expected a base64 BoC string, got number 42/],
      ['', /empty string/],
      ['te6cc_EBAQEAAgAAAEysuc0=', /expected standard base64/],
      ['te6cckEBAQEAAgAAAEysuc0', /expected standard base64/],
      ['AAAAAAAA', /not a valid BoC/],
      [badCrc.toString('base64'), /not a valid BoC \(BoC: CRC32-C mismatch/],
      [two, /expected a BoC with one root, got 2/],
    ];
    for (const [input, message] of cases) {
      expect(() => parseBocBase64(input, 'stack[0]')).toThrowError(message);
      expect(() => parseBocBase64(input, 'stack[0]')).toThrowError(
        expect.objectContaining({ code: 'TG_INPUT_INVALID' }),
      );
    }
  });
});
