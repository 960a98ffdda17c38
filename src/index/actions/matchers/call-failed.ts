// When a contract call counts as failed in toncenter's classifier (its CallContractBlock): the receiving transaction
// aborted, except for a message that carried no coins at all, whose failure nobody pays for.
import type { TraceNode } from '../types.ts';

export function callFailed(node: TraceNode): boolean {
  const m = node.tx.inMsg;
  if (!node.tx.aborted) return false;
  const carriedNothing = !m?.value && Object.keys(m?.extraCurrencies ?? {}).length === 0;
  return !(carriedNothing && m?.opcode);
}
