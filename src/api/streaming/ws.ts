// The WebSocket side of a connection (streaming.md §1.4): every frame is bare JSON text; acks and errors answer the
// client's operations at once, notifications follow the subscription. Ours beyond toncenter: a finalized
// notification carries a `cursor` field, `resume_from` on subscribe (or on the URL) replays what was missed after
// one, and a client that stops reading is closed (code 4008, the reason in the close frame) once its unsent data
// passes a bound, instead of delaying every other client as toncenter's server does.
import type { WebSocket } from 'ws';
import type { Json } from './events.ts';
import type { Frame, StreamClient } from './hub.ts';
import type { Subscription, WsSession } from './subscription.ts';

export const DEFAULT_WS_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const SLOW_CLIENT_CLOSE_CODE = 4008;
const CLOSE_GRACE_MS = 5_000;

export class WsConnection implements StreamClient {
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly session: WsSession,
    private readonly opts: { maxBufferedBytes?: number; onClose: (reason: string) => void },
  ) {
    ws.on('close', () => this.close('client closed the connection'));
    ws.on('error', () => this.close('socket error'));
  }

  subscription(): Subscription | null {
    const s = this.session.subscription;
    return s.types.size > 0 ? s : null;
  }

  /** An ack or error reply. */
  reply(json: Json): void {
    this.send(JSON.stringify(json));
  }

  write(frames: Frame[]): void {
    for (const f of frames) this.send(JSON.stringify(f.cursor ? { ...f.json, cursor: f.cursor } : f.json));
  }

  private send(text: string): void {
    if (this.closed) return;
    const max = this.opts.maxBufferedBytes ?? DEFAULT_WS_MAX_BUFFERED_BYTES;
    // Nothing waiting: sent whatever its size (as sse.ts: else a frame larger than the bound closes every client).
    const queued = this.ws.bufferedAmount;
    if (queued > 0 && queued + text.length > max) {
      const ws = this.ws;
      this.close('client too slow (send buffer overflowed)');
      // A close frame's reason is at most 123 bytes.
      ws.close(SLOW_CLIENT_CLOSE_CODE, 'client too slow: send buffer overflowed; resume with resume_from');
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      return;
    }
    this.ws.send(text);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.opts.onClose(reason);
  }
}
