// Mintless jetton claims (contracts.md §2.2-2.3): a transfer's custom_payload merkle_airdrop_claim carries a Merkle
// proof of the airdrop dictionary `_ (HashMap 267 AirdropItem) = Airdrop` keyed by the owner's 267-bit addr_std.
// The item for one owner is found by walking the proof's dictionary along that key; branches the proof prunes
// are not followed (the owner is then not provable from this claim).
import { type Address, beginCell, type Cell, type Slice } from '@ton/core';
import { loadHmLabel } from '../dict/hm-label.ts';
import type { MerkleAirdropClaim } from './jetton-body.ts';

const KEY_BITS = 267;

// _ amount:Coins start_from:uint48 expired_at:uint48 = AirdropItem;
export interface AirdropItem {
  amount: bigint;
  startFrom: number;
  expiredAt: number;
}

export function loadAirdropItem(s: Slice): AirdropItem {
  return { amount: s.loadCoins(), startFrom: s.loadUint(48), expiredAt: s.loadUint(48) };
}

/** The dictionary value at `key` (KEY_BITS wide), or null when absent or pruned away. */
function lookup(root: Cell, key: bigint): Slice | null {
  let cell = root;
  let left = KEY_BITS;
  for (;;) {
    if (cell.isExotic) return null;
    const s = cell.beginParse();
    const label = loadHmLabel(s, left);
    const want = (key >> BigInt(left - label.len)) & ((1n << BigInt(label.len)) - 1n);
    if (want !== label.bits) return null;
    left -= label.len;
    if (left === 0) return s;
    const bit = Number((key >> BigInt(left - 1)) & 1n);
    left -= 1;
    cell = s.loadRef();
    if (bit === 1) cell = s.loadRef();
  }
}

/** The airdrop item `owner` claims with `claim`, or null when the proof does not hold it. Total: never throws. */
export function airdropItemOf(claim: MerkleAirdropClaim, owner: Address): AirdropItem | null {
  try {
    const proof = claim.proof.beginParse(true);
    if (proof.loadUint(8) !== 3) return null; // exotic type 3: Merkle proof; ref 0 is the proven dictionary
    const key = beginCell().storeAddress(owner).endCell().beginParse().loadUintBig(KEY_BITS);
    const value = lookup(claim.proof.refs[0]!, key);
    return value ? loadAirdropItem(value) : null;
  } catch {
    return null;
  }
}
