// Validator elections (contracts.md §7.2, the elector at -1:3333…3333): new_stake#4e73744b is election_deposit,
// recover_stake#47657424 election_recover. As toncenter's classifier: the request must go to the elector; the
// elector's confirmation (0xf374484c for a stake, 0xf96f7324 with the returned coins for a recovery) belongs to the
// action, and without it the action failed (the elector refused, answered with an error, or had nothing to return).
import type { ActionDraft, Matcher, TraceNode } from '../types.ts';
import { childrenWithOp, internalIn } from './util.ts';

export const ELECTOR = `-1:${'3'.repeat(64)}`;

export const ELECTOR_OP = {
  newStake: 0x4e73744b,
  newStakeConfirmation: 0xf374484c,
  recoverStake: 0x47657424,
  recoverStakeResponse: 0xf96f7324,
} as const;

function electionOf(node: TraceNode): ActionDraft | null {
  const m = internalIn(node);
  if (!m?.source || node.tx.account !== ELECTOR) return null;
  if (m.opcode === ELECTOR_OP.newStake) {
    const confirmation = childrenWithOp(node, ELECTOR_OP.newStakeConfirmation)[0];
    return {
      type: 'election_deposit',
      nodes: confirmation ? [node, confirmation] : [node],
      success: confirmation !== undefined,
      source: m.source,
      amount: m.value,
      details: { stake_holder: m.source, amount: m.value === null ? null : m.value.toString() },
    };
  }
  if (m.opcode === ELECTOR_OP.recoverStake) {
    const response = childrenWithOp(node, ELECTOR_OP.recoverStakeResponse)[0];
    const returned = response?.tx.inMsg?.value ?? null;
    return {
      type: 'election_recover',
      nodes: response ? [node, response] : [node],
      success: response !== undefined,
      source: m.source,
      amount: returned,
      // `amount` is omitted, not null, when nothing came back (toncenter's omitempty).
      details: { stake_holder: m.source, ...(returned !== null ? { amount: returned.toString() } : {}) },
    };
  }
  return null;
}

export const electionsMatcher: Matcher = {
  name: 'elections',
  types: ['election_deposit', 'election_recover'],
  match(node) {
    const d = electionOf(node);
    return d ? [d] : null;
  },
};
