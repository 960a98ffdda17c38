// Tonstakers patterns the vectors do not hold (the delayed withdrawal with its payout NFT, the NFT payout, failures),
// built message by message with bodies written here per the pool's TL-B (liquid-staking-contract) and TEP-74. The
// expected details are what those bodies and message values say, per toncenter's classifier.
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo } from '../types.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const USER = addr('staker wallet');
const POOL = addr('tonstakers pool');
const MINTER = addr('tsTON minter');
const TS_WALLET = addr('staker tsTON wallet');
const PAYOUT = addr('payout collection');
const NFT = addr('payout nft');
const A = (a: string) => Address.parse(a);
const TON = 1_000_000_000n;
const QID = 77n;

const op = (code: number) => beginCell().storeUint(code, 32).storeUint(QID, 64);
const deposit = () => op(0x47d54391).endCell();
const mintJettons = (amount: bigint) => op(0x1674b0a0).storeCoins(amount).storeAddress(A(USER)).endCell();
const internalTransfer = (amount: bigint) =>
  op(0x178d4519).storeCoins(amount).storeAddress(A(POOL)).storeAddress(A(USER)).storeCoins(1n).storeBit(0).endCell();
const notify = (amount: bigint) => op(0x7362d09c).storeCoins(amount).storeAddress(A(POOL)).storeBit(0).endCell();
const excess = () => op(0xd53276db).endCell();
const burn = (amount: bigint) => op(0x595f07bc).storeCoins(amount).storeAddress(A(USER)).storeBit(0).endCell();
const burnNotification = (amount: bigint) =>
  op(0x7bdd97de).storeCoins(amount).storeAddress(A(USER)).storeAddress(A(USER)).endCell();
const withdraw = (amount: bigint) => op(0x319b0cdc).storeCoins(amount).storeAddress(A(USER)).endCell();
const withdrawal = () => op(0x0a77535c).endCell();
const mintNft = (amount: bigint) => op(0x1674b0a0).storeCoins(amount).storeAddress(A(USER)).endCell();
const initNft = () => op(0x132f9a45).storeAddress(A(USER)).endCell();
const nftBurn = () => op(0xf127fe4e).endCell();
const nftBurnNotification = (amount: bigint, owner: string) =>
  op(0xed58b0b2).storeCoins(amount).storeAddress(A(owner)).endCell();
const distributed = () => op(0xdb3b8abd).endCell();
const startDistribution = () => op(0x1140a64f).endCell();

const tsWallet: Record<string, ContractInfo> = { [TS_WALLET]: { jettonWallet: { jetton: MINTER, owner: USER } } };

describe('stake_deposit (Tonstakers)', () => {
  function depositTrace(o: { poolFails?: boolean; minterFails?: boolean } = {}) {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const pool = b.send(root, POOL, deposit(), { value: 101n * TON, aborted: o.poolFails });
    if (o.poolFails) return { b, root, pool };
    const minter = b.send(pool, MINTER, mintJettons(95n * TON), { value: TON / 2n, aborted: o.minterFails });
    if (o.minterFails) return { b, root, pool, minter };
    const wallet = b.send(minter, TS_WALLET, internalTransfer(95n * TON), { value: TON / 4n });
    const notified = b.send(wallet, USER, notify(95n * TON), { value: 1n });
    const excessed = b.send(wallet, USER, excess(), { value: TON / 5n });
    return { b, root, pool, minter, wallet, notified, excessed };
  }

  it('deposit -> mint -> internal_transfer: value less 1 TON, the minted tsTON, the minter as asset', () => {
    const t = depositTrace();
    const actions = t.b.classify(t.root, tsWallet);
    expect(actions.map((a) => a.type)).toEqual(['stake_deposit']);
    const a = actions[0]!;
    expect(a.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: USER,
      pool: POOL,
      amount: (100n * TON).toString(),
      tokens_minted: (95n * TON).toString(),
      asset: MINTER,
    });
    expect(a.success).toBe(true);
    expect([a.source, a.destination, a.asset, a.amount]).toEqual([USER, POOL, MINTER, 100n * TON]);
    const all = [t.root, t.pool, t.minter!, t.wallet!, t.notified!, t.excessed!];
    expect(a.txHashes).toEqual(all.map((n) => n.tx.hash));
    expect(a.accounts).toEqual([USER, POOL, MINTER, TS_WALLET].sort());
  });

  it('a deposit the pool refused mints nothing: no stake action, as in toncenter (a failed contract call)', () => {
    const t = depositTrace({ poolFails: true });
    const actions = t.b.classify(t.root, tsWallet);
    expect(byType(actions, 'stake_deposit')).toEqual([]);
    const [call] = byType(actions, 'call_contract');
    expect(call?.details).toMatchObject({ opcode: '0x47d54391', source: USER, destination: POOL });
    expect(call?.success).toBe(false);
  });

  it('a mint the minter refused: no internal_transfer, so no stake_deposit either', () => {
    const t = depositTrace({ minterFails: true });
    const actions = t.b.classify(t.root, tsWallet);
    expect(byType(actions, 'stake_deposit')).toEqual([]);
    expect(byType(actions, 'call_contract').map((a) => a.destination)).toEqual([POOL, MINTER]);
  });
});

