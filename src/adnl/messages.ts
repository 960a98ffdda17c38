// The messages that travel inside ADNL-TCP packets (ton_api.tl), hand-written: tagged by `_` like every TL
// object in the project, fields in camelCase.
import { AdnlError } from '../common/index.ts';
import { encodeTlBytes, need, readInt256, readTlBytes, tlId } from './tl.ts';

export const TL_ADNL_MESSAGE_QUERY = tlId('adnl.message.query query_id:int256 query:bytes = adnl.Message');
export const TL_ADNL_MESSAGE_ANSWER = tlId('adnl.message.answer query_id:int256 answer:bytes = adnl.Message');
export const TL_TCP_PING = tlId('tcp.ping random_id:long = tcp.Pong');
export const TL_TCP_PONG = tlId('tcp.pong random_id:long = tcp.Pong');
export const TL_PUB_ED25519 = tlId('pub.ed25519 key:int256 = PublicKey');
// Client authentication on an ADNL-TCP session (ton_api.tl): tonlib's clients open every session with
// tcp.authentificate, the server answers with its own nonce, the client signs both with its key.
export const TL_TCP_AUTHENTIFICATE = tlId('tcp.authentificate nonce:bytes = tcp.Message');
export const TL_TCP_AUTHENTIFICATION_NONCE = tlId('tcp.authentificationNonce nonce:bytes = tcp.Message');
export const TL_TCP_AUTHENTIFICATION_COMPLETE = tlId(
  'tcp.authentificationComplete key:PublicKey signature:bytes = tcp.Message',
);

/** Exactly what the C++ server treats as a ping: a 12-byte payload (id + long). */
export const TCP_PING_BYTES = 12;

export type AdnlMessage =
  | { _: 'adnl.message.query'; queryId: Buffer; query: Buffer }
  | { _: 'adnl.message.answer'; queryId: Buffer; answer: Buffer }
  | { _: 'tcp.ping'; randomId: bigint }
  | { _: 'tcp.pong'; randomId: bigint }
  | { _: 'tcp.authentificate'; nonce: Buffer }
  | { _: 'tcp.authentificationNonce'; nonce: Buffer }
  /** Only `pub.ed25519` keys can sign, so only they are decoded (the C++ node refuses the others too). */
  | { _: 'tcp.authentificationComplete'; publicKey: Buffer; signature: Buffer };

export function encodeAdnlMessage(m: AdnlMessage): Buffer {
  switch (m._) {
    case 'adnl.message.query':
      return withQueryId(TL_ADNL_MESSAGE_QUERY, m.queryId, m.query);
    case 'adnl.message.answer':
      return withQueryId(TL_ADNL_MESSAGE_ANSWER, m.queryId, m.answer);
    case 'tcp.ping':
    case 'tcp.pong': {
      const out = Buffer.alloc(TCP_PING_BYTES);
      out.writeUInt32LE(m._ === 'tcp.ping' ? TL_TCP_PING : TL_TCP_PONG, 0);
      out.writeBigInt64LE(BigInt.asIntN(64, m.randomId), 4);
      return out;
    }
    case 'tcp.authentificate':
    case 'tcp.authentificationNonce': {
      const head = Buffer.alloc(4);
      head.writeUInt32LE(m._ === 'tcp.authentificate' ? TL_TCP_AUTHENTIFICATE : TL_TCP_AUTHENTIFICATION_NONCE, 0);
      return Buffer.concat([head, encodeTlBytes(m.nonce)]);
    }
    case 'tcp.authentificationComplete': {
      if (m.publicKey.length !== 32) {
        throw new AdnlError(`tcp.authentificationComplete: expected a 32-byte key, got ${m.publicKey.length}`);
      }
      const head = Buffer.alloc(40);
      head.writeUInt32LE(TL_TCP_AUTHENTIFICATION_COMPLETE, 0);
      head.writeUInt32LE(TL_PUB_ED25519, 4);
      m.publicKey.copy(head, 8);
      return Buffer.concat([head, encodeTlBytes(m.signature)]);
    }
  }
}

/** Decodes one packet payload; throws AdnlError on an unknown id, a short buffer or trailing bytes. */
export function decodeAdnlMessage(payload: Buffer): AdnlMessage {
  need(payload, 0, 4, 'ADNL message');
  const id = payload.readUInt32LE(0);
  let m: AdnlMessage;
  let end: number;
  if (id === TL_ADNL_MESSAGE_QUERY || id === TL_ADNL_MESSAGE_ANSWER) {
    const where = id === TL_ADNL_MESSAGE_QUERY ? 'adnl.message.query' : 'adnl.message.answer';
    const queryId = readInt256(payload, 4, where);
    const body = readTlBytes(payload, 36, where);
    end = body.next;
    m =
      id === TL_ADNL_MESSAGE_QUERY
        ? { _: 'adnl.message.query', queryId, query: body.value }
        : { _: 'adnl.message.answer', queryId, answer: body.value };
  } else if (id === TL_TCP_PING || id === TL_TCP_PONG) {
    need(payload, 4, 8, id === TL_TCP_PING ? 'tcp.ping' : 'tcp.pong');
    const randomId = payload.readBigInt64LE(4);
    end = TCP_PING_BYTES;
    m = id === TL_TCP_PING ? { _: 'tcp.ping', randomId } : { _: 'tcp.pong', randomId };
  } else if (id === TL_TCP_AUTHENTIFICATE || id === TL_TCP_AUTHENTIFICATION_NONCE) {
    const where = id === TL_TCP_AUTHENTIFICATE ? 'tcp.authentificate' : 'tcp.authentificationNonce';
    const nonce = readTlBytes(payload, 4, where);
    end = nonce.next;
    m =
      id === TL_TCP_AUTHENTIFICATE
        ? { _: 'tcp.authentificate', nonce: nonce.value }
        : { _: 'tcp.authentificationNonce', nonce: nonce.value };
  } else if (id === TL_TCP_AUTHENTIFICATION_COMPLETE) {
    const where = 'tcp.authentificationComplete';
    need(payload, 4, 4, where);
    const keyType = payload.readUInt32LE(4);
    if (keyType !== TL_PUB_ED25519) {
      throw new AdnlError(
        `${where}: expected a pub.ed25519 key, got constructor 0x${keyType.toString(16).padStart(8, '0')}`,
      );
    }
    const publicKey = readInt256(payload, 8, where);
    const signature = readTlBytes(payload, 40, where);
    end = signature.next;
    m = { _: 'tcp.authentificationComplete', publicKey, signature: signature.value };
  } else {
    throw new AdnlError(
      `ADNL message: expected adnl.message.query/answer, tcp.ping/pong or tcp.authentificat*, got constructor 0x${id.toString(16).padStart(8, '0')}`,
    );
  }
  if (end !== payload.length) {
    throw new AdnlError(`${m._}: expected ${end} bytes, got ${payload.length} (trailing bytes)`);
  }
  return m;
}

function withQueryId(ctor: number, queryId: Buffer, body: Buffer): Buffer {
  if (queryId.length !== 32) throw new AdnlError(`ADNL query id: expected 32 bytes, got ${queryId.length}`);
  const head = Buffer.alloc(36);
  head.writeUInt32LE(ctor, 0);
  queryId.copy(head, 4);
  return Buffer.concat([head, encodeTlBytes(body)]);
}
