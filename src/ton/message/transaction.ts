// block.tlb:294-300
//   transaction$0111 account_addr:bits256 lt:uint64
//     prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
//     outmsg_cnt:uint15
//     orig_status:AccountStatus end_status:AccountStatus
//     ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
//     total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account)
//     description:^TransactionDescr = Transaction;
//
// Exact: every message goes through the layout-preserving message codec, and out_msgs is rebuilt with
// @ton/core's Dictionary, which writes the node's canonical labels, so
// storeTransactionExact(loadTransactionExact(c)) rebuilds c bit for bit (tested on every real
// transaction in shared/vectors).
//
// One module for both: TransactionDescr's split and merge install variants hold their prepare transaction
// (prepare_transaction:^Transaction), so the two codecs call each other.
//
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
import {
  type Builder,
  beginCell,
  type Cell,
  type CurrencyCollection,
  Dictionary,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadHashmapRefs } from '../dict/hashmap-refs.ts';
import { type AccountStatus, loadAccountStatus, storeAccountStatus } from './account-status.ts';
import { type HashUpdate, loadHashUpdate, storeHashUpdate } from './hash-update.ts';
import { type Message, messageFromCell, storeMessageExact } from './message.ts';
import { loadSplitMergeInfo, type SplitMergeInfo, storeSplitMergeInfo } from './split-merge-info.ts';
import { loadTrActionPhase, storeTrActionPhase, type TrActionPhase } from './tr-action-phase.ts';
import { loadTrBouncePhase, storeTrBouncePhase, type TrBouncePhase } from './tr-bounce-phase.ts';
import { loadTrComputePhase, storeTrComputePhase, type TrComputePhase } from './tr-compute-phase.ts';
import { loadTrCreditPhase, storeTrCreditPhase, type TrCreditPhase } from './tr-credit-phase.ts';
import { loadTrStoragePhase, storeTrStoragePhase, type TrStoragePhase } from './tr-storage-phase.ts';
import { decoding, loadBits256, loadRefCell, loadWhole, storeBits256 } from './util.ts';

export interface Transaction {
  accountAddr: Buffer;
  lt: bigint;
  prevTransHash: Buffer;
  prevTransLt: bigint;
  now: number;
  outmsgCnt: number;
  origStatus: AccountStatus;
  endStatus: AccountStatus;
  inMsg: Message | null;
  /** out_msgs in key order; the node keys them 0..n-1, and the loader insists on that. */
  outMsgs: Message[];
  totalFees: CurrencyCollection;
  stateUpdate: HashUpdate;
  description: TransactionDescr;
  /** The cell this transaction was decoded from; its hash is the transaction hash. Storers ignore it. */
  raw?: Cell;
}

const T = 'Transaction';
const OUT_KEYS = Dictionary.Keys.Uint(15);
const MSG_REF = Dictionary.Values.Cell();

function loadMessages(s: Slice): { inMsg: Message | null; outMsgs: Message[] } {
  const inMsg = s.loadBit() ? messageFromCell(loadRefCell(s, T, 'in_msg')) : null;
  const entries = loadHashmapRefs(s.loadMaybeRef(), 15, `${T}: out_msgs`);
  const outMsgs = entries.map(({ key: k, value: c }, i) => {
    if (k !== i)
      throw new CodecError(`${T}: expected out_msgs keys 0..${entries.length - 1}, got key ${k} at position ${i}`);
    if (c.isExotic) throw new CodecError(`${T}: out_msgs[${k}] is an exotic cell (type ${c.type}, pruned?)`);
    return messageFromCell(c);
  });
  return { inMsg, outMsgs };
}

