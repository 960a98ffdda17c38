// EVAA lending (evaafi/contracts) the way toncenter's classifier builds its actions. A user talks to the master; the
// master keeps one user contract per owner and talks to it with "user commands": bodies that start with a header
// (user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2) before the opcode, so their opcode column is
// not the command's. Amounts are uint64, asset ids uint256 (sha256 of "TON" for TON, else of the jetton's master),
// shown as Python's hex() shows them (0x…, no leading zeros). As in toncenter, recognition is by the message chain.
// - evaa_supply: supply_master#00000001 query_id:uint64 include_user_code:int2 supply_amount:uint64
//   recipient:MsgAddress to the master with TON, or a jetton transfer to the master whose forward payload is
//   (op:uint32 = 1, include_user_code:int2, recipient:MsgAddress, …); the master sends supply_user#11 (query_id,
//   asset_id) to the user contract, which answers supply_success#0000011a (query_id, owner, asset_id,
//   amount_supplied:uint64: the action's amount) or supply_fail#0000011f, or sends the jettons back.
// - evaa_withdraw: withdraw_master#00000002 query_id:uint64 asset_id:uint256 amount:uint64 recipient:MsgAddress; the
//   master sends withdraw_user#21 to the user contract, which answers withdraw_collateralized#00000211 (query_id,
//   owner, asset_id, withdraw_amount_current:uint64) or one of the excesses that name why it refused
//   (#21e6 locked, #21e7 not collateralized, #21e8 missing prices, #21ec execution crashed). After
//   withdraw_collateralized the master pays (a jetton transfer, or #0000211a with TON) and confirms withdraw_success
//   (#211a) to the user contract, or, out of funds, sends withdraw_fail (#211f), which the user contract answers with
//   the excess #00211fe8 (withdraw_no_funds_excess).
// - evaa_liquidate: liquidate_master#00000003 query_id:uint64 borrower:MsgAddress liquidator:MsgAddress
//   collateral_asset_id:uint256 min_collateral_amount:uint64 include_user_code:int2 liquidate_incoming_amount:uint64
//   (with TON, or as a jetton transfer's forward payload) -> liquidate_user#31 to the borrower's user contract, which
//   answers liquidate_satisfied#00000311 (then liquidate_success#311a or liquidate_fail#0000311f) or
//   liquidate_unsatisfied#0000031f (its error code names the reason); the master may also refuse at once (a bounce,
//   or the jettons sent back).
// toncenter's own quirks kept: the supply's `sender_jetton_wallet` is never filled; a failed withdrawal shows no
// asset; the liquidation's collateral (asset column) is the collateral's asset id in decimal.
import type { Slice } from '@ton/core';
import { JETTON_OP, loadMsgAddress, payloadCell, readBody, readCell, refuse } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { rawAddress, withReplies } from './replies.ts';
import { childWithOp, type Leg, legAt } from './swap.ts';
import { commentOf, inBody, internalIn, isEmptyBody } from './util.ts';

export const EVAA_OP = {
  supplyMaster: 0x00000001,
  withdrawMaster: 0x00000002,
  liquidateMaster: 0x00000003,
  /** User commands (master -> user contract, after the header). */
  supplyUser: 0x11,
  withdrawUser: 0x21,
  withdrawSuccess: 0x211a,
  withdrawFail: 0x211f,
  liquidateUser: 0x31,
  liquidateSuccess: 0x311a,
  /** User contract -> master. */
  supplySuccess: 0x0000011a,
  supplyFail: 0x0000011f,
  withdrawCollateralized: 0x00000211,
  liquidateSatisfied: 0x00000311,
  liquidateUnsatisfied: 0x0000031f,
  /** Master -> liquidator. */
  liquidateSuccessReport: 0x0000311d,
  liquidateFail: 0x0000311f,
  /** Master -> recipient: the TON a withdrawal pays. */
  withdrawTonPayout: 0x0000211a,
  withdrawNoFundsExcess: 0x00211fe8,
} as const;

/** sha256("TON"): EVAA's asset id of TON. */
const TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

/** The user contract's excesses that refuse a withdrawal, by opcode. */
const WITHDRAW_REFUSALS: ReadonlyMap<number, string> = new Map([
  [0x21e6, 'withdraw_locked_excess'],
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x21e8, 'withdraw_missing_prices_excess'],
  [0x21ec, 'withdraw_execution_crashed'],
]);

