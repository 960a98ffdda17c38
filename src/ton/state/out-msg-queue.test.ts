import { beginCell, type Cell, CellType, Dictionary, loadMessage, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { loadMsgEnvelope } from '../block/msg-envelope.ts';
import { loadHmLabel, storeHmLabel } from '../dict/index.ts';
import { buildDictRoot, dictEntries } from './dict-root.ts';
import {
  accountDispatchQueueExtra,
  accountDispatchQueueMessages,
  buildDispatchQueue,
  buildOutMsgQueue,
  buildProcessedInfo,
  dispatchQueueEntries,
  type EnqueuedMsg,
  loadEnqueuedMsg,
  loadOutMsgQueueExtra,
  loadOutMsgQueueInfo,
  loadProcessedUpto,
  type OutMsgQueueInfo,
  outMsgQueueEntries,
  processedInfoEntries,
  storeAccountDispatchQueue,
  storeEnqueuedMsg,
  storeOutMsgQueueExtra,
  storeOutMsgQueueInfo,
  storeProcessedUpto,
} from './out-msg-queue.ts';
import { isPruned } from './pruned.ts';
import { loadShardState } from './shard-state.ts';
import { augNodes, cellOf, nodeExtra, realStates } from './vectors.test-util.ts';

const HASH_MASK = (1n << 256n) - 1n;

function minLt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** What Aug_OutMsgQueue::eval_leaf derives: the envelope's emitted_lt, else its message's created_lt. */
function emittedLt(v: EnqueuedMsg): bigint {
  const env = loadMsgEnvelope(v.outMsg.beginParse());
  if (env.kind === 'msg_envelope_v2' && env.emittedLt !== null) return env.emittedLt;
  const info = loadMessage(env.msg.beginParse()).info;
  if (info.type === 'external-in') throw new Error('an inbound external has no created_lt');
  return info.createdLt;
}

/**
 * An independent walk of a (HashmapAug) dictionary, written from block.tlb:29-55 with @ton/core's Slice only:
 * the leaves present (key and the slice at the leaf's extra) and the number of pruned subtrees.
 */
function walkHashmap(root: Cell, keyBits: number): { leaves: Array<{ key: bigint; s: Slice }>; pruned: number } {
  const out = { leaves: [] as Array<{ key: bigint; s: Slice }>, pruned: 0 };
  const visit = (c: Cell, n: number, prefix: bigint) => {
    if (c.isExotic) {
      expect(c.type).toBe(CellType.PrunedBranch);
      out.pruned++;
      return;
    }
    const s = c.beginParse();
    // hml_short$0 len:(Unary ~n) s:(n * Bit) | hml_long$10 n:(#<= m) s:(n * Bit) | hml_same$11 v:Bit n:(#<= m)
    const lenBits = Math.ceil(Math.log2(n + 1));
    let len: number;
    let bits: bigint;
    const form = !s.loadBit() ? 'short' : !s.loadBit() ? 'long' : 'same';
    if (form === 'short') {
      len = 0;
      while (s.loadBit()) len++;
      bits = len === 0 ? 0n : s.loadUintBig(len);
    } else if (form === 'long') {
      len = s.loadUint(lenBits);
      bits = len === 0 ? 0n : s.loadUintBig(len);
    } else {
      const v = s.loadBit();
      len = s.loadUint(lenBits);
      bits = v && len > 0 ? (1n << BigInt(len)) - 1n : 0n;
    }
    const key = (prefix << BigInt(len)) | bits;
    if (len === n) {
      out.leaves.push({ key, s });
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    visit(left, n - len - 1, key << 1n);
    visit(right, n - len - 1, (key << 1n) | 1n);
  };
  visit(root, keyBits, 0n);
  return out;
}

describe.skipIf(!hasVectors)('OutMsgQueueInfo in real states', () => {
  const queues: Array<{ label: string; q: OutMsgQueueInfo; cell: Cell }> = hasVectors
    ? realStates().flatMap((st) => {
        const s = loadShardState(st.cell.beginParse());
        const halves = s.kind === 'shard_state' ? [{ h: s, cell: st.cell }] : [];
        return halves.flatMap(({ h, cell }) =>
          isPruned(h.outMsgQueueInfo) ? [] : [{ label: st.label, q: h.outMsgQueueInfo, cell: cell.refs[0]! }],
        );
      })
    : [];

  it('decodes and re-encodes every present OutMsgQueueInfo', () => {
    expect(queues.length).toBeGreaterThanOrEqual(16);
    for (const { q, cell } of queues) {
      const again = cellOf(storeOutMsgQueueInfo(loadOutMsgQueueInfo(cell.beginParse())));
      expect(again.hash()).toEqual(cell.hash());
      expect(cellOf(storeOutMsgQueueInfo(q)).hash()).toEqual(cell.hash());
    }
  });

  it('the writer rebuilds whole out queues (tongo blocks 2 and 3: 153 and 95 messages) from their entries', () => {
    let whole = 0;
    const sizes: Record<string, number> = {};
    for (const { label, q } of queues) {
      const d = outMsgQueueEntries(q.outQueue);
      if (d.pruned > 0 || d.entries.length === 0) continue;
      // @ton/core reads the same queue (leaf = extra:uint64 then the EnqueuedMsg; fork extras ignored).
      const core = Dictionary.loadDirect(
        Dictionary.Keys.BigUint(352),
        { serialize: () => {}, parse: (s: Slice) => ({ lt: s.loadUintBig(64), msg: loadEnqueuedMsg(s) }) },
        q.outQueue.root!.beginParse(),
      );
      expect(d.entries.map((e) => e.key)).toEqual(core.keys().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const e of d.entries) expect(e.extra).toBe(core.get(e.key)!.lt);
      sizes[label] = core.size;
      const rebuilt = buildOutMsgQueue(d.entries);
      expect(rebuilt.root!.hash().toString('hex')).toBe(q.outQueue.root!.hash().toString('hex'));
      expect(rebuilt.extra).toBe(q.outQueue.extra);
      whole++;
    }
    expect(whole).toBeGreaterThanOrEqual(2);
    expect(sizes['blocks/mainnet_tongo_block-2.json new']).toBe(153);
    expect(sizes['blocks/mainnet_tongo_block-3.json new']).toBe(95);
  });

  it('each queued message sits under its hash with its emitted lt as extra; forks keep the minimum', () => {
    let leaves = 0;
    let forks = 0;
    for (const { q } of queues) {
      if (q.outQueue.root === null) continue;
      for (const node of augNodes(q.outQueue.root, 352)) {
        const s = node.afterLabel.clone();
        const stored = s.loadUintBig(64);
        if (node.isLeaf) {
          const value = loadEnqueuedMsg(s);
          if (value.outMsg.isExotic) continue; // an old state's proof may prune the envelope
          const env = loadMsgEnvelope(value.outMsg.beginParse());
          expect(node.key & HASH_MASK).toBe(BigInt(`0x${env.msg.hash(0).toString('hex')}`));
          expect(emittedLt(value)).toBe(stored);
          leaves++;
          continue;
        }
        if (node.children.some((c) => c.isExotic)) continue;
        const [l, r] = node.children.map((c) => nodeExtra(c, node.n - 1, (x) => x.loadUintBig(64)));
        const min = minLt(l!, r!);
        expect(min).toBe(stored);
        const label = loadHmLabel(node.cell.beginParse(), node.keyBits);
        const b = beginCell();
        storeHmLabel(b, label.len, label.bits, node.keyBits);
        b.storeRef(node.children[0]!).storeRef(node.children[1]!).storeUint(min, 64);
        expect(b.endCell().hash()).toEqual(node.cell.hash());
        forks++;
      }
    }
    expect(leaves).toBeGreaterThanOrEqual(1000);
    expect(forks).toBeGreaterThanOrEqual(900);
  });

  it('ProcessedInfo entries decode and whole dictionaries rebuild', () => {
    let rebuilt = 0;
    for (const { q } of queues) {
      const d = processedInfoEntries(q.procInfo);
      if (d.pruned > 0 || q.procInfo === null || q.procInfo.level() !== 0) continue;
      expect(d.entries.length).toBeGreaterThan(0);
      for (const e of d.entries) {
        expect(e.value.lastMsgLt).toBeGreaterThan(0n);
        expect(e.mcSeqno).toBeGreaterThan(0);
      }
      expect(buildProcessedInfo(d.entries)!.hash()).toEqual(q.procInfo.hash());
      rebuilt++;
    }
    expect(rebuilt).toBeGreaterThanOrEqual(15);
  });

  it('the dispatch queues of block 0:8000000000000000:71398501 decode and rebuild; forks keep the minimum lt', () => {
    let checked = 0;
    let smallestPresent = 0;
    let smallestPresentWalked = 0;
    for (const { label, q, cell } of queues) {
      if (!label.includes('71398501')) continue;
      if (!q.extra) throw new Error('expected OutMsgQueueExtra');
      // The out queue is empty and its recorded size says so.
      expect(outMsgQueueEntries(q.outQueue).entries.length).toBe(0);
      expect(q.extra.outQueueSize).toBe(0n);
      const d = dispatchQueueEntries(q.extra.dispatchQueue);
      expect(d.pruned).toBe(0);
      // The same queue read from the raw OutMsgQueueInfo cell without our codec: out_queue:ahme_empty$0
      // extra:uint64, proc_info:(HashmapE 96), extra:just$1 out_msg_queue_extra#0 dispatch_queue:ahme_root$1 …
      const raw = cell.beginParse();
      expect(raw.loadBit()).toBe(false);
      raw.skip(64);
      raw.loadMaybeRef();
      expect(raw.loadBit()).toBe(true);
      expect(raw.loadUint(4)).toBe(0);
      const dispatchRoot = raw.loadMaybeRef()!;
      expect(raw.loadUintBig(64)).toBe(q.extra.dispatchQueue.extra);
      const accounts = Dictionary.loadDirect(
        Dictionary.Keys.BigUint(256),
        {
          serialize: () => {},
          parse: (s: Slice) => ({ extra: s.loadUintBig(64), messages: s.loadMaybeRef(), count: s.loadUintBig(48) }),
        },
        dispatchRoot.beginParse(),
      );
      expect(accounts.size).toBeGreaterThan(0);
      expect(d.entries.length).toBe(accounts.size);
      expect(d.entries.length).toBe(10);
      for (const e of d.entries) {
        const a = accounts.get(e.key)!;
        expect([e.extra, e.value.count]).toEqual([a.extra, a.count]);
        const walked = a.messages ? walkHashmap(a.messages, 64) : { leaves: [], pruned: 0 };
        const ours = accountDispatchQueueMessages(e.value);
        expect(ours.entries.map((m) => m.key)).toEqual(walked.leaves.map((l) => l.key));
        expect(ours.pruned).toBe(walked.pruned);
        if (walked.leaves.some((l) => l.key === a.extra)) smallestPresentWalked++;
      }
      for (const e of d.entries) {
        // The proof keeps each account's queue but prunes most of its messages: the extra (the smallest
        // created_lt) is at most any present key, and equals it when the smallest one is present.
        const msgs = accountDispatchQueueMessages(e.value);
        expect(msgs.pruned).toBeGreaterThan(0);
        expect(e.value.count).toBeGreaterThan(BigInt(msgs.entries.length));
        for (const m of msgs.entries) expect(e.extra <= m.key).toBe(true);
        if (msgs.entries[0]?.key === e.extra) smallestPresent++;
      }
      const min = d.entries.map((e) => e.extra).reduce(minLt);
      expect(q.extra.dispatchQueue.extra).toBe(min);
      const rebuilt = buildDispatchQueue(d.entries);
      expect(rebuilt.root!.hash().toString('hex')).toBe(q.extra.dispatchQueue.root!.hash().toString('hex'));
      expect(rebuilt.extra).toBe(q.extra.dispatchQueue.extra);
      checked++;
    }
    expect(checked).toBe(2);
    expect(smallestPresent).toBe(smallestPresentWalked);
    expect(smallestPresent).toBe(4);
  });

  it('an account dispatch queue’s extra is its smallest created_lt (2^64-1 when empty)', () => {
    const msg = (lt: bigint): EnqueuedMsg => ({ enqueuedLt: lt, outMsg: beginCell().storeUint(lt, 64).endCell() });
    const messages = buildDictRoot(
      [5n, 3n, 9n].map((lt) => ({ key: lt, value: msg(lt) })).sort((a, b) => Number(a.key - b.key)),
      64,
      storeEnqueuedMsg,
    );
    expect(accountDispatchQueueExtra({ messages, count: 3n })).toBe(3n);
    expect(accountDispatchQueueExtra({ messages: null, count: 0n })).toBe((1n << 64n) - 1n);
  });
});

describe('OutMsgQueue codec', () => {
  it('round-trips OutMsgQueueExtra and rejects a wrong tag', () => {
    const v = { dispatchQueue: { root: null, extra: 0n }, outQueueSize: 7n };
    const cell = cellOf(storeOutMsgQueueExtra(v));
    expect(loadOutMsgQueueExtra(cell.beginParse())).toEqual(v);
    const s = cell.beginParse();
    s.skip(4);
    const tampered = beginCell().storeUint(1, 4).storeSlice(s).endCell();
    expect(() => loadOutMsgQueueExtra(tampered.beginParse())).toThrow(/OutMsgQueueExtra: expected tag 0x0, got 0x1/);
  });

  it('refuses values that do not fit their fields', () => {
    expect(() => storeAccountDispatchQueue({ messages: null, count: 1n << 48n })).toThrow(/does not fit uint48/);
    expect(() => storeOutMsgQueueExtra({ dispatchQueue: { root: null, extra: 0n }, outQueueSize: -1n })).toThrow(
      /OutMsgQueueExtra/,
    );
    expect(() => storeProcessedUpto({ lastMsgLt: 1n, lastMsgHash: Buffer.alloc(31) })).toThrow(
      /last_msg_hash of 32 bytes/,
    );
    expect(() => loadProcessedUpto(beginCell().storeUint(1, 64).endCell().beginParse())).toThrow(/^ProcessedUpto: /);
  });

  it('builds ProcessedInfo keyed by [shard mc_seqno] and an empty one as null', () => {
    const entries = [
      { shard: 0x8000000000000000n, mcSeqno: 7, value: { lastMsgLt: 11n, lastMsgHash: Buffer.alloc(32, 1) } },
      { shard: 0x4000000000000000n, mcSeqno: 9, value: { lastMsgLt: 12n, lastMsgHash: Buffer.alloc(32, 2) } },
    ];
    const root = buildProcessedInfo(entries);
    const back = processedInfoEntries(root);
    expect(back.entries.map((e) => [e.shard, e.mcSeqno])).toEqual([
      [0x4000000000000000n, 9],
      [0x8000000000000000n, 7],
    ]);
    expect(dictEntries(root, 96, loadProcessedUpto).entries.length).toBe(2);
    expect(buildProcessedInfo([])).toBeNull();
  });
});
