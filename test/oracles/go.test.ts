// Oracle (issue 11): tonutils-go, with its proof checks on, judges the devnet's liteserver. A devnet with 2
// basechain shards and 150 ms blocks runs the activity (transfers, jettons, NFTs) in this process while
// test/oracles/go (a test tool built by test/oracles/go/install.sh) follows 100 masterchain blocks as they appear
// with ProofCheckPolicyFast: block lookups, headers and data, getAllShardsInfo, every shard block back to the
// previous tops, every transaction listed with proofs and fetched with proofs, the state of every account that
// had one (proofs, last transaction = the blocks' newest), transaction chains, get-methods (wallet seqno, jetton
// data), the config; masterchain proof chains backward (VerifyProofChain) and forward from the zero state
// (signatures); ProofCheckPolicySecure unmodified, trusting the global config's init block (the devnet's first key
// block) and following every block from there; and two wallet transfers (v4r2, v5r1, tonutils-go's wallet package) that must land. It prints a
// JSON report; any failure fails this test. Without the binary the test fails under CI=true and is skipped (with a
// message) elsewhere.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ActivityHandle, parseWalletsFile, startActivity } from '../../src/devnet/activity/index.ts';
import { createDevnetNode, type DevnetNode } from '../../src/devnet/node/index.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'go');
const BINARY = join(DIR, 'bin', 'oracle');
const BLOCKS = 100;
const TIMEOUT_MS = 600_000;

interface OracleReport {
  checked: Record<string, number>;
  failures: string[];
  info: Record<string, unknown>;
}

/** Why the oracle cannot run (no binary, or one built from other sources than these), or null. */
function toolchain(): string | null {
  if (!existsSync(BINARY)) return `no binary at ${BINARY}`;
  const stamp = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) stamp.update(readFileSync(join(DIR, f)));
  const built = existsSync(join(DIR, 'bin', '.stamp')) ? readFileSync(join(DIR, 'bin', '.stamp'), 'utf8').trim() : '';
  if (built !== stamp.digest('hex')) return `${BINARY} was built from other sources than test/oracles/go`;
  return null;
}

const missing = toolchain();
const hint = 'run bash test/oracles/go/install.sh (needs Go >= 1.21 or the Go module proxy)';
if (missing && !process.env.CI) console.warn(`tonutils-go oracle skipped: ${missing}; ${hint}`);

