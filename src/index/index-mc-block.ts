// The one processor (style guide §6.6, 3): masterchain seqno -> source -> parse -> decode -> write. Every mode
// runs it: the local queue calls it, the BullMQ worker wraps it, tests call it directly. It composes the subfolders
// (src/index/README.md): decodeMcBlock (decode/, over source/'s collectUnit) here or in the `decoder`, the contract
// decoders with their parent lookups (decode/contracts, contracts/), then writeUnit (write/).
import type { Address } from '@ton/core';
import type { Log } from '../common/logger.ts';
import type { Database } from '../db/index.ts';
import { type BlockIdExt, shardContains } from '../ton/index.ts';
import { storedAccount } from './contracts/stored.ts';
import { type AccountInput, type ContractsEnv, decodeUnitContracts } from './decode/contracts/index.ts';
import { accountInputOf, decodeMcBlock, type UnitDecoder } from './decode/decode-unit.ts';
import { rowCount } from './decode/unit-rows.ts';
import type { ShardTop } from './parse/new-shard-blocks.ts';
import type { BlockSource } from './source/types.ts';
import { writeUnit } from './write/index.ts';

export interface IndexDeps {
  source: BlockSource;
  db: Database;
  /** Where decoding runs (default: here, on this thread). */
  decoder?: UnitDecoder;
  log?: Log;
  /** Contract decoders (issue 9): their rows commit with the block's. Without them only the core tables fill. */
  contracts?: ContractsEnv;
  /** Replace the rows of a block that already has a checkpoint (default: skip it). */
  replace?: boolean;
}

export interface IndexResult {
  mcSeqno: number;
  blocks: number;
  transactions: number;
  messages: number;
  /** True when the checkpoint was already there and nothing was written. */
  skipped: boolean;
}

/**
 * Another account's state at this unit (a parent contract for cross-checks): the unit's own states, then the
 * source at the shard block of the unit that holds the account, then the newest stored state.
 */
function accountLookup(
  mc: BlockIdExt | undefined,
  tops: readonly ShardTop[],
  states: Map<string, AccountInput>,
  source: BlockSource,
  db: Database,
): (address: Address) => Promise<AccountInput | null> {
  return async (address) => {
    const k = `${address.workChain}:${address.hash.toString('hex')}`;
    const own = states.get(k);
    if (own) return own;
    const prefix = BigInt(`0x${address.hash.subarray(0, 8).toString('hex')}`);
    const at =
      address.workChain === -1
        ? mc
        : tops.find((t) => t.workchain === address.workChain && shardContains(t.shard, prefix))?.id;
    if (at) {
      const [found] = await source.accountStates(at, [address.hash]);
      const input = found ? accountInputOf(found, 0n) : null;
      if (input) return input;
    }
    return storedAccount(db, address);
  };
}

/**
 * Indexes masterchain block `mcSeqno` with every shard block it newly commits: rows and checkpoint in one
 * transaction. Idempotent: a block with a checkpoint is skipped (or replaced with `replace`).
 */
export async function indexMcBlock(mcSeqno: number, deps: IndexDeps): Promise<IndexResult> {
  const { source, db, log } = deps;
  if (!deps.replace) {
    const r = await db.query('SELECT 1 FROM index_checkpoints WHERE part = $1 AND mc_seqno = $2', ['core', mcSeqno]);
    if (r.rowCount > 0) return { mcSeqno, blocks: 0, transactions: 0, messages: 0, skipped: true };
  }
  const started = performance.now();
  const contracts = deps.contracts !== undefined;
  const decoded = deps.decoder
    ? await deps.decoder.decode(mcSeqno, { contracts })
    : await decodeMcBlock(mcSeqno, source, contracts);
  const { rows, inputs } = decoded;
  if (deps.contracts && inputs) {
    const result = await decodeUnitContracts(
      {
        mcSeqno,
        now: decoded.now,
        transactions: inputs.transactions,
        states: [...inputs.states.values()],
        account: accountLookup(decoded.mcId, decoded.tops, inputs.states, source, db),
      },
      deps.contracts,
    );
    rows.contracts = result.tables;
  }
  const written = await writeUnit(db, rows, { replace: deps.replace });
  const result: IndexResult = {
    mcSeqno,
    blocks: written ? rowCount(rows.blocks) : 0,
    transactions: written ? rowCount(rows.transactions) : 0,
    messages: written ? rowCount(rows.messages) : 0,
    skipped: !written,
  };
  log?.('debug', written ? 'Indexed masterchain block' : 'Skipped indexed masterchain block', {
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  return result;
}
