// DeDust v2 swaps (jetton_swap, dex `dedust`), recognised by their message flow as toncenter's classifier does:
// TON sent to the native vault with swap#ea06185d, or a jetton transfer to a jetton vault whose forward payload is
// swap#e3a0d482; the vault sends swap_external#61ee542d to the pool, which logs each swap it made (an external-out
// message swap#9c610de3), hands on to the next pool of a multi-hop route with swap_peer#72aca8aa, and ends with
// payout_from_pool#ad4eb6f5 to the vault of the asset paid: the native vault pays TON with payout#474f86cf, a jetton
// vault sends a jetton transfer. A pool that logged no swap rejected it (limit, deadline): the swap failed and the
// payout is the refund. peer_swaps are the logged swaps when there is more than one.
// toncenter names the asset asked for from its table of DeDust pools; we hold no such table, so asset_out is the last
// logged swap's output, or (a swap that failed before any pool swapped) the asset paid back.
// Liquidity deposits are in dedust-liquidity.ts.
// Message layouts: docs.dedust.io/reference/tlb-schemes.
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { childWithOp, type Leg, legAt, opOf, type PeerSwap, reaches, swapDraft } from './swap.ts';
import { bodyOf } from './util.ts';

export const DEDUST_OP = {
  /** User -> native vault (TON in). */
  swapNative: 0xea06185d,
  /** The forward payload of a jetton transfer to a jetton vault. */
  swapJetton: 0xe3a0d482,
  swapExternal: 0x61ee542d,
  swapPeer: 0x72aca8aa,
  payoutFromPool: 0xad4eb6f5,
  payout: 0x474f86cf,
  /** The pool's log of a swap (external-out). */
  swapEvent: 0x9c610de3,
} as const;

const SWAP_EXTERNAL: ReadonlySet<number> = new Set([DEDUST_OP.swapExternal]);

