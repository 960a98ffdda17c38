// toncenter's Python v2 server (`ton-http-api`, tonlib from `pytonlib`) as a child process on loopback, against a
// devnet's global config: where install.sh put it, how to start it, and how to wait until tonlib has synced.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json } from './differential.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** The venv install.sh creates. */
export const REFERENCE_VENV = resolve(here, '../.venv-http');
export const REFERENCE_INSTALL = join(here, 'install.sh');

/** The ton-http-api executable, or why it is not there. */
export function referenceToolchain(): { bin: string } | { missing: string } {
  const bin = join(REFERENCE_VENV, 'bin', 'ton-http-api');
  const stamp = join(REFERENCE_VENV, '.requirements.sha256');
  if (!existsSync(bin) || !existsSync(stamp)) {
    return { missing: `ton-http-api is not installed in ${REFERENCE_VENV}: run bash ${REFERENCE_INSTALL}` };
  }
  return { bin };
}

export interface ReferenceServer {
  /** http://127.0.0.1:PORT (ton-http-api serves at the root). */
  base: string;
  /** Its stdout and stderr so far (tail). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts ton-http-api on `port` against `globalConfigFile` and waits until its tonlib has synced to masterchain
 * block `headSeqno` (getMasterchainInfo answers it and the consensus block reached it).
 */
export async function startReference(opts: {
  bin: string;
  globalConfigFile: string;
  port: number;
  headSeqno: number;
  timeoutMs?: number;
}): Promise<ReferenceServer> {
  const dir = await mkdtemp(join(tmpdir(), 'tongate-ton-http-api-'));
  const out: string[] = [];
  const child: ChildProcess = spawn(
    opts.bin,
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(opts.port),
      '--liteserver-config',
      opts.globalConfigFile,
      '--tonlib-keystore',
      `${dir}/`,
      '--logs-level',
      'ERROR',
    ],
    {
      cwd: dir,
      env: {
        ...process.env,
        TON_API_TONLIB_LITESERVER_CONFIG: opts.globalConfigFile,
        TON_API_TONLIB_KEYSTORE: `${dir}/`,
        TON_API_TONLIB_REQUEST_TIMEOUT: '20',
        TON_API_GET_METHODS_ENABLED: '1',
        TON_API_JSON_RPC_ENABLED: '1',
        TON_API_CACHE_ENABLED: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const keep = (b: Buffer) => {
    out.push(b.toString());
    if (out.length > 400) out.splice(0, out.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((r) =>
    child.once('exit', (code) => {
      exited = code;
      r();
    }),
  );
  const base = `http://127.0.0.1:${opts.port}`;
  const server: ReferenceServer = {
    base,
    log: () => out.join('').slice(-6000),
    async stop() {
      if (exited === undefined) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exit;
        clearTimeout(t);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited !== undefined) break;
    try {
      const info = (await (
        await fetch(`${base}/getMasterchainInfo`, { signal: AbortSignal.timeout(5000) })
      ).json()) as Json;
      const cons = (await (
        await fetch(`${base}/getConsensusBlock`, { signal: AbortSignal.timeout(5000) })
      ).json()) as Json;
      last = JSON.stringify({ info: info?.result?.last?.seqno ?? info, consensus: cons?.result ?? cons });
      if (
        info?.ok &&
        info.result.last.seqno >= opts.headSeqno &&
        cons?.ok &&
        cons.result.consensus_block >= opts.headSeqno
      ) {
        return server;
      }
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error(
    `ton-http-api did not sync to masterchain block ${opts.headSeqno} (${exited !== undefined ? `exited ${exited}` : 'timeout'}; last: ${last}); its log:\n${server.log()}`,
  );
}
