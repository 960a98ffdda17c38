// Test support: traces built by hand, transaction by transaction, with real message bodies (cells the tests write
// with @ton/core per the TL-B), for the patterns the vectors do not hold. Hashes are unique placeholders; logical
// times grow in creation order, so a child is always later than its parent.
import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import { classifyTrace } from '../classify.ts';
import { interfacesOf } from '../interfaces.ts';
import { traceOfTree } from '../tree.ts';
import type { Action, ContractInfo, TraceMessage, TraceNode, TraceTx } from '../types.ts';

/** A raw address for tests: `0:` and 64 upper-case hex digits derived from a name. */
export const addr = (name: string) => `0:${createHash('sha256').update(name).digest('hex').toUpperCase()}`;

export interface TxOptions {
  aborted?: boolean;
  origStatus?: string;
  endStatus?: string;
  value?: bigint | null;
  bounced?: boolean;
}

const opcodeOf = (body: Cell | null) => {
  if (!body || body.bits.length < 32) return null;
  return body.beginParse(true).loadUint(32) >>> 0;
};

export class TraceBuilder {
  private seq = 0;
  private lt = 1_000_000n;
  readonly nodes: TraceNode[] = [];

  private hash(kind: string): string {
    this.seq++;
    return createHash('sha256').update(`${kind}:${this.seq}`).digest('base64');
  }

  private tx(account: string, inMsg: TraceMessage | null, o: TxOptions, parent: TraceNode | null): TraceNode {
    this.lt += 10n;
    const tx: TraceTx = {
      hash: this.hash('tx'),
      lt: this.lt,
      now: 1_700_000_000 + this.seq,
      account,
      mcSeqno: 100,
      descr: 'ord',
      aborted: o.aborted === true,
      computeSuccess: !o.aborted,
      computeExitCode: o.aborted ? 401 : 0,
      actionResultCode: o.aborted ? null : 0,
      origStatus: o.origStatus ?? 'active',
      endStatus: o.endStatus ?? 'active',
      isTock: false,
      inMsg,
      outMsgs: [],
    };
    const node: TraceNode = { tx, parent, children: [] };
    this.nodes.push(node);
    return node;
  }

  /** A transaction started by an external message (a wallet's signed request). */
  external(account: string, o: TxOptions = {}): TraceNode {
    const m: TraceMessage = {
      hash: this.hash('ext'),
      source: null,
      destination: account,
      value: null,
      extraCurrencies: {},
      opcode: null,
      bounce: false,
      bounced: false,
      createdLt: null,
      body: null,
    };
    return this.tx(account, m, o, null);
  }

  /** `from` sends an internal message to `to`; returns the receiving transaction. */
  send(from: TraceNode, to: string, body: Cell | null, o: TxOptions = {}): TraceNode {
    const m: TraceMessage = {
      hash: this.hash('msg'),
      source: from.tx.account,
      destination: to,
      value: o.value === undefined ? 100_000_000n : o.value,
      extraCurrencies: {},
      opcode: o.bounced ? 0xffffffff : opcodeOf(body),
      bounce: true,
      bounced: o.bounced === true,
      createdLt: this.lt + 1n,
      body,
    };
    from.tx.outMsgs.push(m);
    const node = this.tx(to, m, o, from);
    from.children.push(node);
    return node;
  }

  /** The bounce of the message `node` received, back to its sender. */
  bounce(node: TraceNode, body: Cell | null): TraceNode {
    const to = node.tx.inMsg?.source;
    if (!to) throw new Error('only an internal message bounces');
    return this.send(node, to, body, { bounced: true });
  }

  /** Classifies the tree of `root` (every node created since) with these interfaces. */
  classify(root: TraceNode, interfaces: Record<string, ContractInfo>): Action[] {
    const nodes = [...this.nodes].sort((a, b) => (a.tx.lt < b.tx.lt ? -1 : 1));
    const trace = traceOfTree({ root, nodes });
    return classifyTrace(trace, interfacesOf(new Map(Object.entries(interfaces))));
  }
}

export const byType = (actions: Action[], type: string) => actions.filter((a) => a.type === type);
