// WsConnection over a real WebSocket server and client (the `ws` package on loopback): a client whose socket stops
// reading is closed with code 4008 once its unsent bytes pass the bound, after every message queued before, and
// nothing more is queued for it; a message larger than the bound still reaches a client that keeps up.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { WsSession } from './subscription.ts';
import { SLOW_CLIENT_CLOSE_CODE, WsConnection } from './ws.ts';

const MAX = 64 * 1024;
/** The connection only asks its session for the subscription when the hub delivers, which these tests leave out. */
const SESSION = null as unknown as WsSession;

let server: Server | undefined;
let wss: WebSocketServer | undefined;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const c of wss?.clients ?? []) c.terminate();
  wss?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  wss = undefined;
});

async function connect(): Promise<{ conn: WsConnection; serverSide: WebSocket; client: WebSocket; closed: string[] }> {
  const closed: string[] = [];
  server = createServer();
  wss = new WebSocketServer({ server, perMessageDeflate: false });
  const accepted = new Promise<{ conn: WsConnection; serverSide: WebSocket }>((resolve) => {
    wss!.on('connection', (ws) => {
      resolve({
        conn: new WsConnection(ws, SESSION, { maxBufferedBytes: MAX, onClose: (reason) => closed.push(reason) }),
        serverSide: ws,
      });
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const client = new WebSocket(`ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`);
  clients.push(client);
  await new Promise((r, j) => {
    client.once('open', r);
    client.once('error', j);
  });
  return { ...(await accepted), client, closed };
}

const frame = (n: number, size: number) => ({ json: { type: 'transactions', n, pad: 'x'.repeat(size) } });

describe('WsConnection and a client that stops reading', () => {
  it('closes it with 4008 once its unsent bytes pass the bound, after what was queued, and queues nothing more', async () => {
    const { conn, serverSide, client, closed } = await connect();
    const got: number[] = [];
    client.on('message', (d) => got.push((JSON.parse(String(d)) as { n: number }).n));
    const closedWith = new Promise<{ code: number; reason: string }>((resolve) =>
      client.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    // The client's socket stops reading: the kernel's buffers fill first (a few MB on loopback), then ours.
    client.pause();
    let sent = 0;
    while (closed.length === 0 && sent < 10_000) {
      conn.write([frame(sent++, 8 * 1024)]);
      await new Promise((r) => setImmediate(r));
    }
    expect(closed).toEqual(['client too slow (send buffer overflowed)']);
    const queued = serverSide.bufferedAmount;
    expect(queued).toBeLessThanOrEqual(MAX + 1024);
    conn.write([frame(sent, 8 * 1024)]);
    conn.write([frame(sent + 1, 1024 * 1024)]);
    conn.reply({ status: 'pong' });
    expect(serverSide.bufferedAmount).toBe(queued);

    client.resume();
    const { code, reason } = await closedWith;
    expect(code).toBe(SLOW_CLIENT_CLOSE_CODE);
    expect(reason).toMatch(/^client too slow/);
    // Every message it was sent before the close, in order, none after.
    expect(got).toEqual(Array.from({ length: got.length }, (_, i) => i));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(sent);
  }, 60_000);

  it('sends a message larger than the bound when nothing is queued, and goes on', async () => {
    const { conn, client, closed } = await connect();
    const got: Array<{ n: number; pad: string }> = [];
    client.on('message', (d) => got.push(JSON.parse(String(d)) as { n: number; pad: string }));
    conn.write([frame(0, 4 * MAX)]);
    await new Promise((r) => setTimeout(r, 200));
    conn.write([frame(1, 10)]);
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closed).toEqual([]);
    expect(got.map((m) => m.n)).toEqual([0, 1]);
    expect(got[0]!.pad.length).toBe(4 * MAX);
  });
});
