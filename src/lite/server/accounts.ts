// getAccountState(Prunned), runSmcMethod and getShardInfo: a block proof, a state proof down the accounts
// dictionary, and for basechain accounts asked at a masterchain block the shard proof through its
// McStateExtra.shard_hashes (LiteQuery::perform_getAccountState / finish_getAccountState / finish_runSmcMethod).
import { type Cell, CellType, loadAccount, parseTuple } from '@ton/core';
import { Lru } from '../../common/lru.ts';
import {
  accountPrefix,
  type BlockIdExt,
  buildMerkleProof,
  loadExtBlkRef,
  parseBoc,
  shardContains,
  trackCellUsage,
} from '../../ton/index.ts';
import { stateRootProof } from './block-proofs.ts';
import { dictLookupRoot, findShardLeaf, open } from './cell-walk.ts';
import { boc, readMcStateExtra, readStateRoot, skipCurrencyCollection, visitAll } from './chain-read.ts';
import {
  type HandlerContext,
  type HandlerTable,
  loadBlock,
  loadState,
  requireMasterchainId,
} from './handler-context.ts';
import {
  addressKey,
  formatBlockId,
  fromTlBlockId,
  invalidBlockId,
  isValidFull,
  isValidId,
  toTlBlockId,
  toUnsigned64,
} from './ids.ts';
import { badRequest, notFound } from './lite-errors.ts';

const PARAMS_LIMIT = 65536;
/** Exit code the node reports when the account is missing or not active. */
const EXIT_NO_ACCOUNT = -0x100;

interface AccountLookup {
  /** The reference block (echoed as `id`). */
  base: BlockIdExt;
  /** The block whose state holds the account (null: no shard of the masterchain state contains it). */
  shardBlk: BlockIdExt | null;
  shardProof: Buffer;
  /** [state root proof of shardBlk, state proof down to the account leaf]. */
  proof: Buffer;
  /** The Account cell (untracked); null when the dictionary has no such account. */
  account: Cell | null;
  genUtime: number;
  genLt: bigint;
  /** The masterchain block whose state runSmcMethod takes its configuration from. */
  mcBlock: BlockIdExt | null;
}

export async function lookupAccount(
  ctx: HandlerContext,
  tlId: BlockIdExt,
  workchain: number,
  address: Buffer,
): Promise<AccountLookup> {
  if (tlId.workchain !== -1 && tlId.workchain !== workchain) {
    throw badRequest('reference block for a getAccountState() must belong to the masterchain');
  }
  if (!isValidId(tlId)) throw badRequest('reference block id for a getAccountState() is invalid');
  const prefix = accountPrefix(address);
  if (workchain === tlId.workchain && !shardContains(tlId.shard, prefix)) {
    throw badRequest('requested account id is not contained in the shard of the reference block');
  }
  if (tlId.workchain !== -1) {
    if (!isValidFull(tlId)) throw badRequest('invalid block id requested');
    return finishLookup(ctx, tlId, tlId, Buffer.alloc(0), address, null);
  }
  // seqno 0xffffffff (TL int -1): the node's last masterchain block.
  const base = tlId.seqno === -1 || tlId.seqno === 0xffffffff ? (await ctx.view.masterchainInfo()).last : tlId;
  requireMasterchainId(base);
  const mcRec = await loadBlock(ctx, base);
  const mcState = await loadState(ctx, base);
  if (workchain === -1) return finishLookup(ctx, base, base, Buffer.alloc(0), address, base);
  // The shard proof is the path to the account's shard in the masterchain state: the same for every account of
  // that shard at that block, so each (block, shard) is proved once and kept.
  const known = shardProofsOf(base.rootHash, workchain);
  const cached = known.find((k) => shardContains(k.top.shard, prefix));
  if (cached) return finishLookup(ctx, base, cached.top, cached.shardProof, address, base);
  const proof3 = stateRootProof(mcRec.root, base, mcState.hash(0));
  const usage = trackCellUsage(mcState);
  const leaf = shardLeafOf(usage.root, base, workchain, prefix | 1n, false);
  const proof4 = buildMerkleProof(mcState, usage.visited);
  const shardProof = boc(proof3, proof4);
  if (!leaf) {
    return {
      base,
      shardBlk: null,
      shardProof,
      proof: Buffer.alloc(0),
      account: null,
      genUtime: 0,
      genLt: 0n,
      mcBlock: base,
    };
  }
  known.push({ top: leaf.top, shardProof });
  return finishLookup(ctx, base, leaf.top, shardProof, address, base);
}

