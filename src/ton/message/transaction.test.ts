import { Address, beginCell, fromNano, loadMessage, storeMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { readmeFiles } from '../vectors-readme.test-util.ts';
import { messageView } from './message-view.ts';
import { blockFromVector, cellFromBase64 } from './test-helpers.ts';
import { type TransactionDescr, transactionFromCell, transactionHash, transactionToCell } from './transaction.ts';
import { transactionSucceeded, transactionView } from './transaction-view.ts';

// What the collector decoded with @ton/core's loadTransaction (an independent decoder) — see
// vectors/README.md; `expected` holds what each vector's source asserts.
interface DecodedMsg {
  type: 'internal' | 'external-in' | 'external-out';
  src?: string;
  dest?: string;
  value?: string;
  bounce?: boolean;
  bounced?: boolean;
  createdLt?: string;
  fwdFee?: string;
  opcode?: string;
  bodyHash: string;
  hasInit?: boolean;
}
interface TxVector {
  ids: { tx_hash_hex: string; tx_hash_base64: string; lt: string; account: string; now: number };
  source: { extracted_from_block_vector?: string };
  expected: Record<string, unknown>;
  boc_base64: string;
  verification: {
    decoded: {
      prevTransHash: string;
      prevTransLt: string;
      outMessagesCount: number;
      oldStatus: string;
      endStatus: string;
      totalFees: string;
      descType: 'generic' | 'tick-tock';
      compute: {
        type: 'vm' | 'skipped';
        success?: boolean;
        exitCode?: number;
        gasUsed?: string;
        vmSteps?: number;
        reason?: string;
      };
      action?: { success: boolean; resultCode: number; totalActions: number } | null;
      bounce?: string | null;
      aborted: boolean;
      inMsg?: DecodedMsg;
      outMsgs: DecodedMsg[];
    };
  };
  account_state_before_block?: { account_root_hash: string };
}

const STATUS: Record<string, string> = {
  active: 'acc_state_active',
  'non-existing': 'acc_state_nonexist',
  uninitialized: 'acc_state_uninit',
  frozen: 'acc_state_frozen',
};
const MSG_KIND: Record<string, string> = {
  internal: 'int_msg_info',
  'external-in': 'ext_in_msg_info',
  'external-out': 'ext_out_msg_info',
};

const vectors = loadVectors<TxVector>('transactions');

function workchainOf(v: TxVector): number {
  return Number(v.ids.account.split(':')[0]);
}

function computeOf(d: TransactionDescr) {
  if (d.kind !== 'trans_ord' && d.kind !== 'trans_tick_tock') throw new Error(`unexpected ${d.kind}`);
  return d;
}

describe.skipIf(!hasVectors)('transactions/*.json: real transactions', () => {
  it('has the vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(40);
  });

  it.each(vectors.map((v) => [v.file, v.data] as const))(
    '%s decodes to the ids and re-encodes bit-exactly',
    (_f, v) => {
      const cell = cellFromBase64(v.boc_base64);
      const tx = transactionFromCell(cell);
      expect(transactionHash(tx).toString('hex')).toBe(v.ids.tx_hash_hex);
      expect(transactionHash(tx).toString('base64')).toBe(v.ids.tx_hash_base64);
      expect(tx.lt).toBe(BigInt(v.ids.lt));
      expect(`${workchainOf(v)}:${tx.accountAddr.toString('hex')}`).toBe(v.ids.account);
      expect(tx.now).toBe(v.ids.now);
      const again = transactionToCell(tx);
      expect(again.equals(cell)).toBe(true);
      expect(again.toBoc().equals(cell.toBoc())).toBe(true);
    },
  );

  it.each(vectors.map((v) => [v.file, v.data] as const))('%s agrees with @ton/core on every field', (_f, v) => {
    const tx = transactionFromCell(cellFromBase64(v.boc_base64));
    const d = v.verification.decoded;
    expect(tx.prevTransHash.toString('hex')).toBe(d.prevTransHash);
    expect(tx.prevTransLt).toBe(BigInt(d.prevTransLt));
    expect(tx.outmsgCnt).toBe(d.outMessagesCount);
    expect(tx.outMsgs).toHaveLength(d.outMessagesCount);
    expect(tx.origStatus).toBe(STATUS[d.oldStatus]);
    expect(tx.endStatus).toBe(STATUS[d.endStatus]);
    expect(tx.totalFees.coins).toBe(BigInt(d.totalFees));
    const descr = computeOf(tx.description);
    expect(descr.kind).toBe(d.descType === 'generic' ? 'trans_ord' : 'trans_tick_tock');
    expect(descr.aborted).toBe(d.aborted);
    const c = descr.computePh;
    if (d.compute.type === 'skipped') {
      expect(c).toEqual({ kind: 'tr_phase_compute_skipped', reason: `cskip_${d.compute.reason?.replace('-', '_')}` });
    } else {
      if (c.kind !== 'tr_phase_compute_vm') throw new Error('expected a VM compute phase');
      expect(c.success).toBe(d.compute.success);
      expect(c.exitCode).toBe(d.compute.exitCode);
      expect(c.gasUsed).toBe(BigInt(d.compute.gasUsed!));
      expect(c.vmSteps).toBe(d.compute.vmSteps);
    }
    if (d.action) {
      expect(descr.action).toMatchObject({
        success: d.action.success,
        resultCode: d.action.resultCode,
        totActions: d.action.totalActions,
      });
    } else {
      expect(descr.action).toBeNull();
    }
    const bounce = descr.kind === 'trans_ord' ? descr.bounce : null;
    const bounceName = { 'no-funds': 'tr_phase_bounce_nofunds', ok: 'tr_phase_bounce_ok' }[d.bounce ?? ''];
    expect(bounce?.kind ?? null).toBe(bounceName ?? null);

    const msgs = [...(tx.inMsg ? [tx.inMsg] : []), ...tx.outMsgs];
    const want = [...(d.inMsg ? [d.inMsg] : []), ...d.outMsgs];
    expect(msgs).toHaveLength(want.length);
    msgs.forEach((m, i) => {
      const w = want[i]!;
      const view = messageView(m);
      expect(m.info.kind).toBe(MSG_KIND[w.type]);
      expect(view.bodyHash.toString('hex')).toBe(w.bodyHash);
      expect(view.initState !== null).toBe(w.hasInit === true);
      expect(view.opcode === null ? undefined : `0x${(view.opcode >>> 0).toString(16).padStart(8, '0')}`).toBe(
        w.opcode,
      );
      if (w.dest) expect(view.destination?.toRawString()).toBe(w.dest);
      if (w.src) expect(view.source?.toRawString()).toBe(w.src);
      if (w.type === 'internal') {
        expect(view.value).toBe(BigInt(w.value!));
        expect(view.bounce).toBe(w.bounce);
        expect(view.bounced).toBe(w.bounced);
        expect(view.createdLt).toBe(BigInt(w.createdLt!));
        expect(view.fwdFee).toBe(BigInt(w.fwdFee!));
      }
    });
  });

  it('checks every assertion the sources make', () => {
    let asserted = 0;
    for (const { file, data: v } of vectors) {
      const tx = transactionFromCell(cellFromBase64(v.boc_base64));
      const e = v.expected;
      const view = transactionView(tx, { workchain: workchainOf(v), globalVersion: 0 });
      if (typeof e.tx_hash === 'string') {
        expect(view.hash.toString('hex'), file).toBe(e.tx_hash.toLowerCase());
        asserted++;
      }
      if (typeof e.tx_hash_base64 === 'string') {
        expect(view.hash.toString('base64'), file).toBe(e.tx_hash_base64);
        asserted++;
      }
      if (typeof e.lt === 'string') {
        expect(view.lt, file).toBe(BigInt(e.lt));
        asserted++;
      }
      if (typeof e.account === 'string') {
        expect(view.account.equals(Address.parse(e.account)), file).toBe(true);
        asserted++;
      }
      if (typeof e.is_success === 'boolean') {
        expect(transactionSucceeded(tx.description), file).toBe(e.is_success);
        expect(view.success, file).toBe(e.is_success);
        asserted++;
      }
      if (typeof e.in_value_ton === 'string') {
        // tonutils-go's String(): "In: 2.1 TON, From EQ…, Out: 2.084509999 TON, To [EQ…]"
        expect(fromNano(view.inMsg!.value!), file).toBe(e.in_value_ton);
        expect(view.inMsg!.source!.toString(), file).toBe(e.in_from);
        expect(fromNano(view.outMsgs.reduce((a, m) => a + (m.value ?? 0n), 0n)), file).toBe(e.out_value_ton);
        expect(
          view.outMsgs.map((m) => m.destination!.toString()),
          file,
        ).toEqual(e.out_to);
        asserted++;
      }
      if (e.in_block && v.source.extracted_from_block_vector) {
        const inBlock = e.in_block as { root_hash: string };
        const bv = loadVector<{ boc_base64: string }>(...v.source.extracted_from_block_vector.split('/'));
        const block = blockFromVector(bv.boc_base64, v.source.extracted_from_block_vector);
        expect(block.root.hash().toString('hex'), file).toBe(inBlock.root_hash);
        expect(
          block.txs.some((t) => t.cell.hash().equals(view.hash)),
          file,
        ).toBe(true);
        asserted++;
      }
    }
    expect(asserted).toBeGreaterThanOrEqual(45);
  });

  it('account states before the block are the first transactions’ old state hashes', () => {
    let asserted = 0;
    for (const { file, data: v } of vectors) {
      const before = v.account_state_before_block;
      const blockFile = v.source.extracted_from_block_vector;
      if (!before || !blockFile) continue;
      const tx = transactionFromCell(cellFromBase64(v.boc_base64));
      const block = blockFromVector(loadVector<{ boc_base64: string }>(...blockFile.split('/')).boc_base64, blockFile);
      const first = block.txs
        .filter((t) => t.accountAddr.equals(tx.accountAddr))
        .sort((a, b) => (a.lt < b.lt ? -1 : 1))[0]!;
      const firstTx = transactionFromCell(first.cell);
      // HASH_UPDATE Account: old_hash of the account's first transaction in the block = its state before.
      expect(firstTx.stateUpdate.oldHash.toString('hex'), file).toBe(before.account_root_hash);
      asserted++;
    }
    expect(asserted).toBeGreaterThanOrEqual(15);
  });

  it('keeps message layouts that @ton/core’s storeMessage would change', () => {
    // contract_deploy_03b35a0e: its in_msg carries init and body in refs although both would fit inline.
    const v = vectors.find((x) => x.file === 'contract_deploy_03b35a0e.json')!.data;
    const tx = transactionFromCell(cellFromBase64(v.boc_base64));
    const m = tx.inMsg!;
    expect(m.initInRef).toBe(true);
    expect(m.bodyInRef).toBe(true);
    const core = beginCell()
      .store(storeMessage(loadMessage(m.raw!.beginParse())))
      .endCell();
    expect(core.equals(m.raw!)).toBe(false);
    expect(transactionToCell(tx).equals(tx.raw!)).toBe(true);
  });
});

