// estimateFee as tonlib computes it (tonlib/TonlibClient.cpp raw.createQuery + Query::estimate_fees), with the VM
// part run by the transaction emulator on the account's latest state:
//   the query message: ext_in_msg_info from addr_none to the account, import_fee 0, Just(Left(StateInit)) when
//     init_code is given, the body inline when the whole message fits one cell, else by ref
//     (smc-envelope/GenericAccount.cpp create_ext_message);
//   in_fwd_fee  = msg_fwd_fees(cells and bits of the message below its root) at the source workchain's prices;
//   storage_fee = storage due from the account's last_paid to sync_utime (StoragePrices::compute_storage_fees);
//   gas_fee     = gas price of the gas the VM used if it accepted the message, else 0 (flat part included);
//   fwd_fee     = msg_fwd_fees of every send_msg action (cells and bits below the init and body fields), at
//                 masterchain prices when source or destination is the masterchain (calc_fwd_fees);
//   destination_fees = [] (tonlib fills it only for queries it built from wallet actions).
import { beginCell, type Cell, loadStateInit, type Slice } from '@ton/core';
import { HttpError } from '../../../http/errors.ts';
import {
  type GasLimitsPrices,
  loadCommonMsgInfoRelaxed,
  loadConfigParam,
  loadConfigParams,
  type MsgForwardPrices,
  type StoragePrices,
  transactionFromCell,
} from '../../../ton/index.ts';
import { type AccountAt, latestConfig, librariesFor, shardAccountCell } from '../chain-reads.ts';
import type { V2Context } from '../context.ts';

export interface FeesV2 {
  '@type': 'fees';
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface QueryFeesV2 {
  '@type': 'query.fees';
  source_fees: FeesV2;
  destination_fees: FeesV2[];
}

/** The external message tonlib builds for raw.createQuery. */
export function buildQueryMessage(a: AccountAt, body: Cell, init: { code: Cell; data: Cell } | null): Cell {
  const head = (b: ReturnType<typeof beginCell>) => {
    b.storeUint(0b10, 2) // ext_in_msg_info$10
      .storeUint(0b00, 2) // src: addr_none
      .storeAddress(a.address) // dest: addr_std without anycast
      .storeCoins(0n); // import_fee
    if (init) {
      // Just(Left(StateInit)): split_depth, special absent, code and data present, no library.
      b.storeUint(0b10, 2).storeUint(0b00, 2).storeMaybeRef(init.code).storeMaybeRef(init.data).storeBit(false);
    } else {
      b.storeBit(false);
    }
    return b;
  };
  const inline = head(beginCell());
  if (inline.availableBits >= 1 + body.bits.length && inline.availableRefs >= body.refs.length) {
    return inline.storeBit(false).storeSlice(body.beginParse(true)).endCell();
  }
  const byRef = head(beginCell());
  if (byRef.availableBits < 1 || byRef.availableRefs < 1) {
    throw new HttpError(500, 'Failed to create external message');
  }
  return byRef.storeBit(true).storeRef(body).endCell();
}

/** Distinct cells and their bits in the trees below `roots` (CellStorageStat with kill_dup). */
function treeStats(roots: Cell[], seen = new Set<string>()): { cells: bigint; bits: bigint } {
  let cells = 0n;
  let bits = 0n;
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    cells++;
    bits += BigInt(c.bits.length);
    stack.push(...c.refs);
  }
  return { cells, bits };
}

/** msg_fwd_fees = lump_price + ceil((bit_price * bits + cell_price * cells) / 2^16). */
function fwdFees(p: MsgForwardPrices, s: { cells: bigint; bits: bigint }): bigint {
  return p.lumpPrice + ((p.bitPrice * s.bits + p.cellPrice * s.cells + 0xffffn) >> 16n);
}

function flatGas(g: GasLimitsPrices): { flatLimit: bigint; flatPrice: bigint; price: bigint } {
  if (g.kind === 'gas_flat_pfx') {
    const inner = flatGas(g.other);
    return { flatLimit: g.flatGasLimit, flatPrice: g.flatGasPrice, price: inner.price };
  }
  return { flatLimit: 0n, flatPrice: 0n, price: g.gasPrice };
}

/** compute_gas_price: the flat price up to the flat limit, then ceil(gas_price * extra / 2^16). */
function gasFee(g: GasLimitsPrices, gasUsed: bigint): bigint {
  const f = flatGas(g);
  if (gasUsed <= f.flatLimit) return f.flatPrice;
  return f.flatPrice + ((f.price * (gasUsed - f.flatLimit) + 0xffffn) >> 16n);
}

/** StoragePrices::compute_storage_fees for a non-special account. */
function storageFee(pricing: StoragePrices[], a: AccountAt, isMc: boolean): bigint {
  const now = a.syncUtime;
  const stats = a.account?.storageStats;
  const lastPaid = stats?.lastPaid ?? 0;
  if (!stats || now <= lastPaid || lastPaid === 0 || pricing.length === 0 || now <= pricing[0]!.utimeSince) return 0n;
  let i = pricing.length;
  while (i > 0 && pricing[i - 1]!.utimeSince > lastPaid) i--;
  if (i > 0) i--;
  let upto = Math.max(lastPaid, pricing[0]!.utimeSince);
  let total = 0n;
  for (; i < pricing.length && upto < now; i++) {
    const validUntil = i < pricing.length - 1 ? Math.min(now, pricing[i + 1]!.utimeSince) : now;
    if (upto < validUntil) {
      const p = pricing[i]!;
      const perSecond = isMc
        ? stats.used.cells * p.mcCellPricePs + stats.used.bits * p.mcBitPricePs
        : stats.used.cells * p.cellPricePs + stats.used.bits * p.bitPricePs;
      total += perSecond * BigInt(validUntil - upto);
    }
    upto = validUntil;
  }
  return (total + 0xffffn) >> 16n;
}

