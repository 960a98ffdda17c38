// swap.coffee's DEX the way toncenter's classifier reports it, recognised by its message flow. Assets enter through a
// vault: TON with a request to the native vault (swap#c0ffee00, create_pool#c0ffee02, deposit_liquidity#c0ffee04,
// each query_id:uint64 amount:Coins …), a jetton by a transfer to a jetton vault whose forward payload names the
// request (#c0ffee10, #c0ffee11, #c0ffee12). The vault then asks the next contract:
// - jetton_swap (dex `coffee`): swap_internal#c0ffee20 to the pool, which logs swap_successful#c0ffee30 (external-out:
//   query_id input:Asset input_amount:Coins output_amount:Coins …) and hands on to the next pool with another
//   swap_internal or orders payout_internal#c0ffee21 (query_id recipient:MsgAddressInt amount:Coins …) from the vault of
//   the asset paid, which pays with a jetton transfer, payout#c0ffee32 (TON) or notification#c0ffee36 (TON to a
//   contract that goes on, such as an aggregator's next DEX). Every hop must have logged its swap (a pool that refused
//   logs swap_failed#c0ffee31 and makes no jetton_swap, as in toncenter); peer_swaps are the logged hops when there
//   are several.
// - coffee_create_pool_creator: create_pool_creator_request#c0ffee23 to the factory, which deploys (deploy#c0ffee22) the
//   pool creator of the pair; the request named pool_params (first:Asset second:Asset amm:uint3 amm_settings:(Maybe
//   ^Cell)) and creation params (recipient:MsgAddressInt …). When the creator already held the other asset it sends
//   create_pool_request#c0ffee25 (query_id amount1:Coins amount2:Coins tx_initiator:MsgAddressInt …) to the factory,
//   which deploys the pool; the pool logs deposit_liquidity_successful#c0ffee33 (query_id amount1 amount2
//   lp_amount:Coins …) and mints the LP jettons: that is coffee_create_pool, the creator's action inside it.
// - dex_deposit_liquidity (dex `coffee`): create_liquidity_depository_request#c0ffee27 (query_id amount:Coins
//   ^params ^pool_params sender:MsgAddressInt …) to the factory, which deploys the depository of the sender and pair;
//   the depository that holds both assets sends deposit_liquidity_internal#c0ffee29 to the pool, which logs #c0ffee33,
//   mints the LP jettons and may pay an excess back through payout_internal. Each asset's deposit is an action.
// - dex_withdraw_liquidity (dex `coffee`): the LP jettons burnt (burn#595f07bc to a known LP wallet, whose master is
//   the pool); on the burn notification the pool logs liquidity_withdrawal#c0ffee35 (query_id amount1:Coins
//   amount2:Coins …) and orders a payout_internal from each asset's vault. As in toncenter, the payouts are taken in
//   the order its database returns them and each names its asset, while the amounts are the log's (the pool's order).
// Message layouts: toncenter/ton-indexer (indexer/events/blocks/messages/coffee.py), as the mainnet traces show them.
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, loadMsgAddressInt, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceMessage, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { loadCoffeeAsset } from './coffee.ts';
import { inToncenterOrder } from './dedust-liquidity.ts';
import { rawAddress, withReplies } from './replies.ts';
import {
  childrenWithOp,
  childWithOp,
  legAt,
  type PeerSwap,
  reaches,
  type Swap,
  type SwapTransfer,
  swapDraft,
  transferOfLeg,
} from './swap.ts';
import { inBody, parseBody, str } from './util.ts';

export const COFFEE_DEX_OP = {
  swapNative: 0xc0ffee00,
  createPoolNative: 0xc0ffee02,
  depositLiquidityNative: 0xc0ffee04,
  /** The forward payload of a jetton transfer to a jetton vault that creates a pool. */
  createPoolJetton: 0xc0ffee11,
  swapInternal: 0xc0ffee20,
  payoutInternal: 0xc0ffee21,
  deploy: 0xc0ffee22,
  createPoolCreatorRequest: 0xc0ffee23,
  createPoolRequest: 0xc0ffee25,
  createDepositoryRequest: 0xc0ffee27,
  depositLiquidityInternal: 0xc0ffee29,
  /** Logs (external-out). */
  swapSucceeded: 0xc0ffee30,
  depositSucceeded: 0xc0ffee33,
  withdrawalSucceeded: 0xc0ffee35,
  payout: 0xc0ffee32,
  notification: 0xc0ffee36,
} as const;

