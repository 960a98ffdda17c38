// The multisig v2 contracts on @ton/sandbox: getter stacks against contracts.md §6.3 (exact entry types), the
// order address derivation against the account the emulator created, and the message chains of §6.1-6.2
// (new_order -> init, approve -> approve_accepted/approve_rejected + execute -> the order's actions), with bodies
// read by a parser written here from the TL-B text, not by the wrappers under test.
import {
  type Address,
  beginCell,
  type Cell,
  contractAddress,
  Dictionary,
  internal,
  type Slice,
  toNano,
} from '@ton/core';
import { Blockchain, createShardAccount, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { MULTISIG_OP } from '../../ton/index.ts';
import {
  getOrderAddressArgs,
  getOrderEstimateArgs,
  MAX_ORDER_SEQNO,
  MULTISIG_CODE,
  MULTISIG_ERROR,
  MULTISIG_ORDER_CODE,
  type MultisigAction,
  multisigOrderAddress,
  multisigOrderStateInit,
  multisigStateInit,
  orderCell,
  parseOrder,
  readMultisigData,
  readMultisigOrderData,
  readOrderAddress,
  readOrderEstimate,
  signersCell,
  storeMultisigApprove,
  storeMultisigExecute,
  storeMultisigExecuteInternal,
  storeMultisigNewOrder,
} from './multisig.ts';
import { textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, isAborted, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';

interface Setup {
  chain: Blockchain;
  a: SandboxContract<TreasuryContract>;
  b: SandboxContract<TreasuryContract>;
  c: SandboxContract<TreasuryContract>;
  proposer: SandboxContract<TreasuryContract>;
  receiver: SandboxContract<TreasuryContract>;
  multisig: Address;
}

const HOUR = 3600;

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function pay(to: Address, value: bigint): MultisigAction {
  return { type: 'send_message', mode: 3, message: internal({ to, value, bounce: false, body: textComment('paid') }) };
}

function newOrderBody(o: {
  order: Cell;
  index: number;
  isSigner?: boolean;
  seqno?: bigint;
  exp?: number;
  qid?: bigint;
}) {
  return toCell(
    storeMultisigNewOrder({
      queryId: o.qid ?? 1n,
      orderSeqno: o.seqno ?? MAX_ORDER_SEQNO,
      isSigner: o.isSigner ?? true,
      index: o.index,
      expirationDate: o.exp ?? now() + HOUR,
      order: o.order,
    }),
  );
}

function approveBody(signerIndex: number, queryId = 7n): Cell {
  return toCell(storeMultisigApprove({ queryId, signerIndex }));
}

async function deployMultisig(
  from: SandboxContract<TreasuryContract>,
  v: Parameters<typeof multisigStateInit>[0],
): Promise<Address> {
  const init = multisigStateInit(v);
  const address = contractAddress(0, init);
  const r = await from.send({ to: address, value: toNano('5'), init, bounce: false });
  expect(exitCode(findTx(r.transactions, { from: from.address, to: address }))).toBe(0);
  return address;
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const [a, b, c, proposer, receiver] = await Promise.all(
    ['signer-a', 'signer-b', 'signer-c', 'proposer', 'receiver'].map((n) => chain.treasury(n)),
  );
  const multisig = await deployMultisig(a!, {
    threshold: 2,
    signers: [a!.address, b!.address, c!.address],
    proposers: [proposer!.address],
  });
  return { chain, a: a!, b: b!, c: c!, proposer: proposer!, receiver: receiver!, multisig };
}

async function orderAt(chain: Blockchain, multisig: Address, seqno: bigint): Promise<Address> {
  return readOrderAddress(await runGetter(chain, multisig, 'get_order_address', getOrderAddressArgs(seqno)));
}

// --- bodies read straight from the TL-B of contracts.md §6.2 --------------------------------------------------

// Hashmap 8 MsgAddressInt through @ton/core's generic dictionary reader, not through our wrappers.
function loadHashmap8Addresses(root: Cell): Address[] {
  const d = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), root);
  return d
    .keys()
    .sort((x, y) => x - y)
    .map((k) => d.get(k)!);
}

