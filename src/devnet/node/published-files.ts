// The two files a devnet publishes in `<data>/devnet/`: global.config.json (a standard TON global config: the
// liteserver with its int32 IP and key, the zero state and init block, for tonlib, tonutils-go, pytoniq or our own
// parseGlobalConfig) and wallets.json (the funded genesis wallets with their mnemonics).
//
// The global config also carries a top-level `"tongate": {"global_id", "dns_root", "dns_suffix"}` object: the
// network's global id (v5r1 wallet ids depend on it) and the devnet's `.ton`-style DNS collection, which
// `walk`/`work` take as their DNS root when indexing the devnet. TON's readers (tonlib's from_json, tonutils-go's
// json.Unmarshal, pytoniq's dict lookups, our parseGlobalConfig) look fields up by name and ignore other keys.
//
// wallets.json stays an array of wallets (the format its readers know); each entry now also says its
// `networkGlobalId` and `role`: "activity" (the traffic generator signs with it) or "user" (funded and deployed at
// genesis like the others, never touched by the activity or the faucet: a user's own transfers cannot race it for
// a seqno).
//
// wallets.json addresses: user-friendly, non-bounceable (what wallet apps show for a wallet) and test-only, because
// the devnet is not mainnet: a mainnet wallet app warns before sending to a test-only address, so a devnet address
// pasted into one cannot quietly receive real funds. `raw` is the workchain:hex form.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../common/errors.ts';
import { readGlobalConfigText } from '../../lite/index.ts';
import { type BlockIdExt, MC_SHARD_TEXT } from '../../ton/index.ts';
import { DEVNET_DNS_COLLECTION, DEVNET_DNS_SUFFIX } from '../contracts/dns.ts';
import { DEVNET_GLOBAL_ID, type DevnetWallet } from '../genesis/index.ts';

export interface WalletsFileEntry {
  version: DevnetWallet['version'];
  mnemonic: string[];
  address: string;
  raw: string;
  publicKey: string;
  /** The network's global id: what @ton/ton's WalletContractV5R1 needs as walletId.networkGlobalId. */
  networkGlobalId?: number;
  /** "activity": the traffic generator signs with it; "user": left to the devnet's users. Absent in older files. */
  role?: 'activity' | 'user';
}

export function walletsFileEntries(
  wallets: readonly DevnetWallet[],
  globalId: number = DEVNET_GLOBAL_ID,
): WalletsFileEntry[] {
  return wallets.map((w) => ({
    version: w.version,
    mnemonic: w.mnemonic,
    address: w.address.toString({ bounceable: false, testOnly: true, urlSafe: true }),
    raw: w.address.toRawString(),
    publicKey: w.publicKey.toString('hex'),
    networkGlobalId: globalId,
    role: w.role ?? 'activity',
  }));
}

/** What a devnet's global config says about its network beyond the standard fields (its `tongate` object). */
export interface DevnetNetworkInfo {
  globalId: number;
  /** The `.ton`-style DNS collection, raw (`0:<hex>`). */
  dnsRoot: string;
  dnsSuffix: string;
}

/** The devnet's own: its global id and DNS collection (the collection's StateInit is fixed, so every devnet has it). */
export function devnetNetworkInfo(globalId: number = DEVNET_GLOBAL_ID): DevnetNetworkInfo {
  return { globalId, dnsRoot: DEVNET_DNS_COLLECTION.toRawString(), dnsSuffix: DEVNET_DNS_SUFFIX };
}

/** The `tongate` object of a global config (text or parsed), or null when it has none or it is not well formed. */
export function devnetNetworkInfoOf(config: unknown): DevnetNetworkInfo | null {
  let root = config;
  if (typeof config === 'string') {
    try {
      root = JSON.parse(config);
    } catch {
      return null;
    }
  }
  const t = (root as { tongate?: unknown } | null)?.tongate as Record<string, unknown> | undefined;
  if (typeof t !== 'object' || t === null) return null;
  const { global_id: globalId, dns_root: dnsRoot, dns_suffix: dnsSuffix = '.ton' } = t;
  if (!Number.isInteger(globalId) || typeof dnsRoot !== 'string' || typeof dnsSuffix !== 'string') return null;
  if (!/^-?\d+:[0-9a-fA-F]{64}$/.test(dnsRoot) || !/^(\.[a-z0-9-]+)+$/.test(dnsSuffix)) return null;
  return { globalId: globalId as number, dnsRoot, dnsSuffix };
}

