// A trace's tree as the streaming notifications carry it (streaming.md §3.4), from the tree v3 renders (finalized
// traces, ./index-feed.ts) or the one a pending trace row stores (./pending-events.ts).
import type { StreamTraceNode } from './events.ts';

/** A node of a trace tree: v3's TraceNodeJson, or a stored pending trace's node (in_msg_hash may be null there). */
export interface TraceTreeNode {
  tx_hash: string;
  in_msg_hash?: string | null;
  children: readonly TraceTreeNode[];
}

/**
 * The §3.4 node of `n`: in_msg_hash left out when empty; children [] for a transaction without outbound messages, null
 * when its outbound messages (`outCounts` by transaction hash) made no transaction in the trace.
 */
export function streamTree(n: TraceTreeNode, outCounts: ReadonlyMap<string, number>): StreamTraceNode {
  const out: StreamTraceNode = { tx_hash: n.tx_hash, children: [] };
  if (n.in_msg_hash) out.in_msg_hash = n.in_msg_hash;
  out.children =
    n.children.length > 0
      ? n.children.map((c) => streamTree(c, outCounts))
      : (outCounts.get(n.tx_hash) ?? 0) > 0
        ? null
        : [];
  return out;
}
