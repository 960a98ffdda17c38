// Multisig v2 (ton-blockchain/multisig-contract-v2) bodies and order actions, contracts.md §6.2, v3-api.md §3.7.
import { type Address, type Cell, Dictionary, loadMessageRelaxed, type MessageRelaxed, type Slice } from '@ton/core';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import { loadMsgAddressInt, readCell, refuse } from './body-reader.ts';
import { MULTISIG_OP } from './multisig.ts';

// send_message#f1381e5b mode:uint8 message:^MessageRelaxed = Action;
// update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
//     proposers:(HashmapE 8 MsgAddressInt) = Action;
export type MultisigAction =
  | { kind: 'send_message'; mode: number; message: MessageRelaxed }
  | { kind: 'update_multisig_param'; threshold: number; signers: Address[]; proposers: Address[] };

const addressValue = {
  serialize: () => refuse('read only'),
  parse: (s: Slice) => loadMsgAddressInt(s),
};

/** Hashmap 8 MsgAddressInt as a list in index order (signers, proposers). */
function addressList(d: Dictionary<number, Address>): Address[] {
  return [...d].sort((a, b) => a[0] - b[0]).map(([, a]) => a);
}

export function loadMultisigActionSlice(s: Slice): MultisigAction {
  const tag = s.loadUint(32);
  if (tag === MULTISIG_OP.sendMessage) {
    const mode = s.loadUint(8);
    return { kind: 'send_message', mode, message: loadMessageRelaxed(s.loadRef().beginParse()) };
  }
  if (tag === MULTISIG_OP.updateMultisigParam) {
    const threshold = s.loadUint(8);
    const signers = Dictionary.loadDirect(Dictionary.Keys.Uint(8), addressValue, s.loadRef());
    const proposers = Dictionary.load(Dictionary.Keys.Uint(8), addressValue, s);
    return {
      kind: 'update_multisig_param',
      threshold,
      signers: addressList(signers),
      proposers: addressList(proposers),
    };
  }
  return refuse(`multisig Action: unknown tag 0x${tag.toString(16)}`);
}

// _ (Hashmap 8 ^Action) = Order;  each value is a ref to the action cell (the code does preload_ref).
export interface MultisigOrderAction {
  index: number;
  action: MultisigAction;
}

const actionValue = {
  serialize: () => refuse('read only'),
  parse: (s: Slice) => loadMultisigActionSlice(s.loadRef().beginParse()),
};

function loadOrderCell(order: Cell): MultisigOrderAction[] {
  const d = Dictionary.loadDirect(Dictionary.Keys.Uint(8), actionValue, order);
  return [...d].sort((a, b) => a[0] - b[0]).map(([index, action]) => ({ index, action }));
}

/** An order cell's actions in execution (dictionary) order, or null when it does not parse. */
export function loadMultisigOrder(order: Cell): MultisigOrderAction[] | null {
  return readCell(order, () => loadOrderCell(order));
}

/** Order fields carry the raw cell (order_boc) and its actions, null when they do not parse. */
export interface MultisigOrderField {
  order: Cell;
  actions: MultisigOrderAction[] | null;
}

const orderField = (s: Slice): MultisigOrderField => {
  const order = s.loadRef();
  return { order, actions: loadMultisigOrder(order) };
};

// new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48 order:^Order
export interface MultisigNewOrder extends MultisigOrderField {
  queryId: bigint;
  orderSeqno: bigint;
  signer: boolean;
  index: number;
  expirationDate: number;
}

export function loadMultisigNewOrder(s: Slice): MultisigNewOrder {
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    signer: s.loadBit(),
    index: s.loadUint(8),
    expirationDate: s.loadUint(48),
    ...orderField(s),
  };
}

// execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8
//     signers_hash:bits256 order:^Order
export interface MultisigExecute extends MultisigOrderField {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
}

export function loadMultisigExecute(s: Slice): MultisigExecute {
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    expirationDate: s.loadUint(48),
    approvalsNum: s.loadUint(8),
    signersHash: s.loadBuffer(32),
    ...orderField(s),
  };
}

// execute_internal#a32c59bf query_id:uint64 order:^Order
export interface MultisigExecuteInternal extends MultisigOrderField {
  queryId: bigint;
}

export function loadMultisigExecuteInternal(s: Slice): MultisigExecuteInternal {
  return { queryId: s.loadUintBig(64), ...orderField(s) };
}

// init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48
//     order:^Order approve_on_init:(## 1) signer_index:approve_on_init?uint8
export interface MultisigOrderInit extends MultisigOrderField {
  queryId: bigint;
  threshold: number;
  signers: Address[];
  expirationDate: number;
  approveOnInit: boolean;
  signerIndex: number | null;
}

export function loadMultisigOrderInit(s: Slice): MultisigOrderInit {
  const queryId = s.loadUintBig(64);
  const threshold = s.loadUint(8);
  const signers = addressList(Dictionary.loadDirect(Dictionary.Keys.Uint(8), addressValue, s.loadRef()));
  const expirationDate = s.loadUint(48);
  const order = orderField(s);
  const approveOnInit = s.loadBit();
  return {
    queryId,
    threshold,
    signers,
    expirationDate,
    ...order,
    approveOnInit,
    signerIndex: approveOnInit ? s.loadUint(8) : null,
  };
}

// approve#a762230f query_id:uint64 signer_index:uint8
export interface MultisigApprove {
  queryId: bigint;
  signerIndex: number;
}

export function loadMultisigApprove(s: Slice): MultisigApprove {
  return { queryId: s.loadUintBig(64), signerIndex: s.loadUint(8) };
}

// approve_rejected#afaf283e query_id:uint64 exit_code:uint32
export interface MultisigApproveRejected {
  queryId: bigint;
  exitCode: number;
}

export function loadMultisigApproveRejected(s: Slice): MultisigApproveRejected {
  return { queryId: s.loadUintBig(64), exitCode: s.loadUint(32) };
}

export const MULTISIG_BODIES = [
  // ton-marker's name, misspelling included, so /decode answers as toncenter does.
  bodyParser('mulisig_new_order', MULTISIG_OP.newOrder, loadMultisigNewOrder),
  bodyParser('multisig_execute', MULTISIG_OP.execute, loadMultisigExecute),
  bodyParser('multisig_execute_internal', MULTISIG_OP.executeInternal, loadMultisigExecuteInternal),
  bodyParser('multisig_order_init', MULTISIG_OP.init, loadMultisigOrderInit),
  bodyParser('multisig_approve', MULTISIG_OP.approve, loadMultisigApprove),
  bodyParser('multisig_approve_accepted', MULTISIG_OP.approveAccepted, loadQueryOnly),
  bodyParser('multisig_approve_rejected', MULTISIG_OP.approveRejected, loadMultisigApproveRejected),
] as const;
