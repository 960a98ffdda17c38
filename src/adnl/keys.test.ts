import { createHash, randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { AdnlError } from '../common/index.ts';
import { adnlKeyId, generateKeyPair, keyPairFromSeed } from './keys.ts';

describe('Ed25519 key pairs', () => {
  it('derives the RFC 8032 test 1 public key from its seed', () => {
    const kp = keyPairFromSeed(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));
    expect(kp.publicKey.toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  });

  it('agrees with tweetnacl on random seeds', () => {
    for (let i = 0; i < 5; i++) {
      const kp = generateKeyPair();
      expect(kp.seed.length).toBe(32);
      expect(kp.publicKey).toEqual(Buffer.from(nacl.sign.keyPair.fromSeed(kp.seed).publicKey));
    }
  });

  it('rejects seeds that are not 32 bytes', () => {
    expect(() => keyPairFromSeed(Buffer.alloc(31))).toThrow(AdnlError);
  });
});

describe('adnlKeyId', () => {
  it('is SHA-256 of the TL pub.ed25519 (c6b41348 ‖ key)', () => {
    const pub = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
    const expected = createHash('sha256')
      .update(Buffer.from([0xc6, 0xb4, 0x13, 0x48]))
      .update(pub)
      .digest();
    expect(adnlKeyId(pub)).toEqual(expected);
    const other = randomBytes(32);
    expect(adnlKeyId(other)).toEqual(
      createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(other).digest(),
    );
  });
});
