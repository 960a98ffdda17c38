// DeDust v2 liquidity deposits (dex_deposit_liquidity, dex `dedust`) the way toncenter's classifier reports them,
// recognised by their message flow. A deposit takes two assets, each sent on its own (in one trace or in two): TON
// to the native vault with deposit_liquidity#d55e4686 (query_id:uint64 amount:Coins pool_params
// ^[min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins] …), or a jetton transfer to a jetton
// vault whose forward payload is deposit_liquidity#40e108d6 (pool_params min_lp_amount:Coins
// asset0_target_balance:Coins asset1_target_balance:Coins …); pool_params is pool_type:uint1 asset0:Asset
// asset1:Asset. The vault asks the factory (#f04ec526), which deploys the owner's deposit contract for the pool
// (#9b3aa3fa) and tops it up (#54240fe5).
// - The first asset's deposit ends there: an action without pool or LP tokens, whose targets are the request's.
// - The second makes the deposit contract send deposit_liquidity#b56b9598 (query_id ^proof owner:MsgAddress
//   min_lp_amount:Coins ^[asset0:Asset amount0:Coins asset1:Asset amount1:Coins] …) to the pool, which mints the LP
//   jettons (internal_transfer to the owner's LP wallet) or rejects the deposit (#e1a36cd4, a failed action), and the
//   deposit contract is destroyed (#aae79256). What the pool did not take goes back: TON directly, and through each
//   vault (#6b0b787f), which pays TON with payout#474f86cf or sends a jetton transfer; those paid to the owner are the
//   vault excesses. Targets are the ones the deposit contract sent the pool.
// When a trace holds both deposits into one deposit contract, toncenter reports them as one action (the first asset's
// deposit, then the second's), unless some deposit contract of the trace got more than two deposits.
// Asset: DeDust's (dedust.ts). Message layouts: toncenter/ton-indexer (indexer/events/blocks/messages/liquidity.py).
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, loadMsgAddress, readBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { loadDedustAsset } from './dedust.ts';
import { rawAddress, withReplies } from './replies.ts';
import { childrenWithOp, childWithOp, legAt, reaches } from './swap.ts';
import { bodyOf, inBody } from './util.ts';

export const DEDUST_LIQUIDITY_OP = {
  /** User -> native vault (TON in). */
  depositNative: 0xd55e4686,
  /** The forward payload of a jetton transfer to a jetton vault. */
  depositJetton: 0x40e108d6,
  /** Vault -> factory. */
  askFactory: 0xf04ec526,
  /** Factory -> deposit contract. */
  deploy: 0x9b3aa3fa,
  topUp: 0x54240fe5,
  /** Deposit contract -> pool. */
  depositToPool: 0xb56b9598,
  /** Pool -> deposit contract. */
  reject: 0xe1a36cd4,
  destroy: 0xaae79256,
  /** Deposit contract -> vault: pay back what the pool did not take. */
  returnExcess: 0x6b0b787f,
  /** Native vault -> user. */
  payout: 0x474f86cf,
} as const;

const ASK_FACTORY: ReadonlySet<number> = new Set([DEDUST_LIQUIDITY_OP.askFactory]);

/** The two assets of a pool and the balances a deposit aims at. */
interface Targets {
  asset0: string | null;
  amount0: bigint;
  asset1: string | null;
  amount1: bigint;
}

type Excess = { asset: string | null; amount: string };

// pool_params: pool_type:uint1 asset0:Asset asset1:Asset
function loadPoolAssets(s: Slice): { asset0: string | null; asset1: string | null } {
  s.skip(1);
  return { asset0: loadDedustAsset(s), asset1: loadDedustAsset(s) };
}

// deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params
//     ^[min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins] …
const parseDepositNative = (c: Cell) =>
  readBody(c, DEDUST_LIQUIDITY_OP.depositNative, (s) => {
    s.skip(64);
    const amount = s.loadCoins();
    const { asset0, asset1 } = loadPoolAssets(s);
    const p = s.loadRef().beginParse();
    p.loadCoins();
    const targets: Targets = { asset0, amount0: p.loadCoins(), asset1, amount1: p.loadCoins() };
    return { amount, targets };
  });

// deposit_liquidity#40e108d6 pool_params min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins …
const parseDepositJetton = (c: Cell) =>
  readBody(c, DEDUST_LIQUIDITY_OP.depositJetton, (s): Targets => {
    const { asset0, asset1 } = loadPoolAssets(s);
    s.loadCoins();
    return { asset0, amount0: s.loadCoins(), asset1, amount1: s.loadCoins() };
  });

