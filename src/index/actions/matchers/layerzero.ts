// LayerZero v2 on TON (an OApp talks to its endpoint, channel, message-library connection and ULN; DVNs verify and an
// executor delivers) the way toncenter's classifier reports it, one action per message flow. Every LayerZero message
// body is op:uint32 query_id:uint64 donation:Coins origin:MsgAddress md:^Cell, the md an object of LayerZero's typed
// cells ("cl" objects: a header naming the type and its field layout, padded with ones, then the fields).
// - layerzero_send: endpoint_send#dd4ea3b4 (OApp -> endpoint) -> channel_send#536feb09 -> msglib_connection_send
//   #4002b790 -> uln_send#5de68393 -> msglib_send_callback#421c1a25 (to the channel: its event, up to five fee
//   transfers and channel_send_callback#a2b5fbae to the OApp, with its event and excess). The lzSend object and its
//   packet are read from the OApp's callback (md -> receipt -> lzSend).
// - layerzero_send_tokens: a jetton transfer to an OApp whose notification made the OApp log an event and start such a
//   send: one action for both.
// - layerzero_receive: the executor's lz_receive_prepare#22f3ac09 to the channel -> lz_receive_prepare#97df404c to the
//   OApp -> lz_receive_lock#b7680bc6 -> lz_receive_execute#0c7b8418 (channel -> OApp, the packet in md -> packet) ->
//   lz_receive_execute_callback#caae25a1 back to the channel.
// - layerzero_commit_packet: uln_commit_packet#28b97077 -> uln_connection_commit_packet#f9d37b80 ->
//   endpoint_commit_packet#5dab749a -> channel_commit_packet#5388cd88 (the packet in md -> packet) ->
//   msglib_connection_commit_packet_callback#5e178f33. toncenter names the ULN connection as both uln and
//   uln_connection.
// - layerzero_dvn_verify: dvn_verify#a0d51a8d -> proxy call_contract#09f047d9 -> uln_verify#994aaf4e ->
//   uln_connection_verify#4ec8f80a -> uln_connection_verify_callback#3cb38090 (md -> verification status: nonce,
//   status code).
// Events (#e33b9873, to the event sink, which aborts on them) and excesses along the flow belong to the action.
// toncenter's actions carry no failure: these are all successful. Hashes and OApp addresses are written as Python's
// hex() writes them ("0x", no leading zeros), the message as "0x" and its bytes.
import type { Cell, Slice } from '@ton/core';
import { JETTON_OP, readCell, refuse } from '../../../ton/index.ts';
import type { ActionDraft, Details, MatchContext, Matcher, TraceNode } from '../types.ts';
import { jettonMatcher } from './jetton.ts';
import { bodyOf, isEmptyBody } from './util.ts';

export const LZ_OP = {
  endpointSend: 0xdd4ea3b4,
  channelSend: 0x536feb09,
  msglibConnectionSend: 0x4002b790,
  ulnSend: 0x5de68393,
  msglibSendCallback: 0x421c1a25,
  channelSendCallback: 0xa2b5fbae,
  channelLzReceivePrepare: 0x22f3ac09,
  lzReceivePrepare: 0x97df404c,
  lzReceiveLock: 0xb7680bc6,
  lzReceiveExecute: 0x0c7b8418,
  lzReceiveExecuteCallback: 0xcaae25a1,
  ulnCommitPacket: 0x28b97077,
  ulnConnectionCommitPacket: 0xf9d37b80,
  endpointCommitPacket: 0x5dab749a,
  channelCommitPacket: 0x5388cd88,
  msglibConnectionCommitPacketCallback: 0x5e178f33,
  dvnVerify: 0xa0d51a8d,
  proxyCallContract: 0x09f047d9,
  ulnVerify: 0x994aaf4e,
  ulnConnectionVerify: 0x4ec8f80a,
  ulnConnectionVerifyCallback: 0x3cb38090,
  event: 0xe33b9873,
} as const;

// ---- LayerZero's typed cells ----

/** A cl object's header: `bits` of type info (its name and field layout), then `filler` bits of ones. */
function loadHeader(s: Slice, bits: number, info: bigint, filler: number): void {
  if (s.loadUintBig(bits) !== info) refuse('LayerZero header: another type');
  if (s.loadUintBig(filler) !== (1n << BigInt(filler)) - 1n) refuse('LayerZero header: filler is not ones');
}

/** The type infos of the cl objects read here (LayerZero's TON contracts); lzSend's starts with its 80-bit name. */
export const LZ_HEADER = {
  path: 8903714975572488637007080065659n,
  packet: 417359019239977417716476838698419835n,
  lzSendName: BigInt(`0x${Buffer.from('lzSend').toString('hex')}`),
  lzSend: 582890735024998957421269964955452773563747974476099581n,
  verificationStatus: 38421788582694199859296615363593851n,
} as const;

