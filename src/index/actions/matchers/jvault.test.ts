// JVault patterns the mainnet vectors do not hold (an unstake the pool paid out, a claim of several jettons), built
// message by message with bodies written here per JVault's TL-B as toncenter reads it, and TEP-74. And the stake
// wallet's data as interfaces.ts loads it (a scratch PGlite database): pool, stake jetton, the jetton the pool locks.
import { Address, beginCell, Dictionary } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, type TestDatabase } from '../../../../test/helpers/database.ts';
import { migrate } from '../../../db/index.ts';
import { loadInterfaces, traceRequests } from '../interfaces.ts';
import { traceOfTree } from '../tree.ts';
import type { ContractInfo } from '../types.ts';
import { excessBody, internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { readPoolLockWallet, readStakeWalletData } from './jvault.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const OWNER = addr('jvault staker');
const STAKE_WALLET = addr('jvault stake wallet');
const STAKE_JETTON = addr('jvault stake jetton');
const POOL = addr('jvault pool');
const LOCK_WALLET = addr('jvault pool lock wallet');
const OWNER_WALLET = addr('staker locked-jetton wallet');
const LOCKED = addr('locked jetton');
const OTHER = addr('another reward jetton');

const op = (code: number) => beginCell().storeUint(code, 32).storeUint(9n, 64);
const unstake = (amount: bigint) => op(0x499a9262).storeCoins(amount).storeBit(0).endCell();
const unstakeRequest = (amount: bigint) => op(0x0168d4b7).storeCoins(amount).endCell();
const requestUpdateRewards = () => op(0xf5c5baa3).endCell();
const updateRewards = () => op(0xae9307ce).endCell();
const claim = (jettons: string[]) => {
  const d = Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Bool());
  for (const j of jettons) d.set(Address.parse(j), true);
  return op(0x78d9f109).storeDict(d).endCell();
};
const sendClaimed = () => op(0x44bc1fe3).endCell();

const interfaces: Record<string, ContractInfo> = {
  [STAKE_WALLET]: { jettonWallet: { jetton: STAKE_JETTON, owner: OWNER } },
  [LOCK_WALLET]: { jettonWallet: { jetton: LOCKED, owner: POOL } },
  [OWNER_WALLET]: { jettonWallet: { jetton: LOCKED, owner: OWNER } },
};

/** The same, with what the stake wallet's data (and its pool's) says. */
const withData: Record<string, ContractInfo> = {
  ...interfaces,
  [STAKE_WALLET]: {
    ...interfaces[STAKE_WALLET],
    jvaultStakeWallet: { pool: POOL, stakeJetton: STAKE_JETTON, lockedJetton: LOCKED },
  },
};

/** A stake wallet's data: pool_address minter_address, then more (here a balance). */
const stakeWalletData = () =>
  beginCell().storeAddress(Address.parse(POOL)).storeAddress(Address.parse(STAKE_JETTON)).storeCoins(5n).endCell();
/** A pool's data: a flag and 32 bits, admin, creator, lock wallet, then more. */
const poolData = () =>
  beginCell()
    .storeBit(1)
    .storeUint(77, 32)
    .storeAddress(Address.parse(addr('jvault admin')))
    .storeAddress(Address.parse(addr('jvault creator')))
    .storeAddress(Address.parse(LOCK_WALLET))
    .storeCoins(1n)
    .endCell();

/** The pool's payout: its lock wallet's transfer to the owner, with the notification and the excess. */
function payout(b: TraceBuilder, pool: ReturnType<TraceBuilder['send']>, amount: bigint) {
  const t = b.send(pool, LOCK_WALLET, jettonTransferBody(amount, OWNER, OWNER, null));
  const it = b.send(t, OWNER_WALLET, internalTransferBody(amount, POOL, OWNER, null));
  return [t, it, b.send(it, OWNER, notifyBody(amount, POOL, null)), b.send(it, OWNER, excessBody())];
}

describe('jvault_unstake (JVault)', () => {
  it('the pool paid out (and took a fee): the pool, the paid jetton, the stake jetton, every message', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const wallet = b.send(root, STAKE_WALLET, unstake(1000n));
    const pool = b.send(wallet, POOL, requestUpdateRewards());
    const fee = b.send(pool, OWNER, null);
    const paid = payout(b, pool, 990n);
    const update = b.send(pool, STAKE_WALLET, updateRewards());
    const back = b.send(update, OWNER, excessBody());
    const actions = b.classify(root, interfaces);
    expect(actions.map((a) => a.type)).toEqual(['jvault_unstake']);
    const a = actions[0]!;
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      source: OWNER,
      stake_wallet: STAKE_WALLET,
      pool: POOL,
      amount: '1000',
      exit_code: null,
      asset: LOCKED,
      staking_asset: STAKE_JETTON,
    });
    expect(new Set(a.txHashes)).toEqual(
      new Set([root, wallet, pool, fee, ...paid, update, back].map((n) => n.tx.hash)),
    );
  });

  it('an unstake the pool did not answer makes no action without the stake wallet data (it names the pool)', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    b.send(root, STAKE_WALLET, unstake(1000n), { aborted: true });
    expect(byType(b.classify(root, interfaces), 'jvault_unstake')).toEqual([]);
  });

  it('an unstake the pool did not answer, with the data: the stake wallet alone, its exit code, never failed', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const wallet = b.send(root, STAKE_WALLET, unstake(1000n), { aborted: true });
    b.bounce(wallet, null);
    const [a, ...rest] = byType(b.classify(root, withData), 'jvault_unstake');
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ success: true, destination: POOL, asset: LOCKED, asset2: STAKE_JETTON, opcode: 401 });
    expect(a?.details).toEqual({
      source: OWNER,
      stake_wallet: STAKE_WALLET,
      pool: POOL,
      amount: '1000',
      exit_code: 401,
      asset: LOCKED,
      staking_asset: STAKE_JETTON,
    });
    expect(a?.txHashes).toEqual([root, wallet].map((n) => n.tx.hash));
  });
});

