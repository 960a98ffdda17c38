// What the store reads out of a block or zero-state file to index it: the id, the header facts lookups use,
// the new state hash, and every transaction with the messages it received and sent. Only the parts needed
// are decoded (BlockInfo, ShardAccountBlocks, the message refs), so the indexes come from the block itself.
import { createHash } from 'node:crypto';
import { type Cell, CellType, Dictionary } from '@ton/core';
import { StoreError } from '../../common/errors.ts';
import {
  type BlockIdExt,
  type BlockInfo,
  loadBlockInfo,
  loadShardAccountBlocks,
  loadShardIdentTlb,
  messageFromCell,
  normalizedMessageHash,
  parseBoc,
  shardIdOf,
} from '../../ton/index.ts';

export interface MessageRef {
  hash: Buffer;
  direction: 'in' | 'out';
  normalized: boolean;
}

export interface TxFacts {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
  messages: MessageRef[];
}

export interface BlockFacts {
  root: Cell;
  id: BlockIdExt;
  info: BlockInfo;
  /** Level-0 hash of the state after the block (state_update new hash). */
  newStateHash: Buffer;
  transactions: TxFacts[];
}

export interface ZeroStateFacts {
  root: Cell;
  id: BlockIdExt;
  genLt: bigint;
  genUtime: number;
}

const BLOCK_TAG = 0x11ef55aa;
const SHARD_STATE_TAG = 0x9023afe2;

function rejected(message: string, cause?: unknown): StoreError {
  return new StoreError('TG_DEVNET_STORE_REJECTED', message, cause === undefined ? {} : { cause });
}

function singleRoot(boc: Buffer, what: string): Cell {
  let roots: Cell[];
  try {
    roots = parseBoc(boc);
  } catch (e) {
    throw rejected(`${what}: not a BoC: ${(e as Error).message}`, e);
  }
  if (roots.length !== 1) throw rejected(`${what}: expected a BoC with one root, got ${roots.length}`);
  return roots[0]!;
}

/** The message's normalized hash; null if our strict decoder refuses it (the block is still stored). */
function normalizedHash(msg: Cell): Buffer | null {
  try {
    return normalizedMessageHash(messageFromCell(msg));
  } catch {
    return null;
  }
}

function messagesOf(tx: Cell): MessageRef[] {
  const out: MessageRef[] = [];
  const s = tx.refs[0]!.beginParse();
  if (s.loadBit()) {
    const inMsg = s.loadRef();
    out.push({ hash: inMsg.hash(), direction: 'in', normalized: false });
    // External-in messages are also found by their normalized hash (what wallets and toncenter report).
    if (inMsg.bits.length >= 2 && inMsg.bits.at(0) && !inMsg.bits.at(1)) {
      const norm = normalizedHash(inMsg);
      if (norm && !norm.equals(inMsg.hash())) out.push({ hash: norm, direction: 'in', normalized: true });
    }
  }
  const outMsgs = Dictionary.loadDirect(Dictionary.Keys.Uint(15), Dictionary.Values.Cell(), s.loadMaybeRef());
  for (const k of outMsgs.keys().sort((a, b) => a - b)) {
    out.push({ hash: outMsgs.get(k)!.hash(), direction: 'out', normalized: false });
  }
  return out;
}

export function readBlockFacts(boc: Buffer): BlockFacts {
  const root = singleRoot(boc, 'block');
  try {
    const s = root.beginParse();
    const tag = s.loadUint(32);
    if (tag !== BLOCK_TAG) throw rejected(`block: expected tag 0x${BLOCK_TAG.toString(16)}, got 0x${tag.toString(16)}`);
    if (root.refs.length !== 4) throw rejected(`block: expected 4 refs, got ${root.refs.length}`);
    const info = loadBlockInfo(root.refs[0]!.beginParse());
    const update = root.refs[2]!;
    if (update.type !== CellType.MerkleUpdate) throw rejected('block: state_update is not a Merkle-update cell');
    const us = update.beginParse(true);
    us.skip(8 + 256);
    const newStateHash = us.loadBuffer(32);
    const workchain = info.shard.workchainId;
    const accountBlocks = loadShardAccountBlocks(root.refs[3]!.refs[2]!.beginParse());
    const transactions: TxFacts[] = [];
    for (const { value: acc } of accountBlocks.entries) {
      for (const { key: lt, value: cell } of acc.transactions.entries) {
        transactions.push({ account: acc.accountAddr, lt, hash: cell.hash(), cell, messages: messagesOf(cell) });
      }
    }
    const id: BlockIdExt = {
      workchain,
      shard: shardIdOf(info.shard),
      seqno: info.seqNo,
      rootHash: root.hash(),
      fileHash: createHash('sha256').update(boc).digest(),
    };
    return { root, id, info, newStateHash, transactions };
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw rejected(`block: cannot decode: ${(e as Error).message}`, e);
  }
}

/** A zero state (ShardStateUnsplit with seq_no 0); its id's root hash is the state root's level-0 hash. */
export function readZeroStateFacts(boc: Buffer): ZeroStateFacts {
  const root = singleRoot(boc, 'zero state');
  try {
    const s = root.beginParse(true);
    const tag = s.loadUint(32);
    if (tag !== SHARD_STATE_TAG) {
      throw rejected(
        `zero state: expected ShardStateUnsplit tag 0x${SHARD_STATE_TAG.toString(16)}, got 0x${tag.toString(16)}`,
      );
    }
    s.skip(32); // global_id
    const shard = loadShardIdentTlb(s);
    const seqno = s.loadUint(32);
    if (seqno !== 0) throw rejected(`zero state: expected seq_no 0, got ${seqno}`);
    s.skip(32); // vert_seq_no
    const genUtime = s.loadUint(32);
    const genLt = s.loadUintBig(64);
    const id: BlockIdExt = {
      workchain: shard.workchainId,
      shard: shardIdOf(shard),
      seqno: 0,
      rootHash: root.hash(0),
      fileHash: createHash('sha256').update(boc).digest(),
    };
    return { root, id, genLt, genUtime };
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw rejected(`zero state: cannot decode: ${(e as Error).message}`, e);
  }
}
