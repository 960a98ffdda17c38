import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdnlClient, AdnlServer, generateKeyPair } from '../../adnl/index.ts';
import { decodeTl, encodeTl, TL_SCHEMA, type TlObject } from '../tl/index.ts';
import type { ChainView } from './chain-view.ts';
import { createLiteDispatcher, LITE_HANDLERS } from './dispatcher.ts';
import { LITE_TIMEOUT } from './lite-errors.ts';

describe('dispatcher', () => {
  it('has a handler for every liteServer.* function of lite_api.tl (the envelope functions aside)', () => {
    const envelope = new Set(['liteServer.query', 'liteServer.queryPrefix', 'liteServer.waitMasterchainSeqno']);
    const functions = TL_SCHEMA.filter((c) => c.kind === 'function' && !envelope.has(c.name)).map((c) => c.name);
    expect(functions.length).toBeGreaterThan(30);
    expect(Object.keys(LITE_HANDLERS).sort()).toEqual(functions.sort());
  });
});

// Every query of one ADNL connection gets that connection's AbortSignal. Hundreds of concurrent queries must
// not stack one 'abort' listener each on it (Node warns past 10: MaxListenersExceededWarning), and whatever
// the dispatcher attaches must be gone once the queries settle.
describe('dispatcher: many concurrent queries on one connection signal', () => {
  const N = 200;
  const sendMessage = encodeTl({
    _: 'liteServer.query',
    data: encodeTl({ _: 'liteServer.sendMessage', body: Buffer.from([1]) }),
  });
  const waitThenTime = encodeTl({
    _: 'liteServer.query',
    data: Buffer.concat([
      encodeTl({ _: 'liteServer.waitMasterchainSeqno', seqno: 5, timeoutMs: 5000 }),
      encodeTl({ _: 'liteServer.getTime' }),
    ]),
  });

  /**
   * A view whose sendMessage and waitMasterchainSeqno park until release(), so all N queries are in flight at
   * once; a parked wait also ends when its query's signal aborts.
   */
  function gatedView() {
    let parked = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const view = {
      masterchainInfo: async () => ({ last: { seqno: 1 } }),
      waitMasterchainSeqno: async (_seqno: number, signal: AbortSignal) => {
        parked++;
        await new Promise<void>((resolve, reject) => {
          if (signal.aborted) reject(new Error('aborted'));
          gate.then(resolve);
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        });
      },
      sendMessage: async () => {
        parked++;
        await gate;
      },
      now: () => 1_700_000_000,
    } as unknown as ChainView;
    return { view, parked: () => parked, release: () => open() };
  }

  const warnings: Error[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') warnings.push(w);
  };
  beforeAll(() => {
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
  });
  afterEach(() => {
    warnings.length = 0;
  });

  const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;
  // process.emitWarning delivers 'warning' on a later tick.
  const ticks = () => new Promise((resolve) => setImmediate(resolve));

  for (const [what, query, answer] of [
    ['a handler', sendMessage, 'liteServer.sendMsgStatus'],
    ['a waitMasterchainSeqno prefix', waitThenTime, 'liteServer.currentTime'],
  ] as const) {
    it(`${N} queries parked in ${what}: no MaxListenersExceededWarning, listeners back to baseline`, async () => {
      const { view, parked, release } = gatedView();
      const dispatch = createLiteDispatcher(view);
      const connection = new AbortController();
      const baseline = listeners(connection.signal);

      const answers = Array.from({ length: N }, () => dispatch(query, { signal: connection.signal }));
      await expect.poll(parked).toBe(N);
      await ticks();
      expect(warnings).toEqual([]);

      release();
      for (const a of await Promise.all(answers)) expect(decodeTl(a)._).toBe(answer);
      await ticks();
      expect(warnings).toEqual([]);
      expect(listeners(connection.signal)).toBe(baseline);
    });
  }

  it(`closing the connection aborts all ${N} parked waits, then no listener is left`, async () => {
    const { view, parked } = gatedView();
    const dispatch = createLiteDispatcher(view);
    const connection = new AbortController();
    const baseline = listeners(connection.signal);

    const answers = Array.from({ length: N }, () => dispatch(waitThenTime, { signal: connection.signal }));
    await expect.poll(parked).toBe(N);
    connection.abort();
    for (const a of await Promise.all(answers)) {
      const e = decodeTl(a);
      expect(e._).toBe('liteServer.error');
      if (e._ === 'liteServer.error') expect(e.code).toBe(LITE_TIMEOUT);
    }
    expect(listeners(connection.signal)).toBe(baseline);
    // A query arriving after the close is answered with an error (aborted at once; no timing asserted on shared boxes).
    const late = decodeTl(await dispatch(waitThenTime, { signal: connection.signal }));
    expect(late._).toBe('liteServer.error');
    expect(listeners(connection.signal)).toBe(baseline);
  });

  it(`${N} concurrent queries through one real ADNL connection`, async () => {
    const { view, parked, release } = gatedView();
    const dispatch = createLiteDispatcher(view);
    const keys = generateKeyPair();
    const signals = new Map<AbortSignal, number>(); // the connection's signal -> its listener count before any query
    const server = new AdnlServer({
      keys: [keys],
      onQuery: (q, ctx) => {
        if (!signals.has(ctx.signal)) signals.set(ctx.signal, listeners(ctx.signal));
        return dispatch(q, ctx);
      },
    });
    const { port } = await server.listen();
    const client = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: Buffer.from(keys.publicKey) });
    const answers = Array.from({ length: N }, () => client.query(sendMessage));
    try {
      await expect.poll(parked).toBe(N);
      await ticks();
      expect(warnings).toEqual([]);

      release();
      for (const a of await Promise.all(answers)) expect((decodeTl(a) as TlObject)._).toBe('liteServer.sendMsgStatus');
      await ticks();
      expect(warnings).toEqual([]);
      expect(signals.size).toBe(1);
      for (const [signal, baseline] of signals) expect(listeners(signal)).toBe(baseline);
    } finally {
      release(); // lets the queries settle should an assertion fail while they are parked
      await Promise.allSettled(answers);
      client.close();
      await server.close();
    }
  });
});
