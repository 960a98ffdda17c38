// Typed wrappers of the standard vesting wallet (ton-blockchain/vesting-contract, the code tonweb ships): storage and
// StateInit, the owner's two ways to send (an internal send#a7733acd from owner_address, or a wallet-v3-style signed
// external), the sender's add_whitelist, and readers of the getters' stacks. Layouts: contracts.md §7.

import {
  Address,
  type Builder,
  beginCell,
  type Cell,
  contractAddress,
  Dictionary,
  type MessageRelaxed,
  type StateInit,
  storeMessageRelaxed,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { sign } from '@ton/crypto';
import { VESTING_OP } from '../../ton/index.ts';
import { standardCodes } from './standard-codes.ts';

export const VESTING_ERROR = {
  invalidSeqno: 33,
  invalidSubwalletId: 34,
  invalidSignature: 35,
  expired: 36,
  sendModeNotAllowed: 100,
  nonBounceableNotAllowed: 101,
  stateInitNotAllowed: 102,
  commentNotAllowed: 103,
  symbolsNotAllowed: 104,
} as const;

/** tonweb's default subwallet id for vesting wallets (0x10C + workchain), distinct from ordinary wallets' ids. */
export const VESTING_DEFAULT_SUBWALLET_ID = 0x10c;

/** While anything is locked, the only send mode the contract allows (pay fees separately + ignore errors). */
export const VESTING_LOCKED_SEND_MODE = 3;

/**
 * params:^[vesting_start_time:uint64 vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32
 * vesting_total_amount:Coins vesting_sender_address:MsgAddress owner_address:MsgAddress]. Never changed after
 * deployment; the contract does not check the intended constraints (0 < unlock_period ≤ total_duration, cliff <
 * total_duration, both multiples of unlock_period).
 */
export interface VestingParams {
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  /** May add to the whitelist, and receives any message (locked coins can be returned). */
  senderAddress: Address;
  /** May send through the vesting with internal messages. */
  ownerAddress: Address;
}

export function storeVestingParams(v: VestingParams) {
  return (b: Builder) => {
    b.storeUint(v.startTime, 64)
      .storeUint(v.totalDuration, 32)
      .storeUint(v.unlockPeriod, 32)
      .storeUint(v.cliffDuration, 32)
      .storeCoins(v.totalAmount)
      .storeAddress(v.senderAddress)
      .storeAddress(v.ownerAddress);
  };
}

/** A whitelist key: wc:int8 ‖ hash:uint256 (264 bits). */
export function vestingWhitelistKey(address: Address): Buffer {
  const wc = Buffer.alloc(1);
  wc.writeInt8(address.workChain);
  return Buffer.concat([wc, address.hash]);
}

function whitelistDict(addresses: readonly Address[]) {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(33), Dictionary.Values.BigInt(1));
  for (const a of addresses) dict.set(vestingWhitelistKey(a), -1n);
  return dict;
}

/** The whitelist dictionary (HashmapE 264 int1, the root as get_vesting_data returns it) as addresses. */
export function parseVestingWhitelist(root: Cell | null): Address[] {
  if (!root) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(33), Dictionary.Values.BigInt(1), root);
  return dict.keys().map((k) => new Address(k.readInt8(0), k.subarray(1)));
}

/** seqno:uint32 subwallet_id:uint32 public_key:uint256 whitelist:(HashmapE 264 int1) params:^VestingParams */
export interface VestingData {
  seqno: number;
  subwalletId: number;
  publicKey: Buffer;
  whitelist: readonly Address[];
  params: VestingParams;
}

export function storeVestingData(v: VestingData) {
  return (b: Builder) => {
    b.storeUint(v.seqno, 32)
      .storeUint(v.subwalletId, 32)
      .storeBuffer(v.publicKey, 32)
      .storeDict(whitelistDict(v.whitelist))
      .storeRef(beginCell().store(storeVestingParams(v.params)));
  };
}

/**
 * The StateInit of a new vesting wallet (seqno 0). tonweb and vesting.ton.org deploy with an empty whitelist and add
 * addresses with add_whitelist afterwards; a non-empty `whitelist` here gives another address.
 */
export function vestingStateInit(v: {
  publicKey: Buffer;
  params: VestingParams;
  subwalletId?: number;
  whitelist?: readonly Address[];
}): StateInit {
  const data = beginCell()
    .store(
      storeVestingData({
        seqno: 0,
        subwalletId: v.subwalletId ?? VESTING_DEFAULT_SUBWALLET_ID,
        publicKey: v.publicKey,
        whitelist: v.whitelist ?? [],
        params: v.params,
      }),
    )
    .endCell();
  return { code: standardCodes().vesting, data };
}

export function vestingAddress(init: StateInit, workchain = 0): Address {
  return contractAddress(workchain, init);
}

/** One outgoing message and its send mode (mode 3 while anything is locked). */
export interface VestingOutMessage {
  sendMode: number;
  message: MessageRelaxed;
}

