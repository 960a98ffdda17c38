// The real block 0:8000000000000000:71398501 (269 transactions, USDT transfers) and the other full blocks in
// vectors/blocks: every transaction's inputs agree between view and rows; the candidate events equal what the
// inbound messages imply (counted from the pipeline's message views, not from these parsers); and each event is
// checked against the chain itself: the messages the contract sent in reply, and the receiving contract's
// transaction when it is in the same block. Prints per-kind counts and a throughput line (no thresholds).
import { isDeepStrictEqual } from 'node:util';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../../../test/helpers/vectors.ts';
import { type BlockIdExt, listBlockTransactions, loadBlockCell } from '../../../../ton/index.ts';
import { blockGlobalVersion } from '../../rows.ts';
import type { ContractEvent, TransactionInput } from '../types.ts';
import { eventsOf } from './events-of.ts';
import { bothInputs, outWithOp, plain, plainEvents, raw, rawHead } from './vectors.test-util.ts';

interface BlockVector {
  ids: { workchain: number; shard: string; seqno: number; file_hash?: string };
  boc_base64: string;
}

const OP = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  notification: 0x7362d09c,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  nftTransfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
};
const KIND_BY_OP = new Map<number, ContractEvent['kind']>([
  [OP.transfer, 'jetton_transfer'],
  [OP.burn, 'jetton_burn'],
  [OP.internalTransfer, 'jetton_mint'],
  [OP.nftTransfer, 'nft_transfer'],
]);
const MAIN = 'mainnet_0_8000000000000000_71398501.json';

interface BlockRun {
  file: string;
  inputs: TransactionInput[];
  /** Transactions whose input from stored rows differs from the one from the view (hash hex). */
  rowMismatches: string[];
  events: ContractEvent[];
}

const blocks: BlockRun[] = loadVectors<BlockVector>('blocks').map(({ file, data }) => {
  const root = Cell.fromBase64(data.boc_base64);
  const block = loadBlockCell(root);
  const id: BlockIdExt = {
    workchain: data.ids.workchain,
    shard: BigInt(`0x${data.ids.shard}`),
    seqno: data.ids.seqno,
    rootHash: root.hash(),
    fileHash: Buffer.from(data.ids.file_hash ?? '00'.repeat(32), 'hex'),
  };
  const mcSeqno = file === MAIN ? 66519406 : 1;
  const inputs: TransactionInput[] = [];
  const rowMismatches: string[] = [];
  for (const t of listBlockTransactions(block)) {
    const both = bothInputs(t.cell, id, mcSeqno, blockGlobalVersion(block));
    if (!isDeepStrictEqual(plain(both.fromRows), plain(both.fromView))) rowMismatches.push(t.hash.toString('hex'));
    inputs.push(both.fromView);
  }
  return { file, inputs, rowMismatches, events: inputs.flatMap(eventsOf) };
});

const key = (b: Buffer) => b.toString('hex');

/** What the inbound messages imply, from the message views' opcode / bounced / value fields. */
function implied(inputs: TransactionInput[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const t of inputs) {
    const m = t.inMsg;
    if (!m || m.value === null || m.bounced || m.opcode === null) continue;
    const kind = KIND_BY_OP.get(m.opcode >>> 0);
    if (kind) n.set(kind, (n.get(kind) ?? 0) + 1);
  }
  return n;
}

function counts(events: ContractEvent[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const e of events) n.set(e.kind, (n.get(e.kind) ?? 0) + 1);
  return n;
}

interface Checked {
  transfers: number;
  transfersNotifyingDirectly: number;
  transfersWithReceiver: number;
  burns: number;
  mintsFromWallets: number;
  mintsFromOthers: number;
  nft: number;
}

