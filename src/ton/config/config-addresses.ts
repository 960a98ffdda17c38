// block.tlb:623-627
// _ config_addr:bits256 = ConfigParam 0;
// _ elector_addr:bits256 = ConfigParam 1;
// _ minter_addr:bits256 = ConfigParam 2;  // ConfigParam 0 is used if absent
// _ fee_collector_addr:bits256 = ConfigParam 3;  // ConfigParam 1 is used if absent
// _ dns_root_addr:bits256 = ConfigParam 4;  // root TON DNS resolver
//
// These are account ids in the masterchain (workchain -1); only the 256-bit id is stored.
import type { Builder, Slice } from '@ton/core';
import { loadBits256, storeBits256 } from './codec-helpers.ts';

export type ConfigParam0 = { configAddr: Buffer };
export type ConfigParam1 = { electorAddr: Buffer };
export type ConfigParam2 = { minterAddr: Buffer };
export type ConfigParam3 = { feeCollectorAddr: Buffer };
export type ConfigParam4 = { dnsRootAddr: Buffer };

export function loadConfigParam0(slice: Slice): ConfigParam0 {
  return { configAddr: loadBits256(slice) };
}
export function storeConfigParam0(value: ConfigParam0): (b: Builder) => void {
  return (b) => storeBits256(b, value.configAddr, 'ConfigParam0', 'config_addr');
}

export function loadConfigParam1(slice: Slice): ConfigParam1 {
  return { electorAddr: loadBits256(slice) };
}
export function storeConfigParam1(value: ConfigParam1): (b: Builder) => void {
  return (b) => storeBits256(b, value.electorAddr, 'ConfigParam1', 'elector_addr');
}

export function loadConfigParam2(slice: Slice): ConfigParam2 {
  return { minterAddr: loadBits256(slice) };
}
export function storeConfigParam2(value: ConfigParam2): (b: Builder) => void {
  return (b) => storeBits256(b, value.minterAddr, 'ConfigParam2', 'minter_addr');
}

export function loadConfigParam3(slice: Slice): ConfigParam3 {
  return { feeCollectorAddr: loadBits256(slice) };
}
export function storeConfigParam3(value: ConfigParam3): (b: Builder) => void {
  return (b) => storeBits256(b, value.feeCollectorAddr, 'ConfigParam3', 'fee_collector_addr');
}

export function loadConfigParam4(slice: Slice): ConfigParam4 {
  return { dnsRootAddr: loadBits256(slice) };
}
export function storeConfigParam4(value: ConfigParam4): (b: Builder) => void {
  return (b) => storeBits256(b, value.dnsRootAddr, 'ConfigParam4', 'dns_root_addr');
}
