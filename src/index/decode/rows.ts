// Chain objects -> table rows, in the encodings schema/README.md prescribes: base64 hashes, raw upper-case
// addresses, shard ids as signed 64-bit, extra currencies as JSON objects {"<id>": "<amount>"}, BoCs as base64.
// Pure functions: no I/O, no clock. Values stay bigint/number/string/boolean/null; the COPY encoder in src/db
// turns them into text.
import type { Address, Cell } from '@ton/core';
import { IndexError, Lru } from '../../common/index.ts';
import { pgComposite } from '../../db/index.ts';
import {
  type AccountStateAfter,
  type Block,
  type BlockIdExt,
  formatAddressV3,
  loadAccountOrNone,
  MC_SHARD_SIGNED,
  type MessageView,
  prevBlockIds,
  type TransactionView,
  transactionFromCell,
  transactionView,
} from '../../ton/index.ts';
import type { Row } from './columns.ts';

export const b64 = (b: Buffer): string => b.toString('base64');
export const signedShard = (shard: bigint): bigint => BigInt.asIntN(64, shard);
export const rawAddress = (workchain: number, hash: Buffer): string =>
  `${workchain}:${hash.toString('hex').toUpperCase()}`;
const addr = (a: Address | null): string | null => (a ? formatAddressV3(a) : null);

/** An extra-currency map as the JSON object the *_extra_currencies columns hold. */
export function extraCurrenciesJson(m: Map<number, bigint> | null): Record<string, string> | null {
  if (!m) return null;
  const out: Record<string, string> = {};
  for (const k of [...m.keys()].sort((a, b) => a - b)) out[String(k)] = m.get(k)!.toString();
  return out;
}

/** A cell as the base64 BoC message_contents and latest_account_states hold (no index, with CRC32). */
export const bocBase64 = (c: Cell): string => c.toBoc({ idx: false, crc32: true }).toString('base64');

export function toBlockRow(block: Block, id: BlockIdExt, mcSeqno: number, txCount: number): Row {
  const i = block.info;
  return [
    id.workchain,
    signedShard(id.shard),
    id.seqno,
    b64(id.rootHash),
    b64(id.fileHash),
    -1,
    MC_SHARD_SIGNED,
    mcSeqno,
    block.globalId,
    i.version,
    i.afterMerge,
    i.beforeSplit,
    i.afterSplit,
    i.wantMerge,
    i.wantSplit,
    i.keyBlock,
    i.vertSeqnoIncr,
    i.flags,
    i.genUtime,
    i.startLt,
    i.endLt,
    i.genValidatorListHashShort | 0,
    i.genCatchainSeqno,
    i.minRefMcSeqno,
    i.prevKeyBlockSeqno,
    i.vertSeqNo,
    i.masterRef?.master.seqNo ?? 0,
    b64(block.extra.randSeed),
    b64(block.extra.createdBy),
    txCount,
    prevBlockIds(i).map((p) => pgComposite(p.workchain, signedShard(p.shard), p.seqno)),
  ];
}

export function toShardStateRows(
  mcSeqno: number,
  tops: ReadonlyArray<{ workchain: number; shard: bigint; seqno: number }>,
): Row[] {
  return tops.map((t) => [mcSeqno, t.workchain, signedShard(t.shard), t.seqno]);
}

export interface DecodedTransaction {
  view: TransactionView;
  row: Row;
  messages: Row[];
  /** message_contents rows (bodies and StateInits) this transaction's messages carry. */
  contents: Row[];
}

function messageRow(tx: TransactionView, mcSeqno: number, m: MessageView, direction: 'in' | 'out'): Row {
  return [
    b64(tx.hash),
    tx.lt,
    mcSeqno,
    b64(m.hash),
    m.hashNorm ? b64(m.hashNorm) : null,
    direction,
    null,
    addr(m.source),
    addr(m.destination),
    m.value,
    extraCurrenciesJson(m.valueExtraCurrencies),
    m.fwdFee,
    m.ihrFee,
    m.extraFlags,
    m.createdLt,
    m.createdAt,
    m.opcode,
    m.ihrDisabled,
    m.bounce,
    m.bounced,
    m.importFee,
    b64(m.bodyHash),
    m.initStateHash ? b64(m.initStateHash) : null,
  ];
}