/** send#a7733acd query_id:uint64 send_mode:uint8 msg:^MessageRelaxed, accepted only from owner_address. */
export function storeVestingSend(v: { queryId: bigint } & VestingOutMessage) {
  return (b: Builder) => {
    b.storeUint(VESTING_OP.send, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.sendMode, 8)
      .storeRef(beginCell().store(storeMessageRelaxed(v.message)));
  };
}

/** add_whitelist#7258a69b query_id:uint64 addr:MsgAddress [^(addr [^...])], accepted only from the sender address. */
export function storeVestingAddWhitelist(v: { queryId: bigint; addresses: readonly Address[] }) {
  return (b: Builder) => {
    const [first, ...rest] = v.addresses;
    if (!first) throw new RangeError('storeVestingAddWhitelist: expected at least one address');
    let tail: Cell | null = null;
    for (const a of rest.reverse()) {
      const c = beginCell().storeAddress(a);
      if (tail) c.storeRef(tail);
      tail = c.endCell();
    }
    b.storeUint(VESTING_OP.addWhitelist, 32).storeUint(v.queryId, 64).storeAddress(first);
    if (tail) b.storeRef(tail);
  };
}

/** The replies (mode 64, bounceable, to the requester): send_response#f7733acd / add_whitelist_response#f258a69b. */
export function storeVestingResponse(op: 'send' | 'addWhitelist', queryId: bigint) {
  return (b: Builder) => {
    b.storeUint(op === 'send' ? VESTING_OP.sendResponse : VESTING_OP.addWhitelistResponse, 32).storeUint(queryId, 64);
  };
}

/**
 * The owner's external: signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 [send_mode:uint8
 * ^MessageRelaxed], at most one message (none only moves the seqno). The signature covers the hash of everything
 * after it, as in wallet v3; the key is the vesting's public_key.
 */
export function vestingExternalBody(v: {
  subwalletId: number;
  validUntil: number;
  seqno: number;
  out?: VestingOutMessage;
  secretKey: Buffer;
}): Cell {
  const signed = beginCell().storeUint(v.subwalletId, 32).storeUint(v.validUntil, 32).storeUint(v.seqno, 32);
  if (v.out) signed.storeUint(v.out.sendMode, 8).storeRef(beginCell().store(storeMessageRelaxed(v.out.message)));
  const unsigned = signed.endCell();
  return beginCell().storeBuffer(sign(unsigned.hash(), v.secretKey)).storeSlice(unsigned.beginParse()).endCell();
}

/** get_vesting_data(): int ×5, slice sender, slice owner, cell-or-null whitelist (null when empty). */
export interface VestingDataResult {
  startTime: bigint;
  totalDuration: bigint;
  unlockPeriod: bigint;
  cliffDuration: bigint;
  totalAmount: bigint;
  senderAddress: Address;
  ownerAddress: Address;
  whitelist: Cell | null;
}

export function readVestingData(stack: TupleItem[]): VestingDataResult {
  const r = new TupleReader(stack);
  return {
    startTime: r.readBigNumber(),
    totalDuration: r.readBigNumber(),
    unlockPeriod: r.readBigNumber(),
    cliffDuration: r.readBigNumber(),
    totalAmount: r.readBigNumber(),
    senderAddress: r.readAddress(),
    ownerAddress: r.readAddress(),
    whitelist: r.readCellOpt(),
  };
}

export function isWhitelistedArgs(address: Address): TupleItem[] {
  return [{ type: 'slice', cell: beginCell().storeAddress(address).endCell() }];
}

/** is_whitelisted(slice) -> int (-1 / 0) */
export function readIsWhitelisted(stack: TupleItem[]): boolean {
  return new TupleReader(stack).readBoolean();
}

export function lockedAmountArgs(atTime: number): TupleItem[] {
  return [{ type: 'int', value: BigInt(atTime) }];
}

/** get_locked_amount(int at_time) -> int */
export function readLockedAmount(stack: TupleItem[]): bigint {
  return new TupleReader(stack).readBigNumber();
}

/** get_whitelist(): a list of nested pairs (cons [wc, hash] rest), null when empty. */
export function readVestingWhitelist(stack: TupleItem[]): Address[] {
  const out: Address[] = [];
  let node: TupleItem | undefined = stack[0];
  while (node?.type === 'tuple') {
    const [pair, rest] = node.items;
    if (pair?.type !== 'tuple') throw new TypeError(`get_whitelist: expected a [wc, hash] pair, got ${pair?.type}`);
    const pr = new TupleReader(pair.items);
    const wc = pr.readNumber();
    out.push(new Address(wc, Buffer.from(pr.readBigNumber().toString(16).padStart(64, '0'), 'hex')));
    node = rest;
  }
  if (node && node.type !== 'null') throw new TypeError(`get_whitelist: expected a list, got ${node.type}`);
  return out;
}
