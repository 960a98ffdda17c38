// One ADNL connection to one liteserver, speaking lite_api through ton-lite-client's generated codecs.
//
// Why not ton-lite-client's LiteSingleEngine (ton-libs.md §1.5; each point checked by running it):
// - after a socket error it emits 'error', an uncaught exception when nobody listens;
// - it then calls close() and starts a 30 s timer that reconnects regardless: a closed engine comes back to
//   life (seen: a second 'error' 30 s after close()) and keeps the process alive; query timers are not cleared;
// - its ADNL client, held in a private field out of our reach, throws inside the socket 'data' handler on a bad
//   checksum, and the engine throws on any packet that is not adnl.message.answer (an unsolicited tcp.pong):
//   both kill the process;
// - a server key that is not a valid ed25519 point makes its connect() reject unhandled (seen: the process
//   exits with "Point.fromHex: invalid y coordinate").
// So this class keeps the sound part of ton-lite-client (the request/response codecs, through `TlFunction`)
// and puts our own ADNL client (src/adnl) underneath: no events, every timer owned and cleared, every failure a
// typed error. The pool (lite-pool.ts) owns reconnects; LiteRoundRobinEngine's retry rules are not used at all.
import { AdnlClient } from '../../adnl/index.ts';
import {
  AdnlError,
  CodecError,
  InputError,
  isTongateError,
  LiteServerError,
  LiteTimeoutError,
} from '../../common/index.ts';
import type { LiteServerEndpoint } from '../global-config.ts';
import { decodeTlPrefix, encodeTl, type LiteServerErrorObject, tlConstructorId } from '../tl/index.ts';
import { type TlFunction, TlReader, TlWriter } from './tl-buffer.ts';

const LITE_ERROR = tlConstructorId('liteServer.error');

export interface LiteQueryOptions {
  /** Local deadline for this one query. */
  timeoutMs: number;
  /** Prefix the query with liteServer.waitMasterchainSeqno(seqno). */
  awaitSeqno?: number;
  /** Name for messages and metrics (e.g. 'getMasterchainInfo'). */
  method?: string;
}

export interface LiteConnectionOptions {
  connectTimeoutMs: number;
  /** Called once when an established session ends on its own (peer closed, socket error, protocol error). */
  onSessionLost?: (err: Error) => void;
}

export class LiteConnection {
  private client: AdnlClient | undefined;
  private connecting: Promise<void> | undefined;
  private generation = 0;
  /** Aborts the connect in flight when close() runs, so a pending connect cannot hold the process open. */
  private connectAbort: AbortController | undefined;

  constructor(
    readonly server: LiteServerEndpoint,
    private readonly opts: LiteConnectionOptions,
  ) {}

  /** True while an ADNL session is established and not closed by either side. */
  get isOpen(): boolean {
    return this.client !== undefined && !this.client.closed;
  }

