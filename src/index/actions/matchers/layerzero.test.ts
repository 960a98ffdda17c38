// LayerZero on hand-built traces, for what the mainnet vectors (test/index/actions-mainnet.test.ts) do not show: a
// jetton transfer to an OApp that sends through LayerZero (layerzero_send_tokens), and the same without the OApp's
// event, which stays a jetton_transfer and a layerzero_send. Bodies follow LayerZero's layout: op, query_id, donation,
// origin, ^md, the md's objects headed by their type info and a filler of ones.
import { type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo } from '../types.ts';
import { internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { LZ_HEADER, LZ_OP } from './layerzero.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const USER = addr('user');
const USER_WALLET = addr('user-wallet');
const OAPP = addr('oapp');
const OAPP_WALLET = addr('oapp-wallet');
const MASTER = addr('master');
const SINK = addr('event-sink');
const ENDPOINT = addr('endpoint');
const CHANNEL = addr('channel');
const MSGLIB = addr('msglib-connection');
const ULN = addr('uln');
const EXECUTOR = addr('executor');

const wallets: Record<string, ContractInfo> = {
  [USER_WALLET]: { jettonWallet: { jetton: MASTER, owner: USER } },
  [OAPP_WALLET]: { jettonWallet: { jetton: MASTER, owner: OAPP } },
};

const hash = (a: string) => BigInt(`0x${a.slice(2)}`);
const ones = (b: Builder, n: number) => b.storeUint((1n << BigInt(n)) - 1n, n);
const empty = () => beginCell().endCell();

const path = () =>
  ones(beginCell().storeUint(LZ_HEADER.path, 152), 198)
    .storeUint(30343, 32)
    .storeUint(hash(OAPP), 256)
    .storeUint(30101, 32)
    .storeUint(0x5d3a1ff2b6bab83b63cd9ad0787074081a52ef34n, 256)
    .endCell();

const packet = () =>
  ones(beginCell().storeUint(LZ_HEADER.packet, 152), 198)
    .storeRef(path())
    .storeRef(beginCell().storeUint(0xabc, 12).endCell())
    .storeUint(17, 64)
    .storeUint(0x0fedn, 256)
    .endCell();

const lzSend = () =>
  ones(beginCell().storeUint(LZ_HEADER.lzSendName, 80).storeUint(LZ_HEADER.lzSend, 180), 90)
    .storeUint(3, 64)
    .storeUint(0x0abcn, 256)
    .storeUint(hash(ULN), 256)
    .storeRef(packet())
    .storeRef(empty())
    .storeRef(
      beginCell()
        .storeUint(hash(MSGLIB), 256)
        .storeUint(1_234_567n, 128)
        .storeUint(0, 128)
        .storeRef(empty())
        .storeRef(empty())
        .endCell(),
    )
    .endCell();

const lzBody = (op: number, md: Cell = empty()) =>
  beginCell().storeUint(op, 32).storeUint(1, 64).storeCoins(0).storeAddress(null).storeRef(md).endCell();

/** The OApp's callback: md -> receipt -> lzSend. */
const sendCallback = () =>
  lzBody(LZ_OP.channelSendCallback, beginCell().storeRef(beginCell().storeRef(lzSend()).endCell()).endCell());

function tokensTrace(withEvent: boolean) {
  const b = new TraceBuilder();
  const root = b.external(USER);
  const userWallet = b.send(root, USER_WALLET, jettonTransferBody(1000n, OAPP, USER, null));
  const oappWallet = b.send(userWallet, OAPP_WALLET, internalTransferBody(1000n, USER, USER, null));
  const oapp = b.send(oappWallet, OAPP, notifyBody(1000n, USER, null));
  const event = withEvent ? [b.send(oapp, SINK, lzBody(LZ_OP.event), { value: 0n })] : [];
  const endpoint = b.send(oapp, ENDPOINT, lzBody(LZ_OP.endpointSend));
  const channel = b.send(endpoint, CHANNEL, lzBody(LZ_OP.channelSend));
  const msglib = b.send(channel, MSGLIB, lzBody(LZ_OP.msglibConnectionSend));
  const uln = b.send(msglib, ULN, lzBody(LZ_OP.ulnSend));
  const callback = b.send(uln, CHANNEL, lzBody(LZ_OP.msglibSendCallback));
  const fee = b.send(callback, EXECUTOR, null);
  const oappCallback = b.send(callback, OAPP, sendCallback());
  const excess = b.send(oappCallback, USER, null);
  const sendNodes = [endpoint, channel, msglib, uln, callback, fee, oappCallback, excess];
  return { actions: b.classify(root, wallets), root, transfer: [userWallet, oappWallet, oapp], event, sendNodes };
}

const expectedSend = {
  layerzero_send_data: {
    send_request_id: 3,
    msglib_manager: '0xabc',
    msglib: `0x${ULN.slice(2).toLowerCase().replace(/^0+/, '')}`,
    uln: ULN,
    native_fee: 1_234_567,
    zro_fee: 0,
    endpoint: ENDPOINT,
    channel: CHANNEL,
  },
  layerzero_packet_data: {
    src_oapp: `0x${OAPP.slice(2).toLowerCase().replace(/^0+/, '')}`,
    dst_oapp: '0x5d3a1ff2b6bab83b63cd9ad0787074081a52ef34',
    src_eid: 30343,
    dst_eid: 30101,
    nonce: 17,
    guid: '0xfed',
    message: '0xabc0',
  },
};

describe('layerzero matcher', () => {
  it('a jetton transfer to an OApp that logs an event and sends: one layerzero_send_tokens', () => {
    const t = tokensTrace(true);
    expect(t.actions.map((a) => a.type)).toEqual(['layerzero_send_tokens']);
    expect(t.actions[0]).toMatchObject({
      success: true,
      source: USER,
      sourceSecondary: USER_WALLET,
      destination: OAPP,
      destinationSecondary: OAPP_WALLET,
      asset: MASTER,
      amount: 1000n,
      details: {
        sender: USER,
        sender_wallet: USER_WALLET,
        oapp: OAPP,
        oapp_wallet: OAPP_WALLET,
        asset: MASTER,
        amount: '1000',
        ...expectedSend,
      },
    });
    expect(new Set(t.actions[0]!.txHashes)).toEqual(
      new Set([t.root, ...t.transfer, ...t.event, ...t.sendNodes].map((n) => n.tx.hash)),
    );
  });

  it('without the OApp event: the jetton transfer and the send stay apart', () => {
    const t = tokensTrace(false);
    expect(byType(t.actions, 'jetton_transfer')).toHaveLength(1);
    const [send, ...rest] = byType(t.actions, 'layerzero_send');
    expect(rest).toEqual([]);
    expect(send).toMatchObject({ source: OAPP, details: { initiator: OAPP, ...expectedSend } });
    expect(new Set(send!.txHashes)).toEqual(new Set([t.transfer[2]!, ...t.sendNodes].map((n) => n.tx.hash)));
  });
});
