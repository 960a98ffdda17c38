// The published global config: what parseGlobalConfig (and C++/Go readers, which need the exact int64 digits of
// the masterchain shard) take; IPs as the signed int32 TON configs use.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGlobalConfig } from '../../lite/index.ts';
import { DEVNET_DNS_COLLECTION } from '../contracts/dns.ts';
import {
  devnetDnsRootsOf,
  devnetGlobalConfigText,
  devnetNetworkInfoOf,
  ipv4ToInt32,
  readDevnetNetworkInfo,
} from './published-files.ts';

describe('published files', () => {
  it('IPv4 addresses as signed int32 (mainnet configs list e.g. -1185526007 for 185.86.79.9)', () => {
    expect(ipv4ToInt32('127.0.0.1')).toBe(2130706433);
    expect(ipv4ToInt32('185.86.79.9')).toBe(-1185526007);
    expect(ipv4ToInt32('0.0.0.0')).toBe(2130706433);
    expect(() => ipv4ToInt32('::1')).toThrow(/IPv4/);
    expect(() => ipv4ToInt32('1.2.3.256')).toThrow(/IPv4/);
  });

  it('a global config parseGlobalConfig takes, with the exact masterchain shard', () => {
    const zero = {
      workchain: -1,
      shard: 0x8000000000000000n,
      seqno: 0,
      rootHash: randomBytes(32),
      fileHash: randomBytes(32),
    };
    const key = randomBytes(32);
    const text = devnetGlobalConfigText({
      host: '127.0.0.1',
      port: 4924,
      publicKey: key,
      zeroState: zero,
      initBlock: zero,
    });
    expect(text.match(/"shard": -9223372036854775808,/g)).toHaveLength(2);
    const raw = JSON.parse(text) as { liteservers: Array<{ ip: number }>; validator: { '@type': string } };
    expect(raw.liteservers[0]?.ip).toBe(2130706433);
    expect(raw.validator['@type']).toBe('validator.config.global');
    const cfg = parseGlobalConfig(text);
    expect(cfg.liteservers).toEqual([{ id: '127.0.0.1:4924', host: '127.0.0.1', port: 4924, publicKey: key }]);
    expect(cfg.zeroState).toEqual({ ...zero, shard: -(2n ** 63n) });
    expect(cfg.initBlock).toEqual(cfg.zeroState);
    expect(() =>
      devnetGlobalConfigText({
        host: '127.0.0.1',
        port: 1,
        publicKey: key,
        zeroState: { ...zero, workchain: 0 },
        initBlock: zero,
      }),
    ).toThrow(/masterchain/);
  });

  it("carries the devnet's global id and DNS root in a top-level tongate object; walk/work read it back", async () => {
    const zero = {
      workchain: -1,
      shard: 0x8000000000000000n,
      seqno: 0,
      rootHash: randomBytes(32),
      fileHash: randomBytes(32),
    };
    const args = { host: '127.0.0.1', port: 4924, publicKey: randomBytes(32), zeroState: zero, initBlock: zero };
    const text = devnetGlobalConfigText(args);
    const dnsRoot = DEVNET_DNS_COLLECTION.toRawString();
    expect((JSON.parse(text) as { tongate: unknown }).tongate).toEqual({
      global_id: -217,
      dns_root: dnsRoot,
      dns_suffix: '.ton',
    });
    expect(devnetNetworkInfoOf(text)).toEqual({ globalId: -217, dnsRoot, dnsSuffix: '.ton' });
    const other = { globalId: 42, dnsRoot: `0:${'ab'.repeat(32)}`, dnsSuffix: '.dev' };
    expect(devnetNetworkInfoOf(devnetGlobalConfigText({ ...args, network: other }))).toEqual(other);
    // Configs without it (mainnet's) or with a malformed one: none.
    const { tongate: _, ...plain } = JSON.parse(text) as Record<string, unknown>;
    expect(devnetNetworkInfoOf(plain)).toBeNull();
    expect(devnetNetworkInfoOf({ tongate: { global_id: -217, dns_root: 'nope' } })).toBeNull();
    expect(devnetNetworkInfoOf('not json')).toBeNull();

    const dir = await mkdtemp(join(tmpdir(), 'tongate-published-'));
    try {
      await writeFile(join(dir, 'with.json'), devnetGlobalConfigText({ ...args, network: other }));
      await writeFile(join(dir, 'without.json'), JSON.stringify(plain));
      expect(await readDevnetNetworkInfo(join(dir, 'missing.json'))).toBeNull();
      expect(await devnetDnsRootsOf({ liteConfig: join(dir, 'with.json') })).toEqual([
        { collection: other.dnsRoot, suffix: '.dev' },
      ]);
      expect(await devnetDnsRootsOf({ liteConfig: join(dir, 'without.json') })).toBeNull();
      // A devnet store names its root through its global.config.json, else the devnet's own collection.
      expect(await devnetDnsRootsOf({ devnetStore: dir })).toEqual([{ collection: dnsRoot, suffix: '.ton' }]);
      await writeFile(join(dir, 'global.config.json'), devnetGlobalConfigText({ ...args, network: other }));
      expect(await devnetDnsRootsOf({ devnetStore: dir })).toEqual([{ collection: other.dnsRoot, suffix: '.dev' }]);
      expect(await devnetDnsRootsOf({})).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
