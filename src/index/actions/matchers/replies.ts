// What jetton and NFT actions take along besides the messages they are named for, as toncenter's block matchers do:
// each matched message brings the excesses and bounces its transaction caused. (contract_deploy of the transactions
// an action took is added by the driver, classify.ts.)
import type { Address } from '@ton/core';
import { formatAddressV3 } from '../../../ton/index.ts';
import type { MatchContext, TraceNode } from '../types.ts';

export const EXCESS_OP = 0xd53276db;
const BOUNCE_OP = 0xffffffff;

/** `node` and its children that received an excess or a bounce, unless another action holds them. */
export function withReplies(node: TraceNode, ctx: MatchContext): TraceNode[] {
  const replies = node.children.filter((c) => {
    const m = c.tx.inMsg;
    return !ctx.isClaimed(c) && m !== null && (m.bounced || m.opcode === EXCESS_OP || m.opcode === BOUNCE_OP);
  });
  return [node, ...replies];
}

/** Children of `node` that received an internal message with `op`, unless another action holds them. */
export function freeChildrenWithOp(node: TraceNode, op: number, ctx: MatchContext): TraceNode[] {
  return node.children.filter((c) => {
    const m = c.tx.inMsg;
    return !ctx.isClaimed(c) && m !== null && m.source !== null && !m.bounced && m.opcode === op;
  });
}

/** An address from a message body the way actions hold addresses: raw, upper-case; addr_none is null. */
export const rawAddress = (a: Address | null | undefined): string | null => (a ? formatAddressV3(a) : null);
