// Real liteservers on loopback for the pool tests and the bench: our AdnlServer answering from a small chain
// double built on one real masterchain block (shared/vectors), with switchable faults.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Cell } from '@ton/core';
import {
  type AdnlQueryContext,
  AdnlServer,
  acceptHandshake,
  createFrameDecoder,
  decodeAdnlMessage,
  type Ed25519KeyPair,
  encodeAdnlMessage,
  encodeFrame,
  generateKeyPair,
  HANDSHAKE_BYTES,
  indexServerKeys,
} from '../../src/adnl/index.ts';
import {
  type ChainView,
  createLiteDispatcher,
  decodeTl,
  decodeTlPrefix,
  encodeTl,
  type LiteServerEndpoint,
} from '../../src/lite/index.ts';
import type { BlockIdExt } from '../../src/ton/index.ts';
import { loadVector } from './vectors.ts';

export const MC_SHARD = -(2n ** 63n);

interface BlockVector {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
  boc_base64: string;
}

/** One real block of the vectors: what the test chain can serve in full. */
export interface RealBlock {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  /** The vector's BoC is a re-serialisation, so its real file hash is unknown: sha256 of our bytes stands in. */
  fileHash: Buffer;
  data: Buffer;
}

export function loadRealBlock(file = 'mainnet_-1_8000000000000000_24374597.json'): RealBlock {
  const v = loadVector<BlockVector>('blocks', file);
  const data = Buffer.from(v.boc_base64, 'base64');
  const rootHash = Buffer.from(v.ids.root_hash, 'hex');
  // The vector's own check, repeated so a broken fixture cannot pass silently.
  if (!Cell.fromBoc(data)[0]!.hash().equals(rootHash)) throw new Error(`vector ${file}: root hash mismatch`);
  return {
    workchain: v.ids.workchain,
    shard: BigInt.asIntN(64, BigInt(`0x${v.ids.shard}`)),
    seqno: v.ids.seqno,
    rootHash,
    fileHash: createHash('sha256').update(data).digest(),
    data,
  };
}

/** The network the test servers belong to: `head` is the newest masterchain seqno. */
/** The network the test servers belong to: `head` is the newest masterchain seqno. */
export interface TestChain {
  head: number;
  /** The real masterchain block (its seqno names a real block in getMasterchainInfo answers). */
  block: RealBlock;
  /** Further real blocks the nodes hold (e.g. a large shard block for the bench). */
  extra: RealBlock[];
  zeroRoot: Buffer;
}

export function createTestChain(block = loadRealBlock(), extra: RealBlock[] = []): TestChain {
  return { head: block.seqno + 100, block, extra, zeroRoot: createHash('sha256').update('zero state').digest() };
}

export type Fault =
  /** answer normally */
  | 'none'
  /** answer every query with random bytes (valid ADNL framing, garbage lite_api) */
  | 'garbage'
  /** accept queries and never answer them */
  | 'hang'
  /** answer every query with liteServer.error -400 */
  | 'bad-request';

export interface TestLiteServer {
  readonly endpoint: LiteServerEndpoint;
  readonly keys: Ed25519KeyPair;
  /** Blocks behind the chain head. */
  lag: number;
  fault: Fault;
  /** false: answers 651 "not in db" for the real block, like a node that pruned its history. */
  history: boolean;
  /** Answered queries per lite_api function name (probes included); `wait:<name>` counts waitMasterchainSeqno prefixes. */
  readonly calls: Map<string, number>;
  callCount(fn: string): number;
  /** Open ADNL connections on the server side. */
  connectionCount(): number;
  /** Stops listening and drops every connection (a killed server). */
  close(): Promise<void>;
}

function hashOf(label: string, seqno: number): Buffer {
  return createHash('sha256').update(`${label}:${seqno}`).digest();
}

const MC_SHARD_UNSIGNED = 0x8000000000000000n;

/** Masterchain block id at `seqno`: the real block for its own seqno, made-up hashes for every other one. */
function blockIdAt(chain: TestChain, seqno: number): BlockIdExt {
  if (seqno === chain.block.seqno) return realId(chain.block);
  return {
    workchain: -1,
    shard: MC_SHARD_UNSIGNED,
    seqno,
    rootHash: hashOf('root', seqno),
    fileHash: hashOf('file', seqno),
  };
}

function realId(b: RealBlock): BlockIdExt {
  return {
    workchain: b.workchain,
    shard: BigInt.asUintN(64, b.shard),
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
  };
}

/**
 * What one test node knows: its masterchain head is `chain.head - lag`; the only blocks it holds in full are the
 * real vector blocks, and only while `history` is on (otherwise it answers 651 like a node that pruned them).
 */
