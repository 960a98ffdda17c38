// contractMethodIds on mainnet contract codes: the ids the source repositories assert are found, every id we
// report dispatches in the TVM (a get-method the code does not have exits with 11, "method not found"), and ids
// we do not report do exit with 11. Codes without a method dictionary (hand-written wallets) give null.
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { Blockchain, createShardAccount, GetMethodError } from '@ton/sandbox';
import { WalletContractV3R2, WalletContractV5Beta } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { contractMethodIds, createContractMethodsCache, getMethodId } from './method-ids.ts';

interface CodeVector {
  ids: { address: string };
  code_boc_base64?: string;
  data_boc_base64?: string;
  expected?: { get_method_ids?: number[] };
  computed_get_methods?: Record<string, unknown>;
}

/** CRC-16/XMODEM, the checksum TON derives get-method ids from: (crc16(name) & 0xffff) | 0x10000. */
function crc16(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
const methodId = (name: string) => (crc16(Buffer.from(name, 'utf8')) & 0xffff) | 0x10000;

async function exitCodeOf(bc: Blockchain, address: Address, id: number): Promise<number> {
  try {
    return (await bc.runGetMethod(address, id)).exitCode;
  } catch (e) {
    if (e instanceof GetMethodError) return e.exitCode;
    throw e;
  }
}

describe.runIf(hasVectors)('contractMethodIds on mainnet codes', () => {
  const vectors = loadVectors<CodeVector>('accounts').filter((v) => v.data.code_boc_base64 && v.data.data_boc_base64);

  it('derives ids as the sources assert them (the checksum check)', () => {
    // tonkeeper/tongo abi/decoder_test.go: get_jetton_data = 106029, get_wallet_data = 97026.
    expect(methodId('get_jetton_data')).toBe(106029);
    expect(methodId('get_wallet_data')).toBe(97026);
    expect(vectors.length).toBeGreaterThan(10);
  });

  it.each(vectors.map((v) => [v.file, v.data] as const))('%s', async (_file, v) => {
    const code = Cell.fromBase64(v.code_boc_base64!);
    const ids = contractMethodIds(code);
    if (ids === null) {
      // Only hand-written codes without the FunC/Tolk dispatcher may have no list.
      expect(
        code.beginParse().loadUint(16) === 0xff00 && code.beginParse().skip(16).loadUint(13) === 0b1111010010100,
      ).toBe(false);
      return;
    }
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const id of v.expected?.get_method_ids ?? []) expect(ids).toContain(id);
    for (const name of Object.keys(v.computed_get_methods ?? {})) expect(ids).toContain(methodId(name.split('(')[0]!));

    const bc = await Blockchain.create();
    const address = Address.parseRaw(v.ids.address);
    const data = Cell.fromBase64(v.data_boc_base64!);
    await bc.setShardAccount(address, createShardAccount({ address, code, data, balance: toNano('1') }));
    for (const id of ids.filter((i) => i >= 0x10000 && i < 0x20000)) {
      expect(await exitCodeOf(bc, address, id), `id ${id} is in the dictionary`).not.toBe(11);
    }
    const absent = [0x10001, 0x12345, 0x1fffe].filter((i) => !ids.includes(i));
    for (const id of absent) expect(await exitCodeOf(bc, address, id), `id ${id} is not`).toBe(11);
  });
});

describe('getMethodId', () => {
  it('gives the ids of contracts.md §0 (tongo agrees on get_lockup_data)', () => {
    const table: Record<string, number> = {
      seqno: 85143,
      get_jetton_data: 106029,
      get_wallet_address: 103289,
      get_wallet_data: 97026,
      is_claimed: 122284,
      get_nft_data: 102351,
      get_collection_data: 102491,
      get_nft_address_by_index: 92067,
      get_nft_content: 68445,
      dnsresolve: 123660,
      get_domain: 119378,
      get_full_domain: 66763,
      get_multisig_data: 107307,
      get_order_address: 111399,
      get_order_data: 123832,
      get_vesting_data: 107618,
      get_lockup_data: 107305,
    };
    for (const [name, id] of Object.entries(table)) expect(getMethodId(name), name).toBe(id);
    for (const name of Object.keys(table)) expect(getMethodId(name)).toBe(methodId(name));
  });
});

describe('contractMethodIds on other shapes', () => {
  it('null for a hand-written wallet, a library cell and a plain cell', () => {
    const pk = Buffer.alloc(32, 1);
    expect(contractMethodIds(WalletContractV3R2.create({ workchain: 0, publicKey: pk }).init.code)).toBeNull();
    const lib = WalletContractV5Beta.create({ publicKey: pk }).init.code;
    expect(lib.isExotic).toBe(true);
    expect(contractMethodIds(lib)).toBeNull();
    expect(contractMethodIds(beginCell().storeUint(0xff00, 16).endCell())).toBeNull();
    expect(contractMethodIds(beginCell().endCell())).toBeNull();
  });

  it('caches by code hash, including the null answers', () => {
    const cache = createContractMethodsCache(2);
    let loads = 0;
    const plain = beginCell().storeUint(1, 8).endCell();
    const load = () => {
      loads++;
      return plain;
    };
    expect(cache.get('h1', load)).toBeNull();
    expect(cache.get('h1', load)).toBeNull();
    expect(loads).toBe(1);
  });
});
