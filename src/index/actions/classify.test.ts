// The driver's own rules, on hand-built traces: tick_tock, the unknown fallback (action_id = trace_id), the
// contract_deploy it adds for any deploying transaction, and action ids that depend on the root's inbound message
// and each transaction's place in the tree only: the same trace with other logical times and other message hashes
// below the root (what an emulation before landing produces) keeps every id.
import { createHash } from 'node:crypto';
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace } from './classify.ts';
import { interfacesOf } from './interfaces.ts';
import { addr, TraceBuilder } from './matchers/trace-builder.test-util.ts';
import { linkTrees, traceOfTree } from './tree.ts';
import type { TraceNode, TraceTx } from './types.ts';

const none = interfacesOf(new Map());
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

describe('the classifier driver', () => {
  it('a tick-tock transaction is a tick_tock of its account', () => {
    const tx: TraceTx = {
      hash: createHash('sha256').update('tick').digest('base64'),
      lt: 5n,
      now: 1_700_000_000,
      account: `-1:${'3'.repeat(64)}`,
      mcSeqno: 7,
      descr: 'tick_tock',
      aborted: false,
      computeSuccess: true,
      computeExitCode: 0,
      actionResultCode: 0,
      origStatus: 'active',
      endStatus: 'active',
      isTock: false,
      inMsg: null,
      outMsgs: [],
    };
    const [tree] = linkTrees([tx]);
    const actions = classifyTrace(traceOfTree(tree!), none);
    expect(actions.map((a) => [a.type, a.details, a.txHashes])).toEqual([
      ['tick_tock', { account: tx.account }, [tx.hash]],
    ]);
    // No inbound message: the key is the transaction hash (the root's key, no place below it), hashed as toncenter
    // does, as base64 text.
    expect(actions[0]!.actionId).toBe(createHash('sha256').update(tx.hash).update('tick_tock').digest('base64'));
  });

  it('a trace with nothing to recognise is one unknown action spanning it, with action_id = trace_id', () => {
    const b = new TraceBuilder();
    const root = b.external(addr('wallet'));
    const actions = b.classify(root, {});
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      type: 'unknown',
      actionId: root.tx.hash,
      txHashes: [root.tx.hash],
      details: {},
    });
  });

  it('a deploying transaction gets a contract_deploy whichever action took it; the deploy alone is no unknown', () => {
    const b = new TraceBuilder();
    const root = b.external(addr('new wallet'), { origStatus: 'uninit', endStatus: 'active' });
    const paid = b.send(root, addr('shop'), comment('order 7'), { value: 5n });
    const fresh = b.send(root, addr('fresh'), beginCell().storeUint(0x12345678, 32).endCell(), {
      origStatus: 'nonexist',
      endStatus: 'active',
    });
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type).sort()).toEqual([
      'call_contract',
      'contract_deploy',
      'contract_deploy',
      'ton_transfer',
    ]);
    const deploys = actions.filter((a) => a.type === 'contract_deploy');
    expect(deploys.map((d) => d.details.destination).sort()).toEqual([addr('fresh'), addr('new wallet')].sort());
    // The wallet deployed by its own external message: no source, no value, no opcode.
    expect(deploys.find((d) => d.details.destination === addr('new wallet'))!.details).toEqual({
      destination: addr('new wallet'),
    });
    expect(deploys.find((d) => d.details.destination === addr('fresh'))!.details).toEqual({
      opcode: '0x12345678',
      source: addr('new wallet'),
      destination: addr('fresh'),
      value: '100000000',
    });
    expect(actions.find((a) => a.type === 'ton_transfer')!.details).toEqual({
      source: addr('new wallet'),
      destination: addr('shop'),
      value: '5',
      comment: 'order 7',
      encrypted: false,
    });
    expect(paid.tx.hash).not.toBe(fresh.tx.hash);
  });

  it('ids depend on the root message and the place in the tree, not on lt or the hashes below the root', () => {
    const build = () => {
      const b = new TraceBuilder();
      const root = b.external(addr('w'));
      const a = b.send(root, addr('a'), comment('one'));
      b.send(root, addr('b'), beginCell().storeUint(7, 32).endCell());
      b.send(a, addr('c'), null);
      return { b, root };
    };
    const real = build();
    const emulated = build();
    // Another block: every lt shifted (the offsets of messages in their sender's out-list stay), and every hash below
    // the root different (created_lt and created_at are inside internal message cells).
    const shift = 7_000_000n;
    let i = 0;
    const walk = (n: TraceNode) => {
      n.tx.lt += shift;
      n.tx.hash = createHash('sha256').update(`emulated tx ${i++}`).digest('base64');
      for (const m of n.tx.outMsgs) {
        if (m.createdLt !== null) m.createdLt += shift;
        m.hash = createHash('sha256').update(`emulated msg ${i++}`).digest('base64');
      }
      for (const c of n.children) walk(c);
    };
    walk(emulated.root);
    for (const n of emulated.b.nodes)
      if (n.parent) n.tx.inMsg = n.parent.tx.outMsgs.find((m) => m.destination === n.tx.account)!;
    const ids = (x: ReturnType<typeof build>) =>
      x.b.classify(x.root, {}).map((a) => [a.type, a.details.destination ?? null, a.actionId]);
    const realIds = ids(real);
    expect(realIds).toHaveLength(3);
    expect(ids(emulated)).toEqual(realIds);
    // Different types at the same place, and the same type at different places, differ.
    expect(new Set(realIds.map((r) => r[2])).size).toBe(3);
  });
});
