// The devnet's user wallets (wallets.json entries with role "user", in genesis) as the streaming tests and
// bench/streaming sign transfers with them: each opened from its mnemonic (v4r2, or v5r1 with the devnet's network
// id), a signed transfer body with the key a client knows its trace by, and a wait for the wallet's seqno to move.
// How a transfer is sent stays with the caller (TonClient's sendExternalMessage, or a sendBoc of its own).
import { readFile } from 'node:fs/promises';
import type { Address, Cell, MessageRelaxed } from '@ton/core';
import { type KeyPair, mnemonicToPrivateKey } from '@ton/crypto';
import { type TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { WalletsFileEntry } from '../../src/devnet/node/index.ts';
import { normalizedHash } from './wallet-messages.ts';

export interface UserWallet {
  /** As wallets.json names it: 'v4r2' or 'v5r1'. */
  version: string;
  address: Address;
  /** Raw uppercase address (`0:ABCD…`). */
  raw: string;
  contract: WalletContractV4 | WalletContractV5R1;
  keys: KeyPair;
}

/** The devnet's user wallets listed in `walletsFile` (its wallets.json), in its order. */
export async function openUserWallets(walletsFile: string): Promise<UserWallet[]> {
  const entries = JSON.parse(await readFile(walletsFile, 'utf8')) as WalletsFileEntry[];
  const out: UserWallet[] = [];
  for (const e of entries.filter((w) => w.role === 'user')) {
    const keys = await mnemonicToPrivateKey(e.mnemonic);
    const contract =
      e.version === 'v5r1'
        ? WalletContractV5R1.create({
            workchain: 0,
            publicKey: keys.publicKey,
            walletId: { networkGlobalId: e.networkGlobalId ?? -217 },
          })
        : WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const a = contract.address;
    out.push({
      version: e.version,
      address: a,
      raw: `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`,
      contract,
      keys,
    });
  }
  return out;
}

/**
 * The signed transfer body of `messages` at `seqno`, and its trace key: the normalized hash of the external message
 * that carries it (TEP-467), base64, what clients subscribe to a trace by.
 */
export function signedTransfer(
  w: UserWallet,
  seqno: number,
  messages: MessageRelaxed[],
): { body: Cell; traceKey: string } {
  // One signer of both wallet classes (their transfer argument types differ only in v5's extra fields).
  const body = (w.contract as WalletContractV4).createTransfer({ seqno, secretKey: w.keys.secretKey, messages });
  return { body, traceKey: normalizedHash(w.address, body).toString('base64') };
}

/** The wallet's seqno, read through `client` (a wallet app's reading). */
export function seqnoOf(client: TonClient, w: UserWallet): Promise<number> {
  return client.open(w.contract as WalletContractV4).getSeqno();
}

/**
 * Resolves true once the wallet's seqno, read through `client` every `pollMs`, is past `seqno` (the next transfer of
 * the wallet needs it on chain); false when it did not move within `timeoutMs`.
 */
export async function waitSeqnoPast(
  client: TonClient,
  w: UserWallet,
  seqno: number,
  opts: { timeoutMs: number; pollMs: number },
): Promise<boolean> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if ((await seqnoOf(client, w)) > seqno) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}

/**
 * A transfer of `messages` signed at the wallet's current seqno and sent with @ton/ton through `client`
 * (sendExternalMessage); resolves with its trace key once the seqno moved (or `timeoutMs` passed).
 */
export async function sendTransfer(
  client: TonClient,
  w: UserWallet,
  messages: MessageRelaxed[],
  timeoutMs: number,
): Promise<string> {
  const seqno = await seqnoOf(client, w);
  const { body, traceKey } = signedTransfer(w, seqno, messages);
  await client.sendExternalMessage(w.contract, body);
  await waitSeqnoPast(client, w, seqno, { timeoutMs, pollMs: 100 });
  return traceKey;
}
