// The devnet as users meet it (issue 24): the wallets.json entries marked "role": "user" are funded wallets the
// activity never signs with; @ton/ton derives their published addresses from the mnemonic and the published
// networkGlobalId; transfers from them through @ton/ton's TonClient over our v2 JSON-RPC all land while the activity
// runs; the global config (and the `tongate devnet` banner) carries the global id and the DNS root, and `walk`
// indexes the devnet's DNS names without --dns-root (an explicit --dns-root still wins; a devnet store source takes
// the root from the store's global config). One devnet chain for all.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, internal, SendMode } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import pg from 'pg';
import type { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { type ActivityHandle, CORE_CYCLE, parseWalletsFile, startActivity } from '../../src/devnet/activity/index.ts';
import { DEVNET_DNS_COLLECTION } from '../../src/devnet/contracts/dns.ts';
import { DEVNET_GLOBAL_ID, DEVNET_USER_WALLETS_PER_VERSION } from '../../src/devnet/genesis/index.ts';
import { createDevnetNode, type DevnetInfo, type DevnetNode } from '../../src/devnet/node/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig, parseGlobalConfig } from '../../src/lite/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { liteClientOn } from '../helpers/lite-client.ts';
import { until } from '../helpers/until.ts';

const SEED = 'user-wallets';
/** Transfers per user wallet (two v4r2 and two v5r1): 100 in all. */
const TRANSFERS_PER_WALLET = 25;

interface FileWallet {
  version: 'v3r2' | 'v4r2' | 'v5r1';
  mnemonic: string[];
  address: string;
  raw: string;
  publicKey: string;
  networkGlobalId: number;
  role: 'activity' | 'user';
}

/** The devnet as `tongate devnet` creates it (with user wallets), our pool and v2 API on it, an independent client. */
let f: {
  dir: string;
  node: DevnetNode;
  info: DevnetInfo;
  pool: LitePool;
  engine: LiteSingleEngine;
  lite: LiteClient;
  server: ApiServer;
  base: string;
};
let activity: ActivityHandle;
let file: FileWallet[];
let users: FileWallet[];
let client: TonClient;
const stopActivity = new AbortController();
const scratches: Scratch[] = [];
const children: Child[] = [];
const tempDirs: string[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), `tongate-${SEED}-`));
  tempDirs.push(dir);
  const node = createDevnetNode({
    dataDir: dir,
    litePort: 0,
    httpPort: 0,
    blockIntervalMs: 100,
    sync: false,
    seed: SEED,
    userWalletsPerVersion: DEVNET_USER_WALLETS_PER_VERSION,
  });
  const info = await node.start();
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  await pool.ready({ timeoutMs: 10_000 });
  const { engine, lite } = await liteClientOn(info.litePort, info.liteServerPublicKey);
  const server = await buildApiServer({ lite: pool });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = server.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  f = { dir, node, info, pool, engine, lite, server, base };
  file = JSON.parse(await readFile(f.info.walletsFile, 'utf8')) as FileWallet[];
  users = file.filter((w) => w.role === 'user');
  client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
  // The activity runs for the whole file: DNS names first (for the walk below), then the core traffic, over and over.
  activity = await startActivity({
    pool: f.pool,
    wallets: f.info.walletsFile,
    seed: SEED,
    cycle: ['dns-register', 'dns-set-wallet', ...CORE_CYCLE],
    intervalMs: 100,
    pollMs: 100,
    stepTimeoutMs: 60_000,
    signal: stopActivity.signal,
  });
}, 300_000);

afterAll(async () => {
  stopActivity.abort();
  await activity?.done.catch(() => {});
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const s of scratches) await s.cleanup();
  await f?.server.close();
  f?.engine.close();
  await f?.pool.close();
  await f?.node.stop();
  for (const d of tempDirs) await rm(d, { recursive: true, force: true });
});

/** The user wallet as a wallet app opens it: keys from the mnemonic, v5r1's wallet id from networkGlobalId. */
async function open(w: FileWallet) {
  const { publicKey, secretKey } = await mnemonicToPrivateKey(w.mnemonic);
  const contract =
    w.version === 'v4r2'
      ? WalletContractV4.create({ workchain: 0, publicKey })
      : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: w.networkGlobalId } });
  return { publicKey, secretKey, contract };
}

async function chainBalance(a: Address): Promise<bigint> {
  const st = await f.lite.getAccountState(a, (await f.lite.getMasterchainInfo()).last);
  return st.balance.coins;
}