const ACTION_SEND_MSG = 0x0ec3c86d;
const ACTION_SET_CODE = 0xad4de08e;
const ACTION_RESERVE = 0x36e6b809;
const ACTION_CHANGE_LIBRARY = 0x26fa1dd4;
const MAX_ACTIONS = 20;

function estimateError(message: string): HttpError {
  return new HttpError(500, `INTERNAL: ${message}`);
}

/** The refs of the init and body fields of a MessageRelaxed (what calc_fwd_fees counts), and its destination. */
function sentMessageParts(msg: Cell): { roots: Cell[]; destMc: boolean } {
  const s: Slice = msg.beginParse(true);
  const info = loadCommonMsgInfoRelaxed(s);
  const destMc = info.kind === 'int_msg_info' && info.dest.kind === 'addr_std' && info.dest.workchainId === -1;
  const roots: Cell[] = [];
  const taken = () => msg.refs.length - s.remainingRefs;
  if (s.loadBit()) {
    if (s.loadBit()) {
      roots.push(s.loadRef());
    } else {
      const before = taken();
      loadStateInit(s);
      roots.push(...msg.refs.slice(before, taken()));
    }
  }
  if (s.loadBit()) roots.push(s.loadRef());
  else roots.push(...msg.refs.slice(taken()));
  return { roots, destMc };
}

/** tonlib's calc_fwd_fees over an OutList. */
function actionFwdFees(actions: Cell, prices: [MsgForwardPrices, MsgForwardPrices], srcMc: boolean): bigint {
  const list: Cell[] = [];
  let cur = actions;
  while (cur.bits.length > 0 || cur.refs.length > 0) {
    if (cur.refs.length === 0) throw estimateError('action list invalid: entry found with data but no next reference');
    list.push(cur);
    cur = cur.refs[0]!;
    if (list.length > MAX_ACTIONS) throw estimateError(`action list too long: more than ${MAX_ACTIONS} actions`);
  }
  let total = 0n;
  for (let i = list.length - 1; i >= 0; i--) {
    const s = list[i]!.beginParse(true);
    s.loadRef();
    if (s.remainingBits < 32) throw estimateError('action list invalid: invalid tag');
    const tag = s.loadUint(32);
    if (tag === ACTION_SET_CODE) throw estimateError('estimate_fee: action_set_code unsupported');
    if (tag === ACTION_RESERVE || tag === ACTION_CHANGE_LIBRARY) continue;
    if (tag !== ACTION_SEND_MSG) throw estimateError('action list invalid: invalid tag');
    const mode = s.loadUint(8);
    if (mode & ~0xf3 || (mode & 0xc0) === 0xc0 || s.remainingRefs < 1) {
      throw estimateError("estimate_fee: can't parse send_msg");
    }
    let parts: ReturnType<typeof sentMessageParts>;
    try {
      parts = sentMessageParts(s.loadRef());
    } catch {
      throw estimateError("estimate_fee: can't parse send_msg");
    }
    total += fwdFees(prices[srcMc || parts.destMc ? 1 : 0], treeStats(parts.roots));
  }
  return total;
}

function param<N extends 18 | 20 | 21 | 24 | 25>(params: Map<number, Cell>, id: N) {
  const cell = params.get(id);
  if (!cell) throw estimateError(`config param ${id} is missing`);
  return loadConfigParam(id, cell);
}

export async function estimateFees(
  ctx: V2Context,
  a: AccountAt,
  body: Cell,
  init: { code: Cell; data: Cell } | null,
  ignoreChksig: boolean,
): Promise<QueryFeesV2> {
  const message = buildQueryMessage(a, body, init);
  const config = await latestConfig(ctx);
  const params = loadConfigParams(config);
  const isMc = a.address.workChain === -1;
  const gas = isMc ? param(params, 20).gasLimitsPrices : param(params, 21).gasLimitsPrices;
  const msgPrices: [MsgForwardPrices, MsgForwardPrices] = [
    param(params, 25).msgForwardPrices,
    param(params, 24).msgForwardPrices,
  ];
  const pricing = [...param(params, 18).storagePrices.values()].sort((x, y) => x.utimeSince - y.utimeSince);

  const inFwdFee = fwdFees(msgPrices[isMc ? 1 : 0], treeStats([...message.refs]));
  const storage = storageFee(pricing, a, isMc);

  let gasFeeValue = 0n;
  let fwdFee = 0n;
  const code = init && a.code === null ? init.code : a.code;
  const outcome = await ctx.tvm.runTransaction({
    shardAccount: shardAccountCell(a),
    message,
    config,
    libs: await librariesFor(ctx, code),
    now: a.syncUtime,
    lt: (a.account?.storage.lastTransLt ?? 0n) + 1n,
    ignoreChksig,
  });
  if (outcome.accepted) {
    const d = transactionFromCell(outcome.transaction).description;
    if (d.kind === 'trans_ord' && d.computePh.kind === 'tr_phase_compute_vm') {
      gasFeeValue = gasFee(gas, d.computePh.gasUsed);
      if (d.computePh.success && outcome.actions) fwdFee = actionFwdFees(outcome.actions, msgPrices, isMc);
    }
  }
  const fees: FeesV2 = {
    '@type': 'fees',
    in_fwd_fee: Number(inFwdFee),
    storage_fee: Number(storage),
    gas_fee: Number(gasFeeValue),
    fwd_fee: Number(fwdFee),
  };
  return { '@type': 'query.fees', source_fees: fees, destination_fees: [] };
}