/** liquidate_unsatisfied's error codes (evaafi liquidate-message.fc). */
const LIQUIDATION_ERRORS: ReadonlyMap<number, string> = new Map([
  [0xe001, 'master_liquidating_too_much'],
  [0xe002, 'user_withdraw_in_progress'],
  [0xe003, 'not_liquidatable'],
  [0xe004, 'execution_crashed'],
  [0xe005, 'min_collateral_not_satisfied'],
  [0xe006, 'user_not_enough_collateral'],
  [0xe007, 'user_liquidating_too_much'],
  [0xe008, 'master_not_enough_liquidity'],
  [0xe009, 'liquidation_prices_missing'],
]);

/** The comments EVAA's contracts attach to what they send back to the user. */
const EVAA_COMMENTS: ReadonlySet<string> = new Set(['EVAA liquidation.', 'EVAA supply.', 'EVAA withdraw.']);

/**
 * The mainnet asset ids the API resolves a liquidation's collateral to (toncenter's EVAA_ASSET_ID_MAP_MAINNET,
 * ton-index-go); TON resolves to null. An id not listed is not a known asset.
 */
const EVAA_ASSETS: ReadonlyMap<string, string> = new Map([
  [
    '0xb387968236197958ca4ac55e9b5be38e688c7631af84c86756431f49a878ef33',
    '0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2',
  ],
  [
    '0x83d916c68510802104d1f75aa6ce30eb1e477aede0d380eee2188e0e56581fc6',
    '0:7E30FC2B7751BA58A3642F3FD59D5E96A810DDD78D8A310BFE8353BEF10500DF',
  ],
  [
    '0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0',
    '0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892',
  ],
  [
    '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
  ],
  [
    '0xca9006bd3fb03d355daeeff93b24be90afaa6e3ca0073ff5720f8a852c933278',
    '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
  ],
  [
    '0xe025e6a575f174da6d62577c1fe204ccaa5d1e47c55c6b20c67daee56c357b60',
    '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588',
  ],
  [
    '0x9c77a4d798a8f500dcfb877a07227c4ca9d6782504cdc7ce2ad0051e5641c032',
    '0:8D636010DD90D8C0902AC7F9F397D8BD5E177F131EE2CCA24CE894F15D19CEEA',
  ],
  [
    '0x6bfa124cc1343d14ba57ded299f6f514f5f26777099e3c378922ce4081ecbf91',
    '0:AEA78C710AE94270DC263A870CF47B4360F53CC5ED38E3DB502E9E9AFB904B11',
  ],
  [
    '0xe08b1f092e7240fb61bf8249d71aa635102acdd50122138105c35dd2896b5331',
    '0:FE72F474373E97032441BDB873F9A6D3AD10BAB08E6DBC7BEFA5E42B695F5400',
  ],
  [
    '0x70930360b81e5f4ef2e06d2bf64978b44d4b87fb85d78788e001cdf8812d13d1',
    '0:AFC49CB8786F21C87045B19EDE78FC6B46C51048513F8E9A6D44060199C1BF0C',
  ],
  [
    '0x8be3365cabaa6a0f90d2e64f03fa78268c135fe0b0758b576b447e9b2068d75d',
    '0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC',
  ],
  [
    '0xb372eaca5210612d285f3fdd30e87a0c3a443f1bb7578e16da72563241997ca1',
    '0:1F1798F724C2296652E6002BFB51BED11FB5A689532E5788AF7203581EF367A8',
  ],
  [
    '0xb8a51f42ccbb912d973e58a22dda26decc7dfc83718c325c24432045ad78dc5a',
    '0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B',
  ],
  [
    '0xc585bac25948a5feea8f2a9e052eb45995882b15dfb784b37cd271cc163f3aea',
    '0:5EE20B5240CC4CE51A4C60BAF8C9D358EF617C26463E89C6571B534972C8EEF1',
  ],
  [
    '0xd9496f9b279a4e26c49eb65d5c47c79b6dfdea16c9baefa9158a7dfbbbcac04a',
    '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC',
  ],
  [
    '0x4a4bae807cc87355de2ead44b21a739d9d35e9bba9a217f5cc9c0108197ad137',
    '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D',
  ],
]);

/** An asset id as toncenter writes it (Python's hex()). */
const assetIdHex = (id: bigint) => `0x${id.toString(16)}`;