/** What a vault forwards after the coins came in: the request that says which operation this is. */
const VAULT_REQUESTS: ReadonlySet<number> = new Set([
  COFFEE_DEX_OP.swapInternal,
  COFFEE_DEX_OP.createPoolCreatorRequest,
  COFFEE_DEX_OP.createDepositoryRequest,
]);

const addr = (s: Slice) => rawAddress(loadMsgAddressInt(s));

/** The log with opcode `op` among `node`'s external-out messages. */
const logOf = (node: TraceNode, op: number): TraceMessage | undefined =>
  node.tx.outMsgs.find((m) => m.destination === null && m.opcode === op && m.body);

// ---- message layouts ----

// swap#c0ffee00 / create_pool#c0ffee02 / deposit_liquidity#c0ffee04 query_id:uint64 amount:Coins … (TON in)
const nativeAmount = (op: number) => (c: Cell) =>
  readBody(c, op, (s) => {
    s.skip(64);
    return s.loadCoins();
  });

interface PoolCreation {
  first: string | null;
  second: string | null;
  recipient: string | null;
}

// pool_params first:Asset second:Asset amm:uint3 amm_settings:(Maybe ^Cell), then the creation params
// recipient:MsgAddressInt use_recipient_on_failure:int1 …
function loadPoolCreation(s: Slice): PoolCreation {
  const first = loadCoffeeAsset(s);
  const second = loadCoffeeAsset(s);
  s.skip(3);
  s.loadMaybeRef();
  return { first, second, recipient: addr(s) };
}

// create_pool#c0ffee02 query_id:uint64 amount:Coins params:PoolParams creation_params:PoolCreationParams
const parseCreatePoolNative = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.createPoolNative, (s) => {
    s.skip(64);
    const amount = s.loadCoins();
    return { amount, ...loadPoolCreation(s) };
  });

// create_pool#c0ffee11 params:PoolParams creation_params:PoolCreationParams (a jetton transfer's forward payload)
const parseCreatePoolJetton = (c: Cell) => readBody(c, COFFEE_DEX_OP.createPoolJetton, loadPoolCreation);

// create_pool_request#c0ffee25 query_id:uint64 amount1:Coins amount2:Coins tx_initiator:MsgAddressInt …
const parseCreatePoolRequest = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.createPoolRequest, (s) => {
    s.skip(64);
    return { amount1: s.loadCoins(), amount2: s.loadCoins(), initiator: addr(s) };
  });

// create_liquidity_depository_request#c0ffee27 query_id:uint64 amount:Coins params:^[recipient …]
//     pool_params:^PoolParams sender:MsgAddressInt proof:^Cell
const parseDepositoryRequest = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.createDepositoryRequest, (s) => {
    s.skip(64);
    const amount = s.loadCoins();
    s.loadRef();
    const pool = s.loadRef().beginParse();
    const first = loadCoffeeAsset(pool);
    const second = loadCoffeeAsset(pool);
    return { amount, first, second, sender: addr(s) };
  });

// swap_successful#c0ffee30 query_id:uint64 input:Asset input_amount:Coins output_amount:Coins reserves:PoolReserves
const parseSwapLog = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.swapSucceeded, (s) => {
    s.skip(64);
    return { assetIn: loadCoffeeAsset(s), amountIn: s.loadCoins(), amountOut: s.loadCoins() };
  });

// deposit_liquidity_successful#c0ffee33 query_id:uint64 amount1:Coins amount2:Coins lp_amount:Coins …
const parseDepositLog = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.depositSucceeded, (s) => {
    s.skip(64);
    s.loadCoins();
    s.loadCoins();
    return s.loadCoins();
  });

// liquidity_withdrawal#c0ffee35 query_id:uint64 amount1:Coins amount2:Coins lp_amount:Coins …
const parseWithdrawalLog = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.withdrawalSucceeded, (s) => {
    s.skip(64);
    return { amount1: s.loadCoins(), amount2: s.loadCoins() };
  });

// payout_internal#c0ffee21 query_id:uint64 recipient:MsgAddressInt amount:Coins …
const parsePayoutInternal = (c: Cell) =>
  readBody(c, COFFEE_DEX_OP.payoutInternal, (s) => {
    s.skip(64);
    return { recipient: addr(s), amount: s.loadCoins() };
  });

// ---- the vault's side: what came in ----

