// Test-only helpers over @ton/sandbox's Blockchain: find the transaction a message caused and read what it did
// from the emulator's own output (in/out messages, compute phase), not from our wrappers.
import type { Address, Cell, Message, Transaction, TupleItem } from '@ton/core';
import type { Blockchain, BlockchainTransaction } from '@ton/sandbox';

export interface TxQuery {
  from?: Address;
  to?: Address;
  op?: number;
  bounced?: boolean;
}

function bodyOp(body: Cell): number | undefined {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : undefined;
}

export function matches(tx: Transaction, q: TxQuery): boolean {
  const m = tx.inMessage;
  if (m?.info.type !== 'internal') return false;
  if (q.from && !m.info.src.equals(q.from)) return false;
  if (q.to && !m.info.dest.equals(q.to)) return false;
  if (q.bounced !== undefined && m.info.bounced !== q.bounced) return false;
  if (q.op !== undefined) {
    const s = m.body.beginParse();
    // a bounced body starts with 0xffffffff, then the original op
    if (m.info.bounced && s.remainingBits >= 32) s.loadUint(32);
    if (s.remainingBits < 32 || s.loadUint(32) !== q.op) return false;
  }
  return true;
}

/** The one transaction matching `q`; throws if none or several match. */
export function findTx(txs: BlockchainTransaction[], q: TxQuery): BlockchainTransaction {
  const found = txs.filter((t) => matches(t, q));
  if (found.length !== 1) {
    const list = txs.map((t) => describeTx(t)).join('\n  ');
    throw new Error(
      `expected 1 transaction matching ${JSON.stringify(describeQuery(q))}, got ${found.length}:\n  ${list}`,
    );
  }
  return found[0]!;
}

function describeQuery(q: TxQuery) {
  return { from: q.from?.toRawString(), to: q.to?.toRawString(), op: q.op?.toString(16), bounced: q.bounced };
}

export function describeTx(t: Transaction): string {
  const m = t.inMessage;
  const src = m?.info.type === 'internal' ? m.info.src.toRawString().slice(0, 10) : m?.info.type;
  const dest = m?.info.dest && 'workChain' in m.info.dest ? m.info.dest.toRawString().slice(0, 10) : '?';
  const op = m ? bodyOp(m.body)?.toString(16) : undefined;
  return `${src} -> ${dest} op=${op} exit=${exitCode(t)} aborted=${isAborted(t)}`;
}

export function exitCode(t: Transaction): number | undefined {
  const d = t.description;
  if (d.type !== 'generic') return undefined;
  return d.computePhase.type === 'vm' ? d.computePhase.exitCode : undefined;
}

export function isAborted(t: Transaction): boolean {
  return t.description.type === 'generic' && t.description.aborted;
}

export function outMessages(t: Transaction): Message[] {
  return [...t.outMessages.values()];
}

/** The internal in-message of a transaction (throws for external or missing ones). */
export function internalIn(t: Transaction) {
  const m = t.inMessage;
  if (m?.info.type !== 'internal') throw new Error('expected an internal in-message');
  return { info: m.info, body: m.body, init: m.init };
}

/** Raw getter call: the emulator's exit code and stack, so tests can check entry types themselves. */
export async function runGetter(
  chain: Blockchain,
  address: Address,
  method: string,
  args: TupleItem[] = [],
): Promise<TupleItem[]> {
  const r = await chain.runGetMethod(address, method, args);
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`${method}: exit code ${r.exitCode}`);
  return r.stack;
}

export function stackTypes(stack: TupleItem[]): string[] {
  return stack.map((i) => i.type);
}