// deposit_liquidity#b56b9598 query_id:uint64 proof:^Cell owner:MsgAddress min_lp_amount:Coins
//     ^[asset0:Asset amount0:Coins asset1:Asset amount1:Coins] …
const parseDepositToPool = (c: Cell) =>
  readBody(c, DEDUST_LIQUIDITY_OP.depositToPool, (s) => {
    s.skip(64);
    s.loadRef();
    const owner = rawAddress(loadMsgAddress(s));
    s.loadCoins();
    const a = s.loadRef().beginParse();
    const asset0 = loadDedustAsset(a);
    const amount0 = a.loadCoins();
    const targets: Targets = { asset0, amount0, asset1: loadDedustAsset(a), amount1: a.loadCoins() };
    return { owner, targets };
  });

/**
 * Children in the order toncenter's classifier meets them: a transaction's messages as its database returns them,
 * which is by message hash in the traces its tests hold (mainnet case "Merged rejected deposit": the refund to the
 * vault whose message hash sorts first is the first vault excess, though it was sent second).
 */
export const inToncenterOrder = (children: TraceNode[]): TraceNode[] =>
  [...children].sort((a, b) => ((a.tx.inMsg?.hash ?? '') < (b.tx.inMsg?.hash ?? '') ? -1 : 1));

// ---- one asset's deposit: vault, factory, deposit contract ----

interface Deposit {
  nodes: TraceNode[];
  topUp: TraceNode;
  /** The deposit contract. */
  contract: string;
  /** The factory deployed the deposit contract (a first deposit needs it). */
  deployed: boolean;
  sender: string | null;
  asset: string | null;
  amount: bigint;
  /** The jetton wallet the sender paid from; null for TON. */
  wallet: string | null;
  /** The balances the request aims at. */
  targets: Targets;
}

/** What came into the vault: the asset's side of a Deposit, and the vault's transaction that asked the factory. */
type Paid = Pick<Deposit, 'nodes' | 'sender' | 'asset' | 'amount' | 'wallet' | 'targets'> & { vault: TraceNode };

function tonIn(start: TraceNode, ctx: MatchContext): Paid | null {
  const req = bodyOf(start) ? parseDepositNative(bodyOf(start)!) : null;
  if (!req) return null;
  const sender = start.tx.inMsg?.source ?? null;
  return { ...req, nodes: withReplies(start, ctx), vault: start, sender, asset: null, wallet: null };
}

function jettonIn(start: TraceNode, ctx: MatchContext): Paid | null {
  const leg = legAt(start, ctx);
  const targets = leg?.notified && leg.forwardPayload ? parseDepositJetton(leg.forwardPayload) : null;
  if (!leg?.notified || !targets) return null;
  return {
    nodes: leg.draft.nodes,
    vault: leg.notified,
    sender: leg.sender,
    asset: leg.asset,
    amount: leg.amount,
    wallet: leg.senderWallet,
    targets,
  };
}

/** The deposit starting at `start`: TON to the native vault, or a jetton transfer to a jetton vault. */
function depositAt(start: TraceNode, ctx: MatchContext): Deposit | null {
  const paid = start.tx.inMsg?.opcode === DEDUST_LIQUIDITY_OP.depositNative ? tonIn(start, ctx) : jettonIn(start, ctx);
  const factory = paid && childWithOp(paid.vault, DEDUST_LIQUIDITY_OP.askFactory, ctx);
  const topUp = factory && childWithOp(factory, DEDUST_LIQUIDITY_OP.topUp, ctx);
  if (!paid || !factory || !topUp) return null;
  const deploy = childWithOp(factory, DEDUST_LIQUIDITY_OP.deploy, ctx);
  const { vault: _vault, nodes, ...side } = paid;
  return {
    ...side,
    nodes: [...nodes, ...withReplies(factory, ctx), ...(deploy ? withReplies(deploy, ctx) : []), topUp],
    topUp,
    contract: topUp.tx.account,
    deployed: deploy !== undefined,
  };
}

// ---- the deposit into the pool ----

interface Provision {
  nodes: TraceNode[];
  pool: string;
  owner: string | null;
  targets: Targets;
  /** null: the pool rejected the deposit. */
  lp: bigint | null;
  excesses: Excess[];
}

