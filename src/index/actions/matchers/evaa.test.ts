// EVAA patterns the mainnet vectors do not hold (a TON withdrawal paid out, a failed supply, the liquidations), built
// message by message with bodies written here per EVAA's schema.tlb as toncenter reads it. The expected details are
// what those bodies say, per toncenter's classifier and its API.
import { Address, type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const OWNER = addr('evaa owner');
const MASTER = addr('evaa master');
const USER_SC = addr('evaa user contract');
const LIQUIDATOR = addr('evaa liquidator');
const A = (a: string) => Address.parse(a);
const TON_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;
/** tsTON's asset id (in toncenter's mainnet asset map). */
const TSTON_ID = 0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7n;
const TSTON = '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000';
const QID = 5n;

const plain = (op: number) => beginCell().storeUint(op, 32).storeUint(QID, 64);
/** A user command: user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2, then the opcode. */
const user = (op: number) =>
  beginCell().storeCoins(6n).storeMaybeRef(null).storeUint(0, 2).storeUint(op, 32).storeUint(QID, 64);
const comment = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const withRef = (b: Builder, ref: Cell) => b.storeRef(ref).endCell();

const supplyMaster = (amount: bigint) =>
  withRef(
    plain(0x1).storeInt(0, 2).storeUint(amount, 64).storeAddress(A(OWNER)).storeUint(0, 64),
    beginCell().endCell(),
  );
const supplyUser = (id: bigint, amount: bigint) => user(0x11).storeUint(id, 256).storeUint(amount, 64).endCell();
const supplyFail = (id: bigint, amount: bigint) =>
  plain(0x11f).storeAddress(A(OWNER)).storeUint(id, 256).storeUint(amount, 64).endCell();

const withdrawMaster = (id: bigint, amount: bigint) =>
  plain(0x2).storeUint(id, 256).storeUint(amount, 64).storeAddress(A(OWNER)).endCell();
const withdrawUser = (id: bigint) => user(0x21).storeUint(id, 256).endCell();
const collateralized = (id: bigint, amount: bigint) =>
  plain(0x211).storeAddress(A(OWNER)).storeUint(id, 256).storeUint(amount, 64).endCell();
const tonPayout = () => plain(0x211a).endCell();
const withdrawSuccess = (id: bigint) => user(0x211a).storeUint(id, 256).storeInt(0, 64).endCell();

const liquidateMaster = (collateralId: bigint, incoming: bigint) =>
  plain(0x3)
    .storeAddress(A(OWNER))
    .storeAddress(A(LIQUIDATOR))
    .storeUint(collateralId, 256)
    .storeUint(0, 64)
    .storeInt(0, 2)
    .storeUint(incoming, 64)
    .endCell();
const liquidateUser = () => user(0x31).endCell();
const satisfied = (collateralId: bigint, liquidatable: bigint, reward: bigint) =>
  withRef(
    plain(0x311).storeAddress(A(OWNER)).storeAddress(A(LIQUIDATOR)).storeUint(TON_ID, 256),
    beginCell()
      .storeInt(-1, 64)
      .storeUint(liquidatable, 64)
      .storeUint(0, 64)
      .storeInt(0, 64)
      .storeUint(collateralId, 256)
      .storeInt(-1, 64)
      .storeUint(reward, 64)
      .endCell(),
  );
const unsatisfied = (collateralId: bigint, error: number) =>
  withRef(
    plain(0x31f).storeAddress(A(OWNER)).storeAddress(A(LIQUIDATOR)).storeUint(TON_ID, 256),
    beginCell()
      .storeUint(1n, 64)
      .storeUint(collateralId, 256)
      .storeUint(0, 64)
      .storeUint(0, 64)
      .storeRef(beginCell().endCell())
      .storeUint(error, 32)
      .endCell(),
  );
const liquidateSuccess = () => user(0x311a).endCell();
const successReport = () => plain(0x311d).endCell();

describe('evaa_supply (EVAA)', () => {
  it('a TON supply the user contract refused: failed, with the amount asked for', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const master = b.send(root, MASTER, supplyMaster(7n), { value: 2n });
    const u = b.send(master, USER_SC, supplyUser(TON_ID, 7n));
    const fail = b.send(u, MASTER, supplyFail(TON_ID, 7n));
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type)).toEqual(['evaa_supply']);
    const a = actions[0]!;
    expect(a.success).toBe(false);
    expect(a.details).toEqual({
      sender_jetton_wallet: null,
      recipient_jetton_wallet: null,
      master_jetton_wallet: null,
      master: MASTER,
      asset_id: `0x${TON_ID.toString(16)}`,
      is_ton: true,
      source: OWNER,
      source_wallet: null,
      recipient: OWNER,
      recipient_contract: USER_SC,
      asset: null,
      amount: '7',
    });
    expect(a.txHashes).toEqual([root, master, u, fail].map((n) => n.tx.hash));
  });
});

