// Trace files (the format of shared/vectors/actions/traces/: one trace as toncenter's v3 database stores it, with
// what its interface detection knew about the accounts) run through our own pipeline in a scratch database: the
// rows are stored as the indexer stores them, our assembler gives them their trace, the classify job classifies it
// and writes its actions, which are read back as the API would read them. `tongate index classify-trace` and the
// mainnet action test (test/index/actions-mainnet.test.ts) both go through runTraceFile.
//
// What the files do not carry, and how it is filled in (none of it is read by the classifier):
// - transactions: the block's shard (the full shard is written), compute_success/compute_skipped (derived: skipped
//   when the compute phase has no exit code, successful when it exited with 0 or 1), the action phase (NULL);
// - messages: the normalized hash of an external message (NULL: the message cell is not in the file);
// - index_checkpoints: the assembler walks blocks that have a core checkpoint, so each masterchain block holding one
//   of the trace's transactions gets one (zero root hash, row_counts {"classify_trace": 1}), and the watermark is
//   moved over the blocks in between (the assembly of a block without transactions only moves it);
// - contract rows: code and data hashes (zero hashes; data_hash from the data BoC where the file has it),
//   last_transaction_lt (the account's newest transaction in the trace, else 0), balances of accounts whose state
//   the file does not give (0).
// Interfaces are written to the tables our decoders fill: JettonWallet -> jetton_wallets, NftItem -> nft_items,
// NftSale -> getgems_nft_sales, NftAuction -> getgems_nft_auctions (the fields the file has; the others NULL),
// `data_boc` -> latest_account_states.data_boc. Kinds we have no table for (DedustPool, …) are reported as not
// stored: the classifier works without them, as it does on a real index.
import { readFile } from 'node:fs/promises';
import { Cell } from '@ton/core';
import type { Database, Queryable } from '../../db/index.ts';
import { isStoredRawAddress, STORED_RAW_ADDRESS } from '../../ton/index.ts';
import { assembleTraces } from '../traces/index.ts';
import { classifyStored } from './classify-block.ts';
import type { StoredTrace } from './load.ts';
import { type LosslessJson, parseLossless } from './lossless-json.ts';
import type { Action, Details } from './types.ts';

/** A file that is not a readable trace file: `problem` names what and where (a JSON path). */
export class TraceFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface TraceFileMessage {
  msgHash: string;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
  value: bigint | null;
  valueExtraCurrencies: Record<string, string>;
  fwdFee: bigint | null;
  ihrFee: bigint | null;
  createdLt: bigint | null;
  createdAt: bigint | null;
  /** Signed 32-bit, as stored. */
  opcode: number | null;
  ihrDisabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  importFee: bigint | null;
  bodyHash: string | null;
  initStateHash: string | null;
}

export interface TraceFileTransaction {
  account: string;
  hash: string;
  lt: bigint;
  blockSeqno: number;
  mcBlockSeqno: number;
  prevTransHash: string;
  prevTransLt: bigint;
  now: bigint;
  origStatus: string;
  endStatus: string;
  totalFees: bigint;
  stateHashBefore: string;
  stateHashAfter: string;
  descr: string;
  aborted: boolean | null;
  destroyed: boolean | null;
  creditFirst: boolean | null;
  isTock: boolean | null;
  installed: boolean | null;
  computeMode: number | null;
  computeExitCode: number | null;
  computeExitArg: number | null;
  bounce: string | null;
  messages: TraceFileMessage[];
}

export interface TraceFileTrace {
  traceId: string;
  externalHash: string | null;
  mcSeqnoStart: number;
  mcSeqnoEnd: number;
  startLt: bigint;
  endLt: bigint;
  state: string;
  edges: number;
  nodes: number;
}

export interface TraceFile {
  /** The name errors and output use (the file's base name). */
  name: string;
  traceId: string;
  trace: TraceFileTrace;
  transactions: TraceFileTransaction[];
  /** Bodies and init states by hash (standard base64 BoCs). */
  contents: Map<string, string>;
  /** By raw address: interface kind -> its data as the file gives it. */
  interfaces: Map<string, Record<string, LosslessJson>>;
}

// ---- reading ----

const HASH = /^[A-Za-z0-9+/]{43}=$/;
const STATUSES = new Set(['uninit', 'frozen', 'active', 'nonexist']);
const DESCRS = new Set([
  'ord',
  'storage',
  'tick_tock',
  'split_prepare',
  'split_install',
  'merge_prepare',
  'merge_install',
]);
const BOUNCES = new Set(['negfunds', 'nofunds', 'ok']);
const TRACE_STATES = new Set(['complete', 'pending', 'broken']);