interface Incoming {
  nodes: TraceNode[];
  /** The vault's transaction that got the coins (or the notification) and sent the request on. */
  vault: TraceNode;
  transfer: SwapTransfer & { amount: bigint };
  /** A jetton transfer's forward payload; null for TON. */
  payload: Cell | null;
}

function incoming(start: TraceNode, ctx: MatchContext): Incoming | null {
  const m = start.tx.inMsg;
  if (!m) return null;
  if (m.opcode !== JETTON_OP.transfer) {
    const amount = parseBody(start, nativeAmount(m.opcode ?? 0));
    if (amount === null) return null;
    const transfer = {
      asset: null,
      amount,
      source: m.source,
      sourceJettonWallet: null,
      destination: start.tx.account,
      destinationJettonWallet: null,
    };
    return { nodes: withReplies(start, ctx), vault: start, transfer, payload: null };
  }
  const leg = legAt(start, ctx);
  if (!leg?.notified) return null;
  return { nodes: leg.draft.nodes, vault: leg.notified, transfer: transferOfLeg(leg), payload: leg.forwardPayload };
}

// ---- the vault's side: what went out ----

interface Outgoing {
  kind: 'jetton' | 'payout' | 'notification';
  nodes: TraceNode[];
  transfer: SwapTransfer & { amount: bigint };
  /** The coins the message paying TON carried (null for a jetton transfer). */
  carried: bigint | null;
}

/**
 * What a payout_internal made the vault pay: a jetton transfer (its data), payout#c0ffee32 (TON: the amount ordered,
 * from the contract that ordered it to the recipient named) or notification#c0ffee36 (TON: the message itself).
 */
function payoutOf(payout: TraceNode, ctx: MatchContext): Outgoing | null {
  const t = childWithOp(payout, JETTON_OP.transfer, ctx);
  const leg = t ? legAt(t, ctx) : null;
  if (leg) {
    return { kind: 'jetton', nodes: leg.draft.nodes, transfer: transferOfLeg(leg), carried: null };
  }
  const ton = childWithOp(payout, COFFEE_DEX_OP.payout, ctx);
  const ordered = parseBody(payout, parsePayoutInternal);
  if (ton && ordered) {
    const transfer = {
      asset: null,
      amount: ordered.amount,
      source: payout.tx.inMsg?.source ?? null,
      sourceJettonWallet: null,
      destination: ordered.recipient,
      destinationJettonWallet: null,
    };
    return { kind: 'payout', nodes: withReplies(ton, ctx), transfer, carried: ton.tx.inMsg?.value ?? 0n };
  }
  const note = childWithOp(payout, COFFEE_DEX_OP.notification, ctx);
  const msg = note?.tx.inMsg;
  if (!note || !msg) return null;
  const carried = msg.value ?? 0n;
  const transfer = {
    asset: null,
    amount: carried,
    source: msg.source,
    sourceJettonWallet: null,
    destination: note.tx.account,
    destinationJettonWallet: null,
  };
  return { kind: 'notification', nodes: [note], transfer, carried };
}

// ---- jetton_swap ----

interface Hop {
  pool: TraceNode;
  log: { assetIn: string | null; amountIn: bigint; amountOut: bigint };
}

/** The pools from `first` on, each with its swap log, and the payout_internal the last one ordered. */
function route(first: TraceNode, ctx: MatchContext): { hops: Hop[]; payout: TraceNode } | null {
  const hops: Hop[] = [];
  let pool: TraceNode | undefined = first;
  while (pool && hops.length < 64) {
    const log = logOf(pool, COFFEE_DEX_OP.swapSucceeded);
    const parsed = log?.body ? parseSwapLog(log.body) : null;
    if (!parsed) return null;
    hops.push({ pool, log: parsed });
    const payout = childWithOp(pool, COFFEE_DEX_OP.payoutInternal, ctx);
    if (payout) return { hops, payout };
    pool = childWithOp(pool, COFFEE_DEX_OP.swapInternal, ctx);
  }
  return null;
}