describe('jvault_unstake_request (JVault)', () => {
  it('the pool updated the rewards: the jetton the pool locks is the asset (from the data)', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const wallet = b.send(root, STAKE_WALLET, unstakeRequest(500n));
    const pool = b.send(wallet, POOL, requestUpdateRewards());
    b.send(pool, STAKE_WALLET, updateRewards());
    const [a] = byType(b.classify(root, withData), 'jvault_unstake_request');
    expect(a).toMatchObject({ success: true, destination: POOL, asset: LOCKED, asset2: STAKE_JETTON, opcode: null });
    const [plain] = byType(b.classify(root, interfaces), 'jvault_unstake_request');
    expect(plain).toMatchObject({ success: true, destination: POOL, asset: null, asset2: STAKE_JETTON });
  });

  it('a request the stake wallet refused: failed, the pool and asset from the data, its exit code', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const wallet = b.send(root, STAKE_WALLET, unstakeRequest(500n), { aborted: true });
    const [a] = byType(b.classify(root, withData), 'jvault_unstake_request');
    expect(a).toMatchObject({ success: false, destination: POOL, asset: LOCKED, amount: 500n, opcode: 401 });
    expect(a?.txHashes).toEqual([root, wallet].map((n) => n.tx.hash));
    expect(byType(b.classify(root, interfaces), 'jvault_unstake_request')).toEqual([]);
  });
});

describe('JVault account data', () => {
  it("reads a stake wallet's pool and stake jetton, and a pool's lock wallet", () => {
    expect(readStakeWalletData(stakeWalletData())).toEqual({ pool: POOL, stakeJetton: STAKE_JETTON });
    expect(readPoolLockWallet(poolData())).toBe(LOCK_WALLET);
    expect(readStakeWalletData(beginCell().storeUint(1, 8).endCell())).toBeNull();
  });

  describe('loaded for the receivers of unstakes (traceRequests, loadInterfaces over PGlite)', () => {
    let t: TestDatabase | undefined;
    beforeAll(async () => {
      t = await setupDatabase('pglite');
      await migrate(t.db);
      const state = `INSERT INTO latest_account_states (account, hash, balance, account_status, timestamp,
          last_trans_hash, last_trans_lt, data_boc) VALUES ($1, $2, 1, 'active', 1, $2, 1, $3)`;
      const h = Buffer.alloc(32, 1).toString('base64');
      await t.db.query(state, [STAKE_WALLET, h, stakeWalletData().toBoc().toString('base64')]);
      await t.db.query(state, [POOL, h, poolData().toBoc().toString('base64')]);
      await t.db.query(
        `INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt, code_hash, data_hash)
         VALUES ($1, 1, $2, $3, 1, $4, $4)`,
        [LOCK_WALLET, POOL, LOCKED, h],
      );
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('an unstake the pool never got: the stake wallet known with its pool, stake jetton and locked jetton', async () => {
      const b = new TraceBuilder();
      const root = b.external(OWNER);
      b.send(root, STAKE_WALLET, unstake(1000n), { aborted: true });
      const trace = traceOfTree({ root, nodes: b.nodes });
      const wanted = traceRequests([trace]);
      expect(wanted.accountData).toEqual([{ account: STAKE_WALLET, as: 'jvaultStakeWallet' }]);
      expect(wanted.addresses).not.toContain(POOL);
      const known = await loadInterfaces(t!.db, wanted.addresses, wanted.accountData);
      expect(known.get(STAKE_WALLET)?.jvaultStakeWallet).toEqual({
        pool: POOL,
        stakeJetton: STAKE_JETTON,
        lockedJetton: LOCKED,
      });
    });
  });
});

describe('jvault_claim (JVault)', () => {
  function claimTrace(jettons: string[]) {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const wallet = b.send(root, STAKE_WALLET, claim(jettons));
    const pool = b.send(wallet, POOL, sendClaimed());
    payout(b, pool, 77n);
    b.send(pool, STAKE_WALLET, updateRewards());
    return byType(b.classify(root, interfaces), 'jvault_claim');
  }

  it('one jetton claimed: paired with the payout amount', () => {
    const [a] = claimTrace([LOCKED]);
    expect(a?.details).toEqual({
      claimed_rewards: [{ jetton: LOCKED, amount: '77' }],
      source: OWNER,
      stake_wallet: STAKE_WALLET,
      pool: POOL,
    });
  });

  it('several jettons claimed and one payout seen: no pairs, as toncenter’s API shows it', () => {
    const [a] = claimTrace([LOCKED, OTHER]);
    expect(a?.details).toMatchObject({ claimed_rewards: [] });
  });
});
