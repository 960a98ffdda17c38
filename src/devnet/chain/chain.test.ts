// A two-shard devnet over several steps, every block judged by the independent checks of
// chain-check.test-util.ts: split bootstrap from the workchain zero state, a v4r2 wallet deployed by an external
// message, a transfer to a wallet in the other shard (delivered by that shard's next block, then dequeued at
// the source), a bounce from a missing account, a deploy whose compute phase fails, a rejected external, and
// conservation of value across all chains.
import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  type Cell,
  contractAddress,
  loadShardStateUnsplit as coreLoadShardState,
  external,
  internal,
  loadTransaction,
  SendMode,
  storeMessage,
  toNano,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadBlockCell,
  loadShardStateUnsplit,
  oldMcBlocksInfoEntries,
  outMsgQueueEntries,
  storeMsgEnvelope,
  transactionFromCell,
} from '../../ton/index.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../genesis/index.ts';
import { checkBlock, checkMcBlock, coreBalanceSum } from './chain-check.test-util.ts';
import { viewMc } from './chain-view.ts';
import { type ChainTops, collateStep, type StepResult } from './step.ts';
import { createExecutorTvm } from './test-support.ts';
import type { ChainTop, ChainTvm, CollatedBlock } from './types.ts';
import { createZeroStates, uninitAccount, type ZeroStates } from './zero-state.ts';

const GEN_UTIME = 1_700_000_000;
const keys = deriveGenesisKeys('collator-test');
const validator = { seed: keys.validator.seed, publicKey: keys.validator.publicKey };
const layout = shardLayout(2);
const wkey = keyPairFromSeed(createHash('sha256').update('collator-test-wallet').digest());

/** Two v4r2 wallets of one key, in different shards (the first address bit decides). */
function twoWallets(): [WalletContractV4, WalletContractV4] {
  const found: WalletContractV4[] = [];
  for (let id = 0; found.length < 2; id++) {
    const w = WalletContractV4.create({ workchain: 0, publicKey: wkey.publicKey, walletId: id });
    if (!found.some((x) => (x.address.hash[0] as number) >> 7 === (w.address.hash[0] as number) >> 7)) found.push(w);
  }
  return found as [WalletContractV4, WalletContractV4];
}

const [A, B] = twoWallets();
/** A wallet in the masterchain: its messages go to and come from the shards' queues. */
const M = WalletContractV4.create({ workchain: -1, publicKey: wkey.publicKey, walletId: 7 });
const missing = Address.parse(`0:${'ab'.repeat(32)}`);
const thrower = { code: beginCell().storeUint(0xf22a, 16).endCell(), data: beginCell().endCell() }; // 42 THROW
const throwerAddr = contractAddress(0, thrower);

function walletExternal(
  w: WalletContractV4,
  seqno: number,
  messages: ReturnType<typeof internal>[],
  deploy: boolean,
): Cell {
  const body = w.createTransfer({
    seqno,
    secretKey: wkey.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: GEN_UTIME + 100_000,
  });
  return beginCell()
    .store(storeMessage(external({ to: w.address, init: deploy ? w.init : undefined, body })))
    .endCell();
}

interface Collated {
  block: CollatedBlock;
  prev: ChainTop;
  mcRef: ChainTop | undefined;
  step: number;
}

let genesis: ZeroStates;
const steps: StepResult[] = [];
const all: Collated[] = [];
const emulated = new Map<string, Cell>();
const plan: Record<number, Cell[]> = {};

