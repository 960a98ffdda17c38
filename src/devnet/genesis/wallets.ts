// The devnet's funded wallets: one each of v3r2, v4r2 and v5r1 for the activity (and user wallets, v4r2 and v5r1,
// that the activity never touches), every one with its own valid 24-word TON
// mnemonic derived from the devnet seed, so `--seed` reproduces the same addresses and keys everywhere.
//
// Mnemonic derivation (a DRBG over HKDF): candidate c = 0, 1, 2, ... is
//   HKDF-SHA512(ikm = UTF-8(seed), salt = "tongate-devnet", info = "wallet <version> <index> mnemonic <c>", 33 bytes)
// read as 24 big-endian 11-bit word indexes into the BIP-39 English list; the first candidate that
// @ton/crypto's mnemonicValidate accepts (TON's "basic seed" check, about 1 in 256) is the wallet's mnemonic, and
// mnemonicToPrivateKey gives its key pair, exactly as any TON wallet app would derive it.
import { hkdfSync } from 'node:crypto';
import type { Address, StateInit } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate, mnemonicWordList } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { ConfigError } from '../../common/errors.ts';
import { GENESIS_KDF_SALT } from './keys.ts';

/** The devnet's network global id (Block.global_id, ConfigParam 19, v5r1 wallet ids). */
export const DEVNET_GLOBAL_ID = -217;

/** Genesis balance of each devnet wallet: 1 000 000 TON. */
export const DEVNET_WALLET_BALANCE = 1_000_000n * 1_000_000_000n;

export type DevnetWalletVersion = 'v3r2' | 'v4r2' | 'v5r1';

export const DEVNET_WALLET_VERSIONS: readonly DevnetWalletVersion[] = ['v3r2', 'v4r2', 'v5r1'];

/** The versions of the user wallets: what wallet apps create today. */
export const DEVNET_USER_WALLET_VERSIONS: readonly DevnetWalletVersion[] = ['v4r2', 'v5r1'];

/** User wallets per version a devnet created by `tongate devnet` / `tongate up` funds at genesis. */
export const DEVNET_USER_WALLETS_PER_VERSION = 2;

export interface DevnetWallet {
  version: DevnetWalletVersion;
  /** 24 words. */
  mnemonic: string[];
  publicKey: Buffer;
  /** 64-byte ed25519 secret key (seed ‖ public key), as @ton/crypto returns it. */
  secretKey: Buffer;
  address: Address;
  stateInit: StateInit;
  balance: bigint;
  /** 'user': a wallet for the devnet's users, which the activity never signs with (wallets.json marks it). */
  role?: 'user';
}

export interface DeriveWalletsOptions {
  /** Network global id; v5r1's wallet id depends on it. Default -217. */
  globalId?: number;
  /** Wallets per version (index 0, 1, ...). Default 1. */
  perVersion?: number;
  /** Genesis balance of each wallet. Default 1 000 000 TON. */
  balance?: bigint;
}

const WORDS = 24;
const MAX_CANDIDATES = 1 << 16;

function candidateWords(seed: string, info: string): string[] {
  const bytes = Buffer.from(hkdfSync('sha512', Buffer.from(seed, 'utf8'), GENESIS_KDF_SALT, info, 33));
  let acc = BigInt(`0x${bytes.toString('hex')}`);
  const out: string[] = new Array(WORDS);
  for (let i = WORDS - 1; i >= 0; i--) {
    out[i] = mnemonicWordList[Number(acc & 0x7ffn)]!;
    acc >>= 11n;
  }
  return out;
}

/** The first candidate word list (see the header) that is a valid TON mnemonic. */
export async function deriveMnemonic(seed: string, label: string): Promise<string[]> {
  for (let c = 0; c < MAX_CANDIDATES; c++) {
    const words = candidateWords(seed, `${label} mnemonic ${c}`);
    if (await mnemonicValidate(words)) return words;
  }
  // About 1 in 256 candidates validates, so this is unreachable in practice.
  throw new ConfigError(`deriveMnemonic: no valid mnemonic among ${MAX_CANDIDATES} candidates for ${label}`);
}

/** The @ton/ton contract of a basechain wallet of `version` for `publicKey` (v5r1: wallet id for `globalId`). */
export function walletContract(
  version: DevnetWalletVersion,
  publicKey: Buffer,
  globalId = DEVNET_GLOBAL_ID,
): WalletContractV3R2 | WalletContractV4 | WalletContractV5R1 {
  switch (version) {
    case 'v3r2':
      return WalletContractV3R2.create({ workchain: 0, publicKey });
    case 'v4r2':
      return WalletContractV4.create({ workchain: 0, publicKey });
    case 'v5r1':
      return WalletContractV5R1.create({
        publicKey,
        walletId: { networkGlobalId: globalId, context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 } },
      });
  }
}

async function deriveWallet(
  seed: string,
  version: DevnetWalletVersion,
  index: number,
  globalId: number,
  balance: bigint,
  role?: 'user',
): Promise<DevnetWallet> {
  const mnemonic = await deriveMnemonic(seed, `${role === 'user' ? 'user' : 'wallet'} ${version} ${index}`);
  const { publicKey, secretKey } = await mnemonicToPrivateKey(mnemonic);
  const contract = walletContract(version, publicKey, globalId);
  return {
    version,
    mnemonic,
    publicKey,
    secretKey,
    address: contract.address,
    stateInit: { code: contract.init.code, data: contract.init.data },
    balance,
    ...(role ? { role } : {}),
  };
}

/**
 * The funded genesis wallets, deterministic in `seed`: v3r2, v4r2, v5r1 (then the next index of each, if
 * perVersion > 1), all in the basechain, wallet ids as @ton/ton's defaults (v5r1: for the devnet's global id).
 */
export async function deriveWallets(seed: string, opts: DeriveWalletsOptions = {}): Promise<DevnetWallet[]> {
  const globalId = opts.globalId ?? DEVNET_GLOBAL_ID;
  const perVersion = opts.perVersion ?? 1;
  const balance = opts.balance ?? DEVNET_WALLET_BALANCE;
  const jobs: Promise<DevnetWallet>[] = [];
  for (let index = 0; index < perVersion; index++) {
    for (const version of DEVNET_WALLET_VERSIONS) jobs.push(deriveWallet(seed, version, index, globalId, balance));
  }
  return Promise.all(jobs);
}

/**
 * The user wallets, deterministic in `seed` (mnemonics as above, labelled "user <version> <index>"): v4r2, v5r1
 * (then the next index of each, if perVersion > 1), role 'user'. The node funds and deploys them like the others
 * but the activity never signs with them, so a user's transfers never race it for a seqno.
 */
export async function deriveUserWallets(seed: string, opts: DeriveWalletsOptions = {}): Promise<DevnetWallet[]> {
  const globalId = opts.globalId ?? DEVNET_GLOBAL_ID;
  const perVersion = opts.perVersion ?? DEVNET_USER_WALLETS_PER_VERSION;
  const balance = opts.balance ?? DEVNET_WALLET_BALANCE;
  const jobs: Promise<DevnetWallet>[] = [];
  for (let index = 0; index < perVersion; index++) {
    for (const version of DEVNET_USER_WALLET_VERSIONS) {
      jobs.push(deriveWallet(seed, version, index, globalId, balance, 'user'));
    }
  }
  return Promise.all(jobs);
}
