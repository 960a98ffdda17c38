// Jetton actions (TEP-74) the way toncenter's classifier builds them.
// - jetton_transfer: transfer#0f8a7ea5 received by a wallet that sent internal_transfer#178d4519 on; the receiving
//   wallet must be a known jetton wallet (its master is the asset, its owner the receiver). Amount and forward amount
//   are what the internal_transfer carried. Failed when either wallet's transaction failed. The receiving wallet's
//   transfer_notification and the excesses and bounces belong to the action.
// - a transfer to a pTON wallet (a TON wrapper that notifies without internal_transfer) is a jetton_transfer without
//   jetton wallets.
// - jetton_burn: burn#595f07bc received by a known jetton wallet; its burn_notification to the master belongs to it.
// - jetton_mint: mint#642b7d07 (or the v1 minter's #15) received by a master, with the internal_transfer it sent; when
//   that internal_transfer is missing or the master failed, the action is the failed request (receiver from the body).
// A wallet that is not known (a fake, or one the index has not verified) makes no jetton action: the messages stay
// call_contract, as in toncenter.
import { Address, type Cell } from '@ton/core';
import type { KnownBody } from '../../../ton/index.ts';
import { JETTON_OP, readBody, readCell } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { jettonPayloadComment } from './forward-payload.ts';
import { freeChildrenWithOp, rawAddress, withReplies } from './replies.ts';
import { bounceBack, inBody, payloadB64, str } from './util.ts';

/** Masters of TON wrappers whose wallets notify the receiver directly (toncenter's list). */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
  '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
  '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
  '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E',
]);

type Transfer = Extract<KnownBody, { type: 'jetton_transfer' }>;

/** The forward payload as toncenter keeps it: the Either's cell, none when it has no bits. */
function forwardPayload(t: Transfer): Cell | null {
  return t.forwardPayload.cell.bits.length > 0 ? t.forwardPayload.cell : null;
}

/** A jetton transfer's details as the API shows them (also for transfers a failed request only intended). */
export function transferDetails(t: Transfer, amount: bigint, forwardAmount: bigint) {
  const payload = forwardPayload(t);
  const { comment, encrypted } = jettonPayloadComment(payload);
  return {
    amount: amount.toString(),
    comment,
    is_encrypted_comment: encrypted,
    query_id: t.queryId.toString(),
    response_destination: rawAddress(t.responseDestination),
    custom_payload: payloadB64(t.customPayload),
    forward_payload: payloadB64(payload),
    forward_amount: forwardAmount.toString(),
  };
}

/** The nodes a notification brings: itself with its replies. */
const notifications = (node: TraceNode, ctx: MatchContext) =>
  freeChildrenWithOp(node, JETTON_OP.transferNotification, ctx).flatMap((n) => withReplies(n, ctx));

/** An internal_transfer's receiving node with its notifications and replies. */
const internalPart = (node: TraceNode, ctx: MatchContext) => [...withReplies(node, ctx), ...notifications(node, ctx)];

/** The start node, what its matched children bring, and the bounce of its own message coming back. */
function ownNodes(node: TraceNode, parts: TraceNode[]): TraceNode[] {
  const back = bounceBack(node);
  return [node, ...parts, ...(back ? [back] : [])];
}

function standardTransfer(node: TraceNode, t: Transfer, ctx: MatchContext): ActionDraft[] | null {
  const internals = freeChildrenWithOp(node, JETTON_OP.internalTransfer, ctx);
  const first = internals[0];
  const source = node.tx.inMsg?.source ?? null;
  if (!first || !t.destination || !source) return null;
  const receiverWallet = first.tx.account;
  const info = ctx.interfaces.get(receiverWallet)?.jettonWallet;
  if (!info) return null;
  const it = inBody(first, 'jetton_internal_transfer');
  const amount = it?.amount ?? t.amount;
  // toncenter names the receiving wallet's owner as the receiver (the body's destination for an honest wallet).
  const receiver = info.owner;
  const nodes = ownNodes(
    node,
    internals.flatMap((i) => internalPart(i, ctx)),
  );
  const transfer: ActionDraft = {
    type: 'jetton_transfer',
    nodes,
    success: !callFailed(node) && !callFailed(first),
    source,
    sourceSecondary: node.tx.account,
    destination: receiver,
    destinationSecondary: receiverWallet,
    asset: info.jetton,
    amount,
    details: {
      asset: info.jetton,
      sender: source,
      receiver,
      sender_jetton_wallet: node.tx.account,
      receiver_jetton_wallet: receiverWallet,
      ...transferDetails(t, amount, it?.forwardTonAmount ?? t.forwardTonAmount),
    },
  };
  return [transfer];
}

