// block.tlb:350-354
//   tr_phase_bounce_negfunds$00 = TrBouncePhase;
//   tr_phase_bounce_nofunds$01 msg_size:StorageUsed
//     req_fwd_fees:Grams = TrBouncePhase;
//   tr_phase_bounce_ok$1 msg_size:StorageUsed
//     msg_fees:Grams fwd_fees:Grams = TrBouncePhase;
import type { Builder, Slice } from '@ton/core';
import { loadStorageUsed, type StorageUsed, storeStorageUsed } from './storage-used.ts';
import { decoding, loadGrams, storeGrams } from './util.ts';

export type TrBouncePhase =
  | { kind: 'tr_phase_bounce_negfunds' }
  | { kind: 'tr_phase_bounce_nofunds'; msgSize: StorageUsed; reqFwdFees: bigint }
  | { kind: 'tr_phase_bounce_ok'; msgSize: StorageUsed; msgFees: bigint; fwdFees: bigint };

const T = 'TrBouncePhase';

export function loadTrBouncePhase(s: Slice): TrBouncePhase {
  return decoding(T, () => {
    if (s.loadBit()) {
      const msgSize = loadStorageUsed(s);
      const msgFees = loadGrams(s, T, 'msg_fees');
      return { kind: 'tr_phase_bounce_ok', msgSize, msgFees, fwdFees: loadGrams(s, T, 'fwd_fees') };
    }
    if (!s.loadBit()) return { kind: 'tr_phase_bounce_negfunds' };
    const msgSize = loadStorageUsed(s);
    return { kind: 'tr_phase_bounce_nofunds', msgSize, reqFwdFees: loadGrams(s, T, 'req_fwd_fees') };
  });
}

export function storeTrBouncePhase(v: TrBouncePhase): (b: Builder) => void {
  return (b) => {
    switch (v.kind) {
      case 'tr_phase_bounce_negfunds':
        b.storeUint(0, 2);
        return;
      case 'tr_phase_bounce_nofunds':
        b.storeUint(1, 2).store(storeStorageUsed(v.msgSize));
        storeGrams(b, v.reqFwdFees, T, 'req_fwd_fees');
        return;
      case 'tr_phase_bounce_ok':
        b.storeBit(true).store(storeStorageUsed(v.msgSize));
        storeGrams(b, v.msgFees, T, 'msg_fees');
        storeGrams(b, v.fwdFees, T, 'fwd_fees');
        return;
    }
  };
}
