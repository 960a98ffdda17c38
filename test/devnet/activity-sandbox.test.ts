// The activity driver over @ton/sandbox's Blockchain (a stand-in chain with the same wallets, contracts and emulator):
// every kind of step succeeds, what the ledger claims is what the chain shows (getters and transactions read here,
// not by the driver), the run is a pure function of the seed, and bad inputs are refused up front.
import { Address, type Cell, type Transaction, toNano } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/common/index.ts';
import type { Log as ActivityLog } from '../../src/common/logger.ts';
import {
  ACTIVITY_CYCLE,
  type ActivityChain,
  type ActivityLedger,
  type ActivityWalletEntry,
  startActivity,
} from '../../src/devnet/activity/index.ts';
import { checkDnsLedger, checkGovernedLedger } from '../../src/devnet/activity/ledger-dns-governed.test-util.ts';
import { checkSaleLedger, type SaleChainView } from '../../src/devnet/activity/ledger-sale.test-util.ts';
import { checkStdJettonLedger } from '../../src/devnet/activity/ledger-standard-jetton.test-util.ts';
import {
  getWalletAddressArgs,
  parseVestingWhitelist,
  readJettonData,
  readJettonWalletAddress,
  readJettonWalletData,
  readNftAddressByIndex,
  readNftData,
  readVestingData,
} from '../../src/devnet/contracts/index.ts';
import { deriveWallets } from '../../src/devnet/genesis/index.ts';

interface Sandbox {
  bc: Blockchain;
  chain: ActivityChain;
  entries: ActivityWalletEntry[];
  /** Every transaction the chain ran, oldest first. */
  txs: Transaction[];
}

function accountOf(tx: Transaction, address: Address): boolean {
  return tx.address === BigInt(`0x${address.hash.toString('hex')}`);
}

