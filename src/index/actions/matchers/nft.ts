// NFT actions (TEP-62) the way toncenter's classifier builds them; the item must be a known NFT item (toncenter has
// no action without its index), otherwise the messages stay call_contract.
// - nft_mint: a transaction that made a known NFT item active (whatever deployed it); `owner` in the details is the
//   deploying message's source, as in toncenter.
// - nft_transfer: transfer#5fcc3d14 received by the item, with its ownership_assigned#05138d91 and excess replies.
//   The old owner is the ownership_assigned's prev_owner when there is one, else the sender. Failed when the item's
//   transaction failed.
// - nft_transfer from an ownership_assigned alone (Telegram items, which announce a new owner without a transfer:
//   an auction won, a mint): new owner = its receiver. With Fragment's bid info in the payload it is a purchase at
//   the bid (not for a mint), and the item's transaction and its auction fill-ups (royalty first, then payout)
//   belong to it when that transaction was a plain TON transfer or an external message.
// - A transfer a GetGems sale or auction sent is a purchase, and an nft_purchase once the seller's payout is found
//   (getgems.ts); the listing's own transaction joins it when a buyer's TON or an external woke it, so that
//   transfer is matched at the listing's transaction (transferFromListing).
import type { Cell } from '@ton/core';
import type { KnownBody } from '../../../ton/index.ts';
import { loadMsgAddress, NFT_OP, readBody } from '../../../ton/index.ts';
import type { ActionDraft, ContractInfo, Details, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { nftPayloadComment } from './forward-payload.ts';
import { asPurchase, purchaseDetails, soldBy } from './getgems.ts';
import { EXCESS_OP, freeChildrenWithOp, rawAddress, withReplies } from './replies.ts';
import { bounceBack, COMMENT_OP, ENCRYPTED_COMMENT_OP, inBody, payloadB64, str } from './util.ts';

/** Telemint: the collection's deploy message to an item, the auction fill-up, the bid info in ownership_assigned. */
export const TELEMINT_OP = { deployItem: 0x299a3e15, fillUp: 0x370fec51, bidInfo: 0x38127de1 } as const;

type NftItem = NonNullable<ContractInfo['nftItem']>;
type Assigned = Extract<KnownBody, { type: 'nft_ownership_assigned' }>;

const deploys = (n: TraceNode) => n.tx.origStatus !== 'active' && n.tx.endStatus === 'active';

/** The details keys of toncenter's NFT transfer, marketplace fields empty. */
function transferDetails(item: NftItem, address: string, fields: Details): Details {
  return {
    nft_collection: item.collection,
    nft_item: address,
    nft_item_index: item.index,
    ...fields,
    marketplace: null,
    real_old_owner: null,
    marketplace_address: null,
    payout_amount: null,
    payout_address: null,
    payout_comment: null,
    payout_comment_encrypted: null,
    payout_comment_encoded: null,
    royalty_amount: null,
    royalty_address: null,
  };
}

function mintOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const item = ctx.interfaces.get(node.tx.account)?.nftItem;
  if (!deploys(node) || !item) return null;
  const m = node.tx.inMsg;
  const source = m?.source ?? null;
  const back = bounceBack(node);
  const nodes = back ? [node, back] : [node];
  const mint: ActionDraft = {
    type: 'nft_mint',
    nodes,
    // toncenter never marks a mint failed: the item exists.
    success: true,
    source,
    destination: node.tx.account,
    asset: item.collection,
    assetSecondary: node.tx.account,
    opcode: m?.opcode ?? null,
    details: {
      ...(source ? { owner: source } : {}),
      nft_item: node.tx.account,
      nft_collection: item.collection,
      nft_item_index: item.index,
    },
  };
  return [mint];
}

/**
 * Whether a transfer body goes on after forward_amount: toncenter keeps the forward payload then, even an empty
 * inline one, and has none when the body ends there.
 */
function hasForwardPayload(body: Cell | null): boolean {
  if (!body) return false;
  const more = readBody(body, NFT_OP.transfer, (s) => {
    s.loadUintBig(64);
    loadMsgAddress(s);
    loadMsgAddress(s);
    s.loadMaybeRef();
    s.loadCoins();
    return s.remainingBits > 0;
  });
  return more === true;
}