type Obj = { [k: string]: LosslessJson };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function reader(file: string) {
  const fail = (path: string, what: string): never => {
    throw new TraceFileError(file, `${path}: ${what}`);
  };
  const describe = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v;
  const obj = (v: unknown, path: string): Obj => (isObj(v) ? v : fail(path, `expected an object, got ${describe(v)}`));
  const arr = (v: unknown, path: string): LosslessJson[] =>
    Array.isArray(v) ? v : fail(path, `expected an array, got ${describe(v)}`);
  const field = (o: Obj, k: string, path: string): LosslessJson =>
    Object.hasOwn(o, k) ? o[k]! : fail(`${path}.${k}`, 'missing');
  const big = (v: unknown, path: string): bigint => {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
    return fail(path, `expected an integer, got ${describe(v)}`);
  };
  const bigOrNull = (v: unknown, path: string): bigint | null => (v === null ? null : big(v, path));
  const int = (v: unknown, path: string): number => {
    const b = big(v, path);
    if (b < -(2n ** 53n) || b > 2n ** 53n) fail(path, 'integer out of range');
    return Number(b);
  };
  const intOrNull = (v: unknown, path: string): number | null => (v === null ? null : int(v, path));
  const bool = (v: unknown, path: string): boolean | null =>
    v === null ? null : typeof v === 'boolean' ? v : fail(path, `expected a boolean, got ${describe(v)}`);
  const str = (v: unknown, path: string): string =>
    typeof v === 'string' ? v : fail(path, `expected a string, got ${describe(v)}`);
  const match = (v: unknown, re: RegExp, what: string, path: string): string => {
    const s = str(v, path);
    return re.test(s) ? s : fail(path, `not ${what}: '${s.slice(0, 80)}'`);
  };
  const hash = (v: unknown, path: string) => match(v, HASH, 'a base64 hash', path);
  const hashOrNull = (v: unknown, path: string) => (v === null ? null : hash(v, path));
  const address = (v: unknown, path: string) => match(v, STORED_RAW_ADDRESS, 'a raw upper-case address', path);
  const addressOrNull = (v: unknown, path: string) => (v === null ? null : address(v, path));
  const oneOf = (v: unknown, set: ReadonlySet<string>, path: string): string => {
    const s = str(v, path);
    return set.has(s) ? s : fail(path, `unexpected value '${s.slice(0, 40)}' (expected ${[...set].join(', ')})`);
  };
  const boc = (v: unknown, path: string): string => {
    const s = str(v, path);
    try {
      Cell.fromBase64(s);
    } catch (e) {
      fail(path, `not a base64 BoC (${(e as Error).message.split('\n')[0]?.slice(0, 80)})`);
    }
    return s;
  };
  return {
    fail,
    obj,
    arr,
    field,
    big,
    bigOrNull,
    int,
    intOrNull,
    bool,
    str,
    hash,
    hashOrNull,
    address,
    addressOrNull,
    oneOf,
    boc,
  };
}