describe('stake_withdrawal / stake_withdrawal_request (Tonstakers tsTON burn)', () => {
  function burnTrace(end: 'immediate' | 'delayed' | 'no-nft' | 'plain-burn') {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const wallet = b.send(root, TS_WALLET, burn(40n * TON), { value: (11n * TON) / 10n });
    const note = b.send(wallet, MINTER, burnNotification(40n * TON), { value: TON });
    if (end === 'plain-burn') return { b, root, wallet, note };
    const req = b.send(note, POOL, withdraw(40n * TON), { value: (9n * TON) / 10n });
    if (end === 'immediate') {
      const paid = b.send(req, USER, withdrawal(), { value: 43n * TON });
      return { b, root, wallet, note, req, paid };
    }
    const collection = b.send(req, PAYOUT, mintNft(40n * TON), { value: TON / 2n });
    if (end === 'no-nft') return { b, root, wallet, note, req, collection };
    const item = b.send(collection, NFT, initNft(), { value: TON / 10n, origStatus: 'uninit', endStatus: 'active' });
    return { b, root, wallet, note, req, collection, item };
  }

  it('immediate: the payout less the withdraw message value, the tsTON burnt', () => {
    const t = burnTrace('immediate');
    const actions = t.b.classify(t.root, tsWallet);
    expect(actions.map((a) => a.type)).toEqual(['stake_withdrawal']);
    const a = actions[0]!;
    expect(a.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: USER,
      pool: POOL,
      amount: (43n * TON - (9n * TON) / 10n).toString(),
      payout_nft: null,
      tokens_burnt: (40n * TON).toString(),
      asset: MINTER,
    });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([t.root, t.wallet, t.note, t.req!, t.paid!].map((n) => n.tx.hash));
  });

  it('delayed: a stake_withdrawal_request naming the payout NFT; the NFT deployment stays an action of its own', () => {
    const t = burnTrace('delayed');
    const actions = t.b.classify(t.root, tsWallet);
    const a = byType(actions, 'stake_withdrawal_request');
    expect(a).toHaveLength(1);
    expect(a[0]!.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: USER,
      pool: POOL,
      payout_nft: NFT,
      asset: MINTER,
      tokens_burnt: (40n * TON).toString(),
    });
    expect(a[0]!.success).toBe(true);
    expect([a[0]!.source, a[0]!.sourceSecondary, a[0]!.destination, a[0]!.amount]).toEqual([
      USER,
      TS_WALLET,
      POOL,
      40n * TON,
    ]);
    expect(a[0]!.txHashes).toEqual([t.root, t.wallet, t.note, t.req!, t.collection!].map((n) => n.tx.hash));
    // The item's init message is a call of its own, and its deployment a contract_deploy.
    expect(byType(actions, 'contract_deploy').map((x) => x.destination)).toEqual([NFT]);
    expect(byType(actions, 'call_contract').map((x) => x.destination)).toEqual([NFT]);
    expect(byType(actions, 'jetton_burn')).toEqual([]);
  });

  it('delayed, the payout NFT known to the index: the item is an nft_mint', () => {
    const t = burnTrace('delayed');
    const item: ContractInfo = { nftItem: { collection: PAYOUT, index: '5', owner: USER } };
    const actions = t.b.classify(t.root, { ...tsWallet, [NFT]: item });
    expect(byType(actions, 'stake_withdrawal_request')[0]!.details.payout_nft).toBe(NFT);
    expect(byType(actions, 'nft_mint').map((x) => x.details.nft_item)).toEqual([NFT]);
  });

  it('delayed without a payout NFT: the request failed', () => {
    const t = burnTrace('no-nft');
    const [a] = byType(t.b.classify(t.root, tsWallet), 'stake_withdrawal_request');
    expect(a?.success).toBe(false);
    expect(a?.details.payout_nft).toBeNull();
  });

  it('a burn whose chain stops at the minter is an ordinary jetton_burn', () => {
    const t = burnTrace('plain-burn');
    const actions = t.b.classify(t.root, tsWallet);
    expect(actions.map((a) => a.type)).toEqual(['jetton_burn']);
  });
});