// native$0000 = Asset; jetton$0001 workchain_id:int8 address:uint256 = Asset; (extra_currency$0010 is refused)
export function loadDedustAsset(s: Slice): string | null {
  const kind = s.loadUint(4);
  if (kind === 0) return null;
  if (kind !== 1) throw new RangeError(`DeDust asset kind ${kind} is not TON or a jetton`);
  const wc = s.loadInt(8);
  return `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

// swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins ^[sender_addr …]
const parseSwapEvent = (c: Cell) =>
  readBody(c, DEDUST_OP.swapEvent, (s) => ({
    assetIn: loadDedustAsset(s),
    assetOut: loadDedustAsset(s),
    amountIn: s.loadCoins(),
    amountOut: s.loadCoins(),
  }));

// swap#ea06185d query_id:uint64 amount:Coins _:SwapStep swap_params:^SwapParams
const parseSwapNative = (c: Cell) =>
  readBody(c, DEDUST_OP.swapNative, (s) => {
    s.skip(64);
    return { amount: s.loadCoins() };
  });

// payout_from_pool#ad4eb6f5 query_id:uint64 proof:^Cell amount:Coins …
const parsePayoutFromPool = (c: Cell) =>
  readBody(c, DEDUST_OP.payoutFromPool, (s) => {
    s.skip(64);
    s.loadRef();
    return { amount: s.loadCoins() };
  });

/** The pool's swap log in `pool`'s outbound messages, when it logged one. */
function swapLog(pool: TraceNode): PeerSwap | null {
  const log = pool.tx.outMsgs.find((m) => m.destination === null && m.opcode === DEDUST_OP.swapEvent && m.body);
  return log?.body ? parseSwapEvent(log.body) : null;
}

interface Incoming {
  nodes: TraceNode[];
  /** The vault's transaction that sent swap_external. */
  vault: TraceNode;
  sender: string | null;
  senderWallet: string | null;
  vaultWallet: string | null;
  asset: string | null;
  amount: bigint;
}

function incoming(start: TraceNode, ctx: MatchContext): Incoming | null {
  const m = start.tx.inMsg;
  if (m?.opcode === DEDUST_OP.swapNative) {
    const b = bodyOf(start) ? parseSwapNative(bodyOf(start)!) : null;
    if (!b) return null;
    return {
      nodes: [start],
      vault: start,
      sender: m.source,
      senderWallet: null,
      vaultWallet: null,
      asset: null,
      amount: b.amount,
    };
  }
  if (m?.opcode !== JETTON_OP.transfer) return null;
  const leg: Leg | null = legAt(start, ctx);
  if (!leg?.notified || opOf(leg.forwardPayload) !== DEDUST_OP.swapJetton) return null;
  return {
    nodes: leg.draft.nodes,
    vault: leg.notified,
    sender: leg.sender,
    senderWallet: leg.senderWallet,
    vaultWallet: leg.receiverWallet,
    asset: leg.asset,
    amount: leg.amount,
  };
}

function dedustSwap(start: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const inc = incoming(start, ctx);
  const first = inc && childWithOp(inc.vault, DEDUST_OP.swapExternal, ctx);
  if (!inc || !first) return null;
  // The pools of the route, then the payout the last one ordered.
  const pools: TraceNode[] = [];
  let pool: TraceNode | undefined = first;
  let payoutFromPool: TraceNode | undefined;
  while (pool && pools.length < 64) {
    pools.push(pool);
    payoutFromPool = childWithOp(pool, DEDUST_OP.payoutFromPool, ctx);
    pool = payoutFromPool ? undefined : childWithOp(pool, DEDUST_OP.swapPeer, ctx);
  }
  const ordered = payoutFromPool && bodyOf(payoutFromPool) ? parsePayoutFromPool(bodyOf(payoutFromPool)!) : null;
  if (!payoutFromPool || !ordered) return null;
  const t = childWithOp(payoutFromPool, JETTON_OP.transfer, ctx);
  const outLeg = t ? legAt(t, ctx) : null;
  const payout = outLeg ? undefined : childWithOp(payoutFromPool, DEDUST_OP.payout, ctx);
  if (!outLeg && !payout) return null;
  const paid = outLeg
    ? {
        nodes: outLeg.draft.nodes,
        asset: outLeg.asset,
        amount: outLeg.amount,
        source: outLeg.sender,
        sourceJettonWallet: outLeg.senderWallet,
        destination: outLeg.receiver,
        destinationJettonWallet: outLeg.receiverWallet,
      }
    : {
        nodes: [payout!],
        asset: null,
        amount: ordered.amount,
        source: payout!.tx.inMsg?.source ?? null,
        sourceJettonWallet: null,
        destination: payout!.tx.account,
        destinationJettonWallet: null,
      };
  const logs = pools.map(swapLog);
  const swaps = logs.filter((l): l is PeerSwap => l !== null);
  // Nothing swapped: the one "swap" is what went in and what came back.
  const steps =
    swaps.length > 0
      ? swaps
      : [{ assetIn: inc.asset, amountIn: inc.amount, assetOut: paid.asset, amountOut: paid.amount }];
  const head = steps[0]!;
  const tail = steps[steps.length - 1]!;
  return [
    swapDraft({
      dex: 'dedust',
      nodes: [...inc.nodes, ...pools, payoutFromPool, ...paid.nodes],
      success: logs.every((l) => l !== null),
      incoming: {
        asset: head.assetIn,
        amount: head.amountIn,
        source: inc.sender,
        sourceJettonWallet: inc.senderWallet,
        destination: inc.vault.tx.account,
        destinationJettonWallet: inc.vaultWallet,
      },
      outgoing: {
        asset: tail.assetOut,
        amount: tail.amountOut,
        source: paid.source,
        sourceJettonWallet: paid.sourceJettonWallet,
        destination: paid.destination,
        destinationJettonWallet: paid.destinationJettonWallet,
      },
      assetIn: inc.asset,
      assetOut: swaps.length > 0 ? tail.assetOut : paid.asset,
      peerSwaps: steps.length > 1 ? steps : [],
    }),
  ];
}

export const dedustMatcher: Matcher = {
  name: 'dedust',
  types: ['jetton_swap'],
  match(node, ctx) {
    const op = node.tx.inMsg?.opcode;
    if (op === DEDUST_OP.swapNative) return dedustSwap(node, ctx);
    // A transfer reaches the pool within three messages (wallet, vault wallet, vault).
    return op === JETTON_OP.transfer && reaches(node, SWAP_EXTERNAL, 3) ? dedustSwap(node, ctx) : null;
  },
};
