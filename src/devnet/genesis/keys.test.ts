import { hkdfSync } from 'node:crypto';
import { keyPairFromSeed } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { deriveGenesisKeys } from './keys.ts';

describe('deriveGenesisKeys', () => {
  it('is deterministic in the seed and follows the documented HKDF derivation', () => {
    const a = deriveGenesisKeys('devnet-seed');
    const b = deriveGenesisKeys('devnet-seed');
    expect(a).toEqual(b);
    for (const role of ['validator', 'liteserver'] as const) {
      const expected = Buffer.from(hkdfSync('sha256', 'devnet-seed', 'tongate-devnet', role, 32));
      expect(a[role].seed.equals(expected)).toBe(true);
      // The public key is the ed25519 expansion of the seed, as @ton/crypto (tweetnacl) computes it.
      expect(a[role].publicKey.equals(keyPairFromSeed(a[role].seed).publicKey)).toBe(true);
      expect(a[role].publicKey).toHaveLength(32);
    }
    expect(a.validator.seed.equals(a.liteserver.seed)).toBe(false);
  });

  it('gives unrelated keys for a different seed', () => {
    const a = deriveGenesisKeys('devnet-seed');
    const c = deriveGenesisKeys('devnet-seed2');
    expect(c.validator.publicKey.equals(a.validator.publicKey)).toBe(false);
    expect(c.liteserver.publicKey.equals(a.liteserver.publicKey)).toBe(false);
  });
});
