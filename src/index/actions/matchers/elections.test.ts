// Election actions. election_deposit from real data: masterchain block 24 of a validator-engine network
// (vectors/node-db, global_id -239), where a validator's wallet sends new_stake to the elector and gets the
// confirmation back, all three transactions in that block; the expected stake and addresses are read from the
// transaction cells with @ton/core's own loaders. election_recover and the failure cases have no real data here:
// their traces are built from message cells made with @ton/core (the elector's answers as its code sends them).
import { Address, beginCell, Cell, loadTransaction, storeMessage, type Transaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadNodePackage } from '../../../../test/helpers/vectors.ts';
import { listBlockTransactions, loadBlockCell, transactionFromCell, transactionView } from '../../../ton/index.ts';
import { classifyTrace } from '../classify.ts';
import { interfacesOf } from '../interfaces.ts';
import { linkTrees, traceOfTree, traceTxOfView } from '../tree.ts';
import type { Action, TraceInput, TraceMessage, TraceNode, TraceTx } from '../types.ts';
import { rawOf } from './sandbox-trace.test-util.ts';

const ELECTOR = `-1:${'3'.repeat(64)}`;
const OP = { newStake: 0x4e73744b, confirmation: 0xf374484c, recover: 0x47657424, recovered: 0xf96f7324 };
const none = interfacesOf(new Map());
const byType = (actions: Action[], type: string) => actions.filter((a) => a.type === type);

describe.skipIf(!hasVectors)('election_deposit in a real masterchain block', () => {
  function block24() {
    const entry = loadNodePackage('archive.00000.pack').find((e) =>
      e.name.startsWith('block_(-1,8000000000000000,24)'),
    );
    if (!entry) throw new Error('block 24 is missing from archive.00000.pack');
    const txs = listBlockTransactions(loadBlockCell(Cell.fromBoc(entry.data)[0]!));
    const core = new Map<string, Transaction>(
      txs.map((t) => [t.hash.toString('base64'), loadTransaction(t.cell.beginParse())]),
    );
    const trees = linkTrees(
      txs.map((t) => traceTxOfView(transactionView(transactionFromCell(t.cell), { workchain: -1 }), 24)),
    );
    const tree = trees.find((t) => t.nodes.some((n) => n.tx.inMsg?.opcode === OP.newStake));
    if (!tree) throw new Error('no new_stake in block 24');
    return { trace: traceOfTree(tree), core };
  }

  it('new_stake -> confirmation: the stake holder, the stake, the three transactions', () => {
    const { trace, core } = block24();
    const request = trace.nodes.find((n) => n.tx.inMsg?.opcode === OP.newStake)!;
    const confirmation = trace.nodes.find((n) => n.tx.inMsg?.opcode === OP.confirmation)!;
    // Read straight from the transaction cells.
    const reqMsg = core.get(request.tx.hash)!.inMessage!;
    if (reqMsg.info.type !== 'internal') throw new Error('expected an internal new_stake');
    const holder = rawOf(reqMsg.info.src);
    expect(rawOf(reqMsg.info.dest)).toBe(ELECTOR);
    expect(reqMsg.body.beginParse().loadUint(32)).toBe(OP.newStake);

    const actions = classifyTrace(trace, none);
    const [a, ...rest] = byType(actions, 'election_deposit');
    expect(rest).toEqual([]);
    expect(a!.details).toEqual({ stake_holder: holder, amount: reqMsg.info.value.coins.toString() });
    expect(a!.details.amount).toBe('10001000000000');
    expect(a!.success).toBe(true);
    expect([a!.source, a!.amount, a!.destination]).toEqual([holder, reqMsg.info.value.coins, undefined]);
    // The wallet's external (initiator), the elector's transaction, the wallet taking the confirmation.
    expect(a!.txHashes).toEqual([request.parent!, request, confirmation].map((n) => n.tx.hash));
    const confMsg = core.get(confirmation.tx.hash)!.inMessage!;
    if (confMsg.info.type !== 'internal') throw new Error('expected an internal confirmation');
    expect([rawOf(confMsg.info.src), rawOf(confMsg.info.dest)]).toEqual([ELECTOR, holder]);
    expect(a!.accounts).toEqual([ELECTOR, holder].sort());
    expect(actions.map((x) => x.type)).toEqual(['election_deposit']);
  });
});

// --- constructed traces -----------------------------------------------------------------------------------------
const WALLET = `-1:${'AB'.repeat(32)}`;
let lt = 1000n;

