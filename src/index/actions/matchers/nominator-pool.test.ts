// Nominator pool actions over traces built here with the pool's answers as func/pool.fc (ton-blockchain/nominator-pool)
// sends them: "d" and "w" text comments from nominators, the stake paid back as a plain transfer, the rest of a
// request's value returned after it, process_withdraw_requests (op 2) paying queued nominators. And the pool's
// recognition: loadInterfaces over a real PostgreSQL database marks an account whose code hash is the one
// vectors/code_hashes.json lists for nominator_pool_v1, and nothing else.
import { beginCell, type Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, type TestDatabase } from '../../../../test/helpers/database.ts';
import { hasVectors, loadVector } from '../../../../test/helpers/vectors.ts';
import { migrate } from '../../../db/index.ts';
import { loadInterfaces } from '../interfaces.ts';
import type { ContractInfo } from '../types.ts';
import { NOMINATOR_POOL_CODE_HASH } from './nominator-pool.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const NOMINATOR = addr('nominator wallet');
const OTHER = addr('second nominator');
const VALIDATOR = addr('validator wallet').replace(/^0:/, '-1:');
const POOL = addr('nominator pool').replace(/^0:/, '-1:');
const TON = 1_000_000_000n;

const text = (s: string): Cell => beginCell().storeUint(0, 32).storeStringTail(s).endCell();
const pools: Record<string, ContractInfo> = { [POOL]: { nominatorPool: true } };

describe('stake_deposit (nominator pool, comment "d")', () => {
  it('a "d" to a known pool: the whole value staked', () => {
    const b = new TraceBuilder();
    const root = b.external(NOMINATOR);
    const pool = b.send(root, POOL, text('d'), { value: 10_001n * TON });
    const actions = b.classify(root, pools);
    expect(actions.map((a) => a.type)).toEqual(['stake_deposit']);
    const a = actions[0]!;
    expect(a.details).toEqual({
      provider: 'nominator',
      stake_holder: NOMINATOR,
      pool: POOL,
      amount: (10_001n * TON).toString(),
      tokens_minted: null,
      asset: null,
    });
    expect(a.success).toBe(true);
    expect([a.source, a.destination, a.amount]).toEqual([NOMINATOR, POOL, 10_001n * TON]);
    expect(a.txHashes).toEqual([root.tx.hash, pool.tx.hash]);
    expect(a.accounts).toEqual([NOMINATOR, POOL].sort());
  });

  it('a "d" the pool refused and bounced: failed, the bounce belongs to it', () => {
    const b = new TraceBuilder();
    const root = b.external(NOMINATOR);
    const pool = b.send(root, POOL, text('d'), { value: 5n * TON, aborted: true });
    const back = b.bounce(pool, beginCell().storeUint(0xffffffff, 32).storeUint(0, 32).endCell());
    const [a] = byType(b.classify(root, pools), 'stake_deposit');
    expect(a?.success).toBe(false);
    expect(a?.txHashes).toEqual([root, pool, back].map((n) => n.tx.hash));
  });

  it('a "d" to an account not known as a pool stays a ton_transfer', () => {
    const b = new TraceBuilder();
    const root = b.external(NOMINATOR);
    b.send(root, POOL, text('d'), { value: 5n * TON });
    const actions = b.classify(root, {});
    expect(actions.map((a) => a.type)).toEqual(['ton_transfer']);
    expect(actions[0]!.details.comment).toBe('d');
  });
});

describe('stake_withdrawal / stake_withdrawal_request (nominator pool, comment "w")', () => {
  function withdraw(answers: bigint[]) {
    const b = new TraceBuilder();
    const root = b.external(NOMINATOR);
    const pool = b.send(root, POOL, text('w'), { value: TON });
    const sent = answers.map((v) => b.send(pool, NOMINATOR, null, { value: v }));
    return { b, root, pool, sent };
  }

  it('paid at once (one transfer worth more than the request): a stake_withdrawal of the payout', () => {
    const t = withdraw([10_050n * TON]);
    const actions = t.b.classify(t.root, pools);
    expect(actions.map((a) => a.type)).toEqual(['stake_withdrawal']);
    expect(actions[0]!.details).toEqual({
      provider: 'nominator',
      stake_holder: NOMINATOR,
      pool: POOL,
      amount: (10_050n * TON).toString(),
      payout_nft: null,
      tokens_burnt: null,
      asset: null,
    });
    expect(actions[0]!.amount).toBe(10_050n * TON);
    expect(actions[0]!.txHashes).toEqual([t.root, t.pool, t.sent[0]!].map((n) => n.tx.hash));
  });

  it('paid at once with the rest returned: the payout is the earlier transfer, both belong to it', () => {
    const t = withdraw([2n * TON, 3n * TON]);
    const actions = t.b.classify(t.root, pools);
    expect(actions.map((a) => a.type)).toEqual(['stake_withdrawal']);
    expect(actions[0]!.details.amount).toBe((2n * TON).toString());
    expect(actions[0]!.txHashes).toEqual([t.root, t.pool, ...t.sent].map((n) => n.tx.hash));
  });

  it('queued (only the rest of the request returned): a stake_withdrawal_request holding that transfer', () => {
    const t = withdraw([TON / 2n]);
    const actions = t.b.classify(t.root, pools);
    expect(actions.map((a) => a.type)).toEqual(['stake_withdrawal_request']);
    expect(actions[0]!.details).toEqual({
      provider: 'nominator',
      stake_holder: NOMINATOR,
      pool: POOL,
      payout_nft: null,
      asset: null,
      tokens_burnt: null,
    });
    expect(actions[0]!.amount).toBeUndefined();
    expect(actions[0]!.txHashes).toEqual([t.root, t.pool, t.sent[0]!].map((n) => n.tx.hash));
  });

  it('queued without any answer: a stake_withdrawal_request of the request alone', () => {
    const t = withdraw([]);
    const [a, ...rest] = t.b.classify(t.root, pools);
    expect(rest).toEqual([]);
    expect([a!.type, a!.success, a!.txHashes]).toEqual([
      'stake_withdrawal_request',
      true,
      [t.root.tx.hash, t.pool.tx.hash],
    ]);
  });

  it('a "w" the pool failed on (no such nominator): a failed request', () => {
    const b = new TraceBuilder();
    const root = b.external(NOMINATOR);
    b.send(root, POOL, text('w'), { value: TON, aborted: true });
    const [a] = byType(b.classify(root, pools), 'stake_withdrawal_request');
    expect(a?.success).toBe(false);
  });
});

