// Tonstakers in a real mainnet block (vectors/blocks, 0:8000000000000000:71398501): one deposit (a wallet sends
// deposit#47d54391 to the pool, the pool mint#1674b0a0 to the tsTON minter, the minter internal_transfer#178d4519 to
// the staker's tsTON wallet) and one immediate withdrawal (burn#595f07bc of tsTON -> burn_notification -> the
// minter's withdraw#319b0cdc to the pool -> the pool's withdrawal#0a77535c paying the staker), each a whole trace in
// that block. Expected values are read from the transaction cells with @ton/core's own loaders; the pool and the
// minter are compared with the public mainnet addresses in their user-friendly form (tonstakers-sdk). The tsTON
// wallet is given to the classifier as a known jetton wallet (owner and master read from its state in
// vectors/accounts), so the test also shows the burn is a stake action, not a jetton_burn.
import { readFileSync } from 'node:fs';
import { Address, Cell, loadShardAccount, loadTransaction, type Transaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, vectorPath } from '../../../test/helpers/vectors.ts';
import { listBlockTransactions, loadBlockCell, transactionFromCell, transactionView } from '../../ton/index.ts';
import { classifyTrace } from './classify.ts';
import { interfacesOf } from './interfaces.ts';
import { rawOf } from './matchers/sandbox-trace.test-util.ts';
import { TONSTAKERS_MAINNET } from './matchers/tonstakers.ts';
import { linkTrees, traceOfTree, traceTxOfView } from './tree.ts';
import type { Action, ContractInfo, TraceInput, TraceNode } from './types.ts';

const BLOCK = 'mainnet_0_8000000000000000_71398501.json';
const POOL = rawOf(Address.parse('EQCkWxfyhAkim3g2DjKQQg8T5P4g-Q1-K_jErGcDJZ4i-vqR'));
const TSTON = rawOf(Address.parse('EQC98_qAmNEptUtPc7W6xdHh_ZHrBUFpw5Ft_IzNU20QAJav'));
const OP = {
  deposit: 0x47d54391,
  mint: 0x1674b0a0,
  internalTransfer: 0x178d4519,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  withdraw: 0x319b0cdc,
  withdrawal: 0x0a77535c,
};

interface Loaded {
  traces: TraceInput[];
  core: Map<string, Transaction>;
  interfaces: Map<string, ContractInfo>;
}

function load(): Loaded {
  const v = JSON.parse(readFileSync(vectorPath('blocks', BLOCK), 'utf8')) as { boc_base64: string };
  const txs = listBlockTransactions(loadBlockCell(Cell.fromBase64(v.boc_base64)));
  const core = new Map(txs.map((t) => [t.hash.toString('base64'), loadTransaction(t.cell.beginParse())]));
  const views = txs.map((t) => traceTxOfView(transactionView(transactionFromCell(t.cell), { workchain: 0 }), 66519406));
  const traces = linkTrees(views).map((tree) => traceOfTree(tree));
  // The tsTON wallet that burns: owner and master from its stored state (balance, owner, master, code).
  const acc = JSON.parse(readFileSync(vectorPath('accounts', 'fatblock_jetton_93503d3a.json'), 'utf8')) as {
    boc_base64: string;
  };
  const st = loadShardAccount(Cell.fromBase64(acc.boc_base64).beginParse()).account;
  if (st?.storage.state.type !== 'active' || !st.storage.state.state.data) throw new Error('tsTON wallet not active');
  const s = st.storage.state.state.data.beginParse();
  s.loadCoins();
  const owner = rawOf(s.loadAddress());
  const jetton = rawOf(s.loadAddress());
  const interfaces = new Map<string, ContractInfo>([[rawOf(st.addr), { jettonWallet: { jetton, owner } }]]);
  return { traces, core, interfaces };
}

/** The inbound internal message of a node, straight from its transaction cell. */
function inbound(l: Loaded, n: TraceNode) {
  const m = l.core.get(n.tx.hash)!.inMessage!;
  if (m.info.type !== 'internal') throw new Error('expected an internal message');
  return { src: rawOf(m.info.src), dest: rawOf(m.info.dest), value: m.info.value.coins, body: m.body };
}

