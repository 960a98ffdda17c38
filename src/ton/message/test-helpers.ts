// Test-only helpers (not exported from index.ts): reading the transaction cells out of a real block
// before the block codec exists, and loading BoCs from vector files.
//   block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
//     state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;          (block.tlb:474)
//   block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr
//     account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256
//     custom:(Maybe ^McBlockExtra) = BlockExtra;                                    (block.tlb:479)
//   acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
//     state_update:^(HASH_UPDATE Account) = AccountBlock;                          (block.tlb:308)
import {
  type Cell,
  Cell as CoreCell,
  type CurrencyCollection,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { type AugDictCodec, loadHashmapAugE, loadHmLabel } from '../dict/index.ts';

export function cellFromBase64(boc: string): Cell {
  const roots = CoreCell.fromBoc(Buffer.from(boc, 'base64'));
  if (roots.length !== 1) throw new Error(`expected one root, got ${roots.length}`);
  return roots[0]!;
}

export interface BlockTx {
  accountAddr: Buffer;
  lt: bigint;
  cell: Cell;
}

const currency = {
  loadExtra: (s) => loadCurrencyCollection(s),
  storeExtra: (e: CurrencyCollection) => storeCurrencyCollection(e),
  combine: (a: CurrencyCollection, b: CurrencyCollection) => ({ coins: a.coins + b.coins }),
  empty: () => ({ coins: 0n }),
} satisfies Omit<AugDictCodec<unknown, CurrencyCollection>, 'loadValue' | 'storeValue'>;

/**
 * HashmapAug 64 ^Transaction CurrencyCollection read in place. Not dict/'s loadHashmapAug: that one
 * requires a leaf to end its cell, but here the root edge sits inside the AccountBlock, followed by
 * state_update, so a one-transaction root leaf does not end its cell.
 */
function loadTxEdge(s: Slice, n: number, prefix: bigint, out: Array<{ key: bigint; value: Cell }>): void {
  const label = loadHmLabel(s, n);
  const m = n - label.len;
  const key = (prefix << BigInt(label.len)) | label.bits;
  if (m === 0) {
    loadCurrencyCollection(s);
    out.push({ key, value: s.loadRef() });
    return;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  loadCurrencyCollection(s);
  loadTxEdge(left.beginParse(), m - 1, key << 1n, out);
  loadTxEdge(right.beginParse(), m - 1, (key << 1n) | 1n, out);
}

const accountBlockCodec: AugDictCodec<{ addr: Buffer; txs: Array<{ key: bigint; value: Cell }> }, CurrencyCollection> =
  {
    ...currency,
    loadValue: (s) => {
      const tag = s.loadUint(4);
      if (tag !== 5) throw new Error(`AccountBlock: expected tag #5, got ${tag}`);
      const addr = s.loadBuffer(32);
      const txs: Array<{ key: bigint; value: Cell }> = [];
      loadTxEdge(s, 64, 0n, txs);
      s.loadRef(); // state_update
      return { addr, txs };
    },
    storeValue: () => () => {
      throw new Error('read-only');
    },
  };

/** Every transaction cell of a full block, in (account, lt) order. */
export function blockTransactions(block: Cell): BlockTx[] {
  const extra = block.refs[3];
  const accountBlocks = extra?.refs[2];
  if (!accountBlocks) throw new Error('block has no extra/account_blocks');
  const dict = loadHashmapAugE(accountBlocks.beginParse(), 256, accountBlockCodec);
  const out: BlockTx[] = [];
  for (const e of dict.entries) {
    for (const t of e.value.txs) out.push({ accountAddr: e.value.addr, lt: t.key, cell: t.value });
  }
  return out;
}

const blockCache = new Map<string, { root: Cell; txs: BlockTx[] }>();

/** A block vector's root cell and transactions, parsed once per test file. */
export function blockFromVector(boc: string, key: string): { root: Cell; txs: BlockTx[] } {
  let b = blockCache.get(key);
  if (!b) {
    const root = cellFromBase64(boc);
    b = { root, txs: blockTransactions(root) };
    blockCache.set(key, b);
  }
  return b;
}
