// Account states read from a block's own state_update (MERKLE_UPDATE ShardState): the new side holds every
// account the block changed, with unchanged subtrees (usually code, often data) replaced by pruned branches.
// Used by sources that have block files but no shard states (the devnet store's file layer without a
// liteserver, BoC files). Hashes, balances and statuses are exact; code and data BoCs may be pruned, so
// these states come back with `complete: false`.
import { beginCell, type Cell } from '@ton/core';
import { IndexError } from '../../common/index.ts';
import type { Block } from '../block/index.ts';
import { lookupHashmapInProof, PRUNED_PATH } from '../contract/index.ts';
import { isPrunedCell, loadDepthBalanceInfo } from '../state/index.ts';
import type { AccountStateAfter } from './types.ts';

const SHARD_STATE_TAG = 0x9023afe2;

/** account_none$0: the Account cell of an account that does not exist. */
export const ACCOUNT_NONE = beginCell().storeBit(false).endCell();

/**
 * The Account cell of `address` in a ShardStateUnsplit root (a full state, a proof or an update side), or
 * null when the accounts dictionary has no such key or the path to it is pruned. The cell itself may be a
 * pruned branch (a liteserver's state proof stops at the leaf): its hash(0) is still the account's hash.
 * A key the dictionary provably lacks is account_none (ACCOUNT_NONE).
 */
export function accountInState(stateRoot: Cell, address: Buffer): Cell | null {
  if (isPrunedCell(stateRoot)) return null;
  const s = stateRoot.beginParse(true);
  const tag = s.loadUint(32);
  if (tag !== SHARD_STATE_TAG) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `shard state: expected ShardStateUnsplit tag 0x9023afe2, got 0x${tag.toString(16)}`,
    );
  }
  // shard_state#9023afe2 … out_msg_queue_info:^OutMsgQueueInfo before_split:(## 1) accounts:^ShardAccounts …
  const accountsRef = stateRoot.refs[1];
  if (!accountsRef || isPrunedCell(accountsRef)) return null;
  const a = accountsRef.beginParse(true);
  if (!a.loadBit()) return ACCOUNT_NONE; // ahme_empty
  // ShardAccounts is HashmapAugE 256 ShardAccount DepthBalanceInfo: at a leaf the extra, then the ShardAccount,
  // whose first reference is the Account.
  const leaf = lookupHashmapInProof(a.loadRef(), 256, BigInt(`0x${address.toString('hex')}`));
  if (leaf === null) return ACCOUNT_NONE;
  if (leaf === PRUNED_PATH) return null;
  loadDepthBalanceInfo(leaf);
  return leaf.loadRef();
}

/** States after `block` of the given accounts that its state update contains (the changed ones). */
export function statesFromStateUpdate(block: Block, addresses: readonly Buffer[]): AccountStateAfter[] {
  return statesFromNewState(block.stateUpdate.cell.refs[1], block.info.shard.workchainId, addresses);
}

/**
 * The new side of a block's state update (MERKLE_UPDATE ShardState: ref 1) without decoding the block: the
 * Block cell's third reference is its state_update (block#11ef55aa … value_flow:^ValueFlow state_update:^…).
 */
export function stateUpdateNewSide(blockRoot: Cell): Cell | undefined {
  return blockRoot.refs[2]?.refs[1];
}

/** statesFromStateUpdate for the new side of the update alone (see stateUpdateNewSide). */
export function statesFromNewState(
  newState: Cell | undefined,
  workchain: number,
  addresses: readonly Buffer[],
): AccountStateAfter[] {
  if (!newState) return [];
  const out: AccountStateAfter[] = [];
  for (const address of addresses) {
    const account = accountInState(newState, address);
    if (account && !isPrunedCell(account))
      out.push({ address, workchain, account, hash: account.hash(0), complete: account === ACCOUNT_NONE });
  }
  return out;
}
