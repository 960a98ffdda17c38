// getAddressInformation, getExtendedAddressInformation, getWalletInformation, getAddressBalance, getAddressState,
// getTokenData (v2-api.md §6.1), getShardAccountCell (§6.9). Each reads the account at the head (or at masterchain
// `seqno`) through one pinned liteserver; the read is cached (briefly at the head, for good at a fixed seqno) and
// shared by all the renderings.
import type { Address, Cell, TupleItem } from '@ton/core';
import { beginCell } from '@ton/core';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { HttpError } from '../../../http/errors.ts';
import type { LiteMethods } from '../../../lite/index.ts';
import {
  formatBocBase64,
  loadConfigParam,
  loadConfigParams,
  normalizeAddressV2,
  parseAddress,
} from '../../../ton/index.ts';
import { cachedAnswer, LATEST_TTL_MS } from '../cache.ts';
import {
  type AccountAt,
  latestConfig,
  masterchainBlock,
  readAccount,
  serverHead,
  shardAccountCell,
} from '../chain-reads.ts';
import type { V2Context } from '../context.ts';
import { runGetMethodOn } from '../emulate/get-method.ts';
import type { V2Params } from '../params.ts';
import { fullAccountStateV2, rawFullAccountStateV2, walletInformationV2 } from '../render/account.ts';
import {
  addressFromStackEntry,
  cellFromStackEntry,
  numberFromStackEntry,
  parseTokenContent,
  TokenDataError,
} from '../render/token-content.ts';
import type { V2Method } from './types.ts';

export interface AddressParam {
  /** The text as given. */
  text: string;
  address: Address;
}

/** An address parameter; toncenter 2.1's wording when it does not parse (types/ton_addr.cpp). */
export function addressParam(p: V2Params, name = 'address'): AddressParam {
  const v = p.raw(name);
  const text = v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  if (typeof v !== 'string' && v !== undefined) throw p.fail(`Failed to parse ton_addr: '${text.slice(0, 100)}'`);
  try {
    return { text, address: parseAddress(text).address };
  } catch {
    throw p.fail(`Failed to parse ton_addr: '${text.slice(0, 100)}'`);
  }
}

/** Optional masterchain seqno to read at: an int32 > 0. */
export function seqnoParam(p: V2Params): number | undefined {
  const seqno = p.optInt('seqno', -0x80000000, 0x7fffffff);
  if (seqno !== undefined && seqno <= 0)
    throw new HttpError(422, 'failed to validate request: seqno should be positive');
  return seqno;
}

/**
 * The account at the head or at `seqno`, one pinned liteserver for the block lookup and the state. The read is
 * shared by every account method (and get-methods, fee estimates) through the response cache.
 */
export function accountAt(
  ctx: V2Context,
  p: V2Params,
  address: Address,
  seqno: number | undefined,
): Promise<AccountAt> {
  const key = `account:${address.toRawString()}:${seqno ?? 'head'}`;
  return cachedAnswer(ctx.cache, p, key, seqno === undefined ? LATEST_TTL_MS : Number.POSITIVE_INFINITY, () =>
    ctx.lite.withServer(async (lite) =>
      readAccount(lite, address, await (seqno === undefined ? serverHead(ctx, lite) : masterchainBlock(lite, seqno))),
    ),
  );
}

/** The same read at a block already chosen (a token's parent is read where the token was). */
function accountAtBlock(ctx: V2Context, lite: LiteMethods, address: Address, block: tonNode_blockIdExt) {
  const key = `account:${address.toRawString()}:${block.seqno}:${block.rootHash.toString('hex')}`;
  return ctx.cache.get(key, Number.POSITIVE_INFINITY, () => readAccount(lite, address, block));
}

/**
 * The `suspended` flag of getAddressInformation. toncenter checks a hard-coded copy of mainnet's suspended list
 * valid until its end time; tongate reads the list the chain itself carries (ConfigParam 44, addresses and
 * suspended_until) from the latest config, so the flag is right on any network.
 */
async function isSuspended(ctx: V2Context, a: AccountAt): Promise<boolean> {
  const list = suspendedList(await latestConfig(ctx));
  return list !== null && a.syncUtime < list.until && list.addresses.has(a.address.toRawString());
}

// Parsed once per config cell: the list holds ~180 addresses and parsing it per request cost milliseconds.
const suspendedByConfig = new WeakMap<Cell, { until: number; addresses: Set<string> } | null>();

function suspendedList(config: Cell): { until: number; addresses: Set<string> } | null {
  let list = suspendedByConfig.get(config);
  if (list === undefined) {
    const cell = loadConfigParams(config).get(44);
    const p = cell ? loadConfigParam(44, cell).suspendedAddressList : null;
    list = p ? { until: p.suspendedUntil, addresses: new Set(p.addresses.map((x) => x.toRawString())) } : null;
    suspendedByConfig.set(config, list);
  }
  return list;
}