/** Python's hex(): "0x" and the digits without leading zeros. */
const pyHex = (v: bigint) => `0x${v.toString(16)}`;

/** A cell's bits as bytes (the last one padded with zero bits), "0x"-prefixed. */
function bitsHex(c: Cell): string {
  const s = c.beginParse();
  const bytes: number[] = [];
  while (s.remainingBits >= 8) bytes.push(s.loadUint(8));
  const rest = s.remainingBits;
  if (rest > 0) bytes.push(s.loadUint(rest) << (8 - rest));
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/** The fields are integers far below 2^53 (eids, nonces, request ids, nanoton fees): JSON numbers, as toncenter's. */
const num = (v: bigint) => Number(v);

// lz::Path: header, src_eid:uint32 src_oapp:uint256 dst_eid:uint32 dst_oapp:uint256
// lz::Packet: header, ^path ^message nonce:uint64 guid:uint256
function loadPacket(c: Cell): Details {
  const s = c.beginParse();
  loadHeader(s, 152, LZ_HEADER.packet, 198);
  const p = s.loadRef().beginParse();
  const message = bitsHex(s.loadRef());
  const nonce = s.loadUintBig(64);
  const guid = pyHex(s.loadUintBig(256));
  loadHeader(p, 152, LZ_HEADER.path, 198);
  const srcEid = p.loadUint(32);
  const srcOapp = pyHex(p.loadUintBig(256));
  const dstEid = p.loadUint(32);
  const dstOapp = pyHex(p.loadUintBig(256));
  return {
    src_oapp: srcOapp,
    dst_oapp: dstOapp,
    src_eid: srcEid,
    dst_eid: dstEid,
    nonce: num(nonce),
    guid,
    message,
  };
}

interface LzSend {
  packet: Details;
  sendRequestId: bigint;
  msglibManager: string;
  msglib: string;
  nativeFee: bigint;
  zroFee: bigint;
}

// md::LzSend: name:80 header, send_request_id:uint64 send_msglib_manager:uint256 send_msglib:uint256 ^packet
// ^extra_options ^[send_msglib_connection:uint256 native_fee:uint128 zro_fee:uint128 ^enforced_options ^callback]
function loadLzSend(c: Cell): LzSend {
  const s = c.beginParse();
  if (s.loadUintBig(80) !== LZ_HEADER.lzSendName) refuse('not an lzSend');
  loadHeader(s, 180, LZ_HEADER.lzSend, 90);
  const sendRequestId = s.loadUintBig(64);
  const msglibManager = pyHex(s.loadUintBig(256));
  const msglib = pyHex(s.loadUintBig(256));
  const packet = loadPacket(s.loadRef());
  s.loadRef();
  const fees = s.loadRef().beginParse();
  fees.skip(256);
  return {
    packet,
    sendRequestId,
    msglibManager,
    msglib,
    nativeFee: fees.loadUintBig(128),
    zroFee: fees.loadUintBig(128),
  };
}

/** The cell at a path of first references below `c`. */
const firstRefs = (c: Cell, depth: number): Cell => {
  let cur = c;
  for (let i = 0; i < depth; i++) cur = cur.refs[0] ?? refuse('LayerZero md: missing reference');
  return cur;
};

const read = <T>(n: TraceNode, depth: number, load: (c: Cell) => T): T | null => {
  const b = bodyOf(n);
  return b ? readCell(b, () => load(firstRefs(b, depth))) : null;
};

/** Verification statuses of uln_connection_verify_callback, by code (as toncenter names them). */
const VERIFY_STATUS = new Map<number, string>([
  [0x3bbc306b, 'succeeded'],
  [0x7fcbb4ac, 'nonce_out_of_range'],
  [0x29c53fab, 'dvn_not_configured'],
]);

// md::VerificationStatus: header, nonce:uint64 status:uint32
function loadVerificationStatus(c: Cell): { nonce: bigint; status: string } {
  const s = c.beginParse();
  loadHeader(s, 116, LZ_HEADER.verificationStatus, 234);
  const nonce = s.loadUintBig(64);
  const code = s.loadUint(32);
  return { nonce, status: VERIFY_STATUS.get(code) ?? `unknown_${code}` };
}

// ---- the flows ----

const opOf = (n: TraceNode) => {
  const m = n.tx.inMsg;
  return m && m.source !== null && !m.bounced ? m.opcode : null;
};

/** The free children of `node` that received `op`. */
const withOp = (node: TraceNode, op: number, ctx: MatchContext) =>
  node.children.filter((c) => !ctx.isClaimed(c) && opOf(c) === op);
const childWithOp = (node: TraceNode, op: number, ctx: MatchContext) => withOp(node, op, ctx)[0];

/** The free TON transfers (empty body or comment) `node` sent, as the excesses and fee payments of the flows are. */
const noOpTransfers = (node: TraceNode, ctx: MatchContext) =>
  node.children.filter((c) => {
    const m = c.tx.inMsg;
    return (
      !ctx.isClaimed(c) && m !== null && m.source !== null && !m.bounced && (isEmptyBody(m.body) || m.opcode === 0)
    );
  });

/** What a step brings along: at most one event and up to `maxTransfers` TON transfers. */
function sideNodes(node: TraceNode, ctx: MatchContext, maxTransfers = 1): TraceNode[] {
  const event = childWithOp(node, LZ_OP.event, ctx);
  return [...(event ? [event] : []), ...noOpTransfers(node, ctx).slice(0, maxTransfers)];
}

/** Follows a chain of single messages: each next transaction is the free child that received the next op. */
function chain(start: TraceNode, ops: readonly number[], ctx: MatchContext): TraceNode[] | null {
  const out: TraceNode[] = [];
  let cur = start;
  for (const op of ops) {
    const next = childWithOp(cur, op, ctx);
    if (!next) return null;
    out.push(next);
    cur = next;
  }
  return out;
}

const draft = (type: string, nodes: TraceNode[], d: Omit<ActionDraft, 'type' | 'nodes' | 'success'>): ActionDraft => ({
  type,
  nodes,
  success: true,
  ...d,
});

interface Send {
  nodes: TraceNode[];
  initiator: string;
  details: { layerzero_send_data: Details; layerzero_packet_data: Details };
}

function sendOf(node: TraceNode, ctx: MatchContext): Send | null {
  const initiator = node.tx.inMsg?.source;
  const steps = chain(
    node,
    [LZ_OP.channelSend, LZ_OP.msglibConnectionSend, LZ_OP.ulnSend, LZ_OP.msglibSendCallback],
    ctx,
  );
  if (!initiator || !steps) return null;
  const [channel, , uln, callback] = steps as [TraceNode, TraceNode, TraceNode, TraceNode];
  const oappCallback = childWithOp(callback, LZ_OP.channelSendCallback, ctx);
  const lz = oappCallback && read(oappCallback, 3, loadLzSend);
  if (!oappCallback || !lz) return null;
  return {
    nodes: [node, ...steps, ...sideNodes(callback, ctx, 5), oappCallback, ...sideNodes(oappCallback, ctx)],
    initiator,
    details: {
      layerzero_send_data: {
        send_request_id: num(lz.sendRequestId),
        msglib_manager: lz.msglibManager,
        msglib: lz.msglib,
        uln: uln.tx.account,
        native_fee: num(lz.nativeFee),
        zro_fee: num(lz.zroFee),
        endpoint: node.tx.account,
        channel: channel.tx.account,
      },
      layerzero_packet_data: lz.packet,
    },
  };
}

function sendActionOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const send = sendOf(node, ctx);
  if (!send) return null;
  return draft('layerzero_send', send.nodes, {
    source: send.initiator,
    details: { initiator: send.initiator, ...send.details },
  });
}

