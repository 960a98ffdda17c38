// Typed wrappers of the devnet's multisig v2 (contracts/multisig, the public interface of multisig-contract-v2):
// message body writers with TL-B field names, the order dictionary and its actions, storage and StateInit
// builders, the order address derivation, and readers of the getters' stacks. Layouts: shared/specs/contracts.md §6.
import {
  type Address,
  type Builder,
  beginCell,
  Cell,
  contractAddress,
  Dictionary,
  loadMessageRelaxed,
  type MessageRelaxed,
  type Slice,
  type StateInit,
  storeMessageRelaxed,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { MULTISIG_OP } from '../../ton/index.ts';
import { MULTISIG_CODE_BOC } from './multisig.compiled.ts';
import { MULTISIG_ORDER_CODE_BOC } from './multisig-order.compiled.ts';

export { MULTISIG_CODE_HASH } from './multisig.compiled.ts';
export { MULTISIG_ORDER_CODE_HASH } from './multisig-order.compiled.ts';

export const MULTISIG_CODE: Cell = Cell.fromBase64(MULTISIG_CODE_BOC);
/** The order code, raw (not a library cell): deployed orders carry it and get_order_address derives from it. */
export const MULTISIG_ORDER_CODE: Cell = Cell.fromBase64(MULTISIG_ORDER_CODE_BOC);

/** Tags of the order's actions (the first 32 bits of each action cell). */
export const MULTISIG_ACTION = {
  sendMessage: 0xf1381e5b,
  updateParams: 0x1d0cfbd3,
} as const;

/** Exit codes of contracts/multisig (multisig-contract-v2's numbers). */
export const MULTISIG_ERROR = {
  notEnoughTon: 100,
  unauthorizedExecute: 101,
  signersOutdated: 102,
  invalidDictionarySequence: 103,
  unauthorizedInit: 104,
  alreadyInited: 105,
  unauthorizedSign: 106,
  alreadyApproved: 107,
  inconsistentData: 108,
  invalidThreshold: 109,
  invalidSigners: 110,
  expired: 111,
  alreadyExecuted: 112,
  unauthorizedNewOrder: 1007,
  invalidNewOrder: 1008,
  unknownOp: 0xffff,
} as const;

/** new_order with this order_seqno takes the multisig's next_order_seqno. */
export const MAX_ORDER_SEQNO = (1n << 256n) - 1n;

const memberKey = Dictionary.Keys.Uint(8);
const memberValue = Dictionary.Values.Address();

function membersDict(members: readonly Address[]): Dictionary<number, Address> {
  const dict = Dictionary.empty(memberKey, memberValue);
  for (const [i, a] of members.entries()) dict.set(i, a);
  return dict;
}

/** Signers as the contracts keep them: the root cell of a non-empty Hashmap 8 MsgAddressInt, indices 0..n-1. */
export function signersCell(signers: readonly Address[]): Cell {
  if (signers.length === 0) throw new Error('signersCell: expected at least one signer');
  return beginCell().storeDictDirect(membersDict(signers)).endCell();
}

/** The addresses of a Hashmap 8 MsgAddressInt root (null = empty), in index order. */
export function parseMembers(root: Cell | null): Address[] {
  if (!root) return [];
  const dict = Dictionary.loadDirect(memberKey, memberValue, root);
  return dict
    .keys()
    .sort((a, b) => a - b)
    .map((k) => dict.get(k)!);
}

function storeProposers(proposers: readonly Address[]) {
  return (b: Builder) => {
    b.storeDict(proposers.length > 0 ? membersDict(proposers) : null);
  };
}

/** One action of an order. */
export type MultisigAction =
  /** send_message#f1381e5b mode:uint8 message:^MessageRelaxed */
  | { type: 'send_message'; mode: number; message: MessageRelaxed }
  /** update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 ..) proposers:(HashmapE 8 ..) */
  | { type: 'update_params'; threshold: number; signers: Address[]; proposers: Address[] };

export function storeMultisigAction(a: MultisigAction) {
  return (b: Builder) => {
    if (a.type === 'send_message') {
      b.storeUint(MULTISIG_ACTION.sendMessage, 32)
        .storeUint(a.mode, 8)
        .storeRef(beginCell().store(storeMessageRelaxed(a.message)).endCell());
    } else {
      b.storeUint(MULTISIG_ACTION.updateParams, 32)
        .storeUint(a.threshold, 8)
        .storeRef(signersCell(a.signers))
        .store(storeProposers(a.proposers));
    }
  };
}

/** An action cell; throws on a tag other than the two above. */
export function loadMultisigAction(s: Slice): MultisigAction {
  const tag = s.loadUint(32);
  if (tag === MULTISIG_ACTION.sendMessage) {
    const mode = s.loadUint(8);
    return { type: 'send_message', mode, message: loadMessageRelaxed(s.loadRef().beginParse()) };
  }
  if (tag === MULTISIG_ACTION.updateParams) {
    const threshold = s.loadUint(8);
    const signers = parseMembers(s.loadRef());
    return { type: 'update_params', threshold, signers, proposers: parseMembers(s.loadMaybeRef()) };
  }
  throw new Error(`loadMultisigAction: unknown action tag 0x${tag.toString(16)}`);
}

const actionValue = Dictionary.Values.Cell();

/** The order: a non-empty Hashmap 8 ^Action (its root cell), actions keyed 0..n-1 and executed in that order. */
export function orderCell(actions: readonly MultisigAction[]): Cell {
  if (actions.length === 0 || actions.length > 255) {
    throw new Error(`orderCell: expected 1..255 actions, got ${actions.length}`);
  }
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), actionValue);
  for (const [i, a] of actions.entries()) dict.set(i, beginCell().store(storeMultisigAction(a)).endCell());
  return beginCell().storeDictDirect(dict).endCell();
}

