// `tongate devnet` as users run it: a real child process through bin/tongate.js that writes wallets.json and
// global.config.json, serves the config over HTTP, answers ton-lite-client, moves funds with `devnet faucet`, and
// stops cleanly on SIGTERM. Usage errors exit 2 with one line.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, toNano } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGlobalConfig } from '../../src/lite/index.ts';
import { runTongate, tongate } from '../helpers/cli.ts';
import {
  type BlockIdLike,
  connectLite,
  type Lite,
  tempDir,
  transactionChain,
  verifiedAccountState,
} from '../helpers/devnet-node.ts';
import { until } from '../helpers/until.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'bin', 'tongate.js');
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

/** Runs the CLI without blocking this process (the devnet child keeps running meanwhile). */
const run = (...args: string[]) => runTongate(args);

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('tongate devnet (CLI)', () => {
  it('has --help for the node and the faucet, naming the env var', () => {
    const h = tongate('devnet', '--help');
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/Usage: tongate devnet/);
    expect(h.out).toMatch(/TONGATE_DATA/);
    for (const flag of [
      '--data',
      '--shards',
      '--block-interval',
      '--lite-port',
      '--http-port',
      '--seed',
      '--activity',
    ]) {
      expect(h.out).toContain(flag);
    }
    expect(h.out).toMatch(/faucet/);
    const f = tongate('devnet', 'faucet', '--help');
    expect(f.code).toBe(0);
    expect(f.out).toMatch(/Usage: tongate devnet faucet/);
    expect(f.out).toMatch(/TONGATE_DATA/);
  });

  it('refuses bad usage with one line and exit code 2', () => {
    for (const args of [
      ['devnet', '--shards', '99'],
      ['devnet', '--block-interval', 'soon'],
      ['devnet', '--lite-port', '70000'],
      ['devnet', 'faucet', 'not-an-address', '1'],
      ['devnet', 'faucet', `0:${'ab'.repeat(32)}`, '-1'],
      ['devnet', 'faucet', `0:${'ab'.repeat(32)}`, '1.0000000001'],
      ['devnet', 'faucet', `0:${'ab'.repeat(32)}`],
    ]) {
      const r = tongate(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('faucet: clear errors without a devnet (1) or without a running node (75)', async () => {
    const empty = await tempDir();
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const none = await run('devnet', 'faucet', `0:${'ab'.repeat(32)}`, '1', '--data', empty);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/no devnet in/);

    const port = await closedPort();
    const cfg = join(empty, 'global.config.json');
    await writeFile(
      cfg,
      JSON.stringify({
        liteservers: [
          { ip: 2130706433, port, id: { '@type': 'pub.ed25519', key: randomBytes(32).toString('base64') } },
        ],
      }),
    );
    await mkdir(join(empty, 'devnet'), { recursive: true });
    await writeFile(join(empty, 'devnet', 'wallets.json'), '[]');
    const down = await run('devnet', 'faucet', `0:${'ab'.repeat(32)}`, '1', '--data', empty, '--config', cfg);
    expect(down.code).toBe(75);
    expect(down.err).toMatch(/is not running/);
  });

  it('runs a node: files, HTTP config, ton-lite-client, faucet, clean stop on SIGTERM', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const child: ChildProcess = spawn(
      process.execPath,
      [bin, 'devnet', '--data', dir, '--lite-port', '0', '--http-port', '0', '--block-interval', '80', '--seed', 'cli'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const url = await until('the devnet banner', async () => /config\s+(http:\/\/\S+)/.exec(out)?.[1], 60_000);

    // The config over HTTP is the file, and any global-config reader takes it.
    const text = await (await fetch(url)).text();
    expect(text).toBe(await readFile(join(dir, 'devnet', 'global.config.json'), 'utf8'));
    expect(text).toContain('"shard": -9223372036854775808');
    const cfg = parseGlobalConfig(text);
    const server = cfg.liteservers[0]!;
    expect(server.host).toBe('127.0.0.1');
    expect(cfg.zeroState?.seqno).toBe(0);
    expect(cfg.zeroState?.shard).toBe(-(2n ** 63n));

    const lite: Lite = await connectLite(server.port, server.publicKey);
    cleanups.push(async () => lite.close());
    const info = await lite.client.getMasterchainInfo();
    expect(info.init.rootHash.equals(cfg.zeroState!.rootHash)).toBe(true);
    expect(info.init.fileHash.equals(cfg.zeroState!.fileHash)).toBe(true);
    const health = (await (await fetch(url.replace('/global.config.json', '/healthz'))).json()) as { mcSeqno: number };
    expect(health.mcSeqno).toBeGreaterThanOrEqual(0);
    expect((await fetch(url.replace('/global.config.json', '/nothing'))).status).toBe(404);

    // wallets.json: valid mnemonics whose keys give the listed addresses, as @ton/ton derives them.
    const wallets = JSON.parse(await readFile(join(dir, 'devnet', 'wallets.json'), 'utf8')) as Array<{
      version: string;
      mnemonic: string[];
      address: string;
      raw: string;
      role?: string;
    }>;
    // The activity's wallets; the users' (role "user", test/devnet/user-wallets.test.ts) come after them.
    expect(wallets.filter((w) => w.role !== 'user').map((w) => w.version)).toEqual(['v3r2', 'v4r2', 'v5r1']);
    for (const w of wallets) {
      expect(await mnemonicValidate(w.mnemonic)).toBe(true);
      const { publicKey } = await mnemonicToPrivateKey(w.mnemonic);
      const c =
        w.version === 'v3r2'
          ? WalletContractV3R2.create({ workchain: 0, publicKey })
          : w.version === 'v4r2'
            ? WalletContractV4.create({ workchain: 0, publicKey })
            : WalletContractV5R1.create({
                publicKey,
                walletId: {
                  networkGlobalId: -217,
                  context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 },
                },
              });
      expect(c.address.toRawString()).toBe(w.raw);
      const friendly = Address.parseFriendly(w.address);
      expect(friendly.address.equals(c.address)).toBe(true);
      expect(friendly.isBounceable).toBe(false);
      expect(friendly.isTestOnly).toBe(true);
    }

    // The faucet moves funds, through the liteserver only.
    const to = new Address(0, randomBytes(32));
    const f = await run('devnet', 'faucet', to.toString(), '2.5', '--data', dir);
    expect(f.err).toBe('');
    expect(f.code).toBe(0);
    expect(f.out).toMatch(/^Sent 2\.5 TON from the v3r2 wallet/);
    const st = await verifiedAccountState(lite, to, (await lite.client.getMasterchainInfo()).last as BlockIdLike);
    expect(st.balance).toBe(toNano('2.5'));
    // And again, from a chosen wallet (the seqno moved on).
    const g = await run('devnet', 'faucet', to.toRawString(), '0.5', '--data', dir, '--from', 'v5r1');
    expect(g.code).toBe(0);
    const st2 = await verifiedAccountState(lite, to, (await lite.client.getMasterchainInfo()).last as BlockIdLike);
    // The second credit pays the uninit account's storage since the first: what its transactions say.
    const txs = await transactionChain(lite, to, st2.lastTx!);
    expect(txs).toHaveLength(2);
    expect(st2.balance).toBe(toNano('3') - txs.reduce((n, t) => n + t.tx.totalFees.coins, 0n));

    lite.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toMatch(/Started devnet/);
    expect(err).toMatch(/"signal":"SIGTERM".*"msg":"Stopping devnet"/);
    expect(err).toMatch(/Stopped devnet/);
    expect(err).not.toMatch(/error/);
  }, 120_000);
});
