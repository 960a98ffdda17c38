// wallets.json parsing and opening: the keys and addresses the activity signs with are the genesis wallets' own
// (derived independently by src/devnet/genesis), and malformed files fail with ConfigError naming the entry.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../common/index.ts';
import { deriveUserWallets, deriveWallets } from '../genesis/index.ts';
import { createRng } from './rng.ts';
import { openWallets, parseWalletsFile } from './wallets.ts';

describe('activity wallets', () => {
  it('open to the genesis wallets of the seed (v3r2, v4r2, v5r1 with the devnet global id)', async () => {
    const genesis = await deriveWallets('activity-wallets');
    const entries = genesis.map((w) => ({ version: w.version, mnemonic: w.mnemonic, address: w.address.toString() }));
    const opened = await openWallets(parseWalletsFile(JSON.stringify(entries)));
    expect(opened.map((w) => w.address.toRawString())).toEqual(genesis.map((w) => w.address.toRawString()));
    expect(opened.map((w) => w.publicKey.toString('hex'))).toEqual(genesis.map((w) => w.publicKey.toString('hex')));
    // another global id gives another v5r1 wallet, which the file's address then contradicts
    await expect(openWallets(entries, { globalId: -239 })).rejects.toThrow(/another global id than -239/);
  });

  it('leave out the user wallets (role "user"): the activity never signs with them', async () => {
    const genesis = await deriveWallets('activity-wallets');
    const user = await deriveUserWallets('activity-wallets');
    expect(user.map((w) => [w.version, w.role])).toEqual([
      ['v4r2', 'user'],
      ['v5r1', 'user'],
      ['v4r2', 'user'],
      ['v5r1', 'user'],
    ]);
    const raws = new Set([...genesis, ...user].map((w) => w.address.toRawString()));
    expect(raws.size).toBe(genesis.length + user.length);
    const entry = (w: (typeof user)[number], role: 'activity' | 'user') => ({
      version: w.version,
      mnemonic: w.mnemonic,
      raw: w.address.toRawString(),
      networkGlobalId: -217,
      role,
    });
    const file = [...genesis.map((w) => entry(w, 'activity')), ...user.map((w) => entry(w, 'user'))];
    expect(parseWalletsFile(JSON.stringify(file)).map((e) => e.raw)).toEqual(
      genesis.map((w) => w.address.toRawString()),
    );
    expect(() => parseWalletsFile(user.map((w) => entry(w, 'user')))).toThrow(/every one is a user wallet/);
    expect(() => parseWalletsFile([{ ...entry(genesis[0]!, 'activity'), role: 'admin' }])).toThrow(/"role"/);
  });

  it('refuse malformed files with ConfigError', () => {
    const cases: unknown[] = [
      'not json',
      '{}',
      '[]',
      [{ version: 'v2', mnemonic: [] }],
      [{ version: 'v4r2', mnemonic: ['a'] }],
    ];
    for (const c of cases) expect(() => parseWalletsFile(c), JSON.stringify(c)).toThrow(ConfigError);
  });
});

describe('activity rng', () => {
  it('is a function of (seed, label) and stays in range', () => {
    const a = createRng('s', 'step 1');
    const b = createRng('s', 'step 1');
    const c = createRng('s', 'step 2');
    const xs = Array.from({ length: 50 }, () => a.int(7));
    expect(Array.from({ length: 50 }, () => b.int(7))).toEqual(xs);
    expect(Array.from({ length: 50 }, () => c.int(7))).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 7)).toBe(true);
    expect(new Set(xs).size).toBe(7);
    const big = createRng('s', 'big');
    for (let i = 0; i < 50; i++) {
      const v = big.bigint(10n ** 20n, 10n ** 20n + 5n);
      expect(v >= 10n ** 20n && v <= 10n ** 20n + 5n).toBe(true);
    }
  });
});
