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
import { type AccountStatus, loadAccountStatus, storeAccountStatus } from './account-status.ts';
import { type HashUpdate, loadHashUpdate, storeHashUpdate } from './hash-update.ts';
import { type Message, messageFromCell, storeMessageExact } from './message.ts';
import { loadTransactionDescr, storeTransactionDescr, type TransactionDescr } from './transaction-descr.ts';
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
  const dict = Dictionary.loadDirect(OUT_KEYS, MSG_REF, s.loadMaybeRef());
  const keys = dict.keys().sort((a, b) => a - b);
  const outMsgs = keys.map((k, i) => {
    if (k !== i)
      throw new CodecError(`${T}: expected out_msgs keys 0..${keys.length - 1}, got key ${k} at position ${i}`);
    const c = dict.get(k)!;
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
