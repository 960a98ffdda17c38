// traceJson on long chains: a tree deeper than JSON.stringify can recurse is listed as too large (no 500), a
// shallow one keeps its tree and transactions.
import { describe, expect, it } from 'vitest';
import { MAX_TREE_DEPTH, traceJson } from './trace.ts';

/** A linear chain of `n` transactions: each receives the message the previous one sent. */
function chain(n: number) {
  const txs = Array.from({ length: n }, (_, i) => ({
    hash: `tx${i}`,
    lt: String(1000 + i),
    account: '0:00',
    in_msg: { hash: i === 0 ? 'ext' : `m${i}` },
    out_msgs: i + 1 < n ? [{ hash: `m${i + 1}` }] : [],
  }));
  const row = {
    trace_id: 'tx0',
    external_hash: 'ext',
    mc_seqno_start: 1,
    mc_seqno_end: 2,
    start_lt: '1000',
    start_utime: 1,
    end_lt: String(1000 + n - 1),
    end_utime: 2,
    state: 'complete',
    edges_: n,
    nodes_: n,
    pending_edges_: 0,
    classification_state: 'ok',
  };
  return traceJson(row, { transactions: txs });
}

describe('traceJson', () => {
  it('keeps the tree of a chain it can serialize', () => {
    const t = chain(MAX_TREE_DEPTH);
    expect(t.is_incomplete).toBe(false);
    expect(t.warning).toBeUndefined();
    expect((t.transactions_order as string[]).length).toBe(MAX_TREE_DEPTH);
    expect(JSON.parse(JSON.stringify(t)).trace.tx_hash).toBe('tx0');
  });

  it('lists a deeper chain as too large instead of overflowing the serializer', () => {
    const deep = 3 * MAX_TREE_DEPTH;
    // What the serializer does with such a tree: the reason for the cap.
    let tree: Record<string, unknown> = { children: [] };
    for (let i = 0; i < deep; i++) tree = { children: [tree] };
    expect(() => JSON.stringify(tree)).toThrow(RangeError);
    const t = chain(deep);
    expect(t.is_incomplete).toBe(true);
    expect(t.warning).toBe('trace is too large');
    expect(t.trace).toBeUndefined();
    expect(t.transactions).toBeUndefined();
    expect(() => JSON.stringify(t)).not.toThrow();
  });
});
