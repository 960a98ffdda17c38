// The activity loop: realistic traffic generated as a client of a devnet (or any TON network with funded wallets):
// TON transfers with comments, a bounce, a refused message, a jetton and an NFT collection with their whole life
// cycles. Step i runs the cycle's step i % length with choices drawn from the seed; each step waits (bounded) for its
// effects; a failed step is logged and counted and the loop goes on.
import { ConfigError, isTongateError } from '../../common/index.ts';
import type { Log } from '../../common/logger.ts';
import {
  createLitePool,
  type GlobalConfig,
  type LitePool,
  loadGlobalConfig,
  parseGlobalConfig,
} from '../../lite/index.ts';
import { type ActivityChain, liteActivityChain } from './chain.ts';
import { emptyDnsLedger } from './ledger-dns.ts';
import { emptyStandardLedger } from './ledger-standard.ts';
import { createRng } from './rng.ts';
import type { StepContext, StepOutcome } from './step-kit.ts';
import { STEPS } from './steps.ts';
import {
  ACTIVITY_CYCLE,
  type ActivityCounters,
  type ActivityHandle,
  type ActivityLedger,
  type ActivityOptions,
  type ActivityStepKind,
} from './types.ts';
import { sleep, waitFor } from './wait.ts';
import { type ActivityWallet, loadWallets, openWallets } from './wallets.ts';

const DEFAULT_SEED = 'tongate';
const DEFAULT_INTERVAL_MS = 1000;
const DEFAULT_STEP_TIMEOUT_MS = 60_000;
const DEFAULT_POLL_MS = 250;

function emptyCounters(cycle: readonly ActivityStepKind[]): ActivityCounters {
  const byKind = {} as ActivityCounters['byKind'];
  for (const k of new Set([...ACTIVITY_CYCLE, ...cycle])) byKind[k] = { ok: 0, failed: 0, skipped: 0 };
  return { steps: 0, ok: 0, failed: 0, skipped: 0, byKind, lastFailure: null };
}

function snapshot(c: ActivityCounters): ActivityCounters {
  const byKind = {} as ActivityCounters['byKind'];
  for (const [k, v] of Object.entries(c.byKind)) byKind[k as ActivityStepKind] = { ...v };
  return { ...c, byKind, lastFailure: c.lastFailure ? { ...c.lastFailure } : null };
}

function checkPositiveInt(name: string, v: number | undefined, allowZero: boolean): void {
  if (v === undefined) return;
  if (!Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new ConfigError(
      `startActivity: expected ${name} to be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${v}`,
    );
  }
}

async function openChain(o: ActivityOptions): Promise<{ chain: ActivityChain; pool: LitePool | null }> {
  if (o.chain) return { chain: o.chain, pool: null };
  if (o.pool) return { chain: liteActivityChain(o.pool), pool: null };
  if (o.liteConfig === undefined) {
    throw new ConfigError('startActivity: expected one of `pool`, `liteConfig` or `chain`, got none');
  }
  const config: GlobalConfig =
    typeof o.liteConfig === 'string' ? await loadGlobalConfig(o.liteConfig) : parseGlobalConfig(o.liteConfig);
  const pool = createLitePool({ servers: config.liteservers });
  return { chain: liteActivityChain(pool), pool };
}

/** Waits (bounded) until every wallet is deployed; the node deploys its genesis wallets in its first blocks. */
async function awaitWallets(
  chain: ActivityChain,
  wallets: readonly ActivityWallet[],
  log: Log,
  o: { timeoutMs: number; pollMs: number; signal: AbortSignal },
): Promise<void> {
  const r = await waitFor(
    'the genesis wallets to be deployed',
    async () => {
      for (const w of wallets) if ((await chain.getAccount(w.address)).status !== 'active') return undefined;
      return true;
    },
    o,
  );
  if (!r.ok) log('warn', 'Started without every wallet deployed', { reason: r.reason });
}

/**
 * Starts the activity loop and returns its handle once the wallets are open and the chain client is connected.
 * Invalid options throw ConfigError; everything after start is logged and counted, never thrown.
 */
