// The confirmed feed of one API process: shard blocks the liteserver shows before a masterchain block commits
// them (streaming.md §3.9: `confirmed` is data "taken from a signed shard block that is not yet in the
// masterchain"). Each poll reads the newest masterchain block's shard tops and asks lookupBlock for the next seqno
// of every shard; a block found there is not committed yet. Its transactions become `transactions` events (one per
// trace it touches, the trace's transactions seen so far, each `confirmed`) and its accounts `account_state_change`
// events (confirmed), delivered to this process's clients only: every process watches the source itself, as it reads
// finalized events from the index itself (no bus, no duplicates across processes).
//
// A transaction's trace: an external-in message starts one (its key is the message's normalized hash, its id the
// transaction's hash); an internal message belongs to the trace of the transaction that sent it, found among the
// transactions this feed saw or, for an older sender, in the index. A transaction whose sender is in neither (its
// trace began before this process watched and is not indexed yet) is left to the finalized feed.
//
// The envelope finality is the minimum over the trace, as toncenter labels a snapshot: `confirmed` once every
// internal message the seen transactions sent has its transaction among them, else `pending` (work of the trace is
// still to run). Not sent at confirmed: `actions`, `trace` and `jettons_change` (the classifier and the contract
// decoders run on indexed data; they arrive finalized).
//
// Sources: the devnet shows each step's shard blocks for --shard-lead-ms before committing them; a liteserver of a
// real network answers lookupBlock for shard blocks it has applied. The node-db and file sources have no
// liteserver; a server without a liteserver pool has no confirmed feed.
import { Address } from '@ton/core';
import type { Logger } from 'pino';
import type { Queryable, Row } from '../../db/index.ts';
import { ACCOUNT_STATE_COLUMNS, blockGlobalVersion, shardTopsOf, toAccountStateRows } from '../../index/index.ts';
import type { LitePool } from '../../lite/index.ts';
import {
  type BlockIdExt,
  blockIdFromTl,
  listBlockTransactions,
  loadBlockCell,
  statesFromStateUpdate,
} from '../../ton/index.ts';
import { unindexedTransactionJson } from '../pending/transaction-json.ts';
import type { AccountFeedEvent, Json, Positioned, TraceFeedEvent } from './events.ts';
import { accountStateJson } from './index-feed.ts';
import { startPollLoop } from './poll-loop.ts';
import { withoutDecodedBodies } from './undecoded.ts';

export type ConfirmedLite = Pick<LitePool, 'getMasterchainInfo' | 'lookupBlock' | 'getBlock'>;

export interface ConfirmedFeedOptions {
  lite: ConfirmedLite;
  /** The index: the trace of a sender this feed did not see. */
  db: Queryable;
  logger: Logger;
  /** How often the source is asked for new shard blocks (default 100 ms). */
  pollMs?: number;
  /** Whether any client is connected: the source is not asked while nobody listens. */
  active: () => boolean;
  onEvents: (events: Positioned[]) => void;
}

export interface ConfirmedFeed {
  close(): Promise<void>;
}

interface TraceRef {
  traceId: string;
  traceKey: string;
}

interface SeenTrace extends TraceRef {
  txs: Map<string, Json>;
  touched: number;
}

/** Shard blocks probed past a top per poll (a devnet step or a network's shard adds one). */
const MAX_AHEAD = 4;
/** Traces and message owners are forgotten this long after their last transaction (the index has them by then). */
const FORGET_MS = 120_000;
/** Bounds on what the feed remembers, whatever the traffic. */
const MAX_TRACES = 20_000;
const MAX_OWNERS = 100_000;

const shardKey = (workchain: number, shard: bigint) => `${workchain}:${shard.toString(16)}`;

