// /api/v3 traces, actions and pending data (v3-api.md §3.1, §3.3, §4.8-4.9, §6, §8) over a real devnet chain (the
// core activity cycle: transfers, jetton and NFT flows, a bounce, a failed compute) indexed into PostgreSQL, its
// traces assembled and classified, served by the real API server over HTTP.
//
// Expected values come from the chain, read here through the fixture's own liteserver client: each transaction's
// inbound and outbound message cells, so a trace's tree must be exactly the sender -> receiver links of the chain,
// its counters the chain's message counts, an action's id SHA-256(inbound message hash ‖ type) (§6.3). Filters are
// checked against the whole verified set; precedence, the ancestor rule (§6.4) and the 422 messages against the spec.
// Composite actions (the devnet has none without the contract decoders) and pending traces (written by the emulator,
// not in this stack) are rows built here from real indexed traces. Every 200 and every error body is validated
// against the public v3 OpenAPI document and against our own.
import { createHash } from 'node:crypto';
import { Address, Cell, Dictionary, loadMessage } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';
import { normalizedHashOf } from '../helpers/wallet-messages.ts';

const V3 = '/api/v3';
let f: ApiFixture;
let ownDoc: JsonBody;

beforeAll(async () => {
  // The fixture assembles and classifies as the index worker does.
  f = await startApiFixture({ seed: 'v3-traces', db: 'postgres' });
  ownDoc = (await f.get(`${V3}/openapi.json`)).body;
}, 600_000);

afterAll(async () => {
  await f?.close();
});

const sql = (text: string, params: unknown[] = []) => f.db!.db.query(text, params);

// --- HTTP with validation ------------------------------------------------------------------------------------

/** The public document has no /events; its body is a TracesResponse under another key. */
function publicView(path: string, body: JsonBody): { path: string; body: JsonBody } {
  if (path === '/events') return { path: '/traces', body: { ...body, traces: body.events, events: undefined } };
  return { path, body };
}

async function get(
  pathAndQuery: string,
  headers?: Record<string, string>,
): Promise<{ status: number; body: JsonBody }> {
  const r = await f.get(V3 + pathAndQuery, headers);
  const path = pathAndQuery.split('?')[0]!;
  if (r.status === 200) {
    const pub = publicView(path, r.body);
    const cleaned = JSON.parse(JSON.stringify(pub.body));
    expect(validateV3('get', V3 + pub.path, 200, cleaned), `public document: ${pathAndQuery}`).toEqual([]);
  }
  expect(validateAgainstDocument(ownDoc, 'get', V3 + path, r.status, r.body), `own document: ${pathAndQuery}`).toEqual(
    [],
  );
  return r;
}

