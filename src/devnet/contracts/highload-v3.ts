// Typed wrappers of highload wallet v3 (ton-blockchain/highload-wallet-contract-v3, the code tonweb ships): storage
// and StateInit, the signed external that sends one message, query ids, and readers of the getters. Layouts:
// contracts.md §8.1 (highload v3), §8.2.

import {
  type Address,
  type Builder,
  beginCell,
  type Cell,
  contractAddress,
  type MessageRelaxed,
  type StateInit,
  storeMessageRelaxed,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { sign } from '@ton/crypto';
import { standardCodes } from './standard-codes.ts';

/** The body a batch sends to the wallet itself: internal_transfer#ae42e5a4 query_id:uint64 actions:^OutList. */
export const HIGHLOAD_V3_OP = { internalTransfer: 0xae42e5a4 } as const;

export const HIGHLOAD_V3_ERROR = {
  invalidSignature: 33,
  invalidSubwalletId: 34,
  invalidCreatedAt: 35,
  alreadyExecuted: 36,
  invalidMessageToSend: 37,
  invalidTimeout: 38,
} as const;

/** The subwallet id the contract's authors recommend (tonweb's default). */
export const HIGHLOAD_V3_DEFAULT_SUBWALLET_ID = 0x10ad;

/** Bit numbers run 0..1022 within one shift (the 1023 bits of a cell). */
const BITS_PER_SHIFT = 1023n;
const MAX_SHIFT = (1n << 13n) - 1n;

/** query_id = shift:uint13 ‖ bit_number:uint10, with bit_number < 1023. */
export interface HighloadQueryId {
  shift: bigint;
  bitNumber: bigint;
}

/** The n-th query id of a sequence that visits every valid id once (8,380,416 of them). */
export function highloadQueryIdAt(n: bigint): HighloadQueryId {
  const shift = n / BITS_PER_SHIFT;
  if (n < 0n || shift > MAX_SHIFT) throw new RangeError(`highloadQueryIdAt: ${n} is outside the query id space`);
  return { shift, bitNumber: n % BITS_PER_SHIFT };
}

/** The flat 23-bit value `processed?` takes: shift · 1024 + bit_number. */
export function highloadQueryIdValue(q: HighloadQueryId): bigint {
  return (q.shift << 10n) | q.bitNumber;
}

/**
 * public_key:uint256 subwallet_id:uint32 old_queries:(HashmapE 13 ^Cell) queries:(HashmapE 13 ^Cell)
 * last_clean_time:uint64 timeout:uint22, as deployed: both query dictionaries empty.
 */
export interface HighloadV3Config {
  publicKey: Buffer;
  subwalletId: number;
  /** Seconds a query id stays remembered (two generations rotate after it); below 2^22. */
  timeout: number;
}

export function storeHighloadV3Data(v: HighloadV3Config & { lastCleanTime?: number }) {
  return (b: Builder) => {
    b.storeBuffer(v.publicKey, 32)
      .storeUint(v.subwalletId, 32)
      .storeBit(0)
      .storeBit(0)
      .storeUint(v.lastCleanTime ?? 0, 64)
      .storeUint(v.timeout, 22);
  };
}

export function highloadV3StateInit(v: HighloadV3Config): StateInit {
  return { code: standardCodes().highloadV3, data: beginCell().store(storeHighloadV3Data(v)).endCell() };
}

export function highloadV3Address(init: StateInit, workchain = 0): Address {
  return contractAddress(workchain, init);
}

/**
 * MsgInner = subwallet_id:uint32 message_to_send:^MessageRelaxed send_mode:uint8 query_id:(shift:uint13
 * bit_number:uint10) created_at:uint64 timeout:uint22. The message must be internal with src addr_none and no
 * StateInit (error 37 after the query is committed); it goes out with `send_mode | 2`.
 */
export interface HighloadV3MsgInner {
  subwalletId: number;
  message: MessageRelaxed;
  sendMode: number;
  queryId: HighloadQueryId;
  /** Must satisfy now − timeout < created_at ≤ now at execution (error 35). */
  createdAt: number;
  /** Must equal the stored timeout (error 38). */
  timeout: number;
}

export function storeHighloadV3MsgInner(v: HighloadV3MsgInner) {
  return (b: Builder) => {
    b.storeUint(v.subwalletId, 32)
      .storeRef(beginCell().store(storeMessageRelaxed(v.message)))
      .storeUint(v.sendMode, 8)
      .storeUint(v.queryId.shift, 13)
      .storeUint(v.queryId.bitNumber, 10)
      .storeUint(v.createdAt, 64)
      .storeUint(v.timeout, 22);
  };
}

/** The external body: signature:bits512 ^MsgInner, the signature over the MsgInner cell's hash. */
export function highloadV3ExternalBody(v: HighloadV3MsgInner & { secretKey: Buffer }): Cell {
  const inner = beginCell().store(storeHighloadV3MsgInner(v)).endCell();
  return beginCell().storeBuffer(sign(inner.hash(), v.secretKey)).storeRef(inner).endCell();
}

/** get_public_key() -> int (uint256), as the 32-byte key. */
export function readHighloadPublicKey(stack: TupleItem[]): Buffer {
  return Buffer.from(new TupleReader(stack).readBigNumber().toString(16).padStart(64, '0'), 'hex');
}

/** get_subwallet_id(), get_timeout(), get_last_clean_time(): one int. */
export function readHighloadInt(stack: TupleItem[]): number {
  return new TupleReader(stack).readNumber();
}

/** Arguments of `processed?(query_id, need_clean)`: need_clean = -1 applies a due rotation first. */
export function processedArgs(q: HighloadQueryId, needClean = false): TupleItem[] {
  return [
    { type: 'int', value: highloadQueryIdValue(q) },
    { type: 'int', value: needClean ? -1n : 0n },
  ];
}

/** processed?(...) -> int (-1 / 0) */
export function readProcessed(stack: TupleItem[]): boolean {
  return new TupleReader(stack).readBoolean();
}