/**
 * The DNS roots a devnet source names, for an indexer given no --dns-root: the `tongate` object of the global config
 * it indexes through (`liteConfig`), or of the global config a devnet store's folder holds (`devnetStore`; without
 * one, the devnet's own collection, the same on every devnet). Null for any other source.
 */
export async function devnetDnsRootsOf(source: {
  liteConfig?: string;
  devnetStore?: string;
}): Promise<Array<{ collection: string; suffix: string }> | null> {
  let info: DevnetNetworkInfo | null = null;
  if (source.liteConfig !== undefined) info = await readDevnetNetworkInfo(source.liteConfig);
  else if (source.devnetStore !== undefined) {
    info = (await readDevnetNetworkInfo(join(source.devnetStore, 'global.config.json'))) ?? devnetNetworkInfo();
  }
  return info ? [{ collection: info.dnsRoot, suffix: info.dnsSuffix }] : null;
}

/**
 * The `tongate` object of the global config at a path or http(s) URL (a devnet store's folder: its
 * global.config.json); null when there is none or it cannot be read (the caller keeps its default).
 */
export async function readDevnetNetworkInfo(fileOrUrl: string, timeoutMs = 10_000): Promise<DevnetNetworkInfo | null> {
  try {
    return devnetNetworkInfoOf(await readGlobalConfigText(fileOrUrl, { timeoutMs }));
  } catch {
    return null;
  }
}

/** An IPv4 literal as the signed int32 a global config stores; 0.0.0.0 (every interface) is published as loopback. */
export function ipv4ToInt32(host: string): number {
  const h = host === '0.0.0.0' || host === 'localhost' ? '127.0.0.1' : host;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  const parts = m ? m.slice(1).map(Number) : [];
  if (parts.length !== 4 || parts.some((p) => p > 255)) {
    throw new ConfigError(`devnet host: a global config needs an IPv4 address, got '${host}'`);
  }
  const [a, b, c, d] = parts as [number, number, number, number];
  return (a << 24) | (b << 16) | (c << 8) | d | 0;
}

const SHARD_PLACEHOLDER = '__tongate_mc_shard__';

function blockIdJson(id: BlockIdExt) {
  if (id.workchain !== -1 || id.shard !== 0x8000000000000000n) {
    throw new ConfigError(`global config: expected a masterchain block id, got workchain ${id.workchain}`);
  }
  return {
    workchain: -1,
    shard: SHARD_PLACEHOLDER,
    seqno: id.seqno,
    root_hash: id.rootHash.toString('base64'),
    file_hash: id.fileHash.toString('base64'),
  };
}

export interface GlobalConfigArgs {
  host: string;
  port: number;
  publicKey: Buffer;
  zeroState: BlockIdExt;
  /** The last key block (the zero state until the first one): where tonlib starts its proof chain. */
  initBlock: BlockIdExt;
  /** Published as the top-level `tongate` object; default the devnet's own (devnetNetworkInfo()). */
  network?: DevnetNetworkInfo;
}

/** The global config text. The masterchain shard is written as the exact int64 -9223372036854775808. */
export function devnetGlobalConfigText(a: GlobalConfigArgs): string {
  const net = a.network ?? devnetNetworkInfo();
  const config = {
    '@type': 'config.global',
    dht: { '@type': 'dht.config.global', k: 6, a: 3, static_nodes: { '@type': 'dht.nodes', nodes: [] } },
    liteservers: [
      {
        '@type': 'liteserver.desc',
        ip: ipv4ToInt32(a.host),
        port: a.port,
        id: { '@type': 'pub.ed25519', key: a.publicKey.toString('base64') },
      },
    ],
    validator: {
      '@type': 'validator.config.global',
      zero_state: blockIdJson(a.zeroState),
      init_block: blockIdJson(a.initBlock),
      hardforks: [],
    },
    tongate: { global_id: net.globalId, dns_root: net.dnsRoot, dns_suffix: net.dnsSuffix },
  };
  // JSON numbers cannot hold -2^63 exactly in JS text form; C++ and Go readers need the exact digits.
  return `${JSON.stringify(config, null, 2).replaceAll(`"${SHARD_PLACEHOLDER}"`, MC_SHARD_TEXT)}\n`;
}

/** Writes through a temp name and a rename, so readers never see half a file. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}
