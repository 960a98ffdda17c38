// A wallet's signed request that sent nothing: the actions toncenter's classifier reports for operations intended
// but never started (its "ghost" blocks). When a trace is one transaction on an external message that sent no
// message at all (not even a log) and deployed nothing, toncenter finds no action in it and falls back to reading
// the request: every internal message the wallet was asked to send becomes an action of its own, as if it had left,
// with the wallet's transaction as its only one.
// - transfer#0f8a7ea5 (TEP-74): a jetton_transfer from the owner's jetton wallet (the message's destination; its
//   jetton is the asset when the wallet is known) to the receiver the body names; there is no receiving wallet. A
//   transfer body that does not read is a call_contract.
// - an empty body, a body shorter than an opcode, a text comment (op 0) or an encrypted one (op 0x2167da4b): a
//   ton_transfer; any other body: a call_contract.
// Participants are the wallet and, for a jetton transfer, its jetton wallet: nothing reached the receivers
// (classify.ts). Each action is keyed by its message's cell hash and position in the request (action-id.ts).
// Requests read: wallet v3 and v4 (the messages are the root's references) and v5 external_signed#7369676e (its
// out-action list, numbered from the list's head, the last action, back; a list with another action than
// send_msg is not read). Extra currencies are not carried over, as toncenter does not.
import type { Address, Cell, MessageRelaxed } from '@ton/core';
import { JETTON_OP, type KnownBody, parseKnownBody } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceNode } from '../types.ts';
import { deployOf } from './basic.ts';
import { transferDetails } from './jetton.ts';
import { rawAddress } from './replies.ts';
import { COMMENT_OP, commentOf, ENCRYPTED_COMMENT_OP, opcodeHex, str } from './util.ts';

/** A draft the driver keys by the intended message (action-id.ts) and whose receivers it leaves out. */
type IntendedDraft = ActionDraft & Required<Pick<ActionDraft, 'intended'>>;

/** One message of a request: its cell, its place as toncenter counts it, and the message it holds. */
interface RequestedMessage {
  cell: Cell;
  index: number;
  message: MessageRelaxed;
}

/** The message cells of an out-action list of send_msg actions, from the head (the last action) back. */
function outListCells(head: Cell): Cell[] {
  const cells: Cell[] = [];
  for (let c = head; c.refs.length === 2; c = c.refs[0]!) cells.push(c.refs[1]!);
  return cells;
}

/** The messages a signed wallet request asks for, in toncenter's numbering; none for other bodies. */
function requestedMessages(body: Cell): RequestedMessage[] {
  const req = parseKnownBody(body, { direction: 'external' });
  let messages: MessageRelaxed[] = [];
  let cells = body.refs;
  if (req?.type === 'wallet_v3_signed_request') messages = req.messages.map((m) => m.message);
  else if (req?.type === 'wallet_v4_signed_request' && req.action.op === 0) {
    messages = req.action.messages.map((m) => m.message);
  } else if (req?.type === 'w5_external_signed_request' && req.actions) {
    const sends = req.actions.flatMap((a) => (a.type === 'sendMsg' ? [a.outMsg] : []));
    if (sends.length === req.actions.length) {
      messages = sends.reverse();
      cells = outListCells(body.refs[0]!);
    }
  }
  return messages.map((message, index) => ({ cell: cells[index]!, index, message }));
}

/** The root transaction of a trace that holds nothing else: an external message that sent and deployed nothing. */
function loneExternal(node: TraceNode): Cell | null {
  const m = node.tx.inMsg;
  if (node.parent || !m || m.source !== null || !m.body || node.tx.outMsgs.length > 0 || deployOf(node)) return null;
  return m.body;
}

const opcodeOfBody = (body: Cell): number | null =>
  body.bits.length >= 32 ? body.beginParse(true).loadUint(32) >>> 0 : null;

type Transfer = Extract<KnownBody, { type: 'jetton_transfer' }>;