describe('evaa_withdraw (EVAA)', () => {
  it('TON paid out (#0000211a) and confirmed to the user contract: the collateralized amount', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const master = b.send(root, MASTER, withdrawMaster(TON_ID, 2n ** 64n - 1n));
    const u = b.send(master, USER_SC, withdrawUser(TON_ID));
    const coll = b.send(u, MASTER, collateralized(TON_ID, 900n));
    const paid = b.send(coll, OWNER, tonPayout());
    const confirm = b.send(coll, USER_SC, withdrawSuccess(TON_ID));
    const note = b.send(confirm, OWNER, comment('EVAA withdraw.'));
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type)).toEqual(['evaa_withdraw']);
    const a = actions[0]!;
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      recipient_jetton_wallet: null,
      master_jetton_wallet: null,
      master: MASTER,
      fail_reason: null,
      asset_id: `0x${TON_ID.toString(16)}`,
      is_ton: true,
      source: OWNER,
      recipient: OWNER,
      owner_contract: USER_SC,
      asset: null,
      amount: '900',
    });
    expect(a.txHashes).toEqual([root, master, u, coll, paid, confirm, note].map((n) => n.tx.hash));
  });
});

describe('evaa_liquidate (EVAA)', () => {
  function liquidation() {
    const b = new TraceBuilder();
    const root = b.external(LIQUIDATOR);
    const master = b.send(root, MASTER, liquidateMaster(TSTON_ID, 50n), { value: 3n });
    return { b, root, master };
  }

  it('satisfied: the borrower, the collateral reward and the debt repaid, the collateral resolved by its id', () => {
    const { b, root, master } = liquidation();
    const u = b.send(master, USER_SC, liquidateUser());
    const sat = b.send(u, MASTER, satisfied(TSTON_ID, 40n, 44n));
    const ok = b.send(sat, USER_SC, liquidateSuccess());
    const report = b.send(sat, LIQUIDATOR, successReport());
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type)).toEqual(['evaa_liquidate']);
    const a = actions[0]!;
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      fail_reason: null,
      debt_amount: '40',
      source: LIQUIDATOR,
      borrower: OWNER,
      borrower_contract: USER_SC,
      collateral: TSTON_ID.toString(),
      asset_id: `0x${TSTON_ID.toString(16)}`,
      asset: TSTON,
      is_known_asset: true,
      amount: '44',
    });
    expect([a.source, a.destination, a.destinationSecondary, a.asset]).toEqual([
      LIQUIDATOR,
      OWNER,
      USER_SC,
      TSTON_ID.toString(),
    ]);
    expect(a.txHashes).toEqual([root, master, u, sat, ok, report].map((n) => n.tx.hash));
  });

  it('unsatisfied: failed, its error code as the reason, nothing received', () => {
    const { b, root, master } = liquidation();
    const u = b.send(master, USER_SC, liquidateUser());
    const un = b.send(u, MASTER, unsatisfied(TSTON_ID, 0xe003));
    b.send(un, LIQUIDATOR, plain(0x311f).endCell());
    const [a] = byType(b.classify(root, {}), 'evaa_liquidate');
    expect(a?.success).toBe(false);
    expect(a?.details).toMatchObject({ fail_reason: 'not_liquidatable', debt_amount: '50', amount: '0' });
  });

  it('refused by the master at once (the request bounced): immediate_rejection, no user contract', () => {
    const { b, root, master } = liquidation();
    const back = b.bounce(master, null);
    const [a] = byType(b.classify(root, {}), 'evaa_liquidate');
    expect(a?.details).toMatchObject({ fail_reason: 'immediate_rejection', borrower: OWNER, borrower_contract: null });
    expect(a?.txHashes).toEqual([root, master, back].map((n) => n.tx.hash));
  });
});
