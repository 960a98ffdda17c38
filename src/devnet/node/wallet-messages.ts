// Signed external messages of the devnet's genesis wallets (v3r2, v4r2, v5r1), built with @ton/ton's own wallet
// contracts so every message is exactly what a wallet app would send.
import {
  type Address,
  beginCell,
  type Cell,
  external,
  type MessageRelaxed,
  SendMode,
  type StateInit,
  storeMessage,
} from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { ConfigError } from '../../common/errors.ts';
import { DEVNET_GLOBAL_ID, type DevnetWalletVersion, walletContract } from '../genesis/index.ts';

/** What signing needs of a wallet (a genesis DevnetWallet fits). */
export interface SigningWallet {
  version: DevnetWalletVersion;
  publicKey: Buffer;
  /** 64-byte ed25519 secret key as @ton/crypto returns it. */
  secretKey: Buffer;
  address: Address;
}

export interface WalletTransferArgs {
  seqno: number;
  messages: MessageRelaxed[];
  /** valid_until (unix seconds). */
  validUntil: number;
  /** Attach the StateInit (the wallet is not deployed yet). */
  deploy: boolean;
  sendMode?: SendMode;
  /** Network global id (v5r1 wallet ids depend on it). Default -217. */
  globalId?: number;
}

export function walletStateInit(w: SigningWallet, globalId = DEVNET_GLOBAL_ID): StateInit {
  return walletContract(w.version, w.publicKey, globalId).init;
}

/** The external message (a Message cell) carrying a signed transfer of `messages` (possibly none). */
export function walletTransferMessage(w: SigningWallet, a: WalletTransferArgs): Cell {
  const contract = walletContract(w.version, w.publicKey, a.globalId);
  if (!contract.address.equals(w.address)) {
    throw new ConfigError(
      `wallet ${w.address.toRawString()}: a ${w.version} wallet of this key is ${contract.address.toRawString()} (wrong version or global id)`,
    );
  }
  const common = {
    seqno: a.seqno,
    secretKey: w.secretKey,
    messages: a.messages,
    sendMode: a.sendMode ?? SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    timeout: a.validUntil,
  };
  const body =
    contract instanceof WalletContractV5R1 ? contract.createTransfer(common) : contract.createTransfer(common);
  return beginCell()
    .store(storeMessage(external({ to: w.address, init: a.deploy ? contract.init : undefined, body })))
    .endCell();
}
