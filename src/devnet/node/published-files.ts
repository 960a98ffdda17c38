// The two files a devnet publishes in `<data>/devnet/`: global.config.json (a standard TON global config: the
// liteserver with its int32 IP and key, the zero state and init block, for tonlib, tonutils-go, pytoniq or our own
// parseGlobalConfig) and wallets.json (the funded genesis wallets with their mnemonics).
//
// wallets.json addresses: user-friendly, non-bounceable (what wallet apps show for a wallet) and test-only, because
// the devnet is not mainnet: a mainnet wallet app warns before sending to a test-only address, so a devnet address
// pasted into one cannot quietly receive real funds. `raw` is the workchain:hex form.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../../common/errors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import type { DevnetWallet } from '../genesis/index.ts';

export interface WalletsFileEntry {
  version: DevnetWallet['version'];
  mnemonic: string[];
  address: string;
  raw: string;
  publicKey: string;
}

export function walletsFileEntries(wallets: readonly DevnetWallet[]): WalletsFileEntry[] {
  return wallets.map((w) => ({
    version: w.version,
    mnemonic: w.mnemonic,
    address: w.address.toString({ bounceable: false, testOnly: true, urlSafe: true }),
    raw: w.address.toRawString(),
    publicKey: w.publicKey.toString('hex'),
  }));
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

const MC_SHARD_TEXT = '-9223372036854775808';
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
}

/** The global config text. The masterchain shard is written as the exact int64 -9223372036854775808. */
export function devnetGlobalConfigText(a: GlobalConfigArgs): string {
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
