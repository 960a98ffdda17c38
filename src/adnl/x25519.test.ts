import { randomBytes } from 'node:crypto';
import * as noble from '@noble/ed25519';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { AdnlError } from '../common/index.ts';
import { generateKeyPair, keyPairFromSeed } from './keys.ts';
import { ed25519PublicToX25519, ed25519SeedToX25519, x25519PrivateKey, x25519SharedSecret } from './x25519.ts';

describe('Ed25519 -> X25519 conversion', () => {
  it('matches the libsodium ed25519_convert known answer', () => {
    // libsodium test/default/ed25519_convert.{c,exp}: crypto_sign_ed25519_{pk,sk}_to_curve25519 of this seed.
    const kp = keyPairFromSeed(Buffer.from('421151a459faeade3d247115f94aedae42318124095afabe4d1451a559faedee', 'hex'));
    expect(ed25519PublicToX25519(kp.publicKey).toString('hex')).toBe(
      'f1814f0e8ff1043d8a44d25babff3cedcae6c22c3edaa48f857ae70de2baae50',
    );
    expect(ed25519SeedToX25519(kp.seed).toString('hex')).toBe(
      '8052030376d47112be7f73ed7a019293dd12ad910b654455798b4667d73de166',
    );
  });

  it('agrees with @noble/ed25519 on the u-coordinate and the clamped scalar', async () => {
    for (let i = 0; i < 8; i++) {
      const kp = generateKeyPair();
      expect(ed25519PublicToX25519(kp.publicKey)).toEqual(Buffer.from(noble.Point.fromHex(kp.publicKey).toX25519()));
      const ext = await noble.utils.getExtendedPublicKey(kp.seed);
      expect(ed25519SeedToX25519(kp.seed)).toEqual(Buffer.from(ext.head));
    }
  });

  it('rejects the identity, a non-reduced y and points off the curve', () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    expect(() => ed25519PublicToX25519(identity)).toThrow(/identity/);
    expect(() => ed25519PublicToX25519(Buffer.alloc(32, 0xff))).toThrow(/not reduced/);
    // y = 2 is not the y of any curve point: (y^2 - 1)/(d y^2 + 1) is a non-square.
    const y2 = Buffer.alloc(32);
    y2[0] = 2;
    expect(() => noble.Point.fromHex(y2)).toThrow();
    expect(() => ed25519PublicToX25519(y2)).toThrow(/not a point/);
    expect(() => ed25519PublicToX25519(Buffer.alloc(31))).toThrow(AdnlError);
  });
});

describe('x25519SharedSecret', () => {
  it('gives both sides the same secret, equal to two independent implementations', async () => {
    for (let i = 0; i < 8; i++) {
      const a = generateKeyPair();
      const b = generateKeyPair();
      const ab = x25519SharedSecret(x25519PrivateKey(a.seed), b.publicKey);
      const ba = x25519SharedSecret(x25519PrivateKey(b.seed), a.publicKey);
      expect(ab).toEqual(ba);
      // @noble/ed25519 1.x does its own Edwards->Montgomery conversion and Montgomery ladder (what the adnl client uses).
      expect(ab).toEqual(Buffer.from(await noble.getSharedSecret(a.seed, b.publicKey)));
      // tweetnacl's scalarMult on our converted inputs checks the DER/KeyObject plumbing separately.
      expect(ab).toEqual(Buffer.from(nacl.scalarMult(ed25519SeedToX25519(a.seed), ed25519PublicToX25519(b.publicKey))));
    }
  });

  it('throws AdnlError instead of deriving from a small-order point', () => {
    // y = -1 is the point (0, -1) of order 2: u = 0 and the X25519 output would be all zeros.
    const p = (1n << 255n) - 19n;
    const minusOne = Buffer.from((p - 1n).toString(16).padStart(64, '0'), 'hex').reverse();
    expect(() => x25519SharedSecret(x25519PrivateKey(randomBytes(32)), minusOne)).toThrow(AdnlError);
  });
});
