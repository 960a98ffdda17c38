// The committed *.compiled.ts files are exactly what the Tolk sources compile to (nobody edited them by hand),
// and every code cell has the layout indexers parse for method ids (contracts.md §1.1): SETCP0, then
// DICTPUSHCONST with the method dictionary, holding the getters contracts.md lists, under its method ids.
import { readFileSync } from 'node:fs';
import { type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { buildContracts, CONTRACT_ENTRIES } from '../../../scripts/build-contracts.ts';
import { JETTON_MINTER_CODE, JETTON_WALLET_CODE, NFT_COLLECTION_CODE, NFT_ITEM_CODE } from './codes.ts';

// Method ids from the table in contracts.md §0 (crc16-xmodem | 0x10000, computed there).
const SPEC_METHOD_IDS = {
  get_jetton_data: 106029,
  get_wallet_address: 103289,
  get_wallet_data: 97026,
  get_nft_data: 102351,
  get_collection_data: 102491,
  get_nft_address_by_index: 92067,
  get_nft_content: 68445,
  royalty_params: 85719,
};

/** Method ids in a code cell laid out as SETCP0 + DICTPUSHCONST (13-bit prefix 1111010010100, 1 bit, n:uint10). */
function methodIds(code: Cell): number[] {
  const s = code.beginParse();
  expect(s.loadUint(16)).toBe(0xff00);
  expect(s.loadUint(13)).toBe(0b1111010010100);
  s.loadBit();
  const keyBits = s.loadUint(10);
  const root = s.loadRef();
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(keyBits), { serialize: () => {}, parse: () => null }, root);
  return dict.keys().sort((a, b) => a - b);
}

describe('compiled contracts', () => {
  it('match a fresh compilation of contracts/ (scripts/build-contracts.ts)', async () => {
    const files = await buildContracts();
    expect(files.map((f) => f.name).sort()).toEqual(CONTRACT_ENTRIES.map((e) => e.name).sort());
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      expect(readFileSync(f.path, 'utf8'), `${f.path} is stale or was edited by hand`).toBe(f.text);
    }
  });

  it('keep the standard method dictionary with the getters under their spec method ids', () => {
    // Ids below 0x10000 are the entry points (recv_internal 0, recv_external -1, ...), not getters.
    const getters = (code: Cell) => methodIds(code).filter((id) => id >= 0x10000);
    expect(getters(JETTON_MINTER_CODE)).toEqual(
      [SPEC_METHOD_IDS.get_jetton_data, SPEC_METHOD_IDS.get_wallet_address].sort((a, b) => a - b),
    );
    expect(getters(JETTON_WALLET_CODE)).toEqual([SPEC_METHOD_IDS.get_wallet_data]);
    expect(getters(NFT_COLLECTION_CODE)).toEqual(
      [
        SPEC_METHOD_IDS.get_collection_data,
        SPEC_METHOD_IDS.get_nft_address_by_index,
        SPEC_METHOD_IDS.royalty_params,
        SPEC_METHOD_IDS.get_nft_content,
      ].sort((a, b) => a - b),
    );
    expect(getters(NFT_ITEM_CODE)).toEqual([SPEC_METHOD_IDS.get_nft_data]);
  });
});