function readArgs(p: V2Params) {
  return { ...addressParam(p), seqno: seqnoParam(p) };
}

// ---- getTokenData ----------------------------------------------------------------------------------------------

type TokenCheck = (t: TokenContext) => Promise<Record<string, unknown>>;

interface TokenContext {
  ctx: V2Context;
  lite: LiteMethods;
  account: AccountAt;
  /** The address as toncenter echoes it (raw input upper-cased, friendly re-serialised). */
  echo: string;
  run(a: AccountAt, method: string, stack?: TupleItem[]): Promise<TupleItem[]>;
}

class NotThisToken extends Error {}

const checkJettonMaster: TokenCheck = async (t) => {
  const st = await t.run(t.account, 'get_jetton_data');
  if (st.length < 5) throw new NotThisToken(`Stack size ${st.length} < 5`);
  const admin = addressFromStackEntry(st[2], t.ctx.testnet);
  return {
    '@type': 'ext.tokens.jettonMasterData',
    address: t.echo,
    contract_type: 'jetton_master',
    total_supply: numberFromStackEntry(st[0]).toString(),
    mintable: numberFromStackEntry(st[1]) !== 0n,
    ...(admin === '' ? {} : { admin_address: admin }),
    jetton_content: parseTokenContent(cellFromStackEntry(st[3], 3)),
    jetton_wallet_code: formatBocBase64(cellFromStackEntry(st[4], 4)),
  };
};

const checkJettonWallet: TokenCheck = async (t) => {
  const st = await t.run(t.account, 'get_wallet_data');
  if (st.length < 4) throw new NotThisToken(`Stack size ${st.length} < 4`);
  const balance = numberFromStackEntry(st[0]);
  const owner = addressFromStackEntry(st[1], t.ctx.testnet);
  const jetton = addressFromStackEntry(st[2], t.ctx.testnet);
  const code = cellFromStackEntry(st[3], 3);
  if (owner === '' || jetton === '') throw new NotThisToken('a jetton wallet names its owner and its master');
  // Mintless jettons (toncenter 2.1): is_claimed, when the wallet has it.
  let claimed: boolean | undefined;
  const mintless = await runGetMethodOn(t.ctx, t.account, 'is_claimed', []);
  if (mintless.exitCode === 0 && mintless.stack.length === 1 && mintless.stack[0]?.type === 'int') {
    claimed = mintless.stack[0].value !== 0n;
  }
  // Verification: the master must name this wallet for this owner. Compared without the bounce/test flags.
  const master = await accountAtBlock(t.ctx, t.lite, parseAddress(jetton).address, t.account.block);
  const ownerCell = beginCell().storeAddress(parseAddress(owner).address).endCell();
  const res = await runGetMethodOn(t.ctx, master, 'get_wallet_address', [{ type: 'slice', cell: ownerCell }]);
  if (res.exitCode !== 0) throw new NotThisToken(`Verification exit code ${res.exitCode} != 0`);
  const expected = addressFromStackEntry(res.stack[0], false);
  if (expected === '' || !parseAddress(expected).address.equals(t.account.address)) {
    throw new NotThisToken('Verification on master failed');
  }
  return {
    '@type': 'ext.tokens.jettonWalletData',
    address: t.echo,
    contract_type: 'jetton_wallet',
    balance: balance.toString(),
    owner,
    jetton,
    ...(claimed === undefined ? {} : { mintless_is_claimed: claimed }),
    jetton_wallet_code: formatBocBase64(code),
  };
};

const checkNftCollection: TokenCheck = async (t) => {
  const st = await t.run(t.account, 'get_collection_data');
  if (st.length < 3) throw new NotThisToken(`Stack size ${st.length} < 3`);
  const next = numberFromStackEntry(st[0]);
  const content = parseTokenContent(cellFromStackEntry(st[1], 1));
  const owner = addressFromStackEntry(st[2], t.ctx.testnet);
  return {
    '@type': 'ext.tokens.nftCollectionData',
    address: t.echo,
    contract_type: 'nft_collection',
    next_item_index: next.toString(),
    ...(owner === '' ? {} : { owner_address: owner }),
    collection_content: content,
  };
};

