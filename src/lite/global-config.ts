// TON global config (the `global.config.json` that ton.org publishes and every node and client reads): only the
// parts tongate needs, the `liteservers` array and the optional `validator.zero_state` / `init_block` ids.
import { readFile, stat } from 'node:fs/promises';
import { ConfigError } from '../common/index.ts';

/** One liteserver of a global config. `id` is `host:port` (suffixed `#n` if the config lists that address twice). */
export interface LiteServerEndpoint {
  id: string;
  host: string;
  port: number;
  /** The server's raw 32-byte ed25519 public key (the config's `id.key`). */
  publicKey: Buffer;
}

/** `ton.blockIdExt` as it appears in the config's `validator` section. */
export interface GlobalConfigBlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface GlobalConfig {
  liteservers: LiteServerEndpoint[];
  zeroState?: GlobalConfigBlockId;
  initBlock?: GlobalConfigBlockId;
}

export interface LoadGlobalConfigOptions {
  /** Whole download (or file read) deadline; default 10 s. */
  timeoutMs?: number;
  /** Larger inputs are refused; default 4 MiB (mainnet's config is ~30 KB). */
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** Parses a global config given as JSON text or as the already parsed value. Throws ConfigError naming the bad field. */
export function parseGlobalConfig(json: unknown, source = 'global config'): GlobalConfig {
  let root: unknown = json;
  if (typeof json === 'string' || Buffer.isBuffer(json)) {
    try {
      root = JSON.parse(json.toString());
    } catch (e) {
      throw new ConfigError(`${source}: expected JSON text, got a parse error: ${(e as Error).message}`, { cause: e });
    }
  }
  if (!isObject(root))
    throw new ConfigError(`${source}: expected a JSON object at the top level, got ${describe(root)}`);
  const list = root.liteservers;
  if (!Array.isArray(list)) {
    throw new ConfigError(`${source}: expected "liteservers" to be an array, got ${describe(list)}`);
  }
  if (list.length === 0) throw new ConfigError(`${source}: "liteservers" is empty; at least one liteserver is needed`);

  const liteservers: LiteServerEndpoint[] = [];
  const seen = new Map<string, number>();
  list.forEach((entry, i) => {
    const server = parseLiteServer(entry, `${source}: liteservers[${i}]`);
    const prev = liteservers.find((s) => s.host === server.host && s.port === server.port);
    if (prev?.publicKey.equals(server.publicKey)) return; // exact duplicate entry: keep one
    const n = (seen.get(server.id) ?? 0) + 1;
    seen.set(server.id, n);
    if (n > 1) server.id = `${server.id}#${n}`;
    liteservers.push(server);
  });

  const config: GlobalConfig = { liteservers };
  const validator = root.validator;
  if (validator !== undefined) {
    if (!isObject(validator))
      throw new ConfigError(`${source}: expected "validator" to be an object, got ${describe(validator)}`);
    if (validator.zero_state !== undefined) {
      config.zeroState = parseBlockId(validator.zero_state, `${source}: validator.zero_state`);
    }
    if (validator.init_block !== undefined) {
      config.initBlock = parseBlockId(validator.init_block, `${source}: validator.init_block`);
    }
  }
  return config;
}

/** Reads a global config from a file path or an http(s) URL, with a deadline and a size cap. */
export async function loadGlobalConfig(fileOrUrl: string, opts: LoadGlobalConfigOptions = {}): Promise<GlobalConfig> {
  return parseGlobalConfig(await readGlobalConfigText(fileOrUrl, opts), fileOrUrl);
}

/** A global config's text from a file or an http(s) URL, within the deadline and size bound of `opts`. */
export async function readGlobalConfigText(fileOrUrl: string, opts: LoadGlobalConfigOptions = {}): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  return /^https?:\/\//i.test(fileOrUrl)
    ? await download(fileOrUrl, timeoutMs, maxBytes)
    : await readLocal(fileOrUrl, maxBytes);
}

async function readLocal(path: string, maxBytes: number): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ConfigError(`global config ${path}: expected a regular file, got something else`);
    if (info.size > maxBytes) {
      throw new ConfigError(`global config ${path}: expected at most ${maxBytes} bytes, the file has ${info.size}`);
    }
    return await readFile(path, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`global config ${path}: could not read the file: ${(e as Error).message}`, { cause: e });
  }
}