/** Parses and checks a trace file's text; throws TraceFileError naming the file and the first problem. */
export function parseTraceFile(text: string, name: string): TraceFile {
  let json: LosslessJson;
  try {
    json = parseLossless(text);
  } catch (e) {
    throw new TraceFileError(name, `not JSON: ${(e as Error).message}`);
  }
  const r = reader(name);
  const top = r.obj(json, '$');
  if (Object.hasOwn(top, 'kind') && top.kind !== 'toncenter_trace_rows') {
    r.fail('$.kind', `expected 'toncenter_trace_rows', got ${JSON.stringify(top.kind)?.slice(0, 40)}`);
  }
  const traceId = r.hash(r.field(top, 'trace_id', '$'), '$.trace_id');
  const t = r.obj(r.field(top, 'trace', '$'), '$.trace');
  const f = (k: string) => r.field(t, k, '$.trace');
  const trace: TraceFileTrace = {
    traceId: r.hash(f('trace_id'), '$.trace.trace_id'),
    externalHash: r.hashOrNull(f('external_hash'), '$.trace.external_hash'),
    mcSeqnoStart: r.int(f('mc_seqno_start'), '$.trace.mc_seqno_start'),
    mcSeqnoEnd: r.int(f('mc_seqno_end'), '$.trace.mc_seqno_end'),
    startLt: r.big(f('start_lt'), '$.trace.start_lt'),
    endLt: r.big(f('end_lt'), '$.trace.end_lt'),
    state: r.oneOf(f('state'), TRACE_STATES, '$.trace.state'),
    edges: r.int(f('edges_'), '$.trace.edges_'),
    nodes: r.int(f('nodes_'), '$.trace.nodes_'),
  };
  if (trace.traceId !== traceId) r.fail('$.trace.trace_id', `differs from $.trace_id (${traceId})`);

  const contents = new Map<string, string>();
  const content = (v: LosslessJson, path: string): string | null => {
    if (v === null) return null;
    const o = r.obj(v, path);
    const h = r.hash(r.field(o, 'hash', path), `${path}.hash`);
    contents.set(h, r.boc(r.field(o, 'body', path), `${path}.body`));
    return h;
  };
  if (Object.hasOwn(top, 'message_contents')) {
    for (const [i, c] of r.arr(top.message_contents, '$.message_contents').entries()) {
      content(c, `$.message_contents[${i}]`);
    }
  }

  const txs = r.arr(r.field(top, 'transactions', '$'), '$.transactions');
  if (txs.length === 0) r.fail('$.transactions', 'no transactions');
  const seen = new Set<string>();
  const transactions = txs.map((v, i): TraceFileTransaction => {
    const p = `$.transactions[${i}]`;
    const o = r.obj(v, p);
    const g = (k: string) => r.field(o, k, p);
    const hash = r.hash(g('hash'), `${p}.hash`);
    if (seen.has(hash)) r.fail(`${p}.hash`, `transaction ${hash} appears twice`);
    seen.add(hash);
    const lt = r.big(g('lt'), `${p}.lt`);
    const msgs = r.arr(g('messages'), `${p}.messages`).map((mv, j): TraceFileMessage => {
      const mp = `${p}.messages[${j}]`;
      const m = r.obj(mv, mp);
      const h = (k: string) => r.field(m, k, mp);
      if (r.hash(h('tx_hash'), `${mp}.tx_hash`) !== hash) r.fail(`${mp}.tx_hash`, `is not its transaction's hash`);
      if (r.big(h('tx_lt'), `${mp}.tx_lt`) !== lt) r.fail(`${mp}.tx_lt`, `is not its transaction's lt`);
      const opcode = r.intOrNull(h('opcode'), `${mp}.opcode`);
      if (opcode !== null && (opcode < -(2 ** 31) || opcode >= 2 ** 31)) r.fail(`${mp}.opcode`, 'not a signed 32-bit');
      const bodyHash = r.hashOrNull(h('body_hash'), `${mp}.body_hash`);
      if (Object.hasOwn(m, 'message_content')) {
        const ch = content(m.message_content!, `${mp}.message_content`);
        if (ch !== null && bodyHash !== null && ch !== bodyHash) {
          r.fail(`${mp}.message_content.hash`, 'differs from body_hash');
        }
      }
      if (Object.hasOwn(m, 'init_state')) content(m.init_state!, `${mp}.init_state`);
      const ec = Object.hasOwn(m, 'value_extra_currencies') ? m.value_extra_currencies : null;
      const extra: Record<string, string> = {};
      if (ec !== null && ec !== undefined) {
        for (const [k, x] of Object.entries(r.obj(ec, `${mp}.value_extra_currencies`))) {
          extra[k] = r.big(x, `${mp}.value_extra_currencies.${k}`).toString();
        }
      }
      return {
        msgHash: r.hash(h('msg_hash'), `${mp}.msg_hash`),
        direction: r.oneOf(h('direction'), new Set(['in', 'out']), `${mp}.direction`) as 'in' | 'out',
        source: r.addressOrNull(h('source'), `${mp}.source`),
        destination: r.addressOrNull(h('destination'), `${mp}.destination`),
        value: r.bigOrNull(h('value'), `${mp}.value`),
        valueExtraCurrencies: extra,
        fwdFee: r.bigOrNull(h('fwd_fee'), `${mp}.fwd_fee`),
        ihrFee: r.bigOrNull(h('ihr_fee'), `${mp}.ihr_fee`),
        createdLt: r.bigOrNull(h('created_lt'), `${mp}.created_lt`),
        createdAt: r.bigOrNull(h('created_at'), `${mp}.created_at`),
        opcode,
        ihrDisabled: r.bool(h('ihr_disabled'), `${mp}.ihr_disabled`),
        bounce: r.bool(h('bounce'), `${mp}.bounce`),
        bounced: r.bool(h('bounced'), `${mp}.bounced`),
        importFee: r.bigOrNull(h('import_fee'), `${mp}.import_fee`),
        bodyHash,
        initStateHash: r.hashOrNull(h('init_state_hash'), `${mp}.init_state_hash`),
      };
    });
    if (msgs.filter((m) => m.direction === 'in').length > 1) r.fail(`${p}.messages`, 'more than one inbound message');
    const bounce = g('bounce');
    return {
      account: r.address(g('account'), `${p}.account`),
      hash,
      lt,
      blockSeqno: r.int(g('block_seqno'), `${p}.block_seqno`),
      mcBlockSeqno: r.int(g('mc_block_seqno'), `${p}.mc_block_seqno`),
      prevTransHash: r.hash(g('prev_trans_hash'), `${p}.prev_trans_hash`),
      prevTransLt: r.big(g('prev_trans_lt'), `${p}.prev_trans_lt`),
      now: r.big(g('now'), `${p}.now`),
      origStatus: r.oneOf(g('orig_status'), STATUSES, `${p}.orig_status`),
      endStatus: r.oneOf(g('end_status'), STATUSES, `${p}.end_status`),
      totalFees: r.big(g('total_fees'), `${p}.total_fees`),
      stateHashBefore: r.hash(g('account_state_hash_before'), `${p}.account_state_hash_before`),
      stateHashAfter: r.hash(g('account_state_hash_after'), `${p}.account_state_hash_after`),
      descr: r.oneOf(g('descr'), DESCRS, `${p}.descr`),
      aborted: r.bool(g('aborted'), `${p}.aborted`),
      destroyed: r.bool(g('destroyed'), `${p}.destroyed`),
      creditFirst: r.bool(g('credit_first'), `${p}.credit_first`),
      isTock: r.bool(g('is_tock'), `${p}.is_tock`),
      installed: r.bool(g('installed'), `${p}.installed`),
      computeMode: r.intOrNull(g('compute_mode'), `${p}.compute_mode`),
      computeExitCode: r.intOrNull(g('compute_exit_code'), `${p}.compute_exit_code`),
      computeExitArg: r.intOrNull(g('compute_exit_arg'), `${p}.compute_exit_arg`),
      bounce: bounce === null ? null : r.oneOf(bounce, BOUNCES, `${p}.bounce`),
      messages: msgs,
    };
  });
  if (!seen.has(traceId)) r.fail('$.transactions', `the root transaction ${traceId} is not among them`);

  const interfaces = new Map<string, Record<string, LosslessJson>>();
  for (const [addr, v] of Object.entries(r.obj(r.field(top, 'interfaces', '$'), '$.interfaces'))) {
    r.address(addr, `$.interfaces key '${addr.slice(0, 80)}'`);
    interfaces.set(addr, r.obj(v, `$.interfaces['${addr}']`));
  }
  return { name, traceId, trace, transactions, contents, interfaces };
}

