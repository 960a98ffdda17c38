// Tonstakers liquid staking (the pool of ton-blockchain/liquid-staking-contract, tsTON) the way toncenter's
// classifier builds its actions. As there, the protocol is recognised by its message chain alone (no address or
// interface check), which is what makes a withdrawal's burn#595f07bc a stake action rather than a jetton_burn:
// - stake_deposit: deposit#47d54391 to the pool, which sends mint#1674b0a0 to the tsTON minter, which sends
//   internal_transfer#178d4519 to the staker's wallet. Without that internal_transfer toncenter makes no stake action
//   (the deposit stays a contract call). amount = deposit value minus the pool's 1 TON fee; tokens_minted = the
//   internal_transfer's amount; asset = the minter (its sender).
// - stake_withdrawal (immediate): burn -> burn_notification#7bdd97de -> withdraw#319b0cdc (minter to pool) ->
//   withdrawal#0a77535c (pool to staker). amount = the payout's value minus the withdraw message's value.
// - stake_withdrawal_request (delayed): the same chain ending in mint#1674b0a0 to the payout collection, whose
//   init_nft#132f9a45 (or a known item it deployed) names payout_nft; failed when there is none. The item's own
//   deployment stays an nft_mint / contract_deploy of its own, as in toncenter.
// - stake_withdrawal (payout): the payout NFT's burn#f127fe4e -> burn_notification#ed58b0b2 (query_id, amount,
//   owner) -> distributed_asset#db3b8abd; stake holder and amount from the notification, the pool found above a
//   start_distribution#1140a64f. toncenter never marks it failed.
import type { Address } from '@ton/core';
import { JETTON_OP, loadMsgAddress, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { freeChildrenWithOp, rawAddress, withReplies } from './replies.ts';
import { inBody } from './util.ts';

/** Opcodes of the pool, its payout collection and NFTs (liquid-staking-contract's PoolConstants / toncenter). */
export const TONSTAKERS_OP = {
  deposit: 0x47d54391,
  /** Pool -> tsTON minter (mint jettons) and pool -> payout collection (mint a payout NFT): the same opcode. */
  mint: 0x1674b0a0,
  withdraw: 0x319b0cdc,
  withdrawal: 0x0a77535c,
  initNft: 0x132f9a45,
  nftBurn: 0xf127fe4e,
  nftBurnNotification: 0xed58b0b2,
  distributedAsset: 0xdb3b8abd,
  startDistribution: 0x1140a64f,
} as const;

/**
 * The public mainnet contracts (tonstakers/tonstakers-sdk CONTRACT.STAKING_CONTRACT_ADDRESS
 * EQCkWxfyhAkim3g2DjKQQg8T5P4g-Q1-K_jErGcDJZ4i-vqR; tsTON EQC98_qAmNEptUtPc7W6xdHh_ZHrBUFpw5Ft_IzNU20QAJav). Recognition
 * does not depend on them (toncenter's does not either); they name what real traces show.
 */
export const TONSTAKERS_MAINNET = {
  pool: '0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA',
  tsTonMaster: '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
} as const;

/** toncenter's provider name for Tonstakers in the API (its legacy `tonstakers` maps to it). */
export const LIQUID_STAKING = 'liquid_staking';
/** The pool keeps 1 TON of every deposit as its processing fee. */
const DEPOSIT_FEE = 1_000_000_000n;

/** The next links of a chain: free children that received `op`. */
const chain = (node: TraceNode, op: number, ctx: MatchContext) => freeChildrenWithOp(node, op, ctx);

const withAll = (nodes: TraceNode[], ctx: MatchContext) => nodes.flatMap((n) => withReplies(n, ctx));

function depositOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const m = node.tx.inMsg;
  if (!m?.source || m.value === null) return null;
  const parts: TraceNode[] = [];
  const transfers: TraceNode[] = [];
  for (const mint of chain(node, TONSTAKERS_OP.mint, ctx)) {
    const its = chain(mint, JETTON_OP.internalTransfer, ctx);
    if (its.length === 0) continue;
    transfers.push(...its);
    parts.push(...withReplies(mint, ctx));
    for (const t of its) {
      parts.push(...withReplies(t, ctx), ...withAll(chain(t, JETTON_OP.transferNotification, ctx), ctx));
    }
  }
  const first = transfers[0];
  const minted = first ? inBody(first, 'jetton_internal_transfer') : null;
  const minter = first?.tx.inMsg?.source ?? null;
  if (!first || !minted || !minter) return null;
  const amount = m.value - DEPOSIT_FEE;
  return {
    type: 'stake_deposit',
    nodes: [node, ...parts],
    success: !callFailed(node),
    source: m.source,
    destination: node.tx.account,
    asset: minter,
    amount,
    details: {
      provider: LIQUID_STAKING,
      stake_holder: m.source,
      pool: node.tx.account,
      amount: amount.toString(),
      tokens_minted: minted.amount.toString(),
      asset: minter,
    },
  };
}

/** The payout NFT the collection initialised (init_nft, or an item it deployed that the index knows). */
function payoutNft(mint: TraceNode, ctx: MatchContext): string | null {
  const init = mint.children.find((c) => c.tx.inMsg?.opcode === TONSTAKERS_OP.initNft && !c.tx.inMsg.bounced);
  const deployed = mint.children.find(
    (c) => c.tx.origStatus !== 'active' && c.tx.endStatus === 'active' && ctx.interfaces.get(c.tx.account)?.nftItem,
  );
  return (deployed ?? init)?.tx.account ?? null;
}

function burnOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const burn = inBody(node, 'jetton_burn');
  const owner = node.tx.inMsg?.source ?? null;
  if (!burn || !owner) return null;
  const parts: TraceNode[] = [];
  let request: TraceNode | undefined;
  let immediate: TraceNode | undefined;
  let delayed: TraceNode | undefined;
  for (const note of chain(node, JETTON_OP.burnNotification, ctx)) {
    const requests: TraceNode[] = [];
    for (const r of chain(note, TONSTAKERS_OP.withdraw, ctx)) {
      // A withdraw message counts only with what the pool answered: a payout or a payout NFT mint.
      const ends = [...chain(r, TONSTAKERS_OP.withdrawal, ctx), ...chain(r, TONSTAKERS_OP.mint, ctx)];
      if (ends.length === 0) continue;
      requests.push(r);
      parts.push(...withReplies(r, ctx), ...withAll(ends, ctx));
      request ??= r;
      immediate ??= ends.find((e) => e.tx.inMsg?.opcode === TONSTAKERS_OP.withdrawal);
      delayed ??= ends.find((e) => e.tx.inMsg?.opcode === TONSTAKERS_OP.mint);
    }
    if (requests.length > 0) parts.push(...withReplies(note, ctx));
  }
  const minter = request?.tx.inMsg?.source ?? null;
  if (!request || !minter) return null;
  const pool = request.tx.account;
  const nodes = [node, ...parts];
  const tokensBurnt = burn.amount;
  if (immediate) {
    const payout = (immediate.tx.inMsg?.value ?? 0n) - (request.tx.inMsg?.value ?? 0n);
    return {
      type: 'stake_withdrawal',
      nodes,
      success: !callFailed(node),
      source: owner,
      destination: pool,
      asset: minter,
      amount: payout,
      details: {
        provider: LIQUID_STAKING,
        stake_holder: owner,
        pool,
        amount: payout.toString(),
        payout_nft: null,
        tokens_burnt: tokensBurnt.toString(),
        asset: minter,
      },
    };
  }
  const nft = delayed ? payoutNft(delayed, ctx) : null;
  return {
    type: 'stake_withdrawal_request',
    nodes,
    success: !callFailed(node) && nft !== null,
    source: owner,
    sourceSecondary: node.tx.account,
    destination: pool,
    asset: minter,
    amount: tokensBurnt,
    details: {
      provider: LIQUID_STAKING,
      stake_holder: owner,
      pool,
      payout_nft: nft,
      asset: minter,
      tokens_burnt: tokensBurnt.toString(),
    },
  };
}

interface BurnNotification {
  queryId: bigint;
  amount: bigint;
  owner: Address | null;
}

const readNftBurnNotification = (node: TraceNode): BurnNotification | null => {
  const body = node.tx.inMsg?.body;
  return body
    ? readBody(body, TONSTAKERS_OP.nftBurnNotification, (s) => ({
        queryId: s.loadUintBig(64),
        amount: s.loadCoins(),
        owner: loadMsgAddress(s),
      }))
    : null;
};

/** The pool that started the distribution: above the burn, through the payout chain, a start_distribution's sender. */
function distributingPool(burn: TraceNode): string | null {
  const chainOps = new Set<number>([
    TONSTAKERS_OP.nftBurn,
    TONSTAKERS_OP.nftBurnNotification,
    TONSTAKERS_OP.distributedAsset,
  ]);
  for (let n = burn.parent; n; n = n.parent) {
    const m = n.tx.inMsg;
    if (!m || m.source === null || m.bounced || m.opcode === null) return null;
    if (m.opcode === TONSTAKERS_OP.startDistribution) return m.source;
    if (!chainOps.has(m.opcode)) return null;
  }
  return null;
}

function payoutOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  // One payout per burned NFT: its notification and the distribution it caused.
  for (const note of chain(node, TONSTAKERS_OP.nftBurnNotification, ctx)) {
    const n = readNftBurnNotification(note);
    const owner = rawAddress(n?.owner);
    const paid = chain(note, TONSTAKERS_OP.distributedAsset, ctx)[0];
    if (!n || !owner || !paid) continue;
    const pool = distributingPool(node);
    return {
      type: 'stake_withdrawal',
      nodes: [...withReplies(node, ctx), ...withReplies(note, ctx), paid],
      success: true,
      source: owner,
      destination: pool,
      amount: n.amount,
      details: {
        provider: LIQUID_STAKING,
        stake_holder: owner,
        pool,
        amount: n.amount.toString(),
        payout_nft: note.tx.inMsg?.source ?? null,
        tokens_burnt: null,
        asset: null,
      },
    };
  }
  return null;
}

export const tonstakersMatcher: Matcher = {
  name: 'tonstakers',
  types: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    const d =
      m.opcode === TONSTAKERS_OP.deposit
        ? depositOf(node, ctx)
        : m.opcode === JETTON_OP.burn
          ? burnOf(node, ctx)
          : m.opcode === TONSTAKERS_OP.nftBurn
            ? payoutOf(node, ctx)
            : null;
    return d ? [d] : null;
  },
};
