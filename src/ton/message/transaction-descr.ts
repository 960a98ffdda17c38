// block.tlb:356-392
//   trans_ord$0000 credit_first:Bool
//     storage_ph:(Maybe TrStoragePhase)
//     credit_ph:(Maybe TrCreditPhase)
//     compute_ph:TrComputePhase action:(Maybe ^TrActionPhase)
//     aborted:Bool bounce:(Maybe TrBouncePhase)
//     destroyed:Bool
//     = TransactionDescr;
//   trans_storage$0001 storage_ph:TrStoragePhase
//     = TransactionDescr;
//   trans_tick_tock$001 is_tock:Bool storage_ph:TrStoragePhase
//     compute_ph:TrComputePhase action:(Maybe ^TrActionPhase)
//     aborted:Bool destroyed:Bool = TransactionDescr;
//   trans_split_prepare$0100 split_info:SplitMergeInfo
//     storage_ph:(Maybe TrStoragePhase)
//     compute_ph:TrComputePhase action:(Maybe ^TrActionPhase)
//     aborted:Bool destroyed:Bool
//     = TransactionDescr;
//   trans_split_install$0101 split_info:SplitMergeInfo
//     prepare_transaction:^Transaction
//     installed:Bool = TransactionDescr;
//   trans_merge_prepare$0110 split_info:SplitMergeInfo
//     storage_ph:TrStoragePhase aborted:Bool
//     = TransactionDescr;
//   trans_merge_install$0111 split_info:SplitMergeInfo
//     prepare_transaction:^Transaction
//     storage_ph:(Maybe TrStoragePhase)
//     credit_ph:(Maybe TrCreditPhase)
//     compute_ph:TrComputePhase action:(Maybe ^TrActionPhase)
//     aborted:Bool destroyed:Bool
//     = TransactionDescr;
import { type Builder, beginCell, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadSplitMergeInfo, type SplitMergeInfo, storeSplitMergeInfo } from './split-merge-info.ts';
import { loadTrActionPhase, storeTrActionPhase, type TrActionPhase } from './tr-action-phase.ts';
import { loadTrBouncePhase, storeTrBouncePhase, type TrBouncePhase } from './tr-bounce-phase.ts';
import { loadTrComputePhase, storeTrComputePhase, type TrComputePhase } from './tr-compute-phase.ts';
import { loadTrCreditPhase, storeTrCreditPhase, type TrCreditPhase } from './tr-credit-phase.ts';
import { loadTrStoragePhase, storeTrStoragePhase, type TrStoragePhase } from './tr-storage-phase.ts';
import { storeTransactionExact, type Transaction, transactionFromCell } from './transaction.ts';
import { decoding, loadRefCell, loadWhole } from './util.ts';

export interface TransOrd {
  kind: 'trans_ord';
  creditFirst: boolean;
  storagePh: TrStoragePhase | null;
  creditPh: TrCreditPhase | null;
  computePh: TrComputePhase;
  action: TrActionPhase | null;
  aborted: boolean;
  bounce: TrBouncePhase | null;
  destroyed: boolean;
}

export interface TransStorage {
  kind: 'trans_storage';
  storagePh: TrStoragePhase;
}

export interface TransTickTock {
  kind: 'trans_tick_tock';
  isTock: boolean;
  storagePh: TrStoragePhase;
  computePh: TrComputePhase;
  action: TrActionPhase | null;
  aborted: boolean;
  destroyed: boolean;
}

export interface TransSplitPrepare {
  kind: 'trans_split_prepare';
  splitInfo: SplitMergeInfo;
  storagePh: TrStoragePhase | null;
  computePh: TrComputePhase;
  action: TrActionPhase | null;
  aborted: boolean;
  destroyed: boolean;
}

export interface TransSplitInstall {
  kind: 'trans_split_install';
  splitInfo: SplitMergeInfo;
  prepareTransaction: Transaction;
  installed: boolean;
}

export interface TransMergePrepare {
  kind: 'trans_merge_prepare';
  splitInfo: SplitMergeInfo;
  storagePh: TrStoragePhase;
  aborted: boolean;
}

export interface TransMergeInstall {
  kind: 'trans_merge_install';
  splitInfo: SplitMergeInfo;
  prepareTransaction: Transaction;
  storagePh: TrStoragePhase | null;
  creditPh: TrCreditPhase | null;
  computePh: TrComputePhase;
  action: TrActionPhase | null;
  aborted: boolean;
  destroyed: boolean;
}

export type TransactionDescr =
  | TransOrd
  | TransStorage
  | TransTickTock
  | TransSplitPrepare
  | TransSplitInstall
  | TransMergePrepare
  | TransMergeInstall;

const T = 'TransactionDescr';

function loadMaybe<X>(s: Slice, load: (s: Slice) => X): X | null {
  return s.loadBit() ? load(s) : null;
}

function storeMaybe<X>(b: Builder, v: X | null, store: (v: X) => (b: Builder) => void): void {
  if (v === null) b.storeBit(false);
  else b.storeBit(true).store(store(v));
}

function loadAction(s: Slice): TrActionPhase | null {
  return s.loadBit() ? loadWhole('TrActionPhase', loadRefCell(s, T, 'action'), loadTrActionPhase) : null;
}

function storeAction(b: Builder, v: TrActionPhase | null): void {
  if (v === null) b.storeBit(false);
  else b.storeBit(true).storeRef(beginCell().store(storeTrActionPhase(v)));
}

function loadPrepare(s: Slice): Transaction {
  return transactionFromCell(loadRefCell(s, T, 'prepare_transaction'));
}

