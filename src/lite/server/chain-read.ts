// Readers for the parts of blocks and states the handlers need, written to touch only the cells the node's
// tlb::unpack calls load (a record's own cell, its anonymous ^[ … ] cells), so proofs built from tracked
// reads hold what a reference liteserver's proofs hold. Every reader accepts virtual trees: reaching a pruned
// branch is a 651 answer (the node does not hold that part).
import { type Cell, CellType, type Slice } from '@ton/core';
import {
  type BlockInfo,
  loadBlockInfo,
  loadMcStateExtraR1,
  loadMerkleUpdate,
  type McStateExtraR1,
  serializeBoc,
} from '../../ton/index.ts';
import { open } from './cell-walk.ts';
import { badRequest, notFound } from './lite-errors.ts';

const BLOCK_TAG = 0x11ef55aa;
const SHARD_STATE_TAG = 0x9023afe2;
const MC_STATE_EXTRA_TAG = 0xcc26;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;
const MC_BLOCK_EXTRA_TAG = 0xcca5;

/** A BoC as the node's std_boc_serialize writes it (no index, no CRC). */
export function boc(...roots: Cell[]): Buffer {
  return serializeBoc(roots, { crc32: false });
}

export interface BlockParts {
  info: Cell;
  valueFlow: Cell;
  stateUpdate: Cell;
  extra: Cell;
}

/** block#11ef55aa global_id:int32 info:^ value_flow:^ state_update:^ extra:^ — reads the root cell only. */
export function blockParts(root: Cell, what: string): BlockParts {
  const s = open(root, what);
  const tag = s.loadUint(32);
  if (tag !== BLOCK_TAG) throw badRequest(`${what}: expected Block tag 0x11ef55aa, got 0x${tag.toString(16)}`);
  s.loadInt(32);
  return { info: s.loadRef(), valueFlow: s.loadRef(), stateUpdate: s.loadRef(), extra: s.loadRef() };
}

export function readBlockInfo(parts: BlockParts, what: string): BlockInfo {
  return loadBlockInfo(open(parts.info, `${what} BlockInfo`));
}

/** The state hash after the block: new_hash of its state_update (reads the update cell, not the states). */
export function stateUpdateNewHash(parts: BlockParts, what: string): Buffer {
  const upd = parts.stateUpdate;
  if (upd.type === CellType.PrunedBranch) throw notFound(`${what} state_update is not known to this node (pruned)`);
  // The node checks the cell is a Merkle update of exactly 552 bits and two refs (size_ext 0x20228).
  if (upd.type !== CellType.MerkleUpdate || upd.bits.length !== 552 || upd.refs.length !== 2) {
    throw badRequest(`${what}: invalid Merkle update in block`);
  }
  return loadMerkleUpdate(upd.beginParse(true)).newHash;
}

/** Touches every cell below `cell` (the node's `visit`); a pruned part means the node lacks it (651). */
export function visitAll(cell: Cell, what: string): void {
  const seen = new Set<string>();
  const stack: Cell[] = [cell];
  while (stack.length > 0) {
    const c = stack.pop() as Cell;
    if (c.type === CellType.PrunedBranch) throw notFound(`${what} is not known to this node (pruned)`);
    const key = c.hash().toString('latin1');
    if (seen.has(key)) continue;
    seen.add(key);
    for (const r of c.refs) stack.push(r);
  }
}

export interface BlockExtraParts {
  inMsgDescr: Cell;
  outMsgDescr: Cell;
  accountBlocks: Cell;
  /** McBlockExtra cell (masterchain blocks). */
  custom: Cell | null;
}

/** block_extra in_msg_descr:^ out_msg_descr:^ account_blocks:^ rand_seed created_by custom:(Maybe ^McBlockExtra). */
export function readBlockExtra(parts: BlockParts, what: string): BlockExtraParts {
  const s = open(parts.extra, `${what} BlockExtra`);
  const tag = s.loadUint(32);
  if (tag !== BLOCK_EXTRA_TAG)
    throw badRequest(`${what}: expected BlockExtra tag 0x4a33f6fd, got 0x${tag.toString(16)}`);
  const inMsgDescr = s.loadRef();
  const outMsgDescr = s.loadRef();
  const accountBlocks = s.loadRef();
  s.skip(512);
  const custom = s.loadBit() ? s.loadRef() : null;
  return { inMsgDescr, outMsgDescr, accountBlocks, custom };
}

