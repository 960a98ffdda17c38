// STON.fi swaps (jetton_swap, dex `stonfi` for the v1 router, `stonfi_v2` for v2), recognised by their message flow
// as toncenter's classifier does (opcodes and structure; the DEX contracts are not looked up, the jetton wallets are):
// - v1: a jetton transfer to the router whose notification made the router send swap#25938561 to a pool, which
//   answered pay_to#f93bb43f, on which the router sent the jetton transfer out. Success is the pay_to exit code
//   (swap_ok); a refund (no liquidity, reserve error) is a failed swap that pays the input back. A second pay_to with
//   the referral exit code is the referral payout: not part of the swap (its transfer is an action of its own).
// - v2: the same flow with swap#6664de2a and pay_to#657b54f5 (exit code swap_ok = success), TON coming in through
//   pTON's ton_transfer#01f3835d and going out through a pTON wallet's ton_transfer; hops on the same router (pay_to
//   followed by another swap) and across routers (the transfer out notifies a router that swaps again) are
//   peer_swaps.
// Message layouts: docs.ston.fi (api-reference-v1 / api-reference-v2: router, pool, pTON).
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, loadEitherCell, loadMsgAddress, payloadCell, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { rawAddress } from './replies.ts';
import {
  childrenWithOp,
  childWithOp,
  type Leg,
  legAt,
  opOf,
  type PeerSwap,
  reaches,
  swapDraft,
  tonIfPton,
} from './swap.ts';
import { bodyOf, inBody } from './util.ts';

export const STONFI_OP = {
  swapV1: 0x25938561,
  payToV1: 0xf93bb43f,
  swapV2: 0x6664de2a,
  payToV2: 0x657b54f5,
  /** pTON v2: TON into (or out of) a pTON wallet. */
  tonTransfer: 0x01f3835d,
} as const;

/** pay_to exit codes (v1 router; v2 uses the same swap_ok). */
export const STONFI_EXIT = {
  swapOk: 0xc64370e5,
  swapOkRef: 0x45078540,
  noLiquidity: 0x5ffe1295,
  reserveError: 0x38976e9b,
} as const;
const V1_SENDER_EXITS: ReadonlySet<number> = new Set([
  STONFI_EXIT.swapOk,
  STONFI_EXIT.noLiquidity,
  STONFI_EXIT.reserveError,
]);

const SWAP_OPS: ReadonlySet<number> = new Set([STONFI_OP.swapV1, STONFI_OP.swapV2]);

const addr = (s: Slice) => rawAddress(loadMsgAddress(s));

// swap#25938561 query_id:uint64 from_user:MsgAddress token_wallet:MsgAddress amount:Coins min_out:Coins
//     has_ref:Bool ^[from_real_user:MsgAddress ref_address:MsgAddress] (router -> pool)
const parseSwapV1 = (c: Cell) =>
  readBody(c, STONFI_OP.swapV1, (s) => {
    s.skip(64);
    const fromUser = addr(s);
    const tokenWallet = addr(s);
    const amount = s.loadCoins();
    s.loadCoins();
    s.loadBit();
    const ref = s.loadRef().beginParse();
    return { fromUser, tokenWallet, amount, fromRealUser: addr(ref) };
  });

/** The amount and router wallet a pay_to's coins part pays (the non-zero side, as toncenter picks it). */
function paidOut(s: Slice): {
  amount: bigint;
  wallet: string | null;
  other: { amount: bigint; wallet: string | null };
} {
  const amount0 = s.loadCoins();
  const token0 = addr(s);
  const amount1 = s.loadCoins();
  const token1 = addr(s);
  return amount0 > 0n
    ? { amount: amount0, wallet: token0, other: { amount: amount1, wallet: token1 } }
    : { amount: amount1, wallet: token1, other: { amount: amount0, wallet: token0 } };
}

// pay_to#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
//     ^[amount0_out:Coins token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress] (pool -> router)
const parsePayToV1 = (c: Cell) =>
  readBody(c, STONFI_OP.payToV1, (s) => {
    s.skip(64);
    addr(s);
    const exitCode = s.loadUint(32) >>> 0;
    return { exitCode, ...paidOut(s.loadRef().beginParse()) };
  });

