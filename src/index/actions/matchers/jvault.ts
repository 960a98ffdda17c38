// JVault staking (jvault.xyz staking v2) the way toncenter's classifier builds its actions. A staking pool (an NFT item
// of JVault's pool collection) holds the staked jettons in its lock wallet; each staker has a stake wallet (a jetton
// wallet of the pool's stake jetton, owned by the staker). As in toncenter, the protocol is recognised by its message
// chain alone:
// - jvault_stake: a jetton transfer to the pool whose forward payload is (op:uint32 period:uint32); the pool sends
//   receive_jettons#d68a4ac1 to the stake wallet, which asks the pool to update its rewards
//   (request_update_rewards#f5c5baa3, answered with update_rewards#ae9307ce, on the way updating referrers:
//   request_update_referrer#55c35b40 .. update_referrer#076ee4e0) or cancels the stake (#9eada1d9, the pool sending
//   the jettons back). The pool may also set a referrer's data (set_data#383411ea). Failed when receive_jettons or the
//   rewards request failed, or the stake was cancelled.
// - jvault_unstake: unstake_jettons#499a9262 query_id:uint64 jettons_to_unstake:Coins to the stake wallet, which asks
//   the pool to update rewards; the pool pays out with a jetton transfer (and may take a fee in TON). toncenter never
//   marks it failed: an unstake the pool did not pay out is the stake wallet's transaction alone, with its exit code
//   (the opcode column, details `exit_code`).
// - jvault_unstake_request: unstake_request#0168d4b7 query_id:uint64 jettons_to_unstake:Coins, the same rewards round
//   trip without a payout; failed when the request or the pool's transaction failed. A request the pool never got
//   is the stake wallet's transaction alone, failed, with its exit code.
// - jvault_claim: claim_rewards#78d9f109 query_id:uint64 jettons_to_claim:(HashmapE 267 Bit) to the stake wallet, which
//   sends send_claimed_rewards#44bc1fe3 to the pool; the pool pays with a jetton transfer and updates the stake
//   wallet. claimed_rewards pairs the claimed jetton (the dictionary's first key) with the payout's amount; toncenter
//   never marks it failed.
// What toncenter reads from the accounts' data (ContractInfo.jvaultStakeWallet, which interfaces.ts loads for the
// receivers of unstake_jettons and unstake_request): the pool a stake wallet belongs to, its stake jetton, and the
// jetton the pool locks (its lock wallet's jetton: an unstake request's `asset`, and a failed unstake's). An unstake
// the pool never answered makes no action without that data (toncenter makes none either).
import { type Address, type Cell, Dictionary, type DictionaryValue } from '@ton/core';
import { JETTON_OP, loadMsgAddress, readBody, readCell } from '../../../ton/index.ts';
import type { AccountDataRequest, ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { rawAddress, withReplies } from './replies.ts';
import { childrenWithOp, childWithOp, type Leg, legAt, reaches } from './swap.ts';
import { commentOf, inBody, isEmptyBody } from './util.ts';

export const JVAULT_OP = {
  /** Pool -> stake wallet: the jettons a stake brought. */
  receiveJettons: 0xd68a4ac1,
  /** Stake wallet -> pool. */
  requestUpdateRewards: 0xf5c5baa3,
  /** Pool -> stake wallet. */
  updateRewards: 0xae9307ce,
  requestUpdateReferrer: 0x55c35b40,
  updateReferrer: 0x076ee4e0,
  /** Pool -> a referrer's wallet. */
  setData: 0x383411ea,
  /** Stake wallet -> pool: the stake is refused, the jettons go back. */
  cancelStake: 0x9eada1d9,
  unstakeJettons: 0x499a9262,
  unstakeRequest: 0x0168d4b7,
  claimRewards: 0x78d9f109,
  /** Stake wallet -> pool. */
  sendClaimedRewards: 0x44bc1fe3,
} as const;

// ---- account data (read by interfaces.ts into ContractInfo.jvaultStakeWallet) ----

/** A stake wallet's data starts with pool_address:MsgAddress minter_address:MsgAddress (the stake jetton). */
export const readStakeWalletData = (data: Cell): { pool: string; stakeJetton: string | null } | null =>
  readCell(data, (s) => {
    const pool = rawAddress(loadMsgAddress(s));
    return pool ? { pool, stakeJetton: rawAddress(loadMsgAddress(s)) } : null;
  });

/** A pool's data: 1 + 32 bits, then admin_address, creator_address and lock_wallet_address (MsgAddress each). */
export const readPoolLockWallet = (data: Cell): string | null =>
  readCell(data, (s) => {
    s.skip(1 + 32);
    loadMsgAddress(s);
    loadMsgAddress(s);
    return rawAddress(loadMsgAddress(s));
  });

/** The dictionary's values are single bits (or nothing): only its keys matter. */
const IGNORED_VALUE: DictionaryValue<true> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: () => true,
};

