// What the account methods and the emulator read from the chain through the liteserver pool, the way tonlib reads
// it (tonlib/TonlibClient.cpp GetRawAccountState, crypto/block/check-proof.cpp check_account_proof):
//   - the masterchain block to read at: the head, or the block with a given seqno;
//   - an account at that block: its Account cell, the last transaction id from the state proof, and
//     `sync_utime` = gen_utime of the shard block that holds the account (from the same proof);
//   - the latest config (tonlib runs get-methods and fee estimates with_last_config, whatever block the state
//     came from) and the libraries a contract's code refers to.
// The account proof is checked against the shard block the liteserver names (as tonlib's check_account_proof
// does); the shard block's own proof from the masterchain block (shard_proof) is not checked here.
import { type Account, type Address, beginCell, type Cell, CellType, Dictionary, type StateInit } from '@ton/core';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { CodecError, ProofError } from '../../common/index.ts';
import type { LiteMethods, PinnedLiteClient } from '../../lite/index.ts';
import {
  extraCurrencyMap,
  isPruned,
  loadAccountOrNone,
  loadBlockInfo,
  loadShardStateUnsplit,
  MC_SHARD_TEXT,
  parseBoc,
  prunableCell,
  shardAccountEntries,
  storeAccountOrNone,
  verifyProofBoc,
  verifyStateProof,
} from '../../ton/index.ts';
import { LATEST_TTL_MS } from './cache.ts';
import type { V2Context } from './context.ts';

/** The masterchain shard as a signed 64-bit decimal. */
export { MC_SHARD_TEXT as MC_SHARD } from '../../ton/index.ts';

/** The config changes only at key blocks; tonlib itself refreshes its last config lazily. */
export const CONFIG_TTL_MS = 10_000;
/** A library is immutable by hash; its absence is re-checked after this long. */
export const LIBRARY_TTL_MS = 60_000;

export type AccountStatusV2 = 'uninitialized' | 'active' | 'frozen';

export interface AccountAt {
  address: Address;
  /** The masterchain block the state was read at (block_id in the answers). */
  block: tonNode_blockIdExt;
  shardBlock: tonNode_blockIdExt;
  /** gen_utime of the shard block (tonlib's sync_utime). */
  syncUtime: number;
  /** The Account cell, or null for account_none. */
  accountCell: Cell | null;
  account: Account | null;
  lastTransLt: bigint;
  lastTransHash: Buffer;
  balance: bigint;
  extraCurrencies: Map<number, bigint>;
  code: Cell | null;
  data: Cell | null;
  /** state_hash of a frozen account. */
  frozenHash: Buffer | null;
  /** toncenter's rule: no code and no frozen hash is uninitialized, no code with a frozen hash is frozen. */
  status: AccountStatusV2;
}

/**
 * The head as this server last gave it, asked again after LATEST_TTL_MS: an account read at the head then costs one
 * liteserver round trip, not two (as tonlib behind toncenter reads accounts at the last block it synced instead of
 * asking for the head each time). Per server, so the state is asked of a server that knows the block.
 */
export function serverHead(ctx: V2Context, lite: PinnedLiteClient): Promise<tonNode_blockIdExt> {
  return ctx.cache.get(`head:${lite.server}`, LATEST_TTL_MS, () => masterchainBlock(lite));
}

/** The head masterchain block, or the one with `seqno` (tonlib: blocks.lookupBlock, then withBlock). */
export async function masterchainBlock(lite: LiteMethods, seqno?: number): Promise<tonNode_blockIdExt> {
  if (seqno === undefined) return (await lite.getMasterchainInfo()).last;
  return (await lite.lookupBlock({ workchain: -1, shard: MC_SHARD_TEXT, seqno })).id;
}

function proofFailure(what: string, e: unknown): never {
  if (e instanceof ProofError || e instanceof CodecError) throw e;
  throw new ProofError(`${what}: ${(e as Error).message}`, { cause: e });
}

/** Reads `address` at masterchain block `block`; the account proof is checked against the shard block. */
export async function readAccount(lite: LiteMethods, address: Address, block: tonNode_blockIdExt): Promise<AccountAt> {
  const res = await lite.query(Functions.liteServer_getAccountState, {
    kind: 'liteServer.getAccountState',
    id: block,
    account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
  });
  const what = `account ${address.toRawString()} at ${res.shardblk.workchain}:${res.shardblk.shard}:${res.shardblk.seqno}`;
  if (res.id.seqno !== block.seqno || !Buffer.from(res.id.rootHash).equals(Buffer.from(block.rootHash))) {
    throw new ProofError(`${what}: the liteserver answered for masterchain block ${res.id.seqno}, not ${block.seqno}`);
  }
  let accountCell: Cell | null = null;
  if (res.state.length > 0) {
    try {
      accountCell = parseBoc(res.state)[0] ?? null;
    } catch (e) {
      proofFailure(`${what}: the state is not a BoC`, e);
    }
  }
  let syncUtime = 0;
  let lastTransLt = 0n;
  let lastTransHash: Buffer = Buffer.alloc(32);
  try {
    const proven = verifyProofBoc(res.proof, res.shardblk.rootHash);
    syncUtime = loadBlockInfo(proven.block.refs[0]!.beginParse(true)).genUtime;
    if (!proven.state) throw new ProofError('the proof has no state part');
    const state = loadShardStateUnsplit(proven.state.beginParse(true));
    if (isPruned(state.accounts)) throw new ProofError('the accounts dictionary is pruned');
    const key = BigInt(`0x${address.hash.toString('hex')}`);
    const leaf = shardAccountEntries(state.accounts).entries.find((e) => e.key === key);
    if (leaf) {
      const v = leaf.value.account;
      const proofHash = isPruned(v) ? v.hash : prunableCell(v, storeAccountOrNone).hash();
      const sentHash = (accountCell ?? beginCell().storeBit(false).endCell()).hash();
      if (!proofHash.equals(sentHash)) throw new ProofError('the account state differs from the one the proof shows');
      lastTransLt = leaf.value.lastTransLt;
      lastTransHash = leaf.value.lastTransHash;
    } else if (accountCell !== null && accountCell.bits.length > 1) {
      throw new ProofError('the proof shows no such account, the liteserver sent one');
    }
  } catch (e) {
    proofFailure(`${what}: bad account proof`, e);
  }
  let decoded: DecodedAccount;
  try {
    decoded = decodeAccount(accountCell);
  } catch (e) {
    proofFailure(`${what}: the Account does not decode`, e);
  }
  return { address, block: res.id, shardBlock: res.shardblk, syncUtime, lastTransLt, lastTransHash, ...decoded };
}