// The v1 swap request a jetton transfer carries: swap#25938561 token_wallet:MsgAddress min_out:Coins
//     to_address:MsgAddress … (token_wallet: the router's wallet of the asset asked for).
const parseV1Request = (c: Cell | null) =>
  c
    ? readBody(c, STONFI_OP.swapV1, (s) => {
        const tokenWallet = addr(s);
        s.loadCoins();
        return { tokenWallet, toAddress: addr(s) };
      })
    : null;

// swap#6664de2a query_id:uint64 from_user:MsgAddress left_amount:Coins right_amount:Coins
//     ^[transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress
//       tx_deadline:uint64 ^[min_out:Coins receiver:MsgAddress fwd_gas:Coins custom_payload:(Maybe ^Cell) …]]
// (router -> pool). token_wallet1: the router's wallet of the other asset.
const parseSwapV2 = (c: Cell) =>
  readBody(c, STONFI_OP.swapV2, (s) => {
    s.skip(64);
    addr(s);
    s.loadCoins();
    s.loadCoins();
    const p = s.loadRef().beginParse();
    p.skip(32);
    const tokenWallet = addr(p);
    addr(p);
    addr(p);
    p.skip(64);
    const body = p.loadRef().beginParse();
    body.loadCoins();
    addr(body);
    body.loadCoins();
    return { tokenWallet, customPayload: body.loadMaybeRef() };
  });

// The swap request a router's notification carries (and a cross-swap custom payload): swap#6664de2a
//     other_token_wallet:MsgAddress refund_address excesses_address tx_deadline:uint64
//     ^[min_out:Coins receiver:MsgAddress fwd_gas:Coins custom_payload:(Maybe ^Cell) …]
const parseV2Request = (c: Cell) =>
  readBody(c, STONFI_OP.swapV2, (s) => {
    const otherWallet = addr(s);
    addr(s);
    addr(s);
    s.skip(64);
    const body = s.loadRef().beginParse();
    body.loadCoins();
    addr(body);
    body.loadCoins();
    return { otherWallet, customPayload: body.loadMaybeRef() };
  });

// pay_to#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress original_caller:MsgAddress
//     exit_code:uint32 custom_payload:(Maybe ^Cell) ^[fwd_ton_amount:Coins amount0_out:Coins
//     token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress] (pool -> router)
const parsePayToV2 = (c: Cell) =>
  readBody(c, STONFI_OP.payToV2, (s) => {
    s.skip(64);
    addr(s);
    addr(s);
    addr(s);
    const exitCode = s.loadUint(32) >>> 0;
    s.loadMaybeRef();
    const info = s.loadRef().beginParse();
    info.loadCoins();
    const a0 = info.loadCoins();
    const t0 = addr(info);
    const a1 = info.loadCoins();
    const t1 = addr(info);
    // v2 names the larger side (toncenter sorts the two by amount).
    return a0 >= a1 ? { exitCode, amount: a0, wallet: t0 } : { exitCode, amount: a1, wallet: t1 };
  });

// ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
//     forward_payload:(Either Cell ^Cell) (pTON v2)
const parseTonTransfer = (c: Cell) =>
  readBody(c, STONFI_OP.tonTransfer, (s) => {
    s.skip(64);
    const tonAmount = s.loadCoins();
    addr(s);
    return { tonAmount, payload: s.remainingBits > 0 ? payloadCell(loadEitherCell(s)) : null };
  });

const jettonOf = (ctx: MatchContext, wallet: string | null) =>
  wallet ? (ctx.interfaces.get(wallet)?.jettonWallet ?? null) : null;

// ---- v1 ----