function loadBody(s: Slice, raw: Cell | undefined): Transaction {
  if (s.remainingBits < 4) throw new CodecError(`${T}: expected tag $0111, got only ${s.remainingBits} bits`);
  const tag = s.loadUint(4);
  if (tag !== 0b0111) throw new CodecError(`${T}: expected tag $0111, got $${tag.toString(2).padStart(4, '0')}`);
  const accountAddr = loadBits256(s, T, 'account_addr');
  const lt = s.loadUintBig(64);
  const prevTransHash = loadBits256(s, T, 'prev_trans_hash');
  const prevTransLt = s.loadUintBig(64);
  const now = s.loadUint(32);
  const outmsgCnt = s.loadUint(15);
  const origStatus = loadAccountStatus(s);
  const endStatus = loadAccountStatus(s);
  const { inMsg, outMsgs } = loadWhole(T, loadRefCell(s, T, '^[ in_msg out_msgs ]'), loadMessages);
  const totalFees = decoding('CurrencyCollection', () => loadCurrencyCollection(s));
  const stateUpdate = loadWhole('HASH_UPDATE', loadRefCell(s, T, 'state_update'), loadHashUpdate);
  const description = loadWhole('TransactionDescr', loadRefCell(s, T, 'description'), loadTransactionDescr);
  const tx: Transaction = {
    accountAddr,
    lt,
    prevTransHash,
    prevTransLt,
    now,
    outmsgCnt,
    origStatus,
    endStatus,
    inMsg,
    outMsgs,
    totalFees,
    stateUpdate,
    description,
  };
  if (raw) tx.raw = raw;
  return tx;
}

/** Transaction, read from the start of its cell; `raw` is that cell. */
export function loadTransactionExact(s: Slice): Transaction {
  return decoding(T, () => loadBody(s, s.asCell()));
}

/** `^Transaction`: decodes a whole transaction cell, keeping it as `raw`. */
export function transactionFromCell(cell: Cell): Transaction {
  return loadWhole(T, cell, (s) => loadBody(s, cell));
}

function messageCell(m: Message): Cell {
  return beginCell().store(storeMessageExact(m)).endCell();
}

export function storeTransactionExact(v: Transaction): (b: Builder) => void {
  return (b) => {
    b.storeUint(0b0111, 4);
    storeBits256(b, v.accountAddr, T, 'account_addr');
    b.storeUint(v.lt, 64);
    storeBits256(b, v.prevTransHash, T, 'prev_trans_hash');
    b.storeUint(v.prevTransLt, 64).storeUint(v.now, 32).storeUint(v.outmsgCnt, 15);
    b.store(storeAccountStatus(v.origStatus)).store(storeAccountStatus(v.endStatus));
    const msgs = beginCell().storeMaybeRef(v.inMsg ? messageCell(v.inMsg) : null);
    const dict = Dictionary.empty(OUT_KEYS, MSG_REF);
    v.outMsgs.forEach((m, i) => {
      dict.set(i, messageCell(m));
    });
    msgs.storeDict(dict);
    b.storeRef(msgs);
    b.store(storeCurrencyCollection(v.totalFees));
    b.storeRef(beginCell().store(storeHashUpdate(v.stateUpdate)));
    b.storeRef(beginCell().store(storeTransactionDescr(v.description)));
  };
}

export function transactionToCell(v: Transaction): Cell {
  return beginCell().store(storeTransactionExact(v)).endCell();
}

/** The transaction hash: the cell it arrived in, or the cell it encodes to. */
export function transactionHash(v: Transaction): Buffer {
  return (v.raw ?? transactionToCell(v)).hash();
}

// --- TransactionDescr ---------------------------------------------------------------------------------------

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

const TD = 'TransactionDescr';

function loadMaybe<X>(s: Slice, load: (s: Slice) => X): X | null {
  return s.loadBit() ? load(s) : null;
}

function storeMaybe<X>(b: Builder, v: X | null, store: (v: X) => (b: Builder) => void): void {
  if (v === null) b.storeBit(false);
  else b.storeBit(true).store(store(v));
}

function loadAction(s: Slice): TrActionPhase | null {
  return s.loadBit() ? loadWhole('TrActionPhase', loadRefCell(s, TD, 'action'), loadTrActionPhase) : null;
}

function storeAction(b: Builder, v: TrActionPhase | null): void {
  if (v === null) b.storeBit(false);
  else b.storeBit(true).storeRef(beginCell().store(storeTrActionPhase(v)));
}

function loadPrepare(s: Slice): Transaction {
  return transactionFromCell(loadRefCell(s, TD, 'prepare_transaction'));
}

export function loadTransactionDescr(s: Slice): TransactionDescr {
  return decoding(TD, () => {
    if (s.remainingBits < 4) throw new CodecError(`${TD}: expected a 3- or 4-bit tag, got ${s.remainingBits} bits`);
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
    if (t3 > 3) throw new CodecError(`${TD}: expected tag $0000..$0111, got $${t3.toString(2)}…`);
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
        throw new CodecError(`${TD}: unreachable tag ${tag}`);
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