/**
 * The transfer the item `node` received. `fromListing`: matched at its parent, a GetGems listing, which then joins
 * the action (null when it does not).
 */
function transferOf(node: TraceNode, ctx: MatchContext, fromListing = false): ActionDraft[] | null {
  const t = inBody(node, 'nft_transfer');
  const item = ctx.interfaces.get(node.tx.account)?.nftItem;
  const m = node.tx.inMsg;
  if (!t || !item || !m) return null;
  const newOwner = rawAddress(t.newOwner);
  const sold = soldBy(node, newOwner, ctx);
  if (fromListing && !sold?.takesListing) return null;
  const assigned = freeChildrenWithOp(node, NFT_OP.ownershipAssigned, ctx);
  const excesses = freeChildrenWithOp(node, EXCESS_OP, ctx);
  let oldOwner = m.source;
  if (assigned[0]) {
    // toncenter reads the first ownership_assigned; one it cannot read spoils the whole match.
    const a = inBody(assigned[0], 'nft_ownership_assigned');
    if (!a) return null;
    oldOwner = rawAddress(a.prevOwner);
  }
  const payload = hasForwardPayload(m.body) ? t.forwardPayload.cell : null;
  const { comment, encrypted } = nftPayloadComment(payload);
  const back = bounceBack(node);
  const nodes = [
    ...(fromListing && node.parent ? [node.parent] : []),
    node,
    ...assigned.flatMap((n) => withReplies(n, ctx)),
    ...excesses.flatMap((n) => withReplies(n, ctx)),
    ...(back ? [back] : []),
  ];
  const transfer: ActionDraft = {
    type: 'nft_transfer',
    nodes,
    success: !callFailed(node),
    source: oldOwner,
    destination: newOwner,
    asset: item.collection,
    assetSecondary: node.tx.account,
    details: transferDetails(item, node.tx.account, {
      ...(oldOwner ? { old_owner: oldOwner } : {}),
      new_owner: newOwner,
      is_purchase: false,
      query_id: t.queryId.toString(),
      response_destination: rawAddress(t.responseDestination),
      custom_payload: payloadB64(t.customPayload),
      forward_payload: payloadB64(payload),
      forward_amount: t.forwardAmount.toString(),
      comment,
      is_encrypted_comment: encrypted,
    }),
  };
  if (!sold) return [transfer];
  transfer.details = { ...transfer.details, ...purchaseDetails(sold) };
  return [asPurchase(transfer, sold, node, ctx)];
}

/** At a GetGems listing's transaction: the transfer it sent, when the listing joins it (see transferOf). */
function transferFromListing(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const info = ctx.interfaces.get(node.tx.account);
  if (!info?.getgemsSale && !info?.getgemsAuction) return null;
  for (const child of freeChildrenWithOp(node, NFT_OP.transfer, ctx)) {
    const drafts = transferOf(child, ctx, true);
    if (drafts) return drafts;
  }
  return null;
}

interface AssignedPayload {
  /** The payload as toncenter keeps it; null when the body has none or its bid info does not parse. */
  cell: Cell | null;
  /** Fragment's bid (bid info op, amount, time), when the payload is one. */
  bid: bigint | null;
}

function assignedPayload(body: Cell | null, a: Assigned): AssignedPayload {
  const present =
    body !== null &&
    readBody(body, NFT_OP.ownershipAssigned, (s) => {
      s.loadUintBig(64);
      loadMsgAddress(s);
      return s.remainingBits > 0;
    }) === true;
  if (!present) return { cell: null, bid: null };
  const cell = a.forwardPayload.cell;
  if (readBody(cell, TELEMINT_OP.bidInfo, () => true) !== true) return { cell, bid: null };
  const bid = readBody(cell, TELEMINT_OP.bidInfo, (s) => {
    const amount = s.loadCoins();
    s.loadUint(32);
    return amount;
  });
  // toncenter drops the whole payload when bid info it recognises does not parse.
  return bid === null ? { cell: null, bid: null } : { cell, bid };
}