function message(from: string | null, to: string, value: bigint | null, body: Cell): TraceMessage {
  const cell = beginCell()
    .store(
      storeMessage(
        from
          ? {
              info: {
                type: 'internal',
                ihrDisabled: true,
                bounce: true,
                bounced: false,
                src: addr(from),
                dest: addr(to),
                value: { coins: value ?? 0n },
                ihrFee: 0n,
                forwardFee: 0n,
                createdLt: lt,
                createdAt: 1700000000,
              },
              body,
            }
          : { info: { type: 'external-in', dest: addr(to), importFee: 0n }, body },
      ),
    )
    .endCell();
  return {
    hash: cell.hash().toString('base64'),
    source: from,
    destination: to,
    value: from ? value : null,
    extraCurrencies: {},
    opcode: body.bits.length >= 32 ? body.beginParse().loadUint(32) : null,
    bounce: from !== null,
    bounced: false,
    createdLt: from ? lt : null,
    body,
  };
}

const addr = (raw: string) => Address.parseRaw(raw);

function tx(account: string, inMsg: TraceMessage, outMsgs: TraceMessage[] = []): TraceTx {
  lt += 2n;
  return {
    hash: beginCell().storeUint(lt, 64).storeStringTail(account).endCell().hash().toString('base64'),
    lt,
    now: 1700000000,
    account,
    mcSeqno: 5,
    descr: 'ord',
    aborted: false,
    computeSuccess: true,
    computeExitCode: 0,
    actionResultCode: 0,
    origStatus: 'active',
    endStatus: 'active',
    isTock: false,
    inMsg,
    outMsgs,
  };
}

const op = (code: number, queryId = 7n) => beginCell().storeUint(code, 32).storeUint(queryId, 64).endCell();

/** wallet (external) -> elector (request) -> wallet (answer, when given). */
function electorTrace(request: number, answer?: { op: number; value: bigint }): TraceInput {
  const toElector = message(WALLET, ELECTOR, 2_000_000_000n, op(request));
  const root = tx(WALLET, message(null, WALLET, null, beginCell().storeUint(0, 32).endCell()), [toElector]);
  const back = answer ? message(ELECTOR, WALLET, answer.value, op(answer.op)) : undefined;
  const elector = tx(ELECTOR, toElector, back ? [back] : []);
  const txs = back ? [root, elector, tx(WALLET, back)] : [root, elector];
  return traceOfTree(linkTrees(txs)[0]!);
}

const nodeWith = (t: TraceInput, opcode: number): TraceNode => t.nodes.find((n) => n.tx.inMsg?.opcode === opcode)!;

describe('election matchers over constructed traces', () => {
  it('recover_stake -> 0xf96f7324: election_recover with the coins the elector returned', () => {
    const t = electorTrace(OP.recover, { op: OP.recovered, value: 1_234_000_000_000n });
    const [a, ...rest] = classifyTrace(t, none);
    expect(rest).toEqual([]);
    expect(a!.type).toBe('election_recover');
    expect(a!.details).toEqual({ stake_holder: WALLET, amount: '1234000000000' });
    expect(a!.success).toBe(true);
    expect(a!.txHashes).toEqual(t.nodes.map((n) => n.tx.hash));
  });

  it('recover_stake answered with an error: failed, and `amount` is absent rather than null', () => {
    const t = electorTrace(OP.recover, { op: 0xfffffffe, value: 1_000_000_000n });
    const a = byType(classifyTrace(t, none), 'election_recover')[0]!;
    expect(a.details).toEqual({ stake_holder: WALLET });
    expect('amount' in a.details).toBe(false);
    expect(a.success).toBe(false);
    expect(a.txHashes).toEqual([t.root, nodeWith(t, OP.recover)].map((n) => n.tx.hash));
  });

  it('new_stake without a confirmation (refused) is a failed election_deposit', () => {
    const t = electorTrace(OP.newStake, { op: 0xee6f454c, value: 1_999_000_000n });
    const a = byType(classifyTrace(t, none), 'election_deposit')[0]!;
    expect(a.details).toEqual({ stake_holder: WALLET, amount: '2000000000' });
    expect(a.success).toBe(false);
  });

  it('new_stake to any other address is no election action', () => {
    const other = `-1:${'44'.repeat(32)}`;
    const toOther = message(WALLET, other, 1n, op(OP.newStake));
    const root = tx(WALLET, message(null, WALLET, null, beginCell().storeUint(0, 32).endCell()), [toOther]);
    const t = traceOfTree(linkTrees([root, tx(other, toOther)])[0]!);
    expect(classifyTrace(t, none).map((a) => a.type)).toEqual(['call_contract']);
  });
});