/** The actions of an order cell, in execution order. */
export function parseOrder(order: Cell): MultisigAction[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), actionValue, order);
  return dict
    .keys()
    .sort((a, b) => a - b)
    .map((k) => loadMultisigAction(dict.get(k)!.beginParse()));
}

/** new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48 order:^Order */
export interface MultisigNewOrder {
  queryId: bigint;
  /** MAX_ORDER_SEQNO: the multisig's next_order_seqno. */
  orderSeqno: bigint;
  /** Whether `index` is a signer index (else a proposer index). */
  isSigner: boolean;
  index: number;
  expirationDate: number;
  order: Cell;
}

export function storeMultisigNewOrder(v: MultisigNewOrder) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.newOrder, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.orderSeqno, 256)
      .storeBit(v.isSigner)
      .storeUint(v.index, 8)
      .storeUint(v.expirationDate, 48)
      .storeRef(v.order);
  };
}

/** execute#75097f5d query_id order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order */
export interface MultisigExecute {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: Cell;
}

export function storeMultisigExecute(v: MultisigExecute) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.execute, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.orderSeqno, 256)
      .storeUint(v.expirationDate, 48)
      .storeUint(v.approvalsNum, 8)
      .storeBuffer(v.signersHash, 32)
      .storeRef(v.order);
  };
}

/** execute_internal#a32c59bf query_id:uint64 order:^Order */
export function storeMultisigExecuteInternal(v: { queryId: bigint; order: Cell }) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.executeInternal, 32).storeUint(v.queryId, 64).storeRef(v.order);
  };
}

/**
 * init#9c73fba2 query_id threshold:uint8 signers:^(Hashmap 8 ..) expiration_date:uint48 order:^Order
 * approve_on_init:(## 1) signer_index:approve_on_init?uint8
 */
export interface MultisigOrderInit {
  queryId: bigint;
  threshold: number;
  signers: Address[];
  expirationDate: number;
  order: Cell;
  /** The proposing signer's index when its proposal counts as its approval, else null. */
  approveOnInit: number | null;
}

export function storeMultisigOrderInit(v: MultisigOrderInit) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.init, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.threshold, 8)
      .storeRef(signersCell(v.signers))
      .storeUint(v.expirationDate, 48)
      .storeRef(v.order)
      .storeBit(v.approveOnInit !== null);
    if (v.approveOnInit !== null) b.storeUint(v.approveOnInit, 8);
  };
}

/** approve#a762230f query_id:uint64 signer_index:uint8 */
export function storeMultisigApprove(v: { queryId: bigint; signerIndex: number }) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.approve, 32).storeUint(v.queryId, 64).storeUint(v.signerIndex, 8);
  };
}

/** approve_accepted#82609bf6 query_id:uint64 */
export function storeMultisigApproveAccepted(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.approveAccepted, 32).storeUint(v.queryId, 64);
  };
}

/** approve_rejected#afaf283e query_id:uint64 exit_code:uint32 */
export function storeMultisigApproveRejected(v: { queryId: bigint; exitCode: number }) {
  return (b: Builder) => {
    b.storeUint(MULTISIG_OP.approveRejected, 32).storeUint(v.queryId, 64).storeUint(v.exitCode, 32);
  };
}