export function createConfirmedFeed(opts: ConfirmedFeedOptions): ConfirmedFeed {
  /** Next seqno to probe per shard, and the tops of the masterchain block read last. */
  const next = new Map<string, number>();
  let tops: Array<{ workchain: number; shard: bigint }> = [];
  let mcSeqno = -1;
  const traces = new Map<string, SeenTrace>();
  /** Trace of each internal message a seen transaction sent, by message hash. */
  const owners = new Map<string, TraceRef>();
  let closed = false;

  async function readTops(): Promise<void> {
    const info = await opts.lite.getMasterchainInfo();
    const last = blockIdFromTl(info.last);
    if (last.seqno === mcSeqno) return;
    const mc = await opts.lite.getBlock(last);
    if (!mc.root) return;
    const list = shardTopsOf(loadBlockCell(mc.root));
    const keys = new Set<string>();
    for (const t of list) {
      const k = shardKey(t.workchain, t.shard);
      keys.add(k);
      next.set(k, Math.max(next.get(k) ?? 0, t.seqno + 1));
    }
    for (const k of [...next.keys()]) if (!keys.has(k)) next.delete(k);
    tops = list.map((t) => ({ workchain: t.workchain, shard: t.shard }));
    mcSeqno = last.seqno;
  }

  /** The next uncommitted block of a shard, or null (none yet, or the shard split or merged: the tops tell). */
  async function probe(workchain: number, shard: bigint, seqno: number): Promise<BlockIdExt | null> {
    try {
      const header = await opts.lite.lookupBlock({ workchain, shard, seqno }, { timeoutMs: 2000 });
      const id = blockIdFromTl(header.id);
      return id.shard === shard && id.seqno === seqno ? id : null;
    } catch {
      return null;
    }
  }

  async function ownerFromIndex(msgHash: string): Promise<TraceRef | null> {
    const r = await opts.db.query<{ trace_id: string | null; external_hash_norm: string | null }>(
      `SELECT T.trace_id, E.external_hash_norm FROM messages M
       JOIN transactions T ON T.hash = M.tx_hash AND T.lt = M.tx_lt
       LEFT JOIN traces E ON E.trace_id = T.trace_id
       WHERE M.msg_hash = $1 AND M.direction = 'out' LIMIT 1`,
      [msgHash],
    );
    const row = r.rows[0];
    if (!row?.trace_id) return null;
    return { traceId: row.trace_id, traceKey: row.external_hash_norm ?? row.trace_id };
  }

  async function traceOf(tx: Json): Promise<TraceRef | null> {
    const inMsg = tx.in_msg as Json | null;
    if (!inMsg) return null;
    if (inMsg.source === null) {
      return { traceId: String(tx.hash), traceKey: String(inMsg.hash_norm ?? inMsg.hash) };
    }
    const hash = String(inMsg.hash);
    return owners.get(hash) ?? (await ownerFromIndex(hash));
  }

  /** The envelope finality of a snapshot: pending while a message it sent has no transaction in it. */
  function snapshotFinality(t: SeenTrace): 'pending' | 'confirmed' {
    const received = new Set<string>();
    for (const tx of t.txs.values()) {
      const inMsg = tx.in_msg as Json | null;
      if (inMsg) received.add(String(inMsg.hash));
    }
    for (const tx of t.txs.values()) {
      for (const m of (tx.out_msgs as Json[]) ?? []) {
        if (m.destination !== null && !received.has(String(m.hash))) return 'pending';
      }
    }
    return 'confirmed';
  }

  async function blockEvents(id: BlockIdExt): Promise<Positioned[]> {
    const data = await opts.lite.getBlock(id);
    if (!data.root) return [];
    const block = loadBlockCell(data.root);
    const globalVersion = blockGlobalVersion(block);
    const list = listBlockTransactions(block).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    const now = Date.now();
    const changed = new Set<SeenTrace>();
    const lastOf = new Map<string, Json>();
    for (const t of list) {
      const json = unindexedTransactionJson(t.cell, id, {
        traceId: null,
        traceKey: '',
        globalVersion,
        finality: 'confirmed',
      });
      lastOf.set(String(json.account), json);
      const ref = await traceOf(json);
      if (!ref) continue;
      json.trace_id = ref.traceId;
      json.trace_external_hash = ref.traceKey;
      for (const m of (json.out_msgs as Json[]) ?? []) {
        if (m.destination !== null) owners.set(String(m.hash), ref);
      }
      let seen = traces.get(ref.traceKey);
      if (!seen) {
        seen = { ...ref, txs: new Map(), touched: now };
        traces.set(ref.traceKey, seen);
      }
      seen.txs.set(String(json.hash), json);
      seen.touched = now;
      changed.add(seen);
    }
    const out: Positioned[] = [];
    for (const t of changed) {
      const event: TraceFeedEvent = {
        kind: 'trace',
        finality: snapshotFinality(t),
        traceKey: t.traceKey,
        transactions: [...t.txs.values()]
          .sort((a, b) => (BigInt(String(a.lt)) < BigInt(String(b.lt)) ? -1 : 1))
          .map(withoutDecodedBodies),
        actions: [],
        tree: null,
        classified: false,
      };
      out.push({ event });
    }
    for (const [account, tx] of lastOf) out.push(...accountEvent(block, account, tx));
    return out;
  }

  function accountEvent(block: ReturnType<typeof loadBlockCell>, account: string, tx: Json): Positioned[] {
    const address = Address.parseRaw(account);
    const [state] = statesFromStateUpdate(block, [address.hash]);
    const after = (tx.account_state_after as Json | null)?.hash;
    if (!state || typeof after !== 'string') return [];
    try {
      const rows = toAccountStateRows(state, {
        hash: Buffer.from(String(tx.hash), 'base64'),
        lt: BigInt(String(tx.lt)),
        now: Number(tx.now),
        stateHashAfter: Buffer.from(after, 'base64'),
      });
      const named: Row = Object.fromEntries(ACCOUNT_STATE_COLUMNS.map((c, i) => [c, rows.state[i]]));
      const event: AccountFeedEvent = {
        kind: 'account',
        finality: 'confirmed',
        account,
        state: accountStateJson(named),
      };
      return [{ event }];
    } catch {
      return [];
    }
  }

  function forget(): void {
    const cutoff = Date.now() - FORGET_MS;
    for (const [k, t] of traces) if (t.touched < cutoff || traces.size > MAX_TRACES) traces.delete(k);
    while (owners.size > MAX_OWNERS) owners.delete(owners.keys().next().value as string);
  }

  async function poll(): Promise<void> {
    if (!opts.active()) return;
    await readTops();
    for (const { workchain, shard } of tops) {
      const k = shardKey(workchain, shard);
      for (let i = 0; i < MAX_AHEAD && !closed; i++) {
        const seqno = next.get(k);
        if (seqno === undefined) break;
        const id = await probe(workchain, shard, seqno);
        if (!id) break;
        // Each block once: `next` only moves forward (readTops keeps the larger of it and the committed top + 1).
        const events = await blockEvents(id);
        if (closed) return;
        if (events.length > 0) opts.onEvents(events);
        next.set(k, seqno + 1);
      }
    }
    forget();
  }

  const loop = startPollLoop(poll, {
    pollMs: opts.pollMs ?? 100,
    logger: opts.logger,
    failing: 'Confirmed feed cannot read the source; retrying',
    back: 'Confirmed feed reads the source again',
  });

  return {
    async close() {
      closed = true;
      await loop.close();
    },
  };
}