export async function startActivity(o: ActivityOptions): Promise<ActivityHandle> {
  checkPositiveInt('steps', o.steps, true);
  checkPositiveInt('intervalMs', o.intervalMs, true);
  checkPositiveInt('stepTimeoutMs', o.stepTimeoutMs, false);
  checkPositiveInt('pollMs', o.pollMs, false);
  const seed = o.seed ?? DEFAULT_SEED;
  const log: Log = o.log ?? (() => {});
  const intervalMs = o.intervalMs ?? DEFAULT_INTERVAL_MS;
  const timeoutMs = o.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const pollMs = o.pollMs ?? DEFAULT_POLL_MS;
  const cycle = o.cycle ?? ACTIVITY_CYCLE;
  if (cycle.length === 0 || cycle.some((k) => !(k in STEPS))) {
    throw new ConfigError(`startActivity: cycle must list known step kinds, got ${JSON.stringify(cycle)}`);
  }

  const wallets =
    typeof o.wallets === 'string'
      ? await loadWallets(o.wallets, { globalId: o.globalId })
      : await openWallets(
          o.wallets.filter((e) => e.role !== 'user'),
          { globalId: o.globalId, source: 'wallets' },
        );
  if (wallets.length === 0) throw new ConfigError('startActivity: expected at least one wallet');
  const { chain, pool } = await openChain(o);

  const stopper = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stopper.signal]) : stopper.signal;
  const counters = emptyCounters(cycle);
  const ledger: ActivityLedger = {
    transfers: [],
    bounces: [],
    failedComputes: [],
    jettons: [],
    collections: [],
    standard: emptyStandardLedger(),
    multisigs: [],
    dns: emptyDnsLedger(),
    governedJettons: [],
  };

  const record = (step: number, kind: ActivityStepKind, outcome: StepOutcome, durationMs: number) => {
    counters.steps++;
    const k = counters.byKind[kind];
    const fields = { step, kind, durationMs: Math.round(durationMs) };
    if (outcome.status === 'ok') {
      counters.ok++;
      k.ok++;
      log('info', 'Ran activity step', { ...fields, ...outcome.fields });
    } else if (outcome.status === 'skipped') {
      counters.skipped++;
      k.skipped++;
      log('info', 'Skipped activity step', { ...fields, reason: outcome.reason });
    } else {
      counters.failed++;
      k.failed++;
      counters.lastFailure = { step, kind, reason: outcome.reason };
      log('warn', 'Failed activity step', { ...fields, reason: outcome.reason, ...outcome.fields });
    }
  };

  const loop = async (): Promise<ActivityCounters> => {
    try {
      log('info', 'Started devnet activity', { seed, wallets: wallets.length, steps: o.steps ?? null });
      await awaitWallets(chain, wallets, log, { timeoutMs, pollMs, signal });
      for (let step = 0; o.steps === undefined || step < o.steps; step++) {
        if (signal.aborted) break;
        if (step > 0) await sleep(intervalMs, signal);
        if (signal.aborted) break;
        const kind = cycle[step % cycle.length]!;
        const ctx: StepContext = {
          step,
          chain,
          wallets,
          rng: createRng(seed, `step ${step}`),
          ledger,
          seed,
          signal,
          timeoutMs,
          pollMs,
        };
        const started = performance.now();
        let outcome: StepOutcome;
        try {
          outcome = await STEPS[kind](ctx);
        } catch (e) {
          // The chain client failed (liteserver down, timeout): count it and keep going.
          const reason = isTongateError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
          outcome = { status: 'failed', reason };
        }
        if (signal.aborted && outcome.status !== 'ok') break; // interrupted, not failed
        record(step, kind, outcome, performance.now() - started);
      }
      log('info', 'Stopped devnet activity', { steps: counters.steps, ok: counters.ok, failed: counters.failed });
      return snapshot(counters);
    } finally {
      await pool?.close();
    }
  };

  const done = loop();
  return {
    get counters() {
      return snapshot(counters);
    },
    ledger: () => ledger,
    done,
    async stop() {
      stopper.abort();
      return done;
    },
  };
}