/**
 * Multisig storage: next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 ..) signers_num:uint8
 * proposers:(HashmapE 8 ..) allow_arbitrary_order_seqno:Bool
 */
export interface MultisigData {
  nextOrderSeqno: bigint;
  threshold: number;
  signers: Address[];
  proposers: Address[];
  allowArbitraryOrderSeqno: boolean;
}

export function storeMultisigData(v: MultisigData) {
  return (b: Builder) => {
    b.storeUint(v.nextOrderSeqno, 256)
      .storeUint(v.threshold, 8)
      .storeRef(signersCell(v.signers))
      .storeUint(v.signers.length, 8)
      .store(storeProposers(v.proposers))
      .storeBit(v.allowArbitraryOrderSeqno);
  };
}

/** A multisig's StateInit; next_order_seqno defaults to 0 and arbitrary seqnos to off. */
export function multisigStateInit(
  v: Omit<MultisigData, 'nextOrderSeqno' | 'allowArbitraryOrderSeqno' | 'proposers'> & Partial<MultisigData>,
): StateInit {
  const data = beginCell()
    .store(
      storeMultisigData({
        nextOrderSeqno: v.nextOrderSeqno ?? 0n,
        threshold: v.threshold,
        signers: v.signers,
        proposers: v.proposers ?? [],
        allowArbitraryOrderSeqno: v.allowArbitraryOrderSeqno ?? false,
      }),
    )
    .endCell();
  return { code: MULTISIG_CODE, data };
}

/** An order's StateInit: the raw order code and multisig_address ‖ order_seqno:uint256. */
export function multisigOrderStateInit(multisig: Address, orderSeqno: bigint): StateInit {
  return {
    code: MULTISIG_ORDER_CODE,
    data: beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell(),
  };
}

/** The order address as the multisig's get_order_address derives it (basechain). */
export function multisigOrderAddress(multisig: Address, orderSeqno: bigint): Address {
  return contractAddress(0, multisigOrderStateInit(multisig, orderSeqno));
}

/** get_multisig_data() */
export interface MultisigDataResult {
  /** -1 when the multisig allows arbitrary order seqnos. */
  nextOrderSeqno: bigint;
  threshold: number;
  signers: Address[];
  proposers: Address[];
}

export function readMultisigData(stack: TupleItem[]): MultisigDataResult {
  const r = new TupleReader(stack);
  return {
    nextOrderSeqno: r.readBigNumber(),
    threshold: r.readNumber(),
    signers: parseMembers(r.readCell()),
    proposers: parseMembers(r.readCellOpt()),
  };
}

/** get_order_data(); `init: false` (every field after order_seqno null) until the multisig's init arrives. */
export type MultisigOrderDataResult =
  | { init: false; multisig: Address; orderSeqno: bigint }
  | {
      init: true;
      multisig: Address;
      orderSeqno: bigint;
      threshold: number;
      sentForExecution: boolean;
      signers: Address[];
      approvalsMask: bigint;
      approvalsNum: number;
      expirationDate: number;
      order: Cell;
    };

export function readMultisigOrderData(stack: TupleItem[]): MultisigOrderDataResult {
  const r = new TupleReader(stack);
  const multisig = r.readAddress();
  const orderSeqno = r.readBigNumber();
  const threshold = r.readBigNumberOpt();
  if (threshold === null) return { init: false, multisig, orderSeqno };
  return {
    init: true,
    multisig,
    orderSeqno,
    threshold: Number(threshold),
    sentForExecution: r.readBoolean(),
    signers: parseMembers(r.readCell()),
    approvalsMask: r.readBigNumber(),
    approvalsNum: r.readNumber(),
    expirationDate: r.readNumber(),
    order: r.readCell(),
  };
}

export function getOrderAddressArgs(orderSeqno: bigint): TupleItem[] {
  return [{ type: 'int', value: orderSeqno }];
}

/** get_order_address(order_seqno) -> slice */
export function readOrderAddress(stack: TupleItem[]): Address {
  return new TupleReader(stack).readAddress();
}

export function getOrderEstimateArgs(order: Cell, expirationDate: number): TupleItem[] {
  return [
    { type: 'cell', cell: order },
    { type: 'int', value: BigInt(expirationDate) },
  ];
}

/** get_order_estimate(order, expiration_date) -> int nanotons a new_order must carry */
export function readOrderEstimate(stack: TupleItem[]): bigint {
  return new TupleReader(stack).readBigNumber();
}
