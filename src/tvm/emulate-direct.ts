// Transactions through the emulator's own entry point, with what is fixed per block serialized once.
// Why by hand: @ton/sandbox's Executor.runTransaction / runTickTock rebuild on every call what a collator passes
// unchanged for a whole block: PREVBLOCKS (17 or 117 block ids built into cells and a BoC, ~0.5 ms a call: a fifth
// of a TVM thread's time in bench/devnet's burst), the libraries (a Cell serialized to a BoC again) and the
// message (which we hold as BoC bytes; the public API wants a Cell only to serialize it back). This builds the same
// parameters the Executor builds (utime, lt, rand_seed, ignore_chksig, debug_enabled, prev_blocks_info,
// is_tick_tock/is_tock) and calls the same emulator function through the Executor's own emulator handle, so the
// emulator sees the same inputs. The two Executor methods it needs are private in @ton/sandbox's typings: when a
// version lacks them, `directEmulator` returns null and the caller uses the public API.
import { beginCell, type Cell, serializeTuple, type TupleItem } from '@ton/core';
import type { Executor, ExecutorEmulationResult, ExecutorVerbosity } from '@ton/sandbox';
import { asBuffer, type WireBlockId, type WirePrevBlocks } from './wire.ts';

type EmulationResult = ExecutorEmulationResult['result'];

/** The Executor's private methods this calls (@ton/sandbox 0.41: runCommon, getEmulatorPointer). */
interface ExecutorInternals {
  runCommon(args: unknown[]): { result: EmulationResult };
  getEmulatorPointer(config: string, verbosity: number): number;
}

/** The emulator's verbosity levels, as the Executor numbers them. */
const VERBOSITY: Record<ExecutorVerbosity, number> = {
  short: 0,
  full: 1,
  full_location: 2,
  full_location_gas: 3,
  full_location_stack: 4,
  full_location_stack_verbose: 5,
};

export interface DirectRun {
  config: string;
  /** Library BoC bytes as base64, or null. */
  libs: string | null;
  shardAccount: string;
  now: number;
  lt: bigint;
  randomSeed: Uint8Array;
  ignoreChksig: boolean;
  prevBlocks: WirePrevBlocks | null;
}

export interface DirectEmulator {
  transaction(run: DirectRun, message: Uint8Array): EmulationResult;
  tickTock(run: DirectRun, which: 'tick' | 'tock'): EmulationResult;
}

function blockIdTuple(id: WireBlockId): TupleItem {
  const hex = (b: Uint8Array) => BigInt(`0x${asBuffer(b).toString('hex')}`);
  return {
    type: 'tuple',
    items: [
      { type: 'int', value: BigInt(id.workchain) },
      { type: 'int', value: id.shard },
      { type: 'int', value: BigInt(id.seqno) },
      { type: 'int', value: hex(id.rootHash) },
      { type: 'int', value: hex(id.fileHash) },
    ],
  };
}

/** PREVBLOCKS as the emulator takes it: the tuple [last_mc_blocks, prev_key_block(, last_mc_blocks_100)], as a BoC. */
function prevBlocksBoc(p: WirePrevBlocks): string {
  const items: TupleItem[] = [{ type: 'tuple', items: p.lastMcBlocks.map(blockIdTuple) }, blockIdTuple(p.prevKeyBlock)];
  if (p.lastMcBlocks100 !== undefined) items.push({ type: 'tuple', items: p.lastMcBlocks100.map(blockIdTuple) });
  // A one-entry stack [tuple]: its entry is the value (skip the stack depth, 24 bits, and the empty rest link).
  const stack = serializeTuple([{ type: 'tuple', items }]).beginParse();
  stack.skip(24);
  stack.loadRef();
  const entry: Cell = beginCell().storeSlice(stack).endCell();
  return entry.toBoc().toString('base64');
}

/** Same block ids, same key: the root hashes name the blocks. */
function prevBlocksKey(p: WirePrevBlocks): string {
  const ids = [...p.lastMcBlocks, p.prevKeyBlock, ...(p.lastMcBlocks100 ?? [])];
  return `${p.lastMcBlocks.length}/${p.lastMcBlocks100?.length ?? -1}/${ids.map((id) => `${id.workchain}:${id.shard}:${id.seqno}:${asBuffer(id.rootHash).toString('hex')}:${asBuffer(id.fileHash).toString('hex')}`).join(',')}`;
}

export function directEmulator(ex: Executor, verbosity: ExecutorVerbosity): DirectEmulator | null {
  const internals = ex as unknown as Partial<ExecutorInternals>;
  if (typeof internals.runCommon !== 'function' || typeof internals.getEmulatorPointer !== 'function') return null;
  const run = internals as ExecutorInternals;
  let lastKey = '';
  let lastBoc = '';
  const prevBlocks = (p: WirePrevBlocks): string => {
    const key = prevBlocksKey(p);
    if (key !== lastKey) {
      lastBoc = prevBlocksBoc(p);
      lastKey = key;
    }
    return lastBoc;
  };
  const params = (r: DirectRun): Record<string, unknown> => {
    const p: Record<string, unknown> = {
      utime: r.now,
      lt: r.lt.toString(),
      rand_seed: asBuffer(r.randomSeed).toString('hex'),
      ignore_chksig: r.ignoreChksig,
      debug_enabled: false,
    };
    if (r.prevBlocks !== null) p.prev_blocks_info = prevBlocks(r.prevBlocks);
    return p;
  };
  const call = (r: DirectRun, message: string, extra: Record<string, unknown>) =>
    run.runCommon.call(ex, [
      run.getEmulatorPointer.call(ex, r.config, VERBOSITY[verbosity]),
      r.libs ?? 0,
      r.shardAccount,
      message,
      JSON.stringify({ ...params(r), ...extra }),
    ]).result;
  return {
    transaction: (r, message) => call(r, asBuffer(message).toString('base64'), {}),
    tickTock: (r, which) => call(r, '', { is_tick_tock: true, is_tock: which === 'tock' }),
  };
}
