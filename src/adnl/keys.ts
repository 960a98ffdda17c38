// Ed25519 key pairs (node:crypto) and the ADNL key id that names a server key in the handshake.
import { createHash, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { AdnlError } from '../common/index.ts';
import { TL_PUB_ED25519 } from './messages.ts';

export interface Ed25519KeyPair {
  seed: Buffer;
  publicKey: Buffer;
}

// node:crypto takes raw Ed25519 seeds only inside DER: PKCS#8 = this fixed 16-byte prefix + the 32-byte seed
// (RFC 8410), and the SubjectPublicKeyInfo it exports ends with the raw 32-byte key.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function keyPairFromSeed(seed: Buffer): Ed25519KeyPair {
  if (seed.length !== 32) throw new AdnlError(`Ed25519 seed: expected 32 bytes, got ${seed.length}`);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { seed: Buffer.from(seed), publicKey: Buffer.from(spki.subarray(spki.length - 32)) };
}

export function generateKeyPair(): Ed25519KeyPair {
  return keyPairFromSeed(randomBytes(32));
}

/** ADNL short id: SHA-256 of the TL-serialised `pub.ed25519 key:int256`. */
export function adnlKeyId(publicKey: Buffer): Buffer {
  if (publicKey.length !== 32) throw new AdnlError(`Ed25519 public key: expected 32 bytes, got ${publicKey.length}`);
  const tl = Buffer.alloc(36);
  tl.writeUInt32LE(TL_PUB_ED25519, 0);
  publicKey.copy(tl, 4);
  return createHash('sha256').update(tl).digest();
}
