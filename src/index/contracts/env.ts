// The contract decoders' environment for one indexing process: a TVM off the main thread (getters), the config
// the getters run with, libraries from the source, the DNS roots, and stored detections for event joins.
import { Address, beginCell, Cell, Dictionary } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { ConfigError, Lru } from '../../common/index.ts';
import type { Queryable } from '../../db/index.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../tvm/index.ts';
import { createDetectCache } from '../decode/contracts/detect/index.ts';
import type { ContractsEnv } from '../decode/contracts/unit.ts';
import { storedDetection } from './stored.ts';

/** toncenter's mainnet DNS roots (v3-api.md §3.6): .ton and Telegram usernames. */
export const MAINNET_DNS_ROOTS = [
  { collection: '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF', suffix: '.ton' },
] as const;

export interface ContractsEnvOptions {
  db: Queryable;
  /** Worker threads for the getters (default 1). */
  threads?: number;
  /** Raw or user-friendly collection addresses whose items are DNS names, each with its suffix. */
  dnsRoots?: ReadonlyArray<{ collection: string; suffix: string }>;
  /** Libraries by hash (a liteserver's getLibraries); default none. */
  libraries?: (hashes: Buffer[]) => Promise<Map<string, Cell>>;
}

/**
 * The config params getters may read (c7 carries the config root) or the emulator needs to run one: global id (0-2,
 * 4 DNS root, 8 version, 9 mandatory params), workchains (12), election and validator params (15, 17, 34), storage,
 * gas and message prices (18, 20, 21, 24, 25), size limits (43), suspended/precompiled (44, 45), bridges (71) and
 * the DNS blacklist (80). The emulator parses the whole config on every get-method call: @ton/sandbox's 115 KB
 * mainnet config made a getter cost ~35 ms, this subset a third of that (issue 9 helper's measurement).
 */
export const GETTER_CONFIG_PARAMS = [0, 1, 2, 4, 8, 9, 12, 15, 17, 18, 20, 21, 24, 25, 34, 43, 44, 45, 71, 80];

/** The params of `config` (a ConfigParams dictionary root) listed in `keep`. */
export function configSubset(config: Cell, keep: readonly number[]): Cell {
  const all = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  const out = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const k of keep) {
    const v = all.get(k);
    if (v) out.set(k, v);
  }
  return beginCell().storeDictDirect(out).endCell();
}

export interface OwnedContractsEnv extends ContractsEnv {
  tvm: TvmRunnerHandle;
  close(): Promise<void>;
}

/** Parses `--dns-root ADDR[=.suffix]` values (suffix default .ton). */
export function parseDnsRoots(values: readonly string[]): Array<{ collection: string; suffix: string }> {
  return values.map((v) => {
    const [address, suffix = '.ton'] = v.split('=');
    try {
      Address.parse(address!.trim());
    } catch {
      throw new ConfigError(`--dns-root: '${address}' is not an address`);
    }
    if (!/^(\.[a-z0-9-]+)+$/.test(suffix)) throw new ConfigError(`--dns-root: '${suffix}' is not a domain suffix`);
    return { collection: address!.trim(), suffix };
  });
}

export async function createContractsEnv(opts: ContractsEnvOptions): Promise<OwnedContractsEnv> {
  const tvm = await createTvmRunner({ threads: opts.threads ?? 1 });
  const libs = new Lru<string, Cell | null>(256);
  const library = async (hash: Buffer): Promise<Cell | null> => {
    const k = hash.toString('hex');
    if (libs.has(k)) return libs.get(k) ?? null;
    const found = opts.libraries ? ((await opts.libraries([hash])).get(k) ?? null) : null;
    libs.set(k, found);
    return found;
  };
  return {
    tvm,
    config: configSubset(Cell.fromBase64(defaultConfig), GETTER_CONFIG_PARAMS),
    library,
    dnsRoots: (opts.dnsRoots ?? MAINNET_DNS_ROOTS).map((r) => ({
      collection: Address.parse(r.collection),
      suffix: r.suffix,
    })),
    stored: (address) => storedDetection(opts.db, address),
    cache: createDetectCache(),
    close: () => tvm.close(),
  };
}