/** Shard proofs made for recent masterchain blocks: by block root hash and workchain, one per shard asked about. */
const shardProofs = new Lru<string, { top: BlockIdExt; shardProof: Buffer }[]>(256);

function shardProofsOf(rootHash: Buffer, workchain: number): { top: BlockIdExt; shardProof: Buffer }[] {
  const key = `${rootHash.toString('hex')}:${workchain}`;
  let list = shardProofs.get(key);
  if (!list) {
    list = [];
    shardProofs.set(key, list);
  }
  return list;
}

async function finishLookup(
  ctx: HandlerContext,
  base: BlockIdExt,
  blk: BlockIdExt,
  shardProof: Buffer,
  address: Buffer,
  mcBlock: BlockIdExt | null,
): Promise<AccountLookup> {
  const rec = await loadBlock(ctx, blk);
  const state = await loadState(ctx, blk);
  const proof1 = stateRootProof(rec.root, blk, state.hash(0));
  const usage = trackCellUsage(state);
  const found = accountLeaf(usage.root, blk, address);
  const proof2 = buildMerkleProof(state, usage.visited);
  // The Account cell itself, untracked (the walk above did not open it: the proof keeps it pruned).
  const account = found?.account ? (usage.originalOf(found.account) ?? found.account) : null;
  return {
    base,
    shardBlk: blk,
    shardProof,
    proof: boc(proof1, proof2),
    account,
    genUtime: found?.genUtime ?? 0,
    genLt: found?.genLt ?? 0n,
    mcBlock: mcBlock ?? found?.masterRef ?? null,
  };
}

/** ShardStateUnsplit → accounts → the leaf of `address`; the ^Account cell itself is not opened. */
function accountLeaf(
  stateRoot: Cell,
  blk: BlockIdExt,
  address: Buffer,
): { account: Cell | null; genUtime: number; genLt: bigint; masterRef: BlockIdExt | null } | null {
  const what = `state of ${formatBlockId(blk)}`;
  const st = readStateRoot(stateRoot, what);
  const s = open(st.accounts, `${what} ShardAccounts`);
  const root = s.loadBit() ? s.loadRef() : null;
  const leaf = dictLookupRoot(root, 256, addressKey(address), `${what} ShardAccounts`);
  let account: Cell | null = null;
  if (leaf) {
    // DepthBalanceInfo: split_depth:(#<= 30) balance:CurrencyCollection, then ShardAccount's ^Account.
    leaf.loadUint(5);
    skipCurrencyCollection(leaf);
    account = leaf.loadRef();
  }
  return { account, genUtime: st.genUtime, genLt: st.genLt, masterRef: stateMasterRef(st.r1) };
}

/** master_ref:(Maybe BlkMasterInfo) at the end of the state's ^[ … ] cell (shard states). */
function stateMasterRef(r1: Cell): BlockIdExt | null {
  if (r1.type === CellType.PrunedBranch) return null;
  const s = r1.beginParse();
  s.skip(128);
  skipCurrencyCollection(s);
  skipCurrencyCollection(s);
  if (s.loadBit()) s.loadRef();
  if (!s.loadBit()) return null;
  const ref = loadExtBlkRef(s);
  return {
    workchain: -1,
    shard: 0x8000000000000000n,
    seqno: ref.seqNo,
    rootHash: ref.rootHash,
    fileHash: ref.fileHash,
  };
}

