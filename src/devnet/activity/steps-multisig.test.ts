// The multisig steps of the activity on a @ton/sandbox chain with the devnet's genesis wallets: two cycles of
// deploy -> order -> approve all succeed, and what the ledger claims is what the chain shows, read here through
// the contracts' getters and the emulator's transactions (not through the steps' own waits).
import { type Address, type Cell, type Transaction, toNano } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { MULTISIG_OP } from '../../ton/index.ts';
import {
  getOrderAddressArgs,
  parseOrder,
  readMultisigData,
  readMultisigOrderData,
  readOrderAddress,
} from '../contracts/index.ts';
import { deriveWallets } from '../genesis/index.ts';
import { startActivity } from './activity.ts';
import type { ActivityChain } from './chain.ts';

const accountOf = (tx: Transaction, a: Address) => tx.address === BigInt(`0x${a.hash.toString('hex')}`);

/** A sandbox holding the genesis wallets (1000 TON each) and an ActivityChain over it that records every transaction. */
async function sandbox(seed: string) {
  const bc = await Blockchain.create();
  const wallets = await deriveWallets(seed);
  for (const w of wallets) {
    const account = { address: w.address, code: w.stateInit.code!, data: w.stateInit.data!, balance: toNano('1000') };
    await bc.setShardAccount(w.address, createShardAccount(account));
  }
  const txs: Transaction[] = [];
  const chain: ActivityChain = {
    now: async () => Math.floor(Date.now() / 1000),
    async getAccount(address) {
      const shard = (await bc.getContract(address)).account;
      const a = shard.account;
      if (!a) return { status: 'nonexist', balance: 0n, lastTx: null };
      const hash = Buffer.from(shard.lastTransactionHash.toString(16).padStart(64, '0'), 'hex');
      const lastTx = shard.lastTransactionLt > 0n ? { lt: shard.lastTransactionLt, hash } : null;
      return { status: a.storage.state.type, balance: a.storage.balance.coins, lastTx };
    },
    async runGetMethod(address, method, args = []) {
      try {
        const r = await bc.runGetMethod(address, method, args);
        return { exitCode: r.exitCode, stack: r.stack };
      } catch {
        return { exitCode: -256, stack: [] }; // an inactive account: a liteserver answers -256
      }
    },
    async sendExternal(message: Cell) {
      try {
        txs.push(...(await bc.sendMessage(message)).transactions);
      } catch {
        // an external the wallet refuses: a node drops it too
      }
    },
    async getTransactions(address, limit) {
      return txs
        .filter((t) => accountOf(t, address))
        .reverse()
        .slice(0, limit);
    },
  };
  const entries = wallets.map((w) => ({ version: w.version, mnemonic: w.mnemonic, raw: w.address.toRawString() }));
  return { bc, chain, entries, txs, wallets };
}

async function getter(
  bc: Blockchain,
  address: Address,
  method: string,
  args: Parameters<Blockchain['runGetMethod']>[2] = [],
) {
  const r = await bc.runGetMethod(address, method, args);
  expect(r.exitCode, `${method} on ${address.toRawString()}`).toBe(0);
  return r.stack;
}

function inbound(tx: Transaction) {
  const m = tx.inMessage;
  return m?.info.type === 'internal' ? { info: m.info, body: m.body } : undefined;
}

const opOf = (body: Cell) => {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : undefined;
};

describe('multisig activity steps (sandbox)', () => {
  it('deploys, proposes and approves twice; the chain shows the ledger', async () => {
    const s = await sandbox('multisig-activity');
    const handle = await startActivity({
      chain: s.chain,
      wallets: s.entries,
      seed: 'multisig-activity',
      cycle: ['multisig-deploy', 'multisig-order', 'multisig-approve'],
      steps: 6,
      intervalMs: 0,
      pollMs: 10,
      stepTimeoutMs: 5_000,
    });
    const counters = await handle.done;
    expect(counters.lastFailure).toBeNull();
    for (const kind of ['multisig-deploy', 'multisig-order', 'multisig-approve'] as const) {
      expect(counters.byKind[kind]).toEqual({ ok: 2, failed: 0, skipped: 0 });
    }

    const ledger = handle.ledger().multisigs;
    expect(ledger).toHaveLength(2);
    const genesis = new Set(s.wallets.map((w) => w.address.toRawString()));
    for (const m of ledger) {
      // A 2-of-3 multisig whose signers are the genesis wallets.
      expect(m.threshold).toBe(2);
      expect(new Set(m.signers.map((a) => a.toRawString()))).toEqual(genesis);
      const md = readMultisigData(await getter(s.bc, m.address, 'get_multisig_data'));
      expect(md.nextOrderSeqno).toBe(m.nextOrderSeqno);
      expect(md.threshold).toBe(m.threshold);
      expect(md.signers.map((a) => a.toRawString())).toEqual(m.signers.map((a) => a.toRawString()));
      expect(md.proposers.map((a) => a.toRawString())).toEqual(m.proposers.map((a) => a.toRawString()));

      for (const o of m.orders) {
        const derived = readOrderAddress(
          await getter(s.bc, m.address, 'get_order_address', getOrderAddressArgs(o.seqno)),
        );
        expect(derived.equals(o.address)).toBe(true);
        const od = readMultisigOrderData(await getter(s.bc, o.address, 'get_order_data'));
        if (!od.init) throw new Error(`order ${o.address.toRawString()} is not initialised`);
        expect(od.multisig.equals(m.address)).toBe(true);
        expect(od.orderSeqno).toBe(o.seqno);
        expect(od.approvalsMask).toBe(o.approvalsMask);
        expect(od.approvalsNum).toBe(o.approvals.length);
        expect(od.sentForExecution).toBe(o.executed);
        expect(od.expirationDate).toBe(o.expirationDate);
        const [action] = parseOrder(od.order);
        if (action?.type !== 'send_message' || action.message.info.type !== 'internal') throw new Error('bad action');
        expect(action.message.info.dest.equals(o.payment.receiver)).toBe(true);
        expect(action.message.info.value.coins).toBe(o.payment.value);

        // The proposer's signer index is the first approval; the second came with approve -> approve_accepted.
        expect(m.signers[o.approvals[0]!]!.equals(o.proposer)).toBe(true);
        expect(o.executed).toBe(true);
        const approver = m.signers[o.approvals[1]!]!;
        const accepted = s.txs.find((t) => {
          const m2 = inbound(t);
          return (
            accountOf(t, approver) && m2?.info.src.equals(o.address) && opOf(m2.body) === MULTISIG_OP.approveAccepted
          );
        });
        expect(accepted, 'approve_accepted to the approver').toBeDefined();
        const paid = s.txs.filter((t) => {
          const m2 = inbound(t);
          return accountOf(t, o.payment.receiver) && m2?.info.src.equals(m.address);
        });
        expect(paid.map((t) => inbound(t)!.info.value.coins)).toContain(o.payment.value);
      }
    }
    expect(ledger.flatMap((m) => m.orders)).toHaveLength(2);
  });
});