/** Reads and parses a trace file; a missing or unreadable file is a TraceFileError too. */
export async function readTraceFile(path: string): Promise<TraceFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TraceFileError(path, code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? 'error'})`);
  }
  return parseTraceFile(text, path);
}

// ---- storing ----

const ZERO_HASH = `${'A'.repeat(43)}=`;
const FULL_SHARD = -(2n ** 63n);
const CHECKPOINT_MARK = { classify_trace: 1 };

const TX_COLUMNS = [
  'account',
  'hash',
  'lt',
  'block_workchain',
  'block_shard',
  'block_seqno',
  'mc_block_seqno',
  'prev_trans_hash',
  'prev_trans_lt',
  'now',
  'orig_status',
  'end_status',
  'total_fees',
  'account_state_hash_before',
  'account_state_hash_after',
  'descr',
  'aborted',
  'destroyed',
  'credit_first',
  'is_tock',
  'installed',
  'compute_skipped',
  'compute_success',
  'compute_mode',
  'compute_exit_code',
  'compute_exit_arg',
  'bounce',
] as const;

const MSG_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'mc_seqno',
  'msg_hash',
  'direction',
  'source',
  'destination',
  'value',
  'value_extra_currencies',
  'fwd_fee',
  'ihr_fee',
  'created_lt',
  'created_at',
  'opcode',
  'ihr_disabled',
  'bounce',
  'bounced',
  'import_fee',
  'body_hash',
  'init_state_hash',
] as const;

/** An interface kind that was in the file but has no table of ours. */
export interface UnstoredInterface {
  address: string;
  kind: string;
}

const workchainOf = (address: string) => Number(address.slice(0, address.indexOf(':')));

/** A float the interface detection wrote (0.0, 23.0, 1.2e21) or an exact integer, as a decimal string. */
function decimalOf(v: LosslessJson | undefined): string | null {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v)).toString();
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
  return null;
}

const addressOrNull = (v: LosslessJson | undefined): string | null =>
  typeof v === 'string' && isStoredRawAddress(v) ? v : null;

/** The newest transaction of `account` in the file. */
function lastTxOf(f: TraceFile, account: string): TraceFileTransaction | undefined {
  let last: TraceFileTransaction | undefined;
  for (const t of f.transactions) if (t.account === account && (!last || t.lt > last.lt)) last = t;
  return last;
}

type ListingKind = 'NftSale' | 'NftAuction';

/**
 * The GetGems listings a file names and their tables. The file's fields for the marketplace, the item, the seller and
 * the price are the table's columns (toncenter names them differently per table).
 */
const LISTINGS: Record<ListingKind, { table: string; columns: readonly [string, string, string, string] }> = {
  NftSale: {
    table: 'getgems_nft_sales',
    columns: ['marketplace_address', 'nft_address', 'nft_owner_address', 'full_price'],
  },
  NftAuction: { table: 'getgems_nft_auctions', columns: ['mp_addr', 'nft_addr', 'nft_owner', 'last_bid'] },
};

/** Writes the file's rows (core tables, contract tables, checkpoints) in one transaction. */
export async function storeTraceFile(db: Database, f: TraceFile): Promise<{ unstored: UnstoredInterface[] }> {
  const unstored: UnstoredInterface[] = [];
  const wallets: unknown[][] = [];
  const items: unknown[][] = [];
  const listings = new Map<ListingKind, unknown[][]>();
  const states: unknown[][] = [];
  for (const [address, kinds] of f.interfaces) {
    const lastLt = lastTxOf(f, address)?.lt ?? 0n;
    for (const [kind, data] of Object.entries(kinds)) {
      const d = isObj(data) ? data : {};
      if (kind === 'JettonWallet') {
        wallets.push([
          address,
          decimalOf(d.balance),
          addressOrNull(d.owner),
          addressOrNull(d.jetton),
          lastLt,
          ZERO_HASH,
          ZERO_HASH,
        ]);
      } else if (kind === 'NftItem') {
        items.push([
          address,
          typeof d.init === 'boolean' ? d.init : null,
          decimalOf(d.index),
          addressOrNull(d.collection_address),
          addressOrNull(d.owner_address),
          isObj(d.content) ? JSON.stringify(d.content, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) : null,
          lastLt,
          ZERO_HASH,
          ZERO_HASH,
        ]);
      } else if (kind === 'NftSale' || kind === 'NftAuction') {
        const [marketplace, nft, seller, price] = LISTINGS[kind].columns;
        const rows = listings.get(kind) ?? [];
        listings.set(kind, rows);
        rows.push([
          address,
          addressOrNull(d[marketplace]),
          addressOrNull(d[nft]),
          addressOrNull(d[seller]),
          decimalOf(d[price]),
          lastLt,
        ]);
      } else if (kind === 'data_boc' && typeof d.data_boc === 'string') {
        const last = lastTxOf(f, address);
        let dataHash: string;
        try {
          dataHash = Cell.fromBase64(d.data_boc).hash().toString('base64');
        } catch (e) {
          throw new TraceFileError(f.name, `$.interfaces['${address}'].data_boc: not a BoC (${(e as Error).message})`);
        }
        states.push([
          address,
          last?.stateHashAfter ?? ZERO_HASH,
          0n,
          last?.endStatus ?? 'active',
          last?.now ?? 0n,
          last?.hash ?? ZERO_HASH,
          last?.lt ?? 0n,
          dataHash,
          d.data_boc,
        ]);
      } else {
        unstored.push({ address, kind });
      }
    }
  }
  const seqnos = [...new Set(f.transactions.map((t) => t.mcBlockSeqno))].sort((a, b) => a - b);
  await db.transaction(async (tx) => {
    await tx.copyFrom(
      'transactions',
      TX_COLUMNS,
      f.transactions.map((t) => {
        const skipped = t.computeExitCode === null;
        return [
          t.account,
          t.hash,
          t.lt,
          workchainOf(t.account),
          FULL_SHARD,
          t.blockSeqno,
          t.mcBlockSeqno,
          t.prevTransHash,
          t.prevTransLt,
          t.now,
          t.origStatus,
          t.endStatus,
          t.totalFees,
          t.stateHashBefore,
          t.stateHashAfter,
          t.descr,
          t.aborted,
          t.destroyed,
          t.creditFirst,
          t.isTock,
          t.installed,
          skipped,
          skipped ? null : t.computeExitCode === 0 || t.computeExitCode === 1,
          t.computeMode,
          t.computeExitCode,
          t.computeExitArg,
          t.bounce,
        ];
      }),
    );
    await tx.copyFrom(
      'messages',
      MSG_COLUMNS,
      f.transactions.flatMap((t) =>
        t.messages.map((m) => [
          t.hash,
          t.lt,
          t.mcBlockSeqno,
          m.msgHash,
          m.direction,
          m.source,
          m.destination,
          m.value,
          m.valueExtraCurrencies,
          m.fwdFee,
          m.ihrFee,
          m.createdLt,
          m.createdAt,
          m.opcode,
          m.ihrDisabled,
          m.bounce,
          m.bounced,
          m.importFee,
          m.bodyHash,
          m.initStateHash,
        ]),
      ),
    );
    if (f.contents.size > 0) {
      await tx.query(
        `INSERT INTO message_contents (hash, body) SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT (hash) DO NOTHING`,
        [[...f.contents.keys()], [...f.contents.values()]],
      );
    }
    await tx.query(
      `INSERT INTO index_checkpoints (part, mc_seqno, mc_root_hash, decoder_version, row_counts)
       SELECT 'core', s, $2, 0, $3 FROM unnest($1::int[]) AS s ON CONFLICT (part, mc_seqno) DO NOTHING`,
      [seqnos, ZERO_HASH, CHECKPOINT_MARK],
    );
    if (wallets.length > 0) {
      await tx.query(
        `INSERT INTO jetton_wallets (address, balance, owner, jetton, last_transaction_lt, code_hash, data_hash)
         SELECT * FROM unnest($1::text[], $2::numeric[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[])
         ON CONFLICT (address) DO UPDATE SET balance = EXCLUDED.balance, owner = EXCLUDED.owner, jetton = EXCLUDED.jetton`,
        columnsOf(wallets, 7),
      );
    }
    if (items.length > 0) {
      await tx.query(
        `INSERT INTO nft_items (address, init, index, collection_address, owner_address, content, last_transaction_lt,
           code_hash, data_hash)
         SELECT a, i, x, c, o, t::jsonb, l, ch, dh FROM unnest($1::text[], $2::boolean[], $3::numeric[], $4::text[],
           $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[]) AS u(a, i, x, c, o, t, l, ch, dh)
         ON CONFLICT (address) DO UPDATE SET init = EXCLUDED.init, index = EXCLUDED.index,
           collection_address = EXCLUDED.collection_address, owner_address = EXCLUDED.owner_address,
           content = EXCLUDED.content`,
        columnsOf(items, 9),
      );
    }
    for (const [kind, rows] of listings) {
      const { table, columns } = LISTINGS[kind];
      await tx.query(
        `INSERT INTO ${table} (address, ${columns.join(', ')}, last_transaction_lt, code_hash, data_hash)
         SELECT a, m, n, o, p, l, $7, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::numeric[],
           $6::bigint[]) AS u(a, m, n, o, p, l)
         ON CONFLICT (address) DO NOTHING`,
        [...columnsOf(rows, 6), ZERO_HASH],
      );
    }
    if (states.length > 0) {
      await tx.query(
        `INSERT INTO latest_account_states (account, hash, balance, account_status, timestamp, last_trans_hash,
           last_trans_lt, data_hash, data_boc)
         SELECT a, h, b, st::account_status_type, ts, th, tl, dh, d FROM unnest($1::text[], $2::text[], $3::bigint[],
           $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::text[], $9::text[]) AS u(a, h, b, st, ts, th, tl, dh, d)
         ON CONFLICT (account) DO UPDATE SET data_hash = EXCLUDED.data_hash, data_boc = EXCLUDED.data_boc`,
        columnsOf(states, 9),
      );
    }
  });
  return { unstored };
}

/** Row-major values as one array per column (for unnest). */
function columnsOf(rows: unknown[][], n: number): unknown[][] {
  return Array.from({ length: n }, (_, i) => rows.map((r) => r[i] ?? null));
}

// ---- assembling ----

/** What our assembler made of the file's transactions, next to the file's own traces row. */
export interface AssemblyResult {
  /** Our traces row for the file's trace id, when there is one. */
  stored: StoredTrace | null;
  nodes: number | null;
  edges: number | null;
  /** Differences from the file's traces row and transactions (empty when our assembly agrees). */
  differences: string[];
}

/** Assembles the masterchain blocks holding the file's transactions, in order, with our assembler. */
export async function assembleTraceFile(db: Database, f: TraceFile): Promise<AssemblyResult> {
  const seqnos = [...new Set(f.transactions.map((t) => t.mcBlockSeqno))].sort((a, b) => a - b);
  for (const s of seqnos) {
    // Blocks between these hold none of the trace's transactions: assembling them would only move the watermark.
    await db.query(
      `INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET first_mc_seqno = EXCLUDED.first_mc_seqno, next_mc_seqno = EXCLUDED.next_mc_seqno`,
      [seqnos[0], s],
    );
    const done = await assembleTraces(db, { maxBlocks: 1 });
    if (done[0]?.mcSeqno !== s) throw new Error(`the assembler did not take masterchain block ${s}`);
  }
  const differences: string[] = [];
  const ids = await db.query<{ hash: string; trace_id: string | null }>(
    'SELECT hash, trace_id FROM transactions WHERE hash = ANY($1::text[])',
    [f.transactions.map((t) => t.hash)],
  );
  const other = ids.rows.filter((r) => r.trace_id !== f.traceId);
  if (other.length > 0) {
    differences.push(
      `${other.length} transaction(s) assembled into another trace (e.g. ${other[0]!.hash} -> ${other[0]!.trace_id})`,
    );
  }
  const r = await db.query<Record<string, unknown>>(
    `SELECT trace_id, external_hash, external_hash_norm, mc_seqno_start, mc_seqno_end, start_lt::text AS start_lt,
            end_lt::text AS end_lt, end_utime, state, edges_::text AS edges, nodes_::text AS nodes
       FROM traces WHERE trace_id = $1`,
    [f.traceId],
  );
  const row = r.rows[0];
  if (!row) {
    differences.push('no trace assembled under the file trace id');
    return { stored: null, nodes: null, edges: null, differences };
  }
  const mine = {
    external_hash: (row.external_hash as string | null) ?? null,
    mc_seqno_start: Number(row.mc_seqno_start),
    mc_seqno_end: Number(row.mc_seqno_end),
    start_lt: String(row.start_lt),
    end_lt: String(row.end_lt),
    state: String(row.state),
    edges_: Number(row.edges),
    nodes_: Number(row.nodes),
  };
  const theirs = {
    external_hash: f.trace.externalHash,
    mc_seqno_start: f.trace.mcSeqnoStart,
    mc_seqno_end: f.trace.mcSeqnoEnd,
    start_lt: f.trace.startLt.toString(),
    end_lt: f.trace.endLt.toString(),
    state: f.trace.state,
    edges_: f.trace.edges,
    nodes_: f.trace.nodes,
  };
  for (const k of Object.keys(mine) as (keyof typeof mine)[]) {
    if (mine[k] !== theirs[k]) differences.push(`traces.${k}: ours ${mine[k]}, the file's ${theirs[k]}`);
  }
  return {
    stored: {
      trace_id: String(row.trace_id),
      external_hash: mine.external_hash,
      external_hash_norm: (row.external_hash_norm as string | null) ?? null,
      mc_seqno_end: mine.mc_seqno_end,
      end_lt: mine.end_lt,
      end_utime: Number(row.end_utime),
      state: mine.state as StoredTrace['state'],
    },
    nodes: mine.nodes_,
    edges: mine.edges_,
    differences,
  };
}

