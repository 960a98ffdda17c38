// Token content and get-method addresses on real mainnet contracts (../shared/vectors/accounts: the loton.fun NFT
// collection and its item #100), the get-methods run by the same emulator the API uses. Expected values are the ones
// anton's tests assert for these contracts (copied into the vectors' `expected`).
import { Address, beginCell, Cell } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../../test/helpers/vectors.ts';
import { createApiTvm, type GetMethodCall } from '../emulate/executor.ts';
import { methodIdOf } from '../emulate/get-method.ts';
import { addressFromStackEntry, numberFromStackEntry, parseTokenContent, TokenDataError } from './token-content.ts';

interface ContractVector {
  ids: { address: string };
  code_boc_base64: string;
  data_boc_base64: string;
  expected: Record<string, unknown>;
}

const config = Cell.fromBase64(defaultConfig);
const tvm = createApiTvm({ threads: 1 });
afterAll(() => tvm.close());

function run(v: ContractVector, method: string, stack: GetMethodCall['stack'] = []) {
  return tvm.runGetMethod({
    code: Cell.fromBase64(v.code_boc_base64),
    data: Cell.fromBase64(v.data_boc_base64),
    address: Address.parse(v.ids.address),
    balance: 1_000_000_000n,
    extraCurrencies: new Map(),
    methodId: methodIdOf(method),
    stack,
    config,
    libs: null,
    now: 1_700_000_000,
  });
}

describe.skipIf(!hasVectors)('getTokenData readers on mainnet contracts', () => {
  it('reads an NFT item and its content through its collection', async () => {
    const item = loadVector<ContractVector>('accounts', 'nft_item_loton_100_EQAQKmY9.json');
    const collection = loadVector<ContractVector>('accounts', 'nft_collection_loton_EQBMy6CN.json');
    const data = await run(item, 'get_nft_data');
    expect(data.exitCode).toBe(0);
    const asserted = item.expected.get_nft_data as Record<string, unknown>;
    expect(numberFromStackEntry(data.stack[1])).toBe(BigInt(asserted.index as number));
    expect(addressFromStackEntry(data.stack[2], false)).toBe(asserted.collection_address);
    expect(addressFromStackEntry(data.stack[3], false)).toBe(asserted.owner_address);

    const byIndex = await run(collection, 'get_nft_address_by_index', [{ type: 'int', value: 100n }]);
    expect(addressFromStackEntry(byIndex.stack[0], false)).toBe(collection.expected['get_nft_address_by_index(100)']);
    const individual = data.stack[4];
    if (individual?.type !== 'cell') throw new Error('expected the individual content cell');
    const content = await run(collection, 'get_nft_content', [{ type: 'int', value: 100n }, individual]);
    expect(content.exitCode).toBe(0);
    const cell = content.stack[0];
    if (cell?.type !== 'cell') throw new Error('expected a content cell');
    expect(parseTokenContent(cell.cell)).toEqual({ type: 'offchain', data: item.expected.content_uri });
  });

  it('refuses addresses it cannot show and content it cannot read', () => {
    expect(addressFromStackEntry({ type: 'slice', cell: beginCell().storeUint(0, 2).endCell() }, false)).toBe('');
    expect(() => addressFromStackEntry({ type: 'cell', cell: Cell.EMPTY }, false)).toThrow(TokenDataError);
    const extern = beginCell().storeUint(1, 2).storeUint(8, 9).storeUint(0xff, 8).endCell();
    expect(() => addressFromStackEntry({ type: 'slice', cell: extern }, false)).toThrow(/addr_ext/);
    expect(() => addressFromStackEntry({ type: 'int', value: 1n }, false)).toThrow(/stackEntryCell or stackEntrySlice/);
    expect(() => parseTokenContent(Cell.EMPTY)).toThrow(TokenDataError);
    expect(() => parseTokenContent(beginCell().storeUint(0x02, 8).endCell())).toThrow(/Unknown token data type/);
  });
});