function v1Swap(leg: Leg, ctx: MatchContext): ActionDraft[] | null {
  const swapNode = leg.notified && childWithOp(leg.notified, STONFI_OP.swapV1, ctx);
  const swap = swapNode && bodyOf(swapNode) ? parseSwapV1(bodyOf(swapNode)!) : null;
  if (!swapNode || !swap) return null;
  const dexIn = jettonOf(ctx, swap.tokenWallet);
  if (!dexIn) return null;
  let out: { amount: bigint; wallet: string | null; leg: Leg } | null = null;
  let success = false;
  const pays: TraceNode[] = [];
  for (const pay of childrenWithOp(swapNode, STONFI_OP.payToV1, ctx)) {
    const p = parsePayToV1(bodyOf(pay)!);
    if (!p || p.exitCode === STONFI_EXIT.swapOkRef) continue; // the referral payout stays an action of its own
    pays.push(pay);
    if (!V1_SENDER_EXITS.has(p.exitCode)) continue;
    success = p.exitCode === STONFI_EXIT.swapOk;
    if (out && out.amount >= p.amount) continue;
    const t = childWithOp(pay, JETTON_OP.transfer, ctx);
    const outLeg = t ? legAt(t, ctx) : null;
    if (!outLeg) return null;
    out = { amount: p.amount, wallet: p.wallet, leg: outLeg };
  }
  if (!out) return null;
  const request = parseV1Request(leg.forwardPayload);
  // The wallet of the asset asked for (the request's), and of the one paid (the pay_to's: the input on a refund).
  const askedWallet = request ? request.tokenWallet : out.wallet;
  const asked = jettonOf(ctx, askedWallet)?.jetton ?? null;
  const paid = jettonOf(ctx, out.wallet)?.jetton ?? null;
  const o = out.leg;
  const destination = o.hasInternalTransfer ? o.receiver : request ? request.toAddress : swap.fromUser;
  const outgoing = {
    asset: paid,
    amount: out.amount,
    source: o.sender,
    sourceJettonWallet: o.senderWallet,
    destination,
    destinationJettonWallet: o.hasInternalTransfer ? o.receiverWallet : null,
  };
  return [
    swapDraft({
      dex: 'stonfi',
      nodes: [...leg.draft.nodes, swapNode, ...pays, ...o.draft.nodes],
      success,
      incoming: {
        asset: dexIn.jetton,
        amount: swap.amount,
        source: swap.fromRealUser,
        sourceJettonWallet: leg.hasInternalTransfer ? leg.senderWallet : null,
        destination: dexIn.owner,
        destinationJettonWallet: swap.tokenWallet,
      },
      outgoing,
      assetIn: dexIn.jetton,
      assetOut: asked ?? paid,
      destinationSecondary: askedWallet ?? outgoing.destinationJettonWallet,
      peerSwaps: [],
    }),
  ];
}

// ---- v2 ----

interface Hop {
  swap: TraceNode;
  pay: TraceNode;
  tokenWallet: string | null;
  customPayload: Cell | null;
  exitCode: number;
  amount: bigint;
  wallet: string | null;
}

/**
 * Where a transfer out reaches the next router: its transfer_notification, directly (a jetton wallet) or through a
 * pTON wallet's ton_transfer#01f3835d to the next router's pTON wallet, which notifies that router (a route through
 * TON across routers). `via` are the nodes in between.
 */
function nextRouter(leg: Leg, ctx: MatchContext): { notified: TraceNode; via: TraceNode[] } | null {
  if (leg.notified) return { notified: leg.notified, via: [] };
  const ton = childWithOp(leg.draft.nodes[0]!, STONFI_OP.tonTransfer, ctx);
  const notified = ton && childWithOp(ton, JETTON_OP.transferNotification, ctx);
  return ton && notified && childWithOp(notified, STONFI_OP.swapV2, ctx) ? { notified, via: [ton, notified] } : null;
}

/** The hops from `swapNode` on: swap, pay_to, then another swap or the transfer out (which may lead to one). */
function walkV2(swapNode: TraceNode, ctx: MatchContext): { hops: Hop[]; legs: Leg[]; via: TraceNode[] } | null {
  const hops: Hop[] = [];
  const legs: Leg[] = [];
  const via: TraceNode[] = [];
  let s: TraceNode | undefined = swapNode;
  while (s) {
    const swap = bodyOf(s) ? parseSwapV2(bodyOf(s)!) : null;
    const pay = childWithOp(s, STONFI_OP.payToV2, ctx);
    const p = pay ? parsePayToV2(bodyOf(pay)!) : null;
    if (!swap || !pay || !p) return null;
    hops.push({ swap: s, pay, tokenWallet: swap.tokenWallet, customPayload: swap.customPayload, ...p });
    const next = childWithOp(pay, STONFI_OP.swapV2, ctx);
    if (next) {
      s = next;
      continue;
    }
    const t = childWithOp(pay, JETTON_OP.transfer, ctx);
    const leg = t ? legAt(t, ctx) : null;
    if (!leg) return null;
    legs.push(leg);
    const router = nextRouter(leg, ctx);
    if (router) via.push(...router.via);
    s = router ? childWithOp(router.notified, STONFI_OP.swapV2, ctx) : undefined;
  }
  return { hops, legs, via };
}

