// Vesting wallet internal requests (contracts.md §7.2): send#a7733acd from the owner is vesting_send_message,
// add_whitelist#7258a69b from the vesting sender is vesting_add_whitelist. As toncenter's classifier: any
// destination (no interface needed), the vesting's reply (0xf7733acd / 0xf258a69b) must be there and belongs to the
// action, which then counts as successful. vesting_send_message is composite: the message the vesting sends on the
// owner's behalf is classified again as its child (an ordinary ton_transfer, jetton_transfer…), seen by clients
// that do not know vesting_send_message.
import { type Cell, loadMessageRelaxed } from '@ton/core';
import { formatAddressV3, VESTING_OP } from '../../../ton/index.ts';
import type { ActionDraft, Matcher, TraceNode } from '../types.ts';
import { bocB64, childrenWithOp, inBody, internalIn } from './util.ts';

const raw = formatAddressV3;

/** send#a7733acd query_id:uint64 send_mode:uint8 msg:^MessageRelaxed, when the message is an internal one. */
function readSend(body: Cell): { queryId: bigint; cell: Cell; destination: string; value: bigint } | null {
  try {
    const s = body.beginParse();
    if (s.loadUint(32) !== VESTING_OP.send) return null;
    const queryId = s.loadUintBig(64);
    s.skip(8);
    const cell = s.loadRef();
    const msg = loadMessageRelaxed(cell.beginParse());
    if (msg.info.type !== 'internal') return null;
    return { queryId, cell, destination: raw(msg.info.dest), value: msg.info.value.coins };
  } catch {
    return null;
  }
}

function sendOf(node: TraceNode): ActionDraft | null {
  const m = internalIn(node);
  const req = m?.body ? readSend(m.body) : null;
  const response = childrenWithOp(node, VESTING_OP.sendResponse)[0];
  if (!m?.source || !req || !response) return null;
  const vesting = node.tx.account;
  return {
    type: 'vesting_send_message',
    nodes: [node, response],
    success: true,
    source: m.source,
    destination: vesting,
    destinationSecondary: req.destination,
    amount: req.value,
    details: {
      query_id: req.queryId.toString(),
      message_boc: bocB64(req.cell),
      source: m.source,
      vesting,
      destination: req.destination,
      amount: req.value.toString(),
    },
    inner: node.children.filter((c) => c !== response),
  };
}

function addWhitelistOf(node: TraceNode): ActionDraft | null {
  const m = internalIn(node);
  const req = inBody(node, 'vesting_add_white_list');
  if (!m?.source || !req) return null;
  const response = childrenWithOp(node, VESTING_OP.addWhitelistResponse)[0];
  if (!response) return null;
  const vesting = node.tx.account;
  return {
    type: 'vesting_add_whitelist',
    nodes: [node, response],
    success: true,
    source: m.source,
    destination: vesting,
    details: {
      query_id: req.queryId.toString(),
      accounts_added: req.addresses.map(raw),
      source: m.source,
      vesting,
    },
  };
}

export const vestingMatcher: Matcher = {
  name: 'vesting',
  types: ['vesting_send_message', 'vesting_add_whitelist'],
  match(node) {
    const op = node.tx.inMsg?.opcode;
    const d = op === VESTING_OP.send ? sendOf(node) : op === VESTING_OP.addWhitelist ? addWhitelistOf(node) : null;
    return d ? [d] : null;
  },
};