describe('stake_withdrawal (nominator pool, process_withdraw_requests)', () => {
  it('op 2: a contract call, and one stake_withdrawal per nominator paid', () => {
    const b = new TraceBuilder();
    const root = b.external(VALIDATOR);
    const call = b.send(root, POOL, beginCell().storeUint(2, 32).storeUint(9, 64).endCell(), { value: TON });
    const p1 = b.send(call, NOMINATOR, null, { value: 20_000n * TON });
    const p2 = b.send(call, OTHER, null, { value: 15_000n * TON });
    const actions = b.classify(root, pools);
    expect(actions.map((a) => a.type)).toEqual(['call_contract', 'stake_withdrawal', 'stake_withdrawal']);
    const [c, w1, w2] = actions;
    expect(c!.details).toMatchObject({ opcode: '0x00000002', source: VALIDATOR, destination: POOL });
    expect([w1!.details, w2!.details]).toEqual([
      {
        provider: 'nominator',
        stake_holder: NOMINATOR,
        pool: POOL,
        amount: (20_000n * TON).toString(),
        payout_nft: null,
        tokens_burnt: null,
        asset: null,
      },
      {
        provider: 'nominator',
        stake_holder: OTHER,
        pool: POOL,
        amount: (15_000n * TON).toString(),
        payout_nft: null,
        tokens_burnt: null,
        asset: null,
      },
    ]);
    // Each payout is its own transaction, initiated by the pool's.
    expect(w1!.txHashes).toEqual([call.tx.hash, p1.tx.hash]);
    expect(w2!.txHashes).toEqual([call.tx.hash, p2.tx.hash]);
    expect(new Set(actions.map((a) => a.actionId)).size).toBe(3);
  });
});

describe('nominator pools known by code hash (loadInterfaces, PostgreSQL)', () => {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await setupDatabase('postgres');
    await migrate(t.db);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.skipIf(!hasVectors)("marks the account whose code hash is code_hashes.json's nominator_pool_v1", async () => {
    const rows = loadVector<{ rows: Array<{ name: string; code_hash: string }> }>('code_hashes.json').rows;
    const hex = rows.find((r) => r.name === 'nominator_pool_v1')?.code_hash;
    const walletHex = rows.find((r) => r.name === 'wallet_v4r2')?.code_hash;
    if (!hex || !walletHex) throw new Error('code_hashes.json lacks nominator_pool_v1 or wallet_v4r2');
    const poolHash = Buffer.from(hex, 'hex').toString('base64');
    expect(NOMINATOR_POOL_CODE_HASH).toBe(poolHash);
    const h = (n: number) => Buffer.alloc(32, n).toString('base64');
    for (const [account, code] of [
      [POOL, poolHash],
      [NOMINATOR, Buffer.from(walletHex, 'hex').toString('base64')],
    ] as const) {
      await t!.db.query(
        `INSERT INTO latest_account_states (account, hash, balance, account_status, timestamp, last_trans_hash,
           last_trans_lt, code_hash) VALUES ($1, $2, 1, 'active', 1, $3, 1, $4)`,
        [account, h(1), h(2), code],
      );
    }
    const known = await loadInterfaces(t!.db, [POOL, NOMINATOR, OTHER]);
    expect(known.get(POOL)).toEqual({ nominatorPool: true });
    expect(known.get(NOMINATOR)?.nominatorPool).toBeUndefined();
    expect(known.has(OTHER)).toBe(false);
  });
});