  /** Opens a fresh session (closing any previous one). Concurrent callers share one attempt. */
  connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.dropClient();
    const generation = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    const attempt = (async () => {
      let client: AdnlClient;
      try {
        client = await AdnlClient.connect({
          host: this.server.host,
          port: this.server.port,
          serverPublicKey: this.server.publicKey,
          timeoutMs: this.opts.connectTimeoutMs,
          signal: abort.signal,
        });
      } catch (e) {
        throw asTransportError(e, `could not connect to liteserver ${this.server.id}`);
      }
      if (generation !== this.generation) {
        client.close(); // close() or another connect() ran meanwhile
        throw new AdnlError(`connection to liteserver ${this.server.id} was closed while it was being opened`);
      }
      this.client = client;
      client.onClose((err) => {
        // Not for close() of ours: that bumps the generation first.
        if (generation === this.generation && this.client === client) {
          this.opts.onSessionLost?.(err ?? new AdnlError(`liteserver ${this.server.id} closed the connection`));
        }
      });
    })();
    this.connecting = attempt;
    const clear = () => {
      if (this.connecting === attempt) this.connecting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  /** Sends one lite_api function and decodes its answer. liteServer.error answers throw LiteServerError. */
  async query<REQ, RES>(fn: TlFunction<REQ, RES>, req: REQ, o: LiteQueryOptions): Promise<RES> {
    const method = o.method ?? 'query';
    const w = new TlWriter();
    try {
      fn.encodeRequest(req, w.asEncoder());
    } catch (e) {
      throw new InputError(`${method}: the request could not be encoded: ${(e as Error).message}`, { cause: e });
    }
    const answer = await this.queryRaw(w.build(), o);
    const r = new TlReader(answer);
    try {
      return fn.decodeResponse(r.asDecoder());
    } catch (e) {
      throw new CodecError(
        `${method}: liteserver ${this.server.id} sent an answer that does not decode ` +
          `(${answer.length} bytes starting ${answer.subarray(0, 8).toString('hex')}): ${(e as Error).message}`,
        { cause: e, details: { server: this.server.id, method } },
      );
    }
  }

  /**
   * Sends an already encoded lite_api function (boxed) and returns the boxed answer bytes. The
   * liteServer.query wrapper and the optional waitMasterchainSeqno prefix are added here.
   */
  async queryRaw(body: Buffer, o: LiteQueryOptions): Promise<Buffer> {
    const method = o.method ?? 'query';
    const client = this.client;
    if (!client || client.closed) {
      throw new AdnlError(`${method}: liteserver ${this.server.id} is not connected`, {
        details: { server: this.server.id, method },
      });
    }
    const timeoutMs = Math.max(1, Math.floor(o.timeoutMs));
    let packet: Buffer;
    try {
      let data = body;
      if (o.awaitSeqno !== undefined) {
        // The server must give up before we do, or its late "timeout" error races our own (ton-libs.md §1.5.5).
        const prefix = encodeTl({
          _: 'liteServer.waitMasterchainSeqno',
          seqno: o.awaitSeqno,
          timeoutMs: Math.max(1, timeoutMs - Math.min(500, Math.floor(timeoutMs / 5))),
        });
        data = Buffer.concat([prefix, body]);
      }
      packet = encodeTl({ _: 'liteServer.query', data });
    } catch (e) {
      // a caller's value (seqno, timeout, body size) that TL cannot carry: not the server's fault
      throw new InputError(`${method}: the request could not be encoded: ${(e as Error).message}`, { cause: e });
    }

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new LiteTimeoutError(`${method}: liteserver ${this.server.id} did not answer within ${timeoutMs} ms`, {
              details: { server: this.server.id, method, timeoutMs },
            }),
          ),
        timeoutMs,
      );
    });
    // The ADNL client gets a little longer so that our own timer decides, with our own error type.
    // (an executor turns a synchronous throw into a rejection, so the timer above is always cleared)
    const sent = new Promise<Buffer>((resolve, reject) => {
      client.query(packet, timeoutMs + 1000).then(resolve, reject);
    });
    sent.catch(() => {}); // it may settle after the race is decided
    let answer: Buffer;
    try {
      answer = await Promise.race([sent, deadline]);
    } catch (e) {
      if (e instanceof LiteTimeoutError) throw e;
      throw asTransportError(e, `${method}: liteserver ${this.server.id} failed`, { server: this.server.id, method });
    } finally {
      clearTimeout(timer);
    }

    if (answer.length >= 4 && answer.readUInt32LE(0) === LITE_ERROR) {
      let code: number;
      let message: string;
      try {
        ({ code, message } = decodeTlPrefix(answer).value as LiteServerErrorObject);
      } catch (e) {
        throw new CodecError(`${method}: liteserver ${this.server.id} sent a truncated liteServer.error`, {
          cause: e,
          details: { server: this.server.id, method },
        });
      }
      throw new LiteServerError(code, `${method}: liteserver ${this.server.id} answered ${code} ${message}`, {
        details: { server: this.server.id, method, liteMessage: message },
      });
    }
    return answer;
  }

  /** Closes the session; in-flight queries fail with AdnlError. Safe to call repeatedly. */
  close(): void {
    this.generation++;
    this.connectAbort?.abort();
    this.connectAbort = undefined;
    this.connecting = undefined;
    this.dropClient();
  }

  private dropClient(): void {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        c.close();
      } catch {
        // closing a broken socket must not throw out of the pool
      }
    }
  }
}

function asTransportError(e: unknown, what: string, details: Record<string, unknown> = {}): Error {
  if (e instanceof LiteTimeoutError || e instanceof AdnlError) return e;
  if (isTongateError(e)) return e;
  return new AdnlError(`${what}: ${(e as Error)?.message ?? String(e)}`, { cause: e, details });
}
