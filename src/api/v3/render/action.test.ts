// The details v3 shows: the stored details less the classifier's fields toncenter's API does not carry.
import { describe, expect, it } from 'vitest';
import { CLASSIFIER_NAMES, hiddenDetailsKeys } from '../../../index/actions/classifier-names.ts';
import { publicDetails } from './action.ts';

describe('publicDetails', () => {
  it("leaves out the classifier's hidden fields and keeps every other key", () => {
    const stored = { asset_id: '0x1', fail_reason: null, is_ton: true, amount: '5' };
    expect(publicDetails('evaa_withdraw', stored)).toEqual({ asset_id: '0x1', fail_reason: null, amount: '5' });
    // A type without hidden fields is shown as stored.
    expect(publicDetails('evaa_supply', stored)).toEqual(stored);
  });

  it('hides exactly the rows marked hidden, and none of them is a key v3-api.md §6 shows for the type', () => {
    // evaa_withdraw's API details (v3-api.md §6.6) and dex_withdraw_liquidity's: the hidden keys are not among them.
    const shown: Record<string, string[]> = {
      evaa_withdraw: ['recipient_jetton_wallet', 'master_jetton_wallet', 'master', 'fail_reason', 'asset_id'],
      dex_withdraw_liquidity: ['dex', 'amount_1', 'amount_2', 'asset_1', 'asset_2', 'lp_tokens_burnt', 'pool'],
    };
    for (const [type, keys] of Object.entries(shown)) {
      const hidden = hiddenDetailsKeys(type);
      expect(hidden.size).toBeGreaterThan(0);
      for (const k of keys) expect(hidden.has(k), `${type}.${k}`).toBe(false);
    }
    const marked = Object.entries(CLASSIFIER_NAMES).flatMap(([type, rows]) =>
      rows.filter((r) => r.hidden).map((r) => `${type}.${r.details}`),
    );
    const listed = Object.keys(CLASSIFIER_NAMES).flatMap((type) =>
      [...hiddenDetailsKeys(type)].map((k) => `${type}.${k}`),
    );
    expect(listed.sort()).toEqual(marked.sort());
  });
});