export type DecodedAccount = Pick<
  AccountAt,
  'accountCell' | 'account' | 'balance' | 'extraCurrencies' | 'code' | 'data' | 'frozenHash' | 'status'
>;

/** The fields the answers show of an Account cell (null or account_none: a never-used address). */
export function decodeAccount(accountCell: Cell | null): DecodedAccount {
  const account = accountCell === null ? null : loadAccountOrNone(accountCell.beginParse());
  let code: Cell | null = null;
  let data: Cell | null = null;
  let frozenHash: Buffer | null = null;
  const st = account?.storage.state;
  if (st?.type === 'active') {
    code = (st.state as StateInit).code ?? null;
    data = (st.state as StateInit).data ?? null;
  } else if (st?.type === 'frozen') {
    frozenHash = Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex');
  }
  return {
    accountCell: account === null ? null : accountCell,
    account,
    balance: account?.storage.balance.coins ?? 0n,
    extraCurrencies: extraCurrencyMap(account?.storage.balance.other),
    code,
    data,
    frozenHash,
    status: code !== null ? 'active' : frozenHash !== null ? 'frozen' : 'uninitialized',
  };
}

/** ShardAccount (block.tlb:287) of the account as read: what the emulator runs a transaction on. */
export function shardAccountCell(a: AccountAt): Cell {
  return beginCell()
    .storeRef(a.accountCell ?? beginCell().storeBit(false).endCell())
    .storeBuffer(a.lastTransHash, 32)
    .storeUint(a.lastTransLt, 64)
    .endCell();
}

/** The ConfigParams dictionary root of the newest masterchain state (cached for CONFIG_TTL_MS). */
export function latestConfig(ctx: V2Context): Promise<Cell> {
  return ctx.cache.get('emulate:config', CONFIG_TTL_MS, () =>
    ctx.lite.withServer(async (lite) => {
      const head = await masterchainBlock(lite);
      const info = await lite.getConfigAll(head);
      try {
        const [blockProof] = parseBoc(info.stateProof);
        const [configProof] = parseBoc(info.configProof);
        if (!blockProof || !configProof) throw new ProofError('getConfigAll: empty proof');
        const { state } = verifyStateProof(blockProof, configProof, head.rootHash);
        const custom = loadShardStateUnsplit(state.beginParse(true)).custom;
        if (custom === null || isPruned(custom)) throw new ProofError('getConfigAll: the state has no McStateExtra');
        return custom.config.config;
      } catch (e) {
        proofFailure(`getConfigAll at ${head.seqno}`, e);
      }
    }),
  );
}

/** Library cells (exotic type 2) reachable from `root`, by hash; `seen` bounds the walk across calls. */
function libraryRefs(root: Cell, seen: Set<string>, out: Set<string>, budget: { cells: number }): void {
  const stack = [root];
  while (stack.length > 0 && budget.cells > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    budget.cells--;
    if (c.type === CellType.Library) {
      out.add(c.bits.subbuffer(8, 256)!.toString('hex'));
      continue;
    }
    stack.push(...c.refs);
  }
}

/**
 * The libraries `code` needs, as the Hashmap 256 ^Cell the emulator takes, or null when it needs none. Like tonlib's
 * deep_library_search: library cells in the code, then in the libraries found, a few levels deep.
 */
export async function librariesFor(ctx: V2Context, code: Cell | null): Promise<Cell | null> {
  if (code === null) return null;
  const seen = new Set<string>();
  const budget = { cells: 100_000 };
  const found = new Map<string, Cell>();
  let pending = new Set<string>();
  libraryRefs(code, seen, pending, budget);
  for (let depth = 0; depth < 24 && pending.size > 0; depth++) {
    const next = new Set<string>();
    const loaded = await Promise.all(
      [...pending].slice(0, 256).map(async (h) => {
        const lib = await ctx.cache.get(`emulate:lib:${h}`, LIBRARY_TTL_MS, async () => {
          const r = await ctx.lite.getLibraries([Buffer.from(h, 'hex')]);
          const entry = r.result.find((e) => e.hash.toString('hex') === h);
          if (!entry) return null;
          const cell = parseBoc(entry.data)[0];
          return cell?.hash().toString('hex') === h ? cell : null;
        });
        return [h, lib] as const;
      }),
    );
    for (const [h, lib] of loaded) {
      if (!lib || found.has(h)) continue;
      found.set(h, lib);
      libraryRefs(lib, seen, next, budget);
    }
    pending = next;
  }
  if (found.size === 0) return null;
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [h, lib] of found) dict.set(Buffer.from(h, 'hex'), lib);
  return beginCell().storeDictDirect(dict).endCell();
}