function coffeeSwap(inc: Incoming, first: TraceNode, ctx: MatchContext): ActionDraft | null {
  const r = route(first, ctx);
  const out = r ? payoutOf(r.payout, ctx) : null;
  if (!r || !out) return null;
  // Each hop's output is the next hop's input; the last one's is what the vault paid.
  const steps: PeerSwap[] = r.hops.map((h, i) => ({
    assetIn: h.log.assetIn,
    amountIn: h.log.amountIn,
    assetOut: i + 1 < r.hops.length ? r.hops[i + 1]!.log.assetIn : out.transfer.asset,
    amountOut: h.log.amountOut,
  }));
  const swap: Swap = {
    dex: 'coffee',
    nodes: [
      ...inc.nodes,
      ...r.hops.flatMap((h) => withReplies(h.pool, ctx)),
      ...withReplies(r.payout, ctx),
      ...out.nodes,
    ],
    success: !r.hops.some((h) => callFailed(h.pool)),
    incoming: inc.transfer,
    outgoing: out.transfer,
    assetIn: inc.transfer.asset,
    assetOut: out.transfer.asset,
    peerSwaps: steps.length > 1 ? steps : [],
  };
  return swapDraft(swap);
}

// ---- coffee_create_pool_creator, coffee_create_pool ----

interface Creator {
  draft: ActionDraft;
  sender: string | null;
  senderWallet: string | null;
  asset: string | null;
  amount: bigint;
  params: PoolCreation;
  /** The pool creator's deploy. */
  deploy: TraceNode;
}

function poolCreator(inc: Incoming, request: TraceNode, ctx: MatchContext): Creator | null {
  const params = inc.payload ? parseCreatePoolJetton(inc.payload) : parseBody(inc.vault, parseCreatePoolNative);
  const deploy = childWithOp(request, COFFEE_DEX_OP.deploy, ctx);
  if (!params || !deploy) return null;
  const t = inc.transfer;
  const contract = deploy.tx.account;
  const draft: ActionDraft = {
    type: 'coffee_create_pool_creator',
    nodes: [...inc.nodes, ...withReplies(request, ctx), ...withReplies(deploy, ctx)],
    success: !callFailed(request) && !callFailed(deploy),
    source: t.source,
    sourceSecondary: t.sourceJettonWallet,
    destination: params.recipient,
    destinationSecondary: contract,
    asset: t.asset,
    asset2: params.first,
    asset2Secondary: params.second,
    amount: t.amount,
    details: {
      source: t.source,
      source_jetton_wallet: t.sourceJettonWallet,
      deposit_recipient: params.recipient,
      pool_creator_contract: contract,
      // toncenter's API reads provided_asset from the coffee_create_pool record, which a creator's action lacks.
      provided_asset: null,
      asset_1: t.asset,
      asset_2: params.first,
      amount: t.amount.toString(),
    },
  };
  return {
    draft,
    sender: t.source,
    senderWallet: t.sourceJettonWallet,
    asset: t.asset,
    amount: t.amount,
    params,
    deploy,
  };
}

/** The pool the creator's create_pool_request made: the factory's deploy, the pool's log and its LP mint. */
function createdPool(creator: Creator, ctx: MatchContext): ActionDraft | null {
  const request = childWithOp(creator.deploy, COFFEE_DEX_OP.createPoolRequest, ctx);
  const pool = request && childWithOp(request, COFFEE_DEX_OP.deploy, ctx);
  const req = parseBody(request, parseCreatePoolRequest);
  const log = pool && logOf(pool, COFFEE_DEX_OP.depositSucceeded);
  const lp = log?.body ? parseDepositLog(log.body) : null;
  const mint = pool && childWithOp(pool, JETTON_OP.internalTransfer, ctx);
  if (!request || !pool || !req || lp === null || !mint) return null;
  // The pair in the creator's order: its own asset first (amounts and initiators follow the pool's order).
  const own = creator.asset === creator.params.second;
  const [asset1, asset2] = own
    ? [creator.params.second, creator.params.first]
    : [creator.params.first, creator.params.second];
  const [amount1, amount2] = own ? [req.amount2, req.amount1] : [req.amount1, req.amount2];
  const [initiator1, initiator2] = own ? [req.initiator, creator.sender] : [creator.sender, req.initiator];
  const note = childWithOp(pool, COFFEE_DEX_OP.notification, ctx);
  return {
    type: 'coffee_create_pool',
    nodes: [
      ...creator.draft.nodes,
      ...withReplies(request, ctx),
      ...withReplies(pool, ctx),
      ...withReplies(mint, ctx),
      ...(note ? withReplies(note, ctx) : []),
    ],
    success: creator.draft.success && !callFailed(request) && !callFailed(pool),
    source: creator.sender,
    sourceSecondary: creator.senderWallet,
    destination: pool.tx.account,
    destinationSecondary: creator.deploy.tx.account,
    asset: asset1,
    asset2,
    amount: creator.amount,
    details: {
      source: creator.sender,
      source_jetton_wallet: creator.senderWallet,
      initiator_1: initiator1,
      initiator_2: initiator2,
      pool: pool.tx.account,
      // toncenter's classifier keeps the creator in destination_secondary only: its API's field is always null.
      pool_creator_contract: null,
      provided_asset: creator.asset,
      amount: creator.amount.toString(),
      asset_1: asset1,
      asset_2: asset2,
      amount_1: amount1.toString(),
      amount_2: amount2.toString(),
      lp_tokens_minted: lp.toString(),
    },
  };
}

