// What the ton-http-api oracle asks both servers: facts about the devnet chain gathered from our server
// (blocks, their transactions, the accounts and internal messages in them), turned into requests for every
// v2 endpoint with pinned seqno / lt / hash arguments, so that both servers answer about the same data.
import { createHash } from 'node:crypto';
import { Address, beginCell, type Cell, external, internal, storeMessage, toNano } from '@ton/core';
import { type ActivityWallet, loadWallets } from '../../../src/devnet/activity/wallets.ts';
import { type Case, callTarget, type Json, type Target } from './differential.ts';

export const MC_SHARD = '-9223372036854775808';

interface BlockId {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

interface ShortTx {
  account: string;
  lt: string;
  hash: string;
}

export interface ChainFacts {
  head: number;
  /** Every masterchain block and every shard block the masterchain references. */
  blocks: BlockId[];
  /** Blocks that hold transactions, with them. */
  txBlocks: Array<{ id: BlockId; txs: ShortTx[] }>;
  /** Raw addresses of every account with a transaction. */
  accounts: string[];
  /** Internal messages seen in transactions: source, destination, created_lt. */
  messages: Array<{ source: string; destination: string; created_lt: string }>;
  /** Which getters make sense on which account (from getTokenData on our server). */
  tokens: Array<{ address: string; type: string }>;
  walletsFile: string;
}

async function ok(t: Target, method: string, params: Json): Promise<Json> {
  const a = await callTarget(t, 'GET', method, params);
  if (a.body?.ok !== true)
    throw new Error(`${t.name} ${method} ${JSON.stringify(params)}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.result;
}

/** blocks.shortTxId `account`: raw `wc:hex` (toncenter renders it so), or base64 of the 32 bytes. */
const accountOf = (b: BlockId, t: ShortTx) =>
  t.account.includes(':')
    ? t.account.toLowerCase()
    : `${b.workchain}:${Buffer.from(t.account, 'base64').toString('hex')}`;

const blockParams = (b: BlockId) => ({
  workchain: b.workchain,
  shard: b.shard,
  seqno: b.seqno,
  root_hash: b.root_hash,
  file_hash: b.file_hash,
});

/** Walks masterchain blocks 1..head on our server: every block, transaction, account and message. */
export async function gatherChain(ours: Target, head: number, walletsFile: string): Promise<ChainFacts> {
  const blocks: BlockId[] = [];
  const seen = new Set<string>();
  const txBlocks: ChainFacts['txBlocks'] = [];
  const accounts = new Set<string>();
  const addBlock = async (b: BlockId) => {
    const key = `${b.workchain}:${b.shard}:${b.seqno}`;
    if (seen.has(key) || b.seqno === 0) return; // zero states hold no transactions
    seen.add(key);
    blocks.push(b);
    const r = await ok(ours, 'getBlockTransactions', { ...blockParams(b), count: 1000 });
    if (r.transactions.length > 0) {
      txBlocks.push({ id: b, txs: r.transactions });
      for (const t of r.transactions) accounts.add(accountOf(b, t));
    }
  };
  for (let n = 1; n <= head; n++) {
    const mc = (await ok(ours, 'lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: n })) as BlockId;
    await addBlock(mc);
    const shards = await ok(ours, 'getShards', { seqno: n });
    for (const s of shards.shards) await addBlock(s);
  }
  const messages: ChainFacts['messages'] = [];
  const tokens: ChainFacts['tokens'] = [];
  for (const a of accounts) {
    const txs = await ok(ours, 'getTransactions', { address: a, limit: 50 });
    for (const t of txs) {
      if (t.in_msg?.source && messages.length < 400) {
        messages.push({ source: t.in_msg.source, destination: t.in_msg.destination, created_lt: t.in_msg.created_lt });
      }
    }
    const td = await callTarget(ours, 'GET', 'getTokenData', { address: a });
    if (td.body?.ok) tokens.push({ address: a, type: td.body.result.contract_type });
  }
  return { head, blocks, txBlocks, accounts: [...accounts].sort(), messages, tokens, walletsFile };
}

function friendly(raw: string, opts: { bounceable: boolean; urlSafe: boolean; testOnly: boolean }): string {
  return Address.parseRaw(raw).toString(opts);
}

const spread = <T>(xs: T[], n: number): T[] =>
  xs.length <= n ? xs : Array.from({ length: n }, (_, i) => xs[Math.floor((i * (xs.length - 1)) / (n - 1))]!);

/** Requests for every read endpoint (and the utilities), pinned to the chain as gathered. */
export function readCases(f: ChainFacts): Case[] {
  const cases: Case[] = [];
  const add = (endpoint: string, params: Json, label: string, extra: Partial<Case> = {}) =>
    cases.push({ endpoint, http: 'GET', params, label, ...extra });
  const head = f.head;
  const mcBlocks = f.blocks.filter((b) => b.workchain === -1);
  const shardBlocks = f.blocks.filter((b) => b.workchain !== -1);
  const nowhere = `0:${createHash('sha256').update('ton-http-api oracle: nobody').digest('hex')}`;
  const mcAccounts = f.accounts.filter((a) => a.startsWith('-1:'));
  const accounts = [...f.accounts, nowhere, `-1:${'5'.repeat(64)}`, `-1:${'3'.repeat(64)}`];

  // accounts, at the pinned head and at an early block, in every address form
  for (const a of accounts) {
    for (const seqno of [head, Math.min(3, head)]) {
      for (const m of ['getAddressInformation', 'getExtendedAddressInformation', 'getWalletInformation']) {
        add(m, { address: a, seqno }, `${a} @${seqno}`);
      }
      add('getAddressBalance', { address: a, seqno }, `${a} @${seqno}`);
      add('getAddressState', { address: a, seqno }, `${a} @${seqno}`);
    }
    add('getTokenData', { address: a }, a);
  }
  const sample = f.accounts[0]!;
  for (const form of [
    friendly(sample, { bounceable: true, urlSafe: true, testOnly: false }),
    friendly(sample, { bounceable: false, urlSafe: false, testOnly: true }),
    sample.toUpperCase(),
  ]) {
    add('getAddressInformation', { address: form, seqno: head }, `form ${form}`);
  }
  add('getAddressInformation', { address: 'not-an-address' }, 'bad address');
  add('getAddressBalance', { address: `0:${'zz'.repeat(32)}` }, 'bad address');

  // utilities
  for (const a of [sample, ...mcAccounts.slice(0, 1), nowhere]) {
    for (const form of [
      a,
      friendly(a, { bounceable: true, urlSafe: true, testOnly: false }),
      friendly(a, { bounceable: false, urlSafe: true, testOnly: true }),
      friendly(a, { bounceable: true, urlSafe: false, testOnly: false }),
    ]) {
      add('detectAddress', { address: form }, form);
      add('unpackAddress', { address: form }, form);
      add('packAddress', { address: form }, form);
    }
  }
  add('detectAddress', { address: 'garbage' }, 'bad address');
  add('packAddress', { address: '0:12' }, 'bad address');
  add('detectHash', { hash: f.txBlocks[0]!.txs[0]!.hash }, 'tx hash', { refAbsent: true });

  // masterchain state and blocks
  add('getMasterchainInfo', {}, 'head');
  add('getConsensusBlock', {}, 'consensus');
  for (const b of spread(mcBlocks, 12)) {
    add('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: b.seqno }, `mc ${b.seqno} by seqno`);
    add('getBlockHeader', blockParams(b), `mc ${b.seqno}`);
    add('getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno: b.seqno }, `mc ${b.seqno} without hashes`);
    add('getShards', { seqno: b.seqno }, `mc ${b.seqno}`, { refEndpoint: 'shards' });
    add('getMasterchainBlockSignatures', { seqno: b.seqno }, `mc ${b.seqno}`);
    add('getConfigParam', { config_id: 34, seqno: b.seqno }, `34 @${b.seqno}`);
  }
  for (const b of spread(shardBlocks, 12)) {
    add('lookupBlock', { workchain: b.workchain, shard: b.shard, seqno: b.seqno }, `shard ${b.shard}:${b.seqno}`);
    add('getBlockHeader', blockParams(b), `shard ${b.shard}:${b.seqno}`);
    add(
      'getShardBlockProof',
      { workchain: b.workchain, shard: b.shard, seqno: b.seqno, from_seqno: head },
      `${b.seqno} from head`,
    );
  }
  add('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: head + 1000 }, 'not found');
  add('getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno: 1, root_hash: 'zz' }, 'bad hash');
  add('getOutMsgQueueSize', {}, 'head', { refAbsent: true });

  // block transactions: every block that has any, then paging through the biggest
  for (const { id } of f.txBlocks) {
    add('getBlockTransactions', { ...blockParams(id), count: 40 }, `${id.workchain}:${id.shard}:${id.seqno}`);
    add('getBlockTransactionsExt', { ...blockParams(id), count: 40 }, `${id.workchain}:${id.shard}:${id.seqno}`);
  }
  const big = [...f.txBlocks].sort((a, b) => b.txs.length - a.txs.length)[0]!;
  for (let i = 0; i + 1 < Math.min(big.txs.length, 8); i++) {
    // the cursor is the account of the last item: its 64 hex digits (2.0 takes a hash there, 2.1 any form too)
    const after = { after_lt: big.txs[i]!.lt, after_hash: accountOf(big.id, big.txs[i]!).split(':')[1] };
    add('getBlockTransactions', { ...blockParams(big.id), count: 2, ...after }, `page after ${i}`);
    add('getBlockTransactionsExt', { ...blockParams(big.id), count: 2, ...after }, `page after ${i}`);
  }

  // account histories, with paging by lt + hash and to_lt
  for (const a of f.accounts) {
    add('getTransactions', { address: a, limit: 20 }, a);
    add('getTransactionsStd', { address: a, limit: 20 }, a, { refAbsent: true });
  }
  for (const { txs, id } of f.txBlocks.slice(0, 10)) {
    const t = txs[0]!;
    const address = accountOf(id, t);
    add('getTransactions', { address, limit: 3, lt: t.lt, hash: t.hash }, `${address} from ${t.lt}`);
    add('getTransactions', { address, limit: 5, lt: t.lt, hash: t.hash, to_lt: '1' }, `${address} to_lt 1`);
    add('getTransactions', { address, limit: 1 }, `${address} limit 1`);
  }
  add('getTransactions', { address: nowhere, limit: 5 }, 'no history');

  // locating transactions by message
  for (const m of spread(f.messages, 25)) {
    add('tryLocateTx', m, `${m.source}->${m.destination}@${m.created_lt}`);
    add('tryLocateResultTx', m, `${m.source}->${m.destination}@${m.created_lt}`);
    add('tryLocateSourceTx', m, `${m.source}->${m.destination}@${m.created_lt}`);
  }
  if (f.messages[0]) add('tryLocateTx', { ...f.messages[0], created_lt: '12345' }, 'not found');

  // config and libraries
  for (const id of [
    0, 1, 2, 4, 7, 8, 9, 10, 12, 15, 16, 17, 18, 20, 21, 24, 25, 28, 29, 31, 32, 34, 36, 43, 44, 45, 71, 79, 99,
  ]) {
    add('getConfigParam', { config_id: id, seqno: head }, `${id} @head`);
  }
  add('getConfigParam', { config_id: 1 }, 'latest');
  add('getConfigAll', { seqno: head }, '@head', { refAbsent: true });
  add('getLibraries', { libraries: [createHash('sha256').update('no such library').digest('hex')] }, 'unknown');

  // get-methods, by name and id, with arguments
  const method = (address: string, name: string | number, stack: Json[] = [], label = '') =>
    cases.push({
      endpoint: 'runGetMethod',
      http: 'POST',
      params: { address, method: name, stack, seqno: head },
      label: `${address} ${name} ${label}`,
    });
  for (const a of f.accounts) {
    method(a, 'seqno');
    method(a, 'get_public_key');
  }
  method(f.accounts[0]!, 85143, [], 'seqno by id');
  method(nowhere, 'seqno', [], 'uninit');
  for (const t of f.tokens) {
    if (t.type === 'jetton_master') {
      method(t.address, 'get_jetton_data');
      const owner = beginCell().storeAddress(Address.parseRaw(f.accounts[0]!)).endCell();
      method(t.address, 'get_wallet_address', [['tvm.Slice', owner.toBoc().toString('base64')]], 'slice arg');
    } else if (t.type === 'jetton_wallet') {
      method(t.address, 'get_wallet_data');
    } else if (t.type === 'nft_collection') {
      method(t.address, 'get_collection_data');
      method(t.address, 'get_nft_address_by_index', [['num', 1]], 'num arg');
      method(t.address, 'get_nft_address_by_index', [['num', '0x2']], 'hex num arg');
    } else if (t.type === 'nft_item') {
      method(t.address, 'get_nft_data');
    }
  }
  cases.push({
    endpoint: 'runGetMethodStd',
    http: 'POST',
    params: { address: f.accounts[0]!, method: 'seqno', stack: [] },
    label: 'seqno',
    refAbsent: true,
  });
  return cases;
}

/** lookupBlock by lt and by unixtime needs the block's header: done after the header answers came in. */
export async function lookupByLtAndTime(ours: Target, f: ChainFacts): Promise<Case[]> {
  const cases: Case[] = [];
  const mc = f.blocks.filter((b) => b.workchain === -1);
  const sh = f.blocks.filter((b) => b.workchain !== -1);
  for (const b of [...spread(mc, 4), ...spread(sh, 4)]) {
    const h = await ok(ours, 'getBlockHeader', blockParams(b));
    const base = { workchain: b.workchain, shard: b.shard };
    cases.push({
      endpoint: 'lookupBlock',
      http: 'GET',
      params: { ...base, lt: h.start_lt },
      label: `${b.seqno} by start_lt`,
    });
    cases.push({
      endpoint: 'lookupBlock',
      http: 'GET',
      params: { ...base, lt: h.end_lt },
      label: `${b.seqno} by end_lt`,
    });
    cases.push({
      endpoint: 'lookupBlock',
      http: 'GET',
      params: { ...base, unixtime: h.gen_utime },
      label: `${b.seqno} by utime`,
    });
  }
  return cases;
}

// ---- messages: estimateFee, sendBoc, sendBocReturnHash ---------------------------------------------------------

function normalizedHash(ext: Cell): string {
  // ext_in_msg_info$10 src:addr_none dest import_fee:0, no init, body as a reference (TEP-467)
  const s = ext.beginParse();
  s.loadUint(2);
  s.loadAddressAny();
  const dest = s.loadAddress();
  s.loadCoins();
  if (s.loadBit()) {
    if (s.loadBit()) s.loadRef();
    else s.skip(0); // inline StateInit is not produced by our wallets
  }
  const body = s.loadBit() ? s.loadRef() : s.asCell();
  const norm = beginCell()
    .storeUint(2, 2)
    .storeUint(0, 2)
    .storeAddress(dest)
    .storeCoins(0)
    .storeBit(0)
    .storeBit(1)
    .storeRef(body);
  return norm.endCell().hash().toString('base64');
}

/**
 * Requests that change the chain, each server with its own message so neither sees a duplicate: `ours` signs
 * with one genesis wallet, `ref` with another; the hashes in the answers are checked against the message each
 * server was given and replaced by a placeholder before the comparison.
 */
export async function messageCases(ours: Target, f: ChainFacts): Promise<Case[]> {
  const wallets = await loadWallets(f.walletsFile);
  const [wa, wb] = [wallets.find((w) => w.version === 'v4r2')!, wallets.find((w) => w.version === 'v5r1')!];
  const seqnos = new Map<ActivityWallet, number>();
  const seqnoOf = async (w: ActivityWallet) =>
    Number((await ok(ours, 'getWalletInformation', { address: w.address.toRawString() })).seqno);
  for (const w of [wa, wb]) seqnos.set(w, await seqnoOf(w));
  /** A signed transfer with the wallet's next seqno, once the previous one is applied. */
  const nextMessage = async (w: ActivityWallet, n: number): Promise<Cell> => {
    const want = seqnos.get(w)!;
    const deadline = Date.now() + 30_000;
    while ((await seqnoOf(w)) !== want) {
      if (Date.now() > deadline) throw new Error(`${w.version} wallet seqno did not reach ${want}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    seqnos.set(w, want + 1);
    const to = new Address(0, createHash('sha256').update(`ton-http-api oracle ${w.version} ${n}`).digest());
    const body = w.createTransfer({
      seqno: want,
      validUntil: Math.floor(Date.now() / 1000) + 600,
      messages: [internal({ to, value: toNano('0.01'), bounce: false, body: `oracle ${n}` })],
    });
    return beginCell()
      .store(storeMessage(external({ to: w.address, body })))
      .endCell();
  };
  const sent = new Map<string, Cell>();
  let n = 0;
  const cases: Case[] = [];
  for (const endpoint of ['sendBoc', 'sendBocReturnHash'] as const) {
    cases.push({
      endpoint,
      http: 'POST',
      params: {},
      label: `${endpoint}: a transfer per server`,
      // signed right before sending (seqnos move), with the wallet that server is given
      prepare: async (who, via) => {
        const msg = await nextMessage(who === 'ours' ? wa : wb, n++);
        sent.set(`${endpoint} ${who} ${via}`, msg);
        return { boc: msg.toBoc().toString('base64') };
      },
      normalize: (a, who, via) => {
        if (a.body?.ok !== true)
          throw new Error(`${endpoint} of a valid transfer failed on ${who} (${via}): ${JSON.stringify(a.body)}`);
        const msg = sent.get(`${endpoint} ${who} ${via}`);
        const r = a.body?.result;
        if (!msg || !r || typeof r !== 'object') return;
        for (const k of ['hash', 'hash_norm']) {
          if (r[k] === msg.hash().toString('base64')) r[k] = '<message cell hash>';
          else if (r[k] === normalizedHash(msg)) r[k] = '<normalized message hash>';
        }
      },
    });
  }
  // a message that fails the wallet's signature check: both must refuse it
  const bad = wa.createTransfer({ seqno: 999, validUntil: Math.floor(Date.now() / 1000) + 600, messages: [] });
  const badExt = beginCell()
    .store(storeMessage(external({ to: wa.address, body: bad })))
    .endCell();
  cases.push({
    endpoint: 'sendBoc',
    http: 'POST',
    params: { boc: badExt.toBoc().toString('base64') },
    label: 'refused',
  });
  cases.push({ endpoint: 'sendBoc', http: 'POST', params: { boc: 'AAAA' }, label: 'bad boc' });
  // fees: a transfer body of a deployed wallet, and a deploy of a new one with its code and data
  const seqno = seqnos.get(wa)!;
  const feeBody = wa.createTransfer({
    seqno,
    validUntil: Math.floor(Date.now() / 1000) + 3600,
    messages: [internal({ to: wb.address, value: toNano('0.5'), body: 'fee' })],
  });
  const boc = (c: Cell) => c.toBoc().toString('base64');
  cases.push({
    endpoint: 'estimateFee',
    http: 'POST',
    params: { address: wa.address.toString(), body: boc(feeBody), ignore_chksig: true },
    label: 'v4 transfer',
  });
  cases.push({
    endpoint: 'estimateFee',
    http: 'POST',
    params: { address: wa.address.toRawString(), body: boc(feeBody), ignore_chksig: false },
    label: 'v4 transfer, checked signature',
  });
  const init = wa.init;
  const fresh = new Address(0, beginCell().storeUint(6, 5).storeRef(init.code!).storeRef(init.data!).endCell().hash());
  cases.push({
    endpoint: 'estimateFee',
    http: 'POST',
    params: {
      address: fresh.toRawString(),
      body: boc(feeBody),
      init_code: boc(init.code!),
      init_data: boc(init.data!),
    },
    label: 'deploy with init',
  });
  return cases;
}
