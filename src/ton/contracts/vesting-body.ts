// Vesting wallet (ton-blockchain/vesting-contract) internal bodies, contracts.md §7.2. Its external body is
// wallet-v3 shaped (wallets-body.ts reads it).
import { type Address, loadMessageRelaxed, type MessageRelaxed, type Slice } from '@ton/core';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import { loadMsgAddress, refuse } from './body-reader.ts';
import { VESTING_OP } from './vesting.ts';

// send#a7733acd query_id:uint64 send_mode:uint8 msg:^MessageRelaxed  (from owner_address)
export interface VestingSend {
  queryId: bigint;
  sendMode: number;
  msg: MessageRelaxed;
}

export function loadVestingSend(s: Slice): VestingSend {
  return { queryId: s.loadUintBig(64), sendMode: s.loadUint(8), msg: loadMessageRelaxed(s.loadRef().beginParse()) };
}

// add_whitelist#7258a69b query_id:uint64 addr:MsgAddress [^(addr [^(...)])]  (from vesting_sender_address)
export interface VestingAddWhitelist {
  queryId: bigint;
  addresses: Address[];
}

export function loadVestingAddWhitelist(s: Slice): VestingAddWhitelist {
  const queryId = s.loadUintBig(64);
  const addresses: Address[] = [];
  let cur = s;
  for (;;) {
    if (addresses.length >= 1024) refuse('add_whitelist: chain too long');
    const a = loadMsgAddress(cur);
    if (a) addresses.push(a);
    if (cur.remainingRefs === 0) break;
    cur = cur.loadRef().beginParse();
  }
  return { queryId, addresses };
}

export const VESTING_BODIES = [
  bodyParser('vesting_send_message', VESTING_OP.send, loadVestingSend),
  bodyParser('vesting_send_message_response', VESTING_OP.sendResponse, loadQueryOnly),
  bodyParser('vesting_add_white_list', VESTING_OP.addWhitelist, loadVestingAddWhitelist),
  bodyParser('vesting_add_white_list_response', VESTING_OP.addWhitelistResponse, loadQueryOnly),
] as const;
