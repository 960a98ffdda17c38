// Real get-method results (vectors/accounts: `computed_get_methods`, run on the accounts' real code and data)
// expressed in each JSON form and read back, and the values the vectors' sources assert read out of those forms.
import { Cell, serializeTuple, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { formatBocBase64, parseBocBase64 } from './boc-base64.ts';
import { formatTvmIntHex, parseTvmInt } from './tvm-int.ts';
import { parseV2CellObject } from './v2-cell-object.ts';
import { parseV2LegacyStack, toV2LegacyStack, type V2LegacyStackEntry } from './v2-legacy-stack.ts';
import { parseV2StdStack, toV2StdStack } from './v2-std-stack.ts';
import { parseV3Stack, toV3Stack, type V3StackEntry } from './v3-stack.ts';

interface VectorEntry {
  type: 'int' | 'slice' | 'cell' | 'null';
  value?: string;
  boc_base64?: string;
  cell_hash?: string;
}
interface AccountVector {
  expected: Record<string, unknown>;
  code_boc_base64?: string;
  computed_get_methods?: Record<string, { exit_code: number; stack: VectorEntry[] }>;
}

function toItem(e: VectorEntry): TupleItem {
  switch (e.type) {
    case 'int':
      return { type: 'int', value: BigInt(e.value!) };
    case 'null':
      return { type: 'null' };
    case 'cell':
    case 'slice':
      return { type: e.type, cell: Cell.fromBase64(e.boc_base64!) };
  }
}

const accounts = hasVectors ? loadVectors<AccountVector>('accounts') : [];
const results = accounts.flatMap(({ file, data }) =>
  Object.entries(data.computed_get_methods ?? {}).map(([method, r]) => ({
    name: `${file} ${method}`,
    entries: r.stack,
    items: r.stack.map(toItem),
  })),
);
const account = (prefix: string) => accounts.find((a) => a.file.startsWith(prefix))!.data;
const stackOf = (prefix: string, method: string) =>
  account(prefix).computed_get_methods![method]!.stack.map((e) => toItem(e));
/** Reads "0x1f" / "-0x1f" as a client would (BigInt() alone rejects the minus sign before 0x). */
const readHex = (s: unknown) => {
  const t = String(s);
  return t.startsWith('-') ? -BigInt(t.slice(1)) : BigInt(t);
};
const hexNum = (e: V2LegacyStackEntry | undefined) => {
  if (e?.[0] !== 'num') throw new Error(`expected a number entry, got ${JSON.stringify(e)}`);
  return readHex(e[1]);
};
const legacyCell = (e: V2LegacyStackEntry | undefined) => {
  if (e?.[0] !== 'cell') throw new Error(`expected a cell entry, got ${JSON.stringify(e)}`);
  return Cell.fromBase64(e[1].bytes);
};
const v3Cell = (e: V3StackEntry | undefined) => Cell.fromBase64(String(e?.value));

describe.skipIf(!hasVectors)('real get-method results in every JSON form', () => {
  it('covers numbers, cells, slices and null from many contracts', () => {
    expect(results.length).toBeGreaterThan(30);
    const kinds = new Set(results.flatMap((r) => r.entries.map((e) => e.type)));
    expect([...kinds].sort()).toEqual(['cell', 'int', 'null', 'slice']);
  });

  it('each value read with our scalar readers: TVM integers and base64 BoCs, and written back', () => {
    let values = 0;
    for (const r of results) {
      for (const e of r.entries) {
        if (e.type === 'int') {
          const parsed = parseTvmInt(e.value, r.name);
          expect(parsed, r.name).toEqual({ type: 'int', value: BigInt(e.value!) });
          expect(parseTvmInt(formatTvmIntHex(BigInt(e.value!)), r.name), r.name).toEqual(parsed);
          values++;
        } else if (e.type === 'cell' || e.type === 'slice') {
          // The vector's BoC through our BoC reader, and our writer's BoC back through it: the recorded hash.
          const cell = parseBocBase64(e.boc_base64, r.name);
          expect(cell.hash().toString('hex'), r.name).toBe(e.cell_hash);
          expect(parseBocBase64(formatBocBase64(cell), r.name).hash().toString('hex'), r.name).toBe(e.cell_hash);
          values++;
        }
      }
    }
    expect(values).toBeGreaterThan(30);
  });

  it('runGetMethodStd: exact round trip, hashes kept', () => {
    for (const r of results) {
      const json = JSON.parse(JSON.stringify(toV2StdStack(r.items)));
      expect(serializeTuple(parseV2StdStack(json)).equals(serializeTuple(r.items)), r.name).toBe(true);
      r.entries.forEach((e, i) => {
        const j = json[i];
        if (e.type === 'int') expect(j.number.number, r.name).toBe(e.value);
        if (e.type === 'cell') expect(Cell.fromBase64(j.cell.bytes).hash().toString('hex'), r.name).toBe(e.cell_hash);
        if (e.type === 'slice') expect(Cell.fromBase64(j.slice.bytes).hash().toString('hex'), r.name).toBe(e.cell_hash);
        if (e.type === 'null')
          expect(j, r.name).toEqual({ '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } });
      });
    }
  });

  it('runGetMethod (legacy): hex numbers, cells with bytes and object, slices read back as cells', () => {
    for (const r of results) {
      const json = JSON.parse(JSON.stringify(toV2LegacyStack(r.items))) as V2LegacyStackEntry[];
      r.entries.forEach((e, i) => {
        const j = json[i]!;
        if (e.type === 'int') expect(hexNum(j), r.name).toBe(BigInt(e.value!));
        if (e.type === 'cell' || e.type === 'slice') {
          expect(legacyCell(j).hash().toString('hex'), r.name).toBe(e.cell_hash);
          if (j[0] === 'cell') expect(parseV2CellObject(j[1].object, 'o').hash().toString('hex')).toBe(e.cell_hash);
        }
        if (e.type === 'null') expect(j, r.name).toEqual(['list', { '@type': 'tvm.list', elements: [] }]);
      });
      const asCells = r.items.map((it): TupleItem => (it.type === 'slice' ? { type: 'cell', cell: it.cell } : it));
      expect(serializeTuple(parseV2LegacyStack(json)).equals(serializeTuple(asCells)), r.name).toBe(true);
    }
  });

  it('v3: the same values, and a round trip with slices read back as cells', () => {
    for (const r of results) {
      const json = JSON.parse(JSON.stringify(toV3Stack(r.items))) as V3StackEntry[];
      r.entries.forEach((e, i) => {
        const j = json[i]!;
        if (e.type === 'int') expect(readHex(j.value), r.name).toBe(BigInt(e.value!));
        if (e.type === 'cell' || e.type === 'slice') {
          expect(j.type, r.name).toBe('cell');
          expect(v3Cell(j).hash().toString('hex'), r.name).toBe(e.cell_hash);
        }
        if (e.type === 'null') expect(j, r.name).toEqual({ type: 'list', value: [] });
      });
      const asCells = r.items.map((it): TupleItem => (it.type === 'slice' ? { type: 'cell', cell: it.cell } : it));
      expect(serializeTuple(parseV3Stack(json)).equals(serializeTuple(asCells)), r.name).toBe(true);
    }
  });
});

describe.skipIf(!hasVectors)('values the sources assert, read out of the JSON forms', () => {
  it('wallet seqnos (anton internal/app/parser/account_test.go)', () => {
    expect(hexNum(toV2LegacyStack(stackOf('wallet_v3r2_', 'seqno'))[0])).toBe(
      BigInt(account('wallet_v3r2_').expected.seqno as number),
    );
    expect(toV2LegacyStack(stackOf('wallet_v4r2_', 'seqno'))[0]).toEqual(['num', '0x22']);
    expect(account('wallet_v4r2_').expected.seqno).toBe(34);
    // v4 get_plugin_list with no plugins returns null: an empty list in every form.
    const plugins = stackOf('wallet_v4r2_', 'get_plugin_list');
    expect(toV2LegacyStack(plugins)).toEqual([['list', { '@type': 'tvm.list', elements: [] }]]);
    expect(toV3Stack(plugins)).toEqual([{ type: 'list', value: [] }]);
  });

  it('NFT item #100 of loton.fun (anton abi/get_test.go)', () => {
    const asserted = account('nft_item_loton_100_').expected.get_nft_data as {
      init: boolean;
      index: number;
      collection_address: string;
      owner_address: string;
      individual_content_boc: string;
    };
    const legacy = toV2LegacyStack(stackOf('nft_item_loton_100_', 'get_nft_data'));
    expect(hexNum(legacy[0]) !== 0n).toBe(asserted.init);
    expect(hexNum(legacy[1])).toBe(BigInt(asserted.index));
    expect(legacyCell(legacy[2]).beginParse().loadAddress().toString()).toBe(asserted.collection_address);
    expect(legacyCell(legacy[3]).beginParse().loadAddress().toString()).toBe(asserted.owner_address);
    // The content BoC comes out byte for byte as the source has it.
    const v3 = toV3Stack(stackOf('nft_item_loton_100_', 'get_nft_data'));
    expect(v3[4]).toEqual({ type: 'cell', value: asserted.individual_content_boc });
  });

  it('DNS items (anton abi/get_test.go: auction info, domain)', () => {
    const auction = account('dns_item_auction_').expected.get_auction_info as {
      max_bid_address: string;
      max_bid_amount: string;
      auction_end_time: number;
    };
    const v3 = toV3Stack(stackOf('dns_item_auction_', 'get_auction_info'));
    expect(v3Cell(v3[0]).beginParse().loadAddress().toString()).toBe(auction.max_bid_address);
    expect(readHex(v3[1]!.value)).toBe(BigInt(auction.max_bid_amount));
    expect(Number(readHex(v3[2]!.value))).toBe(auction.auction_end_time);
    const std = toV2StdStack(stackOf('dns_item_datboi_', 'get_domain'));
    const domain = std[0]?.['@type'] === 'tvm.stackEntrySlice' ? std[0].slice.bytes : '';
    expect(Cell.fromBase64(domain).beginParse().loadStringTail()).toBe(account('dns_item_datboi_').expected.get_domain);
  });

  it('NFT collection and jetton minter address derivations (anton abi/get_test.go, account_test.go)', () => {
    const byIndex = account('nft_collection_loton_').expected['get_nft_address_by_index(100)'];
    const legacy = toV2LegacyStack(stackOf('nft_collection_loton_', 'get_nft_address_by_index(100)'));
    expect(legacyCell(legacy[0]).beginParse().loadAddress().toString()).toBe(byIndex);
    const fake = account('jetton_wallet_fake_').expected.commented_out_in_source as {
      get_wallet_data: [string, string, string];
      minter_get_wallet_address: { returns: string };
    };
    const minter = toV3Stack(stackOf('jetton_minter_SCALE_', 'get_wallet_address(slice)'));
    expect(v3Cell(minter[0]).beginParse().loadAddress().toString()).toBe(fake.minter_get_wallet_address.returns);
    const data = toV2LegacyStack(stackOf('jetton_wallet_fake_', 'get_wallet_data'));
    expect(hexNum(data[0])).toBe(BigInt(fake.get_wallet_data[0]));
    expect(legacyCell(data[1]).beginParse().loadAddress().toString()).toBe(fake.get_wallet_data[1]);
    expect(legacyCell(data[2]).beginParse().loadAddress().toString()).toBe(fake.get_wallet_data[2]);
  });

  it('a multi-cell result comes out as the same bytes as the real code BoC (reference-node cell order)', () => {
    // get_wallet_data returns the wallet's own code; the vector's code BoC was written in the node's order.
    const v = account('jetton_wallet_fake_');
    const code = toV2LegacyStack(stackOf('jetton_wallet_fake_', 'get_wallet_data'))[3]!;
    expect(code[0]).toBe('cell');
    if (code[0] !== 'cell') return;
    expect(code[1].bytes).toBe(v.code_boc_base64);
    expect(formatBocBase64(Cell.fromBase64(v.code_boc_base64!))).toBe(v.code_boc_base64);
    // @ton/core's own writer orders these cells differently.
    expect(Cell.fromBase64(v.code_boc_base64!).toBoc().toString('base64')).not.toBe(v.code_boc_base64);
  });
});
