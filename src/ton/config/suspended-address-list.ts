// block.tlb:838-840
// // key is [ wc:int32 addr:uint256 ]
// suspended_address_list#00 addresses:(HashmapE 288 Unit) suspended_until:uint32 = SuspendedAddressList;
// _ SuspendedAddressList = ConfigParam 44;
import { Address, type Builder, type Slice } from '@ton/core';
import { loadKeySet, loadTag, storeKeySet } from './codec-helpers.ts';

export type SuspendedAddressList = {
  /** In key order: by workchain as an unsigned 32-bit value, then by account id. */
  addresses: Address[];
  suspendedUntil: number;
};

const ID_BITS = 256n;
const ID_MASK = (1n << ID_BITS) - 1n;

function keyToAddress(key: bigint): Address {
  const workchain = Number(BigInt.asIntN(32, key >> ID_BITS));
  return new Address(workchain, Buffer.from((key & ID_MASK).toString(16).padStart(64, '0'), 'hex'));
}

function addressToKey(address: Address): bigint {
  const id = BigInt(`0x${address.hash.toString('hex')}`);
  return (BigInt.asUintN(32, BigInt(address.workChain)) << ID_BITS) | id;
}

export function loadSuspendedAddressList(slice: Slice): SuspendedAddressList {
  loadTag(slice, 8, [0x00], 'SuspendedAddressList');
  const addresses = loadKeySet(slice, 288).map(keyToAddress);
  return { addresses, suspendedUntil: slice.loadUint(32) };
}

export function storeSuspendedAddressList(value: SuspendedAddressList): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x00, 8);
    b.store(storeKeySet(value.addresses.map(addressToKey), 288));
    b.storeUint(value.suspendedUntil, 32);
  };
}