interface Intended {
  wallet: TraceNode;
  destination: string;
  value: bigint;
  bounce: boolean;
  body: Cell;
  key: NonNullable<ActionDraft['intended']>;
}

function jettonTransfer(it: Intended, t: Transfer, receiver: Address, ctx: MatchContext): IntendedDraft {
  const sender = it.wallet.tx.account;
  const asset = ctx.interfaces.get(it.destination)?.jettonWallet?.jetton ?? null;
  const to = rawAddress(receiver)!;
  return {
    type: 'jetton_transfer',
    nodes: [it.wallet],
    // As a contract call (call-failed.ts): failed unless it carried no coins.
    success: it.value === 0n,
    source: sender,
    sourceSecondary: it.destination,
    destination: to,
    destinationSecondary: null,
    asset,
    amount: t.amount,
    details: {
      asset,
      sender,
      receiver: to,
      sender_jetton_wallet: it.destination,
      receiver_jetton_wallet: null,
      ...transferDetails(t, t.amount, t.forwardTonAmount),
    },
    intended: it.key,
  };
}

function tonTransfer(it: Intended): IntendedDraft {
  const source = it.wallet.tx.account;
  const comment = commentOf(it.body);
  return {
    type: 'ton_transfer',
    nodes: [it.wallet],
    // Failed, except a non-bounceable transfer from a wallet that is still uninit (toncenter's TonTransferBlock).
    success: !it.bounce && it.wallet.tx.endStatus === 'uninit',
    source,
    destination: it.destination,
    value: it.value,
    details: {
      source,
      destination: it.destination,
      value: it.value.toString(),
      comment: comment?.text ?? null,
      encrypted: comment?.encrypted ?? false,
    },
    intended: it.key,
  };
}

function contractCall(it: Intended, opcode: number): IntendedDraft {
  const source = it.wallet.tx.account;
  return {
    type: 'call_contract',
    nodes: [it.wallet],
    success: it.value === 0n,
    source,
    destination: it.destination,
    value: it.value,
    opcode,
    details: { opcode: opcodeHex(opcode), source, destination: it.destination, value: str(it.value) },
    intended: it.key,
  };
}

function intendedAction(wallet: TraceNode, r: RequestedMessage, ctx: MatchContext): IntendedDraft | null {
  const { info, body } = r.message;
  // An external-out message (a log) in a request still takes its place in the numbering.
  if (info.type !== 'internal') return null;
  const it: Intended = {
    wallet,
    destination: rawAddress(info.dest)!,
    value: info.value.coins,
    bounce: info.bounce,
    body,
    key: { cellHash: r.cell.hash(), index: r.index },
  };
  const opcode = opcodeOfBody(body);
  if (opcode === null || opcode === COMMENT_OP || opcode === ENCRYPTED_COMMENT_OP) return tonTransfer(it);
  if (opcode === JETTON_OP.transfer) {
    const t = parseKnownBody(body, { direction: 'internal' });
    if (t?.type === 'jetton_transfer' && t.destination) return jettonTransfer(it, t, t.destination, ctx);
  }
  return contractCall(it, opcode);
}

/** The destinations of a lone external's requested messages (their jetton wallets are looked up). */
function requestedDestinations(node: TraceNode): string[] {
  const body = loneExternal(node);
  if (!body) return [];
  return requestedMessages(body).flatMap(({ message: { info } }) =>
    info.type === 'internal' ? [rawAddress(info.dest)!] : [],
  );
}

export const failedExternalMatcher: Matcher = {
  name: 'failed-external',
  types: ['jetton_transfer', 'ton_transfer', 'call_contract'],
  match(node, ctx) {
    const body = loneExternal(node);
    if (!body) return null;
    const drafts = requestedMessages(body).flatMap((r) => intendedAction(node, r, ctx) ?? []);
    return drafts.length > 0 ? drafts : null;
  },
  addressesFor: requestedDestinations,
};
