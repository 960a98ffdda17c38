// The helpers every activity step uses: the step's context and outcome, signing and sending from a genesis wallet
// (sendFrom), bounded waits for effects (wait, waitForTx) and readers of the wallet, jetton and NFT getters. The core
// steps (steps.ts) and the contract families' steps (steps-<family>.ts) import them from here.
import {
  Address,
  beginCell,
  type Cell,
  external,
  type MessageRelaxed,
  storeMessage,
  type Transaction,
} from '@ton/core';
import { jettonWalletAddress, readJettonData, readJettonWalletData, readNftData } from '../contracts/index.ts';
import type { ActivityChain } from './chain.ts';
import type { LedgerJetton } from './ledger-core.ts';
import type { Rng } from './rng.ts';
import type { ActivityLedger } from './types.ts';
import { type WaitResult, waitFor } from './wait.ts';
import type { ActivityWallet } from './wallets.ts';

export interface StepContext {
  step: number;
  chain: ActivityChain;
  wallets: readonly ActivityWallet[];
  rng: Rng;
  ledger: ActivityLedger;
  seed: string;
  signal: AbortSignal;
  timeoutMs: number;
  pollMs: number;
}

export type StepOutcome =
  | { status: 'ok'; fields: Record<string, unknown> }
  | { status: 'failed'; reason: string; fields?: Record<string, unknown> }
  | { status: 'skipped'; reason: string };

/** How long a signed external stays valid (seconds past the chain's now). */
const VALID_FOR_S = 120;
const WORDS = ['amber', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper'];

export const ok = (fields: Record<string, unknown>): StepOutcome => ({ status: 'ok', fields });
export const failed = (reason: string, fields?: Record<string, unknown>): StepOutcome => ({
  status: 'failed',
  reason,
  fields,
});
export const skipped = (reason: string): StepOutcome => ({ status: 'skipped', reason });

export function wait<T>(ctx: StepContext, what: string, probe: () => Promise<T | undefined>): Promise<WaitResult<T>> {
  return waitFor(what, probe, { timeoutMs: ctx.timeoutMs, pollMs: ctx.pollMs, signal: ctx.signal });
}

export const raw = (a: Address) => a.toRawString();

export function freshAddress(rng: Rng): Address {
  return new Address(0, rng.bytes(32));
}

export function phrase(ctx: StepContext): string {
  return `devnet activity #${ctx.step}: ${ctx.rng.pick(WORDS)} ${ctx.rng.pick(WORDS)}`;
}

export function otherWallet(ctx: StepContext, not: ActivityWallet): ActivityWallet | undefined {
  const others = ctx.wallets.filter((w) => !w.address.equals(not.address));
  return others.length > 0 ? ctx.rng.pick(others) : undefined;
}

export function genesisWallet(ctx: StepContext, address: Address): ActivityWallet | undefined {
  return ctx.wallets.find((w) => w.address.equals(address));
}

async function readSeqno(ctx: StepContext, wallet: ActivityWallet): Promise<number | undefined> {
  const r = await ctx.chain.runGetMethod(wallet.address, 'seqno');
  const top = r.stack[0];
  return r.exitCode === 0 && top?.type === 'int' ? Number(top.value) : undefined;
}

/**
 * Signs `messages` with the wallet's current seqno, sends the external (with the StateInit if the wallet is not
 * deployed yet) and waits until the seqno moves. Returns null on success, else why not.
 */
export async function sendFrom(
  ctx: StepContext,
  wallet: ActivityWallet,
  messages: MessageRelaxed[],
): Promise<string | null> {
  const account = await ctx.chain.getAccount(wallet.address);
  const active = account.status === 'active';
  const seqno = active ? await readSeqno(ctx, wallet) : 0;
  if (seqno === undefined) return `could not read the seqno of ${wallet.version} wallet ${raw(wallet.address)}`;
  const validUntil = (await ctx.chain.now()) + VALID_FOR_S;
  const body = wallet.createTransfer({ seqno, messages, validUntil });
  const message = external({ to: wallet.address, init: active ? undefined : wallet.init, body });
  await ctx.chain.sendExternal(beginCell().store(storeMessage(message)).endCell());
  const moved = await wait(
    ctx,
    `the seqno of ${wallet.version} wallet ${raw(wallet.address)} to pass ${seqno}`,
    async () => {
      const now = await readSeqno(ctx, wallet);
      return now !== undefined && now > seqno ? now : undefined;
    },
  );
  return moved.ok ? null : moved.reason;
}

/** The newest transactions of `account` until one matches (bounded wait). */
export function waitForTx(
  ctx: StepContext,
  what: string,
  account: Address,
  match: (tx: Transaction) => boolean,
): Promise<WaitResult<Transaction>> {
  return wait(ctx, what, async () => (await ctx.chain.getTransactions(account, 16)).find(match));
}

export function inboundFrom(tx: Transaction, from: Address): { bounced: boolean; body: Cell } | undefined {
  const m = tx.inMessage;
  if (m?.info.type !== 'internal' || !m.info.src.equals(from)) return undefined;
  return { bounced: m.info.bounced, body: m.body };
}

export function opOf(body: Cell): number | undefined {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : undefined;
}

/**
 * A family of jettons the activity holds: where the ledger keeps them and how a holder's wallet address derives
 * (our Tolk jetton, tonweb's shipped one). The transfer and burn steps are the same TEP-74 messages for both.
 */
export interface JettonLine {
  /** What the logs and skip reasons call it ('' for our own). */
  label: string;
  jettons(ctx: StepContext): LedgerJetton[];
  walletOf(master: Address, owner: Address): Address;
}

export const OWN_JETTONS: JettonLine = {
  label: '',
  jettons: (ctx) => ctx.ledger.jettons,
  walletOf: jettonWalletAddress,
};

export async function jettonBalance(
  ctx: StepContext,
  master: Address,
  owner: Address,
  line: JettonLine = OWN_JETTONS,
): Promise<bigint> {
  const r = await ctx.chain.runGetMethod(line.walletOf(master, owner), 'get_wallet_data');
  return r.exitCode === 0 ? readJettonWalletData(r.stack).balance : 0n;
}

export async function jettonSupply(ctx: StepContext, master: Address): Promise<bigint | undefined> {
  const r = await ctx.chain.runGetMethod(master, 'get_jetton_data');
  return r.exitCode === 0 ? readJettonData(r.stack).totalSupply : undefined;
}

export async function nftOwner(ctx: StepContext, item: Address): Promise<Address | null | undefined> {
  const r = await ctx.chain.runGetMethod(item, 'get_nft_data');
  if (r.exitCode !== 0) return undefined;
  const d = readNftData(r.stack);
  return d.init ? d.ownerAddress : undefined;
}

/** A recipient: another genesis wallet (it can act later) or, sometimes, a fresh address. */
export function recipient(ctx: StepContext, from: ActivityWallet, freshOdds: number): Address {
  const other = otherWallet(ctx, from);
  if (!other || ctx.rng.chance(1, freshOdds)) return freshAddress(ctx.rng);
  return other.address;
}
