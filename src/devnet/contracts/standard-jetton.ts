// The jetton codes tonweb ships (JettonMinter f95ba033…, JettonWallet 4adf4813…): an early token-contract build
// with the v1 storage of jetton.ts (contracts.md §2.1) and the TEP-74 messages, so jetton.ts's writers and readers
// apply as they are. This module supplies the codes, StateInits and the wallet address derivation with them, and a
// mint body in tonweb's shape (mint#15 whose master_msg is an internal_transfer from addr_none).
import { type Address, beginCell, type Cell, contractAddress, type StateInit } from '@ton/core';
import {
  jettonWalletAddress,
  jettonWalletStateInit,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonMinterData,
} from './jetton.ts';
import { type EitherCellRef, NO_PAYLOAD, toCell } from './payload.ts';
import { standardCodes } from './standard-codes.ts';

/** The minter's StateInit with tonweb's codes; `content` is TEP-64 (tonweb writes off-chain: 0x01 + URI). */
export function standardJettonMinterStateInit(v: {
  adminAddress: Address | null;
  content: Cell;
  totalSupply?: bigint;
}): StateInit {
  const codes = standardCodes();
  const data = beginCell()
    .store(
      storeJettonMinterData({
        totalSupply: v.totalSupply ?? 0n,
        adminAddress: v.adminAddress,
        content: v.content,
        jettonWalletCode: codes.jettonWallet,
      }),
    )
    .endCell();
  return { code: codes.jettonMinter, data };
}

export function standardJettonMinterAddress(init: StateInit): Address {
  return contractAddress(0, init);
}

/** An owner's wallet StateInit (balance 0, owner, master, wallet code), as the minter deploys it. */
export function standardJettonWalletStateInit(master: Address, owner: Address): StateInit {
  return jettonWalletStateInit(master, owner, standardCodes().jettonWallet);
}

/** The wallet address the minter's get_wallet_address derives. */
export function standardJettonWalletAddress(master: Address, owner: Address): Address {
  return jettonWalletAddress(master, owner, standardCodes().jettonWallet);
}

/**
 * mint#00000015 query_id to_address ton_amount ^internal_transfer: the minter sends `tonAmount` with the
 * internal_transfer to the owner's wallet (deploying it) and adds `jettonAmount` to the supply. With the defaults
 * (no response address, no forward TON or payload) it is bit for bit tonweb's createMintBody; a response address
 * gets the wallet's leftover TON back as excesses, forward TON a transfer_notification to the owner.
 */
export function standardJettonMintBody(v: {
  queryId: bigint;
  destination: Address;
  tonAmount: bigint;
  jettonAmount: bigint;
  responseAddress?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: EitherCellRef;
}): Cell {
  const masterMsg = toCell(
    storeJettonInternalTransfer({
      queryId: v.queryId,
      amount: v.jettonAmount,
      from: null,
      responseAddress: v.responseAddress ?? null,
      forwardTonAmount: v.forwardTonAmount ?? 0n,
      forwardPayload: v.forwardPayload ?? NO_PAYLOAD,
    }),
  );
  return toCell(storeJettonMint({ queryId: v.queryId, toAddress: v.destination, tonAmount: v.tonAmount, masterMsg }));
}
