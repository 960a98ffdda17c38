import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  type Cell,
  loadShardStateUnsplit as coreLoadShardState,
  loadShardAccount,
  toNano,
} from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  loadConfigParam,
  loadConfigParams,
  loadShardStateUnsplit,
  MASTER_SHARD,
  parseBoc,
  serializeBoc,
  storeShardStateUnsplit,
} from '../../ton/index.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../genesis/index.ts';
import { computeValidatorNodes, validatorSetHash } from './validator-set.ts';
import { createZeroStates, uninitAccount } from './zero-state.ts';

const GEN_UTIME = 1_700_000_000;
const keys = deriveGenesisKeys('zero-state-test');
const config = buildDevnetConfig({
  validatorPublicKey: keys.validator.publicKey,
  genUtime: GEN_UTIME,
  wcZeroStateRootHash: Buffer.alloc(32),
  wcZeroStateFileHash: Buffer.alloc(32),
});
const wallet = Address.parse(`0:${'11'.repeat(32)}`);
const reserve = Address.parse(`-1:${'55'.repeat(32)}`);

function make(layoutN = 2, reserveBalance = 4_000_000_000_000_000_000n) {
  return createZeroStates({
    config,
    accounts: [uninitAccount(wallet, toNano('1000'))],
    masterchainAccounts: [uninitAccount(reserve, reserveBalance)],
    layout: shardLayout(layoutN),
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
}

describe('createZeroStates', () => {
  const z = make();

  it('writes both zero states as node files whose hashes are their ids, and re-encodes them bit-exactly', () => {
    for (const s of [z.masterchain, z.workchain]) {
      expect(createHash('sha256').update(s.boc).digest().equals(s.id.fileHash)).toBe(true);
      const [root] = parseBoc(s.boc);
      expect(root?.hash().equals(s.id.rootHash)).toBe(true);
      expect(
        serializeBoc([root as Cell], { idx: true, crc32: true, cacheBits: true, hashes: true }).equals(s.boc),
      ).toBe(true);
      const st = loadShardStateUnsplit(s.state.beginParse());
      expect(beginCell().store(storeShardStateUnsplit(st)).endCell().hash().equals(s.id.rootHash)).toBe(true);
      expect(st.seqNo).toBe(0);
      expect(st.genLt).toBe(0n);
      expect(st.genUtime).toBe(GEN_UTIME);
      expect(st.minRefMcSeqno).toBe(0xffffffff);
      expect(st.globalId).toBe(-217);
      expect(s.id.shard).toBe(MASTER_SHARD);
    }
    expect(z.zeroStateId).toEqual(z.masterchain.id);
    expect(z.initBlock).toEqual(z.masterchain.id);
  });

  it('points ConfigParam 12 at the basechain zero state and sets the split range of the layout', () => {
    const st = loadShardStateUnsplit(z.masterchain.state.beginParse());
    const extra = st.custom as { config: { config: Cell } };
    const wc = loadConfigParam(12, loadConfigParams(extra.config.config).get(12) as Cell).workchains.get(0);
    expect(wc?.zerostateRootHash.equals(z.workchain.id.rootHash)).toBe(true);
    expect(wc?.zerostateFileHash.equals(z.workchain.id.fileHash)).toBe(true);
    expect([wc?.minSplit, wc?.maxSplit]).toEqual([1, 1]);
    const three = make(3);
    const st3 = loadShardStateUnsplit(three.masterchain.state.beginParse());
    const cfg3 = (st3.custom as { config: { config: Cell } }).config.config;
    const wc3 = loadConfigParam(12, loadConfigParams(cfg3).get(12) as Cell).workchains.get(0);
    expect([wc3?.minSplit, wc3?.maxSplit]).toEqual([1, 2]);
  });

  it('fills McStateExtra as create-state does: validator list hash, key state, empty prev_blocks, global balance', () => {
    const st = loadShardStateUnsplit(z.masterchain.state.beginParse());
    const extra = st.custom as {
      shardHashes: Cell | null;
      config: { config: Cell; configAddr: Buffer };
      r1: {
        validatorInfo: { validatorListHashShort: number; catchainSeqno: number; nxCcUpdated: boolean };
        prevBlocks: { root: Cell | null };
        afterKeyBlock: boolean;
        lastKeyBlock: unknown;
      };
      globalBalance: { coins: bigint };
    };
    expect(extra.shardHashes).toBeNull();
    const params = loadConfigParams(extra.config.config);
    expect(extra.config.configAddr.equals(loadConfigParam(0, params.get(0) as Cell).configAddr)).toBe(true);
    const cc = loadConfigParam(28, params.get(28) as Cell).catchainConfig;
    const vset = loadConfigParam(34, params.get(34) as Cell).curValidators;
    expect(extra.r1.validatorInfo).toEqual({
      validatorListHashShort: validatorSetHash(0, computeValidatorNodes(cc, -1, MASTER_SHARD, vset, 0)),
      catchainSeqno: 0,
      nxCcUpdated: true,
    });
    expect(extra.r1.prevBlocks.root).toBeNull();
    expect(extra.r1.afterKeyBlock).toBe(true);
    expect(extra.r1.lastKeyBlock).toBeNull();
    expect(extra.globalBalance.coins).toBe(toNano('1000') + 4_000_000_000_000_000_000n);
  });

  it('is read by @ton/core (and so ton-lite-client): accounts, balances, and the config', () => {
    const mc = coreLoadShardState(z.masterchain.state.beginParse());
    expect(mc.extras?.config.get(34)).toBeDefined();
    const wc = coreLoadShardState(z.workchain.state.beginParse());
    const acc = wc.accounts?.get(BigInt(`0x${wallet.hash.toString('hex')}`));
    expect(acc?.shardAccount.account?.storage.balance.coins).toBe(toNano('1000'));
    expect(acc?.depthBalanceInfo.balance.coins).toBe(toNano('1000'));
    expect(acc?.shardAccount.account?.storage.state.type).toBe('uninit');
  });

  it('refuses a global balance outside [2^56, 2^62) and a validator outside ConfigParam 34', () => {
    expect(() => make(2, 0n)).toThrow(/outside \[2\^56, 2\^62\)/);
    expect(() => make(2, 5_000_000_000_000_000_000n)).toThrow(/outside/);
    expect(() =>
      createZeroStates({
        config,
        accounts: [],
        masterchainAccounts: [uninitAccount(reserve, 1n << 60n)],
        layout: shardLayout(1),
        genUtime: GEN_UTIME,
        globalId: -217,
        validatorPublicKey: Buffer.alloc(32, 7),
      }),
    ).toThrow(/validator/);
  });

  it('builds an uninit account that @ton/core reads back', () => {
    const sa = loadShardAccount(uninitAccount(wallet, 123n).beginParse());
    expect(sa.account?.addr.equals(wallet)).toBe(true);
    expect(sa.account?.storage.balance.coins).toBe(123n);
    expect(sa.lastTransactionLt).toBe(0n);
  });
});
