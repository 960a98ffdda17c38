// tgBTC on hand-built traces, for the patterns the mainnet vectors (test/index/actions-mainnet.test.ts) do not show:
// a new key whose coordinator transaction is an internal one, and the mint and new-key logs no pattern took.
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { TraceNode } from '../types.ts';
import { TGBTC_OP } from './tgbtc.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const ADMIN = addr('admin');
const COORDINATOR = addr('coordinator');
const TELEPORT = addr('teleport');
const PEGOUT = addr('pegout');
const RECIPIENT = addr('recipient');

const call = (op: number) => beginCell().storeUint(op, 32).storeUint(0, 64).endCell();

/** An external-out message (a log) of `node`. */
function log(node: TraceNode, body: Cell): void {
  node.tx.outMsgs.push({
    hash: body.hash().toString('base64'),
    source: node.tx.account,
    destination: null,
    value: null,
    extraCurrencies: {},
    opcode: body.beginParse().preloadUint(32),
    bounce: false,
    bounced: false,
    createdLt: null,
    body,
  });
}

const newKeyLog = (amount: bigint, pubkey: bigint, pegout: string) =>
  beginCell()
    .storeUint(TGBTC_OP.newKeyEvent, 32)
    .storeCoins(amount)
    .storeUint(pubkey, 256)
    .storeAddress(Address.parse(pegout))
    .endCell();

describe('tgbtc matcher', () => {
  it('new key: the coordinator transaction that logged dkg_completed, the teleport and its peg-out', () => {
    const b = new TraceBuilder();
    const root = b.external(ADMIN);
    const coordinator = b.send(root, COORDINATOR, call(0x11111111));
    log(
      coordinator,
      beginCell().storeUint(TGBTC_OP.dkgCompletedEvent, 32).storeUint(1_700_000_000, 64).storeUint(7n, 256).endCell(),
    );
    const teleport = b.send(coordinator, TELEPORT, call(TGBTC_OP.newKey));
    log(teleport, newKeyLog(42n, 0xabcn, PEGOUT));
    const pegout = b.send(teleport, PEGOUT, call(TGBTC_OP.pegout));
    const notify = b.send(pegout, COORDINATOR, call(TGBTC_OP.pegoutNotify));
    const back = b.send(pegout, ADMIN, null);
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type)).toEqual(['tgbtc_new_key']);
    expect(actions[0]).toMatchObject({
      source: COORDINATOR,
      destination: TELEPORT,
      destinationSecondary: PEGOUT,
      amount: 42n,
      value: 1_700_000_000n,
      details: { source: COORDINATOR, coordinator: TELEPORT, pegout: PEGOUT, amount: '42', asset: null },
    });
    expect(new Set(actions[0]!.txHashes)).toEqual(
      new Set([root, coordinator, teleport, pegout, notify, back].map((n) => n.tx.hash)),
    );
  });

  it('a new-key log without its DKG is a fallback beside the contract call that caused it', () => {
    const b = new TraceBuilder();
    const root = b.external(COORDINATOR);
    const teleport = b.send(root, TELEPORT, call(TGBTC_OP.newKey));
    log(teleport, newKeyLog(5n, 1n, PEGOUT));
    const actions = b.classify(root, {});
    expect(byType(actions, 'call_contract')).toHaveLength(1);
    expect(byType(actions, 'tgbtc_new_key_fallback')[0]).toMatchObject({
      source: null,
      destination: TELEPORT,
      destinationSecondary: PEGOUT,
      amount: 5n,
      value: null,
      details: { source: null, coordinator: TELEPORT, pegout: PEGOUT, amount: '5' },
    });
  });

  it('a mint log without its peg-in chain is a fallback: the teleport as source, the recipient from the log', () => {
    const b = new TraceBuilder();
    const root = b.external(ADMIN);
    const teleport = b.send(root, TELEPORT, call(TGBTC_OP.mintFinal));
    log(
      teleport,
      beginCell()
        .storeUint(TGBTC_OP.mintEvent, 32)
        .storeCoins(9_850n)
        .storeAddress(Address.parse(RECIPIENT))
        .storeUint(1n, 256)
        .endCell(),
    );
    const actions = b.classify(root, {});
    expect(byType(actions, 'call_contract')).toHaveLength(1);
    expect(byType(actions, 'tgbtc_mint_fallback')[0]).toMatchObject({
      source: TELEPORT,
      sourceSecondary: TELEPORT,
      destination: RECIPIENT,
      destinationSecondary: null,
      asset: null,
      amount: 9_850n,
      details: { source: TELEPORT, destination: RECIPIENT, amount: '9850', asset: null, destination_wallet: null },
    });
  });
});