/** The router wallets a v2 swap request names: its own, then each cross-swap's (its custom payloads), in order. */
function requestWallets(first: string | null, customPayload: Cell | null): (string | null)[] {
  const wallets = [first];
  let next = customPayload;
  for (let depth = 0; next && depth < 16; depth++) {
    const r = parseV2Request(next);
    if (!r) break;
    wallets.push(r.otherWallet);
    next = r.customPayload;
  }
  return wallets;
}

/** The router wallet of the last asset a swap request names, following its cross-swap custom payloads. */
const targetWallet = (first: string | null, customPayload: Cell | null): string | null =>
  requestWallets(first, customPayload).at(-1) ?? null;

interface Incoming {
  nodes: TraceNode[];
  notified: TraceNode | undefined;
  asset: string | null;
  amount: bigint;
  source: string | null;
  sourceJettonWallet: string | null;
  destinationJettonWallet: string | null;
  /** The transfer's forward payload (toncenter reads the asked asset from it when the swap failed). */
  request: Cell | null;
}

function incomingV2(start: TraceNode, ctx: MatchContext): Incoming | null {
  if (start.tx.inMsg?.opcode === STONFI_OP.tonTransfer) {
    // TON in: ton_transfer to the router's pTON wallet, which notifies the router.
    const t = bodyOf(start) ? parseTonTransfer(bodyOf(start)!) : null;
    const notified = childWithOp(start, JETTON_OP.transferNotification, ctx);
    if (!t || !notified) return null;
    return {
      nodes: [start, notified],
      notified,
      asset: null,
      amount: t.tonAmount,
      source: start.tx.inMsg.source,
      sourceJettonWallet: null,
      destinationJettonWallet: start.tx.account,
      request: null,
    };
  }
  const leg = legAt(start, ctx);
  if (!leg) return null;
  return {
    nodes: leg.draft.nodes,
    notified: leg.notified,
    asset: tonIfPton(leg.asset),
    amount: leg.amount,
    source: leg.sender,
    sourceJettonWallet: leg.senderWallet,
    destinationJettonWallet: leg.receiverWallet,
    request: leg.forwardPayload,
  };
}