describe('stake_withdrawal (Tonstakers payout NFT burnt)', () => {
  function payoutTrace(byPool: boolean) {
    const b = new TraceBuilder();
    const root = b.external(byPool ? POOL : USER);
    const start = byPool ? b.send(root, PAYOUT, startDistribution(), { value: 500n * TON }) : root;
    const item = b.send(start, NFT, nftBurn(), { value: TON / 10n });
    const note = b.send(item, PAYOUT, nftBurnNotification(41n * TON, USER), { value: TON / 20n });
    const paid = b.send(note, USER, distributed(), { value: 41n * TON });
    return { b, root, start, item, note, paid };
  }

  it('distribution by the pool: stake holder and amount from the burn notification, the pool that started it', () => {
    const t = payoutTrace(true);
    const actions = t.b.classify(t.root, {});
    const [a, ...rest] = byType(actions, 'stake_withdrawal');
    expect(rest).toEqual([]);
    expect(a!.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: USER,
      pool: POOL,
      amount: (41n * TON).toString(),
      payout_nft: NFT,
      tokens_burnt: null,
      asset: null,
    });
    expect(a!.success).toBe(true);
    // The collection's transaction that sent the burn initiated it.
    expect(a!.txHashes).toEqual([t.start, t.item, t.note, t.paid].map((n) => n.tx.hash));
    // The pool's start_distribution stays a contract call.
    expect(byType(actions, 'call_contract').map((x) => x.details.opcode)).toEqual(['0x1140a64f']);
  });

  it('an NFT burnt by its owner: no distribution above it, so no pool', () => {
    const t = payoutTrace(false);
    const [a] = byType(t.b.classify(t.root, {}), 'stake_withdrawal');
    expect(a?.details.pool).toBeNull();
    expect(a?.details.stake_holder).toBe(USER);
  });
});

describe('Tonstakers action ids', () => {
  it('are stable across classifications and differ between actions', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const pool = b.send(root, POOL, deposit(), { value: 3n * TON });
    const minter = b.send(pool, MINTER, mintJettons(TON), { value: TON / 2n });
    b.send(minter, TS_WALLET, internalTransfer(TON), { value: TON / 4n });
    const first = b.classify(root, tsWallet).map((a) => a.actionId);
    const again = b.classify(root, tsWallet).map((a) => a.actionId);
    expect(again).toEqual(first);
    expect(first).toHaveLength(1);
    expect(first[0]).not.toBe(root.tx.hash);
  });
});