/** The body of an internal, unbounced inbound message: what EVAA's contracts act on. */
const commandBody = (node: TraceNode) => internalIn(node)?.body ?? null;

/** `load` over a user command with opcode `op`: the header skipped, then the opcode checked. */
function readUserCommand<T>(node: TraceNode, op: number, load: (s: Slice) => T): T | null {
  const body = commandBody(node);
  return body
    ? readCell(body, (s) => {
        s.loadCoins();
        s.loadMaybeRef();
        s.skip(2);
        if (s.loadUint(32) !== op) refuse(`EVAA user command: not ${op}`);
        return load(s);
      })
    : null;
}

/** `load` over a body with opcode `op` (messages without the user header). */
function readPlain<T>(node: TraceNode, op: number, load: (s: Slice) => T): T | null {
  const body = commandBody(node);
  return body ? readBody(body, op, load) : null;
}

/** The first free child that received the user command `op`. */
function userCommandChild(node: TraceNode, op: number, ctx: MatchContext): TraceNode | undefined {
  return node.children.find((c) => !ctx.isClaimed(c) && readUserCommand(c, op, () => true) !== null);
}

/** The free child that received a TON transfer (empty body or comment), optionally with one of EVAA's comments. */
function tonTransferChild(node: TraceNode, ctx: MatchContext, evaaComment = false): TraceNode | undefined {
  return node.children.find((c) => {
    const m = c.tx.inMsg;
    if (ctx.isClaimed(c) || !m?.source || m.bounced) return false;
    const comment = commentOf(m.body);
    if (evaaComment) return comment !== null && !comment.encrypted && EVAA_COMMENTS.has(comment.text);
    return isEmptyBody(m.body) || comment !== null;
  });
}

/** `node` with its replies and the EVAA comment it sent, if any. */
function withComment(node: TraceNode, ctx: MatchContext): TraceNode[] {
  const c = tonTransferChild(node, ctx, true);
  return [...withReplies(node, ctx), ...(c ? withReplies(c, ctx) : [])];
}

/** A jetton transfer starting at a free child of `node` (the master's wallet paying or refunding). */
function jettonTransferChild(node: TraceNode, ctx: MatchContext): Leg | null {
  for (const c of node.children) {
    if (c.tx.inMsg?.opcode !== JETTON_OP.transfer || ctx.isClaimed(c)) continue;
    const leg = legAt(c, ctx);
    if (leg) return leg;
  }
  return null;
}

/** The opcode of the forward payload of the transfer#0f8a7ea5 received at `node`. */
function payloadOp(node: TraceNode): number | null {
  const t = inBody(node, 'jetton_transfer');
  const payload = t ? payloadCell(t.forwardPayload) : null;
  return payload && payload.bits.length >= 32 ? payload.beginParse(true).loadUint(32) : null;
}

// ---- supply ----

/** What the supply request says: who supplies what, to whom, and the transaction that forwards it to the user. */
interface SupplyRequest {
  sender: string | null;
  senderWallet: string | null;
  master: string | null;
  masterWallet: string | null;
  recipient: string | null;
  asset: string | null;
  amount: bigint;
  isTon: boolean;
  nodes: TraceNode[];
  /** The master's transaction that sends supply_user. */
  forwarder: TraceNode;
}

function tonSupplyRequest(node: TraceNode): SupplyRequest | null {
  const r = readPlain(node, EVAA_OP.supplyMaster, (s) => {
    s.skip(64 + 2);
    const amount = s.loadUintBig(64);
    return { amount, recipient: loadMsgAddress(s) };
  });
  if (!r) return null;
  return {
    sender: node.tx.inMsg?.source ?? null,
    senderWallet: null,
    master: node.tx.account,
    masterWallet: null,
    recipient: rawAddress(r.recipient),
    asset: null,
    amount: r.amount,
    isTon: true,
    nodes: [node],
    forwarder: node,
  };
}

