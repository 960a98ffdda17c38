// The funded wallets the activity signs with: the node's wallets.json (`[{ version, mnemonic, address, raw }]`),
// keys from the mnemonic as any TON wallet app derives them (@ton/crypto), contracts from @ton/ton's exact codes.
// Entries with `"role": "user"` are the devnet users' own wallets: parseWalletsFile leaves them out, so the activity
// never signs with them.
import { readFile } from 'node:fs/promises';
import { Address, type Cell, type MessageRelaxed, SendMode, type StateInit } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { ConfigError } from '../../common/index.ts';
import {
  DEVNET_GLOBAL_ID,
  DEVNET_WALLET_VERSIONS,
  type DevnetWalletVersion,
  walletContract,
} from '../genesis/index.ts';

/** The versions the node funds at genesis (wallets.json lists those). */
export type ActivityWalletVersion = DevnetWalletVersion;

/** One entry of wallets.json. `address` / `raw`, when present, must match what the mnemonic derives. */
export interface ActivityWalletEntry {
  version: ActivityWalletVersion;
  mnemonic: string[];
  address?: string;
  raw?: string;
  /** "user": a wallet the activity must not touch (parseWalletsFile drops those). */
  role?: 'activity' | 'user';
}

export interface ActivityWallet {
  version: ActivityWalletVersion;
  address: Address;
  publicKey: Buffer;
  secretKey: Buffer;
  /** StateInit for the first external of a wallet not yet deployed. */
  init: StateInit;
  /** A signed external body: send `messages` (pay fees separately, ignore errors), valid until `validUntil`. */
  createTransfer(args: { seqno: number; messages: MessageRelaxed[]; validUntil: number }): Cell;
}

const SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

function parseEntry(raw: unknown, where: string): ActivityWalletEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${where}: expected an object, got ${describe(raw)}`);
  }
  const o = raw as Record<string, unknown>;
  if (!DEVNET_WALLET_VERSIONS.includes(o.version as ActivityWalletVersion)) {
    throw new ConfigError(
      `${where}: expected "version" to be one of ${DEVNET_WALLET_VERSIONS.join(', ')}, got ${JSON.stringify(o.version)}`,
    );
  }
  if (!Array.isArray(o.mnemonic) || o.mnemonic.length !== 24 || !o.mnemonic.every((w) => typeof w === 'string')) {
    throw new ConfigError(`${where}: expected "mnemonic" to be 24 words`);
  }
  if (o.role !== undefined && o.role !== 'activity' && o.role !== 'user') {
    throw new ConfigError(`${where}: expected "role" to be "activity" or "user", got ${JSON.stringify(o.role)}`);
  }
  for (const k of ['address', 'raw'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'string') {
      throw new ConfigError(`${where}: expected "${k}" to be a string, got ${describe(o[k])}`);
    }
  }
  return {
    version: o.version as ActivityWalletVersion,
    mnemonic: o.mnemonic as string[],
    address: o.address as string | undefined,
    raw: o.raw as string | undefined,
    ...(o.role === undefined ? {} : { role: o.role as 'activity' | 'user' }),
  };
}

/** Parses wallets.json text or its already parsed value: the activity's wallets (user wallets left out). */
export function parseWalletsFile(json: unknown, source = 'wallets.json'): ActivityWalletEntry[] {
  let root = json;
  if (typeof json === 'string') {
    try {
      root = JSON.parse(json);
    } catch (e) {
      throw new ConfigError(`${source}: expected JSON text, got a parse error: ${(e as Error).message}`, { cause: e });
    }
  }
  if (!Array.isArray(root)) throw new ConfigError(`${source}: expected an array of wallets, got ${describe(root)}`);
  if (root.length === 0) throw new ConfigError(`${source}: expected at least one wallet, the list is empty`);
  const entries = root.map((e, i) => parseEntry(e, `${source}[${i}]`)).filter((e) => e.role !== 'user');
  if (entries.length === 0) {
    throw new ConfigError(`${source}: expected at least one wallet for the activity, every one is a user wallet`);
  }
  return entries;
}

interface WalletContract {
  address: Address;
  init: { code: Cell; data: Cell };
  sign(args: { seqno: number; messages: MessageRelaxed[]; validUntil: number; secretKey: Buffer }): Cell;
}

function contractFor(version: ActivityWalletVersion, publicKey: Buffer, globalId: number): WalletContract {
  const c = walletContract(version, publicKey, globalId);
  return {
    address: c.address,
    init: c.init,
    sign: (a) => {
      const args = {
        seqno: a.seqno,
        secretKey: a.secretKey,
        messages: a.messages,
        sendMode: SEND_MODE,
        timeout: a.validUntil,
      };
      return c instanceof WalletContractV5R1 ? c.createTransfer(args) : c.createTransfer(args);
    },
  };
}

function sameAddress(text: string, address: Address): boolean {
  try {
    return (Address.isRaw(text) ? Address.parseRaw(text) : Address.parse(text)).equals(address);
  } catch {
    return false;
  }
}

/** Keys and contracts for every entry; throws ConfigError if a mnemonic is invalid or derives another address. */
export async function openWallets(
  entries: readonly ActivityWalletEntry[],
  opts: { globalId?: number; source?: string } = {},
): Promise<ActivityWallet[]> {
  const globalId = opts.globalId ?? DEVNET_GLOBAL_ID;
  const source = opts.source ?? 'wallets.json';
  const out: ActivityWallet[] = [];
  for (const [i, e] of entries.entries()) {
    if (!(await mnemonicValidate(e.mnemonic))) {
      throw new ConfigError(`${source}[${i}]: the mnemonic is not a valid TON mnemonic`);
    }
    const { publicKey, secretKey } = await mnemonicToPrivateKey(e.mnemonic);
    const contract = contractFor(e.version, publicKey, globalId);
    for (const given of [e.raw, e.address]) {
      if (given !== undefined && !sameAddress(given, contract.address)) {
        throw new ConfigError(
          `${source}[${i}]: the ${e.version} wallet of this mnemonic is ${contract.address.toRawString()}, ` +
            `the file says ${given} (another global id than ${globalId}?)`,
        );
      }
    }
    out.push({
      version: e.version,
      address: contract.address,
      publicKey,
      secretKey,
      init: { code: contract.init.code, data: contract.init.data },
      createTransfer: ({ seqno, messages, validUntil }) => contract.sign({ seqno, messages, validUntil, secretKey }),
    });
  }
  return out;
}

/** wallets.json from a path, parsed and opened. */
export async function loadWallets(path: string, opts: { globalId?: number } = {}): Promise<ActivityWallet[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`wallets file ${path}: could not read it: ${(e as Error).message}`, { cause: e });
  }
  return openWallets(parseWalletsFile(text, path), { ...opts, source: path });
}
