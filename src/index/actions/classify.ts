// The classifier's driver: visits a trace's transactions in pre-order and, at each one no action took yet, tries the
// matchers in table order; the first that recognises a pattern claims its transactions. Composite actions (multisig
// execute, vesting send) name inner subtrees, classified again as their children with ancestor_type. What no matcher
// takes is left to the basic matcher at the end of the table; a trace without any action gets one `unknown` action
// spanning it (action_id = trace_id), as toncenter's classifier does.
import { isStoredRawAddress } from '../../ton/index.ts';
import { actionIdOf, intendedActionIdOf } from './action-id.ts';
import { deployOf } from './matchers/basic.ts';
import { MATCHERS } from './matchers/index.ts';
import type { Action, ActionDraft, Interfaces, MatchContext, Matcher, TraceInput, TraceNode } from './types.ts';

/** Pre-order over a subtree, iteratively: a trace can be thousands of transactions deep. */
function* preorder(node: TraceNode): Generator<TraceNode> {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}

const byLt = (a: TraceNode, b: TraceNode) => (a.tx.lt < b.tx.lt ? -1 : a.tx.lt > b.tx.lt ? 1 : 0);

function participants(d: ActionDraft, txNodes: readonly TraceNode[]): string[] {
  const s = new Set<string>();
  // An intended message never reached its receiver: toncenter lists only the sending side's columns.
  const ends = d.intended
    ? [d.source, d.sourceSecondary]
    : [d.source, d.sourceSecondary, d.destination, d.destinationSecondary];
  // Addresses only: a generic column may hold another value (tgBTC: a public key in source_secondary).
  for (const a of [...ends, ...(d.accounts ?? [])]) {
    if (a && isStoredRawAddress(a)) s.add(a);
  }
  for (const n of txNodes) s.add(n.tx.account);
  return [...s].sort();
}

/** Ids, times, transactions and participants of a draft. */
function finish(trace: TraceInput, d: ActionDraft, ancestorType: string[], parentActionId: string | null): Action {
  const own = [...new Set(d.nodes)].sort(byLt);
  const set = new Set(own);
  // The initiating transaction: the one that sent the first own transaction's inbound message.
  const initiator = own.find((n) => !n.parent || !set.has(n.parent))?.parent ?? null;
  const txNodes = initiator && !set.has(initiator) ? [initiator, ...own].sort(byLt) : own;
  let startUtime = Number.MAX_SAFE_INTEGER;
  let endUtime = 0;
  let mcSeqnoEnd = 0;
  for (const n of txNodes) {
    startUtime = Math.min(startUtime, n.tx.now);
    endUtime = Math.max(endUtime, n.tx.now);
    mcSeqnoEnd = Math.max(mcSeqnoEnd, n.tx.mcSeqno);
  }
  const { type, success, details, nodes: _n, inner: _i, parts: _p, accounts: _a, intended, ...columns } = d;
  return {
    ...columns,
    traceId: trace.traceId,
    actionId: intended ? intendedActionIdOf(intended, type) : actionIdOf(own, type),
    type,
    startLt: startLtOf(own),
    endLt: txNodes[txNodes.length - 1]!.tx.lt,
    startUtime,
    endUtime,
    txHashes: txNodes.map((n) => n.tx.hash),
    success,
    details,
    accounts: participants(d, txNodes),
    traceEndLt: trace.endLt,
    traceEndUtime: trace.endUtime,
    traceExternalHash: trace.externalHash,
    traceExternalHashNorm: trace.externalHashNorm,
    traceMcSeqnoEnd: trace.mcSeqnoEnd,
    mcSeqnoEnd,
    parentActionId,
    ancestorType,
  };
}

/**
 * Where an action began, as toncenter reports it: the earliest of its own transactions' inbound messages by
 * created_lt (an external message has none: its transaction's lt; a tick-tock transaction has no message: its lt).
 * The initiating transaction is not its own: four deposits one transaction sends start at their four messages.
 */
function startLtOf(own: readonly TraceNode[]): bigint {
  let min: bigint | null = null;
  for (const n of own) {
    const lt = n.tx.inMsg?.createdLt ?? n.tx.lt;
    if (min === null || lt < min) min = lt;
  }
  if (min === null) throw new Error('an action without transactions');
  return min;
}

export interface ClassifyOptions {
  matchers?: readonly Matcher[];
}

/** Every stored action of a trace: top-level ones first in pre-order, each composite followed by its children. */
export function classifyTrace(trace: TraceInput, interfaces: Interfaces, opts: ClassifyOptions = {}): Action[] {
  const matchers = opts.matchers ?? MATCHERS;
  const claimed = new Set<TraceNode>();
  const underComposite = new Set<TraceNode>();
  const ctx: MatchContext = { interfaces, isClaimed: (n) => claimed.has(n) };
  const out: Action[] = [];

  const visit = (starts: readonly TraceNode[], ancestors: string[], parentId: string | null): void => {
    for (const start of starts) {
      for (const node of preorder(start)) {
        if (claimed.has(node)) continue;
        for (const m of matchers) {
          const drafts = m.match(node, ctx);
          if (!drafts || drafts.length === 0) continue;
          for (const d of drafts) for (const n of d.nodes) claimed.add(n);
          for (const d of drafts) {
            const action = finish(trace, d, ancestors, parentId);
            out.push(action);
            for (const part of d.parts ?? []) out.push(finish(trace, part, [...ancestors, d.type], action.actionId));
            if (d.inner && d.inner.length > 0) {
              visit(d.inner, [...ancestors, d.type], action.actionId);
              // The inner subtrees belong to the composite even where nothing in them was recognised.
              for (const i of d.inner) {
                for (const n of preorder(i)) {
                  claimed.add(n);
                  underComposite.add(n);
                }
              }
            }
          }
          break;
        }
      }
    }
  };
  visit([trace.root], [], null);

  // toncenter adds a contract_deploy for every transaction that made its account active, inside whichever action
  // took it, except under composite actions (their parts are children, not top-level actions).
  for (const node of trace.nodes) {
    if (underComposite.has(node)) continue;
    const d = deployOf(node);
    if (d) out.push(finish(trace, d, [], null));
  }

  if (out.length === 0) {
    // Nothing recognised (not even a deploy): one action spanning the trace.
    const all = [...trace.nodes].sort(byLt);
    const unknown = finish(trace, { type: 'unknown', nodes: all, success: true, details: {} }, [], null);
    out.push({ ...unknown, actionId: trace.traceId, txHashes: all.map((n) => n.tx.hash) });
  }
  return out;
}
