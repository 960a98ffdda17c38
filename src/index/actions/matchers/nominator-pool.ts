// The standard nominator pool (ton-blockchain/nominator-pool, func/pool.fc) the way toncenter's classifier builds
// its actions. Nominators talk to it with text comments; the pool must be known as one (ContractInfo.nominatorPool:
// its code hash), as toncenter requires its NominatorPool interface, so a "d" sent to anything else stays a transfer.
// - stake_deposit: a transfer with the comment "d"; amount = its whole value (the pool keeps its fee inside).
// - comment "w": the pool pays at once when it can (a plain transfer of the stake to the nominator, then maybe the
//   rest of the request's value back). One plain transfer worth more than the request, or two (the payout is the
//   earlier), make a stake_withdrawal of the payout; otherwise it is a stake_withdrawal_request (queued).
// - process_withdraw_requests (op 2, sent by anyone): each plain transfer the pool sends is a stake_withdrawal of
//   its own for the nominator paid; the call itself stays a call_contract.
// Success follows toncenter's TON-transfer rule: a transaction that failed is a failed action unless its compute
// phase was skipped (no gas) on a non-bounceable message.
import type { ActionDraft, Details, MatchContext, Matcher, TraceMessage, TraceNode } from '../types.ts';
import { basicMatcher } from './basic.ts';
import { withReplies } from './replies.ts';
import { commentOf, isEmptyBody } from './util.ts';

/** Code hash of ton-blockchain/nominator-pool's pool.fc (base64; hex 9a3ec14b…0dcf, toncenter/ton-http-api-cpp). */
export const NOMINATOR_POOL_CODE_HASH = 'mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=';
/** toncenter's provider name for nominator pools. */
export const NOMINATOR = 'nominator';
/** process_withdraw_requests, the pool's op 2. */
export const PROCESS_WITHDRAW_REQUESTS_OP = 0x00000002;

/** A plain TON transfer (no body, a text or an encrypted comment), not a bounce. */
function isPlainTransfer(m: TraceMessage | null): m is TraceMessage {
  return m !== null && m.source !== null && !m.bounced && (isEmptyBody(m.body) || commentOf(m.body) !== null);
}

/** toncenter's TonTransferBlock failure: a failed transaction, unless the message could not bounce and ran no code. */
function transferFailed(node: TraceNode): boolean {
  const { tx } = node;
  if (!tx.aborted) return false;
  if (tx.inMsg?.bounce) return true;
  return !(tx.endStatus === 'uninit' || tx.computeSuccess === null);
}

const poolAt = (node: TraceNode, ctx: MatchContext) => ctx.interfaces.get(node.tx.account)?.nominatorPool === true;

function withdrawalDetails(holder: string, pool: string, amount: bigint): Details {
  return {
    provider: NOMINATOR,
    stake_holder: holder,
    pool,
    amount: amount.toString(),
    payout_nft: null,
    tokens_burnt: null,
    asset: null,
  };
}

function depositOf(node: TraceNode, m: TraceMessage, ctx: MatchContext): ActionDraft {
  const holder = m.source!;
  return {
    type: 'stake_deposit',
    nodes: withReplies(node, ctx),
    success: !transferFailed(node),
    source: holder,
    destination: node.tx.account,
    amount: m.value,
    details: {
      provider: NOMINATOR,
      stake_holder: holder,
      pool: node.tx.account,
      amount: m.value === null ? null : m.value.toString(),
      tokens_minted: null,
      asset: null,
    },
  };
}

function withdrawOf(node: TraceNode, m: TraceMessage, ctx: MatchContext): ActionDraft {
  const holder = m.source!;
  const pool = node.tx.account;
  const sent = node.children.filter((c) => !ctx.isClaimed(c) && isPlainTransfer(c.tx.inMsg));
  const coins = (n: TraceNode) => n.tx.inMsg?.value ?? 0n;
  let payout: TraceNode | undefined;
  let taken: TraceNode[] = [];
  if (sent.length === 1) {
    taken = sent;
    if (coins(sent[0]!) > (m.value ?? 0n)) payout = sent[0];
  } else if (sent.length === 2) {
    taken = sent;
    // The payout is sent first; the rest of the request's value follows it.
    payout = [...sent].sort((a, b) => ((a.tx.inMsg?.createdLt ?? 0n) <= (b.tx.inMsg?.createdLt ?? 0n) ? -1 : 1))[0];
  }
  const nodes = [...withReplies(node, ctx), ...taken];
  const success = !transferFailed(node);
  if (payout) {
    const amount = coins(payout);
    return {
      type: 'stake_withdrawal',
      nodes,
      success,
      source: holder,
      destination: pool,
      amount,
      details: withdrawalDetails(holder, pool, amount),
    };
  }
  return {
    type: 'stake_withdrawal_request',
    nodes,
    success,
    source: holder,
    destination: pool,
    details: { provider: NOMINATOR, stake_holder: holder, pool, payout_nft: null, asset: null, tokens_burnt: null },
  };
}

/** process_withdraw_requests: the call as a contract call, and one stake_withdrawal per nominator paid. */
function processedOf(node: TraceNode, ctx: MatchContext): ActionDraft[] {
  const pool = node.tx.account;
  const call = basicMatcher.match(node, ctx) ?? [];
  const claimed = new Set(call.flatMap((d) => d.nodes));
  const paid = node.children.filter((c) => !ctx.isClaimed(c) && !claimed.has(c) && isPlainTransfer(c.tx.inMsg));
  return [
    ...call,
    ...paid.map((p): ActionDraft => {
      const amount = p.tx.inMsg?.value ?? 0n;
      return {
        type: 'stake_withdrawal',
        nodes: [p],
        success: true,
        source: p.tx.account,
        destination: pool,
        amount,
        details: withdrawalDetails(p.tx.account, pool, amount),
      };
    }),
  ];
}

export const nominatorPoolMatcher: Matcher = {
  name: 'nominator-pool',
  types: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced || !poolAt(node, ctx)) return null;
    if (m.opcode === PROCESS_WITHDRAW_REQUESTS_OP) return processedOf(node, ctx);
    const comment = isPlainTransfer(m) ? commentOf(m.body) : null;
    if (!comment || comment.encrypted) return null;
    // toncenter compares the comment with its NUL characters removed.
    const text = comment.text.replaceAll('\u0000', '');
    if (text === 'd') return [depositOf(node, m, ctx)];
    if (text === 'w') return [withdrawOf(node, m, ctx)];
    return null;
  },
};
