import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import * as noble from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { createFrameDecoder, encodeFrame } from './frame.ts';
import { acceptHandshake, createClientHandshake, HANDSHAKE_BYTES, indexServerKeys } from './handshake.ts';
import { adnlKeyId, generateKeyPair } from './keys.ts';

describe('ADNL handshake', () => {
  const server = generateKeyPair();
  const other = generateKeyPair();
  const keys = indexServerKeys([other, server]);

  it('lays out key id ‖ client key ‖ SHA-256(P) ‖ P under the ECDH cipher (checked with @noble/ed25519)', async () => {
    const ephemeral = generateKeyPair();
    const params = randomBytes(160);
    const { packet } = createClientHandshake(server.publicKey, { ephemeral, params });
    expect(packet.length).toBe(HANDSHAKE_BYTES);
    expect(packet.subarray(0, 32)).toEqual(adnlKeyId(server.publicKey));
    expect(packet.subarray(32, 64)).toEqual(ephemeral.publicKey);
    const digest = createHash('sha256').update(params).digest();
    expect(packet.subarray(64, 96)).toEqual(digest);
    // Decrypt P with a secret computed by an independent implementation (the one the adnl client uses).
    const secret = Buffer.from(await noble.getSharedSecret(server.seed, ephemeral.publicKey));
    const key = Buffer.concat([secret.subarray(0, 16), digest.subarray(16, 32)]);
    const iv = Buffer.concat([digest.subarray(0, 4), secret.subarray(20, 32)]);
    expect(createCipheriv('aes-256-ctr', key, iv).update(packet.subarray(96))).toEqual(params);
  });

  it('gives the server the ciphers that pair with the client (A: server -> client, B: client -> server)', () => {
    const params = randomBytes(160);
    const client = createClientHandshake(server.publicKey, { params });
    const accepted = acceptHandshake(client.packet, keys);
    if (!accepted.ok) throw new Error(accepted.message);
    expect(accepted.key.keyPair.publicKey).toEqual(server.publicKey);

    const toServer = [randomBytes(10), Buffer.alloc(0), randomBytes(5000)];
    const wireUp = Buffer.concat(toServer.map((p) => encodeFrame(client.ciphers.tx, p)));
    expect(createFrameDecoder(accepted.ciphers.rx).push(wireUp)).toEqual(toServer);
    // B = P[32..64] with IV P[80..96] carries client -> server traffic.
    const b = createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
    expect(b.update(wireUp).readUInt32LE(0)).toBe(74);

    const toClient = [Buffer.alloc(0), randomBytes(77)];
    const wireDown = Buffer.concat(toClient.map((p) => encodeFrame(accepted.ciphers.tx, p)));
    expect(createFrameDecoder(client.ciphers.rx).push(wireDown)).toEqual(toClient);
    const a = createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));
    expect(a.update(wireDown).readUInt32LE(0)).toBe(64);
  });

  it('refuses an unknown key id', () => {
    const { packet } = createClientHandshake(generateKeyPair().publicKey);
    const r = acceptHandshake(packet, keys);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('unknown-key');
  });

  it('refuses a digest that does not match the decrypted parameters', () => {
    const { packet } = createClientHandshake(server.publicKey);
    const bad = Buffer.from(packet);
    bad[64 + 31]! ^= 0x01; // the byte only enters the digest comparison (key uses 16..32 -> it also changes the key)
    const r1 = acceptHandshake(bad, keys);
    expect(!r1.ok && r1.reason).toBe('bad-digest');
    const bad2 = Buffer.from(packet);
    bad2[200]! ^= 0x80; // a flipped ciphertext bit flips one bit of P
    const r2 = acceptHandshake(bad2, keys);
    expect(!r2.ok && r2.reason).toBe('bad-digest');
  });

  it('refuses a client key that is not a curve point', () => {
    const { packet } = createClientHandshake(server.publicKey);
    const bad = Buffer.from(packet);
    bad.fill(0, 32, 64);
    bad[32] = 1; // the identity point
    const r = acceptHandshake(bad, keys);
    expect(!r.ok && r.reason).toBe('bad-peer-key');
  });
});
