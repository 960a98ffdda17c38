// Interface detection for the accounts a unit changed (contracts.md §1.1): for each account, the families whose
// selecting get-method is in the code's method dictionary run their getters in our TVM, check the result types
// exactly and cross-check against the parent contract. ton-index-worker runs every detector on every account;
// filtering on the method dictionary first gives the same answers (a getter the code lacks exits with 11) for
// far fewer TVM runs. A code without a method dictionary (hand-written wallets v1-v3) belongs to none of these
// families. An account may match several families; each match is one Detected.
import { getMethodId } from '../../../../ton/index.ts';
import type { AccountInput, DetectContext, Detected, DetectedBase } from '../types.ts';
import { createDetectCache, type DetectCache } from './cache.ts';
import type { Family, FamilyEnv } from './family.ts';
import { getgemsAuctionV4, getgemsSale } from './getgems.ts';
import { createGetterRunner } from './getter.ts';
import { jettonMaster } from './jetton-master.ts';
import { jettonWallet } from './jetton-wallet.ts';
import { multisig } from './multisig.ts';
import { multisigOrder } from './multisig-order.ts';
import { nftCollection } from './nft-collection.ts';
import { nftItem } from './nft-item.ts';
import { vesting } from './vesting.ts';

const FAMILIES: readonly Family[] = [
  jettonMaster,
  jettonWallet,
  nftCollection,
  nftItem,
  multisig,
  multisigOrder,
  vesting,
  getgemsSale,
  getgemsAuctionV4,
];
const FAMILY_METHOD_IDS = FAMILIES.map((f) => getMethodId(f.getter));

/** Accounts detected at once: enough to keep a few TVM threads busy, well under the runner's queue bound. */
const CONCURRENCY = 16;

/**
 * The detected interfaces of `accounts` (in input order; several per account when it matches several families).
 * `cache` carries getter answers across calls (one cache per chain); without it each call starts empty.
 * Rejects only when the TVM or the context fails (retryable or not, as their errors say), never for contract data.
 */
export async function detectAccounts(
  accounts: AccountInput[],
  ctx: DetectContext,
  cache: DetectCache = createDetectCache(),
): Promise<Detected[]> {
  const getters = createGetterRunner(ctx, cache);

  async function detectOne(account: AccountInput): Promise<Detected[]> {
    const ids = await getters.methodIds(account.code);
    if (!ids) return [];
    const present = new Set(ids);
    const families = FAMILIES.filter((_, i) => present.has(FAMILY_METHOD_IDS[i]!));
    if (families.length === 0) return [];
    const base: DetectedBase = {
      address: account.address,
      codeHash: account.code.hash(),
      dataHash: account.data.hash(),
      lastTransLt: account.lastTransLt,
    };
    const env: FamilyEnv = { ctx, getters, has: (name) => present.has(getMethodId(name)) };
    const found = await Promise.all(families.map((f) => f.detect(account, base, env)));
    return found.filter((d): d is Detected => d !== null);
  }

  const results: Detected[][] = new Array(accounts.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < accounts.length) {
      const i = next++;
      results[i] = await detectOne(accounts[i]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, accounts.length) }, lane));
  return results.flat();
}
