// The runner against the real emulator, on a worker thread (threads: 1) and in-process (threads: 0). Expected values
// come from outside our code: the wallet contracts' own exit codes and get-methods, @ton/ton's key derivation,
// @ton/core's parsers and TON's transaction rules (lt linkage, bounce semantics).
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  getMethodId,
  internal,
  loadShardAccount,
  type Message,
  SendMode,
  serializeTuple,
  storeMessage,
  storeShardAccount,
  toNano,
} from '@ton/core';
import { keyPairFromSeed, sha256_sync } from '@ton/crypto';
import { Executor } from '@ton/sandbox';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTongateError } from '../common/errors.ts';
import { buildDevnetConfig, DEVNET_GLOBAL_ID, deriveGenesisKeys } from '../devnet/genesis/index.ts';
import { loadShardAccount as loadShardAccountExact, msgAddressToAddress, transactionFromCell } from '../ton/index.ts';
import { directEmulator } from './emulate-direct.ts';
import { createTvmRunner, type TvmRunnerHandle, type TvmTxResult } from './index.ts';
import type { WireBlockId } from './wire.ts';

const NOW = 1_760_000_000;
const SEED = Buffer.alloc(32, 0x5a);
const genesis = deriveGenesisKeys('tvm-runner-test');
const config = buildDevnetConfig({
  validatorPublicKey: genesis.validator.publicKey,
  genUtime: NOW - 3600,
  wcZeroStateRootHash: sha256_sync('zero state root'),
  wcZeroStateFileHash: sha256_sync('zero state file'),
});
const owner = keyPairFromSeed(sha256_sync('tvm-runner-test v4r2 owner'));
const stranger = keyPairFromSeed(sha256_sync('tvm-runner-test stranger'));
const wallet = WalletContractV4.create({ publicKey: owner.publicKey, workchain: 0 });
const v5 = WalletContractV5R1.create({
  publicKey: owner.publicKey,
  walletId: { networkGlobalId: DEVNET_GLOBAL_ID, context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 } },
});
const treasury = WalletContractV4.create({ publicKey: stranger.publicKey, workchain: 0 }).address;
const nowhere = WalletContractV4.create({ publicKey: stranger.publicKey, workchain: 0, walletId: 7 }).address;

function emptyShardAccount(): Cell {
  return beginCell()
    .store(storeShardAccount({ account: undefined, lastTransactionHash: 0n, lastTransactionLt: 0n }))
    .endCell();
}

function internalMsg(p: {
  src: Address;
  dest: Address;
  value: bigint;
  bounce: boolean;
  createdLt: bigint;
  body?: Cell;
  init?: { code: Cell; data: Cell };
}): Cell {
  const m: Message = {
    info: {
      type: 'internal',
      src: p.src,
      dest: p.dest,
      value: { coins: p.value },
      bounce: p.bounce,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: p.createdLt,
      createdAt: NOW,
    },
    body: p.body ?? Cell.EMPTY,
    ...(p.init ? { init: p.init } : {}),
  };
  return beginCell().store(storeMessage(m)).endCell();
}

function externalMsg(to: Address, body: Cell, init?: { code: Cell; data: Cell }): Cell {
  return beginCell()
    .store(storeMessage(external({ to, body, ...(init ? { init } : {}) })))
    .endCell();
}

