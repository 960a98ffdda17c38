// The one processor (style guide §6.6, 3): masterchain seqno -> source -> parse -> decode -> write. Every mode
// runs it: the local queue calls it, the BullMQ worker wraps it, tests call it directly.
import { createHash } from 'node:crypto';
import { Address } from '@ton/core';
import { IndexError } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import type { Database } from '../db/index.ts';
import {
  ACCOUNT_NONE,
  type AccountStateAfter,
  type Block,
  type BlockIdExt,
  blockKey,
  type FetchedBlock,
  listBlockTransactions,
  loadAccountOrNone,
  loadBlockCell,
  shardContains,
} from '../ton/index.ts';
import { storedAccount } from './contracts/stored.ts';
import {
  type AccountInput,
  type ContractsEnv,
  decodeUnitContracts,
  type TransactionInput,
  transactionInput,
} from './decode/contracts/index.ts';
import {
  type AccountStateRows,
  b64,
  blockGlobalVersion,
  type Row,
  toAccountStateRows,
  toBlockRow,
  toShardStateRows,
  toTransactionRows,
} from './decode/index.ts';
import { newShardBlocks, type ShardTop, shardTopsOf } from './parse/new-shard-blocks.ts';
import type { BlockSource } from './source/types.ts';
import { rowCount, type TableRows, type UnitRowsOf, writeUnit } from './write/index.ts';

/** Decodes masterchain blocks elsewhere (src/index/decode-pool: worker threads) with the same result. */
export interface UnitDecoder {
  decode(mcSeqno: number, opts: { contracts: boolean }): Promise<DecodedUnit>;
}

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

interface UnitBlock {
  fetched: FetchedBlock;
  block: Block;
}

/** What the contract decoders get from the core decoding of a unit. */
export interface ContractInputs {
  transactions: TransactionInput[];
  /** By `${workchain}:${hex}`: the unit's newest state of each account it changed, when code and data are known. */
  states: Map<string, AccountInput>;
}

/** An account state as the decoders take it: active, with code and data not pruned; else null. */
export function accountInputOf(s: AccountStateAfter, lastTransLt: bigint): AccountInput | null {
  if (!s.complete) return null;
  const account = loadAccountOrNone(s.account.beginParse(true));
  const st = account?.storage.state;
  if (!account || st?.type !== 'active' || !st.state.code || !st.state.data) return null;
  const { code, data } = st.state;
  if (code.level() !== 0 || data.level() !== 0) return null;
  return {
    address: new Address(s.workchain, s.address),
    code,
    data,
    balance: account.storage.balance.coins,
    lastTransLt,
  };
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

/** What the source says masterchain seqno `mcSeqno` commits: its blocks (masterchain first) and shard tops. */
async function collectUnit(
  mcSeqno: number,
  source: BlockSource,
): Promise<{ blocks: UnitBlock[]; tops: ShardTop[]; rootHash: string }> {
  const declared = source.declaredUnit ? await source.declaredUnit(mcSeqno) : null;
  if (declared) {
    const blocks = await Promise.all(
      declared.blocks.map(async (id) => {
        const fetched = await source.block(id);
        return { fetched, block: loadBlockCell(fetched.root) };
      }),
    );
    blocks.sort((a, b) => a.fetched.id.workchain - b.fetched.id.workchain || a.fetched.id.seqno - b.fetched.id.seqno);
    const mc = blocks.find((b) => b.fetched.id.workchain === -1);
    // Without its masterchain block a unit's checkpoint hash is sha256 over its blocks' root hashes, in order.
    const rootHash = mc
      ? b64(mc.fetched.id.rootHash)
      : b64(
          createHash('sha256')
            .update(Buffer.concat(blocks.map((b) => b.fetched.id.rootHash)))
            .digest(),
        );
    return { blocks, tops: mc ? shardTopsOf(mc.block) : [], rootHash };
  }
  if (mcSeqno < 1) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      'masterchain seqno 0 is the zero state, which has no block: indexing starts at 1',
    );
  }
  const mcFetched = await source.mcBlock(mcSeqno);
  if (!mcFetched) {
    throw new IndexError('TG_INDEX_NOT_READY', `${source.name}: masterchain block ${mcSeqno} is not available yet`, {
      details: { mcSeqno, source: source.name },
    });
  }
  const mc = { fetched: mcFetched, block: loadBlockCell(mcFetched.root) };
  if (mc.fetched.id.seqno !== mcSeqno || mc.fetched.id.workchain !== -1) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `${source.name}: asked masterchain block ${mcSeqno}, got ${blockKey(mc.fetched.id)}`,
    );
  }
  const tops = shardTopsOf(mc.block);
  let prevTops: ShardTop[] = [];
  if (mcSeqno > 1) {
    const prev = await source.mcBlock(mcSeqno - 1);
    if (!prev) {
      throw new IndexError('TG_INDEX_NOT_READY', `${source.name}: masterchain block ${mcSeqno - 1} is not available`);
    }
    prevTops = shardTopsOf(loadBlockCell(prev.root));
  }
  const shards = await newShardBlocks(tops, prevTops, (id) => source.block(id));
  return { blocks: [mc, ...shards], tops, rootHash: b64(mc.fetched.id.rootHash) };
}

