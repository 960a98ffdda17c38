// Stored traces as the classifier's input: transactions, their messages and bodies by trace_id, linked into trees.
import type { Cell } from '@ton/core';
import type { Queryable } from '../../db/index.ts';
import { cellFromBase64 } from '../../ton/index.ts';
import { linkTrees } from './tree.ts';
import type { TraceInput, TraceMessage, TraceTx } from './types.ts';

export interface StoredTrace {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm: string | null;
  mc_seqno_end: number;
  end_lt: string;
  end_utime: number;
  state: 'complete' | 'pending' | 'broken';
}

const bool = (v: unknown) => v === true || v === 't';
const bigOrNull = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));

function messageOf(r: Record<string, unknown>): TraceMessage {
  const boc = r.body_boc;
  let body: Cell | null = null;
  if (typeof boc === 'string' && boc !== '') {
    try {
      body = cellFromBase64(boc);
    } catch {
      body = null;
    }
  }
  const ec = r.value_extra_currencies;
  const extra = typeof ec === 'string' ? JSON.parse(ec) : (ec ?? {});
  return {
    hash: String(r.msg_hash),
    source: (r.source as string | null) ?? null,
    destination: (r.destination as string | null) ?? null,
    value: bigOrNull(r.value),
    extraCurrencies: extra as Record<string, string>,
    opcode: r.opcode === null || r.opcode === undefined ? null : Number(r.opcode) >>> 0,
    bounce: bool(r.bounce),
    bounced: bool(r.bounced),
    createdLt: bigOrNull(r.created_lt),
    body,
  };
}

function txOf(r: Record<string, unknown>, msgs: Record<string, unknown>[]): TraceTx {
  const inRow = msgs.find((m) => m.direction === 'in');
  const outs = msgs
    .filter((m) => m.direction === 'out')
    .sort((a, b) => {
      const x = bigOrNull(a.created_lt) ?? 0n;
      const y = bigOrNull(b.created_lt) ?? 0n;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  return {
    hash: String(r.hash),
    lt: BigInt(String(r.lt)),
    now: Number(r.now),
    account: String(r.account),
    mcSeqno: Number(r.mc_block_seqno),
    descr: String(r.descr),
    aborted: bool(r.aborted),
    computeSuccess: r.compute_success === null || r.compute_skipped === true ? null : bool(r.compute_success),
    computeExitCode: r.compute_exit_code === null ? null : Number(r.compute_exit_code),
    actionResultCode: r.action_result_code === null ? null : Number(r.action_result_code),
    origStatus: String(r.orig_status),
    endStatus: String(r.end_status),
    isTock: bool(r.is_tock),
    inMsg: inRow ? messageOf(inRow) : null,
    outMsgs: outs.map(messageOf),
  };
}

const TX_COLUMNS =
  'hash, lt, now, account, mc_block_seqno, trace_id, descr, aborted, compute_skipped, compute_success, ' +
  'compute_exit_code, action_result_code, orig_status, end_status, is_tock';

/** Trace inputs for the given stored traces (their transactions must be assembled). */
export async function loadTraceInputs(db: Queryable, traces: readonly StoredTrace[]): Promise<TraceInput[]> {
  if (traces.length === 0) return [];
  const ids = traces.map((t) => t.trace_id);
  const txs = await db.query<Record<string, unknown>>(
    `SELECT ${TX_COLUMNS} FROM transactions WHERE trace_id = ANY($1::text[])`,
    [ids],
  );
  const msgs = await db.query<Record<string, unknown>>(
    `SELECT m.tx_hash, m.tx_lt, m.msg_hash, m.direction, m.source, m.destination, m.value, m.value_extra_currencies,
            m.opcode, m.bounce, m.bounced, m.created_lt, b.body AS body_boc
       FROM messages m LEFT JOIN message_contents b ON b.hash = m.body_hash
      WHERE m.trace_id = ANY($1::text[])`,
    [ids],
  );
  const msgsOf = new Map<string, Record<string, unknown>[]>();
  for (const m of msgs.rows) {
    const k = `${m.tx_hash}/${m.tx_lt}`;
    const list = msgsOf.get(k);
    if (list) list.push(m);
    else msgsOf.set(k, [m]);
  }
  const byTrace = new Map<string, TraceTx[]>();
  for (const r of txs.rows) {
    const list = byTrace.get(String(r.trace_id)) ?? [];
    if (list.length === 0) byTrace.set(String(r.trace_id), list);
    list.push(txOf(r, msgsOf.get(`${r.hash}/${r.lt}`) ?? []));
  }
  const out: TraceInput[] = [];
  for (const t of traces) {
    const members = byTrace.get(t.trace_id) ?? [];
    const trees = linkTrees(members);
    // The stored trace's root is the transaction named by trace_id; a tree that does not start there would
    // mean the rows disagree with the assembler, so such a trace is skipped (reported by the caller).
    const tree = trees.find((x) => x.root.tx.hash === t.trace_id);
    if (!tree || trees.length !== 1) continue;
    out.push({
      traceId: t.trace_id,
      externalHash: t.external_hash,
      externalHashNorm: t.external_hash_norm,
      root: tree.root,
      nodes: tree.nodes,
      broken: t.state === 'broken',
      endLt: BigInt(t.end_lt),
      endUtime: Number(t.end_utime),
      mcSeqnoEnd: Number(t.mc_seqno_end),
    });
  }
  return out;
}
