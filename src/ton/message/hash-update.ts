// block.tlb:304-305
//   update_hashes#72 {X:Type} old_hash:bits256 new_hash:bits256 = HASH_UPDATE X;
import type { Builder, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadBits256, storeBits256 } from './util.ts';

export interface HashUpdate {
  oldHash: Buffer;
  newHash: Buffer;
}

const T = 'HASH_UPDATE';

export function loadHashUpdate(s: Slice): HashUpdate {
  if (s.remainingBits < 8) throw new CodecError(`${T}: expected tag #72, got only ${s.remainingBits} bits`);
  const tag = s.loadUint(8);
  if (tag !== 0x72) throw new CodecError(`${T}: expected tag #72, got #${tag.toString(16).padStart(2, '0')}`);
  return { oldHash: loadBits256(s, T, 'old_hash'), newHash: loadBits256(s, T, 'new_hash') };
}

export function storeHashUpdate(v: HashUpdate): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x72, 8);
    storeBits256(b, v.oldHash, T, 'old_hash');
    storeBits256(b, v.newHash, T, 'new_hash');
  };
}