function createPool(inc: Incoming, request: TraceNode, ctx: MatchContext): ActionDraft | null {
  const creator = poolCreator(inc, request, ctx);
  if (!creator) return null;
  return createdPool(creator, ctx) ?? creator.draft;
}

// ---- dex_deposit_liquidity ----

interface Minted {
  nodes: TraceNode[];
  pool: string;
  lp: bigint;
  excesses: { asset: string | null; amount: string }[];
}

/** The depository's deposit into the pool (both assets there): the pool's log, its LP mint, an excess paid back. */
function minted(depository: TraceNode, ctx: MatchContext): Minted | null {
  const deposit = childWithOp(depository, COFFEE_DEX_OP.depositLiquidityInternal, ctx);
  const log = deposit && logOf(deposit, COFFEE_DEX_OP.depositSucceeded);
  const lp = log?.body ? parseDepositLog(log.body) : null;
  const mint = deposit && childWithOp(deposit, JETTON_OP.internalTransfer, ctx);
  if (!deposit || lp === null || !mint) return null;
  const payout = childWithOp(deposit, COFFEE_DEX_OP.payoutInternal, ctx);
  const paid = payout ? payoutOf(payout, ctx) : null;
  return {
    nodes: [
      ...withReplies(deposit, ctx),
      ...withReplies(mint, ctx),
      ...(payout && paid ? [...withReplies(payout, ctx), ...paid.nodes] : []),
    ],
    pool: deposit.tx.account,
    lp,
    // A TON excess counts the coins its message carried (toncenter reads the message, not the amount ordered).
    excesses: paid ? [{ asset: paid.transfer.asset, amount: (paid.carried ?? paid.transfer.amount).toString() }] : [],
  };
}

