// TONCO (concentrated-liquidity DEX, v3 router and pools) the way toncenter's classifier reports it, recognised by its
// message flow (layouts: the TONCO SDK's ContractMessages, as toncenter's message classes read them):
// - jetton_swap (dex `tonco`): a jetton transfer to the router (or TON through the router's wTTON wallet, a pTON that
//   takes ton_transfer#01f3835d) notifies the router, which sends POOLV3_SWAP#a7fb58f8 to the pool; the pool answers
//   ROUTERV3_PAY_TO#a1daa96d, on which the router transfers the output. A multi-hop route is one swap after another:
//   the router transfers the output to itself (a jetton transfer, or its wTTON wallet's ton_transfer back to itself),
//   is notified and swaps again; every hop is a peer swap. Success: every pay_to exit code is 0 or 200 (swap done).
// - dex_deposit_liquidity: the notification's forward payload is POOLV3_FUND_ACCOUNT#4468de77; the router sends
//   POOLV3_FUND_ACCOUNT to the pool, the pool ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 to the user's account contract. Once
//   both assets are there the account sends POOLV3_MINT#81702ef8 to the pool, which mints the position NFT
//   (POSITIONNFTV3_POSITION_INIT#d5ecca2a) and refunds what the position did not take through a pay_to. Each asset's
//   deposit is an action of its own; the one that completed the position names the NFT and the refunds.
// - dex_withdraw_liquidity: POOLV3_START_BURN#530b5f2c to the pool, POSITIONNFTV3_POSITION_BURN#46ca335a to the NFT,
//   POOLV3_BURN#d73ac09d back to the pool, and a pay_to (exit code 201) paying both assets out.
// - tonco_deploy_pool: ROUTERV3_CREATE_POOL#2e3034ef to the router, which sends POOLV3_INIT#441c39ed to the new pool.
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, loadMsgAddress, loadRest, payloadCell, readBody } from '../../../ton/index.ts';
import type { ActionDraft, Details, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { nftMatcher } from './nft.ts';
import { rawAddress, withReplies } from './replies.ts';
import { STONFI_OP } from './stonfi.ts';
import { childrenWithOp, childWithOp, type Leg, legAt, type PeerSwap, reaches, swapDraft, tonIfPton } from './swap.ts';
import { inBody, parseBody, str } from './util.ts';

export const TONCO_OP = {
  poolSwap: 0xa7fb58f8,
  routerPayTo: 0xa1daa96d,
  poolFundAccount: 0x4468de77,
  accountAddLiquidity: 0x3ebe5431,
  poolMintAndRefund: 0x81702ef8,
  positionInit: 0xd5ecca2a,
  poolStartBurn: 0x530b5f2c,
  positionBurn: 0x46ca335a,
  poolBurn: 0xd73ac09d,
  routerCreatePool: 0x2e3034ef,
  poolInit: 0x441c39ed,
} as const;

/** pay_to exit codes that are not failures: 0, swap done (200), liquidity burned (201). */
const PAY_TO_SWAP_OK: ReadonlySet<number> = new Set([0, 200]);
const PAY_TO_BURN_OK: ReadonlySet<number> = new Set([0, 201]);

/** The router's wTTON wallet: a pay_to naming it pays TON (toncenter's constant). */
const ROUTER_WTTON_WALLET = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';

/** What the router's notification can lead to: a swap or a liquidity deposit. */
const ROUTER_OPS: ReadonlySet<number> = new Set([TONCO_OP.poolSwap, TONCO_OP.poolFundAccount]);

const TON_TRANSFER_OP = STONFI_OP.tonTransfer;

const addr = (s: Slice) => rawAddress(loadMsgAddress(s));

// ---- message layouts ----

// ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress forward_payload:(Maybe ^Cell)
// (a payload stored inline with references left is taken whole, as toncenter reads it)
const parseTonTransfer = (c: Cell) =>
  readBody(c, TON_TRANSFER_OP, (s) => {
    s.skip(64);
    const tonAmount = s.loadCoins();
    addr(s);
    const inRef = s.remainingBits > 0 && s.loadBit();
    const payload = inRef ? s.loadRef() : s.remainingRefs > 0 ? loadRest(s) : null;
    return { tonAmount, payload };
  });

// POOLV3_SWAP#a7fb58f8 query_id:uint64 owner_address:MsgAddress source_wallet:MsgAddress
//     ^[amount:Coins sqrt_price_limit_x96:uint160 min_out_amount:Coins] ^[target_address …] (router -> pool)
const parsePoolSwap = (c: Cell) =>
  readBody(c, TONCO_OP.poolSwap, (s) => {
    s.skip(64);
    addr(s);
    return { sourceWallet: addr(s) };
  });

interface PaidAsset {
  amount: bigint | null;
  /** The router's jetton wallet paying it. */
  wallet: string | null;
  receiver: string | null;
}

// ROUTERV3_PAY_TO#a1daa96d query_id:uint64 receiver0:MsgAddress receiver1:MsgAddress exit_code:uint32 seqno:uint64
//     coinsinfo:(Maybe ^[amount0:Coins jetton0_address:MsgAddress amount1:Coins jetton1_address:MsgAddress]) …
const parsePayTo = (c: Cell) =>
  readBody(c, TONCO_OP.routerPayTo, (s) => {
    s.skip(64);
    const receiver0 = addr(s);
    const receiver1 = addr(s);
    const exitCode = s.loadUint(32);
    s.skip(64);
    const coins = s.loadMaybeRef()?.beginParse() ?? null;
    const side = (receiver: string | null): PaidAsset =>
      coins ? { amount: coins.loadCoins(), wallet: addr(coins), receiver } : { amount: null, wallet: null, receiver };
    const asset0 = side(receiver0);
    return { exitCode, assets: [asset0, side(receiver1)] as const };
  });

// The swap request a transfer to the router carries: POOLV3_SWAP#a7fb58f8 target_router_wallet:MsgAddress
//     price_limit_sqrt:uint160 min_out_amount:Coins recipient:MsgAddress next:(Maybe ^Cell), where next is the
//     following hop's request. Its hops that name a router wallet (the asset asked for), in order.
function routeHops(payload: Cell | null): { wallet: string; minOut: bigint }[] {
  const hops: { wallet: string; minOut: bigint }[] = [];
  let next = payload;
  for (let depth = 0; next && depth < 16; depth++) {
    const hop = readBody(next, TONCO_OP.poolSwap, (s) => {
      const wallet = addr(s);
      s.skip(160);
      const minOut = s.loadCoins();
      addr(s);
      return { wallet, minOut, next: s.loadMaybeRef() };
    });
    if (!hop) break;
    if (hop.wallet) hops.push({ wallet: hop.wallet, minOut: hop.minOut });
    next = hop.next;
  }
  return hops;
}

/** The route's last hop: the asset asked for and its minimum. */
const routeTarget = (payload: Cell | null) => routeHops(payload).at(-1) ?? null;

// ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 query_id:uint64 new_amount0:Coins new_amount1:Coins new_enough0:Coins
//     new_enough1:Coins liquidity:uint128 tick_lower:int24 tick_upper:int24 (pool -> account)
const parseAddLiquidity = (c: Cell) =>
  readBody(c, TONCO_OP.accountAddLiquidity, (s) => {
    s.skip(64);
    const newAmount0 = s.loadCoins();
    s.loadCoins();
    const enough0 = s.loadCoins();
    const enough1 = s.loadCoins();
    s.skip(128);
    return { newAmount0, enough0, enough1, tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
  });

// The deposit request a notification carries: POOLV3_FUND_ACCOUNT#4468de77 other_jetton_wallet:MsgAddress
//     amount0:Coins amount1:Coins … (other_jetton_wallet: the router's wallet of the pool's other asset)
const parseFundRequest = (c: Cell) =>
  readBody(c, TONCO_OP.poolFundAccount, (s) => {
    const otherWallet = addr(s);
    return otherWallet ? { otherWallet } : null;
  });

// POSITIONNFTV3_POSITION_INIT#d5ecca2a query_id:uint64 user_address:MsgAddress liquidity:uint128 tick_lower:int24
//     tick_upper:int24 ^[fee_growth_inside_0_last_x128:uint256 fee_growth_inside_1_last_x128:uint256 nft_index:uint64 …]
const parsePositionInit = (c: Cell) =>
  readBody(c, TONCO_OP.positionInit, (s) => {
    s.skip(64);
    addr(s);
    const liquidity = s.loadUintBig(128);
    const fees = s.loadRef().beginParse();
    fees.skip(512);
    return { liquidity, nftIndex: fees.loadUintBig(64) };
  });

// POOLV3_START_BURN#530b5f2c query_id:uint64 burned_index:uint64 liquidity_to_burn:uint128 tick_lower:int24
//     tick_upper:int24 (owner -> pool)
const parseStartBurn = (c: Cell) =>
  readBody(c, TONCO_OP.poolStartBurn, (s) => {
    s.skip(64);
    return {
      burnedIndex: s.loadUintBig(64),
      liquidity: s.loadUintBig(128),
      tickLower: s.loadInt(24),
      tickUpper: s.loadInt(24),
    };
  });

// POSITIONNFTV3_POSITION_BURN#46ca335a query_id:uint64 nft_owner:MsgAddress … (pool -> position NFT)
const parsePositionBurn = (c: Cell) =>
  readBody(c, TONCO_OP.positionBurn, (s) => {
    s.skip(64);
    return { owner: addr(s) };
  });

// POOLV3_BURN#d73ac09d query_id:uint64 recipient:MsgAddress burned_index:uint64 … (position NFT -> pool)
const parsePoolBurn = (c: Cell) =>
  readBody(c, TONCO_OP.poolBurn, (s) => {
    s.skip(64);
    addr(s);
    return { burnedIndex: s.loadUintBig(64) };
  });

// ROUTERV3_CREATE_POOL#2e3034ef query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
//     tick_spacing:int24 initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16
//     nftv3_content:^Cell nftv3item_content:^Cell ^[jetton0_minter:MsgAddress jetton1_minter:MsgAddress …]
const parseCreatePool = (c: Cell) =>
  readBody(c, TONCO_OP.routerCreatePool, (s) => {
    s.skip(64);
    const wallet0 = addr(s);
    const wallet1 = addr(s);
    const tickSpacing = s.loadInt(24);
    const initialPriceX96 = s.loadUintBig(160);
    const protocolFee = s.loadUint(16);
    const lpFeeBase = s.loadUint(16);
    const lpFeeCurrent = s.loadUint(16);
    s.loadRef();
    s.loadRef();
    const minters = s.loadRef().beginParse();
    const minter0 = addr(minters);
    const minter1 = addr(minters);
    return { wallet0, wallet1, tickSpacing, initialPriceX96, protocolFee, lpFeeBase, lpFeeCurrent, minter0, minter1 };
  });

// POOLV3_INIT#441c39ed query_id:uint64 from_admin:Bool has_admin:Bool admin_addr:MsgAddress has_controller:Bool
//     controller_addr:MsgAddress set_spacing:Bool tick_spacing:int24 set_price:Bool initial_price_x96:uint160
//     set_active:Bool pool_active:Bool … (router -> pool)
const parsePoolInit = (c: Cell) =>
  readBody(c, TONCO_OP.poolInit, (s) => {
    s.skip(64 + 2);
    addr(s);
    s.skip(1);
    addr(s);
    s.skip(1 + 24 + 1 + 160 + 1);
    return { poolActive: s.loadBit() };
  });

// ---- assets ----

/** A router wallet's asset as toncenter names it: its jetton, null for wTTON (TON); undefined when unknown. */
function assetOfWallet(ctx: MatchContext, wallet: string | null): string | null | undefined {
  const info = wallet ? ctx.interfaces.get(wallet)?.jettonWallet : undefined;
  return info ? tonIfPton(info.jetton) : undefined;
}

/** The TON a wTTON (pTON) transfer paid out: its wallet's ton_transfer to the receiver. */
function tonPaid(leg: Leg, ctx: MatchContext): { node: TraceNode; amount: bigint } | null {
  const node = childWithOp(leg.draft.nodes[0]!, TON_TRANSFER_OP, ctx);
  const t = parseBody(node, parseTonTransfer);
  return node && t ? { node, amount: t.tonAmount } : null;
}

/** A payout as a deposit's refund and a withdrawal show it: TON when a wTTON wallet paid it, else the jetton. */
function payoutOf(leg: Leg, ctx: MatchContext): { nodes: TraceNode[]; asset: string | null; amount: bigint } {
  const ton = tonPaid(leg, ctx);
  return ton
    ? { nodes: [...leg.draft.nodes, ton.node], asset: null, amount: ton.amount }
    : { nodes: leg.draft.nodes, asset: leg.asset, amount: leg.amount };
}

/** The jetton transfers a pay_to made (the router paying out), in lt order. */
const payoutLegs = (payTo: TraceNode, ctx: MatchContext): Leg[] =>
  childrenWithOp(payTo, JETTON_OP.transfer, ctx).flatMap((t) => legAt(t, ctx) ?? []);

// ---- the input: a jetton transfer to the router, or TON through its wTTON wallet ----

interface Incoming {
  nodes: TraceNode[];
  /** The router's transaction for the transfer_notification. */
  notified: TraceNode;
  asset: string | null;
  amount: bigint;
  source: string | null;
  sourceJettonWallet: string | null;
  destination: string | null;
  destinationJettonWallet: string | null;
  /** A TON input's forward payload (the only one toncenter reads a swap route from). */
  tonPayload: Cell | null;
}

function incomingOf(start: TraceNode, ctx: MatchContext): Incoming | null {
  if (start.tx.inMsg?.opcode === TON_TRANSFER_OP) {
    const t = parseBody(start, parseTonTransfer);
    const notified = childWithOp(start, JETTON_OP.transferNotification, ctx);
    if (!t || !notified) return null;
    return {
      nodes: [start, notified],
      notified,
      asset: null,
      amount: t.tonAmount,
      source: start.tx.inMsg.source,
      sourceJettonWallet: null,
      destination: notified.tx.account,
      destinationJettonWallet: start.tx.account,
      tonPayload: t.payload,
    };
  }
  const leg = legAt(start, ctx);
  if (!leg?.notified) return null;
  return {
    nodes: leg.draft.nodes,
    notified: leg.notified,
    asset: tonIfPton(leg.asset),
    amount: leg.amount,
    source: leg.sender,
    sourceJettonWallet: leg.senderWallet,
    destination: leg.receiver,
    destinationJettonWallet: leg.receiverWallet,
    tonPayload: null,
  };
}

// ---- swaps ----

interface Hop {
  swap: TraceNode;
  payTo: TraceNode;
  sourceWallet: string | null;
  exitCode: number;
  paid: readonly PaidAsset[];
}

interface Route {
  hops: Hop[];
  /** The transfers between hops (router to itself) with their wTTON ton_transfer and notification. */
  via: TraceNode[];
  /** The transfer to the user. */
  out: Leg;
}

/** Where a transfer out of a pay_to leads to the next hop: the router's notification that swapped again. */
function nextHop(leg: Leg, ctx: MatchContext): { swap: TraceNode; via: TraceNode[] } | null {
  const direct = leg.notified && childWithOp(leg.notified, TONCO_OP.poolSwap, ctx);
  if (direct) return { swap: direct, via: [] };
  const ton = childWithOp(leg.draft.nodes[0]!, TON_TRANSFER_OP, ctx);
  const notified = ton && childWithOp(ton, JETTON_OP.transferNotification, ctx);
  const swap = notified && childWithOp(notified, TONCO_OP.poolSwap, ctx);
  return ton && notified && swap ? { swap, via: [ton, notified] } : null;
}

/** The hops from the first swap on: swap, pay_to, then the transfer to the user or to the router's next swap. */
function routeOf(first: TraceNode, ctx: MatchContext): Route | null {
  const hops: Hop[] = [];
  const via: TraceNode[] = [];
  let swap = first;
  for (;;) {
    const payTo = childWithOp(swap, TONCO_OP.routerPayTo, ctx);
    const p = parseBody(payTo, parsePayTo);
    if (!payTo || !p) return null;
    const sourceWallet = parseBody(swap, parsePoolSwap)?.sourceWallet ?? null;
    hops.push({ swap, payTo, sourceWallet, exitCode: p.exitCode, paid: p.assets });
    const t = childWithOp(payTo, JETTON_OP.transfer, ctx);
    const leg = t ? legAt(t, ctx) : null;
    if (!leg) return null;
    const next = nextHop(leg, ctx);
    if (!next) return { hops, via, out: leg };
    via.push(...leg.draft.nodes, ...next.via);
    swap = next.swap;
  }
}

/** The larger side of a pay_to (toncenter's pick of what a hop paid), among the sides naming a wallet. */
function hopOutput(h: Hop): { amount: bigint; wallet: string } | null {
  const sides = h.paid.flatMap((p) => (p.amount !== null && p.wallet ? [{ amount: p.amount, wallet: p.wallet }] : []));
  return sides.reduce<{ amount: bigint; wallet: string } | null>((a, b) => (a && a.amount >= b.amount ? a : b), null);
}

/**
 * The hops of a multi-hop route: the first from the input to what its pool paid, each next one from the previous
 * output (failed hops left out). Assets come from the wallets the route showed (the swaps' source wallets, the
 * transfer out); none when the first hop's output wallet is not among them.
 */
function peerSwaps(route: Route, inc: Incoming, wallets: ReadonlyMap<string, string | null>): PeerSwap[] {
  if (route.hops.length < 2) return [];
  const [first, ...rest] = route.hops;
  const out = hopOutput(first!);
  if (!out || !wallets.has(out.wallet)) return [];
  const swaps: PeerSwap[] = [
    { assetIn: inc.asset, amountIn: inc.amount, assetOut: wallets.get(out.wallet) ?? null, amountOut: out.amount },
  ];
  for (const h of rest) {
    const o = PAY_TO_SWAP_OK.has(h.exitCode) ? hopOutput(h) : null;
    if (!o) continue;
    const prev = swaps[swaps.length - 1]!;
    swaps.push({
      assetIn: prev.assetOut,
      amountIn: prev.amountOut,
      assetOut: wallets.get(o.wallet) ?? null,
      amountOut: o.amount,
    });
  }
  return swaps;
}

function swapOf(inc: Incoming, first: TraceNode, ctx: MatchContext): ActionDraft | null {
  const route = routeOf(first, ctx);
  if (!route) return null;
  const success = route.hops.every((h) => PAY_TO_SWAP_OK.has(h.exitCode));
  const o = route.out;
  const outgoing = {
    asset: tonIfPton(o.asset),
    amount: o.amount,
    source: o.sender,
    sourceJettonWallet: o.senderWallet,
    destination: o.receiver,
    destinationJettonWallet: o.receiverWallet,
  };
  // The router wallets whose asset the route showed.
  const wallets = new Map<string, string | null>();
  for (const h of route.hops) {
    const asset = assetOfWallet(ctx, h.sourceWallet);
    if (h.sourceWallet && asset !== undefined && !wallets.has(h.sourceWallet)) wallets.set(h.sourceWallet, asset);
  }
  for (const w of [o.receiverWallet, o.senderWallet]) if (w) wallets.set(w, outgoing.asset);
  let assetOut = outgoing.asset;
  let minOut = outgoing.amount;
  const target = success ? null : routeTarget(inc.tonPayload);
  const asked = target ? (wallets.get(target.wallet) ?? assetOfWallet(ctx, target.wallet)) : undefined;
  if (target && asked !== undefined) {
    // A failed swap paid the input back: the asset asked for is the route's last, with its minimum.
    assetOut = asked;
    minOut = target.minOut;
  }
  const ton = tonPaid(o, ctx);
  return swapDraft({
    dex: 'tonco',
    nodes: [
      ...inc.nodes,
      ...route.hops.flatMap((h) => [...withReplies(h.swap, ctx), ...withReplies(h.payTo, ctx)]),
      ...route.via,
      ...o.draft.nodes,
      ...(ton ? [ton.node] : []),
    ],
    success,
    incoming: inc,
    outgoing,
    assetIn: inc.asset,
    assetOut,
    peerSwaps: peerSwaps(route, inc, wallets),
    minOutAmount: minOut,
  });
}

// ---- liquidity deposits ----

type Excess = { asset: string | null; amount: string };

/** The position the deposit completed (the NFT minted) and the refunds of what it did not take. */
function completion(add: TraceNode, ctx: MatchContext) {
  const mint = childWithOp(add, TONCO_OP.poolMintAndRefund, ctx);
  if (!mint) return null;
  const init = childWithOp(mint, TONCO_OP.positionInit, ctx);
  const nft = init ? nftMatcher.match(init, ctx)?.[0] : undefined;
  const position = nft?.type === 'nft_mint' ? parseBody(init, parsePositionInit) : null;
  const refund = childWithOp(mint, TONCO_OP.routerPayTo, ctx);
  const refunds = refund ? payoutLegs(refund, ctx).slice(0, 2) : [];
  const paid = refunds.map((l) => payoutOf(l, ctx));
  return {
    nodes: [
      ...withReplies(mint, ctx),
      ...(position && nft ? nft.nodes : []),
      ...(refund ? withReplies(refund, ctx) : []),
      ...paid.flatMap((p) => p.nodes),
    ],
    position: position && init ? { ...position, nft: init.tx.account } : null,
    excesses: paid.map((p): Excess => ({ asset: p.asset, amount: p.amount.toString() })),
  };
}

function depositOf(inc: Incoming, fund: TraceNode, ctx: MatchContext): ActionDraft | null {
  const add = childWithOp(fund, TONCO_OP.accountAddLiquidity, ctx);
  const liquidity = parseBody(add, parseAddLiquidity);
  const notify = inBody(inc.notified, 'jetton_notify');
  const payload = notify ? payloadCell(notify.forwardPayload) : null;
  const request = payload ? parseFundRequest(payload) : null;
  const pool = add?.tx.inMsg?.source ?? null;
  if (!add || !liquidity || !notify || !request) return null;
  // The asset sent: the notifying router wallet's (TON when unknown, as toncenter takes it); the other: the request's.
  const sent = assetOfWallet(ctx, inc.notified.tx.inMsg?.source ?? null) ?? null;
  const other = assetOfWallet(ctx, request.otherWallet) ?? null;
  const amount = notify.amount.toString();
  // toncenter orders the assets by whether the account now holds some of the pool's first asset: then the wallet
  // sent from is the first user wallet and the request's asset the second target, else the other way round.
  const first = liquidity.newAmount0 > 0n;
  const done = completion(add, ctx);
  const position = done?.position ?? null;
  const details: Details = {
    dex: 'tonco',
    // The amount deposited comes first, whichever side of the pool it funds.
    amount_1: amount,
    amount_2: null,
    asset_1: sent,
    asset_2: null,
    user_jetton_wallet_1: first ? inc.sourceJettonWallet : null,
    user_jetton_wallet_2: first ? null : inc.sourceJettonWallet,
    source: rawAddress(notify.sender),
    pool,
    destination_liquidity: pool,
    lp_tokens_minted: str(position?.liquidity),
    target_asset_1: first ? sent : other,
    target_asset_2: first ? other : sent,
    target_amount_1: liquidity.enough0.toString(),
    target_amount_2: liquidity.enough1.toString(),
    vault_excesses: done?.excesses ?? [],
    tick_lower: liquidity.tickLower.toString(),
    tick_upper: liquidity.tickUpper.toString(),
    nft_index: str(position?.nftIndex),
    nft_address: position?.nft ?? null,
  };
  return {
    type: 'dex_deposit_liquidity',
    nodes: [...inc.nodes, ...withReplies(fund, ctx), ...withReplies(add, ctx), ...(done?.nodes ?? [])],
    success: !callFailed(fund) && !callFailed(add),
    source: rawAddress(notify.sender),
    sourceSecondary: inc.sourceJettonWallet,
    destination: pool,
    destinationSecondary: add.tx.account,
    details,
  };
}

// ---- liquidity withdrawals ----

interface Payout {
  amount: bigint;
  asset: string | null;
  /** Who paid it as toncenter names it: the router for a transfer made, the pool (the pay_to's sender) for a side
   * not paid. */
  dexWallet: string | null;
  /** The router's jetton wallet that paid it, and the user's that received it. */
  dexJettonWallet: string | null;
  userWallet: string | null;
}

/** The pay_to's wallet of a side as toncenter compares it: the router's wTTON wallet counts as none (TON). */
const sideWallet = (p: PaidAsset) => (p.wallet === ROUTER_WTTON_WALLET ? null : p.wallet);

/**
 * What the withdrawal paid, in the pool's order of assets (the pay_to's sides): each transfer the router made, or,
 * for a side it did not pay (nothing to pay), what the pay_to names.
 */
function withdrawPayouts(payTo: TraceNode, sides: readonly PaidAsset[], ctx: MatchContext) {
  const legs = payoutLegs(payTo, ctx).slice(0, 2);
  const nodes: TraceNode[] = [];
  const payouts = sides.map((side, i): Payout => {
    const leg = legs[i];
    if (leg) {
      const p = payoutOf(leg, ctx);
      nodes.push(...p.nodes);
      return {
        amount: p.amount,
        asset: p.asset,
        dexWallet: leg.sender,
        dexJettonWallet: leg.senderWallet,
        userWallet: leg.receiverWallet,
      };
    }
    const wallet = sideWallet(side);
    return {
      amount: side.amount ?? 0n,
      asset: assetOfWallet(ctx, wallet) ?? null,
      dexWallet: payTo.tx.inMsg?.source ?? null,
      dexJettonWallet: wallet,
      userWallet: side.receiver,
    };
  });
  if (payouts[0]!.dexJettonWallet !== sideWallet(sides[0]!)) payouts.reverse();
  return { nodes, payouts };
}

function withdrawOf(start: TraceNode, ctx: MatchContext): ActionDraft | null {
  const burn = parseBody(start, parseStartBurn);
  const nftBurn = childWithOp(start, TONCO_OP.positionBurn, ctx);
  const owner = parseBody(nftBurn, parsePositionBurn);
  const poolBurn = nftBurn && childWithOp(nftBurn, TONCO_OP.poolBurn, ctx);
  const payTo = poolBurn && childWithOp(poolBurn, TONCO_OP.routerPayTo, ctx);
  const pay = parseBody(payTo, parsePayTo);
  if (!burn || !nftBurn || !owner || !poolBurn || !payTo || !pay) return null;
  const index = parseBody(poolBurn, parsePoolBurn)?.burnedIndex || burn.burnedIndex;
  const pool = start.tx.account;
  const { nodes, payouts } = withdrawPayouts(payTo, pay.assets, ctx);
  const [p1, p2] = payouts as [Payout, Payout];
  return {
    type: 'dex_withdraw_liquidity',
    nodes: [start, nftBurn, poolBurn, payTo].flatMap((n) => withReplies(n, ctx)).concat(nodes),
    success: PAY_TO_BURN_OK.has(pay.exitCode),
    source: owner.owner,
    sourceSecondary: null,
    destination: pool,
    asset: null,
    details: {
      dex: 'tonco',
      amount_1: p1.amount.toString(),
      amount_2: p2.amount.toString(),
      asset_1: p1.asset,
      asset_2: p2.asset,
      user_jetton_wallet_1: p1.userWallet,
      user_jetton_wallet_2: p2.userWallet,
      lp_tokens_burnt: burn.liquidity.toString(),
      is_refund: null,
      source: owner.owner,
      pool,
      destination_liquidity: pool,
      burnt_nft_index: index.toString(),
      burnt_nft_address: nftBurn.tx.account,
      tick_lower: burn.tickLower.toString(),
      tick_upper: burn.tickUpper.toString(),
      // The classifier's, not the API's (classifier-names.ts: hidden): who paid each side and the router's wallets.
      dex_wallet_1: p1.dexWallet,
      dex_wallet_2: p2.dexWallet,
      dex_jetton_wallet_1: p1.asset === null ? null : p1.dexJettonWallet,
      dex_jetton_wallet_2: p2.asset === null ? null : p2.dexJettonWallet,
    },
  };
}

// ---- pool deployment ----

function deployOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const create = parseBody(node, parseCreatePool);
  const initNode = childWithOp(node, TONCO_OP.poolInit, ctx);
  const init = parseBody(initNode, parsePoolInit);
  if (!create || !initNode || !init) return null;
  const source = node.tx.inMsg?.source ?? null;
  const router = node.tx.account;
  const pool = initNode.tx.account;
  return {
    type: 'tonco_deploy_pool',
    nodes: [...withReplies(node, ctx), ...withReplies(initNode, ctx)],
    // toncenter reports a deployment whose pool got its init message as done.
    success: true,
    source,
    destination: router,
    destinationSecondary: pool,
    details: {
      source,
      pool,
      router,
      router_jetton_wallet_1: create.wallet0,
      router_jetton_wallet_2: create.wallet1,
      jetton_minter_1: create.minter0,
      jetton_minter_2: create.minter1,
      tick_spacing: create.tickSpacing.toString(),
      initial_price_x96: create.initialPriceX96.toString(),
      protocol_fee: create.protocolFee.toString(),
      lp_fee_base: create.lpFeeBase.toString(),
      lp_fee_current: create.lpFeeCurrent.toString(),
      pool_active: init.poolActive,
    },
  };
}

// ---- the matcher ----

/** A swap or a deposit starting with a transfer to the router. */
function fromTransfer(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  // transfer -> internal_transfer -> notification -> swap/fund; TON: ton_transfer -> notification -> swap/fund.
  if (!reaches(node, ROUTER_OPS, 3)) return null;
  const inc = incomingOf(node, ctx);
  if (!inc) return null;
  const swap = childWithOp(inc.notified, TONCO_OP.poolSwap, ctx);
  if (swap) return swapOf(inc, swap, ctx);
  const fund = childWithOp(inc.notified, TONCO_OP.poolFundAccount, ctx);
  return fund ? depositOf(inc, fund, ctx) : null;
}

function matchAt(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  switch (node.tx.inMsg?.opcode) {
    case JETTON_OP.transfer:
    case TON_TRANSFER_OP:
      return fromTransfer(node, ctx);
    case TONCO_OP.poolStartBurn:
      return withdrawOf(node, ctx);
    case TONCO_OP.routerCreatePool:
      return deployOf(node, ctx);
    default:
      return null;
  }
}

/**
 * The router wallets a node's inbound body names that the matcher looks up and the trace may not touch (as toncenter
 * loads them): a swap request's target wallets and a deposit request's other wallet (in the notification's forward
 * payload, or a TON input's payload), and both wallets of a pay_to.
 */
function walletsNamed(node: TraceNode): (string | null)[] {
  switch (node.tx.inMsg?.opcode) {
    case JETTON_OP.transferNotification: {
      const n = inBody(node, 'jetton_notify');
      const payload = n ? payloadCell(n.forwardPayload) : null;
      if (!payload) return [];
      return [...routeHops(payload).map((h) => h.wallet), parseFundRequest(payload)?.otherWallet ?? null];
    }
    case TON_TRANSFER_OP:
      return routeHops(parseBody(node, parseTonTransfer)?.payload ?? null).map((h) => h.wallet);
    case TONCO_OP.routerPayTo:
      return parseBody(node, parsePayTo)?.assets.map((a) => a.wallet) ?? [];
    default:
      return [];
  }
}

export const toncoMatcher: Matcher = {
  name: 'tonco',
  types: ['jetton_swap', 'dex_deposit_liquidity', 'dex_withdraw_liquidity', 'tonco_deploy_pool'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    const d = matchAt(node, ctx);
    return d ? [d] : null;
  },
  addressesFor: (node) => walletsNamed(node).filter((w): w is string => w !== null),
};
