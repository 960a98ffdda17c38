// Vesting wallet actions over real TVM runs (@ton/sandbox with the standard vesting code): add_whitelist from the
// vesting sender, a send from the owner (composite over the message the vesting sends), and a send from a stranger
// (accepted silently, so no action). Expected details come from the bodies read here from contracts.md §7.2 with
// @ton/core, and from the vesting's own get_vesting_data / is_whitelisted.
import { randomBytes } from 'node:crypto';
import { type Address, Cell, internal, loadMessageRelaxed, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isWhitelistedArgs,
  readIsWhitelisted,
  storeVestingAddWhitelist,
  storeVestingSend,
  textComment,
  toCell,
  vestingAddress,
  vestingStateInit,
} from '../../../devnet/contracts/index.ts';
import { classifyTrace } from '../classify.ts';
import { interfacesOf } from '../interfaces.ts';
import { expandSupported, isShown } from '../supported.ts';
import type { Action, TraceInput } from '../types.ts';
import { nodeOf, rawOf, sandboxTrace } from './sandbox-trace.test-util.ts';

const OP = { send: 0xa7733acd, sendResponse: 0xf7733acd, addWhitelist: 0x7258a69b, addWhitelistResponse: 0xf258a69b };
const none = interfacesOf(new Map());
const one = (actions: Action[], type: string) => {
  const found = actions.filter((a) => a.type === type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

describe('vesting matchers over sandbox runs', () => {
  let bc: Blockchain;
  let sender: SandboxContract<TreasuryContract>;
  let owner: SandboxContract<TreasuryContract>;
  let receiver: SandboxContract<TreasuryContract>;
  let stranger: SandboxContract<TreasuryContract>;
  let vesting: Address;
  let whitelisted: Address[];
  let added: TraceInput;
  let sent: TraceInput;

  beforeAll(async () => {
    bc = await Blockchain.create();
    sender = await bc.treasury('sender');
    owner = await bc.treasury('owner');
    receiver = await bc.treasury('receiver');
    stranger = await bc.treasury('stranger');
    const init = vestingStateInit({
      publicKey: randomBytes(32),
      params: {
        startTime: Math.floor(Date.now() / 1000),
        totalDuration: 600,
        unlockPeriod: 30,
        cliffDuration: 30,
        totalAmount: toNano('10'),
        senderAddress: sender.address,
        ownerAddress: owner.address,
      },
    });
    vesting = vestingAddress(init);
    await sender.send({ to: vesting, value: toNano('12'), init, bounce: false });
    whitelisted = [(await bc.treasury('w1')).address, (await bc.treasury('w2')).address];
    const r1 = await sender.send({
      to: vesting,
      value: toNano('0.1'),
      body: toCell(storeVestingAddWhitelist({ queryId: 7n, addresses: whitelisted })),
    });
    added = sandboxTrace(r1.transactions);
    const r2 = await owner.send({
      to: vesting,
      value: toNano('0.1'),
      body: toCell(
        storeVestingSend({
          queryId: 9n,
          sendMode: 3,
          message: internal({ to: receiver.address, value: toNano('0.5'), bounce: true, body: textComment('rent') }),
        }),
      ),
    });
    sent = sandboxTrace(r2.transactions);
  });

  it('add_whitelist -> add_whitelist_response is vesting_add_whitelist listing the addresses the vesting now has', async () => {
    for (const w of whitelisted) {
      expect(readIsWhitelisted((await bc.runGetMethod(vesting, 'is_whitelisted', isWhitelistedArgs(w))).stack)).toBe(
        true,
      );
    }
    const a = one(classifyTrace(added, none), 'vesting_add_whitelist');
    // The request as sent: query_id, then one address per cell, chained through refs.
    const s = nodeOf(added, { to: vesting, op: OP.addWhitelist }).tx.inMsg!.body!.beginParse();
    s.skip(32);
    const queryId = s.loadUintBig(64);
    const first = s.loadAddress();
    const second = s.loadRef().beginParse().loadAddress();
    expect(a.details).toEqual({
      query_id: queryId.toString(),
      accounts_added: [first, second].map(rawOf),
      source: rawOf(sender.address),
      vesting: rawOf(vesting),
    });
    expect(a.details.accounts_added).toEqual(whitelisted.map(rawOf));
    expect(a.success).toBe(true);
    const response = nodeOf(added, { from: vesting, to: sender.address, op: OP.addWhitelistResponse });
    expect(a.txHashes).toEqual(added.nodes.map((n) => n.tx.hash));
    expect(a.txHashes).toContain(response.tx.hash);
    // Participants: the sender and the vesting; the added addresses are not (as toncenter's action_accounts).
    expect(a.accounts).toEqual([rawOf(sender.address), rawOf(vesting)].sort());
  });

  it('send -> send_response is a composite vesting_send_message; the carried transfer is its child', () => {
    const actions = classifyTrace(sent, none);
    const a = one(actions, 'vesting_send_message');
    const req = nodeOf(sent, { from: owner.address, to: vesting, op: OP.send });
    const s = req.tx.inMsg!.body!.beginParse();
    s.skip(32);
    const queryId = s.loadUintBig(64);
    s.loadUint(8);
    const carried = s.loadRef();
    const msg = loadMessageRelaxed(carried.beginParse());
    if (msg.info.type !== 'internal') throw new Error('expected an internal message');
    expect(a.details).toEqual({
      query_id: queryId.toString(),
      message_boc: expect.any(String),
      source: rawOf(owner.address),
      vesting: rawOf(vesting),
      destination: rawOf(msg.info.dest),
      amount: msg.info.value.coins.toString(),
    });
    expect(a.details).toMatchObject({ query_id: '9', destination: rawOf(receiver.address), amount: '500000000' });
    expect(Cell.fromBase64(String(a.details.message_boc)).hash()).toEqual(carried.hash());
    expect([a.source, a.destination, a.destinationSecondary, a.amount]).toEqual([
      rawOf(owner.address),
      rawOf(vesting),
      rawOf(receiver.address),
      toNano('0.5'),
    ]);
    expect(a.success).toBe(true);
    // The owner's wallet, the vesting, the owner taking the response: not the receiver's transaction.
    const response = nodeOf(sent, { from: vesting, to: owner.address, op: OP.sendResponse });
    expect(a.txHashes).toEqual([req.parent!, req, response].map((n) => n.tx.hash));
    expect(a.accounts).toEqual([rawOf(owner.address), rawOf(vesting), rawOf(receiver.address)].sort());

    const child = one(actions, 'ton_transfer');
    const paid = nodeOf(sent, { from: vesting, to: receiver.address });
    expect(child.txHashes).toEqual([req, paid].map((n) => n.tx.hash));
    expect(child.details).toMatchObject({
      source: rawOf(vesting),
      destination: rawOf(receiver.address),
      comment: 'rent',
    });
    expect(child.parentActionId).toBe(a.actionId);
    expect(child.ancestorType).toEqual(['vesting_send_message']);

    const shown = (names: string[]) =>
      actions.filter((x) => isShown(x.type, x.ancestorType, expandSupported(names))).map((x) => x.type);
    expect(shown(['v1'])).toEqual(['ton_transfer']);
    expect(shown(['v2'])).toEqual(['vesting_send_message']);
  });

  it('a send from anyone but the owner gets no response: no vesting action', async () => {
    const r = await stranger.send({
      to: vesting,
      value: toNano('0.1'),
      body: toCell(
        storeVestingSend({
          queryId: 1n,
          sendMode: 3,
          message: internal({ to: stranger.address, value: toNano('1'), bounce: true }),
        }),
      ),
    });
    const trace = sandboxTrace(r.transactions);
    const types = classifyTrace(trace, none).map((a) => a.type);
    expect(types).toEqual(['call_contract']);
    expect(trace.nodes.some((n) => n.tx.inMsg?.opcode === OP.sendResponse)).toBe(false);
  });
});