/** update_rewards#ae9307ce from the pool back to the stake wallet (every flow requires it). */
const updateRewards = (pool: TraceNode, ctx: MatchContext) => childWithOp(pool, JVAULT_OP.updateRewards, ctx);

/** The referrer updates the pool started: request_update_referrer hops down to an update_referrer. */
function referralChain(node: TraceNode, ctx: MatchContext): TraceNode[] {
  const out: TraceNode[] = [];
  let step = childWithOp(node, JVAULT_OP.requestUpdateReferrer, ctx);
  while (step) {
    out.push(...withReplies(step, ctx));
    if (step.tx.inMsg?.opcode === JVAULT_OP.updateReferrer) break;
    step = childWithOp(step, JVAULT_OP.updateReferrer, ctx) ?? childWithOp(step, JVAULT_OP.requestUpdateReferrer, ctx);
  }
  return out;
}

/** A plain TON transfer (empty body or a comment) the pool sent: the unstake fee. */
function tonTransferChild(node: TraceNode, ctx: MatchContext): TraceNode | undefined {
  return node.children.find((c) => {
    const m = c.tx.inMsg;
    return !ctx.isClaimed(c) && m?.source && !m.bounced && (isEmptyBody(m.body) || commentOf(m.body) !== null);
  });
}

/** The jetton transfer the pool made (its transfer#0f8a7ea5 to its own wallet) as the jetton matcher sees it, and
 * the amount the transfer message asked for (what toncenter reports). */
function payoutOf(pool: TraceNode, ctx: MatchContext): { leg: Leg; asked: bigint } | null {
  for (const t of childrenWithOp(pool, JETTON_OP.transfer, ctx)) {
    const leg = legAt(t, ctx);
    const body = inBody(t, 'jetton_transfer');
    if (leg && body) return { leg, asked: body.amount };
  }
  return null;
}

/** The stake jetton of a stake wallet: the minter its data names, else the jetton it is a wallet of. */
function stakingAssetOf(stakeWallet: string, ctx: MatchContext): string | null {
  const info = ctx.interfaces.get(stakeWallet);
  return info?.jvaultStakeWallet?.stakeJetton ?? info?.jettonWallet?.jetton ?? null;
}

// ---- stake ----

/** The stake's forward payload: op:uint32 period:uint32. */
const stakePeriod = (leg: Leg) =>
  leg.forwardPayload
    ? readCell(leg.forwardPayload, (s) => {
        s.skip(32);
        return s.loadUint(32);
      })
    : null;

/** The pool's answer to receive_jettons: a rewards update (with its update_rewards) or a cancellation. */
function stakeOutcome(receive: TraceNode, ctx: MatchContext) {
  const request = childWithOp(receive, JVAULT_OP.requestUpdateRewards, ctx);
  const update = request && updateRewards(request, ctx);
  if (request && update) {
    const nodes = [...withReplies(request, ctx), ...referralChain(request, ctx), ...withReplies(update, ctx)];
    return { failed: callFailed(request), nodes };
  }
  const cancel = childWithOp(receive, JVAULT_OP.cancelStake, ctx);
  if (!cancel) return null;
  const back = childWithOp(cancel, JETTON_OP.transfer, ctx);
  const refund = back ? legAt(back, ctx) : null;
  return { failed: true, nodes: [...withReplies(cancel, ctx), ...(refund?.draft.nodes ?? [])] };
}

function stakeOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const leg = legAt(node, ctx);
  const t = inBody(node, 'jetton_transfer');
  // The pool's transaction for the transfer_notification sends receive_jettons (and set_data, if any).
  const notified = leg?.notified;
  const receive = notified && childWithOp(notified, JVAULT_OP.receiveJettons, ctx);
  const outcome = receive ? stakeOutcome(receive, ctx) : null;
  const period = leg ? stakePeriod(leg) : null;
  if (!leg || !t || !notified || !receive || !outcome || period === null) return null;
  const setData = childWithOp(notified, JVAULT_OP.setData, ctx);
  const stakeWallet = receive.tx.account;
  const pool = receive.tx.inMsg?.source ?? null;
  return {
    type: 'jvault_stake',
    nodes: [
      ...leg.draft.nodes,
      ...withReplies(receive, ctx),
      ...outcome.nodes,
      ...(setData ? withReplies(setData, ctx) : []),
    ],
    success: !callFailed(receive) && !outcome.failed,
    source: leg.sender,
    sourceSecondary: leg.senderWallet,
    destination: pool,
    asset: leg.asset,
    amount: t.amount,
    details: {
      period,
      minted_stake_jettons: null,
      stake_wallet: stakeWallet,
      source: leg.sender,
      source_jetton_wallet: leg.senderWallet,
      asset: leg.asset,
      pool,
      amount: t.amount.toString(),
    },
  };
}

// ---- unstake, unstake request ----

/** unstake_jettons / unstake_request: query_id:uint64 jettons_to_unstake:Coins. */
const unstakeAmount = (node: TraceNode, op: number) => {
  const body = node.tx.inMsg?.body;
  return body
    ? readBody(body, op, (s) => {
        s.skip(64);
        return s.loadCoins();
      })
    : null;
};

interface Unstake {
  type: 'jvault_unstake' | 'jvault_unstake_request';
  node: TraceNode;
  amount: bigint;
  pool: string;
  asset: string | null;
  nodes: TraceNode[];
  success: boolean;
  /** The stake wallet's exit code, when the pool never answered. */
  exitCode: number | null;
}

function unstakeDraft(u: Unstake, ctx: MatchContext): ActionDraft {
  const source = u.node.tx.inMsg?.source ?? null;
  const stakeWallet = u.node.tx.account;
  const stakingAsset = stakingAssetOf(stakeWallet, ctx);
  return {
    type: u.type,
    nodes: [u.node, ...u.nodes],
    success: u.success,
    source,
    sourceSecondary: stakeWallet,
    destination: u.pool,
    asset: u.asset,
    asset2: stakingAsset,
    amount: u.amount,
    opcode: u.exitCode,
    details: {
      source,
      stake_wallet: stakeWallet,
      pool: u.pool,
      amount: u.amount.toString(),
      exit_code: u.exitCode,
      asset: u.asset,
      staking_asset: stakingAsset,
    },
  };
}

/**
 * An unstake (or request) the pool did not answer: the stake wallet's transaction alone, its pool and the locked
 * jetton from the accounts' data (no action when that is not known), and its exit code.
 */
function unanswered(type: Unstake['type'], node: TraceNode, amount: bigint, ctx: MatchContext): ActionDraft | null {
  const info = ctx.interfaces.get(node.tx.account)?.jvaultStakeWallet;
  if (!info?.lockedJetton) return null;
  return unstakeDraft(
    {
      type,
      node,
      amount,
      pool: info.pool,
      asset: info.lockedJetton,
      nodes: [],
      // toncenter marks a request failed, never an unstake.
      success: type === 'jvault_unstake',
      exitCode: node.tx.computeExitCode,
    },
    ctx,
  );
}

function unstakeOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const amount = unstakeAmount(node, JVAULT_OP.unstakeJettons);
  if (amount === null) return null;
  const request = childWithOp(node, JVAULT_OP.requestUpdateRewards, ctx);
  const payout = request ? payoutOf(request, ctx) : null;
  const update = request && updateRewards(request, ctx);
  if (!request || !payout || !update) return unanswered('jvault_unstake', node, amount, ctx);
  const fee = tonTransferChild(request, ctx);
  const nodes = [
    ...withReplies(request, ctx),
    ...referralChain(request, ctx),
    ...(fee ? [fee] : []),
    ...payout.leg.draft.nodes,
    ...withReplies(update, ctx),
  ];
  const pool = request.tx.account;
  return unstakeDraft(
    { type: 'jvault_unstake', node, amount, pool, asset: payout.leg.asset, nodes, success: true, exitCode: null },
    ctx,
  );
}

function unstakeRequestOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const amount = unstakeAmount(node, JVAULT_OP.unstakeRequest);
  if (amount === null) return null;
  const request = childWithOp(node, JVAULT_OP.requestUpdateRewards, ctx);
  const update = request && updateRewards(request, ctx);
  if (!request || !update) return unanswered('jvault_unstake_request', node, amount, ctx);
  const nodes = [...withReplies(request, ctx), ...referralChain(request, ctx), ...withReplies(update, ctx)];
  const success = !callFailed(node) && !callFailed(request);
  // The jetton the pool locks, from the accounts' data (null when not known).
  const asset = ctx.interfaces.get(node.tx.account)?.jvaultStakeWallet?.lockedJetton ?? null;
  const pool = request.tx.account;
  return unstakeDraft(
    { type: 'jvault_unstake_request', node, amount, pool, asset, nodes, success, exitCode: null },
    ctx,
  );
}

// ---- claim ----

/** claim_rewards: query_id:uint64 jettons_to_claim:(HashmapE 267 Bit), the dictionary's keys in key order. */
const claimedJettons = (node: TraceNode): Address[] | null => {
  const body = node.tx.inMsg?.body;
  return body
    ? readBody(body, JVAULT_OP.claimRewards, (s) => {
        s.skip(64);
        return [...s.loadDict(Dictionary.Keys.Address(), IGNORED_VALUE).keys()];
      })
    : null;
};

function claimOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const jettons = claimedJettons(node);
  const send = childWithOp(node, JVAULT_OP.sendClaimedRewards, ctx);
  const payout = send ? payoutOf(send, ctx) : null;
  const update = send && updateRewards(send, ctx);
  if (!jettons || !send || !payout || !update) return null;
  const source = node.tx.inMsg?.source ?? null;
  const pool = send.tx.account;
  // toncenter pairs the claimed jettons with the payouts by position, and it counts one payout; the API shows no pairs
  // when the two lists differ in length.
  const claimed = jettons.length === 1 ? [{ jetton: rawAddress(jettons[0]), amount: payout.asked.toString() }] : [];
  return {
    type: 'jvault_claim',
    nodes: [node, ...withReplies(send, ctx), ...payout.leg.draft.nodes, ...withReplies(update, ctx)],
    success: true,
    source,
    sourceSecondary: node.tx.account,
    destination: pool,
    details: { claimed_rewards: claimed, source, stake_wallet: node.tx.account, pool },
  };
}

const RECEIVE_OPS: ReadonlySet<number> = new Set([JVAULT_OP.receiveJettons]);
const UNSTAKE_OPS: ReadonlySet<number> = new Set([JVAULT_OP.unstakeJettons, JVAULT_OP.unstakeRequest]);

export const jvaultMatcher: Matcher = {
  name: 'jvault',
  types: ['jvault_stake', 'jvault_unstake', 'jvault_unstake_request', 'jvault_claim'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    let d: ActionDraft | null = null;
    switch (m.opcode) {
      case JETTON_OP.transfer:
        // transfer -> internal_transfer -> transfer_notification (pool) -> receive_jettons (stake wallet).
        d = reaches(node, RECEIVE_OPS, 3) ? stakeOf(node, ctx) : null;
        break;
      case JVAULT_OP.unstakeJettons:
        d = unstakeOf(node, ctx);
        break;
      case JVAULT_OP.unstakeRequest:
        d = unstakeRequestOf(node, ctx);
        break;
      case JVAULT_OP.claimRewards:
        d = claimOf(node, ctx);
        break;
    }
    return d ? [d] : null;
  },
  accountDataFor(node): AccountDataRequest[] {
    // The receiver of an unstake is a stake wallet: its data names the pool (and so the jetton the pool locks).
    const op = node.tx.inMsg?.opcode;
    return op !== undefined && op !== null && UNSTAKE_OPS.has(op)
      ? [{ account: node.tx.account, as: 'jvaultStakeWallet' }]
      : [];
  },
};
