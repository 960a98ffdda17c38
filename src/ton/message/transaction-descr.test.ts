import { type Builder, beginCell, type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { cellFromBase64 } from './test-helpers.ts';
import {
  loadTransactionDescr,
  storeTransactionDescr,
  type TransactionDescr,
  transactionFromCell,
  transactionToCell,
} from './transaction.ts';
import { transactionSucceeded, transactionView } from './transaction-view.ts';

// Real chain data only has trans_ord and trans_tick_tock (see block-transactions.test.ts); the other
// constructors, phases and enum values are checked on cells written by hand from block.tlb:315-389
// with @ton/core's Builder, so the loader is tested against the schema, not against its own storer.
const HASH_A = Buffer.alloc(32, 0xaa);
const HASH_B = Buffer.alloc(32, 0xbb);

const grams = (b: Builder, v: number) => (v === 0 ? b.storeUint(0, 4) : b.storeUint(1, 4).storeUint(v, 8));
/** tr_phase_storage$_ collected:Grams due:(Maybe Grams) status_change:AccStatusChange */
const storagePh = (b: Builder, collected: number, due: number | null, change: 'unchanged' | 'frozen' | 'deleted') => {
  grams(b, collected);
  if (due === null) b.storeBit(false);
  else grams(b.storeBit(true), due);
  return change === 'unchanged' ? b.storeBit(false) : b.storeUint(change === 'frozen' ? 0b10 : 0b11, 2);
};
/** split_merge_info$_ cur_shard_pfx_len:(## 6) acc_split_depth:(## 6) this_addr sibling_addr */
const splitInfo = (b: Builder) => b.storeUint(3, 6).storeUint(5, 6).storeBuffer(HASH_A).storeBuffer(HASH_B);
/** tr_phase_compute_skipped$0 reason */
const skipped = (b: Builder, reason: number, bits: number) => b.storeBit(false).storeUint(reason, bits);
/** tr_phase_compute_vm$1 with a ^[ … ] of fixed values */
const vm = (b: Builder) =>
  b.storeBit(true).storeBit(true).storeBit(false).storeBit(true).storeUint(1, 4).storeUint(77, 8).storeRef(
    beginCell()
      .storeUint(1, 3)
      .storeUint(50, 8) // gas_used
      .storeUint(2, 3)
      .storeUint(1000, 16) // gas_limit
      .storeBit(true)
      .storeUint(1, 2)
      .storeUint(9, 8) // gas_credit
      .storeInt(-1, 8) // mode
      .storeInt(-14, 32) // exit_code
      .storeBit(true)
      .storeInt(-5, 32) // exit_arg
      .storeUint(33, 32)
      .storeBuffer(HASH_A)
      .storeBuffer(HASH_B),
  );
/** tr_phase_action$_ … in its own cell */
const action = (ok: boolean) =>
  beginCell()
    .storeBit(ok)
    .storeBit(true)
    .storeBit(!ok)
    .storeUint(0b11, 2) // acst_deleted
    .storeBit(false)
    .storeBit(true)
    .storeUint(1, 4)
    .storeUint(3, 8)
    .storeInt(ok ? 0 : 37, 32)
    .storeBit(false)
    .storeUint(4, 16)
    .storeUint(1, 16)
    .storeUint(2, 16)
    .storeUint(3, 16)
    .storeBuffer(HASH_B)
    .storeUint(1, 3)
    .storeUint(2, 8)
    .storeUint(2, 3)
    .storeUint(700, 16);

function decodeExact(cell: Cell): TransactionDescr {
  const s = cell.beginParse();
  const d = loadTransactionDescr(s);
  expect(s.remainingBits).toBe(0);
  expect(s.remainingRefs).toBe(0);
  expect(beginCell().store(storeTransactionDescr(d)).endCell().equals(cell)).toBe(true);
  return d;
}

describe('TransactionDescr: every constructor, from hand-written cells', () => {
  it('trans_storage$0001 with storage_fees_due and acst_frozen', () => {
    const d = decodeExact(storagePh(beginCell().storeUint(0b0001, 4), 5, 7, 'frozen').endCell());
    expect(d).toEqual({
      kind: 'trans_storage',
      storagePh: { storageFeesCollected: 5n, storageFeesDue: 7n, statusChange: 'acst_frozen' },
    });
    expect(transactionSucceeded(d)).toBe(true);
  });

  it('trans_ord$0000 with a VM phase, a failed action and a negfunds bounce', () => {
    const b = beginCell().storeUint(0, 4).storeBit(true);
    storagePh(b.storeBit(true), 0, null, 'deleted');
    grams(b.storeBit(true).storeBit(true), 3).storeUint(1, 4).storeUint(200, 8).storeBit(false); // credit_ph
    vm(b);
    b.storeBit(true).storeRef(action(false));
    b.storeBit(true).storeBit(true).storeUint(0b00, 2).storeBit(false); // aborted, bounce negfunds, destroyed
    const d = decodeExact(b.endCell());
    if (d.kind !== 'trans_ord') throw new Error('expected trans_ord');
    expect(d.creditFirst).toBe(true);
    expect(d.storagePh).toEqual({ storageFeesCollected: 0n, storageFeesDue: null, statusChange: 'acst_deleted' });
    expect(d.creditPh).toMatchObject({ dueFeesCollected: 3n, credit: { coins: 200n } });
    expect(d.computePh).toEqual({
      kind: 'tr_phase_compute_vm',
      success: true,
      msgStateUsed: false,
      accountActivated: true,
      gasFees: 77n,
      gasUsed: 50n,
      gasLimit: 1000n,
      gasCredit: 9n,
      mode: -1,
      exitCode: -14,
      exitArg: -5,
      vmSteps: 33,
      vmInitStateHash: HASH_A,
      vmFinalStateHash: HASH_B,
    });
    expect(d.action).toMatchObject({
      success: false,
      valid: true,
      noFunds: true,
      statusChange: 'acst_deleted',
      totalFwdFees: null,
      totalActionFees: 3n,
      resultCode: 37,
      resultArg: null,
    });
    expect(d.action).toMatchObject({
      totActions: 4,
      specActions: 1,
      skippedActions: 2,
      msgsCreated: 3,
      actionListHash: HASH_B,
      totMsgSize: { cells: 2n, bits: 700n },
    });
    expect(d.aborted).toBe(true);
    expect(d.bounce).toEqual({ kind: 'tr_phase_bounce_negfunds' });
    expect(d.destroyed).toBe(false);
    expect(transactionSucceeded(d)).toBe(false);
  });

  it('trans_ord$0000 with skip reasons bad_state and suspended', () => {
    for (const [tag, bits, reason] of [
      [0b01, 2, 'cskip_bad_state'],
      [0b110, 3, 'cskip_suspended'],
      [0b10, 2, 'cskip_no_gas'],
      [0b00, 2, 'cskip_no_state'],
    ] as const) {
      const b = beginCell().storeUint(0, 4).storeBit(false).storeBit(false).storeBit(false);
      skipped(b, tag, bits).storeBit(false).storeBit(true).storeBit(false).storeBit(false);
      const d = decodeExact(b.endCell());
      expect(d).toMatchObject({ computePh: { kind: 'tr_phase_compute_skipped', reason }, aborted: true, bounce: null });
      expect(transactionSucceeded(d)).toBe(reason === 'cskip_no_state');
    }
  });

  it('trans_tick_tock$001', () => {
    const b = beginCell().storeUint(0b001, 3).storeBit(true);
    storagePh(b, 0, null, 'unchanged');
    vm(b).storeBit(true).storeRef(action(true)).storeBit(false).storeBit(false);
    const d = decodeExact(b.endCell());
    expect(d).toMatchObject({
      kind: 'trans_tick_tock',
      isTock: true,
      aborted: false,
      destroyed: false,
      action: { success: true },
    });
    // the VM above exits with -14: tongo's rule counts that as a failure
    expect(transactionSucceeded(d)).toBe(false);
  });

  it('trans_split_prepare$0100', () => {
    const b = splitInfo(beginCell().storeUint(0b0100, 4)).storeBit(false);
    skipped(b, 0, 2).storeBit(false).storeBit(false).storeBit(true);
    const d = decodeExact(b.endCell());
    expect(d).toEqual({
      kind: 'trans_split_prepare',
      splitInfo: { curShardPfxLen: 3, accSplitDepth: 5, thisAddr: HASH_A, siblingAddr: HASH_B },
      storagePh: null,
      computePh: { kind: 'tr_phase_compute_skipped', reason: 'cskip_no_state' },
      action: null,
      aborted: false,
      destroyed: true,
    });
    expect(transactionSucceeded(d)).toBe(true);
  });

  it('trans_merge_prepare$0110', () => {
    const b = storagePh(splitInfo(beginCell().storeUint(0b0110, 4)), 1, null, 'unchanged').storeBit(true);
    expect(decodeExact(b.endCell())).toMatchObject({
      kind: 'trans_merge_prepare',
      storagePh: { storageFeesCollected: 1n },
      aborted: true,
    });
  });

  describe.skipIf(!hasVectors)('with a real transaction as prepare_transaction', () => {
    type TxVector = {
      boc_base64: string;
      ids: { account: string; lt: string; now: number };
      verification: {
        decoded: {
          prevTransHash: string;
          prevTransLt: string;
          outMessagesCount: number;
          totalFees: string;
          oldStatus: string;
          endStatus: string;
        };
      };
    };
    const vector = () => loadVector<TxVector>('transactions', 'tx_e9fb666f_wallet_ext.json');
    const real = () => cellFromBase64(vector().boc_base64);

    it('trans_split_install$0101', () => {
      const b = splitInfo(beginCell().storeUint(0b0101, 4)).storeRef(real()).storeBit(true);
      const d = decodeExact(b.endCell());
      if (d.kind !== 'trans_split_install') throw new Error('expected trans_split_install');
      expect(d.installed).toBe(true);
      expect(d.splitInfo).toEqual({ curShardPfxLen: 3, accSplitDepth: 5, thisAddr: HASH_A, siblingAddr: HASH_B });
      // prepare_transaction decoded: the fields the vector records (ton-core Transaction.spec.ts asserts lt
      // and account; the rest is the collector's @ton/core decode).
      const { ids, verification } = vector();
      const tx = d.prepareTransaction;
      expect(`0:${tx.accountAddr.toString('hex')}`).toBe(ids.account);
      expect(tx.lt.toString()).toBe(ids.lt);
      expect(tx.now).toBe(ids.now);
      expect(tx.prevTransHash.toString('hex')).toBe(verification.decoded.prevTransHash);
      expect(tx.prevTransLt.toString()).toBe(verification.decoded.prevTransLt);
      expect(tx.outMsgs.length).toBe(verification.decoded.outMessagesCount);
      expect(tx.totalFees.coins.toString()).toBe(verification.decoded.totalFees);
      // @ton/core names the statuses after their meaning; block.tlb's constructors are acc_state_<short>.
      const tlb: Record<string, string> = {
        uninitialized: 'acc_state_uninit',
        frozen: 'acc_state_frozen',
        active: 'acc_state_active',
        'non-existing': 'acc_state_nonexist',
      };
      expect([tx.origStatus, tx.endStatus]).toEqual([
        tlb[verification.decoded.oldStatus],
        tlb[verification.decoded.endStatus],
      ]);
      expect(tx.description.kind).toBe('trans_ord');
    });

    it('trans_merge_install$0111, and a transaction carrying it', () => {
      const b = splitInfo(beginCell().storeUint(0b0111, 4)).storeRef(real()).storeBit(false).storeBit(false);
      vm(b).storeBit(false).storeBit(false).storeBit(false);
      const descr = b.endCell();
      const d = decodeExact(descr);
      expect(d).toMatchObject({
        kind: 'trans_merge_install',
        storagePh: null,
        creditPh: null,
        action: null,
        aborted: false,
        destroyed: false,
      });
      // Put it in place of a real transaction's description: the whole transaction still round-trips.
      const tx = transactionFromCell(real());
      const swapped = transactionToCell({ ...tx, description: d });
      const back = transactionFromCell(swapped);
      expect(back.description.kind).toBe('trans_merge_install');
      expect(transactionToCell(back).equals(swapped)).toBe(true);
      expect(transactionView(back, { workchain: 0 }).description).toMatchObject({
        type: 'merge_install',
        splitInfo: { curShardPfxLen: 3 },
      });
    });
  });
});

describe('TransactionDescr and Transaction: malformed input throws CodecError', () => {
  it('tag $1xxx', () => {
    expect(() => loadTransactionDescr(beginCell().storeUint(0b1000, 4).endCell().beginParse())).toThrow(
      /TransactionDescr: expected tag \$0000..\$0111, got \$100/,
    );
  });

  it('ComputeSkipReason $111', () => {
    const b = beginCell().storeUint(0, 4).storeBit(false).storeBit(false).storeBit(false);
    skipped(b, 0b111, 3).storeBit(false).storeBit(false).storeBit(false).storeBit(false);
    expect(() => loadTransactionDescr(b.endCell().beginParse())).toThrow(/ComputeSkipReason: expected tag/);
  });

  it('truncated description', () => {
    const b = storagePh(beginCell().storeUint(0b0001, 4), 5, 7, 'frozen').endCell();
    const cut = beginCell()
      .storeBits(b.bits.substring(0, b.bits.length - 3))
      .endCell();
    expect(() => loadTransactionDescr(cut.beginParse())).toThrow(CodecError);
  });

  it('VarUInteger 7 of length 7', () => {
    // success valid no_funds, acst_unchanged$0, no total_fwd_fees, no total_action_fees, result_code,
    // no result_arg, four uint16 counters, action_list_hash, then tot_msg_size.cells with len 7 (not < 7)
    const c = beginCell().storeBit(true).storeBit(true).storeBit(false).storeBit(false).storeBit(false).storeBit(false);
    c.storeInt(0, 32).storeBit(false).storeUint(0, 64).storeBuffer(HASH_B).storeUint(7, 3);
    const b = beginCell().storeUint(0b001, 3).storeBit(false);
    storagePh(b, 0, null, 'unchanged');
    skipped(b, 0, 2).storeBit(true).storeRef(c).storeBit(false).storeBit(false);
    expect(() => loadTransactionDescr(b.endCell().beginParse())).toThrow(
      /cells: VarUInteger 7 length must be < 7, got 7/,
    );
  });

  describe.skipIf(!hasVectors)('tampered real transactions', () => {
    const real = () =>
      cellFromBase64(loadVector<{ boc_base64: string }>('transactions', 'tx_e9fb666f_wallet_ext.json').boc_base64);
    const withBits = (c: Cell, bits: (b: Builder) => void) => {
      const b = beginCell();
      bits(b);
      for (const r of c.refs) b.storeRef(r);
      return b.endCell();
    };

    it('the untampered control decodes', () => {
      expect(() => transactionFromCell(real())).not.toThrow();
    });

    it('wrong transaction tag', () => {
      const c = real();
      const t = withBits(c, (b) => b.storeUint(0b0110, 4).storeBits(c.bits.substring(4, c.bits.length - 4)));
      expect(() => transactionFromCell(t)).toThrow(/Transaction: expected tag \$0111, got \$0110/);
    });

    it('a bit too many at the end', () => {
      const c = real();
      const t = withBits(c, (b) => b.storeBits(c.bits).storeBit(false));
      expect(() => transactionFromCell(t)).toThrow(/Transaction: expected the cell to end, got 1 bits/);
    });

    it('wrong HASH_UPDATE tag', () => {
      const c = real();
      const refs = [...c.refs];
      const su = refs[refs.length - 2]!;
      refs[refs.length - 2] = beginCell()
        .storeUint(0x73, 8)
        .storeBits(su.bits.substring(8, su.bits.length - 8))
        .endCell();
      const t = beginCell().storeBits(c.bits);
      for (const r of refs) t.storeRef(r);
      expect(() => transactionFromCell(t.endCell())).toThrow(/HASH_UPDATE: expected tag #72, got #73/);
    });

    it('out_msgs keys that are not 0..n-1', () => {
      const tx = transactionFromCell(real());
      const c = real();
      const msgs = c.refs[0]!;
      // ^[ in_msg out_msgs ]: this transaction has an in_msg, so refs are [in_msg, out_msgs root]
      const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(15), Dictionary.Values.Cell(), msgs.refs[1]!);
      const moved = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
      for (const k of dict.keys()) moved.set(k + 1, dict.get(k)!);
      const newMsgs = beginCell().storeMaybeRef(msgs.refs[0]).storeDict(moved).endCell();
      const t = beginCell().storeBits(c.bits).storeRef(newMsgs);
      for (const r of c.refs.slice(1)) t.storeRef(r);
      expect(tx.outMsgs).toHaveLength(1);
      expect(() => transactionFromCell(t.endCell())).toThrow(/expected out_msgs keys 0..0, got key 1 at position 0/);
    });
  });
});