function runOracle(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), TIMEOUT_MS - 60_000);
    proc.once('error', reject);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function waitUntil(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let dir: string | undefined;
let node: DevnetNode | undefined;
let activity: ActivityHandle | undefined;

afterAll(async () => {
  await activity?.stop();
  await node?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tonutils-go oracle', () => {
  it.runIf(missing && process.env.CI)('has its toolchain installed (CI)', () => {
    throw new Error(`tonutils-go oracle cannot run: ${missing}; ${hint}`);
  });

  it.skipIf(missing)(
    `accepts every devnet answer over ${BLOCKS} masterchain blocks with proofs on and lands wallet transfers`,
    async () => {
      const started = Date.now();
      dir = await mkdtemp(join(tmpdir(), 'tongate-oracle-go-'));
      node = createDevnetNode({
        dataDir: dir,
        litePort: 0,
        httpPort: 0,
        blockIntervalMs: 150,
        sync: false,
        seed: 'oracle-go',
        walletsPerVersion: 2,
      });
      const info = await node.start();
      // the config a client trusts names the chain's first key block, not the zero state
      const config = JSON.parse(await readFile(info.globalConfigFile, 'utf8')) as {
        validator: { zero_state: { seqno: number }; init_block: { seqno: number } };
      };
      expect([config.validator.zero_state.seqno, config.validator.init_block.seqno]).toEqual([0, 1]);
      // the first wallet of each version drives the activity; the oracle sends from the second v4r2 and v5r1,
      // so no two senders share a seqno
      const wallets = parseWalletsFile(await readFile(info.walletsFile, 'utf8'));
      const firsts = wallets.filter((w, i) => wallets.findIndex((x) => x.version === w.version) === i);
      const senders = wallets.filter((w) => !firsts.includes(w) && (w.version === 'v4r2' || w.version === 'v5r1'));
      expect(senders.map((w) => w.version).sort()).toEqual(['v4r2', 'v5r1']);
      const handle = await startActivity({
        liteConfig: info.globalConfigFile,
        wallets: firsts,
        seed: 'oracle-go',
        intervalMs: 0,
        pollMs: 100,
        stepTimeoutMs: 60_000,
      });
      activity = handle;
      // a jetton exists before the oracle starts, so get_jetton_data has a master to read every 10 blocks
      await waitUntil('the activity to deploy a jetton', () => handle.ledger().jettons.length > 0, 180_000);
      const jettons = handle.ledger().jettons.map((j) => j.master.toRawString());

      const { code, stdout, stderr } = await runOracle([
        '-config',
        info.globalConfigFile,
        '-wallets',
        info.walletsFile,
        '-send-from',
        senders.map((w) => w.raw).join(','),
        '-probe',
        jettons.join(','),
        '-blocks',
        String(BLOCKS),
        '-shards',
        '2',
        '-timeout',
        `${Math.round((TIMEOUT_MS - 120_000) / 1000)}s`,
        '-secure',
        'require',
      ]);
      const counters = await handle.stop();
      let report: OracleReport;
      try {
        report = JSON.parse(stdout) as OracleReport;
      } catch {
        throw new Error(`oracle exited ${code} without a report:\n${stderr.slice(-4000)}`);
      }
      console.log(
        `tonutils-go oracle, ${Math.round((Date.now() - started) / 1000)} s (activity: ${counters.ok} steps ok, ` +
          `${counters.failed} failed):\n  checked ${JSON.stringify(report.checked)}\n` +
          `  info ${JSON.stringify(report.info)}`,
      );
      expect(report.failures, JSON.stringify(report.failures.slice(0, 20), null, 1)).toEqual([]);
      expect(code).toBe(0);

      const c = report.checked;
      expect(c['lookupBlock.mc']).toBe(BLOCKS);
      expect(c['getBlock.mc']).toBe(BLOCKS);
      expect(c.getBlockHeader).toBe(BLOCKS);
      expect(c.getMasterchainInfo).toBe(BLOCKS);
      expect(c.getAllShardsInfo).toBe(BLOCKS + 1);
      expect(c.shardBlock).toBeGreaterThanOrEqual(2 * BLOCKS);
      expect(c['lookupBlock.shard']).toBe(c.shardBlock);
      expect(c['lookupBlock.lt']).toBe(BLOCKS + (c.shardBlock ?? 0));
      expect(c['listBlockTransactions.page']).toBeGreaterThanOrEqual(BLOCKS + (c.shardBlock ?? 0));
      expect(c['listBlockTransactions.txProof']).toBeGreaterThan(30);
      expect(c.getOneTransaction).toBe(c['listBlockTransactions.txProof']);
      expect(c.getAccountState).toBeGreaterThan(20);
      expect(c.getTransactions).toBe(c.getAccountState);
      expect(c['getAccountState.probe']).toBeGreaterThanOrEqual(10 * (wallets.length + jettons.length));
      expect(c['runSmcMethod.seqno']).toBeGreaterThanOrEqual(10 * wallets.length);
      expect(c['runSmcMethod.get_jetton_data']).toBeGreaterThanOrEqual(10 * jettons.length);
      expect(c['getAccountState.missing']).toBe(BLOCKS / 10);
      expect(c['runSmcMethod.missing']).toBe(BLOCKS / 10);
      expect(c.getConfigAll).toBe(BLOCKS / 10 + 1);
      expect(c.getConfigParams).toBe(BLOCKS - BLOCKS / 10);
      expect(c['signatures.forwardFromZeroState']).toBe(BLOCKS);
      expect(c['secure.verifyProofChain.backward']).toBe(BLOCKS);
      expect(c['wallet.address']).toBe(2);
      expect(c['wallet.transfer.landed']).toBe(2);
      // ProofCheckPolicySecure from the init block: once at the start, then after every block
      expect(report.info.secureFromInitBlock).toMatch(/^accepted up to /);
      expect(c['secure.getMasterchainInfo']).toBe(BLOCKS + 1);
      const txs = report.info.shardTransactions as Record<string, number>;
      expect(Object.keys(txs)).toHaveLength(2);
      for (const [shard, n] of Object.entries(txs)) expect(n, `transactions on shard ${shard}`).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