/** Cross-checks every event of a block against the chain; returns how many were checked how far. */
function crossCheck(run: BlockRun): Checked {
  const byInMsg = new Map<string, TransactionInput>();
  const byOutMsg = new Map<string, TransactionInput>();
  for (const t of run.inputs) {
    if (t.inMsg) byInMsg.set(key(t.inMsg.hash), t);
    for (const m of t.outMsgs) byOutMsg.set(key(m.hash), t);
  }
  const txOf = new Map(run.inputs.map((t) => [key(t.hash), t]));
  const c: Checked = {
    transfers: 0,
    transfersNotifyingDirectly: 0,
    transfersWithReceiver: 0,
    burns: 0,
    mintsFromWallets: 0,
    mintsFromOthers: 0,
    nft: 0,
  };
  for (const e of run.events) {
    const t = txOf.get(key(e.tx.hash))!;
    const where = `${run.file} tx ${key(t.hash)}`;
    expect(e.tx.aborted, where).toBe(t.aborted);
    if (t.aborted) continue; // an aborted transaction sent nothing to compare with
    switch (e.kind) {
      case 'jetton_transfer': {
        expect(raw(e.source), where).toBe(raw(t.inMsg?.source));
        const sent = outWithOp(t, OP.internalTransfer);
        if (!sent) {
          // Not a standard wallet (a pTON-style proxy notifies the receiver directly): the notification it sent
          // carries the transfer's query_id and amount to the body's destination. The pipeline keeps such a
          // candidate only if the contract is detected as a jetton wallet.
          const note = outWithOp(t, OP.notification);
          const n = rawHead(note?.body ?? null, 1);
          expect([n.queryId, n.amount], where).toEqual([e.queryId, e.amount]);
          expect(raw(note?.destination), where).toBe(raw(e.destination));
          c.transfersNotifyingDirectly++;
          break;
        }
        const h = rawHead(sent.body, 2);
        expect([h.queryId, h.amount], where).toEqual([e.queryId, e.amount]);
        c.transfers++;
        const recv = sent && byInMsg.get(key(sent.hash));
        if (!recv || recv.aborted) break;
        const note = outWithOp(recv, OP.notification);
        if (e.forwardTonAmount > 0n) {
          const n = rawHead(note?.body ?? null, 1);
          expect([n.queryId, n.amount, n.addrs[0]], where).toEqual([e.queryId, e.amount, h.addrs[0]]);
          expect(raw(note?.destination), where).toBe(raw(e.destination));
        } else {
          expect(note, where).toBeUndefined();
        }
        const excess = outWithOp(recv, OP.excesses);
        if (excess) expect(raw(excess.destination), where).toBe(raw(e.responseDestination));
        c.transfersWithReceiver++;
        break;
      }
      case 'jetton_burn': {
        const n = outWithOp(t, OP.burnNotification);
        const h = rawHead(n?.body ?? null, 2);
        expect([h.queryId, h.amount, h.addrs[1]], where).toEqual([e.queryId, e.amount, raw(e.responseDestination)]);
        expect(h.addrs[0], where).toBe(raw(e.owner));
        c.burns++;
        break;
      }
      case 'jetton_mint': {
        expect(raw(e.minter), where).toBe(raw(t.inMsg?.source));
        const sender = byOutMsg.get(key(t.inMsg!.hash));
        const origin = sender?.inMsg?.opcode != null ? sender.inMsg.opcode >>> 0 : null;
        if (sender && origin === OP.transfer) {
          // wallet -> wallet: the transfer the sender's wallet received carries the same query_id and amount
          const [tr] = eventsOf(sender);
          expect(tr?.kind, where).toBe('jetton_transfer');
          if (tr?.kind === 'jetton_transfer') expect([tr.queryId, tr.amount], where).toEqual([e.queryId, e.amount]);
          c.mintsFromWallets++;
        } else {
          c.mintsFromOthers++;
        }
        break;
      }
      case 'nft_transfer': {
        expect(raw(e.oldOwner), where).toBe(raw(t.inMsg?.source));
        const oa = outWithOp(t, OP.ownershipAssigned);
        if (e.forwardAmount > 0n) {
          const h = rawHead(oa?.body ?? null, 1);
          expect([h.queryId, h.addrs[0]], where).toEqual([e.queryId, raw(e.oldOwner)]);
          expect(raw(oa?.destination), where).toBe(raw(e.newOwner));
        }
        const excess = outWithOp(t, OP.excesses);
        if (excess) expect(raw(excess.destination), where).toBe(raw(e.responseDestination));
        c.nft++;
        break;
      }
    }
  }
  return c;
}

describe.skipIf(!hasVectors)('blocks/*.json: candidate events of real blocks', () => {
  it('block 71398501: 269 transactions, its events as the inbound messages imply, checked against the chain', () => {
    const run = blocks.find((b) => b.file === MAIN);
    if (!run) throw new Error(`missing vector blocks/${MAIN}`);
    expect(run.inputs).toHaveLength(269);
    const got = counts(run.events);
    expect(got).toEqual(implied(run.inputs));
    const checked = crossCheck(run);
    console.log(
      `block 71398501 events: ${[...got].map(([k, n]) => `${k}=${n}`).join(' ')}; checked against the chain: ${JSON.stringify(checked)}`,
    );
    expect(got.get('jetton_transfer') ?? 0).toBeGreaterThan(0);
    expect(checked.transfers + checked.transfersNotifyingDirectly).toBe(got.get('jetton_transfer'));
  });

  it('every full block: stored rows give the same inputs as the chain view, for every transaction', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const run of blocks) expect(run.rowMismatches, run.file).toEqual([]);
    expect(blocks.reduce((n, b) => n + b.inputs.length, 0)).toBeGreaterThan(2000);
  });

  it('every full block: events as implied, each checked against the chain', () => {
    const total = new Map<string, number>();
    for (const run of blocks) {
      const got = counts(run.events);
      expect(got, run.file).toEqual(implied(run.inputs));
      const checked = crossCheck(run);
      for (const [k, n] of got) total.set(k, (total.get(k) ?? 0) + n);
      console.log(
        `${run.file}: ${run.inputs.length} txs; ${plainEvents(run.events).length} events; ${JSON.stringify(checked)}`,
      );
    }
    expect(total.get('nft_transfer') ?? 0).toBeGreaterThan(0);
  });

  it('throughput of eventsOf over block 71398501 (logged, no threshold)', () => {
    const run = blocks.find((b) => b.file === MAIN)!;
    let events = 0;
    let rounds = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) {
      for (const t of run.inputs) events += eventsOf(t).length;
      rounds++;
    }
    const s = (performance.now() - t0) / 1000;
    console.log(
      `eventsOf throughput: ${Math.round(events / s)} events/s, ${Math.round((rounds * run.inputs.length) / s)} transactions/s (${rounds} rounds of ${run.inputs.length} transactions)`,
    );
    expect(events).toBe(rounds * run.events.length);
  });
});