/** The item's transaction counts as the purchase's start when it took plain TON or an external message. */
function tonOrExternal(node: TraceNode): boolean {
  const m = node.tx.inMsg;
  if (!m || node.tx.descr === 'tick_tock') return false;
  if (m.source === null) return true;
  return !m.bounced && (m.opcode === null || m.opcode === COMMENT_OP || m.opcode === ENCRYPTED_COMMENT_OP);
}

/** An ownership_assigned (`node` receives it) from a known item, without a transfer the item matched. */
function assignedOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const m = node.tx.inMsg;
  const a = inBody(node, 'nft_ownership_assigned');
  const itemAddress = m?.source ?? null;
  const item = itemAddress ? ctx.interfaces.get(itemAddress)?.nftItem : undefined;
  if (!m || !a || !itemAddress || !item) return null;
  const { cell, bid } = assignedPayload(m.body, a);
  const parent = node.parent;
  const isMint = parent !== null && (deploys(parent) || parent.tx.inMsg?.opcode === TELEMINT_OP.deployItem);
  const purchase = bid !== null && !isMint;
  const withParent = bid !== null && parent !== null && !ctx.isClaimed(parent) && tonOrExternal(parent);
  const fillUps = withParent
    ? freeChildrenWithOp(parent, TELEMINT_OP.fillUp, ctx).sort((x, y) =>
        (x.tx.inMsg?.createdLt ?? 0n) < (y.tx.inMsg?.createdLt ?? 0n) ? -1 : 1,
      )
    : [];
  const [royalty, payout] = fillUps.length > 1 ? [fillUps[0], fillUps[1]] : [undefined, fillUps[0]];
  const oldOwner = rawAddress(a.prevOwner);
  const { comment, encrypted } = nftPayloadComment(cell);
  const back = bounceBack(node);
  const nodes = [...(withParent && parent ? [parent, ...fillUps] : []), node, ...(back ? [back] : [])];
  const transfer: ActionDraft = {
    type: 'nft_transfer',
    nodes,
    // toncenter never marks this one failed.
    success: true,
    source: oldOwner,
    destination: node.tx.account,
    asset: item.collection,
    assetSecondary: itemAddress,
    details: {
      ...transferDetails(item, itemAddress, {
        ...(oldOwner ? { old_owner: oldOwner } : {}),
        new_owner: node.tx.account,
        is_purchase: purchase,
        ...(purchase ? { price: str(bid) } : {}),
        query_id: a.queryId.toString(),
        response_destination: null,
        custom_payload: null,
        forward_payload: payloadB64(cell),
        forward_amount: null,
        comment,
        is_encrypted_comment: encrypted,
      }),
      ...(purchase ? { marketplace: 'fragment' } : {}),
      payout_amount: str(payout?.tx.inMsg?.value),
      payout_address: payout?.tx.account ?? null,
      royalty_amount: str(royalty?.tx.inMsg?.value),
      royalty_address: royalty?.tx.account ?? null,
    },
  };
  return [transfer];
}

/**
 * At the item's own transaction (visited before its children): the first ownership_assigned it sent that takes this
 * transaction along; the others are matched at their own transactions.
 */
function assignedFromItem(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  if (!tonOrExternal(node) || !ctx.interfaces.get(node.tx.account)?.nftItem) return null;
  for (const child of freeChildrenWithOp(node, NFT_OP.ownershipAssigned, ctx)) {
    const drafts = assignedOf(child, ctx);
    if (drafts?.[0]?.nodes.includes(node)) return drafts;
  }
  return null;
}

export const nftMatcher: Matcher = {
  name: 'nft',
  types: ['nft_mint', 'nft_transfer', 'nft_purchase'],
  match(node, ctx) {
    const op = node.tx.inMsg?.opcode;
    return (
      mintOf(node, ctx) ??
      transferFromListing(node, ctx) ??
      (op === NFT_OP.transfer ? transferOf(node, ctx) : null) ??
      (op === NFT_OP.ownershipAssigned ? assignedOf(node, ctx) : assignedFromItem(node, ctx))
    );
  },
};