function jettonSupplyRequest(node: TraceNode, ctx: MatchContext): SupplyRequest | null {
  const leg = legAt(node, ctx);
  // The jetton payload has no query_id: op:uint32 include_user_code:int2 recipient:MsgAddress …
  const recipient = leg?.forwardPayload
    ? readCell(leg.forwardPayload, (s) => {
        s.skip(32 + 2);
        return loadMsgAddress(s);
      })
    : undefined;
  if (!leg?.notified || recipient === undefined) return null;
  return {
    sender: leg.sender,
    senderWallet: leg.senderWallet,
    master: leg.receiver,
    masterWallet: leg.receiverWallet,
    recipient: rawAddress(recipient),
    asset: leg.asset,
    amount: leg.amount,
    isTon: false,
    nodes: leg.draft.nodes,
    forwarder: leg.notified,
  };
}

/** The user contract's answer: supply_success (with the amount supplied), supply_fail, or the jettons sent back. */
function supplyOutcome(user: TraceNode, ctx: MatchContext) {
  const success = childWithOp(user, EVAA_OP.supplySuccess, ctx);
  const supplied = success
    ? readPlain(success, EVAA_OP.supplySuccess, (s) => {
        s.skip(64);
        loadMsgAddress(s);
        s.skip(256);
        return s.loadUintBig(64);
      })
    : null;
  if (success && supplied !== null) return { ok: true, supplied, refund: null, nodes: withComment(success, ctx) };
  const fail = childWithOp(user, EVAA_OP.supplyFail, ctx);
  const refund = jettonTransferChild(user, ctx);
  if (!fail && !refund) return null;
  const nodes = [...(fail ? withReplies(fail, ctx) : []), ...(refund?.draft.nodes ?? [])];
  return { ok: false, supplied: null, refund, nodes };
}

function supplyOf(req: SupplyRequest, ctx: MatchContext): ActionDraft | null {
  const user = userCommandChild(req.forwarder, EVAA_OP.supplyUser, ctx);
  const assetId = user
    ? readUserCommand(user, EVAA_OP.supplyUser, (s) => {
        s.skip(64);
        return s.loadUintBig(256);
      })
    : null;
  const outcome = user ? supplyOutcome(user, ctx) : null;
  if (!user || assetId === null || !outcome) return null;
  const amount = outcome.supplied ?? req.amount;
  // The supplier's own wallet when supplying for themselves; else the wallet a refund went to.
  const recipientWallet = req.isTon
    ? null
    : req.sender === req.recipient
      ? req.senderWallet
      : outcome.refund?.senderWallet === req.masterWallet
        ? (outcome.refund?.receiverWallet ?? null)
        : null;
  return {
    type: 'evaa_supply',
    nodes: [...req.nodes, ...withReplies(user, ctx), ...outcome.nodes],
    success: outcome.ok,
    source: req.sender,
    sourceSecondary: req.senderWallet,
    destination: req.recipient,
    destinationSecondary: user.tx.account,
    asset: req.asset,
    amount,
    details: {
      sender_jetton_wallet: null,
      recipient_jetton_wallet: recipientWallet,
      master_jetton_wallet: req.masterWallet,
      master: req.master,
      asset_id: assetIdHex(assetId),
      is_ton: req.isTon,
      source: req.sender,
      source_wallet: req.senderWallet,
      recipient: req.recipient,
      recipient_contract: user.tx.account,
      asset: req.asset,
      amount: amount.toString(),
    },
  };
}

// ---- withdraw ----

interface WithdrawResult {
  ok: boolean;
  amount: bigint | null;
  asset: string | null;
  recipientWallet: string | null;
  masterWallet: string | null;
  failReason: string | null;
  nodes: TraceNode[];
}

/** withdraw_collateralized's withdraw_amount_current. */
const collateralizedAmount = (node: TraceNode) =>
  readPlain(node, EVAA_OP.withdrawCollateralized, (s) => {
    s.skip(64);
    loadMsgAddress(s);
    s.skip(256);
    return s.loadUintBig(64);
  });

/** The first payout the master made after withdraw_collateralized: a jetton transfer, or #0000211a with TON. */
function withdrawPayout(coll: TraceNode, ctx: MatchContext): { ton: TraceNode } | { leg: Leg } | null {
  for (const c of coll.children) {
    const m = c.tx.inMsg;
    if (ctx.isClaimed(c) || !m?.source || m.bounced) continue;
    if (m.opcode === EVAA_OP.withdrawTonPayout) return { ton: c };
    const leg = m.opcode === JETTON_OP.transfer ? legAt(c, ctx) : null;
    if (leg) return { leg };
  }
  return null;
}

