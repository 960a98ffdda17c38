// What the activity needs from the chain, as a small interface: the liteserver pool implements it (the real
// client path), and tests may implement it over another engine. Everything reads at the newest masterchain block.
import {
  type Address,
  type Cell,
  loadTransaction,
  parseTuple,
  serializeTuple,
  type Transaction,
  type TupleItem,
} from '@ton/core';
import type { BlockRef, LiteMethods } from '../../lite/index.ts';
import { cellsFromBoc } from '../../ton/index.ts';

export type AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

export interface AccountSnapshot {
  status: AccountStatus;
  balance: bigint;
  lastTx: { lt: bigint; hash: Buffer } | null;
}

export interface GetterResult {
  exitCode: number;
  stack: TupleItem[];
}

export interface ActivityChain {
  /** The chain's current unix time (wallet messages are valid from it). */
  now(): Promise<number>;
  getAccount(address: Address): Promise<AccountSnapshot>;
  /** A get-method at the head; a missing or inactive account gives a non-zero exit code, not an error. */
  runGetMethod(address: Address, method: string, args?: TupleItem[]): Promise<GetterResult>;
  sendExternal(message: Cell): Promise<void>;
  /** The account's newest transactions, newest first, at most `limit` (≤ 16). */
  getTransactions(address: Address, limit: number): Promise<Transaction[]>;
}

async function head(lite: LiteMethods): Promise<BlockRef> {
  const { last } = await lite.getMasterchainInfo();
  return {
    workchain: last.workchain,
    shard: last.shard,
    seqno: last.seqno,
    rootHash: last.rootHash,
    fileHash: last.fileHash,
  };
}

/** The activity's chain view over liteserver calls (a LitePool, or a pinned client). */
export function liteActivityChain(lite: LiteMethods): ActivityChain {
  const getAccount = async (address: Address): Promise<AccountSnapshot> => {
    const s = await lite.getAccountState(address, await head(lite));
    const status: AccountStatus = !s.state
      ? 'nonexist'
      : s.state.storage.state.type === 'active'
        ? 'active'
        : s.state.storage.state.type === 'frozen'
          ? 'frozen'
          : 'uninit';
    const lastTx = s.lastTx
      ? { lt: s.lastTx.lt, hash: Buffer.from(s.lastTx.hash.toString(16).padStart(64, '0'), 'hex') }
      : null;
    return { status, balance: s.balance.coins, lastTx };
  };
  return {
    now: () => lite.getTime(),
    getAccount,
    async runGetMethod(address, method, args = []) {
      const r = await lite.runMethod(address, method, serializeTuple(args).toBoc(), await head(lite));
      const stack = r.result && (r.exitCode === 0 || r.exitCode === 1) ? parseTuple(cellsFromBoc(r.result)[0]!) : [];
      return { exitCode: r.exitCode, stack };
    },
    async sendExternal(message) {
      await lite.sendMessage(message.toBoc());
    },
    async getTransactions(address, limit) {
      const acct = await getAccount(address);
      if (!acct.lastTx || acct.lastTx.lt === 0n) return [];
      const r = await lite.getTransactions(address, acct.lastTx.lt, acct.lastTx.hash, Math.min(limit, 16));
      return cellsFromBoc(r.transactions).map((c) => loadTransaction(c.beginParse()));
    },
  };
}
