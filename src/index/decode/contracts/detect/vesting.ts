// Vesting wallets (contracts.md §7; ton-index-worker VestingContract): get_vesting_data → int start_time,
// int total_duration, int unlock_period, int cliff_duration, int total_amount, slice sender, slice owner,
// cell whitelist (HashmapE 264 int1, key = wc:int8 ‖ hash:uint256). Detected by getter shape, not by code hash
// (contracts.md §10.6), so our own vesting code is seen too.
// Quirk: the reference contract returns null, not a cell, for an EMPTY whitelist (contracts.md §1.1, verified).
// ton-index-worker's exact type check (t_cell) therefore misses every vesting without a whitelist; we accept
// null as the empty whitelist instead, so such contracts are detected.
import { Address, Dictionary } from '@ton/core';
import type { Family } from './family.ts';
import { addressAt, cellAt, intAt } from './stack.ts';

const IGNORE_VALUE = {
  serialize: () => {
    throw new Error('vesting whitelist: read only');
  },
  parse: () => null,
};

/** A uint32/uint64 getter value as a JS number, or null when it is not a safe non-negative integer. */
function time(v: bigint): number | null {
  return v >= 0n && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
}

export const vesting: Family = {
  getter: 'get_vesting_data',
  async detect(account, base, { getters }) {
    const s = await getters.run(
      account,
      'get_vesting_data',
      [],
      ['int', 'int', 'int', 'int', 'int', 'slice', 'slice', 'cell?'],
    );
    if (!s) return null;
    const [startTime, totalDuration, unlockPeriod, cliffDuration] = [0, 1, 2, 3].map((i) => time(intAt(s, i)));
    const sender = addressAt(s, 5);
    const owner = addressAt(s, 6);
    if (startTime == null || totalDuration == null || unlockPeriod == null || cliffDuration == null) return null;
    if (!sender || !owner) return null;

    const whitelist: Address[] = [];
    const root = cellAt(s, 7);
    if (root) {
      try {
        const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(264), IGNORE_VALUE, root);
        for (const key of [...dict.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
          const wc = Number(BigInt.asIntN(8, key >> 256n));
          const hash = Buffer.from((key & ((1n << 256n) - 1n)).toString(16).padStart(64, '0'), 'hex');
          whitelist.push(new Address(wc, hash));
        }
      } catch {
        return null;
      }
    }
    return {
      ...base,
      kind: 'vesting',
      startTime,
      totalDuration,
      unlockPeriod,
      cliffDuration,
      totalAmount: intAt(s, 4),
      sender,
      owner,
      whitelist,
    };
  },
};