/** Rows of one unit: pure apart from the account states, which come from the source per block. */
async function decodeUnit(
  mcSeqno: number,
  unit: Awaited<ReturnType<typeof collectUnit>>,
  source: BlockSource,
  contracts: ContractInputs | null,
): Promise<UnitRowsOf<Row[]>> {
  const rows: UnitRowsOf<Row[]> = {
    mcSeqno,
    mcRootHash: unit.rootHash,
    blocks: [],
    shardState: toShardStateRows(mcSeqno, unit.tops),
    transactions: [],
    messages: [],
    messageContents: [],
    accountStates: [],
    latestAccountStates: [],
  };
  const latest = new Map<string, AccountStateRows & { lt: bigint }>();
  for (const { fetched, block } of unit.blocks) {
    const id: BlockIdExt = fetched.id;
    const txs = listBlockTransactions(block);
    rows.blocks.push(toBlockRow(block, id, mcSeqno, txs.length));
    const gv = blockGlobalVersion(block);
    const lastOf = new Map<
      string,
      { address: Buffer; hash: Buffer; lt: bigint; now: number; stateHashAfter: Buffer }
    >();
    for (const t of txs) {
      const d = toTransactionRows(t.cell, id, mcSeqno, gv);
      contracts?.transactions.push(transactionInput(d.view, mcSeqno));
      rows.transactions.push(d.row);
      rows.messages.push(...d.messages);
      rows.messageContents.push(...d.contents);
      const k = t.account.toString('hex');
      const prev = lastOf.get(k);
      if (!prev || prev.lt < t.lt) {
        lastOf.set(k, {
          address: t.account,
          hash: d.view.hash,
          lt: t.lt,
          now: d.view.now,
          stateHashAfter: d.view.accountStateHashAfter,
        });
      }
    }
    if (lastOf.size === 0) continue;
    const wanted = [...lastOf.values()];
    const states = await source.accountStates(
      id,
      wanted.map((w) => w.address),
    );
    // An account left without state (account_none) is fully known from its hash, even when the source could
    // not show it (a state update does not carry the dictionary path of an account that did not change).
    const answered = new Set(states.map((s) => s.address.toString('hex')));
    for (const w of wanted) {
      if (!answered.has(w.address.toString('hex')) && w.stateHashAfter.equals(ACCOUNT_NONE.hash())) {
        states.push({
          address: w.address,
          workchain: id.workchain,
          account: ACCOUNT_NONE,
          hash: ACCOUNT_NONE.hash(),
          complete: true,
        });
      }
    }
    for (const s of states) {
      const last = lastOf.get(s.address.toString('hex'));
      if (!last) continue;
      const r = toAccountStateRows(s, last);
      rows.accountStates.push(r.state);
      const key = `${id.workchain}:${s.address.toString('hex')}`;
      const have = latest.get(key);
      if (!have || have.lt < last.lt) {
        latest.set(key, { ...r, lt: last.lt });
        if (contracts) {
          const a = accountInputOf(s, last.lt);
          if (a) contracts.states.set(key, a);
          else contracts.states.delete(key);
        }
      }
    }
  }
  rows.latestAccountStates = [...latest.values()].map((r) => r.latest);
  return rows;
}

/** A unit decoded: its core rows, and what the contract decoders and their parent lookups need. */
export interface DecodedUnit<T = TableRows> {
  rows: UnitRowsOf<T>;
  /** The masterchain block's id (absent for a declared unit without one). */
  mcId: BlockIdExt | undefined;
  tops: ShardTop[];
  /** gen_utime of the masterchain block (or of the unit's first block). */
  now: number;
  /** Contract decoders' inputs, when asked for. */
  inputs: ContractInputs | null;
}

/** Source -> parse -> decode for one unit: its core rows (and the contract decoders' inputs with `contracts`). */
export async function decodeMcBlock(
  mcSeqno: number,
  source: BlockSource,
  contracts: boolean,
): Promise<DecodedUnit<Row[]>> {
  const unit = await collectUnit(mcSeqno, source);
  const inputs: ContractInputs | null = contracts ? { transactions: [], states: new Map() } : null;
  const rows = await decodeUnit(mcSeqno, unit, source, inputs);
  const mc = unit.blocks.find((b) => b.fetched.id.workchain === -1);
  return {
    rows,
    mcId: mc?.fetched.id,
    tops: unit.tops,
    now: (mc ?? unit.blocks[0])?.block.info.genUtime ?? 0,
    inputs,
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

export type { Row };
