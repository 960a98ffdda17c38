// accountInState on the new side of real mainnet blocks' state updates: every account a block changed is found with
// the state its last transaction left, and an address one bit away from it is not (account_none where the dictionary
// proves the key absent, null where the path to it is pruned).
import { Cell, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { listBlockTransactions, loadBlockCell } from '../block/block.ts';
import { ACCOUNT_NONE, accountInState, stateUpdateNewSide } from './state-update.ts';

describe.skipIf(!hasVectors)('accountInState on mainnet state updates', () => {
  it('finds each changed account with its last state, and never for an address one bit away', () => {
    let found = 0;
    let provedAbsent = 0;
    for (const { file, data } of loadVectors<{ boc_base64: string }>('blocks')) {
      const root = Cell.fromBase64(data.boc_base64);
      const newSide = stateUpdateNewSide(root);
      if (!newSide) continue;
      const after = new Map<string, { address: Buffer; lt: bigint; hash: Buffer }>();
      for (const t of listBlockTransactions(loadBlockCell(root))) {
        const k = t.account.toString('hex');
        if ((after.get(k)?.lt ?? -1n) > t.lt) continue;
        const tx = loadTransaction(t.cell.beginParse());
        after.set(k, { address: t.account, lt: t.lt, hash: bigintBytes(tx.stateUpdate.newHash) });
      }
      for (const { address, hash } of after.values()) {
        const account = accountInState(newSide, address);
        expect(account, `${file} ${address.toString('hex')}`).not.toBeNull();
        expect(account!.hash(0).equals(hash), `${file} ${address.toString('hex')}`).toBe(true);
        found++;
        const neighbour = Buffer.from(address);
        neighbour[31]! ^= 1;
        if (after.has(neighbour.toString('hex'))) continue;
        const other = accountInState(newSide, neighbour);
        expect(other === null || other === ACCOUNT_NONE, `${file} ${neighbour.toString('hex')}`).toBe(true);
        if (other === ACCOUNT_NONE) provedAbsent++;
      }
    }
    expect(found).toBeGreaterThan(50);
    expect(provedAbsent).toBeGreaterThan(10);
  });
});

function bigintBytes(x: Buffer | bigint): Buffer {
  return typeof x === 'bigint' ? Buffer.from(x.toString(16).padStart(64, '0'), 'hex') : x;
}