function ptonTransfer(node: TraceNode, t: Transfer, ctx: MatchContext): ActionDraft[] | null {
  const info = ctx.interfaces.get(node.tx.account)?.jettonWallet;
  const source = node.tx.inMsg?.source ?? null;
  if (!info || !source || !PTON_MASTERS.has(info.jetton.toUpperCase())) return null;
  const receiver = rawAddress(t.destination);
  // The pTON wallet's own excess belongs to the transfer as well (mainnet case "Stonfi Jetton -> Ton -> Jetton").
  const nodes = ownNodes(node, [...withReplies(node, ctx).slice(1), ...notifications(node, ctx)]);
  const transfer: ActionDraft = {
    type: 'jetton_transfer',
    nodes,
    success: !callFailed(node),
    source,
    sourceSecondary: null,
    destination: receiver,
    destinationSecondary: null,
    asset: info.jetton,
    amount: t.amount,
    details: {
      asset: info.jetton,
      sender: source,
      receiver,
      sender_jetton_wallet: null,
      receiver_jetton_wallet: null,
      ...transferDetails(t, t.amount, t.forwardTonAmount),
    },
  };
  return [transfer];
}

function transferOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const t = inBody(node, 'jetton_transfer');
  if (!t) return null;
  return standardTransfer(node, t, ctx) ?? ptonTransfer(node, t, ctx);
}

function burnOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const b = inBody(node, 'jetton_burn');
  const info = ctx.interfaces.get(node.tx.account)?.jettonWallet;
  if (!b || !info) return null;
  const notified = freeChildrenWithOp(node, JETTON_OP.burnNotification, ctx).flatMap((n) => withReplies(n, ctx));
  const nodes = ownNodes(node, notified);
  const burn: ActionDraft = {
    type: 'jetton_burn',
    nodes,
    success: !callFailed(node),
    source: info.owner,
    sourceSecondary: node.tx.account,
    asset: info.jetton,
    amount: b.amount,
    details: {
      owner: info.owner,
      owner_jetton_wallet: node.tx.account,
      asset: info.jetton,
      amount: b.amount.toString(),
    },
  };
  return [burn];
}

/** The jetton amount of a v1 minter's master_msg, read as toncenter reads it (op, query_id, amount). */
const masterMsgAmount = (c: Cell) =>
  readCell(c, (s) => {
    s.skip(32 + 64);
    return s.loadCoins();
  });

interface MintRequest {
  type: 'jetton_mint' | 'minter_jetton_mint';
  toAddress: Address | null;
  tonAmount: bigint;
  masterMsg: Cell;
}

/**
 * mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell, read as toncenter reads it:
 * any MsgAddress. Minters with another layout (amount first) make to_address an addr_extern and ton_amount whatever
 * follows; toncenter reports that value, and so do we (mainnet case "Jetton mint(0x642b7d07) with notification").
 */
const lenientMint = (c: Cell): MintRequest | null =>
  readBody(c, JETTON_OP.mint, (s) => {
    s.skip(64);
    const to = s.loadAddressAny();
    const tonAmount = s.loadCoins();
    const masterMsg = s.loadRef();
    return { type: 'jetton_mint' as const, toAddress: to instanceof Address ? to : null, tonAmount, masterMsg };
  });

function mintRequest(node: TraceNode): MintRequest | null {
  const known = inBody(node, 'jetton_mint') ?? inBody(node, 'minter_jetton_mint');
  if (known) return known;
  const m = node.tx.inMsg;
  return m && m.source !== null && !m.bounced && m.body ? lenientMint(m.body) : null;
}

function mintOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const mint = mintRequest(node);
  if (!mint) return null;
  const v1Amount = mint.type === 'minter_jetton_mint' ? masterMsgAmount(mint.masterMsg) : null;
  if (mint.type === 'minter_jetton_mint' && v1Amount === null) return null;
  const internals = freeChildrenWithOp(node, JETTON_OP.internalTransfer, ctx);
  const parts = [...notifications(node, ctx), ...internals.flatMap((i) => internalPart(i, ctx))];
  const nodes = ownNodes(node, parts);
  const first = internals[0];
  let to: string | null;
  let toWallet: string | null = null;
  let asset: string;
  let amount: bigint | null;
  let success: boolean;
  if (first && !callFailed(node)) {
    const info = ctx.interfaces.get(first.tx.account)?.jettonWallet;
    const it = inBody(first, 'jetton_internal_transfer');
    if (!info || !it) return null;
    to = info.owner;
    toWallet = first.tx.account;
    asset = info.jetton;
    amount = it.amount;
    success = !callFailed(first);
  } else {
    // The request that minted nothing: toncenter reports it failed, with what the body asked for.
    to = rawAddress(mint.toAddress);
    asset = node.tx.account;
    amount = v1Amount;
    success = false;
  }
  const action: ActionDraft = {
    type: 'jetton_mint',
    nodes,
    success,
    destination: to,
    destinationSecondary: toWallet,
    asset,
    amount,
    value: mint.tonAmount,
    details: {
      asset,
      receiver: to,
      receiver_jetton_wallet: toWallet,
      amount: str(amount),
      ton_amount: mint.tonAmount.toString(),
    },
  };
  return [action];
}

export const jettonMatcher: Matcher = {
  name: 'jetton',
  types: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
  match(node, ctx) {
    switch (node.tx.inMsg?.opcode) {
      case JETTON_OP.transfer:
        return transferOf(node, ctx);
      case JETTON_OP.burn:
        return burnOf(node, ctx);
      case JETTON_OP.mint:
      case JETTON_OP.mintV1:
        return mintOf(node, ctx);
      default:
        return null;
    }
  },
};
