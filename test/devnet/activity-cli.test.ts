// `tongate devnet activity` without a node: help, usage errors (one line, exit 2), a missing devnet (exit 1) and a
// node that is not running (exit 75, worth retrying). The run against a live node is in activity-node.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Command, runCommand } from '../../src/cli/command.ts';
import { activityCommand } from '../../src/cli/devnet-activity.ts';

const root: Command = {
  name: 'tongate',
  summary: '',
  subcommands: [{ name: 'devnet', summary: '', subcommands: [activityCommand] }],
};

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(root, ['devnet', 'activity', ...args], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tongate-activity-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tongate devnet activity (no node)', () => {
  it('prints help with every option', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    const help = r.out.join('\n');
    expect(help).toMatch(/Usage: tongate devnet activity \[options\]/);
    for (const flag of ['--lite-config', '--wallets', '--data', '--steps', '--interval', '--seed']) {
      expect(help).toContain(flag);
    }
  });

  it('refuses bad usage with one line and exit 2', async () => {
    for (const args of [['--steps', '0'], ['--interval', '-5'], ['--bogus'], ['extra'], ['--seed', '']]) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toHaveLength(1);
    }
  });

  it('exits 1 when there is no devnet in the data folder', async () => {
    const r = await run('--data', join(dir, 'nothing-here'));
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/start a devnet with 'tongate devnet'/);
  });

  it('exits 75 when the node in the global config is not running', async () => {
    const config = join(dir, 'global.config.json');
    const liteserver = {
      ip: 0x7f000001,
      port: await closedPort(),
      id: { '@type': 'pub.ed25519', key: Buffer.alloc(32, 7).toString('base64') },
    };
    await writeFile(config, JSON.stringify({ liteservers: [liteserver] }));
    const r = await run('--lite-config', config, '--wallets', join(dir, 'wallets.json'));
    expect(r.code).toBe(75);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/is not running/);
  });
});