beforeAll(async () => {
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: GEN_UTIME,
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
  });
  genesis = createZeroStates({
    config,
    accounts: [uninitAccount(A.address, toNano('1000')), uninitAccount(B.address, toNano('1000'))],
    masterchainAccounts: [
      uninitAccount(Address.parse(`-1:${'55'.repeat(32)}`), 4_000_000_000_000_000_000n),
      uninitAccount(M.address, toNano('1000')),
    ],
    layout,
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
  const executor = await createExecutorTvm();
  const tvm: ChainTvm = {
    async runTransaction(a) {
      const r = await executor.runTransaction(a);
      if (r.ok) emulated.set(r.transaction.hash().toString('hex'), r.shardAccount);
      return r;
    },
  };
  plan[4] = [
    walletExternal(A, 0, [], true),
    walletExternal(M, 0, [], true),
    walletExternal(B, 0, [], false), // B has no code yet: not accepted
  ];
  plan[5] = [
    walletExternal(
      A,
      1,
      [
        internal({ to: B.address, value: toNano('5'), bounce: false, body: 'to the other shard' }),
        internal({ to: missing, value: toNano('1'), bounce: true }),
        internal({ to: throwerAddr, value: toNano('1'), bounce: true, init: thrower }),
        internal({ to: M.address, value: toNano('3'), bounce: true, body: 'to the masterchain' }),
      ],
      false,
    ),
    walletExternal(
      M,
      1,
      [internal({ to: B.address, value: toNano('2'), bounce: false, body: 'from the masterchain' })],
      false,
    ),
  ];
  let tops: ChainTops = { mc: genesis.masterchain, shards: [genesis.workchain] };
  for (let step = 1; step <= 9; step++) {
    const r = await collateStep(tops, {
      now: GEN_UTIME + 2 * step,
      seed: Buffer.from(`step ${step}`),
      externals: plan[step] ?? [],
      tvm,
      validator,
      layout,
    });
    for (const b of r.shardBlocks) {
      const prev = tops.shards.find((s) => s.id.rootHash.equals(b.prev.rootHash)) as ChainTop;
      all.push({ block: b, prev, mcRef: tops.mc, step });
    }
    all.push({ block: r.mcBlock, prev: tops.mc, mcRef: undefined, step });
    steps.push(r);
    tops = r.tops;
  }
}, 180_000);

function txsOf(account: Address) {
  const hex = account.hash.toString('hex');
  return all.flatMap((c) =>
    c.block.transactions
      .filter((t) => t.account.toString('hex') === hex)
      .map((t) => ({ c, t, tx: loadTransaction(t.cell.beginParse()) })),
  );
}

describe('zero states', () => {
  it('put the workchain zero state into ConfigParam 12 and start the chain from both', () => {
    const first = all[0] as Collated;
    expect(first.block.id.workchain).toBe(-1);
    expect(first.prev.id.rootHash.equals(genesis.masterchain.id.rootHash)).toBe(true);
    const shards = viewMc(first.block).shards;
    expect(shards.length).toBe(1);
    expect(shards[0]?.descr.rootHash.equals(genesis.workchain.id.rootHash)).toBe(true);
    expect(shards[0]?.descr.fileHash.equals(genesis.workchain.id.fileHash)).toBe(true);
  });
});

describe('every block', () => {
  it('parses, re-encodes bit-exactly, links to its predecessor and balances (independent checks)', () => {
    expect(all.length).toBeGreaterThan(20);
    for (const c of all) checkBlock(c.block, { prev: c.prev, mcRef: c.mcRef, emulated });
  });

  it('masterchain blocks list every shard block of their step with its real hashes and are signed', () => {
    for (const r of steps) checkMcBlock(r.mcBlock, r.tops.shards, validator.publicKey);
  });

  it('masterchain prev_blocks hold every earlier masterchain block, the zero state included', () => {
    const last = steps.at(-1)?.mcBlock as CollatedBlock;
    const st = loadShardStateUnsplit(last.state.beginParse());
    const r1 = (st.custom as { r1: { prevBlocks: Parameters<typeof oldMcBlocksInfoEntries>[0] } }).r1;
    const entries = oldMcBlocksInfoEntries(r1.prevBlocks).entries;
    const ids = [genesis.masterchain.id, ...steps.slice(0, -1).map((s) => s.mcBlock.id)];
    expect(entries.map((e) => Number(e.key))).toEqual(ids.map((i) => i.seqno));
    entries.forEach((e, i) => {
      expect(e.value.blkRef.rootHash.equals((ids[i] as { rootHash: Buffer }).rootHash)).toBe(true);
      expect(e.value.blkRef.fileHash.equals((ids[i] as { fileHash: Buffer }).fileHash)).toBe(true);
    });
    expect(entries[0]?.value.key).toBe(true); // the zero state counts as a key state
  });
});

