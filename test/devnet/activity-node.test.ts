// The activity against a real devnet node (temp dir, fast blocks) through its liteserver: a full cycle of steps
// succeeds, then a separate liteserver client checks on chain that each kind of step happened: jetton balances by
// get_wallet_data and supply by get_jetton_data, NFT owners by get_nft_data, a bounced transaction back to the
// sender, a transaction refused by a jetton wallet's compute phase. The CLI command runs against the same node.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Address,
  Cell,
  loadTransaction,
  parseTuple,
  serializeTuple,
  type Transaction,
  type TupleItem,
} from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Command, runCommand } from '../../src/cli/command.ts';
import { activityCommand } from '../../src/cli/devnet-activity.ts';
import {
  ACTIVITY_CYCLE,
  type ActivityCounters,
  type ActivityLedger,
  startActivity,
} from '../../src/devnet/activity/index.ts';
import { checkSaleLedger, type SaleChainView } from '../../src/devnet/activity/ledger-sale.test-util.ts';
import {
  getWalletAddressArgs,
  readJettonData,
  readJettonWalletAddress,
  readJettonWalletData,
  readNftAddressByIndex,
  readNftData,
} from '../../src/devnet/contracts/index.ts';
import {
  createDevnetNode,
  type DevnetInfo,
  type DevnetNode,
  type WalletsFileEntry,
} from '../../src/devnet/node/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../../src/lite/index.ts';

const SEED = 'activity-node';
let dir: string;
let node: DevnetNode;
let info: DevnetInfo;
let pool: LitePool;
let counters: ActivityCounters;
let ledger: ActivityLedger;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tongate-activity-'));
  node = createDevnetNode({ dataDir: dir, litePort: 0, httpPort: 0, blockIntervalMs: 100, sync: false, seed: SEED });
  info = await node.start();
  pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  const handle = await startActivity({
    liteConfig: info.globalConfigFile,
    wallets: info.walletsFile,
    seed: SEED,
    steps: ACTIVITY_CYCLE.length,
    intervalMs: 0,
    pollMs: 100,
    stepTimeoutMs: 60_000,
  });
  counters = await handle.done;
  ledger = handle.ledger();
}, 600_000);