async function download(url: string, timeoutMs: number, maxBytes: number): Promise<string> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const res = await fetch(url, { signal: ac.signal, redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new ConfigError(`global config ${url}: expected HTTP 200, got ${res.status} ${res.statusText}`);
    }
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new ConfigError(
        `global config ${url}: expected at most ${maxBytes} bytes, the server announced ${declared}`,
      );
    }
    // Count while streaming: content-length can be absent or wrong.
    const chunks: Buffer[] = [];
    let total = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        total += chunk.byteLength;
        if (total > maxBytes) {
          ac.abort();
          throw new ConfigError(`global config ${url}: expected at most ${maxBytes} bytes, the body is larger`);
        }
        chunks.push(Buffer.from(chunk));
      }
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    if (ac.signal.aborted) {
      throw new ConfigError(`global config ${url}: no complete answer within ${timeoutMs} ms`, { cause: e });
    }
    throw new ConfigError(`global config ${url}: download failed: ${(e as Error).message}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}

function parseLiteServer(entry: unknown, where: string): LiteServerEndpoint {
  if (!isObject(entry)) throw new ConfigError(`${where}: expected an object, got ${describe(entry)}`);
  const { ip, port, id } = entry;
  // The config stores the IPv4 address as a signed int32 (unsigned values are accepted too).
  if (typeof ip !== 'number' || !Number.isInteger(ip) || ip < -0x80000000 || ip > 0xffffffff) {
    throw new ConfigError(`${where}.ip: expected an IPv4 address as a 32-bit integer, got ${describe(ip)}`);
  }
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(`${where}.port: expected an integer in 1..65535, got ${describe(port)}`);
  }
  if (!isObject(id))
    throw new ConfigError(`${where}.id: expected an object {"@type":"pub.ed25519","key":…}, got ${describe(id)}`);
  if (id['@type'] !== 'pub.ed25519') {
    throw new ConfigError(`${where}.id["@type"]: expected "pub.ed25519", got ${describe(id['@type'])}`);
  }
  const publicKey = decodeBase64(id.key, 32, `${where}.id.key`);
  const u = ip >>> 0;
  const host = `${u >>> 24}.${(u >>> 16) & 0xff}.${(u >>> 8) & 0xff}.${u & 0xff}`;
  return { id: `${host}:${port}`, host, port, publicKey };
}

function parseBlockId(v: unknown, where: string): GlobalConfigBlockId {
  if (!isObject(v)) throw new ConfigError(`${where}: expected a block id object, got ${describe(v)}`);
  const { workchain, shard, seqno } = v;
  if (
    typeof workchain !== 'number' ||
    !Number.isInteger(workchain) ||
    workchain < -0x80000000 ||
    workchain > 0x7fffffff
  ) {
    throw new ConfigError(`${where}.workchain: expected a 32-bit integer, got ${describe(workchain)}`);
  }
  if (typeof seqno !== 'number' || !Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) {
    throw new ConfigError(`${where}.seqno: expected a non-negative 32-bit integer, got ${describe(seqno)}`);
  }
  return {
    workchain,
    shard: parseShard(shard, `${where}.shard`),
    seqno,
    rootHash: decodeBase64(v.root_hash, 32, `${where}.root_hash`),
    fileHash: decodeBase64(v.file_hash, 32, `${where}.file_hash`),
  };
}

// JSON numbers lose precision past 2^53, but the masterchain shard (-2^63) survives exactly, and that is the
// only shard a config names. Strings (decimal or 0x-hex) are taken as well.
function parseShard(v: unknown, where: string): bigint {
  let n: bigint | undefined;
  if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^-?(\d+|0x[0-9a-f]+)$/i.test(v)) {
    n = v.startsWith('-') ? -BigInt(v.slice(1)) : BigInt(v);
  }
  if (n === undefined || n < -(2n ** 63n) || n >= 2n ** 64n) {
    throw new ConfigError(`${where}: expected a 64-bit shard id, got ${describe(v)}`);
  }
  return BigInt.asIntN(64, n);
}

function decodeBase64(v: unknown, bytes: number, where: string): Buffer {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) {
    throw new ConfigError(`${where}: expected ${bytes} bytes in base64, got ${describe(v)}`);
  }
  const buf = Buffer.from(v, 'base64');
  if (buf.length !== bytes) {
    throw new ConfigError(`${where}: expected ${bytes} bytes in base64, got ${buf.length} bytes`);
  }
  return buf;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  const text = JSON.stringify(v) ?? String(v);
  return `${typeof v} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}
