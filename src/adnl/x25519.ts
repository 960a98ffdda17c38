// ECDH for the ADNL handshake: X25519 over Ed25519 keys converted by hand.
//
// Why no library: node:crypto has X25519 and Ed25519 but no conversion between them, and the packages that do
// (@noble/ed25519, tweetnacl) are only transitive dependencies of ton-lite-client, not ours. The conversion
// is two formulas: the Montgomery u of an Edwards point is (1+y)/(1-y) mod p, and the X25519 scalar of an
// Ed25519 seed is the clamped first half of SHA-512(seed) (the same secret scalar Ed25519 signs with).
import { createHash, createPrivateKey, createPublicKey, diffieHellman, type KeyObject } from 'node:crypto';
import { AdnlError } from '../common/index.ts';

const P = (1n << 255n) - 19n;
// Edwards d = -121665/121666 mod p.
const D = mod(-121665n * inv(121666n));

// Raw X25519 keys enter node:crypto as DER with these fixed prefixes (RFC 8410).
const PKCS8_X25519_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function pow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

function inv(a: bigint): bigint {
  return pow(a, P - 2n);
}

function readLe(buf: Buffer): bigint {
  return BigInt(`0x${Buffer.from(buf).reverse().toString('hex')}`);
}

function writeLe(n: bigint): Buffer {
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();
}

/**
 * Montgomery u-coordinate (32 bytes LE) of an Ed25519 public key. Rejects a non-canonical y, the identity
 * (y = 1, where u is undefined) and encodings that are not on the curve.
 */
export function ed25519PublicToX25519(publicKey: Buffer): Buffer {
  if (publicKey.length !== 32) throw new AdnlError(`Ed25519 public key: expected 32 bytes, got ${publicKey.length}`);
  const yBytes = Buffer.from(publicKey);
  yBytes[31]! &= 0x7f; // the top bit is the sign of x; u does not depend on it
  const y = readLe(yBytes);
  if (y >= P) throw new AdnlError(`Ed25519 public key ${publicKey.toString('hex')}: y is not reduced mod p`);
  if (y === 1n) throw new AdnlError(`Ed25519 public key ${publicKey.toString('hex')}: the identity point`);
  // On the curve iff x^2 = (y^2 - 1) / (d y^2 + 1) is a square (Euler's criterion).
  const y2 = (y * y) % P;
  const x2 = mod((y2 - 1n) * inv(mod(D * y2 + 1n)));
  if (x2 !== 0n && pow(x2, (P - 1n) / 2n) !== 1n) {
    throw new AdnlError(`Ed25519 public key ${publicKey.toString('hex')}: not a point on the curve`);
  }
  return writeLe(mod((1n + y) * inv(mod(1n - y))));
}

/** The X25519 private scalar of an Ed25519 seed: SHA-512(seed)[0..32], clamped. */
export function ed25519SeedToX25519(seed: Buffer): Buffer {
  if (seed.length !== 32) throw new AdnlError(`Ed25519 seed: expected 32 bytes, got ${seed.length}`);
  const s = createHash('sha512').update(seed).digest().subarray(0, 32);
  s[0]! &= 248;
  s[31]! &= 127;
  s[31]! |= 64;
  return Buffer.from(s);
}

/** node:crypto X25519 private key for an Ed25519 seed (precompute once per server key). */
export function x25519PrivateKey(seed: Buffer): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([PKCS8_X25519_PREFIX, ed25519SeedToX25519(seed)]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** The 32-byte ADNL shared secret between our key and the peer's Ed25519 public key. */
export function x25519SharedSecret(ours: KeyObject, peerEd25519PublicKey: Buffer): Buffer {
  const u = ed25519PublicToX25519(peerEd25519PublicKey);
  try {
    const peer = createPublicKey({ key: Buffer.concat([SPKI_X25519_PREFIX, u]), format: 'der', type: 'spki' });
    return diffieHellman({ privateKey: ours, publicKey: peer });
  } catch (cause) {
    // OpenSSL refuses small-order points (an all-zero secret).
    throw new AdnlError(`X25519 with peer key ${peerEd25519PublicKey.toString('hex')} failed`, { cause });
  }
}