/** withdraw_collateralized followed by the payout and withdraw_success (which sends the user a TON transfer). */
function withdrawPaid(coll: TraceNode, isTon: boolean, ctx: MatchContext): WithdrawResult | null {
  const amount = collateralizedAmount(coll);
  const payout = withdrawPayout(coll, ctx);
  const confirm = userCommandChild(coll, EVAA_OP.withdrawSuccess, ctx);
  const note = confirm && tonTransferChild(confirm, ctx);
  if (amount === null || !payout || !confirm || !note) return null;
  if (isTon !== 'ton' in payout) return null;
  const confirmed = [...withReplies(confirm, ctx), ...withReplies(note, ctx)];
  const paid = 'ton' in payout ? withComment(payout.ton, ctx) : payout.leg.draft.nodes;
  const leg = 'leg' in payout ? payout.leg : null;
  return {
    ok: true,
    amount,
    asset: leg?.asset ?? null,
    recipientWallet: leg?.receiverWallet ?? null,
    masterWallet: leg?.senderWallet ?? null,
    failReason: null,
    nodes: [...withReplies(coll, ctx), ...paid, ...confirmed],
  };
}

/** withdraw_collateralized followed by withdraw_fail (the master is out of funds) and the user's excess. */
function withdrawUnfunded(coll: TraceNode, ctx: MatchContext): WithdrawResult | null {
  const fail = userCommandChild(coll, EVAA_OP.withdrawFail, ctx);
  const excess = fail && childWithOp(fail, EVAA_OP.withdrawNoFundsExcess, ctx);
  if (!fail || !excess) return null;
  const nodes = [...withReplies(coll, ctx), ...withReplies(fail, ctx), ...withReplies(excess, ctx)];
  return refused('withdraw_no_funds_excess', nodes);
}

const refused = (failReason: string, nodes: TraceNode[]): WithdrawResult => ({
  ok: false,
  amount: null,
  asset: null,
  recipientWallet: null,
  masterWallet: null,
  failReason,
  nodes,
});

/** What the user contract's answer led to, in toncenter's order of preference: paid, unfunded, refused. */
function withdrawOutcome(user: TraceNode, isTon: boolean, ctx: MatchContext): WithdrawResult | null {
  const free = user.children.filter((c) => !ctx.isClaimed(c) && c.tx.inMsg?.source && !c.tx.inMsg.bounced);
  const colls = free.filter((c) => c.tx.inMsg?.opcode === EVAA_OP.withdrawCollateralized);
  for (const c of colls) {
    const r = withdrawPaid(c, isTon, ctx);
    if (r) return r;
  }
  for (const c of colls) {
    const r = withdrawUnfunded(c, ctx);
    if (r) return r;
  }
  const refusal = free.find((c) => WITHDRAW_REFUSALS.has(c.tx.inMsg?.opcode ?? -1));
  const reason = refusal && WITHDRAW_REFUSALS.get(refusal.tx.inMsg?.opcode ?? -1);
  return refusal && reason ? refused(reason, withReplies(refusal, ctx)) : null;
}

function withdrawOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const req = readPlain(node, EVAA_OP.withdrawMaster, (s) => {
    s.skip(64);
    const assetId = s.loadUintBig(256);
    const amount = s.loadUintBig(64);
    return { assetId, amount, recipient: rawAddress(loadMsgAddress(s)) };
  });
  const user = req ? userCommandChild(node, EVAA_OP.withdrawUser, ctx) : undefined;
  const isTon = req?.assetId === TON_ASSET_ID;
  const outcome = req && user ? withdrawOutcome(user, isTon, ctx) : null;
  if (!req || !user || !outcome) return null;
  const owner = node.tx.inMsg?.source ?? null;
  const amount = outcome.amount ?? req.amount;
  return {
    type: 'evaa_withdraw',
    nodes: [node, ...withReplies(user, ctx), ...outcome.nodes],
    success: outcome.ok,
    source: owner,
    destination: req.recipient,
    destinationSecondary: user.tx.account,
    asset: outcome.asset,
    amount,
    details: {
      recipient_jetton_wallet: outcome.recipientWallet,
      master_jetton_wallet: outcome.masterWallet,
      master: node.tx.account,
      fail_reason: outcome.failReason,
      asset_id: assetIdHex(req.assetId),
      // The classifier's, not the API's (classifier-names.ts: hidden).
      is_ton: isTon,
      source: owner,
      recipient: req.recipient,
      owner_contract: user.tx.account,
      asset: outcome.asset,
      amount: amount.toString(),
    },
  };
}

