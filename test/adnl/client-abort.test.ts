// AdnlClient.connect can be aborted: a connect stuck on a silent peer must not hold the process open.
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { AdnlClient, generateKeyPair } from '../../src/adnl/index.ts';

describe('AdnlClient.connect abort', () => {
  const sockets: import('node:net').Socket[] = [];
  // A TCP peer that accepts and never answers the handshake.
  const silent: Server = createServer((s) => sockets.push(s));
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('rejects at once when aborted during the handshake, and when the signal is already aborted', async () => {
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    const key = generateKeyPair().publicKey;
    const ac = new AbortController();
    const p = AdnlClient.connect({
      host: '127.0.0.1',
      port,
      serverPublicKey: key,
      timeoutMs: 60_000,
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(), 50);
    await expect(p).rejects.toThrow(/connect aborted/);
    const pre = new AbortController();
    pre.abort();
    await expect(
      AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: key, timeoutMs: 60_000, signal: pre.signal }),
    ).rejects.toThrow(/connect aborted/);
  });
});
