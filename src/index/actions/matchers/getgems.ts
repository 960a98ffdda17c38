// GetGems purchases, as toncenter's classifier reads them (its NftTransferBlockMatcher and
// GetgemsNftPurchaseBlockMatcher): an NFT transfer#5fcc3d14 sent to an item by a GetGems fix-price sale or auction
// (known from getgems_nft_sales / getgems_nft_auctions) is a purchase when
// - the sale got plain TON (a TON transfer: empty body or comment) from the new owner — fix-price, price = full
//   price — or the sender is an auction (whatever woke it: a bid reaching max_bid, a "finish" comment, an external),
//   price = last bid;
// - the listing names this item and a seller other than the new owner.
// The transfer then carries marketplace "getgems", the marketplace address, the price and the seller
// (real_old_owner). The message that woke the listing belongs to the action when it was a TON transfer other than
// the seller's "finish"/"stop" commands, or an external message.
// The transfer becomes an nft_purchase when the seller's payout is found: the first TON transfer to the seller among
// what the action's transactions sent outside it (among the listing's other messages when a "finish"/"stop"
// command woke it); the payout's transaction joins the action.
import type { ActionDraft, GetgemsListing, MatchContext, TraceNode } from '../types.ts';
import { transferOf } from './basic.ts';
import { commentOf, isEmptyBody } from './util.ts';

/** A listing that sold an item: seller and price known. */
interface Sold {
  listing: GetgemsListing & { seller: string };
  /** The message that woke the listing joins the action. */
  takesListing: boolean;
  /** The seller's "finish"/"stop" command woke the listing: its payout is among the listing's messages. */
  finished: boolean;
}

/** What toncenter's TonTransferBlock reads of an inbound message: internal, not bounced, empty or a comment. */
function tonTransferIn(node: TraceNode): { comment: string | null; encrypted: boolean } | null {
  const m = node.tx.inMsg;
  if (!m || m.source === null || m.bounced) return null;
  if (isEmptyBody(m.body)) return { comment: null, encrypted: false };
  const c = commentOf(m.body);
  return c ? { comment: c.text, encrypted: c.encrypted } : null;
}

const FINISH_COMMENTS = new Set(['finish', 'stop']);

/** The GetGems listing that sold the item `item` (its transaction got the transfer) to `newOwner`, if any. */
export function soldBy(item: TraceNode, newOwner: string | null, ctx: MatchContext): Sold | null {
  const listingNode = item.parent;
  if (!listingNode || newOwner === null) return null;
  const info = ctx.interfaces.get(listingNode.tx.account);
  const woke = tonTransferIn(listingNode);
  const sale = woke && listingNode.tx.inMsg?.source === newOwner ? info?.getgemsSale : undefined;
  const listing = sale ?? info?.getgemsAuction;
  if (!listing || listing.nft !== item.tx.account || listing.seller === null || listing.seller === newOwner) {
    return null;
  }
  const finished = woke !== null && woke.comment !== null && FINISH_COMMENTS.has(woke.comment);
  const external = listingNode.tx.inMsg !== null && listingNode.tx.inMsg.source === null;
  return {
    listing: { ...listing, seller: listing.seller },
    takesListing: woke ? !finished : external,
    finished,
  };
}

/** The details a purchase adds to the transfer's. */
export function purchaseDetails(sold: Sold) {
  return {
    is_purchase: true,
    price: sold.listing.price,
    marketplace: 'getgems',
    marketplace_address: sold.listing.marketplace,
    real_old_owner: sold.listing.seller,
  };
}

/** The seller's payout: the first free TON transfer to the seller among `candidates` (in lt order). */
function payoutOf(candidates: TraceNode[], seller: string, ctx: MatchContext) {
  const sorted = [...candidates].sort((a, b) => (a.tx.lt < b.tx.lt ? -1 : a.tx.lt > b.tx.lt ? 1 : 0));
  for (const n of sorted) {
    if (ctx.isClaimed(n) || n.tx.account !== seller) continue;
    const t = tonTransferIn(n);
    if (t) return { node: n, ...t };
  }
  return null;
}

/** The transfer as an nft_purchase when the seller's payout is found, else unchanged. */
export function asPurchase(transfer: ActionDraft, sold: Sold, item: TraceNode, ctx: MatchContext): ActionDraft {
  const inAction = new Set(transfer.nodes);
  const candidates =
    sold.finished && item.parent
      ? item.parent.children.filter((c) => !inAction.has(c))
      : transfer.nodes.flatMap((n) => n.children.filter((c) => !inAction.has(c)));
  const payout = payoutOf(candidates, sold.listing.seller, ctx);
  const payoutTransfer = payout ? transferOf(payout.node) : null;
  if (!payout || !payoutTransfer) return transfer;
  return {
    ...transfer,
    type: 'nft_purchase',
    nodes: [...transfer.nodes, ...payoutTransfer.nodes],
    parts: [transfer, payoutTransfer],
    details: {
      ...transfer.details,
      payout_amount: payout.node.tx.inMsg?.value?.toString() ?? null,
      // toncenter's API names the seller as the payout's receiver of a purchase.
      payout_address: sold.listing.seller,
      payout_comment: payout.comment,
      payout_comment_encrypted: payout.encrypted,
      payout_comment_encoded: payout.comment !== null && payout.encrypted,
      royalty_amount: null,
      royalty_address: null,
    },
  };
}
