// Cocoon (decentralised AI inference on TON: a root contract, proxies, clients, workers) the way toncenter's
// classifier reports its requests: one action per request message to a Cocoon contract, recognised by its opcode and
// body, with the contract's forwarding message (0x65448ff4), the payouts it caused (0xc59a7cd3) and the excesses
// (0x2565934c) belonging to it. toncenter reports these actions successful whatever the forwarded message met (the
// mainnet cases show aborted forwards in successful actions); an aborted request is a failed one.
// Layouts as the mainnet traces show them (shared/vectors/actions, family cocoon), each op then query_id:uint64:
// - client_top_up#f172e6c2 amount:Coins send_excesses_to:MsgAddress (owner -> client; the client forwards to its
//   proxy: destination_secondary);
// - client_increase_stake#6a1f6a60 new_stake:Coins; client_change_secret_hash#a9357034 new_secret_hash:uint256;
//   client_register#c45f9f3b nonce:uint64; client_request_refund#fafa6cc1 (a request sent straight to the client:
//   via_wallet false); client_withdraw#da068e78 (the amount is what the client's forward to its proxy orders paid,
//   payout_request#c68ebc7b amount:Coins in its last reference);
// - register_proxy#927c7cb5, unregister_proxy#6d49eaf2 seqno:uint32 (to the root);
// - proxy_payout#7610e6eb (owner -> proxy; the proxy pays its owner: destination, and returns the excess to the
//   sender: destination_secondary).
// - worker payouts and grant refunds, started by a signed payload (see signedPayout below).
import type { Slice } from '@ton/core';
import { loadMsgAddress, readBody, refuse } from '../../../ton/index.ts';
import type { ActionDraft, Details, MatchContext, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { freeChildrenWithOp, rawAddress } from './replies.ts';
import { bodyOf, str } from './util.ts';

export const COCOON_OP = {
  clientTopUp: 0xf172e6c2,
  clientIncreaseStake: 0x6a1f6a60,
  clientChangeSecretHash: 0xa9357034,
  clientRegister: 0xc45f9f3b,
  clientRequestRefund: 0xfafa6cc1,
  clientWithdraw: 0xda068e78,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  proxyPayout: 0x7610e6eb,
  /** What a client or proxy sends on to the contract above it. */
  forward: 0x65448ff4,
  payout: 0xc59a7cd3,
  excesses: 0x2565934c,
  /** In a client's forward: the payout it asks for. */
  payoutRequest: 0xc68ebc7b,
  /** Signed payloads a worker or proxy receives (see signedPayout). */
  payoutPayload: 0xa040ad28,
  lastPayoutPayload: 0xf5f26a36,
  grantRefundPayload: 0xefd711e1,
  /** worker_proxy_request: a worker reports to its proxy (owner, state, tokens), which pays the worker's owner. */
  workerRequest: 0x4d725d2c,
} as const;

const FLOW_OPS = new Set<number>([COCOON_OP.forward, COCOON_OP.payout, COCOON_OP.excesses]);

/** The request's transaction, what it forwarded, the payouts and excesses: two levels of the flow. */
function flowNodes(node: TraceNode, ctx: MatchContext): TraceNode[] {
  const out = [node];
  for (const op of FLOW_OPS) {
    for (const c of freeChildrenWithOp(node, op, ctx)) {
      out.push(c);
      for (const op2 of FLOW_OPS) out.push(...freeChildrenWithOp(c, op2, ctx));
    }
  }
  return out;
}

const read = <T>(n: TraceNode, op: number, load: (s: Slice) => T): T | null => {
  const b = bodyOf(n);
  return b ? readBody(b, op, load) : null;
};
const queryIdOnly = (s: Slice) => ({ queryId: s.loadUintBig(64) });

/** The amount a client's forward asks its proxy to pay (payout_request in the forward's last reference). */
function requestedPayout(forward: TraceNode | undefined): bigint | null {
  const b = forward && bodyOf(forward);
  if (!b || b.refs.length === 0) return null;
  return readBody(b.refs[b.refs.length - 1]!, COCOON_OP.payoutRequest, (s) => s.loadCoins());
}

interface Parsed {
  type: string;
  data: Details;
  amount?: bigint | null;
  /** Whether the details name the sender (`source`). */
  withSource: boolean;
  destinationSecondary?: string | null;
  destination?: string | null;
  source?: string | null;
}

function parse(node: TraceNode, ctx: MatchContext): Parsed | null {
  const op = node.tx.inMsg?.opcode;
  const account = node.tx.account;
  const forward = freeChildrenWithOp(node, COCOON_OP.forward, ctx)[0];
  switch (op) {
    case COCOON_OP.clientTopUp: {
      const r = read(node, op, (s) => ({ queryId: s.loadUintBig(64), amount: s.loadCoins() }));
      if (!r) return null;
      return {
        type: 'cocoon_client_top_up',
        data: { query_id: r.queryId.toString() },
        amount: r.amount,
        withSource: true,
        destinationSecondary: forward?.tx.account ?? null,
      };
    }
    case COCOON_OP.clientIncreaseStake: {
      const r = read(node, op, (s) => ({ queryId: s.loadUintBig(64), stake: s.loadCoins() }));
      if (!r) return null;
      return {
        type: 'cocoon_client_increase_stake',
        data: { query_id: r.queryId.toString(), new_stake: r.stake.toString() },
        amount: r.stake,
        withSource: true,
      };
    }
    case COCOON_OP.clientChangeSecretHash: {
      const r = read(node, op, (s) => ({ queryId: s.loadUintBig(64), hash: s.loadBuffer(32) }));
      if (!r) return null;
      return {
        type: 'cocoon_client_change_secret_hash',
        data: { query_id: r.queryId.toString(), new_secret_hash: r.hash.toString('hex') },
        withSource: true,
      };
    }
    case COCOON_OP.clientRegister: {
      const r = read(node, op, (s) => ({ queryId: s.loadUintBig(64), nonce: s.loadUintBig(64) }));
      if (!r) return null;
      return {
        type: 'cocoon_client_register',
        data: { query_id: r.queryId.toString(), nonce: r.nonce.toString() },
        withSource: true,
      };
    }
    case COCOON_OP.clientRequestRefund: {
      const r = read(node, op, queryIdOnly);
      if (!r) return null;
      return {
        type: 'cocoon_client_request_refund',
        data: { query_id: r.queryId.toString(), via_wallet: false },
        withSource: true,
      };
    }
    case COCOON_OP.clientWithdraw: {
      const r = read(node, op, queryIdOnly);
      if (!r) return null;
      const paid = forward ? freeChildrenWithOp(forward, COCOON_OP.payout, ctx)[0]?.tx.inMsg?.value : undefined;
      const amount = requestedPayout(forward) ?? paid ?? null;
      return {
        type: 'cocoon_client_withdraw',
        data: { query_id: r.queryId.toString(), withdraw_amount: str(amount) },
        amount,
        withSource: true,
      };
    }
    case COCOON_OP.registerProxy: {
      const r = read(node, op, queryIdOnly);
      if (!r) return null;
      return { type: 'cocoon_register_proxy', data: { query_id: r.queryId.toString() }, withSource: false };
    }
    case COCOON_OP.unregisterProxy: {
      const r = read(node, op, (s) => ({ queryId: s.loadUintBig(64), seqno: s.loadUint(32) }));
      if (!r) return null;
      return {
        type: 'cocoon_unregister_proxy',
        data: { query_id: r.queryId.toString(), seqno: r.seqno },
        withSource: false,
      };
    }
    case COCOON_OP.proxyPayout: {
      const r = read(node, op, queryIdOnly);
      const payout = freeChildrenWithOp(node, COCOON_OP.payout, ctx)[0];
      if (!r || !payout) return null;
      return {
        type: 'cocoon_proxy_payout',
        data: { query_id: r.queryId.toString() },
        withSource: true,
        source: account,
        destination: payout.tx.account,
        destinationSecondary: node.tx.inMsg?.source ?? null,
      };
    }
    default:
      return null;
  }
}

// Worker payouts and grant refunds. Their first message carries a payload signed off-chain: on the chain its body is
// op, query_id:uint64, send_excesses_to:MsgAddress, signature:bits512, ^signed_data (the payload's own fields are in
// that reference). toncenter's classifier reads these bodies as op, query_id:uint64, new_tokens:uint64,
// expected_my_address:MsgAddress instead, so (compatibility is the law) we read them the same way:
// - its new_tokens (new_tokens_used for a grant refund) is the first 64 bits of send_excesses_to as one unsigned
//   integer: the address's 2-bit tag, anycast bit and 8-bit workchain, then the first 53 bits of its hash;
// - its expected address is a MsgAddress read from the bits after those: hash bits 53-54 are its tag (00: none;
//   01: an external address whose 9-bit length and value run on through the hash and into the signature, written
//   `<len>;<value in hex>`; 10: a std address, written raw). A read that fails (too few bits, addr_var, an external
//   address of length 0) gives toncenter no action, so none here either.

/** The MsgAddress toncenter reads where it expects expected_my_address, formatted as toncenter formats it. */
function loadMisreadAddress(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) {
    const len = s.loadUint(9);
    if (len === 0) refuse('external address of length 0');
    return `${len};${s.loadUintBig(len).toString(16)}`;
  }
  if (s.loadBit()) {
    const depth = s.loadUint(5);
    if (depth < 1) refuse('anycast depth 0');
    s.skip(depth);
  }
  if (tag !== 2) refuse('addr_var');
  const workchain = s.loadInt(8);
  return `${workchain}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

const loadMisreadPayload = (s: Slice) => ({
  queryId: s.loadUintBig(64),
  newTokens: s.loadUintBig(64),
  expectedAddress: loadMisreadAddress(s),
});

/** worker_proxy_request#4d725d2c query_id:uint64 owner:MsgAddress state:uint2 tokens:uint64 payload:(Maybe ^Cell). */
const loadWorkerRequest = (s: Slice) => {
  s.skip(64);
  const owner = rawAddress(loadMsgAddress(s));
  const state = s.loadUint(2);
  const tokens = s.loadUintBig(64);
  s.loadMaybeRef();
  return { owner, state, tokens };
};

/**
 * payout_payload / last_payout_payload (proxy -> worker): the worker sends worker_proxy_request to its proxy, which
 * pays the worker's owner (payout) and returns the rest to the sender (excesses, optional). Source: the sender;
 * source_secondary: the worker; destination: the owner the request names; amount: what the payout carried.
 */
function workerPayout(node: TraceNode, ctx: MatchContext, op: number): ActionDraft | null {
  const payload = read(node, op, loadMisreadPayload);
  const request = freeChildrenWithOp(node, COCOON_OP.workerRequest, ctx)[0];
  const worker = request ? read(request, COCOON_OP.workerRequest, loadWorkerRequest) : null;
  const payout = request && freeChildrenWithOp(request, COCOON_OP.payout, ctx)[0];
  if (!payload || !request || !worker || !payout) return null;
  const source = node.tx.inMsg?.source ?? null;
  const amount = payout.tx.inMsg?.value ?? null;
  return {
    type: 'cocoon_worker_payout',
    nodes: [node, request, payout, ...freeChildrenWithOp(request, COCOON_OP.excesses, ctx).slice(0, 1)],
    success: !payout.tx.aborted,
    source,
    sourceSecondary: node.tx.account,
    destination: worker.owner,
    amount,
    details: {
      payout_type: op === COCOON_OP.lastPayoutPayload ? 'last' : 'regular',
      query_id: payload.queryId.toString(),
      new_tokens: payload.newTokens.toString(),
      worker_state: worker.state,
      worker_tokens: worker.tokens.toString(),
      source,
      destination: worker.owner,
      amount: str(amount),
    },
  };
}

/**
 * grant_refund_payload (-> proxy): the proxy forwards to the client (0x65448ff4), which pays the refund (payout) and
 * returns the excesses; both are required. Source: the proxy; source_secondary: the client; destination and amount:
 * the payout's receiver and value.
 */
function grantRefund(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const payload = read(node, COCOON_OP.grantRefundPayload, loadMisreadPayload);
  const forward = freeChildrenWithOp(node, COCOON_OP.forward, ctx)[0];
  const payout = forward && freeChildrenWithOp(forward, COCOON_OP.payout, ctx)[0];
  const excesses = forward && freeChildrenWithOp(forward, COCOON_OP.excesses, ctx)[0];
  if (!payload || !forward || !payout || !excesses) return null;
  const amount = payout.tx.inMsg?.value ?? null;
  return {
    type: 'cocoon_grant_refund',
    nodes: [node, forward, payout, excesses],
    success: !payout.tx.aborted,
    source: node.tx.account,
    sourceSecondary: forward.tx.account,
    destination: payout.tx.account,
    amount,
    details: {
      query_id: payload.queryId.toString(),
      new_tokens_used: payload.newTokens.toString(),
      expected_address: payload.expectedAddress,
      source: node.tx.account,
      destination: payout.tx.account,
      amount: str(amount),
    },
  };
}

function signedPayout(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const op = node.tx.inMsg?.opcode;
  if (op === COCOON_OP.payoutPayload || op === COCOON_OP.lastPayoutPayload) return workerPayout(node, ctx, op);
  if (op === COCOON_OP.grantRefundPayload) return grantRefund(node, ctx);
  return null;
}

export const cocoonMatcher: Matcher = {
  name: 'cocoon',
  types: [
    'cocoon_client_top_up',
    'cocoon_client_increase_stake',
    'cocoon_client_change_secret_hash',
    'cocoon_client_register',
    'cocoon_client_request_refund',
    'cocoon_client_withdraw',
    'cocoon_register_proxy',
    'cocoon_unregister_proxy',
    'cocoon_proxy_payout',
    'cocoon_worker_payout',
    'cocoon_grant_refund',
  ],
  match(node, ctx) {
    const m = node.tx.inMsg;
    if (!m || m.source === null || m.bounced) return null;
    const signed = signedPayout(node, ctx);
    if (signed) return [signed];
    const p = parse(node, ctx);
    if (!p) return null;
    const source = p.source ?? m.source;
    const destination = p.destination ?? node.tx.account;
    const draft: ActionDraft = {
      type: p.type,
      nodes: flowNodes(node, ctx),
      success: !callFailed(node),
      source,
      destination,
      ...(p.destinationSecondary !== undefined ? { destinationSecondary: p.destinationSecondary } : {}),
      ...(p.amount !== undefined ? { amount: p.amount } : {}),
      details: {
        ...p.data,
        ...(p.withSource ? { source } : {}),
        destination,
        ...(p.amount !== undefined ? { amount: str(p.amount) } : {}),
      },
    };
    return [draft];
  },
};