async function ok(pathAndQuery: string, headers?: Record<string, string>): Promise<JsonBody> {
  const r = await get(pathAndQuery, headers);
  expect(r.status, `${pathAndQuery}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return r.body;
}

async function refused(
  pathAndQuery: string,
  status: number,
  message: string | RegExp,
  headers?: Record<string, string>,
) {
  const r = await get(pathAndQuery, headers);
  expect(r.status, pathAndQuery).toBe(status);
  if (typeof message === 'string') expect(r.body).toEqual({ error: message });
  else expect(r.body.error).toMatch(message);
}

const enc = encodeURIComponent;

// --- the chain, read through the liteserver --------------------------------------------------------------------

interface ChainTx {
  hash: string;
  account: string;
  lt: bigint;
  inHash: string | null;
  /** The inbound message is internal (has a sender). */
  inInternal: boolean;
  inSource: string | null;
  inValue: bigint | null;
  /** created_lt of an internal inbound message. */
  inCreatedLt: bigint | null;
  /** TEP-467 normalized hash of an external-in inbound message. */
  inNorm: string | null;
  /** Internal outbound messages (to an account). */
  outInternal: string[];
  /** External outbound messages (logs). */
  outLogs: number;
}

const b64 = (b: Buffer) => b.toString('base64');
const rawOf = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const sha256b64 = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('base64');
};

const chainCache = new Map<string, ChainTx>();

/** A transaction as the liteserver returns it, its messages read from the cells (block.tlb transaction$0111). */
async function chainTx(account: string, lt: string, hash: string): Promise<ChainTx> {
  const cached = chainCache.get(hash);
  if (cached) return cached;
  const res = await f.lite.getAccountTransactions(Address.parseRaw(account), lt, Buffer.from(hash, 'base64'), 1);
  const cell = Cell.fromBoc(res.transactions)[0]!;
  expect(b64(cell.hash())).toBe(hash);
  // ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ] is the transaction's first reference.
  const io = cell.refs[0]!.beginParse();
  const inCell = io.loadBit() ? io.loadRef() : null;
  const outs = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const inMsg = inCell ? loadMessage(inCell.beginParse()) : null;
  const tx: ChainTx = {
    hash,
    account,
    lt: BigInt(lt),
    inHash: inCell ? b64(inCell.hash()) : null,
    inInternal: inMsg?.info.type === 'internal',
    inSource: inMsg?.info.type === 'internal' ? rawOf(inMsg.info.src) : null,
    inValue: inMsg?.info.type === 'internal' ? inMsg.info.value.coins : null,
    inCreatedLt: inMsg?.info.type === 'internal' ? inMsg.info.createdLt : null,
    inNorm: inMsg ? normalizedHashOf(inMsg) : null,
    outInternal: [],
    outLogs: 0,
  };
  for (const c of outs.values()) {
    const m = loadMessage(c.beginParse());
    if (m.info.type === 'external-out') tx.outLogs++;
    else tx.outInternal.push(b64(c.hash()));
  }
  chainCache.set(hash, tx);
  return tx;
}

// --- the verified universe -------------------------------------------------------------------------------------

interface Edge {
  parent: string;
  child: string;
}

function treeEdges(node: JsonBody, out: Edge[] = [], nodes: JsonBody[] = []): { edges: Edge[]; nodes: JsonBody[] } {
  nodes.push(node);
  for (const c of node.children) {
    out.push({ parent: node.tx_hash, child: c.tx_hash });
    treeEdges(c, out, nodes);
  }
  return { edges: out, nodes };
}

const cmpLt = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const sortEdges = (e: Edge[]) => [...e].sort((a, b) => `${a.parent}${a.child}`.localeCompare(`${b.parent}${b.child}`));

let traces: JsonBody[] = [];
const chainOf = new Map<string, ChainTx[]>();

async function loadUniverse(): Promise<void> {
  if (traces.length > 0) return;
  const body = await ok('/traces?limit=1000&sort=asc');
  traces = body.traces;
  for (const t of traces) {
    const members = t.transactions_order.map((h: string) => t.transactions[h]);
    chainOf.set(t.trace_id, await Promise.all(members.map((tx: JsonBody) => chainTx(tx.account, tx.lt, tx.hash))));
  }
}

const traceById = (id: string) => traces.find((t) => t.trace_id === id);
const ids = (list: JsonBody[]) => list.map((t) => t.trace_id);
const accountsOf = (t: JsonBody): Set<string> =>
  new Set(Object.values(t.transactions as Record<string, JsonBody>).map((x) => x.account));

describe('/traces: trees from the chain', () => {
  beforeAll(loadUniverse, 120_000);

  it('holds every indexed transaction exactly once, in complete, classified traces', async () => {
    const all = (await ok('/transactions?limit=1000&sort=asc')).transactions.map((t: JsonBody) => t.hash).sort();
    const members = traces.flatMap((t) => t.transactions_order).sort();
    expect(members).toEqual(all);
    expect(new Set(members).size).toBe(members.length);
    expect(traces.length).toBeGreaterThan(5);
    for (const t of traces) {
      expect(t.trace_info.trace_state, t.trace_id).toBe('complete');
      expect(t.trace_info.classification_state).toBe('ok');
      expect(t.is_incomplete).toBe(false);
      expect(t).not.toHaveProperty('warning');
      expect(t).not.toHaveProperty('actions');
    }
  });

  it('links each transaction under the one that sent its inbound message, as the chain has it', () => {
    let multi = 0;
    for (const t of traces) {
      const chain = chainOf.get(t.trace_id)!;
      const sentBy = new Map<string, string>();
      for (const c of chain) for (const h of c.outInternal) sentBy.set(h, c.hash);
      const expected: Edge[] = [];
      const roots: ChainTx[] = [];
      for (const c of chain) {
        const parent = c.inInternal && c.inHash ? sentBy.get(c.inHash) : undefined;
        if (parent) expected.push({ parent, child: c.hash });
        else roots.push(c);
      }
      // One root, whose hash is the trace id and whose inbound (external) message is the trace's external hash.
      expect(roots.map((r) => r.hash)).toEqual([t.trace_id]);
      expect(t.external_hash).toBe(roots[0]!.inHash);
      // Complete: every internal message a member sent was received by a member.
      const received = new Set(chain.map((c) => c.inHash));
      for (const c of chain) for (const h of c.outInternal) expect(received.has(h), `${h} of ${c.hash}`).toBe(true);
      const { edges, nodes } = treeEdges(t.trace);
      expect(t.trace.tx_hash).toBe(t.trace_id);
      expect(sortEdges(edges)).toEqual(sortEdges(expected));
      expect(nodes).toHaveLength(chain.length);
      for (const n of nodes) {
        const c = chain.find((x) => x.hash === n.tx_hash)!;
        expect(n.in_msg_hash).toBe(c.inHash);
        // Children in lt order.
        const lts = n.children.map((x: JsonBody) => chain.find((y) => y.hash === x.tx_hash)!.lt);
        expect([...lts].sort(cmpLt)).toEqual(lts);
      }
      if (chain.length > 2) multi++;
    }
    expect(multi).toBeGreaterThan(2);
  });

  it('reports counters, bounds and the order of transactions from the chain', () => {
    for (const t of traces) {
      const chain = chainOf.get(t.trace_id)!;
      const internals = chain.filter((c) => c.inInternal).length;
      const logs = chain.reduce((n, c) => n + c.outLogs, 0);
      const externals = chain.filter((c) => c.inHash !== null && !c.inInternal).length;
      expect(t.trace_info).toEqual({
        trace_state: 'complete',
        messages: internals + externals + logs,
        transactions: chain.length,
        pending_messages: 0,
        classification_state: 'ok',
      });
      const lts = chain.map((c) => c.lt);
      const min = lts.reduce((a, b) => (b < a ? b : a));
      const max = lts.reduce((a, b) => (b > a ? b : a));
      expect([t.start_lt, t.end_lt]).toEqual([min.toString(), max.toString()]);
      // transactions_order: lt, then account.
      const order = [...chain].sort((a, b) => cmpLt(a.lt, b.lt) || a.account.localeCompare(b.account));
      expect(t.transactions_order).toEqual(order.map((c) => c.hash));
      expect(Object.keys(t.transactions).sort()).toEqual([...t.transactions_order].sort());
      const txs = Object.values(t.transactions as Record<string, JsonBody>);
      const seqnos = txs.map((x) => x.mc_block_seqno);
      expect([Number(t.mc_seqno_start), Number(t.mc_seqno_end)]).toEqual([Math.min(...seqnos), Math.max(...seqnos)]);
      expect(t.start_utime).toBe(Math.min(...txs.map((x) => x.now)));
      expect(t.end_utime).toBe(Math.max(...txs.map((x) => x.now)));
      for (const x of txs) expect(x.trace_id).toBe(t.trace_id);
      expect(typeof t.mc_seqno_start).toBe('string');
    }
  });

  it('lists the address book of every account, sender and receiver, and drops it on request', async () => {
    const body = await ok('/traces?limit=1000');
    for (const t of body.traces) {
      for (const x of Object.values(t.transactions as Record<string, JsonBody>)) {
        for (const a of [x.account, x.in_msg?.source, ...x.out_msgs.map((m: JsonBody) => m.destination)]) {
          if (a) expect(body.address_book[a]?.user_friendly, a).toEqual(expect.any(String));
        }
      }
    }
    const none = await ok('/traces?limit=3', { 'X-No-Address-Book': 'true', 'X-No-Metadata': 'true' });
    expect(none.address_book).toEqual({});
    expect(none.metadata).toEqual({});
  });
});

describe('/traces: filters, order, paging', () => {
  beforeAll(loadUniverse, 120_000);

  it('orders by end_lt (end_utime with a time bound) and pages without gaps', async () => {
    const desc = (await ok('/traces?limit=1000')).traces;
    const asc = (await ok('/traces?limit=1000&sort=asc')).traces;
    expect(ids(asc)).toEqual(ids(traces));
    expect(ids(desc)).toEqual([...ids(asc)].reverse());
    const ends = desc.map((t: JsonBody) => BigInt(t.end_lt));
    expect([...ends].sort((a, b) => cmpLt(b, a))).toEqual(ends);
    const pages: string[] = [];
    for (let offset = 0; offset < desc.length; offset += 4) {
      const page = (await ok(`/traces?limit=4&offset=${offset}`)).traces;
      expect(page.length).toBe(Math.min(4, desc.length - offset));
      pages.push(...ids(page));
    }
    expect(pages).toEqual(ids(desc));
    expect((await ok('/traces')).traces).toHaveLength(Math.min(10, desc.length));
    const byTime = (await ok('/traces?start_utime=0&limit=1000&sort=d')).traces;
    const utimes = byTime.map((t: JsonBody) => t.end_utime);
    expect([...utimes].sort((a, b) => b - a)).toEqual(utimes);
    expect(new Set(ids(byTime))).toEqual(new Set(ids(traces)));
  });

  it('selects by account (any form), trace id, transaction and message (hash or normalized)', async () => {
    const counts = new Map<string, number>();
    for (const t of traces) for (const a of accountsOf(t)) counts.set(a, (counts.get(a) ?? 0) + 1);
    const [account] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const expected = traces.filter((t) => accountsOf(t).has(account)).map((t) => t.trace_id);
    expect(expected.length).toBeGreaterThan(1);
    const friendly = Address.parseRaw(account).toString({ bounceable: true, urlSafe: true });
    for (const form of [account, account.toLowerCase(), friendly]) {
      expect(ids((await ok(`/traces?account=${enc(form)}&limit=1000&sort=asc`)).traces)).toEqual(expected);
    }
    const [t1, t2] = [traces[1], traces[traces.length - 2]];
    const hex = Buffer.from(t1.trace_id, 'base64').toString('hex');
    expect(ids((await ok(`/traces?trace_id=${hex}&trace_id=${enc(t2.trace_id)}&sort=asc`)).traces)).toEqual([
      t1.trace_id,
      t2.trace_id,
    ]);
    // A transaction deep in a trace, and a message its members exchanged, find that trace.
    const deep = traces.find((t) => t.transactions_order.length > 2)!;
    const chain = chainOf.get(deep.trace_id)!;
    const last = chain[chain.length - 1]!;
    expect(ids((await ok(`/traces?tx_hash=${enc(last.hash)}`)).traces)).toEqual([deep.trace_id]);
    expect(ids((await ok(`/traces?msg_hash=${enc(last.inHash!)}`)).traces)).toEqual([deep.trace_id]);
    const root = chain.find((c) => c.hash === deep.trace_id)!;
    expect(root.inNorm).not.toBeNull();
    expect(ids((await ok(`/traces?msg_hash=${enc(root.inNorm!)}`)).traces)).toEqual([deep.trace_id]);
    expect((await ok(`/traces?tx_hash=${'ab'.repeat(32)}`)).traces).toEqual([]);
  });

  it('filters complete traces by the masterchain block they ended in, and by lt and time windows on their end', async () => {
    const ends = [...new Set(traces.map((t) => Number(t.mc_seqno_end)))];
    for (const n of ends.slice(0, 3)) {
      const expected = traces.filter((t) => Number(t.mc_seqno_end) === n).map((t) => t.trace_id);
      expect(ids((await ok(`/traces?mc_seqno=${n}&sort=asc&limit=1000`)).traces)).toEqual(expected);
    }
    const mid = traces[Math.floor(traces.length / 2)];
    const lo = BigInt(traces[2].end_lt);
    const hi = BigInt(mid.end_lt);
    const inLt = traces.filter((t) => BigInt(t.end_lt) >= lo && BigInt(t.end_lt) <= hi).map((t) => t.trace_id);
    expect(ids((await ok(`/traces?start_lt=${lo}&end_lt=${hi}&sort=asc&limit=1000`)).traces)).toEqual(inLt);
    const u = mid.end_utime;
    const inTime = traces.filter((t) => t.end_utime >= u).map((t) => t.trace_id);
    expect(new Set(ids((await ok(`/traces?start_utime=${u}&limit=1000`)).traces))).toEqual(new Set(inTime));
    const before = traces.filter((t) => t.end_utime <= u).map((t) => t.trace_id);
    expect(new Set(ids((await ok(`/traces?end_utime=${u}&limit=1000`)).traces))).toEqual(new Set(before));
  });

  it('includes the supported actions of each trace, and /events always does under its own key', async () => {
    const withActions = (await ok('/traces?limit=1000&include_actions=true&sort=asc')).traces;
    const events = (await ok('/events?limit=1000&sort=asc')).events;
    expect(ids(events)).toEqual(ids(withActions));
    for (const t of withActions) {
      expect(t.actions.length, t.trace_id).toBeGreaterThan(0);
      for (const a of t.actions) {
        expect(a.trace_id).toBe(t.trace_id);
        for (const h of a.transactions) expect(t.transactions_order).toContain(h);
      }
    }
    expect(events.map((t: JsonBody) => t.actions)).toEqual(withActions.map((t: JsonBody) => t.actions));
    const first = withActions[0];
    const alone = (await ok(`/actions?trace_id=${enc(first.trace_id)}&limit=1000`)).actions;
    expect(new Set(first.actions.map((a: JsonBody) => a.action_id))).toEqual(
      new Set(alone.map((a: JsonBody) => a.action_id)),
    );
    // Within a trace: by start_lt, then end_lt.
    const key = (a: JsonBody) => [BigInt(a.start_lt), BigInt(a.end_lt)] as const;
    for (const t of withActions) {
      const keys = t.actions.map(key);
      const sorted = [...keys].sort((a, b) => cmpLt(a[0], b[0]) || cmpLt(a[1], b[1]));
      expect(keys).toEqual(sorted);
    }
  });

  it('lists a trace of more than 4000 transactions without them, with the warning', async () => {
    const t = traces[3];
    await sql('UPDATE traces SET nodes_ = 4001 WHERE trace_id = $1', [t.trace_id]);
    try {
      const [big] = (await ok(`/traces?trace_id=${enc(t.trace_id)}&include_actions=true`)).traces;
      expect(big.is_incomplete).toBe(true);
      expect(big.warning).toBe('trace is too large');
      expect(big.trace_info.transactions).toBe(4001);
      expect(big.actions).toEqual([]);
      for (const k of ['trace', 'transactions_order', 'transactions']) expect(big).not.toHaveProperty(k);
    } finally {
      await sql('UPDATE traces SET nodes_ = $2 WHERE trace_id = $1', [t.trace_id, t.trace_info.transactions]);
    }
  });

  it('warns when a member has no sender in the trace, keeping it in the list but not in the tree', async () => {
    // `a` starts before every transaction of `b`, so its own root stays the first transaction without a sender.
    const multi = traces.filter((t) => t.transactions_order.length > 1);
    const a = [...multi].sort((x, y) => cmpLt(BigInt(x.start_lt), BigInt(y.start_lt)))[0];
    const b = multi.filter((t) => t !== a).sort((x, y) => cmpLt(BigInt(y.start_lt), BigInt(x.start_lt)))[0];
    const moved = b.transactions_order[b.transactions_order.length - 1];
    await sql('UPDATE transactions SET trace_id = $1 WHERE hash = $2', [a.trace_id, moved]);
    try {
      const [got] = (await ok(`/traces?trace_id=${enc(a.trace_id)}`)).traces;
      expect(got.warning).toBe('missing node in trace found');
      expect(got.transactions_order).toContain(moved);
      expect(sortEdges(treeEdges(got.trace).edges)).toEqual(sortEdges(treeEdges(a.trace).edges));
    } finally {
      await sql('UPDATE transactions SET trace_id = $1 WHERE hash = $2', [b.trace_id, moved]);
    }
  });
});

// --- actions ---------------------------------------------------------------------------------------------------

let actions: JsonBody[] = [];

async function loadActions(): Promise<void> {
  await loadUniverse();
  if (actions.length > 0) return;
  actions = (await ok('/actions?limit=1000&include_accounts=true&include_transactions=true')).actions;
}

const actionIds = (list: JsonBody[]) => list.map((a) => a.action_id);
const sameSet = (a: JsonBody[], b: JsonBody[]) => expect(new Set(actionIds(a))).toEqual(new Set(actionIds(b)));

describe('/actions', () => {
  beforeAll(loadActions, 120_000);

  it('match their traces and the chain: transactions, bounds, participants, details of transfers and calls', () => {
    expect(actions.length).toBeGreaterThan(traces.length);
    const basic = new Set(['ton_transfer', 'call_contract', 'contract_deploy']);
    let checkedBasic = 0;
    for (const a of actions) {
      const t = traceById(a.trace_id);
      expect(t, a.trace_id).toBeDefined();
      const chain = chainOf.get(a.trace_id)!;
      const own = a.transactions.map((h: string) => chain.find((c) => c.hash === h)!);
      expect(own.every(Boolean)).toBe(true);
      expect(own.map((c: ChainTx) => c.lt)).toEqual([...own.map((c: ChainTx) => c.lt)].sort(cmpLt));
      // toncenter's start_lt: the earliest inbound message (created_lt; an external one: its transaction's lt) of the
      // action's own transactions, which are the listed ones but for the initiating transaction (the first, when it
      // only sent the action's first message): so the start is the first one's key, or the least key of the others.
      const key = (c: ChainTx) => c.inCreatedLt ?? c.lt;
      const rest = own.slice(1).map(key).sort(cmpLt);
      const start = BigInt(a.start_lt);
      expect([key(own[0]), rest[0]]).toContain(start);
      if (rest.length > 0) expect(start <= rest[0]!).toBe(true);
      expect(a.end_lt).toBe(own[own.length - 1].lt.toString());
      expect([a.trace_end_lt, a.trace_end_utime, a.trace_mc_seqno_end]).toEqual([
        t.end_lt,
        t.end_utime,
        Number(t.mc_seqno_end),
      ]);
      const root = chain.find((c) => c.hash === t.trace_id)!;
      expect(a.trace_external_hash).toBe(root.inHash);
      expect(a.trace_external_hash_norm).toBe(root.inNorm);
      expect(a.finality).toBe('finalized');
      expect(a.transactions_full.map((x: JsonBody) => x.hash)).toEqual(a.transactions);
      for (const c of own) expect(a.accounts, c.account).toContain(c.account);
      expect([...a.accounts].sort()).toEqual(a.accounts);
      if (basic.has(a.type) && own.length > 1) {
        // The initiating transaction, then the receiver of the message: source, destination, value as sent.
        const receiver = own[1] as ChainTx;
        expect(receiver.inInternal).toBe(true);
        expect(a.details.source).toBe(receiver.inSource);
        expect(a.details.destination).toBe(receiver.account);
        expect(a.details.value).toBe(receiver.inValue!.toString());
        checkedBasic++;
      }
    }
    expect(checkedBasic).toBeGreaterThan(5);
    expect(new Set(actionIds(actions)).size).toBe(actions.length);
  });

  it('keeps every action_id when the traces are classified again', async () => {
    const db = f.db!.db;
    for (let n = 1; n <= f.indexedThrough; n++) await classifyMcBlock(n, { db });
    const again = (await ok('/actions?limit=1000&include_accounts=true&include_transactions=true')).actions;
    expect(again).toEqual(actions);
  });

  it('orders by trace end, trace, action end and id, and pages without gaps', async () => {
    const desc = (await ok('/actions?limit=1000')).actions;
    const asc = (await ok('/actions?limit=1000&sort=asc')).actions;
    expect(actionIds(desc)).toEqual(actionIds(actions));
    expect(actionIds(asc)).toEqual([...actionIds(desc)].reverse());
    const ends = desc.map((a: JsonBody) => BigInt(a.trace_end_lt));
    expect([...ends].sort((a, b) => cmpLt(b, a))).toEqual(ends);
    // Actions of one trace are contiguous.
    const seen: string[] = [];
    for (const a of desc) if (seen[seen.length - 1] !== a.trace_id) seen.push(a.trace_id);
    expect(new Set(seen).size).toBe(seen.length);
    const pages: string[] = [];
    for (let offset = 0; offset < desc.length; offset += 7) {
      pages.push(...actionIds((await ok(`/actions?limit=7&offset=${offset}`)).actions));
    }
    expect(pages).toEqual(actionIds(desc));
    expect(desc[0]).not.toHaveProperty('accounts');
    expect(desc[0]).not.toHaveProperty('transactions_full');
  });

  it('filters by account, transaction, message, masterchain block and trace-end windows', async () => {
    const counts = new Map<string, number>();
    for (const a of actions) for (const x of a.accounts) counts.set(x, (counts.get(x) ?? 0) + 1);
    const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    for (const [account] of [sorted[0]!, sorted[sorted.length - 1]!]) {
      const got = (await ok(`/actions?account=${enc(account)}&limit=1000`)).actions;
      expect(actionIds(got)).toEqual(actionIds(actions.filter((a) => a.accounts.includes(account))));
    }
    const deep = actions.find((a) => a.transactions.length > 1)!;
    const tx = deep.transactions[1];
    sameSet(
      (await ok(`/actions?tx_hash=${enc(tx)}&limit=1000`)).actions,
      actions.filter((a) => a.transactions.includes(tx)),
    );
    // A message: the actions holding its sender or its receiver.
    const chain = [...chainOf.values()].flat();
    const receiver = chain.find((c) => c.hash === tx)!;
    const sender = chain.find((c) => c.outInternal.includes(receiver.inHash!))!;
    sameSet(
      (await ok(`/actions?msg_hash=${enc(receiver.inHash!)}&limit=1000`)).actions,
      actions.filter((a) => a.transactions.includes(tx) || a.transactions.includes(sender.hash)),
    );
    const root = chain.find((c) => c.inNorm !== null)!;
    sameSet(
      (await ok(`/actions?msg_hash=${enc(root.inNorm!)}&limit=1000`)).actions,
      actions.filter((a) => a.transactions.includes(root.hash)),
    );
    const n = actions[0].trace_mc_seqno_end;
    expect(actionIds((await ok(`/actions?mc_seqno=${n}&limit=1000`)).actions)).toEqual(
      actionIds(actions.filter((a) => a.trace_mc_seqno_end === n)),
    );
    const lo = BigInt(traces[2].end_lt);
    const hi = BigInt(traces[traces.length - 3].end_lt);
    const inLt = actions.filter((a) => BigInt(a.trace_end_lt) >= lo && BigInt(a.trace_end_lt) <= hi);
    expect(actionIds((await ok(`/actions?start_lt=${lo}&end_lt=${hi}&limit=1000`)).actions)).toEqual(actionIds(inLt));
    const u = traces[traces.length - 3].end_utime;
    sameSet(
      (await ok(`/actions?end_utime=${u}&limit=1000`)).actions,
      actions.filter((a) => a.trace_end_utime <= u),
    );
    const withAccount = (await ok(`/actions?account=${enc(sorted[0]![0])}&start_utime=0&limit=1000`)).actions;
    const times = withAccount.map((a: JsonBody) => a.trace_end_utime);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by type, and excludes types', async () => {
    const types = [...new Set(actions.map((a) => a.type))];
    expect(types.length).toBeGreaterThan(1);
    for (const type of types) {
      expect(actionIds((await ok(`/actions?action_type=${type}&limit=1000`)).actions)).toEqual(
        actionIds(actions.filter((a) => a.type === type)),
      );
      expect(actionIds((await ok(`/actions?exclude_action_type=${type}&limit=1000`)).actions)).toEqual(
        actionIds(actions.filter((a) => a.type !== type)),
      );
    }
  });

  it('lets action_id replace every other filter, and trace_id without account too; with account both apply', async () => {
    const [a, b] = [actions[0], actions[actions.length - 1]];
    const other = actions.find((x) => !x.accounts.includes(a.accounts[0]))?.accounts[0] ?? a.accounts[0];
    const got = (
      await ok(
        `/actions?action_id=${enc(a.action_id)}&action_id=${enc(b.action_id)}&account=${enc(other)}&action_type=tick_tock&start_lt=1&end_lt=2&limit=1000`,
      )
    ).actions;
    sameSet(got, [a, b]);
    const t = traces.find((x) => actions.filter((y) => y.trace_id === x.trace_id).length > 2)!;
    const ofTrace = actions.filter((x) => x.trace_id === t.trace_id);
    const replaced = (
      await ok(
        `/actions?trace_id=${enc(t.trace_id)}&start_lt=1&end_lt=2&action_type=tick_tock&mc_seqno=999999&limit=1000`,
      )
    ).actions;
    expect(actionIds(replaced)).toEqual(actionIds(ofTrace));
    const someone = ofTrace
      .flatMap((x) => x.accounts as string[])
      .find((x) => !ofTrace.every((y) => y.accounts.includes(x))) as string;
    expect(someone).toBeDefined();
    const both = (await ok(`/actions?trace_id=${enc(t.trace_id)}&account=${enc(someone)}&limit=1000`)).actions;
    expect(actionIds(both)).toEqual(actionIds(ofTrace.filter((x) => x.accounts.includes(someone))));
  });

  it('answers 404 for a masterchain block not indexed', async () => {
    await refused('/actions?mc_seqno=999999', 404, 'masterchain block 999999 not found');
  });
});

// --- composite actions and the ancestor rule --------------------------------------------------------------------

describe('supported_action_types and the ancestor rule on a composite action', () => {
  let trace: JsonBody;
  let children: JsonBody[];
  let parentId: string;
  let extraId: string;
  let unknownId: string;

  beforeAll(async () => {
    await loadActions();
    // A trace whose actions become the parts of a multisig_execute, as the classifier stores a composite (§6.4):
    // the parent with an empty ancestor_type, each part tagged with the parent's type.
    trace = traces.find((t) => actions.filter((a) => a.trace_id === t.trace_id).length > 1)!;
    children = actions.filter((a) => a.trace_id === trace.trace_id);
    const root = chainOf.get(trace.trace_id)!.find((c) => c.hash === trace.trace_id)!;
    parentId = sha256b64(Buffer.from(root.inHash!, 'base64'), Buffer.from('multisig_execute'));
    const wallet = root.account;
    const insert = `INSERT INTO actions (trace_id, action_id, type, start_lt, end_lt, start_utime, end_utime, tx_hashes,
        success, source, destination, details, trace_end_lt, trace_end_utime, trace_external_hash, trace_external_hash_norm,
        trace_mc_seqno_end, parent_action_id, ancestor_type)
      SELECT E.trace_id, $2::text, $3::text, E.start_lt, E.end_lt, E.start_utime, E.end_utime,
        ARRAY(SELECT hash FROM transactions WHERE trace_id = E.trace_id ORDER BY lt)::tonhash[], true, $4::text,
        $4::text, $5::jsonb, E.end_lt, E.end_utime, E.external_hash, E.external_hash_norm, E.mc_seqno_end, $6::text,
        $7::text[]
      FROM traces E WHERE E.trace_id = $1`;
    await sql(insert, [
      trace.trace_id,
      parentId,
      'multisig_execute',
      wallet,
      JSON.stringify({
        query_id: '7',
        order_seqno: '0',
        expiration_date: 1900000000,
        approvals_num: 1,
        signers_hash: root.inHash,
        order_boc: null,
        source: wallet,
        destination: wallet,
      }),
      null,
      [],
    ]);
    await sql(
      `INSERT INTO action_accounts (action_id, trace_id, account, trace_end_lt, trace_end_utime, action_end_lt, action_end_utime)
       SELECT $2::text, E.trace_id, $3::text, E.end_lt, E.end_utime, E.end_lt, E.end_utime FROM traces E WHERE E.trace_id = $1`,
      [trace.trace_id, parentId, wallet],
    );
    await sql(
      `UPDATE actions SET ancestor_type = '{multisig_execute}', parent_action_id = $2 WHERE trace_id = $1 AND action_id <> $2`,
      [trace.trace_id, parentId],
    );
    // In another trace: a TON transfer carrying an extra currency, and an unknown action.
    const other = traces.find((t) => t.trace_id !== trace.trace_id)!;
    extraId = sha256b64(Buffer.from('extra'));
    unknownId = sha256b64(Buffer.from('unknown'));
    const dest = [...accountsOf(other)][0];
    await sql(insert, [
      other.trace_id,
      extraId,
      'ton_transfer',
      dest,
      JSON.stringify({
        source: dest,
        destination: dest,
        value: '1',
        value_extra_currencies: { '100': '7' },
        comment: null,
        encrypted: false,
      }),
      null,
      [],
    ]);
    await sql(insert, [other.trace_id, unknownId, 'unknown', dest, '{}', null, []]);
  }, 120_000);

  afterAll(async () => {
    if (!trace) return;
    await sql('DELETE FROM action_accounts WHERE action_id = ANY($1::text[])', [[parentId]]);
    await sql('DELETE FROM actions WHERE action_id = ANY($1::text[])', [[parentId, extraId, unknownId]]);
    await sql(`UPDATE actions SET ancestor_type = '{}', parent_action_id = NULL WHERE trace_id = $1`, [trace.trace_id]);
  });

  const typesOf = (list: JsonBody[]) => list.map((a) => a.type).sort();
  const childTypes = () => children.map((a) => a.type).sort();

  it('shows the composite to clients that know it and its parts to v1 clients', async () => {
    const q = `/actions?trace_id=${enc(trace.trace_id)}&limit=1000`;
    expect(typesOf((await ok(q)).actions)).toEqual(['multisig_execute']);
    expect(typesOf((await ok(`${q}&supported_action_types=latest`)).actions)).toEqual(['multisig_execute']);
    expect(typesOf((await ok(`${q}&supported_action_types=v2`)).actions)).toEqual(['multisig_execute']);
    expect(typesOf((await ok(`${q}&supported_action_types=multisig`)).actions)).toEqual(['multisig_execute']);
    const v1 = (await ok(`${q}&supported_action_types=v1`)).actions;
    expect(typesOf(v1)).toEqual(childTypes());
    expect(actionIds(v1).sort()).toEqual(actionIds(children).sort());
    // X-Actions-Version replaces the parameter.
    const header = (await ok(`${q}&supported_action_types=latest`, { 'X-Actions-Version': 'v1' })).actions;
    expect(typesOf(header)).toEqual(childTypes());
    const [parent] = (await ok(q)).actions;
    expect(parent.action_id).toBe(parentId);
    expect(parent.details.order_boc).toBeNull();
  });

  it('keeps the ancestor rule under action_type; action_type bypasses only the supported-type condition', async () => {
    const childType = children[0].type;
    const q = `/actions?trace_id=${enc(trace.trace_id)}&account=${enc(children[0].accounts[0])}&limit=1000`;
    expect((await ok(`${q}&action_type=${childType}`)).actions).toEqual([]);
    expect(typesOf((await ok(`${q}&action_type=${childType}&supported_action_types=v1`)).actions)).toContain(childType);
    // multisig_execute is not in v1, but asking for it by type shows it.
    const asked = (await ok(`/actions?action_type=multisig_execute&supported_action_types=v1&limit=1000`)).actions;
    expect(actionIds(asked)).toEqual([parentId]);
  });

  it('applies the same rule to the actions of /traces and /events', async () => {
    const q = `trace_id=${enc(trace.trace_id)}`;
    expect(typesOf((await ok(`/traces?${q}&include_actions=true`)).traces[0].actions)).toEqual(['multisig_execute']);
    expect(typesOf((await ok(`/traces?${q}&include_actions=1&supported_action_types=v1`)).traces[0].actions)).toEqual(
      childTypes(),
    );
    expect(typesOf((await ok(`/events?${q}`, { 'X-Actions-Version': 'v1' })).events[0].actions)).toEqual(childTypes());
  });

  it('renames a transfer with extra currencies and gives types without details an error object', async () => {
    const got = (await ok(`/actions?action_id=${enc(extraId)}&action_id=${enc(unknownId)}&limit=10`)).actions;
    const extra = got.find((a: JsonBody) => a.action_id === extraId);
    expect(extra.type).toBe('extra_currency_transfer');
    expect(extra.details.value_extra_currencies).toEqual({ '100': '7' });
    const unknown = got.find((a: JsonBody) => a.action_id === unknownId);
    expect(unknown.type).toBe('unknown');
    expect(unknown.details).toEqual({ error: "unsupported action type: 'unknown'" });
    // `unknown` is a v2 type: a v1 client does not see it.
    const v1 = (await ok(`/actions?action_id=${enc(unknownId)}&supported_action_types=v1`)).actions;
    expect(v1).toEqual([]);
  });
});

// --- pending ---------------------------------------------------------------------------------------------------

interface PendingRow {
  traceKey: string;
  extMsgHash: string;
  trace: JsonBody;
  actions: JsonBody[];
}

/**
 * A pending_traces row as the emulator writes one, from a rendered indexed trace and its actions: the Trace without
 * actions, its transactions marked emulated and pending, every stored action with its participants and ancestor
 * types. `composite` adds a multisig_execute over all of them, as a composite's parts are stored.
 */
async function pendingRowOf(t: JsonBody, composite: boolean): Promise<PendingRow> {
  const [trace] = (await ok(`/traces?trace_id=${enc(t.trace_id)}`)).traces;
  for (const tx of Object.values(trace.transactions as Record<string, JsonBody>)) {
    tx.emulated = true;
    tx.finality = 'pending';
  }
  trace.trace_info = { ...trace.trace_info, trace_state: 'pending', classification_state: 'ok' };
  const stored = (await ok(`/actions?trace_id=${enc(t.trace_id)}&include_accounts=true&limit=1000`)).actions;
  const out = stored.map((a: JsonBody) => ({
    ...a,
    finality: 'pending',
    ancestor_type: composite ? ['multisig_execute'] : [],
  }));
  if (composite) {
    const first = root(t);
    out.unshift({
      ...stored[0],
      action_id: sha256b64(Buffer.from(first.inHash!, 'base64'), Buffer.from('multisig_execute')),
      type: 'multisig_execute',
      transactions: trace.transactions_order,
      details: { source: first.account, destination: first.account, query_id: '1' },
      accounts: [first.account],
      finality: 'pending',
      ancestor_type: [],
    });
  }
  return { traceKey: root(t).inNorm!, extMsgHash: t.external_hash, trace, actions: out };
}

const root = (t: JsonBody) => chainOf.get(t.trace_id)!.find((c) => c.hash === t.trace_id)!;

async function insertPending(p: PendingRow, expiresInSeconds: number): Promise<void> {
  const txs = Object.values(p.trace.transactions as Record<string, JsonBody>);
  const accounts = [...new Set([...txs.map((x) => x.account), ...p.actions.flatMap((a) => a.accounts)])];
  await sql(
    `INSERT INTO pending_traces (trace_key, ext_msg_hash, accounts, tx_in_msg_hashes, trace, actions, expires_at)
     VALUES ($1, $2, $3::text[], $4::text[], $5::jsonb, $6::jsonb, now() + make_interval(secs => $7))`,
    [
      p.traceKey,
      p.extMsgHash,
      accounts,
      txs.map((x) => x.in_msg?.hash).filter(Boolean),
      JSON.stringify(p.trace),
      JSON.stringify(p.actions),
      expiresInSeconds,
    ],
  );
}

describe('pending traces, actions and transactions', () => {
  let landed: JsonBody;
  let emulated: JsonBody;
  let emulatedRow: PendingRow;
  let landedRow: PendingRow;
  let expiredKey: string;

  beforeAll(async () => {
    await loadActions();
    const candidates = traces.filter((t) => t.transactions_order.length > 2 && root(t).inNorm);
    [emulated, landed] = [candidates[candidates.length - 1], candidates[0]];
    emulatedRow = await pendingRowOf(emulated, true);
    landedRow = await pendingRowOf(landed, false);
    await insertPending(emulatedRow, 3600);
    await insertPending(landedRow, 3600);
    // An expired emulation of the same message under another key: never shown.
    expiredKey = sha256b64(Buffer.from('expired'));
    await insertPending({ ...emulatedRow, traceKey: expiredKey, extMsgHash: expiredKey }, -60);
    // The emulated trace has not landed: none of its rows are in the index.
    const id = emulated.trace_id;
    for (const table of ['action_accounts', 'actions', 'messages', 'transactions', 'traces']) {
      await sql(`DELETE FROM ${table} WHERE trace_id = $1`, [id]);
    }
  }, 120_000);

  const txsOf = (t: JsonBody) => Object.values(t.transactions as Record<string, JsonBody>);

  it('serves an emulated trace by its normalized or sent message hash, with its transactions marked emulated', async () => {
    for (const h of [emulatedRow.traceKey, emulatedRow.extMsgHash]) {
      const body = await ok(`/pendingTraces?ext_msg_hash=${enc(h)}`);
      expect(body.traces).toHaveLength(1);
      const [t] = body.traces;
      expect(t.trace_id).toBe(emulated.trace_id);
      expect(t.trace).toEqual(emulated.trace);
      expect(t.transactions_order).toEqual(emulated.transactions_order);
      expect(t.trace_info.trace_state).toBe('pending');
      for (const tx of txsOf(t)) {
        expect(tx).toMatchObject({ emulated: true, finality: 'pending', trace_external_hash: emulatedRow.traceKey });
        const { emulated: _e, finality: _f, trace_external_hash: _h, ...rest } = tx;
        const { emulated: _e2, finality: _f2, ...was } = emulated.transactions[tx.hash];
        expect(rest).toEqual(was);
      }
      expect(Object.keys(body.address_book)).toEqual(expect.arrayContaining([...accountsOf(emulated)]));
    }
    const byAccount = (await ok(`/pendingTraces?account=${enc(root(emulated).account)}`)).traces;
    expect(ids(byAccount)).toEqual([emulated.trace_id]);
    expect((await ok(`/pendingTraces?ext_msg_hash=${enc(expiredKey)}`)).traces).toEqual([]);
  });

  it('applies supported_action_types and the ancestor rule to emulated actions, and strips their bookkeeping', async () => {
    const q = `ext_msg_hash=${enc(emulatedRow.traceKey)}`;
    const latest = (await ok(`/pendingTraces?${q}`)).traces[0].actions;
    expect(latest.map((a: JsonBody) => a.type)).toEqual(['multisig_execute']);
    const v1 = (await ok(`/pendingTraces?${q}&supported_action_types=v1`)).traces[0].actions;
    const parts = emulatedRow.actions.filter((a) => a.type !== 'multisig_execute');
    expect(actionIds(v1)).toEqual(actionIds(parts));
    for (const a of [...latest, ...v1]) {
      expect(a).not.toHaveProperty('ancestor_type');
      expect(a).not.toHaveProperty('accounts');
      expect(a.finality).toBe('pending');
    }
    const pa = (await ok(`/pendingActions?${q}`, { 'X-Actions-Version': 'v1' })).actions;
    expect(actionIds(pa)).toEqual(actionIds(parts));
    const full = (
      await ok(`/pendingActions?${q}&supported_action_types=v1&include_transactions=true&include_accounts=true`)
    ).actions;
    for (const a of full) {
      expect(a.transactions_full.map((x: JsonBody) => x.hash)).toEqual(a.transactions);
      expect(a.transactions_full.every((x: JsonBody) => x.emulated === true)).toBe(true);
      expect(a.accounts).toEqual(parts.find((p) => p.action_id === a.action_id)!.accounts);
    }
  });

  it('lists by account only the emulated actions the account takes part in', async () => {
    const parts = emulatedRow.actions.filter((a) => a.type !== 'multisig_execute');
    const counts = new Map<string, number>();
    for (const a of parts) for (const x of a.accounts) counts.set(x, (counts.get(x) ?? 0) + 1);
    const some = [...counts.entries()].find(([, n]) => n < parts.length)![0];
    const got = (await ok(`/pendingActions?account=${enc(some)}&supported_action_types=v1`)).actions;
    expect(actionIds(got)).toEqual(actionIds(parts.filter((a) => a.accounts.includes(some))));
  });

  it('lists the emulated transactions of accounts, newest first, and 404s when none was emulated for them', async () => {
    const account = root(emulated).account;
    const expected = txsOf(emulated)
      .filter((x) => x.account === account)
      .sort((a, b) => cmpLt(BigInt(b.lt), BigInt(a.lt)));
    const body = await ok(`/pendingTransactions?account=${enc(account)}`);
    expect(body.transactions.map((x: JsonBody) => x.hash)).toEqual(expected.map((x) => x.hash));
    for (const x of body.transactions) {
      expect(x).toMatchObject({ emulated: true, finality: 'pending', trace_external_hash: emulatedRow.traceKey });
    }
    expect(body.address_book[account]).toBeDefined();
    const all = [...accountsOf(emulated)];
    const many = await ok(`/pendingTransactions?${all.map((a) => `account=${enc(a)}`).join('&')}`);
    expect(new Set(many.transactions.map((x: JsonBody) => x.hash))).toEqual(new Set(emulated.transactions_order));
    const byTrace = await ok(`/pendingTransactions?account=${enc(account)}&trace_id=${enc(landed.trace_id)}`);
    expect(byTrace.transactions).toEqual([]);
    const stranger = `0:${'7'.repeat(64)}`;
    await refused(`/pendingTransactions?account=${stranger}`, 404, 'emulated traces not found');
  });

  it('drops a trace once it landed (complete, and for traces and actions classified), and a landed transaction', async () => {
    const id = landed.trace_id;
    const q = `ext_msg_hash=${enc(landedRow.traceKey)}`;
    const account = root(landed).account;
    const pendingTx = async () =>
      (await ok(`/pendingTransactions?account=${enc(account)}&trace_id=${enc(id)}`)).transactions.map(
        (x: JsonBody) => x.hash,
      );
    // Complete and classified: the index has it, and the same action ids.
    expect((await ok(`/pendingTraces?${q}`)).traces).toEqual([]);
    expect((await ok(`/pendingActions?${q}`)).actions).toEqual([]);
    expect(await pendingTx()).toEqual([]);
    const confirmed = (await ok(`/actions?trace_id=${enc(id)}&limit=1000`)).actions;
    expect(actionIds(confirmed).sort()).toEqual(actionIds(landedRow.actions).sort());
    try {
      await sql(`UPDATE traces SET classification_state = 'unclassified' WHERE trace_id = $1`, [id]);
      expect(ids((await ok(`/pendingTraces?${q}`)).traces)).toEqual([id]);
      expect(actionIds((await ok(`/pendingActions?${q}`)).actions)).toEqual(actionIds(landedRow.actions));
      expect(await pendingTx()).toEqual([]);
      // Not complete: the trace stays, but each transaction whose inbound message is stored has landed.
      await sql(`UPDATE traces SET state = 'pending' WHERE trace_id = $1`, [id]);
      expect(await pendingTx()).toEqual([]);
      const mine = txsOf(landed)
        .filter((x) => x.account === account)
        .sort((a, b) => cmpLt(BigInt(b.lt), BigInt(a.lt)));
      const gone = mine[0];
      const saved = (
        await sql(`SELECT row_to_json(m) AS r FROM messages m WHERE tx_hash = $1 AND direction = 'in'`, [gone.hash])
      ).rows[0]!.r;
      await sql(`DELETE FROM messages WHERE tx_hash = $1 AND direction = 'in'`, [gone.hash]);
      try {
        expect(await pendingTx()).toEqual([gone.hash]);
      } finally {
        await sql('INSERT INTO messages SELECT * FROM json_populate_record(NULL::messages, $1::json)', [
          JSON.stringify(saved),
        ]);
      }
      expect(await pendingTx()).toEqual([]);
    } finally {
      await sql(`UPDATE traces SET state = 'complete', classification_state = 'ok' WHERE trace_id = $1`, [id]);
    }
  });
});

// --- input errors ----------------------------------------------------------------------------------------------

describe('bad input is a 422 naming the problem', () => {
  beforeAll(loadUniverse, 120_000);

  it('refuses conflicting trace selections and malformed values', async () => {
    const [t] = traces;
    const account = t.transactions[t.trace_id].account;
    const only = 'only one of account, trace_id, tx_hash, msg_hash should be specified';
    await refused(`/traces?account=${enc(account)}&trace_id=${enc(t.trace_id)}`, 422, only);
    await refused(`/traces?tx_hash=${enc(t.trace_id)}&msg_hash=${enc(t.external_hash)}`, 422, only);
    await refused(`/events?trace_id=${enc(t.trace_id)}&tx_hash=${enc(t.trace_id)}`, 422, only);
    await refused('/traces?trace_id=nothash', 422, "invalid hash in trace_id: 'nothash'");
    await refused('/traces?account=EQnope', 422, /^invalid address in account/);
    await refused('/traces?mc_seqno=abc', 422, /^invalid mc_seqno/);
    await refused('/traces?start_lt=5&end_lt=4', 422, 'start_lt 5 is greater than end_lt 4');
    await refused('/traces?limit=0', 422, 'limit is not allowed: 0 < 1');
    await refused('/traces?limit=1001', 422, 'limit is not allowed: 1001 > 1000');
    await refused('/traces?sort=sideways', 422, 'wrong value for sort parameter');
    await refused('/traces?include_actions=maybe', 422, /^invalid include_actions/);
    await refused(
      '/traces?include_actions=true&supported_action_types=v2;drop',
      422,
      /^invalid supported_action_types/,
    );
    await refused('/actions?action_type=jetton-transfer', 422, /^invalid action_type: 'jetton-transfer'/);
    await refused('/actions?exclude_action_type=a%20b', 422, /^invalid exclude_action_type/);
    await refused('/actions', 422, /^invalid X-Actions-Version/, { 'X-Actions-Version': 'v2 or v3' });
    await refused('/actions?start_utime=-1', 422, /^invalid start_utime/);
    await refused('/actions?include_transactions=2', 422, /^invalid include_transactions/);
    await refused('/pendingTraces', 422, 'account or ext_msg_hash should be specified');
    await refused('/pendingActions?supported_action_types=v2', 422, 'account or ext_msg_hash should be specified');
    await refused('/pendingActions?ext_msg_hash=xyz', 422, "invalid hash in ext_msg_hash: 'xyz'");
    await refused('/pendingTransactions', 422, 'at least 1 account address required');
    await refused(`/pendingTransactions?trace_id=${enc(t.trace_id)}`, 422, 'at least 1 account address required');
  });
});