/** A sandbox with the devnet's genesis wallets (deployed, 1000 TON each) and an ActivityChain over it. */
async function sandbox(seed: string): Promise<Sandbox> {
  const bc = await Blockchain.create();
  const wallets = await deriveWallets(seed);
  for (const w of wallets) {
    await bc.setShardAccount(
      w.address,
      createShardAccount({
        address: w.address,
        code: w.stateInit.code!,
        data: w.stateInit.data!,
        balance: toNano('1000'),
      }),
    );
  }
  const txs: Transaction[] = [];
  const chain: ActivityChain = {
    now: async () => Math.floor(Date.now() / 1000),
    async getAccount(address) {
      const account = (await bc.getContract(address)).account;
      const a = account.account;
      if (!a) return { status: 'nonexist', balance: 0n, lastTx: null };
      const hash = Buffer.from(account.lastTransactionHash.toString(16).padStart(64, '0'), 'hex');
      return {
        status: a.storage.state.type,
        balance: a.storage.balance.coins,
        lastTx: account.lastTransactionLt > 0n ? { lt: account.lastTransactionLt, hash } : null,
      };
    },
    async runGetMethod(address, method, args = []) {
      try {
        const r = await bc.runGetMethod(address, method, args);
        return { exitCode: r.exitCode, stack: r.stack };
      } catch {
        return { exitCode: -256, stack: [] }; // sandbox throws for inactive accounts; a liteserver answers -256
      }
    },
    async sendExternal(message: Cell) {
      try {
        txs.push(...(await bc.sendMessage(message)).transactions);
      } catch {
        // an external the wallet does not accept: a node drops it too
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
  return { bc, chain, entries, txs };
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

/** What the ledger says, checked against the chain through getters and transactions. */
async function checkLedger(s: Sandbox, ledger: ActivityLedger): Promise<void> {
  expect(ledger.jettons.length).toBeGreaterThan(0);
  for (const j of ledger.jettons) {
    const data = readJettonData(await getter(s.bc, j.master, 'get_jetton_data'));
    expect(data.totalSupply).toBe(j.totalSupply);
    expect(data.adminAddress?.equals(j.admin)).toBe(true);
    let sum = 0n;
    for (const [ownerRaw, balance] of j.balances) {
      const owner = Address.parseRaw(ownerRaw);
      const wallet = readJettonWalletAddress(
        await getter(s.bc, j.master, 'get_wallet_address', getWalletAddressArgs(owner)),
      );
      const wd = readJettonWalletData(await getter(s.bc, wallet, 'get_wallet_data'));
      expect(wd.ownerAddress.equals(owner)).toBe(true);
      expect(wd.balance).toBe(balance);
      sum += balance;
    }
    // every jetton the minter issued is in some wallet the ledger knows
    expect(sum).toBe(data.totalSupply);
  }
  expect(ledger.collections.length).toBeGreaterThan(0);
  for (const c of ledger.collections) {
    for (const item of c.items) {
      const address = readNftAddressByIndex(
        await getter(s.bc, c.address, 'get_nft_address_by_index', [{ type: 'int', value: item.index }]),
      );
      expect(address.equals(item.address)).toBe(true);
      const nd = readNftData(await getter(s.bc, item.address, 'get_nft_data'));
      expect(nd.init).toBe(true);
      expect(nd.ownerAddress?.equals(item.owner)).toBe(true);
    }
  }
  expect(ledger.bounces.length).toBeGreaterThan(0);
  for (const b of ledger.bounces) {
    const bounced = s.txs.find(
      (t) =>
        accountOf(t, b.from) &&
        t.inMessage?.info.type === 'internal' &&
        t.inMessage.info.bounced &&
        t.inMessage.info.src.equals(b.to),
    );
    expect(bounced, `bounce back to ${b.from.toRawString()}`).toBeDefined();
  }
  expect(ledger.failedComputes.length).toBeGreaterThan(0);
  for (const f of ledger.failedComputes) {
    const refused = s.txs.find(
      (t) =>
        accountOf(t, f.to) &&
        t.inMessage?.info.type === 'internal' &&
        t.inMessage.info.src.equals(f.from) &&
        t.description.type === 'generic' &&
        t.description.aborted &&
        t.description.computePhase.type === 'vm' &&
        t.description.computePhase.exitCode === f.exitCode,
    );
    expect(refused, `refused message at ${f.to.toRawString()}`).toBeDefined();
  }
}

/** Code hashes indexers key the standard contracts on (contracts.md §0.1, §9). */
const STANDARD_HASHES = {
  vesting: 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590',
  nftCollection: '64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca',
  nftItem: '4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42',
  highloadV3: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525',
};

async function codeHash(bc: Blockchain, address: Address): Promise<string | undefined> {
  const state = (await bc.getContract(address)).account.account?.storage.state;
  return state?.type === 'active' ? state.state.code?.hash().toString('hex') : undefined;
}

/** A transaction of `to` caused by a message from `from` carrying `value`. */
function paid(s: Sandbox, from: Address, to: Address, value: bigint): boolean {
  return s.txs.some(
    (t) =>
      accountOf(t, to) &&
      t.inMessage?.info.type === 'internal' &&
      t.inMessage.info.src.equals(from) &&
      t.inMessage.info.value.coins === value,
  );
}

/** The sandbox as the sale check reads a chain: getters, code, a transaction by (lt, hash). */
function saleView(s: Sandbox): SaleChainView {
  return {
    getter: (address, method, args = []) => getter(s.bc, address, method, args),
    codeHash: (address) => codeHash(s.bc, address),
    transaction: async (address, lt, hash) =>
      s.txs.find((t) => accountOf(t, address) && t.lt === lt && t.hash().equals(hash)),
  };
}

/** Vesting wallets, tonweb's NFT collection and highload wallets: the chain shows what the ledger says. */
async function checkStandardLedger(s: Sandbox, ledger: ActivityLedger): Promise<void> {
  const { vestings, nftCollections, highloadWallets } = ledger.standard;
  expect([vestings.length, nftCollections.length, highloadWallets.length]).toEqual([2, 2, 2]);
  for (const v of vestings) {
    expect(await codeHash(s.bc, v.address)).toBe(STANDARD_HASHES.vesting);
    const stack = await getter(s.bc, v.address, 'get_vesting_data');
    const d = readVestingData(stack);
    expect([d.startTime, d.totalDuration, d.unlockPeriod, d.cliffDuration, d.totalAmount]).toEqual(
      [v.params.startTime, v.params.totalDuration, v.params.unlockPeriod, v.params.cliffDuration]
        .map(BigInt)
        .concat(v.params.totalAmount),
    );
    expect(d.senderAddress.equals(v.params.senderAddress) && d.ownerAddress.equals(v.params.ownerAddress)).toBe(true);
    const listed = parseVestingWhitelist(d.whitelist).map((a) => a.toRawString());
    expect(listed.sort()).toEqual(v.whitelist.map((a) => a.toRawString()).sort());
    for (const send of v.sends) expect(paid(s, v.address, send.to, send.value), `vesting send ${send.step}`).toBe(true);
  }
  expect(vestings.flatMap((v) => v.sends).length).toBeGreaterThan(0);
  for (const c of nftCollections) {
    expect(await codeHash(s.bc, c.address)).toBe(STANDARD_HASHES.nftCollection);
    for (const item of c.items) {
      const address = readNftAddressByIndex(
        await getter(s.bc, c.address, 'get_nft_address_by_index', [{ type: 'int', value: item.index }]),
      );
      expect(address.equals(item.address)).toBe(true);
      expect(await codeHash(s.bc, item.address)).toBe(STANDARD_HASHES.nftItem);
      expect(readNftData(await getter(s.bc, item.address, 'get_nft_data')).ownerAddress?.equals(item.owner)).toBe(true);
    }
  }
  for (const hw of highloadWallets) {
    expect(await codeHash(s.bc, hw.address)).toBe(STANDARD_HASHES.highloadV3);
    const pk = await getter(s.bc, hw.address, 'get_public_key');
    expect(pk).toEqual([{ type: 'int', value: BigInt(`0x${hw.publicKey.toString('hex')}`) }]);
    for (const send of hw.sends) {
      const done = await getter(s.bc, hw.address, 'processed?', [
        { type: 'int', value: send.queryId },
        { type: 'int', value: 0n },
      ]);
      expect(done).toEqual([{ type: 'int', value: -1n }]);
      expect(paid(s, hw.address, send.to, send.value), `highload send ${send.step}`).toBe(true);
    }
  }
  expect(highloadWallets.flatMap((h) => h.sends).length).toBeGreaterThan(0);
}

function summary(ledger: ActivityLedger) {
  return {
    transfers: ledger.transfers.map((t) => [t.from.toRawString(), t.to.toRawString(), t.value.toString(), t.comment]),
    bounces: ledger.bounces.map((b) => b.to.toRawString()),
    jettons: ledger.jettons.map((j) => [j.master.toRawString(), j.totalSupply.toString(), [...j.balances]]),
    collections: ledger.collections.map((c) => [
      c.address.toRawString(),
      c.items.map((i) => [i.index, i.owner.toRawString()]),
    ]),
  };
}

describe('devnet activity on a sandbox chain', () => {
  it('runs two full cycles with every kind of step succeeding, and the chain shows what the ledger says', async () => {
    const s = await sandbox('activity-sandbox');
    const lines: Array<{ level: string; msg: string }> = [];
    const log: ActivityLog = (level, msg) => lines.push({ level, msg });
    const handle = await startActivity({
      chain: s.chain,
      wallets: s.entries,
      seed: 'activity-sandbox',
      steps: 2 * ACTIVITY_CYCLE.length,
      intervalMs: 0,
      pollMs: 10,
      stepTimeoutMs: 5_000,
      log,
    });
    const counters = await handle.done;
    expect(counters.lastFailure).toBeNull();
    const n = 2 * ACTIVITY_CYCLE.length;
    expect(counters).toMatchObject({ steps: n, ok: n, failed: 0, skipped: 0 });
    for (const kind of ACTIVITY_CYCLE) expect(counters.byKind[kind]).toEqual({ ok: 2, failed: 0, skipped: 0 });
    expect(lines.filter((l) => l.msg === 'Ran activity step')).toHaveLength(n);
    await checkLedger(s, handle.ledger());
    await checkStandardLedger(s, handle.ledger());
    await checkDnsLedger(s.bc, handle.ledger());
    await checkGovernedLedger(s.bc, s.txs, handle.ledger());
    await checkStdJettonLedger(s.bc, handle.ledger());
    // One GetGems sale per cycle, listed then bought.
    const perCycle = ACTIVITY_CYCLE.filter((k) => k === 'nft-sale-buy').length;
    await checkSaleLedger(saleView(s), handle.ledger(), { sold: 2 * perCycle });
  });

  it('is a function of the seed: the same seed repeats the same traffic, another seed differs', async () => {
    const run = async (seed: string) => {
      const s = await sandbox('activity-determinism');
      const h = await startActivity({ chain: s.chain, wallets: s.entries, seed, steps: 10, intervalMs: 0, pollMs: 10 });
      const c = await h.done;
      expect(c.failed).toBe(0);
      return summary(h.ledger());
    };
    const a = await run('seed-a');
    expect(await run('seed-a')).toEqual(a);
    expect(await run('seed-b')).not.toEqual(a);
  });

  it('counts a step whose effects never show as failed and goes on', async () => {
    const s = await sandbox('activity-drop');
    // A chain that drops every external: seqnos never move.
    const dropping: ActivityChain = { ...s.chain, sendExternal: async () => {} };
    const h = await startActivity({
      chain: dropping,
      wallets: s.entries,
      seed: 'drop',
      steps: 3,
      intervalMs: 0,
      pollMs: 10,
      stepTimeoutMs: 200,
    });
    const c = await h.done;
    expect(c.steps).toBe(3);
    expect(c.byKind.transfer.failed).toBe(1);
    expect(c.byKind['jetton-deploy'].failed).toBe(1);
    expect(c.byKind['jetton-transfer'].skipped).toBe(1); // nothing to transfer: the deploy failed
    expect(c.lastFailure?.reason).toMatch(/seqno/);
  });

  it('stops on stop() and on an aborted signal, between or inside steps', async () => {
    const s = await sandbox('activity-stop');
    const h = await startActivity({ chain: s.chain, wallets: s.entries, seed: 'stop', intervalMs: 60_000, pollMs: 10 });
    await new Promise((r) => setTimeout(r, 50));
    const c = await h.stop();
    expect(c.steps).toBeLessThanOrEqual(1);

    const ac = new AbortController();
    const stuck: ActivityChain = { ...s.chain, sendExternal: async () => {} };
    const h2 = await startActivity({ chain: stuck, wallets: s.entries, seed: 'stop', signal: ac.signal, pollMs: 10 });
    setTimeout(() => ac.abort(), 50);
    const c2 = await h2.done;
    expect(c2.failed).toBe(0); // the interrupted step is not counted as a failure
  });

  it('refuses bad options and wallets up front with ConfigError', async () => {
    const s = await sandbox('activity-config');
    await expect(startActivity({ wallets: s.entries })).rejects.toBeInstanceOf(ConfigError);
    await expect(startActivity({ chain: s.chain, wallets: [] })).rejects.toBeInstanceOf(ConfigError);
    await expect(startActivity({ chain: s.chain, wallets: s.entries, steps: -1 })).rejects.toBeInstanceOf(ConfigError);
    const wrongAddress = [{ ...s.entries[0]!, raw: s.entries[1]!.raw }];
    await expect(startActivity({ chain: s.chain, wallets: wrongAddress })).rejects.toThrow(/another global id/);
    await expect(startActivity({ chain: s.chain, wallets: '/nonexistent/wallets.json' })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });
});
