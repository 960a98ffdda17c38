import { Cell, ExternalAddress, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { parseAddress } from './address.ts';
import {
  formatAddressV3,
  formatAddrVarV3,
  formatMsgAddressV3,
  formatUserFriendlyV3,
  normalizeAddressV3,
} from './v3-address.ts';

describe('v3 address forms', () => {
  it('matches the address_book example of v3-api.md §2.8 (a jetton master: bounceable)', () => {
    const key = '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE';
    const a = parseAddress(key).address;
    expect(formatAddressV3(a)).toBe(key);
    expect(formatUserFriendlyV3(a, { bounceable: true, testOnly: false })).toBe(
      'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
    );
  });

  it('normalises every input form to raw upper-case', () => {
    const raw = '0:ED1691307050047117B998B561D8DE82D31FBF84910CED6EB5FC92E7485EF8A7'; // v3-api.md §2.4
    const a = parseAddress(raw).address;
    for (const text of [
      raw,
      raw.toLowerCase(),
      a.toString(),
      a.toString({ bounceable: false }),
      a.toString({ urlSafe: false, testOnly: true }),
    ]) {
      expect(normalizeAddressV3(text)).toBe(raw);
    }
    expect(() => normalizeAddressV3('0:ED16')).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
  });

  it('sets the wallet and testnet flags of user_friendly', () => {
    const a = parseAddress('0:ED1691307050047117B998B561D8DE82D31FBF84910CED6EB5FC92E7485EF8A7').address;
    expect(formatUserFriendlyV3(a, { bounceable: false, testOnly: false })).toMatch(/^UQ/);
    expect(formatUserFriendlyV3(a, { bounceable: false, testOnly: true })).toMatch(/^0Q/);
    expect(formatUserFriendlyV3(a, { bounceable: true, testOnly: true })).toMatch(/^kQ/);
  });

  it('writes external and variable addresses as the indexer stores them', () => {
    expect(formatMsgAddressV3(null)).toBe('addr_none');
    expect(formatMsgAddressV3(undefined)).toBe('addr_none');
    expect(formatMsgAddressV3(new ExternalAddress(0n, 0))).toBe('ext$0:');
    expect(formatMsgAddressV3(new ExternalAddress(0xabn, 8))).toBe('ext$8:AB');
    // 5 bits 10101 -> left-aligned in two digits: 1010 1000.
    expect(formatMsgAddressV3(new ExternalAddress(0b10101n, 5))).toBe('ext$5:A8');
    expect(formatAddrVarV3(7, 8, 0xabn)).toBe('var$7:8:AB');
    // 5 bits 10101 + completion tag 100 -> 1010 1100, marked with '_'.
    expect(formatAddrVarV3(7, 5, 0b10101n)).toBe('var$7:5:AC_');
  });
});

describe.skipIf(!hasVectors)('v3 forms of a real transaction', () => {
  it('formats the account and the addr_extern source of tx 87572e72 (ton-core Transaction.spec.ts)', () => {
    const v = loadVector<{ boc_base64: string; ids: { account: string } }>(
      'transactions',
      'tx_87572e72_masterchain_extout.json',
    );
    const tx = loadTransaction(Cell.fromBase64(v.boc_base64).beginParse());
    const info = tx.inMessage!.info;
    if (info.type !== 'external-in') throw new Error('expected an external-in message');
    expect(formatMsgAddressV3(info.dest)).toBe(v.ids.account.toUpperCase());
    expect(formatAddressV3(parseAddress(v.ids.account).address)).toBe(formatMsgAddressV3(info.dest));
    // The source is a 10-bit addr_extern holding 13 (0b0000001101 -> 0000 0011 0100).
    expect(info.src).toBeInstanceOf(ExternalAddress);
    expect({ bits: info.src!.bits, value: info.src!.value }).toEqual({ bits: 10, value: 13n });
    expect(formatMsgAddressV3(info.src)).toBe('ext$10:034');
  });
});
