// TON global config: parsing (the fields tongate uses, each malformed one rejected with a clear ConfigError)
// and loading from a file or a loopback HTTP server (deadline, size cap, HTTP errors).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/common/index.ts';
import { loadGlobalConfig, parseGlobalConfig } from '../../src/lite/index.ts';

// The shape of ton.org's global.config.json (ids and keys of real mainnet entries; dht section trimmed).
// Expected dotted quads were computed independently (Python ipaddress on ip & 0xffffffff).
const ZERO_ROOT = 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=';
const ZERO_FILE = 'XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=';
const KEY_A = 'n4VDnSCUuSpjnCyUk9e3QOOd6o0ItSWYbTnW3Wnn8wk=';
const KEY_B = '3XO67K/qi+gu3T9v8G2hx1yNmWZhccL3O7SoosFo8G0=';
// As the file has it: the shard is the JSON number -9223372036854775808 (exact as a double, like every mc shard).
const GOOD_TEXT = `{
  "@type": "config.global",
  "dht": { "@type": "dht.config.global", "k": 6, "a": 3, "static_nodes": { "@type": "dht.nodes", "nodes": [] } },
  "liteservers": [
    { "ip": 84478511, "port": 19949, "id": { "@type": "pub.ed25519", "key": "${KEY_A}" } },
    { "ip": -2018135749, "port": 53312, "id": { "@type": "pub.ed25519", "key": "${KEY_B}" } }
  ],
  "validator": {
    "@type": "validator.config.global",
    "zero_state": { "workchain": -1, "shard": -9223372036854775808, "seqno": 0, "root_hash": "${ZERO_ROOT}", "file_hash": "${ZERO_FILE}" },
    "init_block": { "workchain": -1, "shard": -9223372036854775808, "seqno": 0, "root_hash": "${ZERO_ROOT}", "file_hash": "${ZERO_FILE}" },
    "hardforks": []
  }
}`;
const GOOD: unknown = JSON.parse(GOOD_TEXT);

// biome-ignore lint/suspicious/noExplicitAny: the tests below break arbitrary parts of a JSON document
type Json = any;
const clone = (): Json => JSON.parse(JSON.stringify(GOOD));

function badField(mutate: (c: Json) => void, message: RegExp) {
  const c = clone();
  mutate(c);
  let err: unknown;
  try {
    parseGlobalConfig(JSON.stringify(c));
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as Error).message).toMatch(message);
}

describe('parseGlobalConfig', () => {
  it('reads liteservers (signed int32 ip -> dotted quad), keys and the zero state', () => {
    const cfg = parseGlobalConfig(GOOD_TEXT);
    expect(cfg.liteservers).toEqual([
      { id: '5.9.10.47:19949', host: '5.9.10.47', port: 19949, publicKey: Buffer.from(KEY_A, 'base64') },
      { id: '135.181.177.59:53312', host: '135.181.177.59', port: 53312, publicKey: Buffer.from(KEY_B, 'base64') },
    ]);
    expect(cfg.zeroState).toEqual({
      workchain: -1,
      shard: -9223372036854775808n,
      seqno: 0,
      rootHash: Buffer.from(ZERO_ROOT, 'base64'),
      fileHash: Buffer.from(ZERO_FILE, 'base64'),
    });
    expect(cfg.initBlock?.seqno).toBe(0);
    // Parsed objects are accepted as well as text.
    expect(parseGlobalConfig(GOOD).liteservers).toHaveLength(2);
  });

  it('accepts a config without a validator section and unsigned ips; de-duplicates repeated entries', () => {
    const c = clone();
    delete c.validator;
    c.liteservers.push({ ...c.liteservers[0] }); // exact duplicate: dropped
    c.liteservers.push({ ip: 84478511, port: 19949, id: { '@type': 'pub.ed25519', key: KEY_B } }); // same address, other key
    c.liteservers.push({ ip: 4294967295, port: 1, id: { '@type': 'pub.ed25519', key: KEY_A } });
    const cfg = parseGlobalConfig(c);
    expect(cfg.zeroState).toBeUndefined();
    expect(cfg.liteservers.map((s) => s.id)).toEqual([
      '5.9.10.47:19949',
      '135.181.177.59:53312',
      '5.9.10.47:19949#2',
      '255.255.255.255:1',
    ]);
  });

  it('takes the shard as a decimal or hex string too', () => {
    const c = clone();
    c.validator.zero_state.shard = '0x8000000000000000';
    c.validator.init_block.shard = '-9223372036854775808';
    const cfg = parseGlobalConfig(c);
    expect(cfg.zeroState!.shard).toBe(-(2n ** 63n));
    expect(cfg.initBlock!.shard).toBe(-(2n ** 63n));
  });

  it('rejects every malformed field with a message naming it', () => {
    expect(() => parseGlobalConfig('{not json')).toThrow(/expected JSON text/);
    expect(() => parseGlobalConfig('[]')).toThrow(/JSON object at the top level, got an array/);
    badField((c) => delete c.liteservers, /"liteservers" to be an array, got nothing/);
    badField((c) => (c.liteservers = {}), /"liteservers" to be an array, got an object/);
    badField((c) => (c.liteservers = []), /"liteservers" is empty/);
    badField((c) => (c.liteservers[1] = 'x'), /liteservers\[1\]: expected an object, got string "x"/);
    badField(
      (c) => delete c.liteservers[0].ip,
      /liteservers\[0\]\.ip: expected an IPv4 address as a 32-bit integer, got nothing/,
    );
    badField((c) => (c.liteservers[0].ip = '5.9.10.47'), /liteservers\[0\]\.ip: .*got string "5\.9\.10\.47"/);
    badField((c) => (c.liteservers[0].ip = 2 ** 32), /liteservers\[0\]\.ip: .*got number 4294967296/);
    badField((c) => (c.liteservers[0].ip = 1.5), /liteservers\[0\]\.ip/);
    badField(
      (c) => (c.liteservers[1].port = 0),
      /liteservers\[1\]\.port: expected an integer in 1\.\.65535, got number 0/,
    );
    badField((c) => (c.liteservers[1].port = 70000), /liteservers\[1\]\.port: .*got number 70000/);
    badField((c) => (c.liteservers[1].port = '443'), /liteservers\[1\]\.port: .*got string "443"/);
    badField((c) => delete c.liteservers[0].id, /liteservers\[0\]\.id: expected an object/);
    badField(
      (c) => (c.liteservers[0].id['@type'] = 'pub.aes'),
      /liteservers\[0\]\.id\["@type"\]: expected "pub\.ed25519", got string "pub\.aes"/,
    );
    badField((c) => delete c.liteservers[0].id['@type'], /id\["@type"\]: expected "pub\.ed25519", got nothing/);
    badField(
      (c) => delete c.liteservers[0].id.key,
      /liteservers\[0\]\.id\.key: expected 32 bytes in base64, got nothing/,
    );
    badField(
      (c) => (c.liteservers[0].id.key = 'AAAA'),
      /liteservers\[0\]\.id\.key: expected 32 bytes in base64, got 3 bytes/,
    );
    badField((c) => (c.liteservers[0].id.key = 'not base64!'), /id\.key: expected 32 bytes in base64, got string/);
    badField((c) => (c.validator = 'x'), /"validator" to be an object, got string "x"/);
    badField((c) => (c.validator.zero_state = 5), /validator\.zero_state: expected a block id object, got number 5/);
    badField(
      (c) => (c.validator.zero_state.workchain = 'x'),
      /validator\.zero_state\.workchain: expected a 32-bit integer/,
    );
    badField(
      (c) => (c.validator.zero_state.seqno = -1),
      /validator\.zero_state\.seqno: expected a non-negative 32-bit integer, got number -1/,
    );
    badField(
      (c) => (c.validator.zero_state.shard = 'abc'),
      /validator\.zero_state\.shard: expected a 64-bit shard id, got string "abc"/,
    );
    badField((c) => (c.validator.zero_state.shard = '0x1ffffffffffffffff'), /validator\.zero_state\.shard/);
    badField(
      (c) => (c.validator.zero_state.root_hash = ZERO_ROOT.slice(4)),
      /validator\.zero_state\.root_hash: expected 32 bytes in base64, got 29 bytes/,
    );
    badField(
      (c) => delete c.validator.init_block.file_hash,
      /validator\.init_block\.file_hash: expected 32 bytes in base64, got nothing/,
    );
  });
});

