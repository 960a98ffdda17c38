// block.tlb:270-272
//   account_none$0 = Account;
//   account$1 addr:MsgAddressInt storage_stat:StorageInfo
//             storage:AccountStorage = Account;
// block.tlb:287-292
//   account_descr$_ account:^Account last_trans_hash:bits256
//     last_trans_lt:uint64 = ShardAccount;
//
//   depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo;
//
//   _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;
//
// The body of account$1 is @ton/core's Account (it re-encodes the real accounts bit-exactly); we add the
// account_none case, the pruned case (proofs prune the Account of most leaves) and the augmentation.
import { type Account, type Builder, beginCell, type Cell, loadAccount, type Slice, storeAccount } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding } from '../block/codec-util.ts';
import { zeroCurrencies } from '../block/currency.ts';
import type { AugDict, AugDictCodec, AugEntry } from '../dict/index.ts';
import {
  addPrunableCurrencies,
  loadPrunableCurrencies,
  type PrunableCurrencyCollection,
  storePrunableCurrencies,
} from './currencies.ts';
import { type AugDictRoot, augDictEntries, buildAugDictRoot, loadAugDictRoot, storeAugDictRoot } from './dict-root.ts';
import { isPruned, loadPrunableCell, type Prunable, prunedOf, storePrunableRef } from './pruned.ts';

export interface DepthBalanceInfo {
  splitDepth: number;
  balance: PrunableCurrencyCollection;
}

export function loadDepthBalanceInfo(s: Slice): DepthBalanceInfo {
  return decoding('DepthBalanceInfo', () => {
    const splitDepth = s.loadUint(5);
    if (splitDepth > 30) throw new CodecError(`DepthBalanceInfo: expected split_depth <= 30, got ${splitDepth}`);
    return { splitDepth, balance: loadPrunableCurrencies(s) };
  });
}

export function storeDepthBalanceInfo(v: DepthBalanceInfo): (b: Builder) => void {
  if (v.splitDepth < 0 || v.splitDepth > 30) {
    throw new CodecError(`DepthBalanceInfo: expected split_depth in 0..30, got ${v.splitDepth}`);
  }
  return (b) => {
    b.storeUint(v.splitDepth, 5).store(storePrunableCurrencies(v.balance));
  };
}

/** A fork's extra (DepthBalanceInfo::add_values): the deeper split_depth, the balances summed. */
export function combineDepthBalanceInfo(left: DepthBalanceInfo, right: DepthBalanceInfo): DepthBalanceInfo {
  return {
    splitDepth: Math.max(left.splitDepth, right.splitDepth),
    balance: addPrunableCurrencies(left.balance, right.balance),
  };
}

/** The extra of an empty ShardAccounts (DepthBalanceInfo::null_value). */
export function emptyDepthBalanceInfo(): DepthBalanceInfo {
  return { splitDepth: 0, balance: zeroCurrencies() };
}

/**
 * A leaf's extra as the node computes it from the account (Account::skip_copy_depth_balance): the
 * anycast depth of its address (always 0 here: anycast accounts are refused by loadAccountOrNone) and its
 * balance; account_none counts as zero.
 */
export function depthBalanceInfoOf(account: Account | null): DepthBalanceInfo {
  return account ? { splitDepth: 0, balance: account.storage.balance } : emptyDepthBalanceInfo();
}

/** Account: `null` for account_none$0, otherwise the body of account$1 as @ton/core decodes it. */
export function loadAccountOrNone(s: Slice): Account | null {
  return decoding('Account', () => {
    if (!s.loadBit()) return null;
    // @ton/core's Address has no anycast: it would fold the rewrite prefix into the hash and write it
    // back without it, so such an account could not be re-encoded. addr_var ($11) it refuses itself.
    if (s.remainingBits >= 3 && s.preloadUint(3) === 0b101) {
      throw new CodecError('Account: expected addr_std without anycast, got an anycast address');
    }
    return loadAccount(s);
  });
}

export function storeAccountOrNone(account: Account | null): (b: Builder) => void {
  return (b) => {
    if (account === null) b.storeBit(false);
    else b.storeBit(true).store(storeAccount(account));
  };
}

export interface ShardAccount {
  /**
   * `null` is account_none. Pruned when a proof pruned the account, or pruned a part of it that @ton/core's
   * Account cannot carry (a library dictionary, extra currencies): then only its hash and cell are known.
   */
  account: Prunable<Account | null>;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

/** ^Account; an account above pruned cells is kept decoded only if it re-encodes to the same cell. */
function loadAccountRef(c: Cell): Prunable<Account | null> {
  const v = loadPrunableCell(c, 'Account', loadAccountOrNone);
  if (isPruned(v) || c.level() === 0) return v;
  // @ton/core reads a pruned dictionary (libraries, extra currencies) as empty and would drop it.
  return beginCell().store(storeAccountOrNone(v)).endCell().hash().equals(c.hash()) ? v : prunedOf(c);
}

export function loadShardAccount(s: Slice): ShardAccount {
  return decoding('ShardAccount', () => ({
    account: loadAccountRef(s.loadRef()),
    lastTransHash: s.loadBuffer(32),
    lastTransLt: s.loadUintBig(64),
  }));
}

export function storeShardAccount(v: ShardAccount): (b: Builder) => void {
  if (v.lastTransHash.length !== 32) {
    throw new CodecError(`ShardAccount: expected last_trans_hash of 32 bytes, got ${v.lastTransHash.length}`);
  }
  return (b) => {
    b.store(storePrunableRef(v.account, storeAccountOrNone))
      .storeBuffer(v.lastTransHash, 32)
      .storeUint(v.lastTransLt, 64);
  };
}

/** The leaf extra of a ShardAccount, when its account is present. */
export function shardAccountExtra(v: ShardAccount): DepthBalanceInfo {
  if (isPruned(v.account)) {
    throw new CodecError('ShardAccount: cannot compute DepthBalanceInfo, the account is a pruned branch');
  }
  return depthBalanceInfoOf(v.account);
}

export const shardAccountsCodec: AugDictCodec<ShardAccount, DepthBalanceInfo> = {
  loadValue: loadShardAccount,
  storeValue: storeShardAccount,
  loadExtra: loadDepthBalanceInfo,
  storeExtra: storeDepthBalanceInfo,
  combine: combineDepthBalanceInfo,
  empty: emptyDepthBalanceInfo,
};

/** ShardAccounts as it arrived: the root (keyed by the 256-bit account id) and the shard's total. */
export type ShardAccounts = AugDictRoot<DepthBalanceInfo>;

export function loadShardAccounts(s: Slice): ShardAccounts {
  return decoding('ShardAccounts', () => loadAugDictRoot(s, loadDepthBalanceInfo));
}

export function storeShardAccounts(v: ShardAccounts): (b: Builder) => void {
  return storeAugDictRoot(v, storeDepthBalanceInfo);
}

/** Every account present (keys are account ids); `pruned` counts the subtrees a proof left out. */
export function shardAccountEntries(v: ShardAccounts): AugDict<ShardAccount, DepthBalanceInfo> {
  return decoding('ShardAccounts', () => augDictEntries(v, 256, shardAccountsCodec));
}

/** Builds ShardAccounts from entries (leaf extras as given; see `shardAccountExtra`). */
export function buildShardAccounts(entries: AugEntry<ShardAccount, DepthBalanceInfo>[]): ShardAccounts {
  return buildAugDictRoot(entries, 256, shardAccountsCodec);
}
