// swap.coffee's non-swap operations the way toncenter's classifier reports them, recognised by their message flow
// (layouts as the mainnet traces show them: shared/vectors/actions, family coffee):
// - coffee_create_vault: create_vault#c0ffee06 query_id:uint64 asset:Asset to the factory, which deploys the vault
//   (the receiver of its next message); Asset: native$00, jetton$01 workchain:int8 address:uint256.
// - coffee_mev_protect_hold_funds (TON): hold#6bc79e7e query_id:uint64 with the coins to the MEV-protection contract.
// - coffee_staking_deposit: a jetton transfer to the staking pool whose notification makes the pool ask its NFT
//   collection (0xf9471134) to mint the position item; destination is that collection (toncenter's column), the item
//   and its index (from the index's NFT items) the minted item.
// - coffee_staking_withdraw: withdraw#cb03bfaf from the owner to the position item, on to the collection
//   (query_id, index:uint64, owner:MsgAddress, points:Coins) and the pool, which pays the stake back with a jetton
//   transfer; destination is the item (toncenter's column).
// - coffee_staking_claim_rewards: claim#b30c7310 to the pool, which pays the rewards with a jetton transfer.
// Swaps, pool creation and liquidity of swap.coffee are in coffee-dex.ts.
import type { Slice } from '@ton/core';
import { JETTON_OP, loadMsgAddress, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { withReplies } from './replies.ts';
import { childWithOp, type Leg, legAt, reaches } from './swap.ts';
import { bodyOf, str } from './util.ts';

export const COFFEE_OP = {
  createVault: 0xc0ffee06,
  /** Factory -> the vault it deploys. */
  vaultInit: 0xc0ffee22,
  mevHoldTon: 0x6bc79e7e,
  stakingMint: 0xf9471134,
  stakingWithdraw: 0xcb03bfaf,
  stakingClaim: 0xb30c7310,
} as const;

const free = (n: TraceNode, ctx: MatchContext) => n.children.filter((c) => !ctx.isClaimed(c));

/** Asset: native$00 (null: TON) | jetton$01 workchain:int8 address:uint256 (the master); extra$10 is refused. */
export function loadCoffeeAsset(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 1) throw new RangeError(`coffee asset tag ${tag}`);
  const wc = s.loadInt(8);
  return `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

function createVault(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const m = node.tx.inMsg!;
  const b = bodyOf(node);
  const req = b
    ? readBody(b, COFFEE_OP.createVault, (s) => {
        s.skip(64);
        return { asset: loadCoffeeAsset(s) };
      })
    : null;
  const init = childWithOp(node, COFFEE_OP.vaultInit, ctx);
  if (!req || !init) return null;
  const vault = init.tx.account;
  return {
    type: 'coffee_create_vault',
    // The vault's own first steps (asking the jetton master for its wallet) are part of its creation.
    nodes: [node, init, ...free(init, ctx).flatMap((c) => [c, ...free(c, ctx)])],
    success: !callFailed(node) && !callFailed(init),
    source: m.source,
    destination: vault,
    asset: req.asset,
    value: m.value,
    details: { source: m.source, vault, asset: req.asset, value: str(m.value) },
  };
}

function mevHoldTon(node: TraceNode): ActionDraft | null {
  const m = node.tx.inMsg!;
  const b = bodyOf(node);
  if (!b || readBody(b, COFFEE_OP.mevHoldTon, (s) => s.loadUintBig(64)) === null) return null;
  return {
    type: 'coffee_mev_protect_hold_funds',
    nodes: [node],
    success: !callFailed(node),
    source: m.source,
    sourceSecondary: null,
    destination: node.tx.account,
    destinationSecondary: null,
    asset: null,
    amount: m.value,
    details: {
      source: m.source,
      source_jetton_wallet: null,
      mev_contract: node.tx.account,
      mev_contract_jetton_wallet: null,
      asset: null,
      amount: str(m.value),
    },
  };
}

/** The jetton transfer a pool made from `node` (its wallet's transfer#0f8a7ea5 child). */
function payout(node: TraceNode, ctx: MatchContext): Leg | null {
  const t = childWithOp(node, JETTON_OP.transfer, ctx);
  return t ? legAt(t, ctx) : null;
}

function claimRewards(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const b = bodyOf(node);
  const leg = b && readBody(b, COFFEE_OP.stakingClaim, (s) => s.loadUintBig(64)) !== null ? payout(node, ctx) : null;
  if (!leg) return null;
  return {
    type: 'coffee_staking_claim_rewards',
    nodes: [node, ...leg.draft.nodes],
    success: !callFailed(node) && leg.draft.success,
    source: node.tx.account,
    sourceSecondary: leg.senderWallet,
    destination: leg.receiver,
    destinationSecondary: leg.receiverWallet,
    asset: leg.asset,
    amount: leg.amount,
    details: {
      pool: node.tx.account,
      pool_jetton_wallet: leg.senderWallet,
      recipient: leg.receiver,
      recipient_jetton_wallet: leg.receiverWallet,
      asset: leg.asset,
      amount: leg.amount.toString(),
    },
  };
}

function stakingDeposit(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const leg = legAt(node, ctx);
  const mint = leg?.notified && childWithOp(leg.notified, COFFEE_OP.stakingMint, ctx);
  const item = mint?.children.find(
    (c) => !ctx.isClaimed(c) && c.tx.origStatus !== 'active' && c.tx.endStatus === 'active',
  );
  if (!leg || !mint || !item) return null;
  const index = ctx.interfaces.get(item.tx.account)?.nftItem?.index ?? null;
  const collection = mint.tx.account;
  return {
    type: 'coffee_staking_deposit',
    nodes: [...leg.draft.nodes, ...withReplies(mint, ctx), item],
    success: leg.draft.success && !callFailed(mint),
    source: leg.sender,
    sourceSecondary: leg.senderWallet,
    destination: collection,
    destinationSecondary: leg.receiverWallet,
    asset: leg.asset,
    amount: leg.amount,
    details: {
      source: leg.sender,
      source_jetton_wallet: leg.senderWallet,
      pool: collection,
      pool_jetton_wallet: leg.receiverWallet,
      asset: leg.asset,
      amount: leg.amount.toString(),
      minted_item_address: item.tx.account,
      minted_item_index: index,
    },
  };
}

function stakingWithdraw(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const m = node.tx.inMsg!;
  const collection = childWithOp(node, COFFEE_OP.stakingWithdraw, ctx);
  const pool = collection && childWithOp(collection, COFFEE_OP.stakingWithdraw, ctx);
  const leg = pool ? payout(pool, ctx) : null;
  const b = collection && bodyOf(collection);
  const position = b
    ? readBody(b, COFFEE_OP.stakingWithdraw, (s) => {
        s.skip(64);
        const index = s.loadUintBig(64);
        loadMsgAddress(s);
        return { index, points: s.loadCoins() };
      })
    : null;
  if (!collection || !pool || !leg || !position) return null;
  const item = node.tx.account;
  return {
    type: 'coffee_staking_withdraw',
    nodes: [node, ...withReplies(collection, ctx), ...withReplies(pool, ctx), ...leg.draft.nodes],
    success: !callFailed(node) && leg.draft.success,
    source: m.source,
    sourceSecondary: leg.receiverWallet,
    destination: item,
    destinationSecondary: leg.senderWallet,
    asset: leg.asset,
    amount: leg.amount,
    details: {
      source: m.source,
      source_jetton_wallet: leg.receiverWallet,
      pool: item,
      pool_jetton_wallet: leg.senderWallet,
      asset: leg.asset,
      amount: leg.amount.toString(),
      nft_address: item,
      nft_index: position.index.toString(),
      points: position.points.toString(),
    },
  };
}

const MINT_OPS: ReadonlySet<number> = new Set([COFFEE_OP.stakingMint]);

export const coffeeMatcher: Matcher = {
  name: 'coffee',
  types: [
    'coffee_create_vault',
    'coffee_mev_protect_hold_funds',
    'coffee_staking_deposit',
    'coffee_staking_withdraw',
    'coffee_staking_claim_rewards',
  ],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    let d: ActionDraft | null = null;
    switch (m.opcode) {
      case COFFEE_OP.createVault:
        d = createVault(node, ctx);
        break;
      case COFFEE_OP.mevHoldTon:
        d = mevHoldTon(node);
        break;
      case COFFEE_OP.stakingClaim:
        d = claimRewards(node, ctx);
        break;
      case COFFEE_OP.stakingWithdraw:
        // The owner's request to the item (the item passes it on to the collection).
        d = stakingWithdraw(node, ctx);
        break;
      case JETTON_OP.transfer:
        // A transfer reaches the collection's mint within four messages (pool wallet, pool, collection).
        d = reaches(node, MINT_OPS, 4) ? stakingDeposit(node, ctx) : null;
        break;
    }
    return d ? [d] : null;
  },
};