/** What the deposit contract paid back from `node` (the pool's rejection or destroy): nodes and the owner's excesses. */
function paidBack(node: TraceNode, owner: string | null, ctx: MatchContext) {
  const nodes = withReplies(node, ctx);
  const ton: Excess[] = [];
  const jettons: Excess[] = [];
  // TON back directly (a plain transfer), the rest through the vaults.
  const direct = node.children.find((c) => !ctx.isClaimed(c) && c.tx.inMsg?.source && !c.tx.inMsg.opcode);
  if (direct) nodes.push(direct);
  const vaults = inToncenterOrder(childrenWithOp(node, DEDUST_LIQUIDITY_OP.returnExcess, ctx));
  for (const vault of vaults) {
    nodes.push(...withReplies(vault, ctx));
    const payout = childWithOp(vault, DEDUST_LIQUIDITY_OP.payout, ctx);
    const t = payout ? undefined : childWithOp(vault, JETTON_OP.transfer, ctx);
    const leg = t ? legAt(t, ctx) : null;
    if (payout) {
      nodes.push(...withReplies(payout, ctx));
      if (payout.tx.account === owner) ton.push({ asset: null, amount: String(payout.tx.inMsg?.value ?? 0n) });
    } else if (leg) {
      nodes.push(...leg.draft.nodes);
      if (leg.receiver === owner) jettons.push({ asset: leg.asset, amount: leg.amount.toString() });
    }
  }
  return { nodes, excesses: [...ton, ...jettons] };
}

/** The deposit contract's deposit into the pool after `topUp`, and what followed. */
function provisionAfter(topUp: TraceNode, ctx: MatchContext): Provision | null {
  const toPool = childWithOp(topUp, DEDUST_LIQUIDITY_OP.depositToPool, ctx);
  const req = toPool && bodyOf(toPool) ? parseDepositToPool(bodyOf(toPool)!) : null;
  if (!toPool || !req) return null;
  const mint = childWithOp(toPool, JETTON_OP.internalTransfer, ctx);
  const reject = mint ? undefined : childWithOp(toPool, DEDUST_LIQUIDITY_OP.reject, ctx);
  if (!mint && !reject) return null;
  const destroy = childWithOp(toPool, DEDUST_LIQUIDITY_OP.destroy, ctx);
  const back = [reject, destroy].flatMap((n) => (n ? [paidBack(n, req.owner, ctx)] : []));
  const minted = mint
    ? [
        ...withReplies(mint, ctx),
        ...childrenWithOp(mint, JETTON_OP.transferNotification, ctx).flatMap((n) => withReplies(n, ctx)),
      ]
    : [];
  return {
    nodes: [...withReplies(toPool, ctx), ...minted, ...back.flatMap((b) => b.nodes)],
    pool: toPool.tx.account,
    owner: req.owner,
    targets: req.targets,
    lp: mint ? (inBody(mint, 'jetton_internal_transfer')?.amount ?? null) : null,
    excesses: back.flatMap((b) => b.excesses),
  };
}

// ---- the actions ----

interface Side {
  asset: string | null;
  amount: bigint;
  wallet: string | null;
}

interface Liquidity {
  nodes: TraceNode[];
  sender: string | null;
  contract: string;
  sides: [Side, Side | null];
  targets: Targets;
  provision: Provision | null;
}

const sideOf = (d: Deposit): Side => ({ asset: d.asset, amount: d.amount, wallet: d.wallet });

