// block.tlb:740-749
// // msg_fwd_fees = (lump_price + ceil((bit_price * msg.bits + cell_price * msg.cells)/2^16)) nanograms
// // ihr_fwd_fees = ceil((msg_fwd_fees * ihr_price_factor)/2^16) nanograms
// // bits in the root cell of a message are not included in msg.bits (lump_price pays for them)
// msg_forward_prices#ea lump_price:uint64 bit_price:uint64 cell_price:uint64
//   ihr_price_factor:uint32 first_frac:uint16 next_frac:uint16 = MsgForwardPrices;
//
// // used for messages to/from masterchain
// config_mc_fwd_prices#_ MsgForwardPrices = ConfigParam 24;
// // used for all other messages
// config_fwd_prices#_ MsgForwardPrices = ConfigParam 25;
import type { Builder, Slice } from '@ton/core';
import { loadTag } from './codec-helpers.ts';

export type MsgForwardPrices = {
  lumpPrice: bigint;
  bitPrice: bigint;
  cellPrice: bigint;
  ihrPriceFactor: number;
  firstFrac: number;
  nextFrac: number;
};

export function loadMsgForwardPrices(slice: Slice): MsgForwardPrices {
  loadTag(slice, 8, [0xea], 'MsgForwardPrices');
  return {
    lumpPrice: slice.loadUintBig(64),
    bitPrice: slice.loadUintBig(64),
    cellPrice: slice.loadUintBig(64),
    ihrPriceFactor: slice.loadUint(32),
    firstFrac: slice.loadUint(16),
    nextFrac: slice.loadUint(16),
  };
}

export function storeMsgForwardPrices(value: MsgForwardPrices): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xea, 8);
    b.storeUint(value.lumpPrice, 64);
    b.storeUint(value.bitPrice, 64);
    b.storeUint(value.cellPrice, 64);
    b.storeUint(value.ihrPriceFactor, 32);
    b.storeUint(value.firstFrac, 16);
    b.storeUint(value.nextFrac, 16);
  };
}
