// Ethena staking on TON (USDe staked for tsUSDe) the way toncenter's classifier reports it, recognised by its message
// flow (the mainnet traces of shared/vectors/actions, family ethena):
// - stake_deposit (provider `ethena`): a USDe transfer to the staking contract, whose notification makes it mint
//   tsUSDe to the stake holder (mint#642b7d07 to the tsUSDe master, which sends the internal_transfer). amount: the
//   USDe staked; tokens_minted: the tsUSDe minted; asset: tsUSDe, source_asset (the asset2 column): USDe.
// - stake_withdrawal_request (provider `ethena`): the holder's tsUSDe wallet sends its internal_transfer to the tsUSDe
//   master itself, which notifies the staking contract; the contract sends mint#642b7d07 to the master, which locks
//   the holder's USDe-to-be with timelocked_transfer#b2583ed5 (internal_transfer layout) to the holder's wallet.
//   amount: the tsUSDe sent; tokens_minted: the amount locked. The holder must own both wallets, of the master.
import type { Cell } from '@ton/core';
import { JETTON_OP, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { jettonMatcher } from './jetton.ts';
import { withReplies } from './replies.ts';
import { childWithOp, legAt, reaches } from './swap.ts';
import { inBody } from './util.ts';

export const ETHENA_OP = {
  /** tsUSDe master -> the holder's wallet: tokens locked until the unstaking cooldown ends. */
  timelockedTransfer: 0xb2583ed5,
} as const;

/** The jettons toncenter recognises a deposit by: USDe in, tsUSDe minted. */
const USDE_MASTER = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
const TSUSDE_MASTER = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';

const PROVIDER = 'ethena';
const MINT: ReadonlySet<number> = new Set([JETTON_OP.mint]);

// timelocked_transfer#b2583ed5 query_id:uint64 amount:Coins … (laid out as internal_transfer)
const parseTimelocked = (c: Cell) =>
  readBody(c, ETHENA_OP.timelockedTransfer, (s) => {
    s.skip(64);
    return { amount: s.loadCoins() };
  });

function depositOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const leg = legAt(node, ctx);
  const mintNode = leg?.notified && childWithOp(leg.notified, JETTON_OP.mint, ctx);
  const mint = mintNode ? jettonMatcher.match(mintNode, ctx)?.[0] : undefined;
  if (!leg || leg.asset !== USDE_MASTER || mint?.type !== 'jetton_mint' || mint.asset !== TSUSDE_MASTER) return null;
  const minted = mint.amount ?? null;
  return {
    type: 'stake_deposit',
    nodes: [...leg.draft.nodes, ...mint.nodes],
    success: leg.draft.success && mint.success,
    source: leg.sender,
    sourceSecondary: leg.senderWallet,
    destination: leg.receiver,
    asset: TSUSDE_MASTER,
    asset2: USDE_MASTER,
    amount: leg.amount,
    details: {
      provider: PROVIDER,
      stake_holder: leg.sender,
      pool: leg.receiver,
      amount: leg.amount.toString(),
      tokens_minted: minted === null ? null : minted.toString(),
      asset: TSUSDE_MASTER,
      source_asset: USDE_MASTER,
    },
  };
}

function withdrawalRequestOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const holder = node.tx.inMsg?.source ?? null;
  const wallet = ctx.interfaces.get(node.tx.account)?.jettonWallet;
  const internal = childWithOp(node, JETTON_OP.internalTransfer, ctx);
  const sent = internal ? inBody(internal, 'jetton_internal_transfer') : null;
  const notified = internal && childWithOp(internal, JETTON_OP.transferNotification, ctx);
  const mint = notified && childWithOp(notified, JETTON_OP.mint, ctx);
  const locked = mint && childWithOp(mint, ETHENA_OP.timelockedTransfer, ctx);
  const lockedBody = locked?.tx.inMsg?.body ? parseTimelocked(locked.tx.inMsg.body) : null;
  if (!holder || !wallet || !internal || !sent || !notified || !mint || !locked || !lockedBody) return null;
  // The master took the tsUSDe itself, and locks the USDe for the same holder, in a wallet of that master.
  const master = internal.tx.account;
  const lockWallet = ctx.interfaces.get(locked.tx.account)?.jettonWallet;
  if (wallet.owner !== holder || wallet.jetton !== master) return null;
  if (lockWallet?.owner !== holder || lockWallet.jetton !== locked.tx.inMsg?.source) return null;
  const pool = mint.tx.inMsg?.source ?? null;
  return {
    type: 'stake_withdrawal_request',
    nodes: [node, ...withReplies(internal, ctx), notified, mint, locked],
    success: ![node, internal, notified, mint, locked].some(callFailed),
    source: holder,
    sourceSecondary: node.tx.account,
    destination: pool,
    asset: master,
    amount: sent.amount,
    // toncenter's API leaves tokens_burnt null here (it is the amount column for Tonstakers only); the name table
    // ties tokens_burnt to that column, so the key is left out rather than contradict it.
    details: {
      provider: PROVIDER,
      stake_holder: holder,
      pool,
      payout_nft: null,
      asset: master,
      tokens_minted: lockedBody.amount.toString(),
    },
  };
}

export const ethenaMatcher: Matcher = {
  name: 'ethena',
  types: ['stake_deposit', 'stake_withdrawal_request'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced || m.opcode !== JETTON_OP.transfer) return null;
    // Both start with a transfer whose notification makes the staking contract mint: three messages down.
    if (!reaches(node, MINT, 3)) return null;
    const d = depositOf(node, ctx) ?? withdrawalRequestOf(node, ctx);
    return d ? [d] : null;
  },
};