describe('loadGlobalConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-gc-'));
  const servers: Server[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  async function http(handler: (res: ServerResponse, path: string) => void): Promise<string> {
    const s = createServer((req, res) => handler(res, req.url ?? '/'));
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const addr = s.address();
    return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  }

  it('reads a file', async () => {
    const path = join(dir, 'global.config.json');
    writeFileSync(path, GOOD_TEXT);
    const cfg = await loadGlobalConfig(path);
    expect(cfg.liteservers[0]!.host).toBe('5.9.10.47');
  });

  it('names the file in every failure: missing, a directory, too large, bad content', async () => {
    await expect(loadGlobalConfig(join(dir, 'nope.json'))).rejects.toThrow(/nope\.json: could not read the file/);
    await expect(loadGlobalConfig(dir)).rejects.toThrow(/expected a regular file/);
    const big = join(dir, 'big.json');
    writeFileSync(big, JSON.stringify({ ...clone(), pad: 'x'.repeat(5000) }));
    await expect(loadGlobalConfig(big, { maxBytes: 4096 })).rejects.toThrow(
      /expected at most 4096 bytes, the file has/,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify({ liteservers: [{ ip: 1, port: 2, id: { '@type': 'pub.ed25519', key: 'AA==' } }] }),
    );
    await expect(loadGlobalConfig(broken)).rejects.toThrow(/broken\.json: liteservers\[0\]\.id\.key/);
  });

  it('downloads over http, and refuses errors, oversize bodies (with or without content-length) and silence', async () => {
    const base = await http((res, path) => {
      if (path === '/ok') {
        res.setHeader('content-type', 'application/json');
        res.end(GOOD_TEXT);
      } else if (path === '/big') {
        res.end(JSON.stringify({ ...clone(), pad: 'x'.repeat(10_000) }));
      } else if (path === '/chunked') {
        // No content-length: the cap has to be enforced while streaming.
        res.write('{"pad":"');
        for (let i = 0; i < 20; i++) res.write('x'.repeat(1000));
        res.end('"}');
      } else if (path === '/silent') {
        // Headers never come: the deadline decides.
      } else {
        res.statusCode = 404;
        res.end('no');
      }
    });
    const cfg = await loadGlobalConfig(`${base}/ok`);
    expect(cfg.liteservers).toHaveLength(2);
    await expect(loadGlobalConfig(`${base}/missing`)).rejects.toThrow(/expected HTTP 200, got 404/);
    await expect(loadGlobalConfig(`${base}/big`, { maxBytes: 4096 })).rejects.toThrow(/expected at most 4096 bytes/);
    await expect(loadGlobalConfig(`${base}/chunked`, { maxBytes: 4096 })).rejects.toThrow(/the body is larger/);
    const silent = await loadGlobalConfig(`${base}/silent`, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(ConfigError);
    expect((silent as Error).message).toMatch(/no complete answer within 200 ms/);
    const refused = await loadGlobalConfig('http://127.0.0.1:1/global.json').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/download failed/);
  });
});