function v2Swap(start: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const inc = incomingV2(start, ctx);
  const swapNode = inc?.notified && childWithOp(inc.notified, STONFI_OP.swapV2, ctx);
  if (!inc || !swapNode) return null;
  const walk = walkV2(swapNode, ctx);
  const last = walk?.legs[walk.legs.length - 1];
  if (!walk || !last) return null;
  const { hops, legs, via } = walk;
  const ok = hops.every((h) => h.exitCode === STONFI_EXIT.swapOk);
  const assetOf = (wallet: string | null) => tonIfPton(jettonOf(ctx, wallet)?.jetton ?? null);
  const router = swapNode.tx.inMsg?.source ?? null;
  const incoming = {
    asset: inc.asset,
    amount: inc.amount,
    source: inc.source,
    sourceJettonWallet: inc.sourceJettonWallet,
    destination: router,
    destinationJettonWallet: inc.destinationJettonWallet,
  };
  // The transfer out: a jetton transfer, or a pTON wallet paying TON out with ton_transfer.
  const ptonOut = childWithOp(last.draft.nodes[0]!, STONFI_OP.tonTransfer, ctx);
  const ptonAmount = ptonOut && bodyOf(ptonOut) ? parseTonTransfer(bodyOf(ptonOut)!)?.tonAmount : undefined;
  const outgoing =
    ptonOut && ptonAmount !== undefined
      ? {
          asset: null,
          amount: ptonAmount,
          source: last.sender,
          sourceJettonWallet: last.senderWallet,
          destination: ptonOut.tx.account,
          destinationJettonWallet: null,
        }
      : {
          asset: tonIfPton(last.asset),
          amount: last.amount,
          source: last.sender,
          sourceJettonWallet: last.senderWallet,
          destination: last.receiver,
          destinationJettonWallet: last.receiverWallet,
        };
  const peerSwaps: PeerSwap[] = [];
  if (hops.length > 1) {
    const [first, ...rest] = hops;
    peerSwaps.push({
      assetIn: incoming.asset,
      amountIn: incoming.amount,
      assetOut: assetOf(first!.wallet),
      amountOut: first!.amount,
    });
    if (first!.exitCode === STONFI_EXIT.swapOk) {
      for (const h of rest) {
        if (h.exitCode !== STONFI_EXIT.swapOk) continue;
        const prev = peerSwaps[peerSwaps.length - 1]!;
        peerSwaps.push({
          assetIn: prev.assetOut,
          amountIn: prev.amountOut,
          assetOut: assetOf(h.wallet),
          amountOut: h.amount,
        });
      }
    }
  }
  let assetOut: string | null = outgoing.asset;
  if (!ok) {
    // A failed swap paid the input back: the asset asked for is the one its request names, when that wallet is known.
    const target = jettonOf(ctx, targetWallet(hops[0]!.tokenWallet, hops[0]!.customPayload));
    const requested = inc.request ? parseV2Request(inc.request) : null;
    const fromRequest = jettonOf(ctx, requested?.otherWallet ?? null);
    if (target) assetOut = tonIfPton(target.jetton);
    else if (fromRequest) assetOut = fromRequest.jetton;
  }
  return [
    swapDraft({
      dex: 'stonfi_v2',
      nodes: [
        ...inc.nodes,
        ...hops.flatMap((h) => [h.swap, h.pay]),
        ...legs.flatMap((l) => l.draft.nodes),
        ...via,
        ...(ptonOut ? [ptonOut] : []),
      ],
      success: ok,
      incoming,
      outgoing,
      assetIn: incoming.asset,
      assetOut,
      peerSwaps,
    }),
  ];
}

/**
 * The router wallets a node's inbound body names that the matcher looks up and the trace may not touch (as toncenter
 * loads them): the wallet asked for in a v1 swap request (a jetton transfer's forward payload), in a v2 request (a
 * notification's forward payload), and those a router's swap#6664de2a names for its cross-swaps.
 */
function walletsNamed(node: TraceNode): (string | null)[] {
  switch (node.tx.inMsg?.opcode) {
    case JETTON_OP.transfer: {
      const t = inBody(node, 'jetton_transfer');
      return [parseV1Request(t ? payloadCell(t.forwardPayload) : null)?.tokenWallet ?? null];
    }
    case JETTON_OP.transferNotification: {
      const n = inBody(node, 'jetton_notify');
      const payload = n ? payloadCell(n.forwardPayload) : null;
      return [payload ? (parseV2Request(payload)?.otherWallet ?? null) : null];
    }
    case STONFI_OP.swapV2: {
      const swap = bodyOf(node) ? parseSwapV2(bodyOf(node)!) : null;
      return swap ? requestWallets(swap.tokenWallet, swap.customPayload) : [];
    }
    default:
      return [];
  }
}

export const stonfiMatcher: Matcher = {
  name: 'stonfi',
  types: ['jetton_swap'],
  match(node, ctx) {
    const op = node.tx.inMsg?.opcode;
    if (op === STONFI_OP.tonTransfer) return v2Swap(node, ctx);
    // A transfer reaches the router's swap within three messages (wallet, router wallet, router).
    if (op !== JETTON_OP.transfer || !reaches(node, SWAP_OPS, 3)) return null;
    const leg = legAt(node, ctx);
    if (!leg) return null;
    const request = opOf(leg.forwardPayload);
    if (request === STONFI_OP.swapV1 || leg.notified?.children.some((c) => c.tx.inMsg?.opcode === STONFI_OP.swapV1)) {
      return v1Swap(leg, ctx);
    }
    return v2Swap(node, ctx);
  },
  addressesFor: (node) => walletsNamed(node).filter((w): w is string => w !== null),
};
