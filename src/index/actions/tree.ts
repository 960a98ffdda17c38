// Building the classifier's trees: transactions (from stored rows, from block views, or from the emulator) linked by
// the internal messages between them. A transaction is a child of the one whose outbound message it received; one
// without such a parent in the set is a root (its trace id is its own hash).
import { formatAddressV3, type MessageView, type TransactionView } from '../../ton/index.ts';
import type { TraceInput, TraceMessage, TraceNode, TraceTx } from './types.ts';

const b64 = (b: Buffer) => b.toString('base64');

export function traceMessageOfView(m: MessageView): TraceMessage {
  const extra: Record<string, string> = {};
  for (const [k, v] of m.valueExtraCurrencies ?? []) extra[String(k)] = v.toString();
  return {
    hash: b64(m.hash),
    source: m.source ? formatAddressV3(m.source) : null,
    destination: m.destination ? formatAddressV3(m.destination) : null,
    value: m.value,
    extraCurrencies: extra,
    opcode: m.opcode === null ? null : m.opcode >>> 0,
    bounce: m.bounce === true,
    bounced: m.bounced === true,
    createdLt: m.createdLt,
    body: m.body,
  };
}

/** A transaction view (block or emulator) as the classifier's transaction. */
export function traceTxOfView(v: TransactionView, mcSeqno: number, emulated = false): TraceTx {
  const d = v.description;
  const c = d.computePh;
  return {
    hash: b64(v.hash),
    lt: v.lt,
    now: v.now,
    account: formatAddressV3(v.account),
    mcSeqno,
    descr: d.type,
    aborted: d.aborted === true,
    computeSuccess: c && !c.skipped ? c.success : null,
    computeExitCode: c && !c.skipped ? c.exitCode : null,
    actionResultCode: d.action ? d.action.resultCode : null,
    origStatus: v.origStatus,
    endStatus: v.endStatus,
    isTock: d.isTock === true,
    inMsg: v.inMsg ? traceMessageOfView(v.inMsg) : null,
    outMsgs: v.outMsgs.map(traceMessageOfView),
    ...(emulated ? { emulated: true } : {}),
  };
}

const order = (a: TraceTx, b: TraceTx) =>
  a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0;

/** Links transactions into trees: one per root, nodes in (lt, account) order, children by lt. */
export function linkTrees(txs: readonly TraceTx[]): { root: TraceNode; nodes: TraceNode[] }[] {
  const sorted = [...txs].sort(order);
  const nodes = sorted.map((tx): TraceNode => ({ tx, parent: null, children: [] }));
  const sender = new Map<string, TraceNode>();
  for (const n of nodes) for (const m of n.tx.outMsgs) if (m.destination !== null) sender.set(m.hash, n);
  const roots: TraceNode[] = [];
  for (const n of nodes) {
    const m = n.tx.inMsg;
    const parent = m && m.source !== null ? sender.get(m.hash) : undefined;
    if (parent && parent !== n) {
      n.parent = parent;
      parent.children.push(n);
    } else roots.push(n);
  }
  const members = (root: TraceNode): TraceNode[] => {
    const out: TraceNode[] = [];
    const stack = [root];
    while (stack.length) {
      const n = stack.pop()!;
      out.push(n);
      stack.push(...n.children);
    }
    return out.sort((a, b) => order(a.tx, b.tx));
  };
  return roots.map((root) => ({ root, nodes: members(root) }));
}

/** A trace input for one linked tree, its metadata taken from the transactions themselves. */
export function traceOfTree(
  tree: { root: TraceNode; nodes: TraceNode[] },
  opts: { traceId?: string; broken?: boolean; externalHashNorm?: string | null } = {},
): TraceInput {
  const last = tree.nodes[tree.nodes.length - 1]!;
  let endUtime = 0;
  let mcSeqnoEnd = 0;
  for (const n of tree.nodes) {
    endUtime = Math.max(endUtime, n.tx.now);
    mcSeqnoEnd = Math.max(mcSeqnoEnd, n.tx.mcSeqno);
  }
  const inMsg = tree.root.tx.inMsg;
  return {
    traceId: opts.traceId ?? tree.root.tx.hash,
    externalHash: inMsg?.hash ?? null,
    externalHashNorm: opts.externalHashNorm ?? null,
    root: tree.root,
    nodes: tree.nodes,
    broken: opts.broken ?? false,
    endLt: last.tx.lt,
    endUtime,
    mcSeqnoEnd,
  };
}