/**
 * BoCs of recent message bodies and init states by hash: the same content recurs (the empty body of plain transfers,
 * a message seen as one transaction's outbound and another's inbound in the same block, a contract's code in every
 * deploy), and a hash names one cell tree, so its BoC is made once. Bounded; per thread.
 */
const recentBocs = new Lru<string, string>(4096);

/** Forgets the recent BoCs (benches that decode the same blocks again, so that a round finds none of its own). */
export function forgetRecentBocs(): void {
  recentBocs.clear();
}

function contentBoc(hash: string, cell: Cell): string {
  let boc = recentBocs.get(hash);
  if (boc === undefined) {
    boc = bocBase64(cell);
    recentBocs.set(hash, boc);
  }
  return boc;
}

function contentRows(m: MessageView): Row[] {
  const body = b64(m.bodyHash);
  const out: Row[] = [[body, contentBoc(body, m.body)]];
  if (m.initState && m.initStateHash) {
    const init = b64(m.initStateHash);
    out.push([init, contentBoc(init, m.initState)]);
  }
  return out;
}

/** One transaction cell of a block -> its transactions row, its messages rows and its message_contents rows. */
export function toTransactionRows(
  cell: Cell,
  blockId: BlockIdExt,
  mcSeqno: number,
  globalVersion: number,
): DecodedTransaction {
  const wc = blockId.workchain;
  const v = transactionView(transactionFromCell(cell), { workchain: wc, globalVersion });
  const d = v.description;
  const c = d.computePh;
  const vm = c && !c.skipped ? c : null;
  const a = d.action;
  const bo = d.bounce;
  const si = d.splitInfo;
  const row: Row = [
    formatAddressV3(v.account),
    b64(v.hash),
    v.lt,
    wc,
    signedShard(blockId.shard),
    blockId.seqno,
    mcSeqno,
    null,
    b64(v.prevTransHash),
    v.prevTransLt,
    v.now,
    v.origStatus,
    v.endStatus,
    v.totalFees,
    extraCurrenciesJson(v.totalFeesExtraCurrencies),
    b64(v.accountStateHashBefore),
    b64(v.accountStateHashAfter),
    d.type,
    d.aborted ?? null,
    d.destroyed ?? null,
    d.creditFirst ?? null,
    d.isTock ?? null,
    d.installed ?? null,
    d.storagePh?.storageFeesCollected ?? null,
    d.storagePh?.storageFeesDue ?? null,
    d.storagePh?.statusChange ?? null,
    d.creditPh ? d.creditPh.dueFeesCollected : null,
    d.creditPh?.credit ?? null,
    d.creditPh ? extraCurrenciesJson(d.creditPh.creditExtraCurrencies) : null,
    c ? c.skipped : null,
    c?.skipped ? c.reason : null,
    vm?.success ?? null,
    vm?.msgStateUsed ?? null,
    vm?.accountActivated ?? null,
    vm?.gasFees ?? null,
    vm?.gasUsed ?? null,
    vm?.gasLimit ?? null,
    vm ? vm.gasCredit : null,
    vm?.mode ?? null,
    vm?.exitCode ?? null,
    vm ? vm.exitArg : null,
    vm?.vmSteps ?? null,
    vm ? b64(vm.vmInitStateHash) : null,
    vm ? b64(vm.vmFinalStateHash) : null,
    a?.success ?? null,
    a?.valid ?? null,
    a?.noFunds ?? null,
    a?.statusChange ?? null,
    a ? a.totalFwdFees : null,
    a ? a.totalActionFees : null,
    a?.resultCode ?? null,
    a ? a.resultArg : null,
    a?.totActions ?? null,
    a?.specActions ?? null,
    a?.skippedActions ?? null,
    a?.msgsCreated ?? null,
    a ? b64(a.actionListHash) : null,
    a?.totMsgSize.cells ?? null,
    a?.totMsgSize.bits ?? null,
    bo?.type ?? null,
    bo && bo.type !== 'negfunds' ? bo.msgSize.cells : null,
    bo && bo.type !== 'negfunds' ? bo.msgSize.bits : null,
    bo?.type === 'nofunds' ? bo.reqFwdFees : null,
    bo?.type === 'ok' ? bo.msgFees : null,
    bo?.type === 'ok' ? bo.fwdFees : null,
    si?.curShardPfxLen ?? null,
    si?.accSplitDepth ?? null,
    si ? rawAddress(wc, si.thisAddr) : null,
    si ? rawAddress(wc, si.siblingAddr) : null,
  ];
  const messages: Row[] = [];
  const contents: Row[] = [];
  if (v.inMsg) {
    messages.push(messageRow(v, mcSeqno, v.inMsg, 'in'));
    contents.push(...contentRows(v.inMsg));
  }
  for (const m of v.outMsgs) {
    messages.push(messageRow(v, mcSeqno, m, 'out'));
    contents.push(...contentRows(m));
  }
  return { view: v, row, messages, contents };
}