interface ReplayVector {
  expected: { tx_hash: string; to_shard_account_last_trans_hash_equals_tx_hash: boolean };
  from_shard_account_boc_base64: string;
  to_shard_account_boc_base64: string;
  tx_boc_base64: string;
}

describe.skipIf(!hasVectors)('replay/*.json: transactions between two account states', () => {
  const replays = loadVectors<ReplayVector>('replay');

  it('runs over the two replay vectors the README lists', () => {
    const listed = readmeFiles('replay');
    expect(listed.length).toBe(2);
    expect(replays.map((r) => `replay/${r.file}`)).toEqual(listed);
  });

  it.each(replays.map((r) => [r.file, r.data] as const))('%s', (_f, v) => {
    const cell = cellFromBase64(v.tx_boc_base64);
    const tx = transactionFromCell(cell);
    expect(transactionHash(tx).toString('hex')).toBe(v.expected.tx_hash);
    expect(transactionToCell(tx).equals(cell)).toBe(true);
    // account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
    const before = cellFromBase64(v.from_shard_account_boc_base64);
    const after = cellFromBase64(v.to_shard_account_boc_base64);
    expect(tx.stateUpdate.oldHash.equals(before.refs[0]!.hash())).toBe(true);
    expect(tx.stateUpdate.newHash.equals(after.refs[0]!.hash())).toBe(true);
    const s = after.beginParse();
    s.loadRef();
    expect(s.loadBuffer(32).equals(transactionHash(tx))).toBe(
      v.expected.to_shard_account_last_trans_hash_equals_tx_hash,
    );
    expect(s.loadUintBig(64)).toBe(tx.lt);
    const b = before.beginParse();
    b.loadRef();
    expect(b.loadBuffer(32).equals(tx.prevTransHash)).toBe(true);
    expect(b.loadUintBig(64)).toBe(tx.prevTransLt);
  });
});
