// block.tlb:689-694
// complaint_prices#1a deposit:Grams bit_price:Grams cell_price:Grams = ComplaintPricing;
// _ ComplaintPricing = ConfigParam 13;
//
// block_grams_created#6b masterchain_block_fee:Grams basechain_block_fee:Grams
//   = BlockCreateFees;
// _ BlockCreateFees = ConfigParam 14;
import type { Builder, Slice } from '@ton/core';
import { loadTag } from './codec-helpers.ts';

export type ComplaintPricing = { deposit: bigint; bitPrice: bigint; cellPrice: bigint };

export function loadComplaintPricing(slice: Slice): ComplaintPricing {
  loadTag(slice, 8, [0x1a], 'ComplaintPricing');
  return { deposit: slice.loadCoins(), bitPrice: slice.loadCoins(), cellPrice: slice.loadCoins() };
}

export function storeComplaintPricing(value: ComplaintPricing): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x1a, 8);
    b.storeCoins(value.deposit);
    b.storeCoins(value.bitPrice);
    b.storeCoins(value.cellPrice);
  };
}

export type BlockCreateFees = { masterchainBlockFee: bigint; basechainBlockFee: bigint };

export function loadBlockCreateFees(slice: Slice): BlockCreateFees {
  loadTag(slice, 8, [0x6b], 'BlockCreateFees');
  return { masterchainBlockFee: slice.loadCoins(), basechainBlockFee: slice.loadCoins() };
}

export function storeBlockCreateFees(value: BlockCreateFees): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x6b, 8);
    b.storeCoins(value.masterchainBlockFee);
    b.storeCoins(value.basechainBlockFee);
  };
}
