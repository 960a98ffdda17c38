// The trace an external message will cause, run before it lands: the message on its account's latest state, then
// every internal message it sends (and they send) on their receivers' states, with the real TVM (the Executor v2
// runs estimateFee on). States, config and libraries come through our liteserver pool, all read at one masterchain
// block, so a block that lands meanwhile cannot mix states from before and after it. Messages run in the order
// they were created (breadth first, as a message queue would); each receiver's state after its transaction is the
// one its next message runs on. The walk is bounded by transactions, depth and time: what is left is reported as
// `incomplete`, as toncenter's emulator flags depth_limit_exceeded.
import type { Address, Cell } from '@ton/core';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import {
  formatAddressV3,
  loadBlockInfo,
  loadConfigParamFrom,
  loadConfigParams,
  type Message,
  messageFromCell,
  msgAddressToAddress,
  normalizedMessageHash,
  parseBoc,
  type Transaction,
  transactionFromCell,
  verifyProofBoc,
} from '../../ton/index.ts';
import {
  decodeAccount,
  latestConfig,
  librariesFor,
  masterchainBlock,
  readAccount,
  shardAccountCell,
  type V2Context,
} from '../v2/shared.ts';

export interface TraceLimits {
  /** Most transactions one trace runs (the rest is left out, incomplete). */
  maxTransactions: number;
  /** Deepest message chain below the root (the root is depth 0). */
  maxDepth: number;
  /** Wall time one trace may take; checked between transactions. */
  timeoutMs: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { maxTransactions: 256, maxDepth: 32, timeoutMs: 10_000 };

export interface TraceEmulatorDeps {
  v2: V2Context;
  /** The masterchain block states are read at (default: the head when the emulation starts). */
  block?: tonNode_blockIdExt;
  limits?: Partial<TraceLimits>;
  /** Wall clock in milliseconds (the transactions' `now` and the time limit). Default Date.now. */
  clock?: () => number;
}

export interface EmulatedTransaction {
  /** The transaction cell the emulator produced (its hash is the transaction hash). */
  cell: Cell;
  tx: Transaction;
  workchain: number;
  /** The shard the account lives in at the block read (unsigned 64-bit id). */
  shard: bigint;
  /** 0 for the root. */
  depth: number;
}

export interface EmulatedTrace {
  message: { cell: Cell; hash: Buffer; hashNorm: Buffer };
  /** The masterchain block the states were read at. */
  block: tonNode_blockIdExt;
  /** Config param 8 version (how message views name ihr_fee / extra_flags). */
  globalVersion: number;
  /** In the order they ran: the root first. */
  transactions: EmulatedTransaction[];
  /** A limit stopped the walk with messages still to run. */
  incomplete: boolean;
  /** The ShardAccount of every account the trace touched, after its last emulated transaction (raw upper-case). */
  states: ReadonlyMap<string, { address: Address; shardAccount: Cell }>;
}

export type TraceEmulationFailure = 'bad_message' | 'not_accepted';

/** The message cannot be emulated: not one external-in message, or its account refused it on the latest state. */
export class TraceEmulationError extends Error {
  constructor(
    readonly reason: TraceEmulationFailure,
    message: string,
    opts?: { cause?: unknown },
  ) {
    super(message, opts);
    this.name = 'TraceEmulationError';
  }
}

interface AccountSlot {
  shardAccount: Cell;
  code: Cell | null;
  lastTransLt: bigint;
  shard: bigint;
}

interface QueuedMessage {
  cell: Cell;
  message: Message;
  to: Address;
  depth: number;
}

function parseExternal(boc: Buffer): { cell: Cell; message: Message; to: Address; hashNorm: Buffer } {
  let cell: Cell;
  let message: Message;
  try {
    const roots = parseBoc(boc);
    if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
    cell = roots[0]!;
    message = messageFromCell(cell);
  } catch (e) {
    throw new TraceEmulationError('bad_message', `the BoC is not one message: ${(e as Error).message}`, { cause: e });
  }
  if (message.info.kind !== 'ext_in_msg_info') {
    throw new TraceEmulationError('bad_message', `expected an external-in message, got ${message.info.kind}`);
  }
  const to = msgAddressToAddress(message.info.dest);
  if (!to) throw new TraceEmulationError('bad_message', 'the message has no standard destination address');
  return { cell, message, to, hashNorm: normalizedMessageHash(message)! };
}

/** ShardAccount (block.tlb:287): ^Account, last_trans_hash, last_trans_lt. */
function slotOf(shardAccount: Cell, shard: bigint): AccountSlot {
  const s = shardAccount.beginParse();
  const account = s.loadRef();
  s.skip(256);
  const lastTransLt = s.loadUintBig(64);
  return { shardAccount, code: decodeAccount(account).code, lastTransLt, shard };
}

/** The destination of an internal message, or null for one that leaves the chain (a log). */
function internalDestination(m: Message): Address | null {
  return m.info.kind === 'int_msg_info' ? msgAddressToAddress(m.info.dest) : null;
}

/** Blocks start their logical time at a multiple of this (the validators' lt alignment, 10^6 on every network). */
const LT_ALIGN = 1_000_000n;

/**
 * The lowest logical time a transaction of the next blocks can have: past the end of masterchain block `block`
 * (its header read and checked against its root hash), aligned as block start times are, plus one as a block's
 * first transaction has it (mainnet lts such as 76734069000001).
 */
async function nextBlockLt(v2: V2Context, block: tonNode_blockIdExt): Promise<bigint> {
  const header = await v2.lite.withServer((l) => l.getBlockHeader(block, { mode: 0 }));
  const proven = verifyProofBoc(header.headerProof, Buffer.from(block.rootHash));
  const endLt = loadBlockInfo(proven.block.refs[0]!.beginParse(true)).endLt;
  return (endLt / LT_ALIGN + 1n) * LT_ALIGN + 1n;
}

/** Emulates the trace of external message `boc` (a BoC of one ext_in message) on the latest states. */
export async function emulateTrace(boc: Buffer, deps: TraceEmulatorDeps): Promise<EmulatedTrace> {
  const limits = { ...DEFAULT_TRACE_LIMITS, ...deps.limits };
  const clock = deps.clock ?? Date.now;
  const started = clock();
  const ext = parseExternal(boc);
  const { v2 } = deps;
  const block = deps.block ?? (await v2.lite.withServer((l) => masterchainBlock(l)));
  const config = await latestConfig(v2);
  const startLt = await nextBlockLt(v2, block);
  const globalVersion = loadConfigParamFrom(loadConfigParams(config), 8)?.globalVersion.version ?? 0;

  const slots = new Map<string, AccountSlot>();
  const states = new Map<string, { address: Address; shardAccount: Cell }>();
  const slotFor = async (address: Address): Promise<AccountSlot> => {
    const key = address.toRawString();
    let slot = slots.get(key);
    if (!slot) {
      const a = await v2.lite.withServer((l) => readAccount(l, address, block));
      slot = slotOf(shardAccountCell(a), BigInt.asUintN(64, BigInt(a.shardBlock.shard)));
      slots.set(key, slot);
    }
    return slot;
  };

  const transactions: EmulatedTransaction[] = [];
  const queue: QueuedMessage[] = [{ cell: ext.cell, message: ext.message, to: ext.to, depth: 0 }];
  let incomplete = false;
  while (queue.length > 0) {
    if (transactions.length >= limits.maxTransactions || clock() - started > limits.timeoutMs) {
      incomplete = true;
      break;
    }
    const q = queue.shift()!;
    const slot = await slotFor(q.to);
    const inLt = q.message.info.kind === 'int_msg_info' ? q.message.info.createdLt : 0n;
    // A deploy runs the StateInit's code on an account that has none yet.
    const code = slot.code ?? q.message.init?.code ?? null;
    const outcome = await v2.tvm.runTransaction({
      shardAccount: slot.shardAccount,
      message: q.cell,
      config,
      libs: await librariesFor(v2, code),
      now: Math.floor(clock() / 1000),
      // A lower bound: the emulator moves it past the account's last transaction and the message's creation.
      lt: [startLt, slot.lastTransLt + 1n, inLt + 1n].reduce((a, b) => (a > b ? a : b)),
      ignoreChksig: false,
    });
    if (!outcome.accepted) {
      if (q.depth === 0) {
        throw new TraceEmulationError(
          'not_accepted',
          `the account ${formatAddressV3(q.to)} did not accept the message: ${outcome.error}` +
            (outcome.exitCode === null ? '' : ` (exit code ${outcome.exitCode})`),
        );
      }
      // An internal message always makes a transaction on the chain; the emulator refusing one means it cannot
      // reproduce the rest of this branch.
      incomplete = true;
      continue;
    }
    const tx = transactionFromCell(outcome.transaction);
    slots.set(q.to.toRawString(), slotOf(outcome.shardAccount, slot.shard));
    states.set(formatAddressV3(q.to), { address: q.to, shardAccount: outcome.shardAccount });
    transactions.push({ cell: outcome.transaction, tx, workchain: q.to.workChain, shard: slot.shard, depth: q.depth });
    for (const m of tx.outMsgs) {
      const to = internalDestination(m);
      if (!to || !m.raw) continue;
      if (q.depth + 1 > limits.maxDepth) {
        incomplete = true;
        continue;
      }
      queue.push({ cell: m.raw, message: m, to, depth: q.depth + 1 });
    }
  }
  return {
    message: { cell: ext.cell, hash: ext.cell.hash(), hashNorm: ext.hashNorm },
    block,
    globalVersion,
    transactions,
    incomplete,
    states,
  };
}
