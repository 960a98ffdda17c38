// Everything toncenter v3 (`Transaction`, the `transactions` table, v3-api.md §4.2/§5.2) and v2
// (tonlib's `raw.transaction`, v2-api.md) report about a transaction that the transaction cell holds.
// Keys are the camelCase of toncenter's names; block_ref, mc_block_seqno, trace ids and account states
// come from elsewhere (block, index), not from this cell.
import { Address } from '@ton/core';
import type { AccountStatus } from './account-status.ts';
import { extraCurrencyMap, type MessageView, type MessageViewOptions, messageView } from './message-view.ts';
import type { StorageUsed } from './storage-used.ts';
import type { TrActionPhase } from './tr-action-phase.ts';
import type { TrComputePhase, TrComputePhaseVm } from './tr-compute-phase.ts';
import type { AccStatusChange } from './tr-storage-phase.ts';
import { type Transaction, type TransactionDescr, transactionHash } from './transaction.ts';

/** v3 `account_status_type`. */
export type AccountStatusName = 'uninit' | 'frozen' | 'active' | 'nonexist';
/** v3 `descr_type`. */
export type DescrTypeName =
  | 'ord'
  | 'storage'
  | 'tick_tock'
  | 'split_prepare'
  | 'split_install'
  | 'merge_prepare'
  | 'merge_install';
export type StatusChangeName = 'unchanged' | 'frozen' | 'deleted';
export type SkipReasonName = 'no_state' | 'bad_state' | 'no_gas' | 'suspended';

export interface StoragePhaseView {
  storageFeesCollected: bigint;
  storageFeesDue: bigint | null;
  statusChange: StatusChangeName;
}

export interface CreditPhaseView {
  dueFeesCollected: bigint | null;
  credit: bigint;
  creditExtraCurrencies: Map<number, bigint>;
}

/** v3 compute_ph: `skipped` + `reason`, or the VM fields. */
export type ComputePhaseView =
  | { skipped: true; reason: SkipReasonName }
  | ({ skipped: false } & Omit<TrComputePhaseVm, 'kind'>);

/** v3 action: the codec's fields, with the status change named as toncenter names it. */
export type ActionPhaseView = Omit<TrActionPhase, 'statusChange'> & { statusChange: StatusChangeName };

export type BouncePhaseView =
  | { type: 'negfunds' }
  | { type: 'nofunds'; msgSize: StorageUsed; reqFwdFees: bigint }
  | { type: 'ok'; msgSize: StorageUsed; msgFees: bigint; fwdFees: bigint };

export interface SplitInfoView {
  curShardPfxLen: number;
  accSplitDepth: number;
  thisAddr: Buffer;
  siblingAddr: Buffer;
}

/** v3 `description`: the fields a constructor lacks are absent (toncenter omits nulls). */
export interface DescriptionView {
  type: DescrTypeName;
  aborted?: boolean;
  destroyed?: boolean;
  creditFirst?: boolean;
  isTock?: boolean;
  installed?: boolean;
  storagePh?: StoragePhaseView;
  creditPh?: CreditPhaseView;
  computePh?: ComputePhaseView;
  action?: ActionPhaseView;
  bounce?: BouncePhaseView;
  splitInfo?: SplitInfoView;
}

export interface TransactionView {
  account: Address;
  hash: Buffer;
  lt: bigint;
  now: number;
  origStatus: AccountStatusName;
  endStatus: AccountStatusName;
  totalFees: bigint;
  totalFeesExtraCurrencies: Map<number, bigint>;
  prevTransHash: Buffer;
  prevTransLt: bigint;
  /** HASH_UPDATE old/new: hashes of the Account cell before and after (v3 account_state_hash_*). */
  accountStateHashBefore: Buffer;
  accountStateHashAfter: Buffer;
  outmsgCnt: number;
  description: DescriptionView;
  inMsg: MessageView | null;
  /** In out_msgs key order, which is creation (created_lt) order. */
  outMsgs: MessageView[];
  /**
   * tonlib (v2 `fee`): total_fees plus fwd_fee + ihr_fee of the first 100 out messages; `storageFee` is
   * the storage phase's collected fees (0 without one), `otherFee` = fee - storageFee.
   */
  fee: bigint;
  storageFee: bigint;
  otherFee: bigint;
  /** tonapi / tongo `success` (Transaction.IsSuccess): see transactionSucceeded. */
  success: boolean;
}

const STATUS: Record<AccountStatus, AccountStatusName> = {
  acc_state_uninit: 'uninit',
  acc_state_frozen: 'frozen',
  acc_state_active: 'active',
  acc_state_nonexist: 'nonexist',
};

const CHANGE: Record<AccStatusChange, StatusChangeName> = {
  acst_unchanged: 'unchanged',
  acst_frozen: 'frozen',
  acst_deleted: 'deleted',
};

const DESCR: Record<TransactionDescr['kind'], DescrTypeName> = {
  trans_ord: 'ord',
  trans_storage: 'storage',
  trans_tick_tock: 'tick_tock',
  trans_split_prepare: 'split_prepare',
  trans_split_install: 'split_install',
  trans_merge_prepare: 'merge_prepare',
  trans_merge_install: 'merge_install',
};

