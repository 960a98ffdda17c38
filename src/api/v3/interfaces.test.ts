// The interface table against its references: the names are v3-api.md Appendix B's 106, the method ids those of
// contracts.md §0, the code hashes agree with ../shared/vectors/code_hashes.json wherever it names the same
// contract, and detection follows contracts.md §1.2 (exact hash first, else every interface whose getters are all
// present, sorted).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasVectors, sharedPath } from '../../../test/helpers/vectors.ts';
import { detectInterfaces, INTERFACES, methodId } from './interfaces.ts';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe.runIf(hasVectors)('interface table', () => {
  it('holds exactly the 106 names of v3-api.md Appendix B', () => {
    const md = readFileSync(sharedPath('specs', 'v3-api.md'), 'utf8');
    const line = md.split('\n')[md.split('\n').findIndex((l) => l.startsWith('## Appendix B')) + 1] as string;
    const names = line
      .replace(' (sic, with trailing space in code)', '')
      .replace(/\.$/, '')
      .split(', ')
      .map((n) => n.trim());
    expect(names).toHaveLength(106);
    const ours = INTERFACES.map((r) => r.name.trim());
    expect([...ours].sort()).toEqual([...names].sort());
    // toncenter's spelling, kept: the trailing space Appendix B notes.
    expect(INTERFACES.map((r) => r.name)).toContain('dedust_liquidity_deposit ');
  });

  it('computes the get-method ids of contracts.md §0', () => {
    const table: Record<string, number> = {
      seqno: 85143,
      get_public_key: 78748,
      get_subwallet_id: 81467,
      get_plugin_list: 107653,
      is_plugin_installed: 76407,
      is_signature_allowed: 88459,
      get_extensions: 117729,
      get_timeout: 105070,
      get_jetton_data: 106029,
      get_wallet_address: 103289,
      get_wallet_data: 97026,
      get_nft_data: 102351,
      get_collection_data: 102491,
      get_nft_address_by_index: 92067,
      get_nft_content: 68445,
      get_editor: 90228,
      get_authority_address: 84760,
      get_multisig_data: 107307,
      get_order_address: 111399,
      get_order_data: 123832,
      get_vesting_data: 107618,
      get_lockup_data: 107305,
      get_balances: 87878,
      dnsresolve: 123660,
    };
    for (const [name, id] of Object.entries(table)) expect(methodId(name), name).toBe(id);
  });

  it('names the codes of code_hashes.json as that file does, where the names agree', () => {
    const rows = (
      JSON.parse(readFileSync(sharedPath('vectors', 'code_hashes.json'), 'utf8')) as {
        rows: Array<{ name: string; code_hash: string }>;
      }
    ).rows;
    // code_hashes.json names (first word) that differ from toncenter's interface names.
    const alias: Record<string, string> = {
      highload_v1r1: 'wallet_highload_v1r1',
      highload_v1r2: 'wallet_highload_v1r2',
      highload_v2: 'wallet_highload_v2',
      highload_v2r1: 'wallet_highload_v2r1',
      highload_v2r2: 'wallet_highload_v2r2',
      highload_v3: 'wallet_highload_v3r1',
    };
    // Interfaces toncenter names by hash (those it names by getters alone, such as jetton_wallet, have no hashes).
    const known = new Set(INTERFACES.filter((r) => r.codeHashes.length > 0).map((r) => r.name));
    let checked = 0;
    for (const row of rows) {
      const first = row.name.split(' ')[0] as string;
      const name = alias[first] ?? first;
      if (!known.has(name)) continue;
      expect(detectInterfaces(b64(row.code_hash), null), row.name).toEqual([name]);
      checked++;
    }
    // Wallets v1-v5 (12 rows with both v5 beta codes), highload (6), multisig v2 and its order, vesting,
    // preprocessed v2, the three jetton wallets and nft_item_simple.
    expect(checked).toBeGreaterThanOrEqual(25);
    // contracts.md §0.1: the library-cell hashes of the multisig order and the governed (USDT) wallet.
    expect(detectInterfaces(b64('a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc'), null)).toEqual([
      'multisig_order_v2',
    ]);
    expect(detectInterfaces(b64('89468f02c78e570802e39979c8516fc38df07ea76a48357e0536f2ba7b3ee37b'), null)).toEqual([
      'jetton_wallet_governed',
    ]);
  });

  it('detects as contracts.md §1.2 describes', () => {
    const usdt = b64('89468f02c78e570802e39979c8516fc38df07ea76a48357e0536f2ba7b3ee37b');
    // An exact hash wins over the getters the code has: USDT's wallet is only jetton_wallet_governed.
    expect(detectInterfaces(usdt, [methodId('get_wallet_data')])).toEqual(['jetton_wallet_governed']);
    const unknown = Buffer.alloc(32, 7).toString('base64');
    expect(detectInterfaces(unknown, [methodId('get_wallet_data')])).toEqual(['jetton_wallet']);
    expect(detectInterfaces(unknown, [methodId('get_jetton_data'), methodId('get_wallet_address')])).toEqual([
      'jetton_master',
    ]);
    // Own code with seqno + get_public_key: several wallet labels, sorted.
    const own = detectInterfaces(unknown, [methodId('seqno'), methodId('get_public_key')]);
    expect(own).toEqual(expect.arrayContaining(['wallet_v1r3', 'wallet_v2r2', 'wallet_v3r2']));
    expect(own).toEqual([...own].sort());
    // An own v5-like wallet also gets wallet_v5r1; multisig v2 by its two getters.
    const v5 = ['seqno', 'get_public_key', 'get_subwallet_id', 'get_extensions', 'is_signature_allowed'];
    expect(detectInterfaces(unknown, v5.map(methodId))).toContain('wallet_v5r1');
    expect(detectInterfaces(unknown, [methodId('get_multisig_data'), methodId('get_order_address')])).toEqual([
      'multisig_v2',
    ]);
    // Ids as the database returns them (bigint) work the same; nothing known gives [].
    expect(detectInterfaces(unknown, [BigInt(methodId('get_nft_data'))])).toEqual(['nft_item']);
    expect(detectInterfaces(unknown, [0, 1, 2])).toEqual([]);
    expect(detectInterfaces(unknown, null)).toEqual([]);
    expect(detectInterfaces(null, [])).toEqual([]);
  });
});
