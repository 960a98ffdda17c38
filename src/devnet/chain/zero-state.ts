// Zero states as crypto/block/create-state.cpp (create_state, store_custom) builds them: the basechain zero state
// of the whole workchain (shard 0:8000000000000000, seq_no 0) and the masterchain zero state whose McStateExtra
// carries the config (with ConfigParam 12 pointing at the basechain zero state), the initial validator list hash
// and an empty shard configuration (the masterchain adds the workchain in its first block).
import { type Address, beginCell, type Cell } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  addCurrencies,
  type BlockIdExt,
  loadAccountOrNone,
  loadConfigParamFrom,
  loadConfigParams,
  MASTER_SHARD,
  MASTERCHAIN,
  type McStateExtra,
  type ShardStateUnsplit,
  shardIdent,
  shardPrefixLength,
  storeShardStateUnsplit,
  type WorkchainDescr,
  zeroCurrencies,
} from '../../ton/index.ts';
import { type AccountRecord, buildAccounts, readShardAccount } from './account-dict.ts';
import { readChainConfig, withConfigParam } from './config-view.ts';
import { chainFile } from './state-parts.ts';
import type { ZeroState } from './types.ts';
import { computeValidatorNodes, validatorSetHash } from './validator-set.ts';

export interface ZeroStatesArgs {
  /** ConfigParams dictionary root; ConfigParam 12 (workchain 0) is rewritten here. */
  config: Cell;
  /** Basechain accounts as ShardAccount cells (account, zero last_trans_hash / last_trans_lt). */
  accounts: readonly Cell[];
  /** Masterchain accounts, if any (none are required). */
  masterchainAccounts?: readonly Cell[];
  /** The fixed basechain split (shardLayout(n)); sets ConfigParam 12 min_split / max_split. */
  layout: readonly bigint[];
  genUtime: number;
  globalId: number;
  /** Must be in the current validator set (ConfigParam 34). */
  validatorPublicKey: Buffer;
}

export interface ZeroStates {
  masterchain: ZeroState;
  workchain: ZeroState;
  /** The config as the masterchain zero state holds it (ConfigParam 12 updated). */
  config: Cell;
  /** The masterchain zero state, as `zero_state` of the global config names it; `initBlock` is the same id (a
   * global config names the first key block once the node has made it). */
  zeroStateId: BlockIdExt;
  initBlock: BlockIdExt;
}

/** ton-libs.md §4.3: ton-lite-client reads McStateExtra correctly only in this range. */
export const GLOBAL_BALANCE_MIN = 1n << 56n;
export const GLOBAL_BALANCE_MAX = 1n << 62n;

function accountsOf(cells: readonly Cell[], workchain: number): Map<string, AccountRecord> {
  const out = new Map<string, AccountRecord>();
  for (const cell of cells) {
    const rec = readShardAccount(cell);
    const acc = loadAccountOrNone(rec.account.beginParse());
    if (!acc) throw new CollateError('zero state: an account is account_none');
    if (acc.addr.workChain !== workchain) {
      throw new CollateError(`zero state: account ${acc.addr.toRawString()} is not in workchain ${workchain}`);
    }
    const hex = acc.addr.hash.toString('hex');
    if (out.has(hex)) throw new CollateError(`zero state: account ${acc.addr.toRawString()} given twice`);
    out.set(hex, rec);
  }
  return out;
}

function total(accounts: Map<string, AccountRecord>) {
  let t = zeroCurrencies();
  for (const r of accounts.values()) t = addCurrencies(t, r.balance);
  return t;
}

/** ConfigParam 12 for workchain 0: the zero state hashes and the split range the fixed layout needs. */
function workchainDescr(
  old: WorkchainDescr | undefined,
  p: ZeroStatesArgs,
  rootHash: Buffer,
  fileHash: Buffer,
): WorkchainDescr {
  const depths = p.layout.map(shardPrefixLength);
  const minSplit = Math.min(...depths);
  const maxSplit = Math.max(...depths);
  const common = {
    enabledSince: Math.min(old?.enabledSince ?? p.genUtime, p.genUtime),
    monitorMinSplit: Math.min(old?.monitorMinSplit ?? 0, minSplit),
    minSplit,
    maxSplit,
    basic: 1,
    active: true,
    acceptMsgs: true,
    flags: 0,
    zerostateRootHash: rootHash,
    zerostateFileHash: fileHash,
    version: old?.version ?? 0,
    format: old?.format ?? ({ kind: 'wfmt_basic', vmVersion: -1, vmMode: 0n } as const),
  };
  // Split at once (delay 0): the layout is reached in the first blocks instead of 100 s into the chain.
  return {
    kind: 'workchain_v2',
    ...common,
    splitMergeTimings: {
      splitMergeDelay: 0,
      splitMergeInterval: 100,
      minSplitMergeInterval: 30,
      maxSplitMergeDelay: 1000,
    },
    persistentStateSplitDepth: old?.kind === 'workchain_v2' ? old.persistentStateSplitDepth : 0,
  };
}

