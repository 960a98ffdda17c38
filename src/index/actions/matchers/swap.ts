// What the DEX matchers (stonfi.ts, dedust.ts) share: the jetton transfers a swap consists of, seen through the jetton
// matcher, and the jetton_swap draft with toncenter's details and generic columns. toncenter's API shows
// `sender` = the source column (the incoming transfer's source), `asset_in` = asset, `asset_out` = asset2, and
// `peer_swaps` as a list (empty for a single hop); an asset null is TON.
import type { Cell } from '@ton/core';
import { JETTON_OP, payloadCell } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, TraceNode } from '../types.ts';
import { jettonMatcher, PTON_MASTERS } from './jetton.ts';
import { inBody } from './util.ts';

/** A jetton transfer as the jetton matcher recognised it (toncenter's JettonTransferBlock data). */
export interface Leg {
  /** The jetton_transfer draft: its nodes belong to the swap. */
  draft: ActionDraft;
  sender: string | null;
  senderWallet: string | null;
  receiver: string | null;
  receiverWallet: string | null;
  /** The jetton master. */
  asset: string;
  amount: bigint;
  /** False for a transfer to a TON wrapper (pTON) wallet, which notifies without internal_transfer. */
  hasInternalTransfer: boolean;
  forwardPayload: Cell | null;
  /** The receiver's transaction for the transfer_notification, when it got one. */
  notified: TraceNode | undefined;
}

/** The jetton transfer starting at `node` (transfer#0f8a7ea5 received by a known wallet), or null. */
export function legAt(node: TraceNode, ctx: MatchContext): Leg | null {
  const draft = jettonMatcher.match(node, ctx)?.[0];
  const t = inBody(node, 'jetton_transfer');
  if (draft?.type !== 'jetton_transfer' || !t || !draft.asset || draft.amount === null || draft.amount === undefined)
    return null;
  const receiver = draft.destination ?? null;
  const notified = draft.nodes.find(
    (n) =>
      n !== node &&
      n.tx.account === receiver &&
      n.tx.inMsg?.opcode === JETTON_OP.transferNotification &&
      !n.tx.inMsg.bounced,
  );
  return {
    draft,
    sender: draft.source ?? null,
    senderWallet: draft.sourceSecondary ?? null,
    receiver,
    receiverWallet: draft.destinationSecondary ?? null,
    asset: draft.asset,
    amount: draft.amount,
    hasInternalTransfer: draft.destinationSecondary !== null && draft.destinationSecondary !== undefined,
    forwardPayload: payloadCell(t.forwardPayload),
    notified,
  };
}

/** The child of `node` that received an internal, not bounced message with `op` (the first by lt). */
export function childWithOp(node: TraceNode, op: number, ctx: MatchContext): TraceNode | undefined {
  return node.children.find((c) => {
    const m = c.tx.inMsg;
    return !ctx.isClaimed(c) && m !== null && m.source !== null && !m.bounced && m.opcode === op;
  });
}

/** Every such child, in lt order. */
export function childrenWithOp(node: TraceNode, op: number, ctx: MatchContext): TraceNode[] {
  return node.children.filter((c) => {
    const m = c.tx.inMsg;
    return !ctx.isClaimed(c) && m !== null && m.source !== null && !m.bounced && m.opcode === op;
  });
}

/** True when a transaction within `depth` levels below `node` received a message with one of `ops` (a cheap test
 * before the jetton matcher runs for every transfer). */
export function reaches(node: TraceNode, ops: ReadonlySet<number>, depth: number): boolean {
  if (depth === 0) return false;
  return node.children.some((c) => {
    const op = c.tx.inMsg?.opcode;
    return (op !== null && op !== undefined && ops.has(op)) || reaches(c, ops, depth - 1);
  });
}

/** A jetton as a swap shows it: the master, or null (TON) for the TON wrappers. */
export const tonIfPton = (jetton: string | null): string | null =>
  jetton && PTON_MASTERS.has(jetton.toUpperCase()) ? null : jetton;

/** The first 32 bits of a cell, or null. */
export function opOf(c: Cell | null | undefined): number | null {
  if (!c || c.bits.length < 32) return null;
  return c.beginParse(true).loadUint(32) >>> 0;
}

export interface SwapTransfer {
  /** Jetton master; null = TON. */
  asset: string | null;
  source: string | null;
  destination: string | null;
  sourceJettonWallet: string | null;
  destinationJettonWallet: string | null;
  amount: bigint | null;
}

/** A jetton leg as a swap transfer: its master, sender and receiver with their wallets, the amount. */
export function transferOfLeg(leg: Leg): SwapTransfer & { amount: bigint } {
  return {
    asset: leg.asset,
    amount: leg.amount,
    source: leg.sender,
    sourceJettonWallet: leg.senderWallet,
    destination: leg.receiver,
    destinationJettonWallet: leg.receiverWallet,
  };
}

export interface PeerSwap {
  assetIn: string | null;
  amountIn: bigint | null;
  assetOut: string | null;
  amountOut: bigint | null;
}

export interface Swap {
  dex: 'stonfi' | 'stonfi_v2' | 'dedust' | 'tonco' | 'coffee';
  nodes: TraceNode[];
  success: boolean;
  incoming: SwapTransfer;
  outgoing: SwapTransfer;
  /** The asset column (details `asset_in`). */
  assetIn: string | null;
  /** The asset2 column (details `asset_out`): the asset asked for, which a failed swap did not pay out. */
  assetOut: string | null;
  /** destination_secondary when it is not the outgoing transfer's receiving wallet (STON.fi v1). */
  destinationSecondary?: string | null;
  peerSwaps: PeerSwap[];
  /** The least the sender asked for (details `min_out_amount`), where the DEX's messages name it (TONCO). */
  minOutAmount?: bigint;
}

const str = (v: bigint | null) => (v === null ? null : v.toString());

const transferJson = (t: SwapTransfer) => ({
  asset: t.asset,
  source: t.source,
  destination: t.destination,
  source_jetton_wallet: t.sourceJettonWallet,
  destination_jetton_wallet: t.destinationJettonWallet,
  amount: str(t.amount),
});

/** The jetton_swap draft: toncenter's generic columns (block_tree_serializer) and API details. */
export function swapDraft(s: Swap): ActionDraft {
  return {
    type: 'jetton_swap',
    nodes: [...new Set(s.nodes)],
    success: s.success,
    source: s.incoming.source,
    sourceSecondary: s.incoming.sourceJettonWallet,
    destination: s.outgoing.destination,
    destinationSecondary:
      s.destinationSecondary !== undefined ? s.destinationSecondary : s.outgoing.destinationJettonWallet,
    asset: s.assetIn,
    asset2: s.assetOut,
    details: {
      dex: s.dex,
      sender: s.incoming.source,
      asset_in: s.assetIn,
      asset_out: s.assetOut,
      dex_incoming_transfer: transferJson(s.incoming),
      dex_outgoing_transfer: transferJson(s.outgoing),
      peer_swaps: s.peerSwaps.map((p) => ({
        asset_in: p.assetIn,
        amount_in: str(p.amountIn),
        asset_out: p.assetOut,
        amount_out: str(p.amountOut),
      })),
      ...(s.minOutAmount !== undefined ? { min_out_amount: s.minOutAmount.toString() } : {}),
    },
  };
}