afterAll(async () => {
  await pool?.close();
  await node?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function head() {
  const { last } = await pool.getMasterchainInfo();
  return {
    workchain: last.workchain,
    shard: last.shard,
    seqno: last.seqno,
    rootHash: last.rootHash,
    fileHash: last.fileHash,
  };
}

async function getter(address: Address, method: string, args: TupleItem[] = []): Promise<TupleItem[]> {
  const r = await pool.runMethod(address, method, serializeTuple(args).toBoc(), await head());
  expect(r.exitCode, `${method} on ${address.toRawString()}`).toBe(0);
  return parseTuple(Cell.fromBoc(r.result!)[0]!);
}

const hashOf = (h: bigint) => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

/**
 * The account's transactions, newest first, paging back through its history (at most `pages` × 16): the genesis
 * wallets take part in most steps, so one cycle leaves more than 16 after an early step's transaction.
 */
async function transactions(address: Address, pages = 8): Promise<Transaction[]> {
  const s = await pool.getAccountState(address, await head());
  const out: Transaction[] = [];
  let from = s.lastTx ? { lt: s.lastTx.lt, hash: hashOf(s.lastTx.hash) } : null;
  for (let p = 0; p < pages && from && from.lt !== 0n; p++) {
    const r = await pool.getTransactions(address, from.lt, from.hash, 16);
    const page = Cell.fromBoc(r.transactions).map((c) => loadTransaction(c.beginParse()));
    if (page.length === 0) break;
    out.push(...page);
    const last = page.at(-1)!;
    from = { lt: last.prevTransactionLt, hash: hashOf(last.prevTransactionHash) };
  }
  return out;
}

/** The liteserver as the sale check reads a chain: getters, code, a transaction by (lt, hash). */
const liteSaleView: SaleChainView = {
  getter,
  async codeHash(address) {
    const st = (await pool.getAccountState(address, await head())).state?.storage.state;
    return st?.type === 'active' ? st.state.code?.hash().toString('hex') : undefined;
  },
  async transaction(address, lt, hash) {
    const r = await pool.getTransactions(address, lt, hash, 1);
    const tx = Cell.fromBoc(r.transactions).map((c) => loadTransaction(c.beginParse()))[0];
    return tx?.lt === lt && tx.hash().equals(hash) ? tx : undefined;
  },
};

describe('devnet activity against a running node', () => {
  it('runs a full cycle with every kind of step succeeding', () => {
    expect(counters.lastFailure).toBeNull();
    expect(counters).toMatchObject({ steps: ACTIVITY_CYCLE.length, failed: 0, skipped: 0 });
    for (const kind of ACTIVITY_CYCLE) expect(counters.byKind[kind].ok, kind).toBe(1);
  });

  it('left jetton balances and supply on chain as the ledger says (get_wallet_data, get_jetton_data)', async () => {
    expect(ledger.jettons).toHaveLength(1);
    const j = ledger.jettons[0]!;
    const data = readJettonData(await getter(j.master, 'get_jetton_data'));
    expect(data.totalSupply).toBe(j.totalSupply);
    let sum = 0n;
    for (const [ownerRaw, balance] of j.balances) {
      const owner = Address.parseRaw(ownerRaw);
      const wallet = readJettonWalletAddress(await getter(j.master, 'get_wallet_address', getWalletAddressArgs(owner)));
      const wd = readJettonWalletData(await getter(wallet, 'get_wallet_data'));
      expect(wd.ownerAddress.equals(owner)).toBe(true);
      expect(wd.balance).toBe(balance);
      sum += balance;
    }
    expect(sum).toBe(data.totalSupply);
    expect(j.balances.size).toBeGreaterThan(1); // minted, then transferred to someone else
  });

  it('left NFT owners on chain as the ledger says (get_nft_data)', async () => {
    expect(ledger.collections).toHaveLength(1);
    const c = ledger.collections[0]!;
    expect(c.items.length).toBeGreaterThan(1);
    for (const item of c.items) {
      const address = readNftAddressByIndex(
        await getter(c.address, 'get_nft_address_by_index', [{ type: 'int', value: item.index }]),
      );
      expect(address.equals(item.address)).toBe(true);
      const nd = readNftData(await getter(item.address, 'get_nft_data'));
      expect(nd.init).toBe(true);
      expect(nd.ownerAddress?.equals(item.owner)).toBe(true);
    }
  });

  it('produced a bounced message back to its sender', async () => {
    expect(ledger.bounces).toHaveLength(1);
    const b = ledger.bounces[0]!;
    const back = (await transactions(b.from)).find(
      (t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced && t.inMessage.info.src.equals(b.to),
    );
    expect(back).toBeDefined();
    // a bounce body: 0xffffffff, then the start of the original body (a text comment: op 0)
    const body = back!.inMessage!.body.beginParse();
    expect(body.loadUint(32)).toBe(0xffffffff);
    expect(body.loadUint(32)).toBe(0);
    // the destination was never deployed: it still does not exist
    expect((await pool.getAccountState(b.to, await head())).state).toBeNull();
  });

  it('produced a transaction whose compute phase failed (a jetton wallet refusing a stranger)', async () => {
    expect(ledger.failedComputes).toHaveLength(1);
    const f = ledger.failedComputes[0]!;
    const refused = (await transactions(f.to)).find(
      (t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(f.from),
    );
    const d = refused?.description;
    expect(d?.type === 'generic' && d.aborted).toBe(true);
    expect(d?.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.exitCode).toBe(705);
  });

  it('sold an NFT through a GetGems sale: get_sale_data, the item with the buyer, the buy and its payouts', async () => {
    const perCycle = ACTIVITY_CYCLE.filter((k) => k === 'nft-sale-buy').length;
    await checkSaleLedger(liteSaleView, ledger, { sold: perCycle });
    const sale = ledger.standard.nftSales[0]!;
    // One cycle: nothing moved the item after the buy.
    const nd = readNftData(await getter(sale.item, 'get_nft_data'));
    expect(nd.ownerAddress?.equals(sale.buy!.buyer)).toBe(true);
  });

  it('runs as `tongate devnet activity` with the node files, and refuses bad usage with exit 2', async () => {
    const root: Command = {
      name: 'tongate',
      summary: '',
      subcommands: [{ name: 'devnet', summary: '', subcommands: [activityCommand] }],
    };
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const code = await runCommand(
      root,
      ['devnet', 'activity', '--data', dir, '--steps', '1', '--interval', '0', '--seed', 'cli'],
      io,
    );
    expect(err.filter((l) => l.includes('Failed activity step'))).toEqual([]);
    expect(code).toBe(0);
    expect(out).toEqual(['Ran 1 activity steps: 1 ok, 0 failed, 0 skipped']);

    const bad: string[] = [];
    expect(
      await runCommand(root, ['devnet', 'activity', '--steps', 'many'], { out: () => {}, err: (l) => bad.push(l) }),
    ).toBe(2);
    expect(bad).toHaveLength(1);
  });

  it("sends tonweb's jettons to new addresses too: every transfer step succeeds, each with its notification", async () => {
    // tonweb's jetton wallet sends the transfer_notification bounceable, so at a new address it bounces and the
    // address keeps no transaction chain; the step finds the notification where it is sent (it used to time out).
    // Last in the file: its transactions would push the cycle's out of the windows the tests above read.
    const handle = await startActivity({
      liteConfig: info.globalConfigFile,
      wallets: info.walletsFile,
      // A seed whose recipients include new addresses (the activity picks them at random from its seed).
      seed: 'jt',
      cycle: [
        'std-jetton-deploy',
        'std-jetton-transfer',
        'std-jetton-transfer',
        'std-jetton-transfer',
        'std-jetton-transfer',
      ],
      steps: 10,
      intervalMs: 0,
      pollMs: 100,
      stepTimeoutMs: 60_000,
    });
    const c = await handle.done;
    expect(c.lastFailure).toBeNull();
    expect(c.byKind['std-jetton-transfer']).toMatchObject({ ok: 8, failed: 0, skipped: 0 });
    const genesis = new Set(
      (JSON.parse(await readFile(info.walletsFile, 'utf8')) as WalletsFileEntry[]).map((w) => w.raw),
    );
    const holders = handle.ledger().standard.jettons.flatMap((j) => [...j.balances.keys()]);
    expect(
      holders.some((h) => !genesis.has(h)),
      'a transfer went to a new address',
    ).toBe(true);
  }, 300_000);
});