function unsplit(p: {
  globalId: number;
  workchain: number;
  genUtime: number;
  accounts: Map<string, AccountRecord>;
  custom: McStateExtra | null;
}): Cell {
  const state: ShardStateUnsplit = {
    kind: 'shard_state',
    globalId: p.globalId,
    shardId: shardIdent(p.workchain, MASTER_SHARD),
    seqNo: 0,
    vertSeqNo: 0,
    genUtime: p.genUtime,
    genLt: 0n,
    minRefMcSeqno: 0xffffffff,
    outMsgQueueInfo: { outQueue: { root: null, extra: 0n }, procInfo: null, extra: null },
    beforeSplit: false,
    accounts: buildAccounts(p.accounts),
    r1: {
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: total(p.accounts),
      totalValidatorFees: zeroCurrencies(),
      libraries: null,
      masterRef: null,
    },
    custom: p.custom,
  };
  return beginCell().store(storeShardStateUnsplit(state)).endCell();
}

function zeroState(state: Cell, workchain: number): ZeroState {
  const { boc, fileHash } = chainFile(state);
  return {
    id: { workchain, shard: MASTER_SHARD, seqno: 0, rootHash: state.hash(), fileHash },
    block: null,
    state,
    boc,
  };
}

export function createZeroStates(p: ZeroStatesArgs): ZeroStates {
  if (p.layout.length === 0) throw new CollateError('zero state: the shard layout is empty');
  const wcAccounts = accountsOf(p.accounts, 0);
  const mcAccounts = accountsOf(p.masterchainAccounts ?? [], MASTERCHAIN);
  const workchain = zeroState(
    unsplit({ globalId: p.globalId, workchain: 0, genUtime: p.genUtime, accounts: wcAccounts, custom: null }),
    0,
  );

  const params = loadConfigParams(p.config);
  const old = loadConfigParamFrom(params, 12)?.workchains ?? new Map<number, WorkchainDescr>();
  const workchains = new Map(old);
  workchains.set(0, workchainDescr(old.get(0), p, workchain.id.rootHash, workchain.id.fileHash));
  const config = withConfigParam(p.config, 12, { kind: 'config_param_12', raw: beginCell().endCell(), workchains });

  const cfg = readChainConfig(config);
  if (![...cfg.validators.list.values()].some((v) => v.publicKey.equals(p.validatorPublicKey))) {
    throw new CollateError('zero state: the validator key is not in the current validator set (ConfigParam 34)');
  }
  const nodes = computeValidatorNodes(cfg.catchain, MASTERCHAIN, MASTER_SHARD, cfg.validators, 0);
  const globalBalance = addCurrencies(total(wcAccounts), total(mcAccounts));
  if (globalBalance.coins < GLOBAL_BALANCE_MIN || globalBalance.coins >= GLOBAL_BALANCE_MAX) {
    throw new CollateError(
      `zero state: the total balance ${globalBalance.coins} nanoton is outside [2^56, 2^62), which ton-lite-client cannot read back`,
    );
  }
  const custom: McStateExtra = {
    shardHashes: null,
    config: { configAddr: cfg.configAddr, config },
    r1: {
      flags: 0,
      validatorInfo: { validatorListHashShort: validatorSetHash(0, nodes), catchainSeqno: 0, nxCcUpdated: true },
      prevBlocks: { root: null, extra: { key: false, maxEndLt: 0n } },
      afterKeyBlock: true,
      lastKeyBlock: null,
      blockCreateStats: null,
    },
    globalBalance,
  };
  const masterchain = zeroState(
    unsplit({ globalId: p.globalId, workchain: MASTERCHAIN, genUtime: p.genUtime, accounts: mcAccounts, custom }),
    MASTERCHAIN,
  );
  return { masterchain, workchain, config, zeroStateId: masterchain.id, initBlock: masterchain.id };
}

/**
 * A ShardAccount of an uninitialised account holding `balance`, as create-state registers a pre-initialised
 * smart contract (mode 1): storage_stat counts the AccountStorage cell, nothing paid, no transactions yet.
 * Useful as a genesis reserve that brings global_balance into range.
 */
export function uninitAccount(address: Address, balance: bigint): Cell {
  const storage = beginCell().storeUint(0, 64).storeCoins(balance).storeBit(false).storeUint(0, 2).endCell();
  const account = beginCell()
    .storeBit(true)
    .storeAddress(address)
    .storeVarUint(1, 3)
    .storeVarUint(storage.bits.length, 3)
    .storeUint(0, 3)
    .storeUint(0, 33)
    .storeSlice(storage.beginParse())
    .endCell();
  return beginCell().storeRef(account).storeBuffer(Buffer.alloc(32)).storeUint(0, 64).endCell();
}
