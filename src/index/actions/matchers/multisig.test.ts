// Multisig v2 actions over real TVM runs (@ton/sandbox with the devnet's multisig and order code): a signer's
// proposal, an approval reaching the threshold (approve + composite execute paying a receiver), a late approval
// refused (112), a proposer's order approved by an "approve" comment, and a look-alike nobody verified. Expected
// details come from the message bodies read here from the TL-B of contracts.md §6.2 and from the contracts' own
// getters, not from the parsers the matchers use.
import { createHash } from 'node:crypto';
import { type Address, Cell, contractAddress, Dictionary, internal, type Slice, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  getOrderAddressArgs,
  multisigStateInit,
  orderCell,
  readMultisigOrderData,
  readOrderAddress,
  storeMultisigApprove,
  storeMultisigNewOrder,
  textComment,
  toCell,
} from '../../../devnet/contracts/index.ts';
import { classifyTrace } from '../classify.ts';
import { interfacesOf } from '../interfaces.ts';
import { expandSupported, isShown } from '../supported.ts';
import type { Action, ContractInfo, Interfaces, TraceInput } from '../types.ts';
import { nodeOf, rawOf, sandboxTrace } from './sandbox-trace.test-util.ts';

const HOUR = 3600;
const OP = { newOrder: 0xf718510f, init: 0x9c73fba2, approve: 0xa762230f, execute: 0x75097f5d };

// --- bodies read from the TL-B text, independently of src/index/decode ---------------------------------------
function readNewOrder(s: Slice) {
  expect(s.loadUint(32)).toBe(OP.newOrder);
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    signer: s.loadBit(),
    index: s.loadUint(8),
    expirationDate: s.loadUint(48),
    order: s.loadRef(),
  };
}

function readInit(s: Slice) {
  expect(s.loadUint(32)).toBe(OP.init);
  s.loadUintBig(64);
  s.loadUint(8);
  const signers = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), s.loadRef());
  s.loadUint(48);
  const order = s.loadRef();
  return { signers: signers.values().map(rawOf), order, approveOnInit: s.loadBit() };
}

function readExecute(s: Slice) {
  expect(s.loadUint(32)).toBe(OP.execute);
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    expirationDate: s.loadUint(48),
    approvalsNum: s.loadUint(8),
    signersHash: s.loadBuffer(32),
    order: s.loadRef(),
  };
}

const bodyOf = (trace: TraceInput, q: Parameters<typeof nodeOf>[1]) => nodeOf(trace, q).tx.inMsg!.body!.beginParse();
const hashOfBoc = (b64: unknown) => Cell.fromBase64(String(b64)).hash().toString('hex');
const byType = (actions: Action[], type: string) => actions.filter((a) => a.type === type);
const one = (actions: Action[], type: string) => {
  const found = byType(actions, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

interface Chain {
  bc: Blockchain;
  a: SandboxContract<TreasuryContract>;
  b: SandboxContract<TreasuryContract>;
  c: SandboxContract<TreasuryContract>;
  proposer: SandboxContract<TreasuryContract>;
  receiver: SandboxContract<TreasuryContract>;
  multisig: Address;
  signers: string[];
}

async function chain(): Promise<Chain> {
  const bc = await Blockchain.create();
  const [a, b, c, proposer, receiver] = await Promise.all(
    ['a', 'b', 'c', 'proposer', 'receiver'].map((n) => bc.treasury(n)),
  );
  const init = multisigStateInit({
    threshold: 2,
    signers: [a!.address, b!.address, c!.address],
    proposers: [proposer!.address],
  });
  const multisig = contractAddress(0, init);
  await a!.send({ to: multisig, value: toNano('5'), init, bounce: false });
  const signers = [a!, b!, c!].map((t) => rawOf(t.address));
  return { bc, a: a!, b: b!, c: c!, proposer: proposer!, receiver: receiver!, multisig, signers };
}

/** What the pipeline would know: the multisig and its orders, read through their getters. */
async function interfaces(ch: Chain, seqnos: bigint[]): Promise<Interfaces> {
  const map = new Map<string, ContractInfo>([[rawOf(ch.multisig), { multisig: true }]]);
  for (const seqno of seqnos) {
    const at = await ch.bc.runGetMethod(ch.multisig, 'get_order_address', getOrderAddressArgs(seqno));
    const order = readOrderAddress(at.stack);
    const d = readMultisigOrderData((await ch.bc.runGetMethod(order, 'get_order_data')).stack);
    if (!d.init) throw new Error('order not initialised');
    map.set(rawOf(order), {
      multisigOrder: {
        multisig: rawOf(d.multisig),
        orderSeqno: d.orderSeqno.toString(),
        signers: d.signers.map(rawOf),
      },
    });
  }
  return interfacesOf(map);
}

function orderPaying(receiver: Address, value: bigint): Cell {
  return orderCell([
    {
      type: 'send_message',
      mode: 3,
      message: internal({ to: receiver, value, bounce: false, body: textComment('paid') }),
    },
  ]);
}

function newOrder(o: { qid: bigint; seqno: bigint; signer: boolean; index: number; exp: number; order: Cell }) {
  return toCell(
    storeMultisigNewOrder({
      queryId: o.qid,
      orderSeqno: o.seqno,
      isSigner: o.signer,
      index: o.index,
      expirationDate: o.exp,
      order: o.order,
    }),
  );
}

const now = () => Math.floor(Date.now() / 1000);
const sorted = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))].sort();

