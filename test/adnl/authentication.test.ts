// ADNL-TCP client authentication (tcp.authentificate / authentificationNonce / authentificationComplete), which
// tonlib (and so toncenter's ton-http-api) sends first on every session: the server must answer it as the C++
// node does instead of closing the session, and still serve queries sent before the handshake completes.
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdnlServer, decodeAdnlMessage, encodeAdnlMessage, generateKeyPair } from '../../src/adnl/index.ts';
import { rawSession } from '../helpers/adnl.ts';

const key = generateKeyPair();
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const signWith = (seed: Buffer, data: Buffer) =>
  sign(
    null,
    data,
    createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );

describe('ADNL client authentication', () => {
  let server: AdnlServer;
  let port: number;
  const logged: string[] = [];

  beforeAll(async () => {
    server = new AdnlServer({
      keys: [key],
      onQuery: async (q) => Buffer.concat([Buffer.from('ok:'), q]),
      log: (_level, msg) => logged.push(msg),
    });
    ({ port } = await server.listen());
  });
  afterAll(async () => {
    await server.close();
  });

  it('round-trips the three messages', () => {
    const nonce = randomBytes(32);
    for (const m of [
      { _: 'tcp.authentificate' as const, nonce },
      { _: 'tcp.authentificationNonce' as const, nonce: randomBytes(256) },
      { _: 'tcp.authentificationComplete' as const, publicKey: randomBytes(32), signature: randomBytes(64) },
    ]) {
      expect(decodeAdnlMessage(encodeAdnlMessage(m))).toEqual(m);
    }
    // tonlib's first packet: 4-byte id + TL bytes of a 32-byte nonce = 40 bytes, id 0x445bab12
    const first = encodeAdnlMessage({ _: 'tcp.authentificate', nonce });
    expect(first.length).toBe(40);
    expect(first.readUInt32LE(0)).toBe(0x445bab12);
  });

  it('answers tcp.authentificate with a nonce, accepts a valid signature and serves queries meanwhile', async () => {
    const client = generateKeyPair();
    const s = await rawSession(port, key.publicKey);
    try {
      const nonce = randomBytes(32);
      const queryId = randomBytes(32);
      // tonlib sends its queries right behind tcp.authentificate, without waiting for the nonce
      s.send(encodeAdnlMessage({ _: 'tcp.authentificate', nonce }));
      s.send(encodeAdnlMessage({ _: 'adnl.message.query', queryId, query: Buffer.from('q1') }));
      const packets = [decodeAdnlMessage(await s.next()), decodeAdnlMessage(await s.next())];
      const theirs = packets.find((p) => p._ === 'tcp.authentificationNonce');
      expect(theirs).toBeDefined();
      if (theirs?._ !== 'tcp.authentificationNonce') throw new Error('no nonce');
      expect(theirs.nonce.length).toBe(256);
      expect(packets).toContainEqual({ _: 'adnl.message.answer', queryId, answer: Buffer.from('ok:q1') });
      const signature = signWith(client.seed, Buffer.concat([nonce, theirs.nonce]));
      s.send(encodeAdnlMessage({ _: 'tcp.authentificationComplete', publicKey: client.publicKey, signature }));
      const q2 = randomBytes(32);
      s.send(encodeAdnlMessage({ _: 'adnl.message.query', queryId: q2, query: Buffer.from('q2') }));
      expect(decodeAdnlMessage(await s.next())).toEqual({
        _: 'adnl.message.answer',
        queryId: q2,
        answer: Buffer.from('ok:q2'),
      });
      expect(logged).toContain('Authenticated ADNL client');
    } finally {
      s.socket.destroy();
    }
  });

  it('closes on a bad signature, a second tcp.authentificate and a Complete without a nonce', async () => {
    const client = generateKeyPair();
    const cases: Array<(s: Awaited<ReturnType<typeof rawSession>>) => Promise<void>> = [
      async (s) => {
        s.send(encodeAdnlMessage({ _: 'tcp.authentificate', nonce: randomBytes(32) }));
        await s.next();
        const signature = signWith(client.seed, randomBytes(288));
        s.send(encodeAdnlMessage({ _: 'tcp.authentificationComplete', publicKey: client.publicKey, signature }));
      },
      async (s) => {
        s.send(encodeAdnlMessage({ _: 'tcp.authentificate', nonce: randomBytes(32) }));
        s.send(encodeAdnlMessage({ _: 'tcp.authentificate', nonce: randomBytes(32) }));
      },
      async (s) => {
        s.send(
          encodeAdnlMessage({
            _: 'tcp.authentificationComplete',
            publicKey: client.publicKey,
            signature: randomBytes(64),
          }),
        );
      },
    ];
    for (const run of cases) {
      const s = await rawSession(port, key.publicKey);
      const before = server.stats().protocolErrors;
      await run(s);
      await s.closed;
      expect(server.stats().protocolErrors).toBe(before + 1);
    }
  });
});