function accepted(r: TvmTxResult): Extract<TvmTxResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected a transaction, got: ${r.error} (exit ${r.exitCode})`);
  return r;
}

/** The account's code/data/balance as @ton/core reads the ShardAccount. */
function activeState(shardAccount: Cell): { code: Cell; data: Cell; balance: bigint } {
  const sa = loadShardAccount(shardAccount.beginParse());
  const st = sa.account?.storage.state;
  if (st?.type !== 'active' || !st.state.code || !st.state.data) throw new Error('account is not active');
  return { code: st.state.code, data: st.state.data, balance: sa.account!.storage.balance.coins };
}

describe.each([
  { threads: 1, mode: 'worker thread' },
  { threads: 0, mode: 'in-process' },
])('TVM runner ($mode)', ({ threads }) => {
  let runner: TvmRunnerHandle;
  let walletState = emptyShardAccount();
  let fundTx: Cell;

  beforeAll(async () => {
    runner = await createTvmRunner({ threads });
  });
  afterAll(async () => {
    await runner?.close();
  });

  const common = () => ({ config, libs: null, randomSeed: SEED });

  it('funds an empty account with a non-bounceable internal message, at our lt and now', async () => {
    const lt = 2_000_000n;
    const msg = internalMsg({
      src: treasury,
      dest: wallet.address,
      value: toNano('50'),
      bounce: false,
      createdLt: 1_000_001n,
    });
    const r = accepted(
      await runner.runTransaction({ ...common(), shardAccount: walletState, message: msg, now: NOW, lt }),
    );
    const tx = transactionFromCell(r.transaction);
    expect(tx.lt).toBe(lt);
    expect(tx.now).toBe(NOW);
    expect(tx.accountAddr.equals(wallet.address.hash)).toBe(true);
    expect([tx.origStatus, tx.endStatus]).toEqual(['acc_state_nonexist', 'acc_state_uninit']);
    const sa = loadShardAccountExact(r.shardAccount.beginParse());
    expect(sa.lastTransHash.equals(r.transaction.hash())).toBe(true);
    expect(sa.lastTransLt).toBe(lt);
    walletState = r.shardAccount;
    fundTx = r.transaction;
  });

  it('deploys a v4r2 wallet by a signed external message carrying its StateInit', async () => {
    const lt = 3_000_000n;
    const body = wallet.createTransfer({
      seqno: 0,
      secretKey: owner.secretKey,
      messages: [],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    const msg = externalMsg(wallet.address, body, wallet.init);
    const r = accepted(
      await runner.runTransaction({ ...common(), shardAccount: walletState, message: msg, now: NOW + 5, lt }),
    );
    const tx = transactionFromCell(r.transaction);
    expect(tx.lt).toBe(lt);
    expect(tx.now).toBe(NOW + 5);
    expect(tx.prevTransHash.equals(fundTx.hash())).toBe(true);
    expect(tx.prevTransLt).toBe(2_000_000n);
    expect([tx.origStatus, tx.endStatus]).toEqual(['acc_state_uninit', 'acc_state_active']);
    expect(tx.inMsg?.info.kind).toBe('ext_in_msg_info');
    const sa = loadShardAccount(r.shardAccount.beginParse());
    expect(sa.lastTransactionHash).toBe(BigInt(`0x${r.transaction.hash().toString('hex')}`));
    expect(activeState(r.shardAccount).code.equals(wallet.init.code)).toBe(true);
    walletState = r.shardAccount;
  });

  it('runs a transfer with a text comment', async () => {
    const lt = 4_000_000n;
    const body = wallet.createTransfer({
      seqno: 1,
      secretKey: owner.secretKey,
      messages: [internal({ to: treasury, value: toNano('1.5'), body: 'hello devnet', bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    const r = accepted(
      await runner.runTransaction({
        ...common(),
        shardAccount: walletState,
        message: externalMsg(wallet.address, body),
        now: NOW + 10,
        lt,
      }),
    );
    const tx = transactionFromCell(r.transaction);
    expect(tx.lt).toBe(lt);
    expect(tx.now).toBe(NOW + 10);
    expect(tx.outMsgs).toHaveLength(1);
    const out = tx.outMsgs[0]!;
    if (out.info.kind !== 'int_msg_info') throw new Error('expected an internal out message');
    expect(msgAddressToAddress(out.info.dest)?.equals(treasury)).toBe(true);
    expect(out.info.value.coins).toBe(toNano('1.5'));
    expect(out.info.createdLt).toBe(lt + 1n);
    expect(out.info.createdAt).toBe(NOW + 10);
    const s = out.body.beginParse();
    expect(s.loadUint(32)).toBe(0);
    expect(s.loadStringTail()).toBe('hello devnet');
    expect(r.actions).not.toBeNull();
    walletState = r.shardAccount;
  });

  it('refuses an external message with a bad signature, with the reason and the exit code', async () => {
    const body = wallet.createTransfer({
      seqno: 2,
      secretKey: stranger.secretKey,
      messages: [internal({ to: treasury, value: toNano('1'), bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    const msg = externalMsg(wallet.address, body);
    const r = await runner.runTransaction({
      ...common(),
      shardAccount: walletState,
      message: msg,
      now: NOW + 20,
      lt: 5_000_000n,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/not accepted/i);
    // wallet-v4-code.fc: throw_unless(35, check_signature(...)); a replayed seqno fails earlier with 33.
    expect(r.exitCode).toBe(35);
    expect(r.vmLog).toContain('CHKSIGNU');
    const replay = wallet.createTransfer({ seqno: 1, secretKey: owner.secretKey, messages: [], sendMode: 0 });
    const r2 = await runner.runTransaction({
      ...common(),
      shardAccount: walletState,
      message: externalMsg(wallet.address, replay),
      now: NOW + 20,
      lt: 5_000_000n,
    });
    expect(r2.ok ? null : r2.exitCode).toBe(33);
  });

  it('runs get-methods seqno and get_public_key on the deployed wallet', async () => {
    const { code, data, balance } = activeState(walletState);
    const base = { ...common(), code, data, address: wallet.address, balance, now: NOW + 30, stack: [] };
    const seqno = await runner.runGetMethod({ ...base, methodId: getMethodId('seqno') });
    expect(seqno.exitCode).toBe(0);
    expect(seqno.stack).toEqual([{ type: 'int', value: 2n }]);
    expect(seqno.stackBoc.equals(serializeTuple([{ type: 'int', value: 2n }]))).toBe(true);
    expect(seqno.gasUsed).toBeGreaterThan(0n);
    expect(seqno.missingLibrary).toBeNull();
    const pk = await runner.runGetMethod({ ...base, methodId: getMethodId('get_public_key') });
    expect(pk.exitCode).toBe(0);
    expect(pk.stack).toEqual([{ type: 'int', value: BigInt(`0x${wallet.publicKey.toString('hex')}`) }]);
    expect(wallet.publicKey.equals(keyPairFromSeed(sha256_sync('tvm-runner-test v4r2 owner')).publicKey)).toBe(true);
  });

  it('surfaces a missing library and the VM exit code it causes', async () => {
    const libHash = sha256_sync('a library nobody published');
    const code = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(libHash).endCell().bits });
    const r = await runner.runGetMethod({
      ...common(),
      code,
      data: Cell.EMPTY,
      address: wallet.address,
      balance: 1n,
      now: NOW,
      stack: [],
      methodId: getMethodId('seqno'),
    });
    expect(r.missingLibrary?.equals(libHash)).toBe(true);
    expect(r.exitCode).toBe(9); // cell underflow: "failed to load library cell"
  });

  it('puts our prevBlocksInfo into c7 (PREVKEYBLOCK reads it back)', async () => {
    const blockId = (seqno: number) => ({
      workchain: -1,
      shard: -(1n << 63n), // 0x8000000000000000 as the signed int64 TVM sees
      seqno,
      rootHash: sha256_sync(`root ${seqno}`),
      fileHash: sha256_sync(`file ${seqno}`),
    });
    const key = blockId(1);
    const r = await runner.runGetMethod({
      ...common(),
      code: beginCell().storeUint(0xf83401, 24).endCell(), // PREVKEYBLOCK (TVM v9 opcode F83401)
      data: Cell.EMPTY,
      address: wallet.address,
      balance: 1n,
      now: NOW,
      stack: [],
      methodId: 0,
      prevBlocksInfo: { lastMcBlocks: [blockId(3), blockId(2)], prevKeyBlock: key },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stack.at(-1)).toEqual({
      type: 'tuple',
      items: [
        { type: 'int', value: -1n },
        { type: 'int', value: key.shard },
        { type: 'int', value: 1n },
        { type: 'int', value: BigInt(`0x${key.rootHash.toString('hex')}`) },
        { type: 'int', value: BigInt(`0x${key.fileHash.toString('hex')}`) },
      ],
    });
  });

  it('bounces an internal message with bounce=true sent to a non-existent account', async () => {
    const lt = 6_000_000n;
    const value = toNano('3');
    const msg = internalMsg({ src: wallet.address, dest: nowhere, value, bounce: true, createdLt: 5_000_001n });
    const r = accepted(
      await runner.runTransaction({ ...common(), shardAccount: emptyShardAccount(), message: msg, now: NOW, lt }),
    );
    const tx = transactionFromCell(r.transaction);
    expect([tx.origStatus, tx.endStatus]).toEqual(['acc_state_nonexist', 'acc_state_nonexist']);
    const d = tx.description;
    if (d.kind !== 'trans_ord') throw new Error(`expected trans_ord, got ${d.kind}`);
    expect(d.computePh).toEqual({ kind: 'tr_phase_compute_skipped', reason: 'cskip_no_state' });
    expect(d.aborted).toBe(true);
    expect(d.bounce?.kind).toBe('tr_phase_bounce_ok');
    expect(tx.outMsgs).toHaveLength(1);
    const back = tx.outMsgs[0]!.info;
    if (back.kind !== 'int_msg_info') throw new Error('expected an internal bounce');
    expect(back.bounced).toBe(true);
    expect(back.bounce).toBe(false);
    expect(msgAddressToAddress(back.dest)?.equals(wallet.address)).toBe(true);
    expect(back.value.coins).toBeGreaterThan(0n);
    expect(back.value.coins).toBeLessThan(value);
  });

  it('fails the compute phase of a v5r1 wallet given a signed request it rejects, and bounces', async () => {
    const deploy = internalMsg({
      src: treasury,
      dest: v5.address,
      value: toNano('20'),
      bounce: false,
      createdLt: 6_500_001n,
      init: v5.init,
    });
    const d = accepted(
      await runner.runTransaction({
        ...common(),
        shardAccount: emptyShardAccount(),
        message: deploy,
        now: NOW,
        lt: 7_000_000n,
      }),
    );
    expect(transactionFromCell(d.transaction).endStatus).toBe('acc_state_active');
    // A correctly signed internal request with the wrong seqno (the wallet's seqno is 0).
    const request = await v5.createTransfer({
      seqno: 5,
      secretKey: owner.secretKey,
      messages: [internal({ to: treasury, value: toNano('1'), bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      authType: 'internal',
    });
    const msg = internalMsg({
      src: treasury,
      dest: v5.address,
      value: toNano('2'),
      bounce: true,
      createdLt: 7_500_001n,
      body: request,
    });
    const r = accepted(
      await runner.runTransaction({
        ...common(),
        shardAccount: d.shardAccount,
        message: msg,
        now: NOW + 1,
        lt: 8_000_000n,
      }),
    );
    const tx = transactionFromCell(r.transaction);
    const desc = tx.description;
    if (desc.kind !== 'trans_ord' || desc.computePh.kind !== 'tr_phase_compute_vm')
      throw new Error('expected a VM run');
    expect(desc.computePh.success).toBe(false);
    expect(desc.computePh.exitCode).toBe(133); // wallet_v5.fc error::invalid_seqno
    expect(desc.aborted).toBe(true);
    expect(desc.bounce?.kind).toBe('tr_phase_bounce_ok');
    const back = tx.outMsgs[0]?.info;
    expect(back?.kind === 'int_msg_info' && back.bounced && msgAddressToAddress(back.dest)?.equals(treasury)).toBe(
      true,
    );
    expect(tx.endStatus).toBe('acc_state_active');
  });

  it('runs a tick transaction on a special masterchain account', async () => {
    const addr = new Address(-1, sha256_sync('tick-tock account'));
    const code = Cell.EMPTY; // empty code: implicit RET, exit code 0
    const sa = beginCell()
      .store(
        storeShardAccount({
          account: {
            addr,
            storageStats: { used: { cells: 1n, bits: 0n }, storageExtra: null, lastPaid: NOW - 100, duePayment: null },
            storage: {
              lastTransLt: 0n,
              balance: { coins: toNano('10') },
              state: { type: 'active', state: { special: { tick: true, tock: false }, code, data: Cell.EMPTY } },
            },
          },
          lastTransactionHash: 0n,
          lastTransactionLt: 0n,
        }),
      )
      .endCell();
    const lt = 10_000_000n;
    const r = accepted(await runner.runTickTock({ ...common(), shardAccount: sa, now: NOW, lt, which: 'tick' }));
    const tx = transactionFromCell(r.transaction);
    expect(tx.lt).toBe(lt);
    expect(tx.inMsg).toBeNull();
    const d = tx.description;
    if (d.kind !== 'trans_tick_tock') throw new Error(`expected trans_tick_tock, got ${d.kind}`);
    expect(d.isTock).toBe(false);
    expect(d.computePh).toMatchObject({ kind: 'tr_phase_compute_vm', success: true, exitCode: 0 });
  });

  it('resolves 20 parallel calls through one executor', async () => {
    const { code, data, balance } = activeState(walletState);
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? runner.runGetMethod({
            ...common(),
            code,
            data,
            address: wallet.address,
            balance,
            now: NOW + i,
            stack: [],
            methodId: getMethodId('seqno'),
          })
        : runner.runTransaction({
            ...common(),
            shardAccount: walletState,
            message: internalMsg({
              src: treasury,
              dest: wallet.address,
              value: BigInt(i) * 1_000_000n,
              bounce: false,
              createdLt: 8_000_001n,
            }),
            now: NOW + 40,
            lt: 9_000_000n + BigInt(i) * 1000n,
          }),
    );
    const results = await Promise.all(calls);
    results.forEach((r, i) => {
      if ('exitCode' in r && 'stackBoc' in r) {
        expect(r.stack).toEqual([{ type: 'int', value: 2n }]);
      } else {
        const tx = transactionFromCell(accepted(r as TvmTxResult).transaction);
        expect(tx.lt).toBe(9_000_000n + BigInt(i) * 1000n);
      }
    });
  });

  it('bounds its queue', async () => {
    const small = await createTvmRunner({ threads, maxQueue: 1 });
    try {
      const { code, data, balance } = activeState(walletState);
      const call = () =>
        small.runGetMethod({
          ...common(),
          code,
          data,
          address: wallet.address,
          balance,
          now: NOW,
          stack: [],
          methodId: getMethodId('seqno'),
        });
      const [a, b, c] = [call(), call(), call()];
      await expect(c).rejects.toMatchObject({ code: 'TG_DEVNET_TVM', retryable: true });
      await expect(c).rejects.toThrow(/queue is full/);
      expect((await a).exitCode).toBe(0);
      expect((await b).exitCode).toBe(0);
    } finally {
      await small.close();
    }
    await expect(
      small.runGetMethod({
        ...common(),
        code: Cell.EMPTY,
        data: Cell.EMPTY,
        address: wallet.address,
        balance: 0n,
        now: NOW,
        stack: [],
        methodId: 0,
      }),
    ).rejects.toThrow(/closed/);
  });
});

describe('TVM runner worker crashes', () => {
  let runner: TvmRunnerHandle;
  beforeAll(async () => {
    runner = await createTvmRunner({ threads: 1 });
  });
  afterAll(async () => {
    await runner?.close();
  });

  it('rejects the call a killed worker was running with a clear error, and the next call works', async () => {
    // AGAINEND (0xEB) loops over the rest of the code forever: the call runs until the gas limit is spent.
    const loop = beginCell().storeUint(0xeb, 8).endCell();
    const endless = runner.runGetMethod({
      code: loop,
      data: Cell.EMPTY,
      address: wallet.address,
      balance: 1n,
      methodId: 0,
      stack: [],
      now: NOW,
      config,
      libs: null,
      randomSeed: SEED,
      gasLimit: 5_000_000n,
    });
    expect(runner.stats().busy).toBe(1);
    await runner.killWorker(0);
    const err = await endless.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTongateError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'TG_DEVNET_TVM', retryable: true });
    expect((err as Error).message).toMatch(/runGetMethod: TVM worker 0 exited with code \d+ while running the call/);

    const pk = await runner.runGetMethod({
      code: wallet.init.code,
      data: wallet.init.data,
      address: wallet.address,
      balance: 1n,
      methodId: getMethodId('get_public_key'),
      stack: [],
      now: NOW,
      config,
      libs: null,
      randomSeed: SEED,
    });
    expect(pk.stack).toEqual([{ type: 'int', value: BigInt(`0x${owner.publicKey.toString('hex')}`) }]);
    expect(runner.stats().restarts).toBe(1);
  });
});

// The emulator's entry point with per-block inputs serialized once (emulate-direct.ts, which the runner's threads
// use for transactions) against @ton/sandbox's public Executor.runTransaction on the same inputs: the same
// transaction, account and actions, byte for byte. The contract stores PREVKEYBLOCK's root hash as its data, so
// PREVBLOCKS (16 last blocks, the key block, 100 more) must reach the VM as the public API sends it; the expected
// hash is the one put in, not one our code computed.
describe('emulate-direct', () => {
  // PREVKEYBLOCK; INDEX 3 (its root hash); NEWC; STU 256; ENDC; POP c4
  const init = {
    code: beginCell().storeBuffer(Buffer.from('f834016f13c8cbffc9ed54', 'hex')).endCell(),
    data: Cell.EMPTY,
  };
  const deployed = contractAddress(0, init);
  const id = (seqno: number): WireBlockId => ({
    workchain: -1,
    shard: -(1n << 63n),
    seqno,
    rootHash: sha256_sync(`root ${seqno}`),
    fileHash: sha256_sync(`file ${seqno}`),
  });
  const asBlockId = (w: WireBlockId) => ({
    ...w,
    rootHash: Buffer.from(w.rootHash),
    fileHash: Buffer.from(w.fileHash),
  });

  it('gives the transaction the public API gives, PREVBLOCKS (16 + key + 100) and libraries included', async () => {
    const ex = await Executor.create();
    const last = Array.from({ length: 16 }, (_, i) => id(200 - i));
    const last100 = Array.from({ length: 100 }, (_, i) => id(200 - i * 2));
    const key = id(77);
    const libs = beginCell().storeBit(false).endCell(); // an empty library dictionary
    // No account yet: the message deploys it (StateInit) and its code runs at once.
    const message = internalMsg({
      src: treasury,
      dest: deployed,
      value: toNano('0.1'),
      bounce: false,
      createdLt: 2000n,
      init,
    });
    const run = {
      config: config.toBoc().toString('base64'),
      shardAccount: emptyShardAccount().toBoc().toString('base64'),
      now: NOW,
      lt: 3000n,
      randomSeed: SEED,
      ignoreChksig: false,
    };
    const viaApi = await ex.runTransaction({
      ...run,
      libs,
      message,
      verbosity: 'short',
      debugEnabled: false,
      prevBlocksInfo: {
        lastMcBlocks: last.map(asBlockId),
        prevKeyBlock: asBlockId(key),
        lastMcBlocks100: last100.map(asBlockId),
      },
    });
    const direct = directEmulator(ex, 'short');
    expect(direct).not.toBeNull();
    const viaDirect = direct!.transaction(
      {
        ...run,
        libs: libs.toBoc().toString('base64'),
        prevBlocks: { lastMcBlocks: last, prevKeyBlock: key, lastMcBlocks100: last100 },
      },
      message.toBoc(),
    );
    if (!viaApi.result.success) throw new Error(`the public API refused: ${viaApi.result.error}`);
    expect(viaDirect).toEqual(viaApi.result);
    if (!viaDirect.success) throw new Error('unreachable');
    // The contract stored the key block's root hash: PREVBLOCKS reached the VM as given.
    expect(activeState(Cell.fromBase64(viaDirect.shardAccount)).data.beginParse().loadBuffer(32)).toEqual(
      Buffer.from(key.rootHash),
    );
  });
});
