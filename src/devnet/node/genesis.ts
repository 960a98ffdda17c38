// A new devnet's genesis, deterministic in (seed, shards, genesis time): the config (sandbox's mainnet config with
// our validator, global version 13 so blocks may share a second), the zero states with the funded wallets (uninit,
// as create-state registers pre-funded addresses) and a masterchain reserve that brings global_balance into
// [2^56, 2^62). The wallets are the activity's, then the user wallets it never touches. Their first messages
// (walletDeployMessage: a signed empty transfer with their StateInit) are what the node queues so the first blocks
// deploy them the way any wallet app would.
import { createHash } from 'node:crypto';
import { Address, type Cell } from '@ton/core';
import { createZeroStates, uninitAccount, type ZeroStates } from '../chain/index.ts';
import {
  buildDevnetConfig,
  DEVNET_GLOBAL_ID,
  type DevnetWallet,
  deriveGenesisKeys,
  deriveUserWallets,
  deriveWallets,
  type GenesisKeys,
  shardLayout,
} from '../genesis/index.ts';
import type { GenesisInput } from '../store/index.ts';
import { walletTransferMessage } from './wallet-messages.ts';

/**
 * Global version of the devnet config. 13 lets consecutive blocks share a second (the collator's
 * allow_same_timestamp rule), so a 400 ms interval gives 400 ms blocks instead of a chain that runs ahead of the
 * clock; the sandbox emulator accepts it and executes transactions exactly as under the base config's 12
 * (node-genesis.test.ts checks both). Capabilities stay the base config's.
 */
export const DEVNET_GLOBAL_VERSION = 13;

/** The genesis reserve: 2e18 nanoton in an uninit masterchain account nobody holds a key for. */
export const DEVNET_RESERVE_BALANCE = 2_000_000_000_000_000_000n;

/** The reserve's address: -1:sha256("tongate-devnet reserve " ‖ seed). */
export function reserveAddress(seed: string): Address {
  return new Address(-1, createHash('sha256').update(`tongate-devnet reserve ${seed}`).digest());
}

export interface DevnetGenesisParams {
  seed: string;
  shards: number;
  genUtime: number;
  globalId?: number;
  walletsPerVersion?: number;
  /** User wallets (role 'user', v4r2 and v5r1) per version, after the activity's. Default 0; the CLI asks for 2. */
  userWalletsPerVersion?: number;
}

export interface DevnetGenesis {
  keys: GenesisKeys;
  wallets: DevnetWallet[];
  layout: bigint[];
  zero: ZeroStates;
  /** What the store commits as the genesis. */
  input: GenesisInput;
}

/** valid_until of a deploy message: never expires (v3/v4 write all ones for seqno 0 anyway). */
const NEVER = 0xffff_ffff;

/** A wallet's first message: seqno 0, no transfers, its StateInit attached; deterministic (ed25519), never expires. */
export function walletDeployMessage(w: DevnetWallet, globalId = DEVNET_GLOBAL_ID): Cell {
  return walletTransferMessage(w, { seqno: 0, messages: [], validUntil: NEVER, deploy: true, globalId });
}

export async function createDevnetGenesis(p: DevnetGenesisParams): Promise<DevnetGenesis> {
  const globalId = p.globalId ?? DEVNET_GLOBAL_ID;
  const keys = deriveGenesisKeys(p.seed);
  const userWalletsPerVersion = p.userWalletsPerVersion ?? 0;
  const wallets = [
    ...(await deriveWallets(p.seed, { globalId, perVersion: p.walletsPerVersion ?? 1 })),
    ...(await deriveUserWallets(p.seed, { globalId, perVersion: userWalletsPerVersion })),
  ];
  const layout = shardLayout(p.shards);
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: p.genUtime,
    // createZeroStates writes the real basechain zero-state hashes into ConfigParam 12.
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
    globalVersion: DEVNET_GLOBAL_VERSION,
    globalId,
  });
  const walletAccounts = wallets.map((w) => ({
    address: w.address,
    shardAccount: uninitAccount(w.address, w.balance),
  }));
  const reserve = {
    address: reserveAddress(p.seed),
    shardAccount: uninitAccount(reserveAddress(p.seed), DEVNET_RESERVE_BALANCE),
  };
  const zero = createZeroStates({
    config,
    accounts: walletAccounts.map((a) => a.shardAccount),
    masterchainAccounts: [reserve.shardAccount],
    layout,
    genUtime: p.genUtime,
    globalId,
    validatorPublicKey: keys.validator.publicKey,
  });
  const input: GenesisInput = {
    meta: {
      seed: p.seed,
      globalId,
      shardLayout: layout,
      genesisUtime: p.genUtime,
      extra: {
        software: 'tongate',
        globalVersion: DEVNET_GLOBAL_VERSION,
        walletsPerVersion: p.walletsPerVersion ?? 1,
        userWalletsPerVersion,
      },
    },
    mcZeroState: { boc: zero.masterchain.boc, accounts: [reserve] },
    wcZeroStates: [{ boc: zero.workchain.boc, accounts: walletAccounts }],
  };
  return { keys, wallets, layout, zero, input };
}
