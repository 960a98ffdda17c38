// The executor side of the runner: one @ton/sandbox Executor (the C++ emulator compiled to WASM) turning wire jobs
// into wire results. A worker thread runs exactly this, and `threads: 0` runs it in the caller's thread.
import { Address, type Cell, parseTuple } from '@ton/core';
import { Executor, type ExecutorEmulationResult, type ExecutorVerbosity } from '@ton/sandbox';
import { TvmError } from '../common/errors.ts';
import { cellsFromBoc } from '../ton/index.ts';
import { type DirectEmulator, type DirectRun, directEmulator } from './emulate-direct.ts';
import {
  asBuffer,
  BlobStore,
  ownBytes,
  prevBlocksFromWire,
  transferList,
  type WireJob,
  type WireResult,
} from './wire.ts';

export interface JobHandler {
  /** Creates the Executor (slow: compiles the WASM module), once. */
  ready(): Promise<void>;
  handle(job: WireJob): Promise<{ result: WireResult; transfer: ArrayBuffer[] }>;
  /** Drops the Executor and the blob cache (after a WASM trap the module's memory cannot be trusted). */
  reset(): void;
}

type EmulationOutput = ExecutorEmulationResult['result'];

function cellOf(bytes: Uint8Array): Cell {
  const roots = cellsFromBoc(asBuffer(bytes));
  if (roots.length !== 1) throw new Error(`expected a BoC with one root, got ${roots.length}`);
  return roots[0]!;
}

function bytesOfBase64(b64: string): Uint8Array {
  return ownBytes(Buffer.from(b64, 'base64'));
}

function txResult(out: EmulationOutput): WireResult {
  if (out.success) {
    return {
      kind: 'tx-ok',
      transaction: bytesOfBase64(out.transaction),
      shardAccount: bytesOfBase64(out.shardAccount),
      actions: out.actions === null ? null : bytesOfBase64(out.actions),
      vmLog: out.vmLog,
    };
  }
  return {
    kind: 'tx-refused',
    error: out.error,
    exitCode: out.vmResults?.vmExitCode ?? null,
    vmLog: out.vmResults?.vmLog ?? '',
  };
}

export function createJobHandler(opts: { verbosity: ExecutorVerbosity }): JobHandler {
  let executor: Promise<Executor> | null = null;
  // Config stays a base64 string: the Executor keeps one emulator per config string and compares by value.
  const configs = new BlobStore((boc) => asBuffer(boc).toString('base64'));
  // Libraries as a Cell (get-methods, through the public API) and as base64 (transactions, emulate-direct.ts).
  const libraries = new BlobStore((boc) => ({
    cell: cellOf(boc),
    base64: asBuffer(boc).toString('base64'),
  }));
  /** The emulator entry point without the Executor's per-call rebuilding; null when this sandbox lacks it. */
  let direct: { for: Executor; run: DirectEmulator | null } | null = null;

  function getExecutor(): Promise<Executor> {
    if (executor === null) {
      executor = Executor.create();
      executor.catch(() => {
        executor = null;
      });
    }
    return executor;
  }

  async function run(job: WireJob): Promise<WireResult> {
    const config = configs.resolve(job.config);
    if (config === undefined) return { kind: 'blob-miss', hash: job.config.hash };
    let libs: { cell: Cell; base64: string } | null = null;
    if (job.libs !== null) {
      const l = libraries.resolve(job.libs);
      if (l === undefined) return { kind: 'blob-miss', hash: job.libs.hash };
      libs = l;
    }
    const ex = await getExecutor();
    const prevBlocksInfo = prevBlocksFromWire(job.prevBlocks);
    if (job.kind === 'get') {
      const res = await ex.runGetMethod({
        code: cellOf(job.code),
        data: cellOf(job.data),
        methodId: job.methodId,
        stack: parseTuple(cellOf(job.stack)),
        config,
        verbosity: opts.verbosity,
        ...(libs === null ? {} : { libs: libs.cell }),
        address: Address.parseRaw(job.address),
        unixTime: job.now,
        balance: job.balance,
        randomSeed: Buffer.from(job.randomSeed),
        gasLimit: job.gasLimit,
        debugEnabled: false,
        ...(prevBlocksInfo === undefined ? {} : { prevBlocksInfo }),
        ...(job.extraCurrency === null ? {} : { extraCurrency: job.extraCurrency }),
      });
      const out = res.output;
      if (!out.success) return { kind: 'get-refused', error: out.error };
      return {
        kind: 'get-ok',
        exitCode: out.vm_exit_code,
        stack: bytesOfBase64(out.stack),
        gasUsed: BigInt(out.gas_used),
        missingLibrary: out.missing_library === null ? null : ownBytes(Buffer.from(out.missing_library, 'hex')),
        vmLog: out.vm_log,
      };
    }
    if (direct?.for !== ex) direct = { for: ex, run: directEmulator(ex, opts.verbosity) };
    if (direct.run !== null) {
      const r: DirectRun = {
        config,
        libs: libs?.base64 ?? null,
        shardAccount: asBuffer(job.shardAccount).toString('base64'),
        now: job.now,
        lt: job.lt,
        randomSeed: job.randomSeed,
        ignoreChksig: job.ignoreChksig,
        prevBlocks: job.prevBlocks,
      };
      return txResult(job.kind === 'tx' ? direct.run.transaction(r, job.message) : direct.run.tickTock(r, job.which));
    }
    const common = {
      config,
      libs: libs?.cell ?? null,
      verbosity: opts.verbosity,
      shardAccount: asBuffer(job.shardAccount).toString('base64'),
      now: job.now,
      lt: job.lt,
      randomSeed: Buffer.from(job.randomSeed),
      ignoreChksig: job.ignoreChksig,
      debugEnabled: false,
      ...(prevBlocksInfo === undefined ? {} : { prevBlocksInfo }),
    };
    const res =
      job.kind === 'tx'
        ? await ex.runTransaction({ ...common, message: cellOf(job.message) })
        : await ex.runTickTock({ ...common, which: job.which });
    return txResult(res.result);
  }

  const handler: JobHandler = {
    async ready() {
      await getExecutor();
    },
    async handle(job) {
      let result: WireResult;
      try {
        result = await run(job);
      } catch (e) {
        // A trap or a C++ exception escaping the emulator (thrown into JS as a bare pointer number, e.g. bad_alloc
        // while building a huge VM log) may leave the WASM instance unusable: start a fresh one next time.
        handler.reset();
        if (typeof e === 'number' || (e instanceof Error && /^\d+$/.test(e.message))) {
          throw new TvmError(
            `the emulator aborted with a C++ exception (pointer ${e instanceof Error ? e.message : e})`,
          );
        }
        throw e;
      }
      if (result.kind === 'blob-miss') {
        configs.reset();
        libraries.reset();
      }
      const parts =
        result.kind === 'tx-ok'
          ? [result.transaction, result.shardAccount, result.actions]
          : result.kind === 'get-ok'
            ? [result.stack, result.missingLibrary]
            : [];
      return { result, transfer: transferList(parts) };
    },
    reset() {
      executor = null;
      configs.reset();
      libraries.reset();
    },
  };
  return handler;
}
