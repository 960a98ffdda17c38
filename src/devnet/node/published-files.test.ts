// The published global config: what parseGlobalConfig (and C++/Go readers, which need the exact int64 digits of
// the masterchain shard) take; IPs as the signed int32 TON configs use.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseGlobalConfig } from '../../lite/index.ts';
import { devnetGlobalConfigText, ipv4ToInt32 } from './published-files.ts';

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
});
