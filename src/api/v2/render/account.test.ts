// Account renderings on real mainnet accounts (../shared/vectors/accounts): a frozen account (the devnet cannot
// make one: freezing takes storage debt above freeze_due_limit, months of storage at its prices), a regular one and
// one in the newer StorageInfo format. Expected values are the vectors' own (pytoniq's assertions and the state
// hash decoded when the vector was made), not ours.
import { Address, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../../test/helpers/vectors.ts';
import { type AccountAt, decodeAccount } from '../chain-reads.ts';
import { rawFullAccountStateV2, walletInformationV2 } from './account.ts';

interface AccountVector {
  boc_base64: string;
  expected: Record<string, unknown>;
  verification: { decoded: Record<string, unknown> } | string;
}

function accountAt(file: string): { a: AccountAt; v: AccountVector } {
  const v = loadVector<AccountVector>('accounts', file);
  // These vectors hold the Account cell itself; its last transaction hash is not part of it.
  const decoded = decodeAccount(Cell.fromBase64(v.boc_base64));
  const lastTransLt = decoded.account!.storage.lastTransLt;
  const lastTransHash = Buffer.alloc(32);
  const block = {
    kind: 'tonNode.blockIdExt' as const,
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: 1,
    rootHash: Buffer.alloc(32, 1),
    fileHash: Buffer.alloc(32, 2),
  };
  return {
    v,
    a: {
      address: decoded.account!.addr,
      block,
      shardBlock: block,
      syncUtime: 1_700_000_000,
      lastTransLt,
      lastTransHash,
      ...decoded,
    },
  };
}

function decodedOf(v: AccountVector): Record<string, unknown> {
  const ver = typeof v.verification === 'string' ? JSON.parse(v.verification) : v.verification;
  return ver.decoded;
}

describe.skipIf(!hasVectors)('account renderings on mainnet accounts', () => {
  it('renders a frozen account as frozen, with its state hash and no code', () => {
    const { a, v } = accountAt('account_frozen_pytoniq.json');
    expect(v.expected.state).toBe('account_frozen');
    const r = rawFullAccountStateV2(a, false);
    expect(r.state).toBe('frozen');
    expect(r.code).toBe('');
    expect(r.data).toBe('');
    expect(r.frozen_hash).toBe(Buffer.from(String(decodedOf(v).frozen_state_hash), 'hex').toString('base64'));
    expect(r.balance).toBe(String(decodedOf(v).balance));
    expect(walletInformationV2(a)).toMatchObject({ wallet: false, account_state: 'frozen' });
    expect(a.address.equals(Address.parse(String(decodedOf(v).address)))).toBe(true);
  });

  it('renders an active account (its code a library cell) and one with storage_extra', () => {
    for (const file of ['account_regular_pytoniq.json', 'account_storage_extra_dict_pytoniq.json']) {
      const { a, v } = accountAt(file);
      const r = rawFullAccountStateV2(a, false);
      expect(r.state).toBe('active');
      expect(r.balance).toBe(String(decodedOf(v).balance));
      expect(r.frozen_hash).toBe('');
      expect(r.last_transaction_id.lt).toBe(String(decodedOf(v).last_trans_lt));
      expect(Cell.fromBase64(r.code).hash().equals(a.code!.hash())).toBe(true);
    }
  });

  it('reads account_none as a never-used address', () => {
    const none = decodeAccount(null);
    expect(none).toMatchObject({
      status: 'uninitialized',
      balance: 0n,
      code: null,
      frozenHash: null,
      accountCell: null,
    });
  });
});