describe('user wallets in wallets.json', () => {
  it('lists v4r2 and v5r1 user wallets with version, both address forms, networkGlobalId; the activity skips them', async () => {
    expect(users.map((w) => w.version).sort()).toEqual(['v4r2', 'v4r2', 'v5r1', 'v5r1']);
    expect(f.info.userWallets).toBe(4);
    // The activity's wallets come first, as before (readers taking the first of a version keep getting them).
    expect(file.slice(0, 3).map((w) => [w.version, w.role])).toEqual([
      ['v3r2', 'activity'],
      ['v4r2', 'activity'],
      ['v5r1', 'activity'],
    ]);
    const config = await f.lite.getConfig((await f.lite.getMasterchainInfo()).last);
    const chainGlobalId = config.config.get(19)?.beginParse().loadInt(32);
    expect(chainGlobalId).toBe(DEVNET_GLOBAL_ID);
    for (const w of file) {
      expect(w.networkGlobalId).toBe(chainGlobalId);
      expect(w.mnemonic).toHaveLength(24);
      expect(await mnemonicValidate(w.mnemonic)).toBe(true);
      expect(w.raw).toMatch(/^0:[0-9a-f]{64}$/);
      const friendly = Address.parseFriendly(w.address);
      expect(friendly.address.toRawString()).toBe(w.raw);
      expect(friendly.isBounceable).toBe(false);
      expect(friendly.isTestOnly).toBe(true);
      expect((await mnemonicToPrivateKey(w.mnemonic)).publicKey.toString('hex')).toBe(w.publicKey);
    }
    expect(new Set(file.map((w) => w.raw)).size).toBe(file.length);
    // The activity's own reading of the file leaves them out.
    expect(parseWalletsFile(JSON.stringify(file)).map((e) => e.raw)).toEqual(
      file.filter((w) => w.role === 'activity').map((w) => w.raw),
    );
  });

  it("@ton/ton's WalletContractV4 and WalletContractV5R1 with the published networkGlobalId derive the published addresses", async () => {
    for (const w of users) {
      const { contract, publicKey } = await open(w);
      expect(contract.address.toRawString(), `${w.version} ${w.raw}`).toBe(w.raw);
      expect(contract.address.toString({ bounceable: false, testOnly: true })).toBe(w.address);
      if (w.version === 'v5r1') {
        // What the user met: without the devnet's global id, another address (mainnet's wallet id).
        expect(WalletContractV5R1.create({ workchain: 0, publicKey }).address.toRawString()).not.toBe(w.raw);
      }
      // Funded and deployed at genesis, like the activity's wallets.
      const state = await client.getContractState(contract.address);
      expect(state.state).toBe('active');
      expect(state.balance).toBeGreaterThan(900_000n * 1_000_000_000n);
    }
  });

  it(`${4 * TRANSFERS_PER_WALLET} transfers from the user wallets through TonClient over our v2 JSON-RPC all land while the activity runs`, async () => {
    const stepsBefore = activity.counters.steps;
    const started = Date.now();
    const sent: Array<{ to: Address; value: bigint }> = [];
    const seqnos = await Promise.all(
      users.map(async (w, wi) => {
        const { contract, secretKey } = await open(w);
        const wallet = client.open(contract);
        const first = await wallet.getSeqno();
        for (let i = 0; i < TRANSFERS_PER_WALLET; i++) {
          const seqno = await wallet.getSeqno();
          expect(seqno, `${w.version} ${w.raw}: no one else signs with it`).toBe(first + i);
          const to = new Address(0, randomBytes(32));
          const value = 10_000_000n + BigInt(wi * 1000 + i);
          sent.push({ to, value });
          const args = {
            seqno,
            secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [internal({ to, value, bounce: false })],
          };
          if (contract instanceof WalletContractV4) await client.open(contract).sendTransfer(args);
          else await client.open(contract).sendTransfer(args);
          await until(
            `${w.version} ${w.raw} seqno ${seqno + 1}`,
            async () => ((await wallet.getSeqno()) > seqno ? true : undefined),
            { timeoutMs: 60_000, stepMs: 100, ignoreErrors: true },
          );
        }
        return { w, first, last: await wallet.getSeqno() };
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    for (const s of seqnos) expect(s.last - s.first, s.w.raw).toBe(TRANSFERS_PER_WALLET);
    expect(sent).toHaveLength(4 * TRANSFERS_PER_WALLET);
    // Every transfer landed: each fresh address holds exactly what it was sent (read through an independent client).
    for (const s of sent) expect(await chainBalance(s.to), s.to.toRawString()).toBe(s.value);
    // The activity went on meanwhile, without a failure.
    expect(activity.counters.steps, `in ${seconds} s`).toBeGreaterThan(stepsBefore);
    expect(activity.counters.failed, JSON.stringify(activity.counters.lastFailure)).toBe(0);
  }, 180_000);
});

describe('global id and DNS root as published', () => {
  it('the global config carries them in its tongate object and still parses as a TON global config', async () => {
    const text = await readFile(f.info.globalConfigFile, 'utf8');
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json.tongate).toEqual({
      global_id: DEVNET_GLOBAL_ID,
      dns_root: DEVNET_DNS_COLLECTION.toRawString(),
      dns_suffix: '.ton',
    });
    expect(f.info.globalId).toBe(DEVNET_GLOBAL_ID);
    expect(f.info.dnsRoot).toBe(DEVNET_DNS_COLLECTION.toRawString());
    expect(json['@type']).toBe('config.global');
    const cfg = parseGlobalConfig(text);
    expect(cfg.liteservers).toHaveLength(1);
    expect(cfg.liteservers[0]?.port).toBe(f.info.litePort);
    // The HTTP endpoint serves the same text.
    const served = await (await fetch(`http://127.0.0.1:${f.info.httpPort}/global.config.json`)).text();
    expect(served).toBe(text);
  });

  it('the `tongate devnet` banner prints them', async () => {
    const data = await mkdtemp(join(tmpdir(), 'tongate-user-wallets-cli-'));
    tempDirs.push(data);
    const child = startTongate(
      ['devnet', '--data', data, '--lite-port', '0', '--http-port', '0', '--block-interval', '200', '--seed', 'banner'],
      {},
    );
    children.push(child);
    const line = await child.waitFor(/^\s+network\s/, 60_000);
    expect(line).toContain(`global id ${DEVNET_GLOBAL_ID}`);
    expect(line).toContain(`DNS root ${DEVNET_DNS_COLLECTION.toRawString()}`);
    expect(child.out.join('\n')).toMatch(/wallets\s+\S+wallets\.json\s+\(4 with "role": "user"/);
    // A clean stop on SIGTERM is node-cli.test.ts's to check.
    child.proc.kill('SIGTERM');
    await child.exited;
  });
});

describe('walk indexes the devnet DNS names without --dns-root', () => {
  let head = 0;
  /** item raw (upper case) -> its name and wallet record (raw upper case, null when not set) */
  const domains = new Map<string, { domain: string; wallet: string | null }>();

  beforeAll(async () => {
    // The activity has registered a name and set its wallet record by now (its first two steps), or soon will.
    await until(
      'a registered name with its wallet record',
      async () => (activity.ledger().dns.domains.some((d) => d.records.wallet) ? true : undefined),
      { timeoutMs: 120_000, stepMs: 100, ignoreErrors: true },
    );
    for (const d of activity.ledger().dns.domains) {
      const wallet = d.records.wallet?.toRawString().toUpperCase() ?? null;
      domains.set(d.item.toRawString().toUpperCase(), { domain: d.domain, wallet });
    }
    // A few blocks later, so every registered name's state is in the range.
    const h = (await f.lite.getMasterchainInfo()).last.seqno;
    await until(
      'three more blocks',
      async () => ((await f.lite.getMasterchainInfo()).last.seqno >= h + 3 ? true : undefined),
      { timeoutMs: 60_000, stepMs: 100, ignoreErrors: true },
    );
    head = (await f.lite.getMasterchainInfo()).last.seqno;
  }, 180_000);

  async function backfill(source: string[], extra: string[] = []) {
    const scratch = await createScratch('postgres');
    scratches.push(scratch);
    const url = scratch.config.kind === 'postgres' ? scratch.config.url : '';
    const child = startTongate(['walk', 'backfill', '--from', '1', '--to', String(head), ...source, ...extra], {
      DATABASE_URL: url,
    });
    children.push(child);
    const code = await child.exited;
    expect(code, child.err.slice(-20).join('\n')).toBe(0);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const r = await db.query<{ item: string; domain: string; wallet: string | null }>(
        'SELECT nft_item_address AS item, domain, dns_wallet AS wallet FROM dns_entries',
      );
      return { rows: r.rows, err: child.err };
    } finally {
      await db.end();
    }
  }

  const expectDomains = (rows: Array<{ item: string; domain: string; wallet: string | null }>) => {
    expect(domains.size).toBeGreaterThan(0);
    const byItem = new Map(rows.map((r) => [r.item.toUpperCase(), r]));
    for (const [item, d] of domains) {
      expect(byItem.get(item)?.domain, d.domain).toBe(d.domain);
      expect(byItem.get(item)?.wallet?.toUpperCase() ?? null, d.domain).toBe(d.wallet);
    }
  };

  it('through the lite config the devnet publishes (its tongate.dns_root)', async () => {
    const r = await backfill(['--lite-config', f.info.globalConfigFile]);
    expect(r.err.some((l) => l.includes(`"Took the devnet's DNS root"`))).toBe(true);
    expectDomains(r.rows);
  }, 240_000);

  it('an explicit --dns-root still wins', async () => {
    const mainnetOnly = await backfill(
      ['--lite-config', f.info.globalConfigFile],
      ['--dns-root', '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF'],
    );
    expect(mainnetOnly.rows).toEqual([]);
    expect(mainnetOnly.err.some((l) => l.includes(`"Took the devnet's DNS root"`))).toBe(false);
  }, 240_000);

  it("from the devnet store: the store's global config names the root", async () => {
    // Rows are not checked here: without a liteserver a devnet store source has account code and data only where
    // a block's state update carries them, which a DNS item's code (shared with its collection's data) never is.
    const r = await backfill(['--devnet-store', f.info.devnetDir]);
    const line = r.err.find((l) => l.includes(`"Took the devnet's DNS root"`));
    expect(line).toContain(`${DEVNET_DNS_COLLECTION.toRawString()}=.ton`);
  }, 240_000);
});
