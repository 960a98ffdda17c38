import { Cell, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { parseAddress } from './address.ts';
import {
  detectAddressV2,
  formatMsgAddressV2,
  normalizeAddressV2,
  packAddressV2,
  unpackAddressV2,
} from './v2-address.ts';

// The address of v2-api.md §6.6 (detectAddress / unpackAddress examples), in every input form the v2 server takes.
const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const RAW_UPPER = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
const EQ = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const UQ = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';

describe('detectAddressV2', () => {
  it('gives the spec example for the bounceable input, field for field and in key order', () => {
    const result = detectAddressV2(EQ);
    // v2-api.md §6.6, verbatim.
    const spec = JSON.parse(`{"@type": "ext.utils.detectedAddress",
 "raw_form": "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8",
 "bounceable": {"@type": "ext.utils.detectedAddressVariant", "b64": "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N", "b64url": "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N"},
 "non_bounceable": {"@type": "ext.utils.detectedAddressVariant", "b64": "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI", "b64url": "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI"},
 "given_type": "friendly_bounceable", "test_only": false}`);
    expect(JSON.stringify(result)).toBe(JSON.stringify(spec));
  });

  it('reports the given form and keeps the variants identical across inputs', () => {
    const base = detectAddressV2(EQ);
    for (const [text, given] of [
      [RAW, 'raw_form'],
      [RAW_UPPER, 'raw_form'],
      [UQ, 'friendly_non_bounceable'],
    ] as const) {
      const r = detectAddressV2(text);
      expect(r.given_type).toBe(given);
      expect({ ...r, given_type: base.given_type }).toEqual(base);
    }
  });

  it('differs between b64 and b64url only in the alphabet, and keeps the test-only flag', () => {
    // An address whose user-friendly form has '+' or '/' characters.
    const a = parseAddress(`-1:${'fb'.repeat(32)}`).address;
    const testOnly = a.toString({ bounceable: false, testOnly: true, urlSafe: false });
    expect(testOnly).toMatch(/[+/]/);
    const r = detectAddressV2(testOnly);
    expect(r.test_only).toBe(true);
    expect(r.given_type).toBe('friendly_non_bounceable');
    expect(r.non_bounceable.b64).toBe(testOnly);
    expect(r.non_bounceable.b64url).toBe(testOnly.replace(/\+/g, '-').replace(/\//g, '_'));
    expect(r.bounceable.b64url).toBe(a.toString({ bounceable: true, testOnly: true }));
    expect(r.raw_form).toBe(`-1:${'fb'.repeat(32)}`);
  });

  it('throws InputError on bad input', () => {
    for (const bad of ['not_an_address', '', `${EQ.slice(0, 47)}A`]) {
      expect(() => detectAddressV2(bad)).toThrowError(expect.objectContaining({ code: 'TG_INPUT_INVALID' }));
    }
  });
});

describe('packAddressV2 / unpackAddressV2', () => {
  it('packs raw input as bounceable url-safe and keeps the flags of user-friendly input', () => {
    expect(packAddressV2(RAW)).toBe(EQ);
    expect(packAddressV2(RAW_UPPER)).toBe(EQ);
    expect(packAddressV2(EQ)).toBe(EQ);
    expect(packAddressV2(UQ)).toBe(UQ);
    const a = parseAddress(RAW).address;
    expect(packAddressV2(a.toString({ testOnly: true, urlSafe: false }))).toBe(a.toString({ testOnly: true }));
  });

  it('unpacks every form to the upper-case raw form of the spec', () => {
    for (const text of [RAW, RAW_UPPER, EQ, UQ]) expect(unpackAddressV2(text)).toBe(RAW_UPPER);
  });

  it('echoes raw input upper-case and user-friendly input url-safe', () => {
    expect(normalizeAddressV2(RAW)).toBe(RAW_UPPER);
    expect(normalizeAddressV2(UQ)).toBe(UQ);
  });

  it('throws InputError on bad input', () => {
    expect(() => packAddressV2('invalid')).toThrowError(/bad length/);
    expect(() => unpackAddressV2('invalid')).toThrowError(/bad length/);
  });
});

describe.skipIf(!hasVectors)('formatMsgAddressV2 on real messages', () => {
  it('writes tonlib accountAddress strings: EQ… for accounts, "" for external addresses', () => {
    // ton-core Transaction.spec.ts asserts this transaction; its external-in source is an addr_extern.
    const v = loadVector<{ boc_base64: string; ids: { account: string } }>(
      'transactions',
      'tx_87572e72_masterchain_extout.json',
    );
    const tx = loadTransaction(Cell.fromBase64(v.boc_base64).beginParse());
    const inInfo = tx.inMessage!.info;
    expect(inInfo.type).toBe('external-in');
    if (inInfo.type !== 'external-in') return;
    expect(inInfo.src).not.toBeNull();
    expect(formatMsgAddressV2(inInfo.src)).toBe('');
    expect(formatMsgAddressV2(null)).toBe('');
    expect(formatMsgAddressV2(inInfo.dest)).toBe(packAddressV2(v.ids.account));
    expect(formatMsgAddressV2(inInfo.dest)).toMatch(/^Ef/);
  });
});
