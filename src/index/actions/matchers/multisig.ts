// Multisig v2 (contracts.md §6): new_order -> init is multisig_create_order, approve (or an "approve" comment) ->
// approve_accepted/approve_rejected is multisig_approve, and execute (order -> multisig) is multisig_execute. As
// toncenter's classifier: each needs the order to be a known multisig order (a look-alike contract is left to the
// basic matchers), its signers are participants, and each action ends where the next begins (the execute an
// approval triggers is its own action). multisig_execute is composite: the messages the multisig sends for the
// order are classified again as its children (the ton_transfer or jetton_transfer it pays), seen by clients that
// do not know multisig_execute.
import { formatAddressV3, MULTISIG_OP } from '../../../ton/index.ts';
import type { ActionDraft, Interfaces, Matcher, TraceNode } from '../types.ts';
import { callFailed } from './call-failed.ts';
import { bocB64, childrenWithOp, commentOf, inBody, internalIn } from './util.ts';

const raw = formatAddressV3;

const orderAt = (interfaces: Interfaces, address: string | null | undefined) =>
  address ? interfaces.get(address)?.multisigOrder : undefined;

function createOrderOf(node: TraceNode, interfaces: Interfaces): ActionDraft | null {
  const m = internalIn(node);
  const req = inBody(node, 'mulisig_new_order');
  if (!m?.source || !req) return null;
  const initNode = childrenWithOp(node, MULTISIG_OP.init)[0];
  const init = initNode ? inBody(initNode, 'multisig_order_init') : null;
  const order = initNode ? orderAt(interfaces, initNode.tx.account) : undefined;
  if (!initNode || !init || !order) return null;
  const multisig = node.tx.account;
  const orderAddress = initNode.tx.account;
  return {
    type: 'multisig_create_order',
    nodes: [node, initNode],
    success: true,
    source: m.source,
    destination: multisig,
    destinationSecondary: orderAddress,
    accounts: order.signers ?? init.signers.map(raw),
    details: {
      query_id: req.queryId.toString(),
      // As toncenter: the seqno the proposer asked for (2^256-1 means "the next one").
      order_seqno: req.orderSeqno.toString(),
      is_created_by_signer: req.signer,
      is_signed_by_creator: init.approveOnInit,
      creator_index: req.index,
      expiration_date: req.expirationDate,
      order_boc: bocB64(init.order),
      source: m.source,
      destination: multisig,
      destination_order: orderAddress,
    },
  };
}

function approveOf(node: TraceNode, interfaces: Interfaces): ActionDraft | null {
  const m = internalIn(node);
  if (!m?.source) return null;
  const byOp = inBody(node, 'multisig_approve');
  if (!byOp && (m.opcode !== 0 || commentOf(m.body)?.text !== 'approve')) return null;
  const order = orderAt(interfaces, node.tx.account);
  if (!order) return null;
  const accepted = childrenWithOp(node, MULTISIG_OP.approveAccepted)[0];
  const rejectedNode = accepted ? undefined : childrenWithOp(node, MULTISIG_OP.approveRejected)[0];
  const rejected = rejectedNode ? inBody(rejectedNode, 'multisig_approve_rejected') : null;
  const reply = accepted ?? (rejected ? rejectedNode : undefined);
  if (!reply) return null;
  return {
    type: 'multisig_approve',
    nodes: [node, reply],
    success: accepted !== undefined,
    source: m.source,
    destination: node.tx.account,
    accounts: order.signers ?? [],
    details: {
      // An approval by comment does not name its signer index.
      signer_index: byOp ? byOp.signerIndex : -1,
      exit_code: rejected ? rejected.exitCode : 0,
      source: m.source,
      destination: node.tx.account,
    },
  };
}

function executeOf(node: TraceNode, interfaces: Interfaces): ActionDraft | null {
  const m = internalIn(node);
  const req = inBody(node, 'multisig_execute');
  const order = orderAt(interfaces, m?.source);
  if (!m?.source || !req || !order) return null;
  const multisig = node.tx.account;
  return {
    type: 'multisig_execute',
    nodes: [node],
    success: !callFailed(node),
    source: m.source,
    destination: multisig,
    accounts: order.signers ?? [],
    details: {
      query_id: req.queryId.toString(),
      order_seqno: req.orderSeqno.toString(),
      expiration_date: req.expirationDate,
      approvals_num: req.approvalsNum,
      signers_hash: req.signersHash.toString('base64'),
      order_boc: bocB64(req.order),
      source: m.source,
      destination: multisig,
    },
    inner: node.children,
  };
}

export const multisigMatcher: Matcher = {
  name: 'multisig',
  types: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  match(node, ctx) {
    const op = node.tx.inMsg?.opcode;
    let d: ActionDraft | null = null;
    if (op === MULTISIG_OP.newOrder) d = createOrderOf(node, ctx.interfaces);
    else if (op === MULTISIG_OP.approve || op === 0) d = approveOf(node, ctx.interfaces);
    else if (op === MULTISIG_OP.execute) d = executeOf(node, ctx.interfaces);
    return d ? [d] : null;
  },
};