function parseInit(s: Slice) {
  expect(s.loadUint(32)).toBe(0x9c73fba2);
  const queryId = s.loadUintBig(64);
  const threshold = s.loadUint(8);
  const signers = s.loadRef();
  const expirationDate = s.loadUint(48);
  const order = s.loadRef();
  const approveOnInit = s.loadBit();
  const signerIndex = approveOnInit ? s.loadUint(8) : null;
  s.endParse();
  return { queryId, threshold, signers, expirationDate, order, signerIndex };
}

function parseExecute(s: Slice) {
  expect(s.loadUint(32)).toBe(0x75097f5d);
  const v = {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    expirationDate: s.loadUint(48),
    approvalsNum: s.loadUint(8),
    signersHash: s.loadBuffer(32),
    order: s.loadRef(),
  };
  s.endParse();
  return v;
}

function parseApproveReply(s: Slice) {
  const op = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const exit = op === 0xafaf283e ? s.loadUint(32) : null;
  s.endParse();
  return { op, queryId, exitCode: exit };
}

/** Getter ids in a code cell laid out as SETCP0 + DICTPUSHCONST (contracts.md §1.1); ids below 0x10000 are entries. */
function getterIds(code: Cell): number[] {
  const s = code.beginParse();
  expect(s.loadUint(16)).toBe(0xff00);
  expect(s.loadUint(13)).toBe(0b1111010010100);
  s.loadBit();
  const keyBits = s.loadUint(10);
  const dict = Dictionary.loadDirect(
    Dictionary.Keys.Int(keyBits),
    { serialize: () => {}, parse: () => null },
    s.loadRef(),
  );
  return dict
    .keys()
    .filter((id) => id >= 0x10000)
    .sort((x, y) => x - y);
}

describe('multisig v2 code', () => {
  it('keeps the standard method dictionary with the getters under the ids of contracts.md §0', () => {
    // get_order_estimate 93855, get_multisig_data 107307, get_order_address 111399; get_order_data 123832
    expect(getterIds(MULTISIG_CODE)).toEqual([93855, 107307, 111399]);
    expect(getterIds(MULTISIG_ORDER_CODE)).toEqual([123832]);
  });
});