function depositLiquidity(inc: Incoming, request: TraceNode, ctx: MatchContext): ActionDraft | null {
  const req = parseBody(request, parseDepositoryRequest);
  const depository = childWithOp(request, COFFEE_DEX_OP.deploy, ctx);
  const asset = inc.transfer.asset;
  if (!req || !depository || (asset !== req.first && asset !== req.second)) return null;
  const done = minted(depository, ctx);
  // The asset given is asset 1 when it is the pool's first, else asset 2; the targets start with the asset given.
  const isFirst = asset === req.first;
  const wallet = inc.transfer.sourceJettonWallet;
  const amount = req.amount.toString();
  const pool = done?.pool ?? null;
  return {
    type: 'dex_deposit_liquidity',
    nodes: [...inc.nodes, ...withReplies(request, ctx), ...withReplies(depository, ctx), ...(done?.nodes ?? [])],
    success: !callFailed(request) && !callFailed(depository),
    source: req.sender,
    destination: pool,
    destinationSecondary: depository.tx.account,
    details: {
      dex: 'coffee',
      source: req.sender,
      pool,
      destination_liquidity: pool,
      asset_1: isFirst ? asset : null,
      amount_1: isFirst ? amount : null,
      user_jetton_wallet_1: isFirst ? wallet : null,
      asset_2: isFirst ? null : asset,
      amount_2: isFirst ? null : amount,
      user_jetton_wallet_2: isFirst ? null : wallet,
      lp_tokens_minted: str(done?.lp),
      target_asset_1: isFirst ? req.first : req.second,
      target_asset_2: isFirst ? req.second : req.first,
      // A depository takes whatever comes: there is no target amount.
      target_amount_1: null,
      target_amount_2: null,
      vault_excesses: done?.excesses ?? [],
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
  };
}

// ---- dex_withdraw_liquidity ----

/** One asset paid back: toncenter's asset (TON unless a jetton transfer) and the user's wallet. */
function paidSide(payout: TraceNode, ctx: MatchContext) {
  const paid = payoutOf(payout, ctx);
  if (!paid) return null;
  const jetton = paid.kind === 'jetton' ? paid.transfer : null;
  return {
    nodes: [...withReplies(payout, ctx), ...paid.nodes],
    asset: jetton?.asset ?? null,
    // toncenter names the TON payout's receiver as the user's "jetton wallet".
    userWallet: jetton ? jetton.destinationJettonWallet : paid.kind === 'payout' ? paid.transfer.destination : null,
  };
}

function withdrawLiquidity(burnNode: TraceNode, ctx: MatchContext): ActionDraft | null {
  const burn = inBody(burnNode, 'jetton_burn');
  const lpWallet = ctx.interfaces.get(burnNode.tx.account)?.jettonWallet;
  const pool = childWithOp(burnNode, JETTON_OP.burnNotification, ctx);
  const log = pool && logOf(pool, COFFEE_DEX_OP.withdrawalSucceeded);
  const amounts = log?.body ? parseWithdrawalLog(log.body) : null;
  const payouts = pool ? inToncenterOrder(childrenWithOp(pool, COFFEE_DEX_OP.payoutInternal, ctx)) : [];
  const [p1, p2] = payouts.map((p) => paidSide(p, ctx));
  if (!burn || !lpWallet || !pool || !amounts || !p1 || !p2) return null;
  return {
    type: 'dex_withdraw_liquidity',
    nodes: [...withReplies(burnNode, ctx), ...withReplies(pool, ctx), ...p1.nodes, ...p2.nodes],
    success: !callFailed(burnNode) && !callFailed(pool),
    source: lpWallet.owner,
    sourceSecondary: burnNode.tx.account,
    destination: pool.tx.account,
    asset: lpWallet.jetton,
    details: {
      dex: 'coffee',
      source: lpWallet.owner,
      pool: pool.tx.account,
      destination_liquidity: pool.tx.account,
      asset_1: p1.asset,
      amount_1: amounts.amount1.toString(),
      user_jetton_wallet_1: p1.userWallet,
      asset_2: p2.asset,
      amount_2: amounts.amount2.toString(),
      user_jetton_wallet_2: p2.userWallet,
      lp_tokens_burnt: burn.amount.toString(),
      is_refund: false,
      burnt_nft_index: null,
      burnt_nft_address: null,
      tick_lower: null,
      tick_upper: null,
    },
  };
}

// ---- the matcher ----

function fromVault(start: TraceNode, ctx: MatchContext): ActionDraft | null {
  const inc = incoming(start, ctx);
  if (!inc) return null;
  const swap = childWithOp(inc.vault, COFFEE_DEX_OP.swapInternal, ctx);
  if (swap) return coffeeSwap(inc, swap, ctx);
  const creator = childWithOp(inc.vault, COFFEE_DEX_OP.createPoolCreatorRequest, ctx);
  if (creator) return createPool(inc, creator, ctx);
  const depository = childWithOp(inc.vault, COFFEE_DEX_OP.createDepositoryRequest, ctx);
  return depository ? depositLiquidity(inc, depository, ctx) : null;
}

const PAYOUT: ReadonlySet<number> = new Set([COFFEE_DEX_OP.payoutInternal]);

const NATIVE_REQUESTS: ReadonlySet<number> = new Set([
  COFFEE_DEX_OP.swapNative,
  COFFEE_DEX_OP.createPoolNative,
  COFFEE_DEX_OP.depositLiquidityNative,
]);

export const coffeeDexMatcher: Matcher = {
  name: 'coffee-dex',
  types: [
    'jetton_swap',
    'coffee_create_pool_creator',
    'coffee_create_pool',
    'dex_deposit_liquidity',
    'dex_withdraw_liquidity',
  ],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced || m.opcode === null) return null;
    // A burn reaches the payouts within two messages (LP wallet, pool).
    if (m.opcode === JETTON_OP.burn) {
      const w = reaches(node, PAYOUT, 2) ? withdrawLiquidity(node, ctx) : null;
      return w ? [w] : null;
    }
    // A transfer reaches the vault's request within three messages (wallet, vault wallet, vault).
    const from = NATIVE_REQUESTS.has(m.opcode) || (m.opcode === JETTON_OP.transfer && reaches(node, VAULT_REQUESTS, 3));
    const d = from ? fromVault(node, ctx) : null;
    return d ? [d] : null;
  },
};
