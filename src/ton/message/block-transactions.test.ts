import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { messageToCell } from './message.ts';
import { normalizedMessageHash } from './message-view.ts';
import { blockFromVector } from './test-helpers.ts';
import { type Transaction, transactionFromCell, transactionToCell } from './transaction.ts';
import { transactionView } from './transaction-view.ts';

interface TongoTx {
  Lt: number;
  PrevTransHash: string;
  PrevTransLt: number;
  Now: number;
  OutMsgCnt: number;
  OrigStatus: string;
  EndStatus: string;
}
interface BlockVector {
  ids: { workchain: number; root_hash: string };
  boc_base64: string;
  transactions: Array<{ account: string; lt: string; hash: string }>;
  expected: {
    block_expected_json?: {
      Accounts: Record<string, { Transactions: Record<string, TongoTx> }>;
      TxHashes: string[] | null;
    };
    from_replay_fixture?: { transactions: number };
  };
  verification: { tx_count: number };
}

const blocks = loadVectors<BlockVector>('blocks');

describe.skipIf(!hasVectors)('blocks/*.json: every transaction of every block', () => {
  it('has the vectors', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(12);
  });

  it.each(blocks.map((b) => [b.file, b.data] as const))('%s: all transactions round-trip bit-exactly', (file, v) => {
    const block = blockFromVector(v.boc_base64, `blocks/${file}`);
    expect(block.root.hash().toString('hex')).toBe(v.ids.root_hash);
    expect(block.txs).toHaveLength(v.verification.tx_count);
    if (v.expected.from_replay_fixture) expect(block.txs).toHaveLength(v.expected.from_replay_fixture.transactions);
    const decoded: Transaction[] = [];
    for (const t of block.txs) {
      const tx = transactionFromCell(t.cell);
      expect(tx.accountAddr.equals(t.accountAddr)).toBe(true);
      expect(tx.lt).toBe(t.lt);
      expect(transactionToCell(tx).equals(t.cell)).toBe(true);
      for (const m of [tx.inMsg, ...tx.outMsgs]) {
        if (!m) continue;
        expect(messageToCell(m).equals(m.raw!)).toBe(true);
        // A message stored without its raw cell hashes the same as the cell it came from.
        const { raw: _raw, ...bare } = m;
        expect(messageToCell(bare).hash().equals(m.raw!.hash())).toBe(true);
      }
      decoded.push(tx);
    }
    // The collector's (account, lt, hash) list of the block.
    expect(
      decoded.map((tx) => ({
        account: `${v.ids.workchain}:${tx.accountAddr.toString('hex')}`,
        lt: tx.lt.toString(),
        hash: tx.raw!.hash().toString('hex'),
      })),
    ).toEqual(v.transactions);
  });

  it('covers thousands of transactions', () => {
    const total = blocks.reduce((n, b) => n + blockFromVector(b.data.boc_base64, `blocks/${b.file}`).txs.length, 0);
    expect(total).toBeGreaterThanOrEqual(2000);
  });

  it.each(blocks.filter((b) => b.data.expected.block_expected_json).map((b) => [b.file, b.data] as const))(
    '%s: matches tongo’s expected per-account transactions and hashes',
    (file, v) => {
      const exp = v.expected.block_expected_json!;
      const block = blockFromVector(v.boc_base64, `blocks/${file}`);
      const seen = new Map<string, TongoTx>();
      for (const t of block.txs) {
        const tx = transactionFromCell(t.cell);
        const view = transactionView(tx, { workchain: v.ids.workchain });
        seen.set(`${tx.accountAddr.toString('hex')}/${tx.lt}`, {
          Lt: Number(tx.lt),
          PrevTransHash: tx.prevTransHash.toString('hex'),
          PrevTransLt: Number(tx.prevTransLt),
          Now: tx.now,
          OutMsgCnt: tx.outmsgCnt,
          OrigStatus: view.origStatus,
          EndStatus: view.endStatus,
        });
      }
      let n = 0;
      for (const [addr, acc] of Object.entries(exp.Accounts)) {
        for (const [lt, want] of Object.entries(acc.Transactions)) {
          const { AccountAddr: _a, ...fields } = want as TongoTx & { AccountAddr: string };
          expect(seen.get(`${addr}/${lt}`), `${addr}/${lt}`).toEqual(fields);
          n++;
        }
      }
      expect(n).toBe(block.txs.length);
      const hashes = block.txs.map((t) => t.cell.hash().toString('hex')).sort();
      expect(hashes).toEqual([...(exp.TxHashes ?? [])].sort());
    },
  );

  it('chains each account’s transactions by prev_trans_hash/lt and state hashes', () => {
    let links = 0;
    for (const { file, data: v } of blocks) {
      const byAccount = new Map<string, Transaction[]>();
      for (const t of blockFromVector(v.boc_base64, `blocks/${file}`).txs) {
        const tx = transactionFromCell(t.cell);
        const k = tx.accountAddr.toString('hex');
        byAccount.set(k, [...(byAccount.get(k) ?? []), tx]);
      }
      for (const txs of byAccount.values()) {
        for (let i = 1; i < txs.length; i++) {
          const prev = txs[i - 1]!;
          const cur = txs[i]!;
          expect(cur.prevTransHash.equals(prev.raw!.hash())).toBe(true);
          expect(cur.prevTransLt).toBe(prev.lt);
          expect(cur.stateUpdate.oldHash.equals(prev.stateUpdate.newHash)).toBe(true);
          links++;
        }
      }
    }
    expect(links).toBeGreaterThan(100);
  });

  it('normalizes every external-in message the way TEP-467 says', () => {
    let ext = 0;
    let alreadyNormal = 0;
    for (const { file, data: v } of blocks) {
      for (const t of blockFromVector(v.boc_base64, `blocks/${file}`).txs) {
        const m = transactionFromCell(t.cell).inMsg;
        if (m?.info.kind !== 'ext_in_msg_info') continue;
        ext++;
        const norm = normalizedMessageHash(m)!;
        const normal = m.info.src.kind === 'addr_none' && m.info.importFee === 0n && !m.init && m.bodyInRef;
        if (normal) alreadyNormal++;
        // A message already in normal form hashes to its own normalized hash, and only then.
        expect(norm.equals(m.raw!.hash())).toBe(normal);
        // Normalizing is idempotent: the normal form of the normal form is the same message.
        const normalForm = {
          ...m,
          info: { ...m.info, src: { kind: 'addr_none' as const }, importFee: 0n },
          init: null,
          bodyInRef: true,
        };
        expect(messageToCell(normalForm).hash().equals(norm)).toBe(true);
        expect(normalizedMessageHash(normalForm)!.equals(norm)).toBe(true);
      }
    }
    expect(ext).toBeGreaterThan(100);
    expect(alreadyNormal).toBeGreaterThan(0);
  });
});
