// Failed wallet requests on hand-built traces: the messages a v4 and a v5 request asked for become failed actions
// keyed by their cells and positions, without their receivers as participants; nothing of the kind when the external
// sent a message, deployed its wallet, or is not a wallet request. (The mainnet cases run through
// test/index/actions-mainnet.test.ts.)
import {
  Address,
  beginCell,
  type Cell,
  internal,
  type MessageRelaxed,
  SendMode,
  storeMessageRelaxed,
  storeOutList,
} from '@ton/core';
import { describe, expect, it } from 'vitest';
import { intendedActionIdOf } from '../action-id.ts';
import { jettonTransferBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const WALLET = addr('wallet');
const JETTON_WALLET = addr('jetton wallet');
const MASTER = addr('master');
const FRIEND = addr('friend');
const NFT = addr('nft');

const at = (a: string) => Address.parse(a);
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const messageCell = (m: MessageRelaxed) => beginCell().store(storeMessageRelaxed(m)).endCell();

/** signature:bits512 subwallet_id valid_until seqno op:0 (mode ^MessageRelaxed)*. */
function v4Request(messages: Cell[]): Cell {
  const b = beginCell().storeBuffer(Buffer.alloc(64, 7)).storeUint(698983191, 32).storeUint(1, 32).storeUint(5, 32);
  b.storeUint(0, 8);
  for (const m of messages) b.storeUint(3, 8).storeRef(m);
  return b.endCell();
}

/** external_signed#7369676e wallet_id valid_until seqno out_actions:(Maybe ^OutList) has_other_actions:0 signature. */
function v5Request(messages: MessageRelaxed[]): Cell {
  const list = beginCell()
    .store(
      storeOutList(
        messages.map((outMsg) => ({
          type: 'sendMsg' as const,
          mode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
          outMsg,
        })),
      ),
    )
    .endCell();
  return beginCell()
    .storeUint(0x7369676e, 32)
    .storeUint(2147483409, 32)
    .storeUint(1, 32)
    .storeUint(9, 32)
    .storeMaybeRef(list)
    .storeBit(false)
    .storeBuffer(Buffer.alloc(64, 7))
    .endCell();
}

/** A trace of one transaction: `wallet` receiving the external `body` and sending nothing. */
function lone(body: Cell, o: { endStatus?: string; origStatus?: string } = {}) {
  const b = new TraceBuilder();
  const root = b.external(WALLET, o);
  root.tx.inMsg!.body = body;
  return { b, root };
}

describe('failed external matcher', () => {
  it('a v4 request: a jetton transfer, a comment and a call, each failed, keyed by its cell and position', () => {
    const jetton = messageCell(
      internal({ to: at(JETTON_WALLET), value: 50_000_000n, body: jettonTransferBody(5n, FRIEND, WALLET, null) }),
    );
    // A small body kept in a reference although it fits inline: the key is the cell as signed, not as re-encoded.
    const pay = internal({ to: at(FRIEND), value: 1_000n, bounce: false, body: comment('hi') });
    const payCell = beginCell()
      .store(storeMessageRelaxed(pay, { forceRef: true }))
      .endCell();
    expect(payCell.hash()).not.toEqual(messageCell(pay).hash());
    const call = messageCell(
      internal({ to: at(NFT), value: 0n, body: beginCell().storeUint(0x5fcc3d14, 32).storeUint(1, 64).endCell() }),
    );
    const { b, root } = lone(v4Request([jetton, payCell, call]));
    const actions = b.classify(root, { [JETTON_WALLET]: { jettonWallet: { jetton: MASTER, owner: WALLET } } });
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer', 'ton_transfer', 'call_contract']);
    const [t, p, c] = actions;
    expect(t).toMatchObject({
      success: false,
      source: WALLET,
      sourceSecondary: JETTON_WALLET,
      destination: FRIEND,
      destinationSecondary: null,
      asset: MASTER,
      amount: 5n,
      txHashes: [root.tx.hash],
      accounts: [WALLET, JETTON_WALLET].sort(),
      actionId: intendedActionIdOf({ cellHash: jetton.hash(), index: 0 }, 'jetton_transfer'),
      details: { receiver: FRIEND, receiver_jetton_wallet: null, amount: '5', query_id: '1' },
    });
    expect(p).toMatchObject({
      success: false,
      destination: FRIEND,
      value: 1_000n,
      accounts: [WALLET],
      actionId: intendedActionIdOf({ cellHash: payCell.hash(), index: 1 }, 'ton_transfer'),
      details: { comment: 'hi', encrypted: false },
    });
    // A call that carried no coins is not a failed one (toncenter's contract call rule).
    expect(c).toMatchObject({ success: true, opcode: 0x5fcc3d14, destination: NFT, accounts: [WALLET] });
  });

  it('a v5 request is numbered from its last action back; identical messages get ids of their own', () => {
    const msg = internal({ to: at(FRIEND), value: 1n, body: comment('same') });
    const other = internal({ to: at(FRIEND), value: 2n });
    const { b, root } = lone(v5Request([other, msg, msg]));
    const actions = byType(b.classify(root, {}), 'ton_transfer');
    const id = (m: MessageRelaxed, index: number) =>
      intendedActionIdOf({ cellHash: messageCell(m).hash(), index }, 'ton_transfer');
    expect(actions.map((a) => [a.actionId, a.value])).toEqual([
      [id(msg, 0), 1n],
      [id(msg, 1), 1n],
      [id(other, 2), 2n],
    ]);
  });

  it('a non-bounceable transfer from a wallet that stays uninit is not failed', () => {
    const body = v4Request([messageCell(internal({ to: at(FRIEND), value: 1n, bounce: false }))]);
    const { b, root } = lone(body, { origStatus: 'uninit', endStatus: 'uninit' });
    expect(b.classify(root, {})).toMatchObject([{ type: 'ton_transfer', success: true }]);
  });

  it('not when the external sent a message, deployed its wallet, or is no wallet request', () => {
    const request = v4Request([messageCell(internal({ to: at(FRIEND), value: 1n }))]);
    const sent = lone(request);
    sent.b.send(sent.root, FRIEND, null);
    expect(sent.b.classify(sent.root, {}).map((a) => a.type)).toEqual(['ton_transfer']);
    expect(sent.b.classify(sent.root, {})[0]?.accounts).toContain(FRIEND);

    const deployed = lone(request, { origStatus: 'uninit' });
    expect(deployed.b.classify(deployed.root, {}).map((a) => a.type)).toEqual(['contract_deploy']);

    const other = lone(beginCell().storeUint(0x12345678, 32).endCell());
    expect(other.b.classify(other.root, {}).map((a) => a.type)).toEqual(['unknown']);
  });
});
