// Genesis keys, derived from the devnet seed so a restarted devnet keeps its validator and liteserver identities
// (and every published global config stays valid).
//
// Derivation: ed25519 seed = HKDF-SHA256(ikm = UTF-8(seed), salt = "tongate-devnet", info = role, 32 bytes) with
// role "validator" or "liteserver"; the key pair is the RFC 8032 expansion of that 32-byte seed.
import { hkdfSync } from 'node:crypto';
import { keyPairFromSeed } from '@ton/crypto';

export const GENESIS_KDF_SALT = 'tongate-devnet';

export interface GenesisKey {
  /** The 32-byte ed25519 seed (RFC 8032 private key). */
  seed: Buffer;
  publicKey: Buffer;
}

export interface GenesisKeys {
  validator: GenesisKey;
  liteserver: GenesisKey;
}

function deriveKey(seed: string, role: 'validator' | 'liteserver'): GenesisKey {
  const ed25519Seed = Buffer.from(hkdfSync('sha256', Buffer.from(seed, 'utf8'), GENESIS_KDF_SALT, role, 32));
  return { seed: ed25519Seed, publicKey: keyPairFromSeed(ed25519Seed).publicKey };
}

/** Deterministic: the same seed always gives the same keys; different seeds give unrelated ones. */
export function deriveGenesisKeys(seed: string): GenesisKeys {
  return { validator: deriveKey(seed, 'validator'), liteserver: deriveKey(seed, 'liteserver') };
}
