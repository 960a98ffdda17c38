export { AdnlClient, type AdnlClientOptions } from './client.ts';
export {
  createFrameDecoder,
  DEFAULT_MAX_PACKET_BYTES,
  encodeFrame,
  type FrameDecoder,
  MIN_PACKET_LEN,
} from './frame.ts';
export {
  type AdnlSessionCiphers,
  acceptHandshake,
  type ClientHandshake,
  createClientHandshake,
  HANDSHAKE_BYTES,
  type HandshakeResult,
  indexServerKeys,
  type ServerKey,
} from './handshake.ts';
export { adnlKeyId, type Ed25519KeyPair, generateKeyPair, keyPairFromSeed } from './keys.ts';
export {
  type AdnlMessage,
  decodeAdnlMessage,
  encodeAdnlMessage,
  TCP_PING_BYTES,
  TL_ADNL_MESSAGE_ANSWER,
  TL_ADNL_MESSAGE_QUERY,
  TL_PUB_ED25519,
  TL_TCP_PING,
  TL_TCP_PONG,
} from './messages.ts';
export { AdnlServer, type AdnlServerOptions } from './server.ts';
export type { AdnlQueryContext, AdnlQueryHandler, AdnlServerStats } from './server-connection.ts';
export { encodeTlBytes, readInt256, readTlBytes, tlBytesSize, tlId } from './tl.ts';
export { ed25519PublicToX25519, ed25519SeedToX25519, x25519PrivateKey, x25519SharedSecret } from './x25519.ts';