function draftOf(l: Liquidity): ActionDraft {
  const [s1, s2] = l.sides;
  const p = l.provision;
  const pool = p?.pool ?? null;
  return {
    type: 'dex_deposit_liquidity',
    nodes: l.nodes,
    success: !p || p.lp !== null,
    source: l.sender,
    destination: pool,
    destinationSecondary: l.contract,
    details: {
      dex: 'dedust',
      source: l.sender,
      pool,
      // DeDust's liquidity destination in toncenter's API: the deposit contract.
      destination_liquidity: l.contract,
      asset_1: s1.asset,
      amount_1: s1.amount.toString(),
      user_jetton_wallet_1: s1.wallet,
      asset_2: s2?.asset ?? null,
      amount_2: s2 ? s2.amount.toString() : null,
      user_jetton_wallet_2: s2?.wallet ?? null,
      lp_tokens_minted: p?.lp?.toString() ?? null,
      target_asset_1: l.targets.asset0,
      target_amount_1: l.targets.amount0.toString(),
      target_asset_2: l.targets.asset1,
      target_amount_2: l.targets.amount1.toString(),
      vault_excesses: p?.excesses ?? [],
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
  };
}

/** The second asset's deposit: the owner named to the pool, the wallet only when the owner paid that jetton. */
function finalOf(d: Deposit, p: Provision): Liquidity {
  const wallet = d.sender === p.owner ? d.wallet : null;
  return {
    nodes: [...d.nodes, ...p.nodes],
    sender: p.owner,
    contract: d.contract,
    sides: [{ ...sideOf(d), wallet }, null],
    targets: p.targets,
    provision: p,
  };
}

const firstOf = (d: Deposit): Liquidity => ({
  nodes: d.nodes,
  sender: d.sender,
  contract: d.contract,
  sides: [sideOf(d), null],
  targets: d.targets,
  provision: null,
});

/**
 * Both deposits as one action, as toncenter merges them: the final one's data with the first asset's deposit as
 * asset 1 and the second's as asset 2 (the target amounts stay the pool's order). Null when the two do not make the
 * pool's pair.
 */
function merged(first: Deposit, last: Liquidity): Liquidity | null {
  const pair = new Set([first.targets.asset0, first.targets.asset1]);
  const [s2] = last.sides;
  const same = pair.size === 2 && pair.has(last.targets.asset0) && pair.has(last.targets.asset1);
  if (!same || first.asset === s2.asset || !pair.has(first.asset) || !pair.has(s2.asset)) return null;
  const initiator = first.nodes[0]?.parent;
  const extra = initiator && initiator !== last.nodes[0]?.parent ? [initiator] : [];
  return {
    ...last,
    nodes: [...last.nodes, ...first.nodes, ...extra],
    sides: [sideOf(first), s2],
    targets: { ...last.targets, asset0: first.asset, asset1: s2.asset },
  };
}

/** Where a deposit may start: TON to a native vault, or a jetton transfer whose vault asks the factory. */
const startsDeposit = (n: TraceNode) => {
  const op = n.tx.inMsg?.opcode;
  return op === DEDUST_LIQUIDITY_OP.depositNative || (op === JETTON_OP.transfer && reaches(n, ASK_FACTORY, 3));
};

/** Every transaction of the trace `node` belongs to. */
function traceOf(node: TraceNode): TraceNode[] {
  let root = node;
  while (root.parent) root = root.parent;
  const out: TraceNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...n.children);
  }
  return out;
}

/** How many deposits each deposit contract of the trace got: the factory's top-ups, whichever action took them. */
function depositsPerContract(trace: TraceNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of trace) {
    if (
      n.tx.inMsg?.opcode === DEDUST_LIQUIDITY_OP.topUp &&
      n.parent?.tx.inMsg?.opcode === DEDUST_LIQUIDITY_OP.askFactory
    ) {
      counts.set(n.tx.account, (counts.get(n.tx.account) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * The deposit starting at `start`, merged with the trace's other deposit into the same contract when one of the two
 * went into the pool and the other did not, and no deposit contract of the trace got more than two deposits.
 */
function liquidityAt(start: TraceNode, ctx: MatchContext): Liquidity | null {
  const d = depositAt(start, ctx);
  if (!d) return null;
  const p = provisionAfter(d.topUp, ctx);
  if (!p && !d.deployed) return null;
  const own = p ? finalOf(d, p) : firstOf(d);
  const trace = traceOf(start);
  const counts = depositsPerContract(trace);
  if ([...counts.values()].some((n) => n > 2) || counts.get(d.contract) !== 2) return own;
  const mate = trace
    .filter((n) => n !== start && !ctx.isClaimed(n) && startsDeposit(n))
    .map((n) => depositAt(n, ctx))
    .find((x) => x?.contract === d.contract);
  if (!mate) return own;
  const mateProvision = provisionAfter(mate.topUp, ctx);
  if (p && !mateProvision && mate.deployed) return merged(mate, own) ?? own;
  if (!p && mateProvision) return merged(d, finalOf(mate, mateProvision)) ?? own;
  return own;
}

export const dedustLiquidityMatcher: Matcher = {
  name: 'dedust-liquidity',
  types: ['dex_deposit_liquidity'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced || !startsDeposit(node)) return null;
    const l = liquidityAt(node, ctx);
    return l ? [draftOf(l)] : null;
  },
};