describe('multisig v2 and its orders (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('get_multisig_data and get_order_address have the §6.3 stack layout', async () => {
    const { chain, a, b, c, proposer, multisig } = s;
    const data = await runGetter(chain, multisig, 'get_multisig_data');
    expect(stackTypes(data)).toEqual(['int', 'int', 'cell', 'cell']);
    const md = readMultisigData(data);
    expect(md.nextOrderSeqno).toBe(0n);
    expect(md.threshold).toBe(2);
    expect(loadHashmap8Addresses((data[2] as { cell: Cell }).cell).map((x) => x.toRawString())).toEqual(
      [a, b, c].map((t) => t.address.toRawString()),
    );
    expect(md.proposers.map((x) => x.toRawString())).toEqual([proposer.address.toRawString()]);

    // No proposers: the 4th entry is null, not an empty cell (contracts.md §6.3, verified on the reference).
    const bare = await deployMultisig(a, { threshold: 1, signers: [a.address] });
    expect(stackTypes(await runGetter(chain, bare, 'get_multisig_data'))).toEqual(['int', 'int', 'cell', 'null']);

    const addr = await runGetter(chain, multisig, 'get_order_address', getOrderAddressArgs(5n));
    expect(stackTypes(addr)).toEqual(['slice']);
    expect(readOrderAddress(addr).equals(multisigOrderAddress(multisig, 5n))).toBe(true);
  });

  it('an order before init answers get_order_data with the multisig, the seqno and seven nulls', async () => {
    const { chain, multisig } = s;
    const init = multisigOrderStateInit(multisig, 3n);
    const address = contractAddress(0, init);
    await chain.setShardAccount(
      address,
      createShardAccount({ address, code: init.code!, data: init.data!, balance: toNano('1') }),
    );
    const stack = await runGetter(chain, address, 'get_order_data');
    expect(stackTypes(stack)).toEqual(['slice', 'int', 'null', 'null', 'null', 'null', 'null', 'null', 'null']);
    const od = readMultisigOrderData(stack);
    expect(od.init).toBe(false);
    expect(od.multisig.equals(multisig)).toBe(true);
    expect(od.orderSeqno).toBe(3n);
  });

  it('new_order by a signer deploys the order (init, bounceable, order code StateInit) with its approval', async () => {
    const { chain, a, b, c, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const exp = now() + HOUR;
    const r = await a.send({
      to: multisig,
      value: toNano('0.5'),
      body: newOrderBody({ order, index: 0, exp, qid: 11n }),
    });
    const tx = findTx(r.transactions, { from: a.address, to: multisig, op: MULTISIG_OP.newOrder });
    expect(exitCode(tx)).toBe(0);
    const [deploy] = outMessages(tx);
    expect(outMessages(tx)).toHaveLength(1);
    if (deploy?.info.type !== 'internal') throw new Error('expected an internal init message');
    expect(deploy.info.bounce).toBe(true);
    // The emulator created the order where the getter says; its StateInit is the raw order code + multisig ‖ seqno.
    const expected = await orderAt(chain, multisig, 0n);
    expect(deploy.info.dest.equals(expected)).toBe(true);
    expect(deploy.init?.code?.hash()).toEqual(MULTISIG_ORDER_CODE.hash());
    const initData = deploy.init!.data!.beginParse();
    expect(initData.loadAddress().equals(multisig)).toBe(true);
    expect(initData.loadUintBig(256)).toBe(0n);
    expect(contractAddress(0, deploy.init!).equals(expected)).toBe(true);

    const init = parseInit(deploy.body.beginParse());
    expect(init).toMatchObject({ queryId: 11n, threshold: 2, expirationDate: exp, signerIndex: 0 });
    expect(init.order.hash()).toEqual(order.hash());
    expect(loadHashmap8Addresses(init.signers).map((x) => x.toRawString())).toEqual(
      [a, b, c].map((t) => t.address.toRawString()),
    );
    expect(exitCode(findTx(r.transactions, { from: multisig, to: expected, op: MULTISIG_OP.init }))).toBe(0);

    const stack = await runGetter(chain, expected, 'get_order_data');
    expect(stackTypes(stack)).toEqual(['slice', 'int', 'int', 'int', 'cell', 'int', 'int', 'int', 'cell']);
    expect(stack.slice(1, 4)).toEqual([
      { type: 'int', value: 0n },
      { type: 'int', value: 2n },
      { type: 'int', value: 0n },
    ]);
    expect(stack.slice(5, 8)).toEqual([
      { type: 'int', value: 1n },
      { type: 'int', value: 1n },
      { type: 'int', value: BigInt(exp) },
    ]);
    const od = readMultisigOrderData(stack);
    expect(od.init && od.multisig.equals(multisig)).toBe(true);
    expect(od.init && od.order.hash().equals(order.hash())).toBe(true);
    expect(readMultisigData(await runGetter(chain, multisig, 'get_multisig_data')).nextOrderSeqno).toBe(1n);
  });

  it('the approval reaching the threshold: approve_accepted, execute with all the balance, the payment arrives', async () => {
    const { chain, a, b, c, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const exp = now() + HOUR;
    await a.send({ to: multisig, value: toNano('0.5'), body: newOrderBody({ order, index: 0, exp }) });
    const orderAddress = await orderAt(chain, multisig, 0n);

    const r = await b.send({ to: orderAddress, value: toNano('0.1'), body: approveBody(1, 21n) });
    expect(exitCode(findTx(r.transactions, { from: b.address, to: orderAddress, op: MULTISIG_OP.approve }))).toBe(0);
    const accepted = internalIn(findTx(r.transactions, { from: orderAddress, to: b.address }));
    expect(accepted.info.bounce).toBe(false);
    expect(parseApproveReply(accepted.body.beginParse())).toEqual({
      op: MULTISIG_OP.approveAccepted,
      queryId: 21n,
      exitCode: null,
    });

    const execTx = findTx(r.transactions, { from: orderAddress, to: multisig, op: MULTISIG_OP.execute });
    expect(exitCode(execTx)).toBe(0);
    const exec = internalIn(execTx);
    expect(exec.info.bounce).toBe(false);
    const body = parseExecute(exec.body.beginParse());
    expect(body).toMatchObject({ queryId: 21n, orderSeqno: 0n, expirationDate: exp, approvalsNum: 2 });
    expect(body.signersHash).toEqual(signersCell([a.address, b.address, c.address]).hash());
    expect(body.order.hash()).toEqual(order.hash());
    // Mode 128: the order handed over everything it had.
    expect((await chain.getContract(orderAddress)).balance).toBe(0n);

    const paid = internalIn(findTx(r.transactions, { from: multisig, to: receiver.address }));
    expect(paid.info.value.coins).toBe(toNano('1'));

    const od = readMultisigOrderData(await runGetter(chain, orderAddress, 'get_order_data'));
    expect(od.init && [od.sentForExecution, od.approvalsNum, od.approvalsMask]).toEqual([true, 2, 0b11n]);

    // A late approval is answered approve_rejected(112); the transaction itself succeeds.
    const late = await c.send({ to: orderAddress, value: toNano('0.1'), body: approveBody(2, 22n) });
    const lateTx = findTx(late.transactions, { from: c.address, to: orderAddress });
    expect([exitCode(lateTx), isAborted(lateTx)]).toEqual([0, false]);
    const rejected = internalIn(findTx(late.transactions, { from: orderAddress, to: c.address }));
    expect(rejected.info.bounce).toBe(false);
    expect(parseApproveReply(rejected.body.beginParse())).toEqual({
      op: MULTISIG_OP.approveRejected,
      queryId: 22n,
      exitCode: MULTISIG_ERROR.alreadyExecuted,
    });
  });

  it('a proposer proposes without approving; approvals by comment, twice (107) and by a stranger (106)', async () => {
    const { chain, a, c, proposer, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('0.5'))]);
    const r = await proposer.send({
      to: multisig,
      value: toNano('0.5'),
      body: newOrderBody({ order, index: 0, isSigner: false }),
    });
    const deploy = outMessages(findTx(r.transactions, { from: proposer.address, to: multisig }))[0]!;
    expect(parseInit(deploy.body.beginParse()).signerIndex).toBeNull();
    const orderAddress = await orderAt(chain, multisig, 0n);
    const od0 = readMultisigOrderData(await runGetter(chain, orderAddress, 'get_order_data'));
    expect(od0.init && od0.approvalsNum).toBe(0);

    await a.send({ to: orderAddress, value: toNano('0.1'), body: approveBody(0, 1n) });
    const twice = await a.send({ to: orderAddress, value: toNano('0.1'), body: approveBody(0, 2n) });
    const reply = internalIn(findTx(twice.transactions, { from: orderAddress, to: a.address }));
    expect(parseApproveReply(reply.body.beginParse()).exitCode).toBe(MULTISIG_ERROR.alreadyApproved);

    const stranger = await receiver.send({ to: orderAddress, value: toNano('0.1'), body: approveBody(0) });
    const strangerTx = findTx(stranger.transactions, { from: receiver.address, to: orderAddress });
    expect(exitCode(strangerTx)).toBe(MULTISIG_ERROR.unauthorizedSign);

    // The text comment "approve" from signer c: answered with query_id = the order transaction's lt.
    const byComment = await c.send({ to: orderAddress, value: toNano('0.1'), body: textComment('approve') });
    const commentTx = findTx(byComment.transactions, { from: c.address, to: orderAddress });
    expect(exitCode(commentTx)).toBe(0);
    const ack = parseApproveReply(
      internalIn(findTx(byComment.transactions, { from: orderAddress, to: c.address })).body.beginParse(),
    );
    expect(ack).toEqual({ op: MULTISIG_OP.approveAccepted, queryId: commentTx.lt, exitCode: null });
    findTx(byComment.transactions, { from: multisig, to: receiver.address });
    const od = readMultisigOrderData(await runGetter(chain, orderAddress, 'get_order_data'));
    expect(od.init && [od.approvalsMask, od.sentForExecution]).toEqual([0b101n, true]);
  });

  it('refuses new_order from strangers (1007), with a wrong seqno (1008), expired (111) or underfunded (100)', async () => {
    const { chain, a, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const attempt = async (from: SandboxContract<TreasuryContract>, body: Cell, value = toNano('0.5')) => {
      const r = await from.send({ to: multisig, value, body });
      return exitCode(findTx(r.transactions, { from: from.address, to: multisig }));
    };
    expect(await attempt(receiver, newOrderBody({ order, index: 0 }))).toBe(MULTISIG_ERROR.unauthorizedNewOrder);
    expect(await attempt(a, newOrderBody({ order, index: 1 }))).toBe(MULTISIG_ERROR.unauthorizedNewOrder);
    expect(await attempt(a, newOrderBody({ order, index: 0, seqno: 5n }))).toBe(MULTISIG_ERROR.invalidNewOrder);
    expect(await attempt(a, newOrderBody({ order, index: 0, exp: now() - 10 }))).toBe(MULTISIG_ERROR.expired);
    const exp = now() + HOUR;
    const estimate = readOrderEstimate(
      await runGetter(chain, multisig, 'get_order_estimate', getOrderEstimateArgs(order, exp)),
    );
    // (The getter's own size-counting gas makes it a little above what the transaction needs: test well below.)
    expect(await attempt(a, newOrderBody({ order, index: 0, exp }), estimate / 2n)).toBe(MULTISIG_ERROR.notEnoughTon);
    // Nothing was created and no seqno was used.
    expect(readMultisigData(await runGetter(chain, multisig, 'get_multisig_data')).nextOrderSeqno).toBe(0n);
    expect(await attempt(a, newOrderBody({ order, index: 0, seqno: 0n, exp }), estimate)).toBe(0);
  });

  it('get_order_estimate pays for the whole order: the execute still covers the multisig gas', async () => {
    const { chain, a, b, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const exp = now() + HOUR;
    const stack = await runGetter(chain, multisig, 'get_order_estimate', getOrderEstimateArgs(order, exp));
    expect(stackTypes(stack)).toEqual(['int']);
    const estimate = readOrderEstimate(stack);
    // Storage is paid until the expiration: a later one costs more.
    const later = readOrderEstimate(
      await runGetter(chain, multisig, 'get_order_estimate', getOrderEstimateArgs(order, exp + 365 * 24 * HOUR)),
    );
    expect(later).toBeGreaterThan(estimate);

    await a.send({ to: multisig, value: estimate, body: newOrderBody({ order, index: 0, exp }) });
    const orderAddress = await orderAt(chain, multisig, 0n);
    const r = await b.send({ to: orderAddress, value: toNano('0.05'), body: approveBody(1) });
    const execTx = findTx(r.transactions, { from: orderAddress, to: multisig, op: MULTISIG_OP.execute });
    expect(exitCode(execTx)).toBe(0);
    const d = execTx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('expected a vm compute phase');
    expect(internalIn(execTx).info.value.coins).toBeGreaterThanOrEqual(d.computePhase.gasFees);
    findTx(r.transactions, { from: multisig, to: receiver.address });
  });

  it('update_params replaces threshold, signers and proposers; orders of the old signer set fail (102)', async () => {
    const { chain, a, b, receiver, multisig } = s;
    const payment = orderCell([pay(receiver.address, toNano('1'))]);
    await a.send({ to: multisig, value: toNano('0.5'), body: newOrderBody({ order: payment, index: 0 }) });
    const update = orderCell([{ type: 'update_params', threshold: 1, signers: [a.address, b.address], proposers: [] }]);
    expect(parseOrder(update)[0]).toMatchObject({ type: 'update_params', threshold: 1 });
    await a.send({ to: multisig, value: toNano('0.5'), body: newOrderBody({ order: update, index: 0 }) });
    const r = await b.send({ to: await orderAt(chain, multisig, 1n), value: toNano('0.1'), body: approveBody(1) });
    expect(exitCode(findTx(r.transactions, { to: multisig, op: MULTISIG_OP.execute }))).toBe(0);

    const data = await runGetter(chain, multisig, 'get_multisig_data');
    expect(stackTypes(data)).toEqual(['int', 'int', 'cell', 'null']);
    const md = readMultisigData(data);
    expect(md.threshold).toBe(1);
    expect(md.nextOrderSeqno).toBe(2n);
    expect(md.signers.map((x) => x.toRawString())).toEqual([a.address.toRawString(), b.address.toRawString()]);

    const stale = await b.send({ to: await orderAt(chain, multisig, 0n), value: toNano('0.1'), body: approveBody(1) });
    const execTx = findTx(stale.transactions, { to: multisig, op: MULTISIG_OP.execute });
    expect(exitCode(execTx)).toBe(MULTISIG_ERROR.signersOutdated);
    const paidReceiver = stale.transactions.some(
      (t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.dest.equals(receiver.address),
    );
    expect(paidReceiver).toBe(false);
  });

  it('with arbitrary seqnos: next_order_seqno is -1 and a second identical proposal is an approval', async () => {
    const { chain, a, b, c, receiver } = s;
    const multisig = await deployMultisig(a, {
      threshold: 2,
      signers: [a.address, b.address, c.address],
      allowArbitraryOrderSeqno: true,
    });
    expect(readMultisigData(await runGetter(chain, multisig, 'get_multisig_data')).nextOrderSeqno).toBe(-1n);
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const exp = now() + HOUR;
    await a.send({ to: multisig, value: toNano('0.5'), body: newOrderBody({ order, index: 0, seqno: 77n, exp }) });
    const orderAddress = await orderAt(chain, multisig, 77n);
    // A different order under the same seqno is refused by the order (105).
    const other = orderCell([pay(receiver.address, toNano('2'))]);
    const clash = await c.send({
      to: multisig,
      value: toNano('0.5'),
      body: newOrderBody({ order: other, index: 2, seqno: 77n, exp }),
    });
    expect(exitCode(findTx(clash.transactions, { from: multisig, to: orderAddress }))).toBe(
      MULTISIG_ERROR.alreadyInited,
    );

    const r = await b.send({
      to: multisig,
      value: toNano('0.5'),
      body: newOrderBody({ order, index: 1, seqno: 77n, exp, qid: 5n }),
    });
    expect(exitCode(findTx(r.transactions, { from: multisig, to: orderAddress, op: MULTISIG_OP.init }))).toBe(0);
    // The reply goes to the signer, not to the multisig that delivered the init.
    const ack = internalIn(findTx(r.transactions, { from: orderAddress, to: b.address }));
    expect(parseApproveReply(ack.body.beginParse())).toEqual({
      op: MULTISIG_OP.approveAccepted,
      queryId: 5n,
      exitCode: null,
    });
    const paid = internalIn(findTx(r.transactions, { from: multisig, to: receiver.address }));
    expect(paid.info.value.coins).toBe(toNano('1'));
  });

  it('takes execute only from its orders and execute_internal only from itself (101); ignores other ops', async () => {
    const { chain, a, receiver, multisig } = s;
    const order = orderCell([pay(receiver.address, toNano('1'))]);
    const send = async (body: Cell) => {
      const r = await receiver.send({ to: multisig, value: toNano('0.1'), body });
      return exitCode(findTx(r.transactions, { from: receiver.address, to: multisig }));
    };
    const signersHash = signersCell([a.address, s.b.address, s.c.address]).hash();
    const execute = storeMultisigExecute({
      queryId: 1n,
      orderSeqno: 0n,
      expirationDate: now() + HOUR,
      approvalsNum: 3,
      signersHash,
      order,
    });
    expect(await send(toCell(execute))).toBe(MULTISIG_ERROR.unauthorizedExecute);
    expect(await send(toCell(storeMultisigExecuteInternal({ queryId: 1n, order })))).toBe(
      MULTISIG_ERROR.unauthorizedExecute,
    );
    expect(await send(beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell())).toBe(0);
    expect(await send(textComment('hello'))).toBe(0);
    expect(readMultisigData(await runGetter(chain, multisig, 'get_multisig_data')).nextOrderSeqno).toBe(0n);
  });
});