export interface FoundShard {
  top: BlockIdExt;
  leafCell: Cell;
}

/** make_shard_info_proof's read: McStateExtra.shard_hashes down to the leaf for `shard` (an account leaf shard). */
export function shardLeafOf(
  mcStateRoot: Cell,
  base: BlockIdExt,
  workchain: number,
  shard: bigint,
  exact: boolean,
): FoundShard | null {
  const what = `masterchain state of ${formatBlockId(base)}`;
  const st = readStateRoot(mcStateRoot, what);
  const extra = readMcStateExtra(st, what);
  if (workchain === -1) return null;
  const leaf = findShardLeaf(extra.shardHashes, workchain, shard, exact, `${what} shard_hashes`);
  if (!leaf) return null;
  const d = leaf.descr;
  d.loadUint(4);
  const seqno = d.loadUint(32);
  d.skip(32 + 64 + 64);
  const rootHash = d.loadBuffer(32);
  const fileHash = d.loadBuffer(32);
  return { top: { workchain, shard: leaf.shard, seqno, rootHash, fileHash }, leafCell: leaf.cell };
}

function accountStateAnswer(l: AccountLookup, state: Buffer) {
  return {
    _: 'liteServer.accountState' as const,
    id: toTlBlockId(l.base),
    shardblk: toTlBlockId(l.shardBlk ?? invalidBlockId()),
    shardProof: l.shardProof,
    proof: l.proof,
    state,
  };
}

function knownAccount(account: Cell, address: Buffer): Cell {
  if (account.type === CellType.PrunedBranch) {
    throw notFound(`state of account ${address.toString('hex')} is not known to this node (only its hash)`);
  }
  return account;
}

/** The Account with code, data and libraries pruned (extra currencies kept), as getAccountStatePrunned sends it. */
function prunedAccount(account: Cell): Cell {
  const usage = trackCellUsage(account);
  const s = usage.root.beginParse();
  const parsed = parseAccount(account);
  if (parsed?.storage.balance.other && parsed.storage.balance.other.size > 0) {
    // The extra-currency dictionary is the first reference of the account cell.
    visitAll(s.loadRef(), 'account extra currencies');
  }
  return buildMerkleProof(account, usage.visited);
}

