// The faucet: a transfer from a genesis wallet (its mnemonic from wallets.json) through a running node's liteserver,
// with nothing but the public protocol: the head by getMasterchainInfo, the wallet's seqno by runSmcMethod, a signed
// transfer by sendMessage, then getAccountState on new blocks until the recipient's balance moves.
import { type Address, comment, internal, parseTuple, serializeTuple } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { InputError, LiteTimeoutError } from '../../common/errors.ts';
import type { BlockRef, LitePool } from '../../lite/index.ts';
import { cellsFromBoc } from '../../ton/index.ts';
import { DEVNET_GLOBAL_ID, type DevnetWalletVersion, walletContract } from '../genesis/index.ts';
import type { WalletsFileEntry } from './published-files.ts';
import { walletTransferMessage } from './wallet-messages.ts';

export interface FaucetArgs {
  pool: LitePool;
  /** wallets.json of the devnet. */
  wallets: readonly WalletsFileEntry[];
  to: Address;
  /** nanoton. */
  amount: bigint;
  /** Which genesis wallet pays; default the first (in wallets.json order) that holds enough. Never a user wallet. */
  from?: DevnetWalletVersion;
  /** How long to wait for the recipient's balance to move; default 60 s. */
  timeoutMs?: number;
  globalId?: number;
  /** Wall clock in ms; default Date.now. */
  clock?: () => number;
  /** Poll period while waiting; default 250 ms. */
  pollMs?: number;
}

export interface FaucetResult {
  from: Address;
  version: DevnetWalletVersion;
  to: Address;
  amount: bigint;
  /** The wallet seqno the transfer used. */
  seqno: number;
  /** Hash of the external message (what explorers and toncenter call the message hash). */
  messageHash: Buffer;
  balanceBefore: bigint;
  balanceAfter: bigint;
  /** The masterchain block at which the new balance was read. */
  mcSeqno: number;
}

/** Exit code the node reports for a get-method on a missing or uninit account. */
const NO_ACCOUNT = -256;
/** Kept on the wallet beyond the amount for the transfer's fees. */
const FEE_RESERVE = 100_000_000n;

function blockRef(id: {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}): BlockRef {
  return { workchain: id.workchain, shard: id.shard, seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}

async function balanceOf(pool: LitePool, a: Address, at: BlockRef): Promise<bigint> {
  const s = await pool.getAccountState(a, at);
  return s.state ? s.balance.coins : 0n;
}

export async function runFaucet(f: FaucetArgs): Promise<FaucetResult> {
  if (f.amount <= 0n) throw new InputError(`faucet: the amount must be positive, got ${f.amount} nanoton`);
  const globalId = f.globalId ?? DEVNET_GLOBAL_ID;
  const clock = f.clock ?? Date.now;
  // User wallets (role "user") are left to the devnet's users: the faucet racing them for a seqno would lose a transfer.
  const candidates = f.wallets.filter((w) => w.role !== 'user' && (f.from === undefined || w.version === f.from));
  if (candidates.length === 0) throw new InputError(`faucet: wallets.json has no ${f.from ?? ''} wallet`);

  const head = (await f.pool.getMasterchainInfo()).last;
  const at = blockRef(head);
  for (const entry of candidates) {
    const keys = await mnemonicToPrivateKey(entry.mnemonic);
    const contract = walletContract(entry.version, keys.publicKey, globalId);
    if (contract.address.toRawString() !== entry.raw) {
      throw new InputError(`faucet: the ${entry.version} mnemonic in wallets.json does not give ${entry.raw}`);
    }
    const funds = await balanceOf(f.pool, contract.address, at);
    if (funds < f.amount + FEE_RESERVE) continue;
    const run = await f.pool.runMethod(contract.address, 'seqno', serializeTuple([]).toBoc(), at);
    let seqno = 0;
    if (run.exitCode !== NO_ACCOUNT) {
      const top = run.result ? parseTuple(cellsFromBoc(run.result)[0]!)[0] : undefined;
      if (run.exitCode !== 0 || top?.type !== 'int') {
        throw new InputError(
          `faucet: ${entry.version} wallet ${entry.raw}: get-method seqno exited with ${run.exitCode}`,
        );
      }
      seqno = Number(top.value);
    }
    const before = await balanceOf(f.pool, f.to, at);
    const wallet = {
      version: entry.version,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      address: contract.address,
    };
    const message = walletTransferMessage(wallet, {
      seqno,
      messages: [internal({ to: f.to, value: f.amount, bounce: false, body: comment('tongate devnet faucet') })],
      validUntil: Math.floor(clock() / 1000) + 120,
      deploy: run.exitCode === NO_ACCOUNT,
      globalId,
    });
    await f.pool.sendMessage(message.toBoc());

    const deadline = clock() + (f.timeoutMs ?? 60_000);
    let seen = head.seqno;
    while (clock() < deadline) {
      const info = await f.pool
        .getMasterchainInfo({ awaitSeqno: seen + 1, timeoutMs: Math.max(1000, deadline - clock()) })
        .catch(() => null);
      if (info && info.last.seqno > seen) {
        seen = info.last.seqno;
        const after = await balanceOf(f.pool, f.to, blockRef(info.last));
        if (after !== before) {
          return {
            from: contract.address,
            version: entry.version,
            to: f.to,
            amount: f.amount,
            seqno,
            messageHash: message.hash(),
            balanceBefore: before,
            balanceAfter: after,
            mcSeqno: seen,
          };
        }
      } else {
        await new Promise((r) => setTimeout(r, f.pollMs ?? 250));
      }
    }
    throw new LiteTimeoutError(
      `faucet: sent ${f.amount} nanoton from ${entry.raw} (seqno ${seqno}), but ${f.to.toRawString()}'s balance did not move within ${f.timeoutMs ?? 60_000} ms`,
    );
  }
  throw new InputError(`faucet: no genesis wallet holds ${f.amount} nanoton plus fees`);
}