describe('multisig v2 matchers over sandbox runs', () => {
  let ch: Chain;
  let orderAddress: Address;
  let created: TraceInput;
  let approved: TraceInput;
  let late: TraceInput;
  let known: Interfaces;
  const exp = now() + HOUR;

  beforeAll(async () => {
    ch = await chain();
    const order = orderPaying(ch.receiver.address, toNano('1'));
    const r1 = await ch.a.send({
      to: ch.multisig,
      value: toNano('0.5'),
      body: newOrder({ qid: 11n, seqno: 0n, signer: true, index: 0, exp, order }),
    });
    created = sandboxTrace(r1.transactions);
    orderAddress = readOrderAddress(
      (await ch.bc.runGetMethod(ch.multisig, 'get_order_address', getOrderAddressArgs(0n))).stack,
    );
    const r2 = await ch.b.send({
      to: orderAddress,
      value: toNano('0.1'),
      body: toCell(storeMultisigApprove({ queryId: 21n, signerIndex: 1 })),
    });
    approved = sandboxTrace(r2.transactions);
    const r3 = await ch.c.send({
      to: orderAddress,
      value: toNano('0.1'),
      body: toCell(storeMultisigApprove({ queryId: 22n, signerIndex: 2 })),
    });
    late = sandboxTrace(r3.transactions);
    known = await interfaces(ch, [0n]);
  });

  it('new_order -> init is one multisig_create_order with the proposal as the bodies state it', () => {
    const actions = classifyTrace(created, known);
    const a = one(actions, 'multisig_create_order');
    const req = readNewOrder(bodyOf(created, { from: ch.a.address, to: ch.multisig, op: OP.newOrder }));
    const init = readInit(bodyOf(created, { from: ch.multisig, to: orderAddress, op: OP.init }));
    expect(a.details).toEqual({
      query_id: req.queryId.toString(),
      order_seqno: req.orderSeqno.toString(),
      is_created_by_signer: req.signer,
      is_signed_by_creator: init.approveOnInit,
      creator_index: req.index,
      expiration_date: req.expirationDate,
      order_boc: expect.any(String),
      source: rawOf(ch.a.address),
      destination: rawOf(ch.multisig),
      destination_order: rawOf(orderAddress),
    });
    expect(a.details).toMatchObject({ query_id: '11', order_seqno: '0', creator_index: 0, is_signed_by_creator: true });
    expect(hashOfBoc(a.details.order_boc)).toBe(init.order.hash().toString('hex'));
    expect(a.success).toBe(true);
    expect([a.source, a.destination, a.destinationSecondary]).toEqual([
      rawOf(ch.a.address),
      rawOf(ch.multisig),
      rawOf(orderAddress),
    ]);
    // The proposer's wallet transaction (which sent new_order), the multisig's and the order's.
    expect(a.txHashes).toEqual(created.nodes.map((n) => n.tx.hash));
    expect(a.accounts).toEqual(sorted([...ch.signers, rawOf(ch.multisig), rawOf(orderAddress)]));
    expect(init.signers).toEqual(ch.signers);
    expect(a.ancestorType).toEqual([]);
    expect(a.parentActionId).toBeNull();
  });

  it('action_id is sha256(place of the first transaction, type) and stable across classifications', () => {
    const a = one(classifyTrace(created, known), 'multisig_create_order');
    // The multisig's transaction sits below the proposer's root transaction: its key is the root's inbound message
    // hash followed by new_order's offset in the root's out-list (created_lt - root lt, 64-bit big-endian).
    const first = nodeOf(created, { to: ch.multisig, op: OP.newOrder });
    expect(first.parent).toBe(created.root);
    const offset = Buffer.alloc(8);
    offset.writeBigUInt64BE(first.tx.inMsg!.createdLt! - created.root.tx.lt);
    const place = createHash('sha256')
      .update(Buffer.from(created.root.tx.inMsg!.hash, 'base64'))
      .update(offset)
      .digest();
    const id = createHash('sha256').update(place.toString('base64')).update('multisig_create_order').digest('base64');
    expect(a.actionId).toBe(id);
    expect(one(classifyTrace(created, known), 'multisig_create_order').actionId).toBe(id);
  });

  it('the approval reaching the threshold: multisig_approve, then a composite multisig_execute', () => {
    const actions = classifyTrace(approved, known);
    const ap = one(actions, 'multisig_approve');
    expect(ap.details).toEqual({
      signer_index: 1,
      exit_code: 0,
      source: rawOf(ch.b.address),
      destination: rawOf(orderAddress),
    });
    expect(ap.success).toBe(true);
    // b's wallet (initiator), the order taking approve, b taking approve_accepted; not the execute that follows.
    const approveNode = nodeOf(approved, { from: ch.b.address, to: orderAddress, op: OP.approve });
    const reply = nodeOf(approved, { from: orderAddress, to: ch.b.address });
    expect(ap.txHashes).toEqual([approveNode.parent!, approveNode, reply].map((n) => n.tx.hash));
    expect(ap.accounts).toEqual(sorted([...ch.signers, rawOf(orderAddress)]));

    const ex = one(actions, 'multisig_execute');
    const execNode = nodeOf(approved, { from: orderAddress, to: ch.multisig, op: OP.execute });
    const body = readExecute(execNode.tx.inMsg!.body!.beginParse());
    expect(ex.details).toEqual({
      query_id: body.queryId.toString(),
      order_seqno: body.orderSeqno.toString(),
      expiration_date: body.expirationDate,
      approvals_num: body.approvalsNum,
      signers_hash: body.signersHash.toString('base64'),
      order_boc: expect.any(String),
      source: rawOf(orderAddress),
      destination: rawOf(ch.multisig),
    });
    expect(ex.details).toMatchObject({ query_id: '21', order_seqno: '0', approvals_num: 2, expiration_date: exp });
    expect(hashOfBoc(ex.details.order_boc)).toBe(body.order.hash().toString('hex'));
    expect(ex.success).toBe(true);
    expect(ex.txHashes).toEqual([execNode.parent!, execNode].map((n) => n.tx.hash));
    expect(ex.parentActionId).toBeNull();

    // The payment the multisig made is the execute's child, tagged with its type.
    const pay = one(actions, 'ton_transfer');
    expect(pay.parentActionId).toBe(ex.actionId);
    expect(pay.ancestorType).toEqual(['multisig_execute']);
    const paid = nodeOf(approved, { from: ch.multisig, to: ch.receiver.address });
    expect(pay.details).toMatchObject({
      source: rawOf(ch.multisig),
      destination: rawOf(ch.receiver.address),
      value: paid.tx.inMsg!.value!.toString(),
      comment: 'paid',
    });
    expect(paid.tx.inMsg!.value).toBe(toNano('1'));
  });

  it('the version rule: v1 sees the payment instead of multisig_execute, v2 and latest the reverse', () => {
    const actions = classifyTrace(approved, known);
    const shown = (names: string[] | undefined) => {
      const supported = expandSupported(names);
      return actions.filter((a) => isShown(a.type, a.ancestorType, supported)).map((a) => a.type);
    };
    expect(shown(['v1'])).toEqual(['ton_transfer']);
    expect(shown(['v2'])).toEqual(['multisig_approve', 'multisig_execute']);
    expect(shown(['latest'])).toEqual(['multisig_approve', 'multisig_execute']);
    expect(shown(undefined)).toEqual(['multisig_approve', 'multisig_execute']);
    // Asking for the topic alone still adds v1, which hides nothing under multisig_execute's own type.
    expect(shown(['multisig'])).toEqual(['multisig_approve', 'multisig_execute']);
  });

  it('a late approval is answered approve_rejected(112): multisig_approve failed, with the exit code', () => {
    const actions = classifyTrace(late, known);
    const ap = one(actions, 'multisig_approve');
    const reply = nodeOf(late, { from: orderAddress, to: ch.c.address });
    const s = reply.tx.inMsg!.body!.beginParse();
    expect(s.loadUint(32)).toBe(0xafaf283e);
    s.loadUintBig(64);
    const exitCode = s.loadUint(32);
    expect(exitCode).toBe(112);
    expect(ap.details).toEqual({
      signer_index: 2,
      exit_code: exitCode,
      source: rawOf(ch.c.address),
      destination: rawOf(orderAddress),
    });
    expect(ap.success).toBe(false);
    expect(byType(actions, 'multisig_execute')).toEqual([]);
  });

  it('a proposer proposes without approving; an "approve" comment approves with signer_index -1', async () => {
    const order = orderPaying(ch.receiver.address, toNano('0.2'));
    const r = await ch.proposer.send({
      to: ch.multisig,
      value: toNano('0.5'),
      body: newOrder({ qid: 31n, seqno: 1n, signer: false, index: 0, exp, order }),
    });
    const proposal = sandboxTrace(r.transactions);
    const ifaces = await interfaces(ch, [0n, 1n]);
    const co = one(classifyTrace(proposal, ifaces), 'multisig_create_order');
    expect(co.details).toMatchObject({
      query_id: '31',
      order_seqno: '1',
      is_created_by_signer: false,
      is_signed_by_creator: false,
      creator_index: 0,
      source: rawOf(ch.proposer.address),
    });
    const second = readOrderAddress(
      (await ch.bc.runGetMethod(ch.multisig, 'get_order_address', getOrderAddressArgs(1n))).stack,
    );
    const c = await ch.c.send({ to: second, value: toNano('0.1'), body: textComment('approve') });
    const byComment = sandboxTrace(c.transactions);
    const ap = one(classifyTrace(byComment, ifaces), 'multisig_approve');
    expect(ap.details).toEqual({
      signer_index: -1,
      exit_code: 0,
      source: rawOf(ch.c.address),
      destination: rawOf(second),
    });
    expect(ap.success).toBe(true);
    // One approval of a proposer's order is below the threshold of 2: nothing executes.
    expect(byType(classifyTrace(byComment, ifaces), 'multisig_execute')).toEqual([]);
  });

  it('without the order among the verified contracts, nothing is a multisig action', () => {
    const none = interfacesOf(new Map());
    for (const t of [created, approved, late]) {
      const types = classifyTrace(t, none).map((a) => a.type);
      expect(types.filter((x) => x.startsWith('multisig_'))).toEqual([]);
      expect(types).toContain('call_contract');
    }
  });
});