const checkNftItem: TokenCheck = async (t) => {
  const st = await t.run(t.account, 'get_nft_data');
  if (st.length < 5) throw new NotThisToken(`Stack size ${st.length} < 5`);
  const init = numberFromStackEntry(st[0]) !== 0n;
  const index = numberFromStackEntry(st[1]);
  const collection = addressFromStackEntry(st[2], t.ctx.testnet);
  const owner = addressFromStackEntry(st[3], t.ctx.testnet);
  const individual = cellFromStackEntry(st[4], 4);
  let content: unknown;
  if (collection === '') {
    content = parseTokenContent(individual);
  } else {
    // Verification: the collection must name this item for its index; then the full content comes from it.
    const parent = await accountAtBlock(t.ctx, t.lite, parseAddress(collection).address, t.account.block);
    const byIndex = await runGetMethodOn(t.ctx, parent, 'get_nft_address_by_index', [{ type: 'int', value: index }]);
    if (byIndex.exitCode !== 0) throw new NotThisToken(`Verification exit code ${byIndex.exitCode} != 0`);
    const expected = addressFromStackEntry(byIndex.stack[0], false);
    if (expected === '' || !parseAddress(expected).address.equals(t.account.address)) {
      throw new NotThisToken('Verification on collection failed');
    }
    const full = await t.run(parent, 'get_nft_content', [
      { type: 'int', value: index },
      { type: 'cell', cell: individual },
    ]);
    content = parseTokenContent(cellFromStackEntry(full[0], 0));
  }
  // TON DNS items (dnsresolve records) are not decoded: their content is read as any item's (see README).
  return {
    '@type': 'ext.tokens.nftItemData',
    address: t.echo,
    contract_type: 'nft_item',
    init,
    index: index.toString(),
    ...(collection === '' ? {} : { collection_address: collection }),
    ...(owner === '' ? {} : { owner_address: owner }),
    content,
  };
};

/** toncenter 2.1's order: the first interface that answers and verifies wins. */
const TOKEN_CHECKS = [checkJettonMaster, checkJettonWallet, checkNftCollection, checkNftItem];

async function tokenData(ctx: V2Context, p: V2Params): Promise<unknown> {
  const { text, address, seqno } = readArgs(p);
  const echo = normalizeAddressV2(text);
  const account = await accountAt(ctx, p, address, seqno);
  return ctx.lite.withServer(async (lite) => {
    const t: TokenContext = {
      ctx,
      lite,
      account,
      echo,
      async run(a, method, stack = []) {
        const r = await runGetMethodOn(ctx, a, method, stack);
        if (r.exitCode !== 0) throw new NotThisToken(`Exit code ${r.exitCode} != 0`);
        return r.stack;
      },
    };
    for (const check of TOKEN_CHECKS) {
      try {
        return await check(t);
      } catch (e) {
        if (!(e instanceof NotThisToken || e instanceof TokenDataError)) throw e;
      }
    }
    throw new HttpError(409, `Smart contract ${echo} is not Jetton or NFT`);
  });
}

export const accountMethods: V2Method[] = [
  {
    name: 'getAddressInformation',
    verbs: 'read',
    async run(p, ctx) {
      const { address, seqno } = readArgs(p);
      const a = await accountAt(ctx, p, address, seqno);
      return rawFullAccountStateV2(a, await isSuspended(ctx, a));
    },
  },
  {
    name: 'getExtendedAddressInformation',
    verbs: 'read',
    async run(p, ctx) {
      const { text, address, seqno } = readArgs(p);
      return fullAccountStateV2(await accountAt(ctx, p, address, seqno), text, ctx.testnet);
    },
  },
  {
    name: 'getWalletInformation',
    verbs: 'read',
    async run(p, ctx) {
      const { address, seqno } = readArgs(p);
      return walletInformationV2(await accountAt(ctx, p, address, seqno));
    },
  },
  {
    name: 'getAddressBalance',
    verbs: 'read',
    async run(p, ctx) {
      const { address, seqno } = readArgs(p);
      return (await accountAt(ctx, p, address, seqno)).balance.toString();
    },
  },
  {
    name: 'getAddressState',
    verbs: 'read',
    async run(p, ctx) {
      const { address, seqno } = readArgs(p);
      return (await accountAt(ctx, p, address, seqno)).status;
    },
  },
  {
    name: 'getTokenData',
    verbs: 'read',
    run: (p, ctx) => tokenData(ctx, p),
  },
  {
    // toncenter 2.1 (tonlib getShardAccountCell): the ShardAccount as the shard state holds it, the Account cell by
    // reference with the last transaction's hash and lt, as one BoC (account_none for a never-used address).
    name: 'getShardAccountCell',
    verbs: 'read',
    async run(p, ctx) {
      const { address, seqno } = readArgs(p);
      const a = await accountAt(ctx, p, address, seqno);
      return { '@type': 'tvm.cell', bytes: formatBocBase64(shardAccountCell(a)) };
    },
  },
];
