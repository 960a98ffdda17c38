// The 256-byte ADNL-TCP handshake (ton-libs.md §2.2): key id ‖ client ed25519 key ‖ SHA-256(P) ‖ AES-CTR(P).
// P carries the two session ciphers; the handshake cipher is keyed by the X25519 secret and the digest.
import { type Cipher, createCipheriv, createHash, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { AdnlError } from '../common/index.ts';
import { adnlKeyId, type Ed25519KeyPair, generateKeyPair } from './keys.ts';
import { x25519PrivateKey, x25519SharedSecret } from './x25519.ts';

export const HANDSHAKE_BYTES = 256;
const PARAMS_BYTES = 160;

/** The two AES-256-CTR streams of a connection: `rx` deciphers what arrives, `tx` enciphers what leaves. */
export interface AdnlSessionCiphers {
  rx: Cipher;
  tx: Cipher;
}

function handshakeCipher(secret: Buffer, digest: Buffer): Cipher {
  const key = Buffer.concat([secret.subarray(0, 16), digest.subarray(16, 32)]);
  const iv = Buffer.concat([digest.subarray(0, 4), secret.subarray(20, 32)]);
  return createCipheriv('aes-256-ctr', key, iv);
}

// P = key A ‖ key B ‖ IV A ‖ IV B ‖ 64 unused bytes; the client sends with B and the server with A.
function sessionCiphers(params: Buffer, side: 'client' | 'server'): AdnlSessionCiphers {
  const a = createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));
  const b = createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
  return side === 'client' ? { rx: a, tx: b } : { rx: b, tx: a };
}

export interface ClientHandshake {
  packet: Buffer;
  ciphers: AdnlSessionCiphers;
}

/** Builds the client's handshake packet; `ephemeral` and `params` are fixed only by known-answer tests. */
export function createClientHandshake(
  serverPublicKey: Buffer,
  opts: { ephemeral?: Ed25519KeyPair; params?: Buffer } = {},
): ClientHandshake {
  const ephemeral = opts.ephemeral ?? generateKeyPair();
  const params = opts.params ?? randomBytes(PARAMS_BYTES);
  if (params.length !== PARAMS_BYTES) {
    throw new AdnlError(`ADNL handshake params: expected ${PARAMS_BYTES} bytes, got ${params.length}`);
  }
  const secret = x25519SharedSecret(x25519PrivateKey(ephemeral.seed), serverPublicKey);
  const digest = createHash('sha256').update(params).digest();
  const encrypted = handshakeCipher(secret, digest).update(params);
  const packet = Buffer.concat([adnlKeyId(serverPublicKey), ephemeral.publicKey, digest, encrypted]);
  return { packet, ciphers: sessionCiphers(params, 'client') };
}

export interface ServerKey {
  keyId: Buffer;
  keyPair: Ed25519KeyPair;
  x25519: KeyObject;
}

/** Server keys indexed by hex key id, with their X25519 private keys precomputed. */
export function indexServerKeys(keys: Ed25519KeyPair[]): Map<string, ServerKey> {
  const map = new Map<string, ServerKey>();
  for (const keyPair of keys) {
    const keyId = adnlKeyId(keyPair.publicKey);
    map.set(keyId.toString('hex'), { keyId, keyPair, x25519: x25519PrivateKey(keyPair.seed) });
  }
  return map;
}

export type HandshakeResult =
  | { ok: true; key: ServerKey; ciphers: AdnlSessionCiphers }
  | { ok: false; reason: 'unknown-key' | 'bad-peer-key' | 'bad-digest'; message: string };

/** Server side: looks the key id up, derives the secret, decrypts P and checks SHA-256(P) as the C++ node does. */
export function acceptHandshake(packet: Buffer, keys: Map<string, ServerKey>): HandshakeResult {
  if (packet.length !== HANDSHAKE_BYTES) {
    throw new AdnlError(`ADNL handshake: expected ${HANDSHAKE_BYTES} bytes, got ${packet.length}`);
  }
  const keyIdHex = packet.subarray(0, 32).toString('hex');
  const key = keys.get(keyIdHex);
  if (!key) {
    return { ok: false, reason: 'unknown-key', message: `ADNL handshake: unknown server key id ${keyIdHex}` };
  }
  const peerKey = packet.subarray(32, 64);
  const digest = packet.subarray(64, 96);
  let secret: Buffer;
  try {
    secret = x25519SharedSecret(key.x25519, peerKey);
  } catch (e) {
    return { ok: false, reason: 'bad-peer-key', message: `ADNL handshake: ${(e as Error).message}` };
  }
  const params = handshakeCipher(secret, digest).update(packet.subarray(96));
  if (!timingSafeEqual(createHash('sha256').update(params).digest(), digest)) {
    return {
      ok: false,
      reason: 'bad-digest',
      message: 'ADNL handshake: SHA-256 of the decrypted session parameters does not match the digest',
    };
  }
  return { ok: true, key, ciphers: sessionCiphers(params, 'server') };
}