// ---- classifying ----

const ACTION_SELECT = `SELECT trace_id, action_id, type, start_lt::text AS start_lt, end_lt::text AS end_lt,
  start_utime::text AS start_utime, end_utime::text AS end_utime, tx_hashes::text[] AS tx_hashes, success,
  source, source_secondary, destination, destination_secondary, asset, asset_secondary, asset2, asset2_secondary,
  opcode::text AS opcode, value::text AS value, amount::text AS amount, details, trace_end_lt::text AS trace_end_lt,
  trace_end_utime, trace_external_hash, trace_external_hash_norm, trace_mc_seqno_end, mc_seqno_end,
  parent_action_id, ancestor_type::text[] AS ancestor_type
  FROM actions WHERE trace_id = $1`;

const bigOrNull = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));
const strOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** A stored actions row (with its action_accounts) as the classifier's Action. */
function actionOfRow(r: Record<string, unknown>, accounts: string[]): Action {
  const details = typeof r.details === 'string' ? (JSON.parse(r.details) as Details) : (r.details as Details);
  return {
    traceId: String(r.trace_id),
    actionId: String(r.action_id),
    type: String(r.type),
    startLt: BigInt(String(r.start_lt)),
    endLt: BigInt(String(r.end_lt)),
    startUtime: Number(r.start_utime),
    endUtime: Number(r.end_utime),
    txHashes: (r.tx_hashes as string[]) ?? [],
    success: r.success === true,
    details,
    accounts: [...accounts].sort(),
    source: strOrNull(r.source),
    sourceSecondary: strOrNull(r.source_secondary),
    destination: strOrNull(r.destination),
    destinationSecondary: strOrNull(r.destination_secondary),
    asset: strOrNull(r.asset),
    assetSecondary: strOrNull(r.asset_secondary),
    asset2: strOrNull(r.asset2),
    asset2Secondary: strOrNull(r.asset2_secondary),
    opcode: r.opcode === null || r.opcode === undefined ? null : Number(r.opcode),
    value: bigOrNull(r.value),
    amount: bigOrNull(r.amount),
    traceEndLt: BigInt(String(r.trace_end_lt)),
    traceEndUtime: Number(r.trace_end_utime),
    traceExternalHash: strOrNull(r.trace_external_hash),
    traceExternalHashNorm: strOrNull(r.trace_external_hash_norm),
    traceMcSeqnoEnd: Number(r.trace_mc_seqno_end),
    mcSeqnoEnd: r.mc_seqno_end === null ? 0 : Number(r.mc_seqno_end),
    parentActionId: strOrNull(r.parent_action_id),
    ancestorType: (r.ancestor_type as string[]) ?? [],
  };
}

