// The standard vesting wallet (tonweb's code, b48b531a…) on @ton/sandbox, against contracts.md §7: getter stack types
// (including the null whitelist while it is empty), the locked amount over time, add_whitelist and send with their
// replies (opcode, mode-64 value, bounce flag), the locking rules, and the owner's signed external.

import { type Address, beginCell, external, internal, type MessageRelaxed, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { VESTING_OP } from '../../ton/index.ts';
import { textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, matches, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import {
  isWhitelistedArgs,
  lockedAmountArgs,
  parseVestingWhitelist,
  readIsWhitelisted,
  readLockedAmount,
  readVestingData,
  readVestingWhitelist,
  storeVestingAddWhitelist,
  storeVestingSend,
  VESTING_ERROR,
  type VestingParams,
  vestingAddress,
  vestingExternalBody,
  vestingStateInit,
} from './vesting.ts';

const T0 = 1_800_000_000;
const TOTAL = toNano('10');
const key = keyPairFromSeed(Buffer.alloc(32, 0x5e));

interface Setup {
  chain: Blockchain;
  sender: SandboxContract<TreasuryContract>;
  owner: SandboxContract<TreasuryContract>;
  friend: SandboxContract<TreasuryContract>;
  stranger: SandboxContract<TreasuryContract>;
  vesting: Address;
  params: VestingParams;
}

/** A vesting of 10 TON from T0: 1000 s in total, unlocking every 100 s, cliff 200 s; funded with 11 TON. */
async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  chain.now = T0;
  const [sender, owner, friend, stranger] = await Promise.all(
    ['vesting-sender', 'vesting-owner', 'friend', 'stranger'].map((s) => chain.treasury(s)),
  );
  const params: VestingParams = {
    startTime: T0,
    totalDuration: 1000,
    unlockPeriod: 100,
    cliffDuration: 200,
    totalAmount: TOTAL,
    senderAddress: sender!.address,
    ownerAddress: owner!.address,
  };
  const init = vestingStateInit({ publicKey: key.publicKey, params });
  const vesting = vestingAddress(init);
  const r = await sender!.send({ to: vesting, value: toNano('11'), init, bounce: false });
  expect(exitCode(findTx(r.transactions, { to: vesting }))).toBe(0);
  return { chain, sender: sender!, owner: owner!, friend: friend!, stranger: stranger!, vesting, params };
}

function payment(to: Address, value: bigint, opts: { bounce?: boolean; body?: string } = {}): MessageRelaxed {
  return internal({ to, value, bounce: opts.bounce ?? true, body: opts.body ? textComment(opts.body) : undefined });
}

function sendBody(message: MessageRelaxed, sendMode = 3, queryId = 1n) {
  return toCell(storeVestingSend({ queryId, sendMode, message }));
}

async function addWhitelist(s: Setup, addresses: Address[]) {
  const body = toCell(storeVestingAddWhitelist({ queryId: 42n, addresses }));
  return s.sender.send({ to: s.vesting, value: toNano('0.1'), body });
}

async function balance(chain: Blockchain, a: Address) {
  return (await chain.getContract(a)).balance;
}

describe('vesting wallet (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('get_vesting_data has the §7.3 types, with null for the empty whitelist; wallet getters', async () => {
    const stack = await runGetter(s.chain, s.vesting, 'get_vesting_data');
    expect(stackTypes(stack)).toEqual(['int', 'int', 'int', 'int', 'int', 'slice', 'slice', 'null']);
    const d = readVestingData(stack);
    expect(d).toMatchObject({
      startTime: BigInt(T0),
      totalDuration: 1000n,
      unlockPeriod: 100n,
      cliffDuration: 200n,
      totalAmount: TOTAL,
      whitelist: null,
    });
    expect(d.senderAddress.equals(s.sender.address)).toBe(true);
    expect(d.ownerAddress.equals(s.owner.address)).toBe(true);
    expect(await runGetter(s.chain, s.vesting, 'seqno')).toEqual([{ type: 'int', value: 0n }]);
    expect(await runGetter(s.chain, s.vesting, 'get_subwallet_id')).toEqual([{ type: 'int', value: 0x10cn }]);
    expect(await runGetter(s.chain, s.vesting, 'get_public_key')).toEqual([
      { type: 'int', value: BigInt(`0x${key.publicKey.toString('hex')}`) },
    ]);
    expect(await runGetter(s.chain, s.vesting, 'get_whitelist')).toEqual([{ type: 'null' }]);
    const w = await runGetter(s.chain, s.vesting, 'is_whitelisted', isWhitelistedArgs(s.friend.address));
    expect(w).toEqual([{ type: 'int', value: 0n }]);
  });

  it('get_locked_amount follows §7.2: all before the cliff, steps of total/10 every 100 s, 0 at the end', async () => {
    const locked = async (t: number) =>
      readLockedAmount(await runGetter(s.chain, s.vesting, 'get_locked_amount', lockedAmountArgs(t)));
    // total − total · floor((t − start) / 100) / (1000 / 100)
    const expected: Array<[number, bigint]> = [
      [T0 - 1, TOTAL],
      [T0 + 199, TOTAL],
      [T0 + 200, toNano('8')],
      [T0 + 299, toNano('8')],
      [T0 + 550, toNano('5')],
      [T0 + 999, toNano('1')],
      [T0 + 1000, 0n],
      [T0 + 5000, 0n],
    ];
    for (const [t, amount] of expected) expect(await locked(t), `at start + ${t - T0}`).toBe(amount);
  });

  it('add_whitelist from the sender adds every chained address and replies f258a69b (mode 64, bounceable)', async () => {
    const r = await addWhitelist(s, [s.friend.address, s.stranger.address]);
    const tx = findTx(r.transactions, { from: s.sender.address, to: s.vesting, op: VESTING_OP.addWhitelist });
    expect(exitCode(tx)).toBe(0);
    const [reply] = outMessages(tx);
    expect(reply?.info.type === 'internal' && reply.info.bounce).toBe(true);
    expect(destOf(reply)).toBe(s.sender.address.toRawString());
    const rs = reply!.body.beginParse();
    expect([rs.loadUint(32), rs.loadUintBig(64), rs.remainingBits]).toEqual([VESTING_OP.addWhitelistResponse, 42n, 0]);
    // mode 64: the reply carries the incoming 0.1 TON minus fees, not the vesting's balance
    const v = reply!.info.type === 'internal' ? reply!.info.value.coins : 0n;
    expect(v > toNano('0.09') && v < toNano('0.1')).toBe(true);

    const stack = await runGetter(s.chain, s.vesting, 'get_vesting_data');
    expect(stackTypes(stack)[7]).toBe('cell');
    const listed = parseVestingWhitelist(readVestingData(stack).whitelist).map((a) => a.toRawString());
    expect(listed.sort()).toEqual([s.friend.address.toRawString(), s.stranger.address.toRawString()].sort());
    const viaGetter = readVestingWhitelist(await runGetter(s.chain, s.vesting, 'get_whitelist'));
    expect(viaGetter.map((a) => a.toRawString()).sort()).toEqual(listed.sort());
    const w = await runGetter(s.chain, s.vesting, 'is_whitelisted', isWhitelistedArgs(s.friend.address));
    expect(readIsWhitelisted(w)).toBe(true);
  });

  it('ignores add_whitelist and send from anyone else (accepts the coins, sends nothing)', async () => {
    const body = toCell(storeVestingAddWhitelist({ queryId: 1n, addresses: [s.stranger.address] }));
    const r1 = await s.stranger.send({ to: s.vesting, value: toNano('0.1'), body });
    const t1 = findTx(r1.transactions, { from: s.stranger.address, to: s.vesting });
    expect([exitCode(t1), outMessages(t1).length]).toEqual([0, 0]);
    const r2 = await s.stranger.send({
      to: s.vesting,
      value: toNano('0.1'),
      body: sendBody(payment(s.stranger.address, toNano('1'))),
    });
    const t2 = findTx(r2.transactions, { from: s.stranger.address, to: s.vesting });
    expect([exitCode(t2), outMessages(t2).length]).toEqual([0, 0]);
    expect(readVestingData(await runGetter(s.chain, s.vesting, 'get_vesting_data')).whitelist).toBeNull();
  });

  it('send from the owner to a whitelisted address moves locked coins and replies f7733acd', async () => {
    await addWhitelist(s, [s.friend.address]);
    s.chain.now = T0 + 50; // everything still locked
    const before = await balance(s.chain, s.friend.address);
    const r = await s.owner.send({
      to: s.vesting,
      value: toNano('0.2'),
      body: sendBody(payment(s.friend.address, toNano('4'), { body: 'withdraw' }), 3, 7n),
    });
    const tx = findTx(r.transactions, { from: s.owner.address, to: s.vesting, op: VESTING_OP.send });
    expect(exitCode(tx)).toBe(0);
    const [out, reply] = outMessages(tx);
    expect(destOf(out)).toBe(s.friend.address.toRawString());
    expect(destOf(reply)).toBe(s.owner.address.toRawString());
    expect(reply?.info.type === 'internal' && reply.info.bounce).toBe(true);
    const rs = reply!.body.beginParse();
    expect([rs.loadUint(32), rs.loadUintBig(64)]).toEqual([VESTING_OP.sendResponse, 7n]);
    const arrived = findTx(r.transactions, { from: s.vesting, to: s.friend.address });
    expect(internalIn(arrived).info.value.coins).toBe(toNano('4'));
    expect((await balance(s.chain, s.friend.address)) - before).toBeGreaterThan(toNano('3.99'));
  });

  it('enforces the locking rules: mode 3 only, bounceable only, only unlocked coins to others', async () => {
    await addWhitelist(s, [s.friend.address]);
    s.chain.now = T0 + 50;
    const refused = async (message: MessageRelaxed, mode: number) => {
      const r = await s.owner.send({ to: s.vesting, value: toNano('0.2'), body: sendBody(message, mode) });
      return exitCode(findTx(r.transactions, { from: s.owner.address, to: s.vesting, op: VESTING_OP.send }));
    };
    expect(await refused(payment(s.friend.address, toNano('1')), 1)).toBe(VESTING_ERROR.sendModeNotAllowed);
    expect(await refused(payment(s.friend.address, toNano('1'), { bounce: false }), 3)).toBe(
      VESTING_ERROR.nonBounceableNotAllowed,
    );
    expect(await refused(payment(s.friend.address, toNano('1'), { body: 'hello' }), 3)).toBe(
      VESTING_ERROR.symbolsNotAllowed,
    );

    // To a non-whitelisted address the locked 10 TON stay reserved: 3 TON of ~11 cannot leave, 0.5 can.
    const strangerTxs = async (value: bigint) => {
      const r = await s.owner.send({
        to: s.vesting,
        value: toNano('0.2'),
        body: sendBody(payment(s.stranger.address, value)),
      });
      return r.transactions.filter((t) => matches(t, { from: s.vesting, to: s.stranger.address })).length;
    };
    expect(await strangerTxs(toNano('3'))).toBe(0);
    expect(await strangerTxs(toNano('0.5'))).toBe(1);
    expect(await balance(s.chain, s.vesting)).toBeGreaterThanOrEqual(TOTAL);

    // After the vesting ends, anything goes.
    s.chain.now = T0 + 1001;
    expect(await strangerTxs(toNano('3'))).toBe(1);
  });

  it("the owner's key sends through a signed external; the seqno moves even when the send is refused", async () => {
    const ext = async (seqno: number, message: MessageRelaxed, sendMode: number, secretKey = key.secretKey) => {
      const body = vestingExternalBody({
        subwalletId: 0x10c,
        validUntil: T0 + 60,
        seqno,
        out: { sendMode, message },
        secretKey,
      });
      return s.chain.sendMessage(
        beginCell()
          .store(storeMessage(external({ to: s.vesting, body })))
          .endCell(),
      );
    };
    const r = await ext(0, payment(s.stranger.address, toNano('0.5')), 3);
    expect(r.transactions.filter((t) => matches(t, { from: s.vesting, to: s.stranger.address }))).toHaveLength(1);
    expect(await runGetter(s.chain, s.vesting, 'seqno')).toEqual([{ type: 'int', value: 1n }]);

    // refused by the locking rules (mode 1 while locked): caught, nothing sent, seqno still moves
    const r2 = await ext(1, payment(s.stranger.address, toNano('0.5')), 1);
    expect(r2.transactions.filter((t) => matches(t, { from: s.vesting, to: s.stranger.address }))).toHaveLength(0);
    expect(await runGetter(s.chain, s.vesting, 'seqno')).toEqual([{ type: 'int', value: 2n }]);

    await expect(ext(0, payment(s.stranger.address, 1n), 3)).rejects.toMatchObject({
      exitCode: VESTING_ERROR.invalidSeqno,
    });
    const wrongKey = keyPairFromSeed(Buffer.alloc(32, 1)).secretKey;
    await expect(ext(2, payment(s.stranger.address, 1n), 3, wrongKey)).rejects.toMatchObject({
      exitCode: VESTING_ERROR.invalidSignature,
    });
  });
});

function destOf(m: { info: { dest?: unknown } } | undefined): string | undefined {
  return (m?.info.dest as Address | undefined)?.toRawString();
}
