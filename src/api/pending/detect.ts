// What the database cannot know yet about an emulated trace: contracts the trace itself deploys (a receiver's new
// jetton wallet, a minted NFT item) are indexed only once the trace lands, but the matchers need them to see a
// jetton_transfer, jetton_mint or nft_mint rather than plain calls, and the pending action must have the type (and
// so the action_id) the confirmed one will have. Detected on the emulated states with the standard get-methods and
// checked against their parent the way the indexer trusts them: a jetton wallet is one its master names for its
// owner (get_wallet_address), an item one its collection names for its index (get_nft_address_by_index).
import { type Address, beginCell, type Cell, type TupleItem } from '@ton/core';
import type { ContractInfo } from '../../index/actions/index.ts';
import { methodId } from '../../lite/index.ts';
import { contractMethodIds, formatAddressV3, knownWalletCode } from '../../ton/index.ts';
import { decodeAccount, latestConfig, librariesFor, readAccount, type V2Context } from '../v2/shared.ts';
import type { EmulatedTrace } from './emulate-trace.ts';

/** Accounts probed per trace at most (each costs a few get-method runs on the shared TVM). */
export const MAX_PROBED_ACCOUNTS = 16;

interface GetterState {
  address: Address;
  code: Cell | null;
  data: Cell | null;
  balance: bigint;
  extraCurrencies: Map<number, bigint>;
}

const rawOf = formatAddressV3;

/** The account after the emulated trace when it took part, else as the chain holds it at the emulation's block. */
async function stateOf(v2: V2Context, e: EmulatedTrace, address: Address): Promise<GetterState> {
  const emulated = e.states.get(rawOf(address));
  if (emulated) return { address, ...decodeAccount(emulated.shardAccount.beginParse().loadRef()) };
  return v2.lite.withServer((l) => readAccount(l, address, e.block));
}

/** A get-method's stack, or null when the contract has no such method or it failed. */
async function getter(
  v2: V2Context,
  st: GetterState,
  name: string,
  stack: TupleItem[] = [],
): Promise<TupleItem[] | null> {
  if (st.code === null) return null;
  const id = methodId(name);
  const ids = contractMethodIds(st.code);
  if (ids !== null && !ids.includes(id)) return null;
  try {
    const [config, libs] = await Promise.all([latestConfig(v2), librariesFor(v2, st.code)]);
    const r = await v2.tvm.runGetMethod({
      code: st.code,
      data: st.data ?? beginCell().endCell(),
      address: st.address,
      balance: st.balance,
      extraCurrencies: st.extraCurrencies,
      methodId: id,
      stack,
      config,
      libs,
      now: Math.floor(Date.now() / 1000),
    });
    return r.exitCode === 0 || r.exitCode === 1 ? r.stack : null;
  } catch {
    return null;
  }
}

function addressOf(item: TupleItem | undefined): Address | null {
  if (!item || (item.type !== 'slice' && item.type !== 'cell')) return null;
  try {
    return item.cell.beginParse().loadMaybeAddress();
  } catch {
    return null;
  }
}

const addressArg = (a: Address): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });

async function jettonWalletOf(v2: V2Context, e: EmulatedTrace, st: GetterState): Promise<ContractInfo | null> {
  const data = await getter(v2, st, 'get_wallet_data');
  if (data?.[0]?.type !== 'int') return null;
  const owner = addressOf(data[1]);
  const jetton = addressOf(data[2]);
  if (!owner || !jetton) return null;
  const named = addressOf(
    (await getter(v2, await stateOf(v2, e, jetton), 'get_wallet_address', [addressArg(owner)]))?.[0],
  );
  if (!named?.equals(st.address)) return null;
  return { jettonWallet: { jetton: rawOf(jetton), owner: rawOf(owner) } };
}

async function nftItemOf(v2: V2Context, e: EmulatedTrace, st: GetterState): Promise<ContractInfo | null> {
  const data = await getter(v2, st, 'get_nft_data');
  const index = data?.[1];
  if (data?.[0]?.type !== 'int' || index?.type !== 'int') return null;
  const collection = addressOf(data[2]);
  const owner = addressOf(data[3]);
  if (collection) {
    const byIndex = await getter(v2, await stateOf(v2, e, collection), 'get_nft_address_by_index', [index]);
    if (!addressOf(byIndex?.[0])?.equals(st.address)) return null;
  }
  return {
    nftItem: {
      collection: collection ? rawOf(collection) : null,
      index: index.value.toString(),
      owner: owner ? rawOf(owner) : null,
    },
  };
}

/**
 * Interfaces of the accounts among `unknown` (raw addresses the database has no interface for) that took part in
 * the emulated trace and are jetton wallets or NFT items by the checks above.
 */
export async function detectInterfaces(
  v2: V2Context,
  e: EmulatedTrace,
  unknown: readonly string[],
): Promise<Map<string, ContractInfo>> {
  const out = new Map<string, ContractInfo>();
  const candidates = unknown.filter((a) => e.states.has(a)).slice(0, MAX_PROBED_ACCOUNTS);
  for (const raw of candidates) {
    const st = await stateOf(v2, e, e.states.get(raw)!.address);
    // User wallets are most of the accounts of a trace and never either.
    if (st.code === null || knownWalletCode(st.code.hash()) !== undefined) continue;
    const info = (await jettonWalletOf(v2, e, st)) ?? (await nftItemOf(v2, e, st));
    if (info) out.set(raw, info);
  }
  return out;
}