function computeView(c: TrComputePhase): ComputePhaseView {
  if (c.kind === 'tr_phase_compute_skipped') {
    return { skipped: true, reason: c.reason.slice('cskip_'.length) as SkipReasonName };
  }
  const { kind: _kind, ...vm } = c;
  return { skipped: false, ...vm };
}

function descriptionView(d: TransactionDescr): DescriptionView {
  const v: DescriptionView = { type: DESCR[d.kind] };
  if ('aborted' in d) v.aborted = d.aborted;
  if ('destroyed' in d) v.destroyed = d.destroyed;
  if (d.kind === 'trans_ord') v.creditFirst = d.creditFirst;
  if (d.kind === 'trans_tick_tock') v.isTock = d.isTock;
  if (d.kind === 'trans_split_install') v.installed = d.installed;
  if ('storagePh' in d && d.storagePh) {
    const s = d.storagePh;
    v.storagePh = {
      storageFeesCollected: s.storageFeesCollected,
      storageFeesDue: s.storageFeesDue,
      statusChange: CHANGE[s.statusChange],
    };
  }
  if ('creditPh' in d && d.creditPh) {
    const c = d.creditPh;
    v.creditPh = {
      dueFeesCollected: c.dueFeesCollected,
      credit: c.credit.coins,
      creditExtraCurrencies: extraCurrencyMap(c.credit.other),
    };
  }
  if ('computePh' in d) v.computePh = computeView(d.computePh);
  if ('action' in d && d.action) v.action = { ...d.action, statusChange: CHANGE[d.action.statusChange] };
  if (d.kind === 'trans_ord' && d.bounce) {
    const b = d.bounce;
    if (b.kind === 'tr_phase_bounce_negfunds') v.bounce = { type: 'negfunds' };
    else if (b.kind === 'tr_phase_bounce_nofunds')
      v.bounce = { type: 'nofunds', msgSize: b.msgSize, reqFwdFees: b.reqFwdFees };
    else v.bounce = { type: 'ok', msgSize: b.msgSize, msgFees: b.msgFees, fwdFees: b.fwdFees };
  }
  if ('splitInfo' in d) v.splitInfo = { ...d.splitInfo };
  return v;
}

/**
 * tonapi's `success` (tongo Transaction.IsSuccess): an ordinary transaction fails if it has a bounce
 * phase; ordinary and tick-tock ones fail if compute was skipped for any reason but no_state, if the VM
 * did not succeed or exited with a code other than 0 or 1, or if the action phase failed; the other
 * constructors count as successful.
 */
export function transactionSucceeded(d: TransactionDescr): boolean {
  if (d.kind !== 'trans_ord' && d.kind !== 'trans_tick_tock') return true;
  if (d.kind === 'trans_ord' && d.bounce) return false;
  const c = d.computePh;
  if (c.kind === 'tr_phase_compute_skipped' && c.reason !== 'cskip_no_state') return false;
  if (c.kind === 'tr_phase_compute_vm' && (!c.success || (c.exitCode !== 0 && c.exitCode !== 1))) return false;
  return !(d.action && !d.action.success);
}

/** Storage fees collected by the description's storage phase, 0 without one (tonlib get_storage_fees). */
function storageFees(d: TransactionDescr): bigint {
  return 'storagePh' in d && d.storagePh ? d.storagePh.storageFeesCollected : 0n;
}

export interface TransactionViewOptions extends MessageViewOptions {
  /** Workchain of the account: the transaction itself holds only the 256-bit account id. */
  workchain: number;
}

export function transactionView(tx: Transaction, opts: TransactionViewOptions): TransactionView {
  const inMsg = tx.inMsg ? messageView(tx.inMsg, opts) : null;
  const outMsgs = tx.outMsgs.map((m) => messageView(m, opts));
  let fee = tx.totalFees.coins;
  for (const m of outMsgs.slice(0, 100)) fee += (m.fwdFee ?? 0n) + (m.ihrFee ?? 0n);
  const storageFee = storageFees(tx.description);
  return {
    account: new Address(opts.workchain, tx.accountAddr),
    hash: transactionHash(tx),
    lt: tx.lt,
    now: tx.now,
    origStatus: STATUS[tx.origStatus],
    endStatus: STATUS[tx.endStatus],
    totalFees: tx.totalFees.coins,
    totalFeesExtraCurrencies: extraCurrencyMap(tx.totalFees.other),
    prevTransHash: tx.prevTransHash,
    prevTransLt: tx.prevTransLt,
    accountStateHashBefore: tx.stateUpdate.oldHash,
    accountStateHashAfter: tx.stateUpdate.newHash,
    outmsgCnt: tx.outmsgCnt,
    description: descriptionView(tx.description),
    inMsg,
    outMsgs,
    fee,
    storageFee,
    otherFee: fee - storageFee,
    success: transactionSucceeded(tx.description),
  };
}
