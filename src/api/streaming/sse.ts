// The SSE side of a connection (streaming.md §1.3): `event: connected` first, every notification as `event: event`
// with one `data:` line of compact JSON, `: keepalive` every 15 s. Ours beyond toncenter: a finalized notification
// carries its cursor as the SSE `id:` (EventSource sends it back as Last-Event-ID when it reconnects), and a client
// that stops reading is closed when its unsent data passes a bound, with a last `event: error` frame saying so,
// instead of holding memory or anyone else.
import type { ServerResponse } from 'node:http';
import type { Json } from './events.ts';
import type { Frame, StreamClient } from './hub.ts';
import type { Subscription } from './subscription.ts';

export const SSE_KEEPALIVE_MS = 15_000;
/** Bytes a connection may have unsent before it is closed as too slow (default). */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** A closed slow client gets this long to take its last frame before the socket is destroyed. */
const CLOSE_GRACE_MS = 5_000;

export interface SseOptions {
  keepaliveMs?: number;
  maxBufferedBytes?: number;
  onClose: (reason: string) => void;
}

export class SseConnection implements StreamClient {
  private readonly keepalive: NodeJS.Timeout;
  private readonly maxBuffered: number;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly sub: Subscription,
    private readonly opts: SseOptions,
  ) {
    this.maxBuffered = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Proxies (nginx) otherwise hold the stream back in their buffers.
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    this.keepalive = setInterval(() => this.raw(': keepalive\n\n'), opts.keepaliveMs ?? SSE_KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => this.close('client closed the connection'));
  }

  subscription(): Subscription {
    return this.sub;
  }

  /** The first frame: `event: connected`. */
  connected(data: Json): void {
    this.raw(`event: connected\ndata: ${JSON.stringify(data)}\n\n`);
  }

  write(frames: Frame[]): void {
    let text = '';
    for (const f of frames) {
      text += `event: event\n${f.cursor ? `id: ${f.cursor}\n` : ''}data: ${JSON.stringify(f.json)}\n\n`;
    }
    this.raw(text);
  }

  private raw(text: string): void {
    if (this.closed) return;
    // Nothing waiting: written whatever its size (a frame larger than the bound would otherwise close every client,
    // and close it again each time it resumes before that frame).
    const queued = this.res.writableLength;
    if (queued > 0 && queued + text.length > this.maxBuffered) {
      this.overflow();
      return;
    }
    this.res.write(text);
  }

  private overflow(): void {
    const error = {
      error: `client too slow: more than ${this.maxBuffered} bytes of events unsent; reconnect with Last-Event-ID to resume`,
    };
    this.close('client too slow (send buffer overflowed)', `event: error\ndata: ${JSON.stringify(error)}\n\n`);
    const res = this.res;
    setTimeout(() => res.destroy(), CLOSE_GRACE_MS).unref();
  }

  /** Ends the stream (after `last`, when given); the hub forgets the connection. */
  close(reason: string, last?: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepalive);
    this.opts.onClose(reason);
    if (!this.res.writableEnded) this.res.end(last);
  }
}
