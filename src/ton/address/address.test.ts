import { Address, beginCell, Cell, crc16 } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { formatFriendlyAddress, formatRawAddress, parseAddress } from './address.ts';

// v2-api.md §6.6 detectAddress example (also the account of transactions/tx_e9fb666f_wallet_ext.json).
const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const EQ = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const UQ = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';

function inputError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect((e as { code?: string }).code).toBe('TG_INPUT_INVALID');
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('parseAddress', () => {
  it('reads the three forms of the spec example as one address', () => {
    const raw = parseAddress(RAW);
    const eq = parseAddress(EQ);
    const uq = parseAddress(UQ);
    expect(raw).toMatchObject({ givenType: 'raw_form', bounceable: true, testOnly: false });
    expect(eq).toMatchObject({ givenType: 'friendly_bounceable', bounceable: true, testOnly: false });
    expect(uq).toMatchObject({ givenType: 'friendly_non_bounceable', bounceable: false, testOnly: false });
    expect(eq.address.equals(raw.address)).toBe(true);
    expect(uq.address.equals(raw.address)).toBe(true);
    expect(parseAddress(RAW.toUpperCase()).address.equals(raw.address)).toBe(true);
  });

  it('reads test-only tags and the standard alphabet', () => {
    const a = parseAddress(RAW).address;
    for (const bounceable of [true, false]) {
      for (const urlSafe of [true, false]) {
        const text = formatFriendlyAddress(a, { bounceable, testOnly: true, urlSafe });
        const p = parseAddress(text);
        expect(p).toMatchObject({ bounceable, testOnly: true });
        expect(p.address.equals(a)).toBe(true);
      }
    }
    expect(formatFriendlyAddress(a, { bounceable: true, testOnly: true })).toMatch(/^kQ/);
    expect(formatFriendlyAddress(a, { bounceable: false, testOnly: true })).toMatch(/^0Q/);
  });

  it('keeps a negative workchain byte signed (the masterchain elector)', () => {
    const p = parseAddress('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF');
    expect(p.address.workChain).toBe(-1);
    const wc2 = new Address(-2, Buffer.alloc(32, 7));
    expect(parseAddress(formatFriendlyAddress(wc2, { bounceable: true })).address.workChain).toBe(-2);
  });

  it('matches @ton/core on formatting', () => {
    const a = parseAddress(RAW).address;
    expect(formatFriendlyAddress(a, { bounceable: true })).toBe(a.toString());
    expect(formatFriendlyAddress(a, { bounceable: false, urlSafe: false })).toBe(
      a.toString({ bounceable: false, urlSafe: false }),
    );
    expect(formatRawAddress(a)).toBe(RAW);
    expect(formatRawAddress(a, { upperCase: true })).toBe(RAW.replace(/[a-f]/g, (c) => c.toUpperCase()));
  });

  it('rejects a bad checksum, tag, length, workchain or hex digit', () => {
    expect(inputError(() => parseAddress(`${EQ.slice(0, 47)}M`))).toMatch(/bad checksum/);
    // Tag 0x12 with a correct checksum: only the tag is wrong.
    const bytes = Buffer.from(EQ.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    bytes[0] = 0x12;
    crc16(bytes.subarray(0, 34)).copy(bytes, 34);
    expect(inputError(() => parseAddress(bytes.toString('base64')))).toMatch(/bad tag 0x12/);
    expect(inputError(() => parseAddress(EQ.slice(1)))).toMatch(/bad length 47/);
    expect(inputError(() => parseAddress(`${EQ.slice(0, 10)}!${EQ.slice(11)}`))).toMatch(/bad base64 character '!'/);
    expect(inputError(() => parseAddress(`128:${RAW.slice(2)}`))).toMatch(/bad workchain 128/);
    expect(inputError(() => parseAddress(`x:${RAW.slice(2)}`))).toMatch(/bad workchain 'x'/);
    expect(inputError(() => parseAddress(`0:${RAW.slice(3)}`))).toMatch(/expected 64 hex digits after ':', got 63/);
    expect(inputError(() => parseAddress(`0:g${RAW.slice(3)}`))).toMatch(/bad hex digit 'g' at position 2/);
    expect(inputError(() => parseAddress(RAW.slice(2)))).toMatch(/missing workchain/);
    expect(inputError(() => parseAddress(''))).toMatch(/bad length 0/);
    expect(inputError(() => parseAddress(null))).toMatch(/expected a string, got null/);
    expect(inputError(() => formatFriendlyAddress(new Address(1000, Buffer.alloc(32)), { bounceable: true }))).toMatch(
      /does not fit/,
    );
  });
});

interface AccountVector {
  ids: { address: string; address_friendly: string };
  computed_get_methods?: Record<
    string,
    { stack: Array<{ type: string; boc_base64?: string; as_address?: string; as_address_friendly?: string }> }
  >;
  expected: Record<string, unknown>;
}

describe.skipIf(!hasVectors)('real addresses (vectors/accounts)', () => {
  const accounts = loadVectors<AccountVector>('accounts');

  it('agree in every form each vector lists', () => {
    expect(accounts.length).toBeGreaterThan(20);
    for (const { file, data } of accounts) {
      const raw = parseAddress(data.ids.address);
      const friendly = parseAddress(data.ids.address_friendly);
      expect(friendly.address.equals(raw.address), file).toBe(true);
      expect(formatRawAddress(raw.address), file).toBe(data.ids.address);
      if (friendly.givenType !== 'raw_form') {
        const again = formatFriendlyAddress(friendly.address, {
          bounceable: friendly.bounceable,
          testOnly: friendly.testOnly,
        });
        expect(again, file).toBe(data.ids.address_friendly);
      }
    }
  });

  it('agree with the addresses stored in get-method result slices', () => {
    let checked = 0;
    for (const { file, data } of accounts) {
      for (const result of Object.values(data.computed_get_methods ?? {})) {
        for (const entry of result.stack) {
          if (!entry.as_address || !entry.as_address_friendly || !entry.boc_base64) continue;
          const inSlice = Cell.fromBase64(entry.boc_base64).beginParse().loadAddress();
          expect(formatRawAddress(inSlice), file).toBe(entry.as_address);
          expect(parseAddress(entry.as_address_friendly).address.equals(inSlice), file).toBe(true);
          expect(formatFriendlyAddress(inSlice, { bounceable: true }), file).toBe(entry.as_address_friendly);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('reproduce the addresses the sources assert for nft_item_loton_100 (anton abi/get_test.go)', () => {
    const v = accounts.find((a) => a.file === 'nft_item_loton_100_EQAQKmY9.json')!.data;
    const nft = v.expected.get_nft_data as { collection_address: string; owner_address: string };
    const stack = v.computed_get_methods!.get_nft_data!.stack;
    const collection = Cell.fromBase64(stack[2]!.boc_base64!).beginParse().loadAddress();
    const owner = Cell.fromBase64(stack[3]!.boc_base64!).beginParse().loadAddress();
    expect(formatFriendlyAddress(collection, { bounceable: true })).toBe(nft.collection_address);
    expect(formatFriendlyAddress(owner, { bounceable: true })).toBe(nft.owner_address);
    // An address stored in a cell by the contract reads back the same through every text form.
    const cell = beginCell().storeAddress(parseAddress(nft.owner_address).address).endCell();
    expect(cell.beginParse().loadAddress().equals(owner)).toBe(true);
  });
});