// ---- liquidate ----

interface LiquidateRequest {
  liquidator: string | null;
  borrower: string | null;
  collateralAssetId: bigint;
  incoming: bigint;
  nodes: TraceNode[];
  /** The master's transaction that answers: liquidate_user, or the refusal. */
  forwarder: TraceNode;
}

/** liquidate_master's fields after the opcode (toncenter reads the jetton payload the same way, query_id included). */
const loadLiquidateMaster = (s: Slice) => {
  s.skip(64);
  const borrower = rawAddress(loadMsgAddress(s));
  loadMsgAddress(s);
  const collateralAssetId = s.loadUintBig(256);
  s.skip(64 + 2);
  return { borrower, collateralAssetId, incoming: s.loadUintBig(64) };
};

function liquidateRequest(node: TraceNode, viaJetton: boolean, ctx: MatchContext): LiquidateRequest | null {
  if (!viaJetton) {
    const r = readPlain(node, EVAA_OP.liquidateMaster, loadLiquidateMaster);
    const liquidator = node.tx.inMsg?.source ?? null;
    return r ? { ...r, liquidator, nodes: [node], forwarder: node } : null;
  }
  const leg = legAt(node, ctx);
  const r = leg?.forwardPayload ? readBody(leg.forwardPayload, EVAA_OP.liquidateMaster, loadLiquidateMaster) : null;
  if (!leg?.notified || !r) return null;
  return { ...r, liquidator: leg.sender, nodes: leg.draft.nodes, forwarder: leg.notified };
}

interface LiquidateResult {
  ok: boolean;
  borrower: string | null;
  collateralAssetId: bigint;
  collateralAmount: bigint;
  debtAmount: bigint;
  failReason: string | null;
  nodes: TraceNode[];
}

/** What the master sends the liquidator at the end: a report (#311d / #311f) with TON, or a jetton transfer. */
function liquidationReport(node: TraceNode, ctx: MatchContext, taken?: TraceNode): TraceNode[] | null {
  const report = node.children.find((c) => {
    const op = c.tx.inMsg?.opcode;
    const isReport = op === EVAA_OP.liquidateSuccessReport || op === EVAA_OP.liquidateFail;
    return c !== taken && isReport && !ctx.isClaimed(c) && !c.tx.inMsg?.bounced;
  });
  if (report) return withReplies(report, ctx);
  return jettonTransferChild(node, ctx)?.draft.nodes ?? null;
}

/** liquidate_satisfied: the user contract agreed; the master confirms (success) or fails to pay. */
function liquidationSatisfied(sat: TraceNode, req: LiquidateRequest, ctx: MatchContext): LiquidateResult | null {
  const success = userCommandChild(sat, EVAA_OP.liquidateSuccess, ctx);
  const fail = success ? undefined : childWithOp(sat, EVAA_OP.liquidateFail, ctx);
  const report = liquidationReport(sat, ctx, fail);
  if (!report) return null;
  if (success) {
    const data = readPlain(sat, EVAA_OP.liquidateSatisfied, (s) => {
      s.skip(64);
      const owner = rawAddress(loadMsgAddress(s));
      const r = s.loadRef().beginParse();
      r.skip(64);
      const liquidatable = r.loadUintBig(64);
      r.skip(64 + 64);
      const collateralAssetId = r.loadUintBig(256);
      r.skip(64);
      return { owner, liquidatable, collateralAssetId, reward: r.loadUintBig(64) };
    });
    if (!data) return null;
    return {
      ok: true,
      borrower: data.owner,
      collateralAssetId: data.collateralAssetId,
      collateralAmount: data.reward,
      debtAmount: data.liquidatable,
      failReason: null,
      nodes: [...withReplies(sat, ctx), ...withComment(success, ctx), ...report],
    };
  }
  if (!fail) return null;
  const nodes = [...withReplies(sat, ctx), ...withReplies(fail, ctx), ...report];
  return liquidationFailed(req, 'master_not_enough_liquidity', nodes);
}

const liquidationFailed = (req: LiquidateRequest, failReason: string, nodes: TraceNode[]): LiquidateResult => ({
  ok: false,
  borrower: req.borrower,
  collateralAssetId: req.collateralAssetId,
  collateralAmount: 0n,
  debtAmount: req.incoming,
  failReason,
  nodes,
});