export interface AccountStateRows {
  state: Row;
  latest: Row;
}

/**
 * An account's state after a block -> its account_states row and its latest_account_states row. `last` is
 * the account's last transaction in that block: the state must be the one it produced.
 */
export function toAccountStateRows(
  s: AccountStateAfter,
  last: { hash: Buffer; lt: bigint; now: number; stateHashAfter: Buffer },
): AccountStateRows {
  const where = rawAddress(s.workchain, s.address);
  if (!s.hash.equals(last.stateHashAfter)) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `account ${where}: state hash ${b64(s.hash)} is not the last transaction's account_state_hash_after ${b64(last.stateHashAfter)}`,
      { details: { account: where, lt: last.lt.toString() } },
    );
  }
  const account = loadAccountOrNone(s.account.beginParse(true));
  let status: 'nonexist' | 'uninit' | 'active' | 'frozen' = 'nonexist';
  let balance = 0n;
  let extra: Record<string, string> = {};
  let frozenHash: string | null = null;
  let code: Cell | null = null;
  let data: Cell | null = null;
  if (account) {
    balance = account.storage.balance.coins;
    const other = account.storage.balance.other;
    const m = new Map<number, bigint>();
    if (other) for (const k of other.keys()) m.set(k, other.get(k)!);
    extra = extraCurrenciesJson(m)!;
    const st = account.storage.state;
    status = st.type;
    if (st.type === 'frozen') frozenHash = b64(Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex'));
    if (st.type === 'active') {
      code = st.state.code ?? null;
      data = st.state.data ?? null;
    }
  }
  const codeHash = code ? b64(code.hash(0)) : null;
  const dataHash = data ? b64(data.hash(0)) : null;
  const full = (c: Cell | null) => (c && s.complete && !c.isExotic && c.level() === 0 ? bocBase64(c) : null);
  const hash = b64(s.hash);
  return {
    state: [hash, where, balance, extra, status, frozenHash, dataHash, codeHash],
    latest: [
      where,
      null,
      hash,
      balance,
      extra,
      status,
      last.now,
      b64(last.hash),
      last.lt,
      frozenHash,
      dataHash,
      codeHash,
      full(data),
      full(code),
    ],
  };
}

/** The global version a block was made under (BlockInfo gen_software), which decides ihr_fee vs extra_flags. */
export function blockGlobalVersion(block: Block): number {
  return block.info.genSoftware?.version ?? 12;
}
