// The fallbacks, last in the table (v3-api.md §6.2 step 3): an internal message no protocol matcher took is a
// ton_transfer (empty body, text or encrypted comment) or a call_contract (any other body); a tick-tock transaction
// is a tick_tock. A bounce coming back belongs to the transfer that caused it, which then failed. contract_deploy
// (deployOf) is added by the driver for every deploying transaction, whichever action took it.
import type { ActionDraft, Matcher, TraceNode } from '../types.ts';
import { bounceBack, commentOf, isEmptyBody, opcodeHex, str } from './util.ts';

/** A contract_deploy for a transaction that made its account active (not a frozen account brought back). */
export function deployOf(node: TraceNode): ActionDraft | null {
  const { tx } = node;
  if (tx.origStatus === 'active' || tx.origStatus === 'frozen' || tx.endStatus !== 'active') return null;
  const m = tx.inMsg;
  return {
    type: 'contract_deploy',
    nodes: [node],
    success: !tx.aborted,
    source: m?.source ?? null,
    destination: tx.account,
    value: m?.value ?? null,
    opcode: m?.opcode ?? null,
    details: {
      ...(m?.opcode !== null && m?.opcode !== undefined ? { opcode: opcodeHex(m.opcode) } : {}),
      ...(m?.source ? { source: m.source } : {}),
      destination: tx.account,
      ...(m?.value !== null && m?.value !== undefined ? { value: m.value.toString() } : {}),
    },
  };
}

/** The ton_transfer or call_contract of an internal message (also the payout part of an nft_purchase). */
export function transferOf(node: TraceNode): ActionDraft | null {
  const m = node.tx.inMsg;
  if (!m || m.source === null || m.bounced) return null;
  const back = bounceBack(node);
  const nodes = back ? [node, back] : [node];
  const comment = commentOf(m.body);
  const extra = Object.keys(m.extraCurrencies).length > 0 ? m.extraCurrencies : null;
  if (isEmptyBody(m.body) || comment) {
    return {
      type: 'ton_transfer',
      nodes,
      // A transfer is failed when it came back; one taken by an account that cannot run code is not.
      success: !back,
      source: m.source,
      destination: node.tx.account,
      value: m.value,
      details: {
        source: m.source,
        destination: node.tx.account,
        value: str(m.value),
        ...(extra ? { value_extra_currencies: extra } : {}),
        comment: comment?.text ?? null,
        encrypted: comment?.encrypted ?? false,
      },
    };
  }
  return {
    type: 'call_contract',
    nodes,
    success: !node.tx.aborted && !back,
    source: m.source,
    destination: node.tx.account,
    value: m.value,
    opcode: m.opcode,
    details: {
      ...(m.opcode !== null ? { opcode: opcodeHex(m.opcode) } : {}),
      source: m.source,
      destination: node.tx.account,
      ...(m.value !== null ? { value: m.value.toString() } : {}),
      ...(extra ? { extra_currencies: extra } : {}),
    },
  };
}

export const basicMatcher: Matcher = {
  name: 'basic',
  types: ['ton_transfer', 'call_contract', 'contract_deploy', 'tick_tock'],
  match(node) {
    if (node.tx.descr === 'tick_tock') {
      return [{ type: 'tick_tock', nodes: [node], success: !node.tx.aborted, details: { account: node.tx.account } }];
    }
    const transfer = transferOf(node);
    return transfer ? [transfer] : null;
  },
};