/** liquidate_unsatisfied: the user contract refused; its error code (after the ref's fields) names why. */
function liquidationUnsatisfied(un: TraceNode, req: LiquidateRequest, ctx: MatchContext): LiquidateResult | null {
  const report = liquidationReport(un, ctx);
  const reason = readPlain(un, EVAA_OP.liquidateUnsatisfied, (s) => {
    s.skip(64);
    loadMsgAddress(s);
    loadMsgAddress(s);
    s.skip(256);
    const r = s.loadRef().beginParse();
    r.skip(64 + 256 + 64 + 64);
    r.loadRef();
    if (r.remainingBits < 32) return 'parse_error';
    return LIQUIDATION_ERRORS.get(r.loadUint(32)) ?? 'unknown';
  });
  if (!report || !reason) return null;
  return liquidationFailed(req, reason, [...withReplies(un, ctx), ...report]);
}

/** The master refused at once: the request bounced (TON) or the jettons came back. */
function liquidationRefused(req: LiquidateRequest, ctx: MatchContext): LiquidateResult | null {
  const back = req.forwarder.children.find((c) => !ctx.isClaimed(c) && c.tx.inMsg?.bounced);
  const refund = back ? withReplies(back, ctx) : jettonTransferChild(req.forwarder, ctx)?.draft.nodes;
  return refund ? liquidationFailed(req, 'immediate_rejection', refund) : null;
}

/** liquidate_user and what the borrower's user contract answered. */
function liquidationByUser(req: LiquidateRequest, ctx: MatchContext) {
  const user = userCommandChild(req.forwarder, EVAA_OP.liquidateUser, ctx);
  const sat = user && childWithOp(user, EVAA_OP.liquidateSatisfied, ctx);
  const un = user && childWithOp(user, EVAA_OP.liquidateUnsatisfied, ctx);
  const r = (sat && liquidationSatisfied(sat, req, ctx)) ?? (un && liquidationUnsatisfied(un, req, ctx)) ?? null;
  return user && r ? { user, r } : null;
}

function liquidateOf(req: LiquidateRequest, ctx: MatchContext): ActionDraft | null {
  const byUser = liquidationByUser(req, ctx);
  const user = byUser?.user ?? null;
  const r = byUser?.r ?? liquidationRefused(req, ctx);
  if (!r) return null;
  const borrowerContract = user?.tx.account ?? null;
  const assetId = assetIdHex(r.collateralAssetId);
  const collateral = r.collateralAssetId.toString();
  const known = r.collateralAssetId === TON_ASSET_ID || EVAA_ASSETS.has(assetId);
  return {
    type: 'evaa_liquidate',
    nodes: [...req.nodes, ...(user ? withReplies(user, ctx) : []), ...r.nodes],
    success: r.ok,
    source: req.liquidator,
    destination: r.borrower,
    destinationSecondary: borrowerContract,
    asset: collateral,
    amount: r.collateralAmount,
    details: {
      fail_reason: r.failReason,
      debt_amount: r.debtAmount.toString(),
      source: req.liquidator,
      borrower: r.borrower,
      borrower_contract: borrowerContract,
      collateral,
      asset_id: assetId,
      asset: EVAA_ASSETS.get(assetId) ?? null,
      is_known_asset: known,
      amount: r.collateralAmount.toString(),
    },
  };
}

export const evaaMatcher: Matcher = {
  name: 'evaa',
  types: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    let d: ActionDraft | null = null;
    // A jetton transfer carries the request in its forward payload, with the same opcodes.
    const op = m.opcode === JETTON_OP.transfer ? payloadOp(node) : m.opcode;
    const viaJetton = m.opcode === JETTON_OP.transfer;
    switch (op) {
      case EVAA_OP.supplyMaster: {
        const req = viaJetton ? jettonSupplyRequest(node, ctx) : tonSupplyRequest(node);
        d = req && supplyOf(req, ctx);
        break;
      }
      case EVAA_OP.withdrawMaster:
        d = viaJetton ? null : withdrawOf(node, ctx);
        break;
      case EVAA_OP.liquidateMaster: {
        const req = liquidateRequest(node, viaJetton, ctx);
        d = req && liquidateOf(req, ctx);
        break;
      }
    }
    return d ? [d] : null;
  },
};