export interface McBlockExtraParts {
  keyBlock: boolean;
  /** ShardHashes root (HashmapE 32), not opened. */
  shardHashes: Cell | null;
  /** The ^[ prev_blk_signatures recover_create_msg mint_msg ] cell (opened, as the node's unpack does). */
  r1: Cell;
  /** Key blocks: the ConfigParams dict root and the config contract address. */
  config: { configAddr: Buffer; root: Cell } | null;
}

/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg mint_msg ]
 *   config:key_block?ConfigParams
 */
export function readMcBlockExtra(custom: Cell, what: string): McBlockExtraParts {
  const s = open(custom, `${what} McBlockExtra`);
  const tag = s.loadUint(16);
  if (tag !== MC_BLOCK_EXTRA_TAG)
    throw badRequest(`${what}: expected McBlockExtra tag 0xcca5, got 0x${tag.toString(16)}`);
  const keyBlock = s.loadBit();
  const shardHashes = s.loadBit() ? s.loadRef() : null;
  // shard_fees:(HashmapAugE 96 ShardFeeCreated ShardFeeCreated): root flag (+ ref), then the root extra.
  if (s.loadBit()) s.loadRef();
  skipCurrencyCollection(s);
  skipCurrencyCollection(s);
  const r1 = s.loadRef();
  open(r1, `${what} McBlockExtra`);
  const config = keyBlock ? { configAddr: s.loadBuffer(32), root: s.loadRef() } : null;
  return { keyBlock, shardHashes, r1, config };
}

export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  if (s.loadBit()) s.loadRef();
}

export interface StateRoot {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  outMsgQueueInfo: Cell;
  accounts: Cell;
  /** The ^[ overload_history … master_ref ] cell (opened). */
  r1: Cell;
  /** McStateExtra cell, masterchain states only. */
  custom: Cell | null;
}

/** shard_state#9023afe2 …: the root cell and its ^[ … ] cell, as tlb::unpack_cell(ShardStateUnsplit) loads. */
export function readStateRoot(root: Cell, what: string): StateRoot {
  const s = open(root, what);
  const tag = s.loadUint(32);
  if (tag !== SHARD_STATE_TAG) {
    throw badRequest(`${what}: expected ShardStateUnsplit tag 0x9023afe2, got 0x${tag.toString(16)}`);
  }
  const globalId = s.loadInt(32);
  s.loadUint(2);
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  const seqno = s.loadUint(32);
  s.loadUint(32);
  const genUtime = s.loadUint(32);
  const genLt = s.loadUintBig(64);
  s.loadUint(32);
  const outMsgQueueInfo = s.loadRef();
  s.loadBit();
  const accounts = s.loadRef();
  const r1 = s.loadRef();
  open(r1, `${what} (ShardStateUnsplit)`);
  const custom = s.loadBit() ? s.loadRef() : null;
  const shard = prefix | (1n << BigInt(63 - pfxBits));
  return { globalId, workchain, shard, seqno, genUtime, genLt, outMsgQueueInfo, accounts, r1, custom };
}

/** The libraries dict root of a state (ShardStateUnsplit's ^[ … ] cell), without opening it. */
export function stateLibraries(state: StateRoot, what: string): Cell | null {
  const s = open(state.r1, what);
  s.skip(128);
  skipCurrencyCollection(s);
  skipCurrencyCollection(s);
  return s.loadBit() ? s.loadRef() : null;
}

export interface McStateExtraParts {
  shardHashes: Cell | null;
  configAddr: Buffer;
  configRoot: Cell;
  r1: McStateExtraR1;
}

/** masterchain_state_extra#cc26 and its ^[ … ] cell, as tlb::unpack_cell(McStateExtra) loads. */
export function readMcStateExtra(state: StateRoot, what: string): McStateExtraParts {
  if (!state.custom) throw badRequest(`${what}: not a masterchain state (no McStateExtra)`);
  const s = open(state.custom, `${what} McStateExtra`);
  const tag = s.loadUint(16);
  if (tag !== MC_STATE_EXTRA_TAG)
    throw badRequest(`${what}: expected McStateExtra tag 0xcc26, got 0x${tag.toString(16)}`);
  const shardHashes = s.loadBit() ? s.loadRef() : null;
  const configAddr = s.loadBuffer(32);
  const configRoot = s.loadRef();
  const r1 = loadMcStateExtraR1(open(s.loadRef(), `${what} McStateExtra`));
  return { shardHashes, configAddr, configRoot, r1 };
}
