// A Server-Sent Events reader over plain HTTP for the streaming tests: POSTs a subscription and parses the stream
// into frames (event name, id, data) as the SSE spec defines them, keeping comments (keepalives) apart. No library:
// what is under test is the wire format itself.
import { request } from 'node:http';

export interface SseFrame {
  event: string;
  id?: string;
  data: string;
  /** Date.now() when the frame was read off the socket. */
  receivedAt: number;
}

export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body of a refused request (status ≠ 200). */
  body: string;
  frames: SseFrame[];
  comments: string[];
  /** Resolves with the first frame (at or after index `from`) that `match` accepts. */
  next(match: (f: SseFrame) => boolean, timeoutMs?: number, from?: number): Promise<SseFrame>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  opts: { contentType?: string; rawBody?: string } = {},
): Promise<SseStream> {
  const text = opts.rawBody ?? JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': opts.contentType ?? 'application/json', ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const frames: SseFrame[] = [];
      const comments: string[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let bodyText = '';
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => {
        endResolve = r;
      });
      const wake = () => {
        for (const w of waiters.splice(0)) w();
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          bodyText += chunk;
          return;
        }
        buffer += chunk;
        let at = buffer.indexOf('\n\n');
        while (at >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const frame: SseFrame = { event: 'message', data: '', receivedAt: Date.now() };
          const data: string[] = [];
          let isFrame = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) {
              frame.event = line.slice(7);
              isFrame = true;
            } else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('data: ')) {
              data.push(line.slice(6));
              isFrame = true;
            }
          }
          if (isFrame) {
            frame.data = data.join('\n');
            frames.push(frame);
          }
          at = buffer.indexOf('\n\n');
        }
        wake();
      });
      const finish = () => {
        endResolve();
        wake();
      };
      res.on('end', finish);
      res.on('close', finish);
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return bodyText;
        },
        frames,
        comments,
        ended,
        async next(match, timeoutMs = 60_000, from = 0) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const found = frames.slice(from).find(match);
            if (found) return found;
            if (Date.now() > deadline) {
              throw new Error(`no matching SSE frame within ${timeoutMs} ms; got ${frames.length} frames`);
            }
            await new Promise<void>((r) => {
              const t = setTimeout(r, Math.max(10, deadline - Date.now()));
              waiters.push(() => {
                clearTimeout(t);
                r();
              });
            });
          }
        },
        close() {
          req.destroy();
          res.destroy();
        },
      };
      if (res.statusCode !== 200) res.on('end', () => resolve(stream));
      else resolve(stream);
    });
    req.end(text);
  });
}

/** The JSON of every `event: event` frame. */
export function notifications(s: SseStream, from = 0): Array<Record<string, unknown> & { type: string }> {
  return s.frames
    .slice(from)
    .filter((f) => f.event === 'event')
    .map((f) => JSON.parse(f.data) as Record<string, unknown> & { type: string });
}
