// Our AdnlServer against two independent client implementations: ton-lite-client (LiteSingleEngine over the
// `adnl` package) and the `adnl` package's ADNLClientTCP used directly.
import { randomBytes } from 'node:crypto';
import { ADNLClientTCP } from 'adnl';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdnlServer,
  decodeAdnlMessage,
  encodeAdnlMessage,
  encodeTlBytes,
  generateKeyPair,
  readTlBytes,
  tlId,
} from '../../src/adnl/index.ts';

// Constructor ids from the TL lines in shared/ton-schema/lite_api.tl (tlId is checked against ton-libs.md §2.7).
const LITE_QUERY = tlId('liteServer.query data:bytes = Object');
const GET_TIME = tlId('liteServer.getTime = liteServer.CurrentTime');
const CURRENT_TIME = tlId('liteServer.currentTime now:int = liteServer.CurrentTime');
const LITE_ERROR = tlId('liteServer.error code:int message:string = liteServer.Error');

function currentTime(now: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(CURRENT_TIME, 0);
  b.writeInt32LE(now, 4);
  return b;
}

function liteError(code: number, message: string): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(LITE_ERROR, 0);
  head.writeInt32LE(code, 4);
  return Buffer.concat([head, encodeTlBytes(Buffer.from(message, 'utf8'))]);
}

describe('interop with ton-lite-client and the adnl package', () => {
  const key = generateKeyPair();
  const seen: Buffer[] = [];
  let answerWith: (query: Buffer) => Buffer = () => Buffer.alloc(0);
  let server: AdnlServer;
  let port: number;

  beforeAll(async () => {
    server = new AdnlServer({
      keys: [generateKeyPair(), key],
      onQuery: async (q) => {
        seen.push(q);
        return answerWith(q);
      },
    });
    ({ port } = await server.listen());
  });

  afterAll(async () => {
    await server.close();
  });

  it('serves LiteClient.getCurrentTime and propagates liteServer.error', async () => {
    const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: key.publicKey });
    // The engine refuses queries until its socket connected; 'ready' follows our empty handshake packet.
    const ready = new Promise<void>((r) => engine.once('ready', () => r()));
    const errors: unknown[] = [];
    engine.on('error', (e) => errors.push(e)); // without a listener the engine throws from a socket handler
    try {
      await ready;
      const client = new LiteClient({ engine });
      answerWith = () => currentTime(1_714_000_123);
      expect(await client.getCurrentTime()).toBe(1_714_000_123);
      // what arrived in onQuery: liteServer.query { data = liteServer.getTime }
      const q = seen.at(-1)!;
      expect(q.readUInt32LE(0)).toBe(LITE_QUERY);
      const { value: data, next } = readTlBytes(q, 4, 'liteServer.query');
      expect(next).toBe(q.length);
      expect(data.toString('hex')).toBe('345aad16');
      expect(data.readUInt32LE(0)).toBe(GET_TIME);

      answerWith = () => liteError(651, 'block is not applied');
      await expect(client.getCurrentTime()).rejects.toThrow('block is not applied');

      // the connection survived the error answer
      answerWith = () => currentTime(42);
      expect(await client.getCurrentTime()).toBe(42);
      expect(errors).toEqual([]);
      expect(server.stats().answers).toBeGreaterThanOrEqual(3);
    } finally {
      engine.close();
    }
  });

  it('serves queries and pings from the adnl package ADNLClientTCP', async () => {
    const client = new ADNLClientTCP(`tcp://127.0.0.1:${port}`, key.publicKey);
    const payloads: Buffer[] = [];
    let onPayload: (() => void) | undefined;
    client.on('data', (d: Buffer) => {
      payloads.push(Buffer.from(d));
      onPayload?.();
    });
    client.on('error', () => {});
    const closed = new Promise<void>((r) => client.on('close', () => r()));
    const ready = new Promise<void>((r) => client.on('ready', () => r()));
    const nextPayload = () =>
      new Promise<Buffer>((r) => {
        onPayload = () => r(payloads.shift()!);
      });
    try {
      await client.connect();
      await ready;

      answerWith = (q) => Buffer.concat([Buffer.from('echo:'), q]);
      const queryId = randomBytes(32);
      const query = randomBytes(1000);
      let p = nextPayload();
      client.write(encodeAdnlMessage({ _: 'adnl.message.query', queryId, query }));
      expect(decodeAdnlMessage(await p)).toEqual({
        _: 'adnl.message.answer',
        queryId,
        answer: Buffer.concat([Buffer.from('echo:'), query]),
      });

      p = nextPayload();
      client.write(encodeAdnlMessage({ _: 'tcp.ping', randomId: 0x1234567890abcdefn }));
      expect(decodeAdnlMessage(await p)).toEqual({ _: 'tcp.pong', randomId: 0x1234567890abcdefn });
    } finally {
      client.end();
      await closed;
    }
  });
});