const byStart = (a: Action, b: Action) =>
  a.startLt !== b.startLt
    ? a.startLt < b.startLt
      ? -1
      : 1
    : a.endLt !== b.endLt
      ? a.endLt < b.endLt
        ? -1
        : 1
      : a.type < b.type
        ? -1
        : a.type > b.type
          ? 1
          : a.actionId < b.actionId
            ? -1
            : 1;

/** Runs the classify job over the stored trace and reads its actions back (start_lt order). */
export async function classifyStoredTrace(db: Database, trace: StoredTrace): Promise<Action[]> {
  const res = await classifyStored([trace], { db });
  if (res.failed > 0) throw new Error(`classification of trace ${trace.trace_id} failed`);
  const rows = await db.query<Record<string, unknown>>(ACTION_SELECT, [trace.trace_id]);
  const acc = await db.query<{ action_id: string; account: string }>(
    'SELECT action_id, account FROM action_accounts WHERE trace_id = $1',
    [trace.trace_id],
  );
  const accountsOf = new Map<string, string[]>();
  for (const a of acc.rows) {
    const list = accountsOf.get(a.action_id);
    if (list) list.push(a.account);
    else accountsOf.set(a.action_id, [a.account]);
  }
  return rows.rows.map((r) => actionOfRow(r, accountsOf.get(String(r.action_id)) ?? [])).sort(byStart);
}