export function createTestChainView(chain: TestChain, node: { lag: number; history: boolean }): ChainView {
  const held = [chain.block, ...chain.extra].map((b) => ({
    id: realId(b),
    root: Cell.fromBoc(b.data)[0]!,
    data: b.data,
  }));
  const mySeqno = () => chain.head - node.lag;
  return {
    masterchainInfo: async () => ({
      last: blockIdAt(chain, mySeqno()),
      stateRootHash: hashOf('state', mySeqno()),
      init: { workchain: -1, rootHash: chain.zeroRoot, fileHash: chain.zeroRoot },
      lastUtime: Math.floor(Date.now() / 1000),
    }),
    waitMasterchainSeqno: (seqno, signal) =>
      new Promise((resolve, reject) => {
        if (seqno <= mySeqno()) resolve();
        else if (signal.aborted) reject(new Error('aborted'));
        else signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    now: () => Math.floor(Date.now() / 1000),
    block: async (id) => {
      if (!node.history) return null;
      const rec = held.find(
        (h) =>
          h.id.workchain === id.workchain &&
          h.id.shard === BigInt.asUintN(64, id.shard) &&
          h.id.seqno === id.seqno &&
          h.id.rootHash.equals(id.rootHash) &&
          h.id.fileHash.equals(id.fileHash),
      );
      return rec ? { id: rec.id, root: rec.root, data: rec.data } : null;
    },
    lookupBlock: async (q) => {
      if (!node.history || !('seqno' in q)) return null;
      return held.find((h) => h.id.workchain === q.workchain && h.id.seqno === q.seqno)?.id ?? null;
    },
    shardState: async () => null,
  };
}

/** Unwraps liteServer.query (+ optional waitMasterchainSeqno prefix) to name the function (for counting). */
function unwrap(query: Buffer): { fn: string; waited: boolean } {
  const outer = decodeTl(query);
  if (outer._ !== 'liteServer.query') throw new Error(`expected liteServer.query, got ${outer._}`);
  const { value, rest } = decodeTlPrefix(outer.data);
  if (value._ === 'liteServer.waitMasterchainSeqno') return { fn: decodeTlPrefix(rest).value._, waited: true };
  return { fn: value._, waited: false };
}

function never(ctx: AdnlQueryContext): Promise<Buffer> {
  // Settles only when the connection goes away, so nothing is left behind after close().
  return new Promise((_, reject) => {
    if (ctx.signal.aborted) reject(new Error('connection closed'));
    else ctx.signal.addEventListener('abort', () => reject(new Error('connection closed')), { once: true });
  });
}

export async function startTestLiteServer(
  chain: TestChain,
  o: { lag?: number; fault?: Fault; history?: boolean; port?: number; keys?: Ed25519KeyPair } = {},
): Promise<TestLiteServer> {
  const keys = o.keys ?? generateKeyPair();
  const calls = new Map<string, number>();
  const count = (k: string) => calls.set(k, (calls.get(k) ?? 0) + 1);
  let adnl: AdnlServer | undefined;
  const s: TestLiteServer = {
    endpoint: { id: '', host: '127.0.0.1', port: 0, publicKey: keys.publicKey },
    keys,
    lag: o.lag ?? 0,
    fault: o.fault ?? 'none',
    history: o.history ?? true,
    calls,
    callCount: (fn) => calls.get(fn) ?? 0,
    connectionCount: () => adnl?.connectionCount ?? 0,
    close: async () => {
      await adnl?.close();
    },
  };
  // Our real dispatcher answers; the wrapper only counts queries and injects the faults.
  const dispatch = createLiteDispatcher(createTestChainView(chain, s));
  adnl = new AdnlServer({
    keys: [keys],
    host: '127.0.0.1',
    port: o.port ?? 0,
    onQuery: async (query, ctx) => {
      if (s.fault === 'hang') return never(ctx);
      if (s.fault === 'garbage') return randomBytes(8 + Math.floor(Math.random() * 64));
      const { fn, waited } = unwrap(query);
      count(fn);
      if (waited) count(`wait:${fn}`);
      if (s.fault === 'bad-request')
        return encodeTl({ _: 'liteServer.error', code: -400, message: 'bad request (test fault)' });
      return dispatch(query, ctx);
    },
  });
  const bound = await adnl.listen();
  s.endpoint.port = bound.port;
  s.endpoint.id = `127.0.0.1:${bound.port}`;
  return s;
}

export type RogueMode =
  /** an unsolicited tcp.pong and a packet that is no ADNL message at all (ton-lite-client dies of either) */
  | 'unsolicited'
  /** a packet whose SHA-256 checksum is wrong (ton-lite-client's adnl throws inside the socket handler) */
  | 'bad-checksum'
  /** a length prefix of 2^31 bytes */
  | 'oversize'
  /** an answer under a query id that was never asked */
  | 'wrong-query-id';

/**
 * An ADNL server written by hand from our ADNL primitives, so it can break the framing on purpose: it answers
 * correctly (through our dispatcher) until `misbehave` is set, then answers every query with its `mode` fault.
 */
export async function startRogueAdnlServer(
  chain: TestChain,
  mode: RogueMode,
): Promise<{ endpoint: LiteServerEndpoint; misbehave: boolean; close(): Promise<void> }> {
  const keys = generateKeyPair();
  const index = indexServerKeys([keys]);
  const dispatch = createLiteDispatcher(createTestChainView(chain, { lag: 0, history: true }));
  const sockets = new Set<Socket>();
  const rogue = {
    endpoint: { id: '', host: '127.0.0.1', port: 0, publicKey: keys.publicKey },
    misbehave: false,
    close,
  };
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
    let hello = Buffer.alloc(0);
    let session:
      | { send: (payload: Buffer) => void; raw: (plain: Buffer) => void; push: (b: Buffer) => Buffer[] }
      | undefined;
    sock.on('data', (chunk: Buffer) => {
      try {
        if (!session) {
          hello = Buffer.concat([hello, chunk]);
          if (hello.length < HANDSHAKE_BYTES) return;
          const hs = acceptHandshake(hello.subarray(0, HANDSHAKE_BYTES), index);
          if (!hs.ok) return void sock.destroy();
          const decoder = createFrameDecoder(hs.ciphers.rx);
          session = {
            send: (payload) => sock.write(encodeFrame(hs.ciphers.tx, payload)),
            raw: (plain) => sock.write(hs.ciphers.tx.update(plain)),
            push: (b) => decoder.push(b),
          };
          session.send(Buffer.alloc(0));
          chunk = hello.subarray(HANDSHAKE_BYTES);
          if (chunk.length === 0) return;
        }
        const sess = session;
        for (const payload of sess.push(chunk)) {
          const m = decodeAdnlMessage(payload);
          if (m._ === 'tcp.ping') sess.send(encodeAdnlMessage({ _: 'tcp.pong', randomId: m.randomId }));
          if (m._ !== 'adnl.message.query') continue;
          if (!rogue.misbehave) {
            void dispatch(m.query).then((answer) =>
              sess.send(encodeAdnlMessage({ _: 'adnl.message.answer', queryId: m.queryId, answer })),
            );
            continue;
          }
          if (mode === 'unsolicited') {
            sess.send(encodeAdnlMessage({ _: 'tcp.pong', randomId: 42n }));
            sess.send(randomBytes(40));
          } else if (mode === 'bad-checksum') {
            const body = encodeAdnlMessage({ _: 'adnl.message.answer', queryId: m.queryId, answer: randomBytes(16) });
            const head = Buffer.alloc(4);
            head.writeUInt32LE(64 + body.length, 0);
            sess.raw(Buffer.concat([head, randomBytes(32), body, randomBytes(32)]));
          } else if (mode === 'oversize') {
            const head = Buffer.alloc(4);
            head.writeUInt32LE(2 ** 31, 0);
            sess.raw(Buffer.concat([head, randomBytes(64)]));
          } else {
            sess.send(
              encodeAdnlMessage({ _: 'adnl.message.answer', queryId: randomBytes(32), answer: randomBytes(16) }),
            );
          }
        }
      } catch {
        sock.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  rogue.endpoint.port = typeof addr === 'object' && addr ? addr.port : 0;
  rogue.endpoint.id = `127.0.0.1:${rogue.endpoint.port}`;
  function close(): Promise<void> {
    return new Promise((resolve) => {
      for (const sock of sockets) sock.destroy();
      server.close(() => resolve());
    });
  }
  return rogue;
}

/** A TCP server that accepts connections and never sends a byte (no ADNL handshake either). */
export async function startBlackhole(): Promise<{ endpoint: LiteServerEndpoint; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    endpoint: { id: `127.0.0.1:${port}`, host: '127.0.0.1', port, publicKey: generateKeyPair().publicKey },
    close: () =>
      new Promise<void>((resolve) => {
        for (const sock of sockets) sock.destroy();
        server.close(() => resolve());
      }),
  };
}

/** How the pool tests wait for the pool's state (until.ts): every 10 ms, for up to 20 s (no timing assertion). */
export const POOL_POLL = { timeoutMs: 20_000, stepMs: 10 } as const;
