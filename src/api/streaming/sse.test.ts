// SseConnection over a real HTTP server and a real socket: a client that stops reading is closed once its unsent
// bytes pass the bound, the last thing it gets being an `event: error` frame and the end of the response, and
// nothing more is queued for it; a frame larger than the bound still reaches a client that keeps up.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseConnection } from './sse.ts';
import type { Subscription } from './subscription.ts';

const MAX = 64 * 1024;
/** The connection only hands its subscription to the hub, which these tests leave out. */
const SUB = null as unknown as Subscription;

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** An HTTP server whose one request becomes an SseConnection; a raw socket that sent that request, paused. */
async function connect(): Promise<{ conn: SseConnection; res: ServerResponse; sock: Socket; closed: string[] }> {
  const closed: string[] = [];
  const accepted = new Promise<{ conn: SseConnection; res: ServerResponse }>((resolve) => {
    server = createServer((_req, res) => {
      const conn = new SseConnection(res, SUB, {
        maxBufferedBytes: MAX,
        keepaliveMs: 3_600_000,
        onClose: (reason) => closed.push(reason),
      });
      conn.connected({ status: 'subscribed' });
      resolve({ conn, res });
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const addr = server!.address();
  const sock = createConnection({ host: '127.0.0.1', port: typeof addr === 'object' && addr ? addr.port : 0 });
  sockets.push(sock);
  await new Promise((r) => sock.once('connect', r));
  sock.pause();
  sock.write('POST /sse HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
  return { ...(await accepted), sock, closed };
}

/** Everything the socket gives from now until the server ends the response or the socket closes. */
function readAll(sock: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    sock.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.endsWith('\r\n0\r\n\r\n')) resolve(text);
    });
    sock.on('close', () => resolve(text));
    sock.on('error', () => {});
    sock.resume();
  });
}

/** The body of a chunked response. */
function dechunk(response: string): { text: string; complete: boolean } {
  let at = response.indexOf('\r\n\r\n') + 4;
  let text = '';
  for (;;) {
    const eol = response.indexOf('\r\n', at);
    if (eol < 0) return { text, complete: false };
    const size = Number.parseInt(response.slice(at, eol), 16);
    if (!Number.isFinite(size)) return { text, complete: false };
    if (size === 0) return { text, complete: true };
    text += response.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

const frame = (n: number, size: number) => ({ json: { type: 'transactions', n, pad: 'x'.repeat(size) } });

describe('SseConnection and a client that stops reading', () => {
  it('closes it with `event: error` once its unsent bytes pass the bound, and queues nothing more', async () => {
    const { conn, res, sock, closed } = await connect();
    // Frames of 8 KiB while the socket does not read: the kernel's buffers fill first (a few MB on loopback), then
    // ours; one tick between writes lets the kernel take what it can.
    let sent = 0;
    while (closed.length === 0 && sent < 10_000) {
      conn.write([frame(sent++, 8 * 1024)]);
      await new Promise((r) => setImmediate(r));
    }
    expect(closed).toEqual(['client too slow (send buffer overflowed)']);
    // What waits for the client is bounded: the bound, less than one frame more, the error frame.
    const queued = res.writableLength;
    expect(queued).toBeLessThanOrEqual(MAX + 1024);
    conn.write([frame(sent, 8 * 1024)]);
    conn.write([frame(sent + 1, 1024 * 1024)]);
    expect(res.writableLength).toBe(queued);

    const body = dechunk(await readAll(sock));
    expect(body.complete).toBe(true);
    const frames = body.text.split('\n\n').filter((f) => f.length > 0);
    expect(frames[0]).toBe('event: connected\ndata: {"status":"subscribed"}');
    const last = frames.at(-1)!;
    expect(last.startsWith('event: error\ndata: ')).toBe(true);
    expect(JSON.parse(last.slice('event: error\ndata: '.length))).toEqual({
      error: `client too slow: more than ${MAX} bytes of events unsent; reconnect with Last-Event-ID to resume`,
    });
    // Every frame it was sent before the close, in order, none after.
    const ns = frames.slice(1, -1).map((f) => (JSON.parse(f.slice('event: event\ndata: '.length)) as { n: number }).n);
    expect(ns).toEqual(Array.from({ length: ns.length }, (_, i) => i));
    expect(ns.length).toBeGreaterThan(0);
    expect(ns.length).toBeLessThan(sent);
    console.log(
      `sse: a paused client was closed after ${sent} frames of 8 KiB (${((sent * 8) / 1024).toFixed(1)} MiB, most of it in the kernel's socket buffers), ${ns.length} of them delivered once it read again`,
    );
  }, 60_000);

  it('writes a frame larger than the bound when nothing is queued, and goes on', async () => {
    const { conn, sock, closed } = await connect();
    const reading = readAll(sock);
    conn.write([frame(0, 4 * MAX)]);
    await new Promise((r) => setTimeout(r, 200));
    conn.write([frame(1, 10)]);
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toEqual([]);
    conn.close('done');
    const frames = dechunk(await reading)
      .text.split('\n\n')
      .filter((f) => f.length > 0);
    expect(frames.map((f) => f.split('\n')[0])).toEqual(['event: connected', 'event: event', 'event: event']);
    expect(frames[1]!.length).toBeGreaterThan(4 * MAX);
  });
});