const traceWith = (l: Loaded, op: number) => {
  const t = l.traces.find((x) => x.nodes.some((n) => n.tx.inMsg?.opcode === op && n.tx.inMsg.source !== null));
  if (!t) throw new Error(`no trace with op ${op.toString(16)} in ${BLOCK}`);
  return t;
};
const nodeWith = (t: TraceInput, op: number) => t.nodes.find((n) => n.tx.inMsg?.opcode === op && !n.tx.inMsg.bounced)!;
const one = (actions: Action[], type: string) => {
  const found = actions.filter((a) => a.type === type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

describe.skipIf(!hasVectors)('Tonstakers in mainnet block 71398501', () => {
  const l = hasVectors ? load() : (undefined as unknown as Loaded);

  it('the deposit is a stake_deposit: value less the 1 TON fee, the tsTON the minter sent, the public pool', () => {
    const trace = traceWith(l, OP.deposit);
    const dep = nodeWith(trace, OP.deposit);
    const mint = nodeWith(trace, OP.mint);
    const it_ = nodeWith(trace, OP.internalTransfer);
    const d = inbound(l, dep);
    const m = inbound(l, mint);
    const t = inbound(l, it_);
    // internal_transfer#178d4519 query_id:uint64 amount:Coins ...
    const s = t.body.beginParse();
    expect(s.loadUint(32)).toBe(OP.internalTransfer);
    s.loadUintBig(64);
    const minted = s.loadCoins();
    // The chain as the messages say: staker -> pool -> minter -> staker's tsTON wallet.
    expect([d.dest, m.src, m.dest, t.src]).toEqual([POOL, POOL, TSTON, TSTON]);
    expect(d.body.beginParse().loadUint(32)).toBe(OP.deposit);

    const actions = classifyTrace(trace, interfacesOf(l.interfaces));
    const a = one(actions, 'stake_deposit');
    expect(a.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: d.src,
      pool: POOL,
      amount: (d.value - 1_000_000_000n).toString(),
      tokens_minted: minted.toString(),
      asset: TSTON,
    });
    expect(a.details.amount).toBe('520000000000');
    expect(a.success).toBe(true);
    expect([a.source, a.destination, a.asset, a.amount]).toEqual([d.src, POOL, TSTON, d.value - 1_000_000_000n]);
    expect([POOL, TSTON]).toEqual([TONSTAKERS_MAINNET.pool, TONSTAKERS_MAINNET.tsTonMaster]);
    // Every transaction of the trace belongs to it: the staker's external (initiator), pool, minter, tsTON wallet,
    // and the staker's wallet taking the notification and the excess.
    expect(a.txHashes).toEqual([...trace.nodes].sort((x, y) => (x.tx.lt < y.tx.lt ? -1 : 1)).map((n) => n.tx.hash));
    expect(a.accounts).toEqual([...new Set([d.src, POOL, TSTON, it_.tx.account])].sort());
    // Nothing else: no jetton_transfer or call_contract for its parts.
    expect(actions.map((x) => x.type)).toEqual(['stake_deposit']);
  });

  it('the tsTON burn is an immediate stake_withdrawal: payout less the withdraw message, tokens burnt', () => {
    const trace = traceWith(l, OP.burn);
    const burn = nodeWith(trace, OP.burn);
    const note = nodeWith(trace, OP.burnNotification);
    const req = nodeWith(trace, OP.withdraw);
    const pay = nodeWith(trace, OP.withdrawal);
    const b = inbound(l, burn);
    const r = inbound(l, req);
    const p = inbound(l, pay);
    // burn#595f07bc query_id:uint64 amount:Coins ...
    const s = b.body.beginParse();
    expect(s.loadUint(32)).toBe(OP.burn);
    s.loadUintBig(64);
    const burnt = s.loadCoins();
    expect([inbound(l, note).dest, r.src, r.dest, p.src, p.dest]).toEqual([TSTON, TSTON, POOL, POOL, b.src]);
    expect(l.interfaces.get(burn.tx.account)?.jettonWallet).toEqual({ jetton: TSTON, owner: b.src });

    const actions = classifyTrace(trace, interfacesOf(l.interfaces));
    const a = one(actions, 'stake_withdrawal');
    expect(a.details).toEqual({
      provider: 'liquid_staking',
      stake_holder: b.src,
      pool: POOL,
      amount: (p.value - r.value).toString(),
      payout_nft: null,
      tokens_burnt: burnt.toString(),
      asset: TSTON,
    });
    expect(a.success).toBe(true);
    expect([a.source, a.destination, a.asset, a.amount]).toEqual([b.src, POOL, TSTON, p.value - r.value]);
    expect(a.txHashes).toEqual([...trace.nodes].sort((x, y) => (x.tx.lt < y.tx.lt ? -1 : 1)).map((n) => n.tx.hash));
    // The staker's wallet, its tsTON wallet, the minter and the pool.
    expect(a.accounts).toEqual([...new Set([b.src, burn.tx.account, TSTON, POOL])].sort());
    expect(actions.map((x) => x.type)).toEqual(['stake_withdrawal']);
  });

  it('action ids are the same on every classification of the block', () => {
    const ids = (x: Loaded) =>
      [OP.deposit, OP.burn].flatMap((op) =>
        classifyTrace(traceWith(x, op), interfacesOf(x.interfaces)).map((a) => `${a.type}:${a.actionId}`),
      );
    const first = ids(l);
    expect(ids(load())).toEqual(first);
    expect(new Set(first).size).toBe(2);
  });
});