/** Removes what storeTraceFile, the assembler and the classifier wrote for the file (the scratch database's reuse). */
export async function clearTraceFile(db: Queryable, f: TraceFile): Promise<void> {
  const hashes = f.transactions.map((t) => t.hash);
  const addresses = [...f.interfaces.keys()];
  const seqnos = [...new Set(f.transactions.map((t) => t.mcBlockSeqno))];
  await db.query('DELETE FROM action_accounts WHERE trace_id = $1', [f.traceId]);
  await db.query('DELETE FROM actions WHERE trace_id = $1', [f.traceId]);
  await db.query('DELETE FROM trace_pending_edges WHERE trace_id = ANY($1::text[])', [[f.traceId, ...hashes]]);
  await db.query(
    'DELETE FROM traces WHERE trace_id IN (SELECT DISTINCT trace_id FROM transactions WHERE hash = ANY($1::text[]))',
    [hashes],
  );
  await db.query('DELETE FROM messages WHERE tx_hash = ANY($1::text[])', [hashes]);
  await db.query('DELETE FROM transactions WHERE hash = ANY($1::text[])', [hashes]);
  await db.query('DELETE FROM message_contents WHERE hash = ANY($1::text[])', [[...f.contents.keys()]]);
  await db.query('DELETE FROM jetton_wallets WHERE address = ANY($1::text[])', [addresses]);
  await db.query('DELETE FROM nft_items WHERE address = ANY($1::text[])', [addresses]);
  await db.query('DELETE FROM getgems_nft_sales WHERE address = ANY($1::text[])', [addresses]);
  await db.query('DELETE FROM getgems_nft_auctions WHERE address = ANY($1::text[])', [addresses]);
  await db.query('DELETE FROM latest_account_states WHERE account = ANY($1::text[])', [addresses]);
  await db.query(
    `DELETE FROM index_checkpoints WHERE part = 'core' AND mc_seqno = ANY($1::int[]) AND row_counts = $2`,
    [seqnos, CHECKPOINT_MARK],
  );
}

/** The database holds nothing but what this module writes (classify-trace refuses to touch a real index). */
export async function isScratchDatabase(db: Queryable): Promise<boolean> {
  const r = await db.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM index_checkpoints WHERE row_counts <> $1)
         OR EXISTS (SELECT 1 FROM transactions) AS used`,
    [CHECKPOINT_MARK],
  );
  return r.rows[0]?.used !== true;
}

export interface TraceFileResult {
  file: TraceFile;
  actions: Action[];
  assembly: AssemblyResult;
  unstored: UnstoredInterface[];
}

/** The whole path for one file: store, assemble, classify, read back; the rows are removed again afterwards. */
export async function runTraceFile(db: Database, f: TraceFile): Promise<TraceFileResult> {
  await clearTraceFile(db, f);
  try {
    const { unstored } = await storeTraceFile(db, f);
    const assembly = await assembleTraceFile(db, f);
    if (!assembly.stored) throw new Error(`${f.name}: ${assembly.differences.join('; ')}`);
    const actions = await classifyStoredTrace(db, assembly.stored);
    return { file: f, actions, assembly, unstored };
  } finally {
    await clearTraceFile(db, f);
  }
}