export const accountHandlers: HandlerTable = {
  'liteServer.getAccountState': async (q, ctx) => {
    const l = await lookupAccount(ctx, fromTlBlockId(q.id), q.account.workchain, q.account.id);
    const state = l.account ? boc(knownAccount(l.account, q.account.id)) : Buffer.alloc(0);
    return accountStateAnswer(l, state);
  },

  'liteServer.getAccountStatePrunned': async (q, ctx) => {
    const l = await lookupAccount(ctx, fromTlBlockId(q.id), q.account.workchain, q.account.id);
    const state = l.account ? boc(prunedAccount(knownAccount(l.account, q.account.id))) : Buffer.alloc(0);
    return accountStateAnswer(l, state);
  },

  'liteServer.runSmcMethod': async (q, ctx) => {
    if (q.params.length >= PARAMS_LIMIT) throw badRequest('more than 64k parameter bytes passed');
    if (q.mode & ~0x3f) throw badRequest('unsupported mode in runSmcMethod');
    const stack = parseParams(q.params);
    const l = await lookupAccount(ctx, fromTlBlockId(q.id), q.account.workchain, q.account.id);
    const mode = q.mode & 0xffff;
    const result = (exitCode: number, stateProof: Buffer, resultBoc: Buffer, c7: Buffer) => {
      const r: {
        _: 'liteServer.runMethodResult';
        mode: number;
        id: ReturnType<typeof toTlBlockId>;
        shardblk: ReturnType<typeof toTlBlockId>;
        shardProof?: Buffer;
        proof?: Buffer;
        stateProof?: Buffer;
        initC7?: Buffer;
        libExtras?: Buffer;
        exitCode: number;
        result?: Buffer;
      } = {
        _: 'liteServer.runMethodResult',
        mode,
        id: toTlBlockId(l.base),
        shardblk: toTlBlockId(l.shardBlk ?? invalidBlockId()),
        exitCode,
      };
      if (mode & 1) {
        r.shardProof = l.shardProof;
        r.proof = l.proof;
      }
      if (mode & 2) r.stateProof = stateProof;
      if (mode & 8) r.initC7 = c7;
      if (mode & 16) r.libExtras = Buffer.alloc(0);
      if (mode & 4) r.result = resultBoc;
      return r;
    };
    const empty = Buffer.alloc(0);
    if (!l.account) return result(EXIT_NO_ACCOUNT, empty, empty, empty);
    const account = knownAccount(l.account, q.account.id);
    const parsed = parseAccount(account);
    if (parsed?.storage.state.type !== 'active') {
      // The node's proof of what its unpack read: the account cell itself.
      const usage = trackCellUsage(account);
      usage.root.beginParse();
      return result(EXIT_NO_ACCOUNT, mode & 2 ? boc(buildMerkleProof(account, usage.visited)) : empty, empty, empty);
    }
    if (!ctx.view.runGetMethod) throw badRequest('get-methods are not supported by this node');
    if (!l.shardBlk || !l.mcBlock) throw notFound('masterchain ref block is not available');
    const run = await ctx.view.runGetMethod({
      workchain: q.account.workchain,
      address: q.account.id,
      account,
      methodId: q.methodId,
      stack,
      block: l.shardBlk,
      mcBlock: l.mcBlock,
      genUtime: l.genUtime,
      genLt: l.genLt,
      wantC7: (mode & 8) !== 0,
    });
    // The VM may have read any part of code and data: the state proof keeps the whole account.
    const stateProof = mode & 2 ? boc(buildMerkleProof(account, () => true)) : empty;
    return result(run.exitCode, stateProof, mode & 4 ? boc(run.stack) : empty, run.c7 ? boc(run.c7) : empty);
  },

  'liteServer.getShardInfo': async (q, ctx) => {
    const shard = toUnsigned64(q.shard);
    if (!isValidId({ workchain: q.workchain, shard })) throw badRequest('requested shard is invalid');
    const id = fromTlBlockId(q.id);
    requireMasterchainId(id);
    const rec = await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const proof1 = stateRootProof(rec.root, id, state.hash(0));
    const usage = trackCellUsage(state);
    const found = shardLeafOf(usage.root, id, q.workchain, shard, q.exact);
    const proof2 = buildMerkleProof(state, usage.visited);
    const plain = found ? shardLeafOf(state, id, q.workchain, shard, q.exact) : null;
    return {
      _: 'liteServer.shardInfo',
      id: toTlBlockId(id),
      shardblk: toTlBlockId(plain ? plain.top : invalidBlockId()),
      shardProof: boc(proof1, proof2),
      shardDescr: plain ? boc(plain.leafCell) : Buffer.alloc(0),
    };
  },
};

/** account$1 …, or null for account_none$0. */
function parseAccount(account: Cell): ReturnType<typeof loadAccount> | null {
  const s = account.beginParse();
  return s.loadBit() ? loadAccount(s) : null;
}

/** The params BoC must hold one VmStack (without continuations, as the node requires). */
function parseParams(params: Buffer): Cell | null {
  if (params.length === 0) return null;
  let roots: Cell[];
  try {
    roots = parseBoc(params);
  } catch (e) {
    throw badRequest(`cannot deserialize parameter list boc: ${(e as Error).message}`);
  }
  const [root] = roots;
  if (roots.length !== 1 || !root) throw badRequest('cannot deserialize parameter list boc: expected one root');
  try {
    parseTuple(root);
  } catch {
    throw badRequest('parameter list boc cannot be deserialized as a VmStack');
  }
  return root;
}