describe('the fixed split', () => {
  it('starts from the zero state: one before_split block, then after_split children pointing at it', () => {
    const wc = all.filter((c) => c.block.id.workchain === 0);
    const first = wc[0] as Collated;
    expect(first.block.id.shard).toBe(0x8000000000000000n);
    expect(first.block.info.beforeSplit).toBe(true);
    expect(first.prev.id.rootHash.equals(genesis.workchain.id.rootHash)).toBe(true);
    const kids = wc.filter((c) => c.block.info.afterSplit);
    expect(kids.map((c) => c.block.id.shard).sort()).toEqual([...layout].sort());
    for (const k of kids) expect(k.block.prev.rootHash.equals(first.block.id.rootHash)).toBe(true);
    const lastShards = steps.at(-1)?.tops.shards.map((s) => s.id.shard);
    expect(lastShards).toEqual(layout);
  });
});

describe('the scenario', () => {
  it('deploys the v4r2 wallet with its first external message', () => {
    const [first] = txsOf(A.address);
    expect(first?.tx.inMessage?.info.type).toBe('external-in');
    expect(first?.tx.oldStatus).toBe('uninitialized');
    expect(first?.tx.endStatus).toBe('active');
    const inMsgs = loadBlockCell(first?.c.block.block as Cell).extra.inMsgDescr.entries;
    expect(inMsgs.some((e) => e.value.kind === 'msg_import_ext')).toBe(true);
  });

  it('rejects an external the account does not accept, with no transaction', () => {
    const rejected = all.flatMap((c) => c.block.rejected);
    expect(rejected.length).toBe(1);
    const refused = plan[4]?.[2];
    if (!refused) throw new Error('plan lost its third external');
    expect(rejected[0]?.hash.equals(refused.hash())).toBe(true);
    expect(txsOf(B.address).every((x) => x.tx.inMessage?.info.type !== 'external-in')).toBe(true);
  });

  it('delivers the transfer in a later block of the other shard, then dequeues it at the source', () => {
    const send = txsOf(A.address).find((x) => x.tx.outMessagesCount === 4);
    expect(send).toBeDefined();
    const toB = [...(send?.tx.outMessages.values() ?? [])].find(
      (m) => m.info.dest?.toString() === B.address.toString(),
    );
    const msgCell = beginCell()
      .store(storeMessage(toB as never))
      .endCell();
    const key = BigInt(`0x${msgCell.hash().toString('hex')}`);
    const srcBlock = loadBlockCell(send?.c.block.block as Cell);
    expect(srcBlock.extra.outMsgDescr.entries.find((e) => e.key === key)?.value.kind).toBe('msg_export_new');

    const recv = txsOf(B.address).find((x) => x.tx.inMessage?.info.type === 'internal');
    expect(recv).toBeDefined();
    expect(recv?.c.block.id.shard).not.toBe(send?.c.block.id.shard);
    expect(recv?.c.step).toBeGreaterThan(send?.c.step as number);
    expect(recv?.t.lt).toBeGreaterThan(send?.t.lt as bigint);
    const dstBlock = loadBlockCell(recv?.c.block.block as Cell);
    const imp = dstBlock.extra.inMsgDescr.entries.find((e) => e.key === key);
    expect(imp?.value.kind).toBe('msg_import_fin');

    const deq = all
      .filter((c) => c.block.id.shard === send?.c.block.id.shard && c.step > (recv?.c.step as number) - 1)
      .map((c) => ({ c, e: loadBlockCell(c.block.block).extra.outMsgDescr.entries.find((x) => x.key === key) }))
      .find((x) => x.e);
    expect(deq?.e?.value.kind).toBe('msg_export_deq_short');
    if (deq?.e?.value.kind === 'msg_export_deq_short' && imp?.value.kind === 'msg_import_fin') {
      expect(deq.e.value.importBlockLt).toBe(recv?.c.block.endLt);
      expect(deq.e.value.msgEnvHash.equals(srcEnvelopeHash(srcBlock, key))).toBe(true);
      expect(deq.c.step).toBeGreaterThan(recv?.c.step as number);
    }
  });

  it('carries messages between the masterchain and the shards both ways, via the queues', () => {
    const [deploy, send] = txsOf(M.address).filter((x) => x.tx.inMessage?.info.type === 'external-in');
    expect(deploy?.c.block.id.workchain).toBe(-1);
    expect(send?.tx.outMessagesCount).toBe(1);
    const fromA = txsOf(M.address).find((x) => x.tx.inMessage?.info.type === 'internal');
    expect(fromA?.c.block.id.workchain).toBe(-1);
    const aSend = txsOf(A.address).find((x) => x.tx.outMessagesCount === 4);
    expect(fromA?.c.step).toBeGreaterThanOrEqual(aSend?.c.step as number);
    expect(fromA?.t.lt).toBeGreaterThan(aSend?.t.lt as bigint);
    const toB = txsOf(B.address).find(
      (x) => x.tx.inMessage?.info.type === 'internal' && x.tx.inMessage.info.src.equals(M.address),
    );
    expect(toB).toBeDefined();
    expect(toB?.c.step).toBeGreaterThan(send?.c.step as number);
    const imp = loadBlockCell(toB?.c.block.block as Cell).extra.inMsgDescr.entries.find(
      (e) => e.value.kind === 'msg_import_fin',
    );
    expect(imp).toBeDefined();
    // Both source queues were cleaned up once the destinations had imported: every queue is empty at the end.
  });

  it('bounces the message to a missing account back to the sender', () => {
    const [bounce] = txsOf(missing);
    const d = transactionFromCell(bounce?.t.cell as Cell).description;
    expect(d.kind === 'trans_ord' && d.computePh.kind).toBe('tr_phase_compute_skipped');
    expect(d.kind === 'trans_ord' && d.bounce?.kind).toBe('tr_phase_bounce_ok');
    const back = txsOf(A.address).find(
      (x) =>
        x.tx.inMessage?.info.type === 'internal' &&
        x.tx.inMessage.info.bounced &&
        x.tx.inMessage.info.src.equals(missing),
    );
    expect(back).toBeDefined();
    expect(back?.c.step).toBeGreaterThan(bounce?.c.step as number);
  });

  it('deploys a contract whose compute phase fails (exit code 42) and bounces its value', () => {
    const [t] = txsOf(throwerAddr);
    const d = transactionFromCell(t?.t.cell as Cell).description;
    if (d.kind !== 'trans_ord' || d.computePh.kind !== 'tr_phase_compute_vm')
      throw new Error('expected a VM compute phase');
    expect(d.computePh.success).toBe(false);
    expect(d.computePh.exitCode).toBe(42);
    expect(d.bounce?.kind).toBe('tr_phase_bounce_ok');
    expect(t?.tx.endStatus).toBe('active');
  });

  it('conserves value: balances, validator fees and burnt fees add up to the global balance', () => {
    const last = steps.at(-1) as StepResult;
    let queued = 0;
    for (const s of [last.mcBlock, ...last.tops.shards]) {
      const st = loadShardStateUnsplit(s.state.beginParse());
      queued += outMsgQueueEntries(
        (st.outMsgQueueInfo as { outQueue: Parameters<typeof outMsgQueueEntries>[0] }).outQueue,
      ).entries.length;
    }
    expect(queued).toBe(0);
    const balances = [last.mcBlock, ...last.tops.shards].reduce((s, t) => s + coreBalanceSum(t.state), 0n);
    const mcState = coreLoadShardState(last.mcBlock.state.beginParse());
    const burned = all.reduce(
      (s, c) => s + (c.block.valueFlow.kind === 'value_flow_v2' ? c.block.valueFlow.burned.coins : 0n),
      0n,
    );
    const validatorFees = loadShardStateUnsplit(last.mcBlock.state.beginParse()).r1 as {
      totalValidatorFees: { coins: bigint };
    };
    const global = (
      loadShardStateUnsplit(last.mcBlock.state.beginParse()).custom as { globalBalance: { coins: bigint } }
    ).globalBalance;
    expect(balances + validatorFees.totalValidatorFees.coins + burned).toBe(global.coins);
    // ton-lite-client reads the config through @ton/core's parser (ton-libs.md §4.3): it must find param 34.
    expect(mcState.extras?.config.get(34)).toBeDefined();
  });
});

function srcEnvelopeHash(block: ReturnType<typeof loadBlockCell>, key: bigint): Buffer {
  const e = block.extra.outMsgDescr.entries.find((x) => x.key === key);
  if (e?.value.kind !== 'msg_export_new') throw new Error('no msg_export_new');
  return beginCell().store(storeMsgEnvelope(e.value.outMsg)).endCell().hash();
}