export function loadTransactionDescr(s: Slice): TransactionDescr {
  return decoding(T, () => {
    if (s.remainingBits < 4) throw new CodecError(`${T}: expected a 3- or 4-bit tag, got ${s.remainingBits} bits`);
    const t3 = s.loadUint(3);
    if (t3 === 1) {
      const isTock = s.loadBit();
      const storagePh = loadTrStoragePhase(s);
      const computePh = loadTrComputePhase(s);
      const action = loadAction(s);
      return {
        kind: 'trans_tick_tock',
        isTock,
        storagePh,
        computePh,
        action,
        aborted: s.loadBit(),
        destroyed: s.loadBit(),
      };
    }
    if (t3 > 3) throw new CodecError(`${T}: expected tag $0000..$0111, got $${t3.toString(2)}…`);
    const tag = (t3 << 1) | s.loadUint(1);
    switch (tag) {
      case 0: {
        const creditFirst = s.loadBit();
        const storagePh = loadMaybe(s, loadTrStoragePhase);
        const creditPh = loadMaybe(s, loadTrCreditPhase);
        const computePh = loadTrComputePhase(s);
        const action = loadAction(s);
        const aborted = s.loadBit();
        const bounce = loadMaybe(s, loadTrBouncePhase);
        const destroyed = s.loadBit();
        return { kind: 'trans_ord', creditFirst, storagePh, creditPh, computePh, action, aborted, bounce, destroyed };
      }
      case 1:
        return { kind: 'trans_storage', storagePh: loadTrStoragePhase(s) };
      case 4: {
        const splitInfo = loadSplitMergeInfo(s);
        const storagePh = loadMaybe(s, loadTrStoragePhase);
        const computePh = loadTrComputePhase(s);
        const action = loadAction(s);
        const aborted = s.loadBit();
        return {
          kind: 'trans_split_prepare',
          splitInfo,
          storagePh,
          computePh,
          action,
          aborted,
          destroyed: s.loadBit(),
        };
      }
      case 5: {
        const splitInfo = loadSplitMergeInfo(s);
        const prepareTransaction = loadPrepare(s);
        return { kind: 'trans_split_install', splitInfo, prepareTransaction, installed: s.loadBit() };
      }
      case 6: {
        const splitInfo = loadSplitMergeInfo(s);
        const storagePh = loadTrStoragePhase(s);
        return { kind: 'trans_merge_prepare', splitInfo, storagePh, aborted: s.loadBit() };
      }
      case 7: {
        const splitInfo = loadSplitMergeInfo(s);
        const prepareTransaction = loadPrepare(s);
        const storagePh = loadMaybe(s, loadTrStoragePhase);
        const creditPh = loadMaybe(s, loadTrCreditPhase);
        const computePh = loadTrComputePhase(s);
        const action = loadAction(s);
        const aborted = s.loadBit();
        return {
          kind: 'trans_merge_install',
          splitInfo,
          prepareTransaction,
          storagePh,
          creditPh,
          computePh,
          action,
          aborted,
          destroyed: s.loadBit(),
        };
      }
      default:
        // 2 and 3 are the tick-tock prefix $001 handled above.
        throw new CodecError(`${T}: unreachable tag ${tag}`);
    }
  });
}

export function storeTransactionDescr(v: TransactionDescr): (b: Builder) => void {
  return (b) => {
    switch (v.kind) {
      case 'trans_ord':
        b.storeUint(0, 4).storeBit(v.creditFirst);
        storeMaybe(b, v.storagePh, storeTrStoragePhase);
        storeMaybe(b, v.creditPh, storeTrCreditPhase);
        b.store(storeTrComputePhase(v.computePh));
        storeAction(b, v.action);
        b.storeBit(v.aborted);
        storeMaybe(b, v.bounce, storeTrBouncePhase);
        b.storeBit(v.destroyed);
        return;
      case 'trans_storage':
        b.storeUint(1, 4).store(storeTrStoragePhase(v.storagePh));
        return;
      case 'trans_tick_tock':
        b.storeUint(1, 3)
          .storeBit(v.isTock)
          .store(storeTrStoragePhase(v.storagePh))
          .store(storeTrComputePhase(v.computePh));
        storeAction(b, v.action);
        b.storeBit(v.aborted).storeBit(v.destroyed);
        return;
      case 'trans_split_prepare':
        b.storeUint(4, 4).store(storeSplitMergeInfo(v.splitInfo));
        storeMaybe(b, v.storagePh, storeTrStoragePhase);
        b.store(storeTrComputePhase(v.computePh));
        storeAction(b, v.action);
        b.storeBit(v.aborted).storeBit(v.destroyed);
        return;
      case 'trans_split_install':
        b.storeUint(5, 4).store(storeSplitMergeInfo(v.splitInfo));
        b.storeRef(beginCell().store(storeTransactionExact(v.prepareTransaction)));
        b.storeBit(v.installed);
        return;
      case 'trans_merge_prepare':
        b.storeUint(6, 4).store(storeSplitMergeInfo(v.splitInfo)).store(storeTrStoragePhase(v.storagePh));
        b.storeBit(v.aborted);
        return;
      case 'trans_merge_install':
        b.storeUint(7, 4).store(storeSplitMergeInfo(v.splitInfo));
        b.storeRef(beginCell().store(storeTransactionExact(v.prepareTransaction)));
        storeMaybe(b, v.storagePh, storeTrStoragePhase);
        storeMaybe(b, v.creditPh, storeTrCreditPhase);
        b.store(storeTrComputePhase(v.computePh));
        storeAction(b, v.action);
        b.storeBit(v.aborted).storeBit(v.destroyed);
        return;
    }
  };
}