/** A jetton transfer to an OApp that logged an event and started a send on its notification. */
function sendTokensOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const transfer = jettonMatcher.match(node, ctx)?.find((d) => d.type === 'jetton_transfer');
  if (!transfer) return null;
  const notified = transfer.nodes.filter((n) => opOf(n) === JETTON_OP.transferNotification);
  const event = transfer.nodes.flatMap((n) => withOp(n, LZ_OP.event, ctx))[0];
  const start = notified.flatMap((n) => withOp(n, LZ_OP.endpointSend, ctx))[0];
  const send = start && sendOf(start, ctx);
  if (!event || !send) return null;
  const t = {
    sender: transfer.source ?? null,
    sender_wallet: transfer.sourceSecondary ?? null,
    oapp: transfer.destination ?? null,
    oapp_wallet: transfer.destinationSecondary ?? null,
    asset: transfer.asset ?? null,
    amount: transfer.amount ?? null,
  };
  return draft('layerzero_send_tokens', [...transfer.nodes, event, ...send.nodes], {
    source: t.sender,
    sourceSecondary: t.sender_wallet,
    destination: t.oapp,
    destinationSecondary: t.oapp_wallet,
    asset: t.asset,
    amount: t.amount,
    details: { ...t, amount: t.amount === null ? null : t.amount.toString(), ...send.details },
  });
}

function receiveOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const sender = node.tx.inMsg?.source;
  const steps = chain(node, [LZ_OP.lzReceivePrepare, LZ_OP.lzReceiveLock, LZ_OP.lzReceiveExecute], ctx);
  if (!sender || !steps) return null;
  const execute = steps[2]!;
  const callback = childWithOp(execute, LZ_OP.lzReceiveExecuteCallback, ctx);
  const packet = read(execute, 2, loadPacket);
  const channel = execute.tx.inMsg?.source ?? null;
  const oapp = execute.tx.account;
  // toncenter compares the OApp's raw address after its first two characters with dst_oapp after "0x".
  if (!callback || !packet || oapp.slice(2).toLowerCase() !== String(packet.dst_oapp).slice(2)) return null;
  const event = childWithOp(execute, LZ_OP.event, ctx);
  return draft(
    'layerzero_receive',
    [
      node,
      ...noOpTransfers(node, ctx).slice(0, 1),
      ...steps,
      ...(event ? [event] : []),
      callback,
      ...sideNodes(callback, ctx),
    ],
    {
      source: sender,
      destination: oapp,
      destinationSecondary: channel,
      details: { sender, oapp, channel, layerzero_packet_data: packet },
    },
  );
}

function commitPacketOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const sender = node.tx.inMsg?.source;
  const ops = [LZ_OP.ulnConnectionCommitPacket, LZ_OP.endpointCommitPacket, LZ_OP.channelCommitPacket];
  const steps = chain(node, ops, ctx);
  if (!sender || !steps) return null;
  const [connection, endpoint, channel] = steps as [TraceNode, TraceNode, TraceNode];
  const callback = childWithOp(channel, LZ_OP.msglibConnectionCommitPacketCallback, ctx);
  const packet = read(channel, 2, loadPacket);
  if (!callback || !packet) return null;
  const event = childWithOp(channel, LZ_OP.event, ctx);
  const columns = {
    sender,
    endpoint: endpoint.tx.account,
    uln: connection.tx.account,
    uln_connection: connection.tx.account,
    channel: channel.tx.account,
    msglib_connection: callback.tx.account,
  };
  return draft(
    'layerzero_commit_packet',
    [node, ...steps, ...(event ? [event] : []), callback, ...noOpTransfers(callback, ctx).slice(0, 1)],
    {
      source: sender,
      sourceSecondary: columns.endpoint,
      destination: columns.uln,
      destinationSecondary: columns.uln_connection,
      asset: columns.channel,
      assetSecondary: columns.msglib_connection,
      details: { ...columns, layerzero_packet_data: packet },
    },
  );
}

function dvnVerifyOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const sender = node.tx.inMsg?.source;
  const steps = chain(node, [LZ_OP.proxyCallContract, LZ_OP.ulnVerify, LZ_OP.ulnConnectionVerify], ctx);
  if (!sender || !steps) return null;
  const [proxy, uln, connection] = steps as [TraceNode, TraceNode, TraceNode];
  const callback = childWithOp(connection, LZ_OP.ulnConnectionVerifyCallback, ctx);
  const verified = callback && read(callback, 2, loadVerificationStatus);
  if (!callback || !verified) return null;
  const event = childWithOp(connection, LZ_OP.event, ctx);
  return draft(
    'layerzero_dvn_verify',
    [node, ...steps, ...(event ? [event] : []), callback, ...noOpTransfers(callback, ctx).slice(0, 1)],
    {
      source: sender,
      details: {
        initiator: sender,
        nonce: num(verified.nonce),
        status: verified.status,
        dvn: node.tx.account,
        proxy: proxy.tx.account,
        uln: uln.tx.account,
        uln_connection: connection.tx.account,
      },
    },
  );
}

export const layerzeroMatcher: Matcher = {
  name: 'layerzero',
  types: [
    'layerzero_send',
    'layerzero_send_tokens',
    'layerzero_receive',
    'layerzero_commit_packet',
    'layerzero_dvn_verify',
  ],
  match(node, ctx) {
    let d: ActionDraft | null;
    switch (opOf(node)) {
      case LZ_OP.endpointSend:
        d = sendActionOf(node, ctx);
        break;
      case JETTON_OP.transfer:
        d = sendTokensOf(node, ctx);
        break;
      case LZ_OP.channelLzReceivePrepare:
        d = receiveOf(node, ctx);
        break;
      case LZ_OP.ulnCommitPacket:
        d = commitPacketOf(node, ctx);
        break;
      case LZ_OP.dvnVerify:
        d = dvnVerifyOf(node, ctx);
        break;
      default:
        d = null;
    }
    return d ? [d] : null;
  },
};
