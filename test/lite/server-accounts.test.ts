// The account paths (getAccountState with a present account, getAccountStatePrunned, runSmcMethod on active
// code, getShardInfo, libraries, sendMessage, queue sizes) need a state that holds whole accounts, and no vector
// holds one together with the state that proves it. So this test builds a small SYNTHETIC chain with src/ton:
// one masterchain and one basechain block whose states hold REAL account cells (the tonutils-go fat-block
// ShardAccounts, a frozen masterchain account, a real public library) under the real mainnet configuration
// dictionary. The blocks, their ids and the states around the accounts are made up and labelled so; the values
// asserted come from the vectors (balances, last transactions, get-method results computed by @ton/sandbox).
import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  type CurrencyCollection,
  Dictionary,
  external,
  loadAccount,
  loadMessage,
  parseTuple,
  type ShardIdent,
  serializeTuple,
  storeMessage,
  TupleReader,
} from '@ton/core';
import { Executor } from '@ton/sandbox';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdnlClient, generateKeyPair } from '../../src/adnl/index.ts';
import { LiteServerError } from '../../src/common/index.ts';
import {
  type BlockLookup,
  type ChainView,
  createLiteServer,
  type LiteServer,
  type RunGetMethodArgs,
} from '../../src/lite/server/index.ts';
import { decodeTl, encodeTl, type TlObject } from '../../src/lite/tl/index.ts';
import {
  type AugDictCodec,
  type Block,
  type BlockIdExt,
  type BlockInfo,
  blockStateHash,
  buildAugDictRoot,
  buildDictRoot,
  buildMerkleUpdate,
  combineDepthBalanceInfo,
  cryptoSignaturePairValue,
  type DepthBalanceInfo,
  type ExtBlkRef,
  emptyDepthBalanceInfo,
  loadDepthBalanceInfo,
  type McStateExtra,
  parseBoc,
  type ShardDescr,
  type ShardStateUnsplit,
  serializeBoc,
  storeBlock,
  storeDepthBalanceInfo,
  storeLibDescr,
  storeShardHashes,
  storeShardStateUnsplit,
  type ValueFlow,
  verifyBlockProof,
  verifyMerkleProof,
} from '../../src/ton/index.ts';
import { dictLeaf } from '../helpers/dict-leaf.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

const GLOBAL_ID = 0x5e57; // not a real network
const MC_SHARD = 0x8000000000000000n;
const GEN_UTIME = 1_778_700_000;

const zero = (): CurrencyCollection => ({ coins: 0n });
const mcIdent: ShardIdent = { workchainId: -1, shardPrefix: 0n, shardPrefixBits: 0 };
const bcIdent: ShardIdent = { workchainId: 0, shardPrefix: 0n, shardPrefixBits: 0 };

/** ShardAccounts leaves from real ShardAccount cells, kept bit for bit. */
const rawShardAccounts: AugDictCodec<Cell, DepthBalanceInfo> = {
  loadValue: () => {
    throw new Error('not read');
  },
  storeValue: (c) => (b) => {
    b.storeSlice(c.beginParse());
  },
  loadExtra: loadDepthBalanceInfo,
  storeExtra: storeDepthBalanceInfo,
  combine: combineDepthBalanceInfo,
  empty: emptyDepthBalanceInfo,
};

function shardAccountEntry(shardAccount: Cell) {
  const account = shardAccount.refs[0] as Cell;
  const s = account.beginParse();
  s.loadBit();
  const acc = loadAccount(s);
  return {
    key: BigInt(`0x${acc.addr.hash.toString('hex')}`),
    value: shardAccount,
    extra: { splitDepth: 0, balance: acc.storage.balance },
  };
}

function state(opts: {
  ident: ShardIdent;
  seqno: number;
  genLt: bigint;
  accounts: Cell[];
  libraries: Cell | null;
  custom: McStateExtra | null;
  masterRef: ExtBlkRef | null;
}): Cell {
  const accounts = buildAugDictRoot(opts.accounts.map(shardAccountEntry), 256, rawShardAccounts);
  const v: ShardStateUnsplit = {
    kind: 'shard_state',
    globalId: GLOBAL_ID,
    shardId: opts.ident,
    seqNo: opts.seqno,
    vertSeqNo: 0,
    genUtime: GEN_UTIME + opts.seqno,
    genLt: opts.genLt,
    minRefMcSeqno: 0,
    outMsgQueueInfo: {
      outQueue: { root: null, extra: 0n },
      procInfo: null,
      extra: { dispatchQueue: { root: null, extra: 0n }, outQueueSize: 0n },
    },
    beforeSplit: false,
    accounts,
    r1: {
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: accounts.extra.balance,
      totalValidatorFees: zero(),
      libraries: opts.libraries,
      masterRef: opts.masterRef ? { master: opts.masterRef } : null,
    },
    custom: opts.custom,
  };
  return beginCell().store(storeShardStateUnsplit(v)).endCell();
}

function valueFlow(): ValueFlow {
  return {
    kind: 'value_flow',
    fromPrevBlk: zero(),
    toNextBlk: zero(),
    imported: zero(),
    exported: zero(),
    feesCollected: zero(),
    feesImported: zero(),
    recovered: zero(),
    created: zero(),
    minted: zero(),
  };
}

function blockInfo(ident: ShardIdent, seqno: number, prev: ExtBlkRef, masterRef: ExtBlkRef | null): BlockInfo {
  return {
    version: 0,
    notMaster: masterRef !== null,
    afterMerge: false,
    beforeSplit: false,
    afterSplit: false,
    wantSplit: false,
    wantMerge: false,
    keyBlock: false,
    vertSeqnoIncr: false,
    flags: 0,
    seqNo: seqno,
    vertSeqNo: 0,
    shard: ident,
    genUtime: GEN_UTIME + seqno,
    startLt: 1_000_000n,
    endLt: 1_000_001n,
    genValidatorListHashShort: 0,
    genCatchainSeqno: 0,
    minRefMcSeqno: 0,
    prevKeyBlockSeqno: 0,
    genSoftware: null,
    masterRef: masterRef ? { master: masterRef } : null,
    prevRef: { kind: 'prev_blk_info', prev },
    prevVertRef: null,
  };
}

function block(
  info: BlockInfo,
  oldState: Cell,
  newState: Cell,
  custom: Block['extra']['custom'],
): { root: Cell; data: Buffer } {
  const b: Block = {
    globalId: GLOBAL_ID,
    info,
    valueFlow: valueFlow(),
    stateUpdate: {
      cell: buildMerkleUpdate(oldState, newState),
      oldHash: oldState.hash(),
      newHash: newState.hash(),
      oldDepth: 0,
      newDepth: 0,
    },
    extra: {
      inMsgDescr: { entries: [], extra: { feesCollected: 0n, valueImported: zero() }, pruned: 0 },
      outMsgDescr: { entries: [], extra: zero(), pruned: 0 },
      accountBlocks: { entries: [], extra: zero(), pruned: 0 },
      randSeed: Buffer.alloc(32, 7),
      createdBy: Buffer.alloc(32, 8),
      custom,
    },
  };
  const root = beginCell().store(storeBlock(b)).endCell();
  return { root, data: serializeBoc([root]) };
}

function extRef(root: Cell, data: Buffer, seqno: number, endLt: bigint): ExtBlkRef {
  return { endLt, seqNo: seqno, rootHash: root.hash(), fileHash: createHash('sha256').update(data).digest() };
}

interface SyntheticChain {
  view: ChainView;
  mcId: BlockIdExt;
  shardId: BlockIdExt;
  libHash: Buffer;
  lib: Cell;
  executor: Executor;
}

async function syntheticChain(): Promise<SyntheticChain> {
  const cell = (file: string) =>
    Cell.fromBoc(Buffer.from(loadVector<{ boc_base64: string }>('accounts', file).boc_base64, 'base64'))[0] as Cell;
  const shardAccounts = [
    'fatblock_wallet_v4r2_89f356bd.json',
    'fatblock_wallet_v3r2_04ae074a.json',
    'fatblock_wallet_v5r1_bc91b30e.json',
    'fatblock_jetton_93503d3a.json',
  ].map(cell);
  // A masterchain account: a real frozen Account cell; its ShardAccount's last transaction is made up (zero).
  const frozen = beginCell()
    .storeRef(cell('account_frozen_pytoniq.json'))
    .storeBuffer(Buffer.alloc(32))
    .storeUint(0, 64)
    .endCell();
  const replay = loadVector<{ libraries_boc_base64: string[] }>('replay', 'replay_00b5ea43_76982528000005.json');
  const lib = Cell.fromBoc(Buffer.from(replay.libraries_boc_base64[0] as string, 'base64'))[0] as Cell;
  const libraries = buildDictRoot(
    [{ key: BigInt(`0x${lib.hash().toString('hex')}`), value: { lib, publishers: [1n] } }],
    256,
    storeLibDescr,
  );
  const configCell = Cell.fromBoc(
    Buffer.from(
      loadVector<{ boc_base64: string }>('config', 'config_dict_mainnet_tonutils_replay_2026.json').boc_base64,
      'base64',
    ),
  )[0] as Cell;

  // Zero states (empty) and the genesis refs.
  const bcZero = state({
    ident: bcIdent,
    seqno: 0,
    genLt: 0n,
    accounts: [],
    libraries: null,
    custom: null,
    masterRef: null,
  });
  const emptyExtra = (shardHashes: Cell | null): McStateExtra => ({
    shardHashes,
    config: { configAddr: Buffer.alloc(32, 0x55), config: configCell },
    r1: {
      flags: 0,
      validatorInfo: { validatorListHashShort: 0, catchainSeqno: 0, nxCcUpdated: false },
      prevBlocks: { root: null, extra: { key: false, maxEndLt: 0n } },
      afterKeyBlock: false,
      lastKeyBlock: null,
      blockCreateStats: null,
    },
    globalBalance: { coins: 10n ** 18n },
  });
  const mcZero = state({
    ident: mcIdent,
    seqno: 0,
    genLt: 0n,
    accounts: [],
    libraries: null,
    custom: emptyExtra(null),
    masterRef: null,
  });
  const ref0 = (s: Cell): ExtBlkRef => ({
    endLt: 0n,
    seqNo: 0,
    rootHash: s.hash(),
    fileHash: createHash('sha256')
      .update(serializeBoc([s]))
      .digest(),
  });

  const bcState = state({
    ident: bcIdent,
    seqno: 1,
    genLt: 1_000_001n,
    accounts: shardAccounts,
    libraries: null,
    custom: null,
    masterRef: ref0(mcZero),
  });
  const bcBlock = block(blockInfo(bcIdent, 1, ref0(bcZero), ref0(mcZero)), bcZero, bcState, null);
  const bcRef = extRef(bcBlock.root, bcBlock.data, 1, 1_000_001n);
  const descr: ShardDescr = {
    kind: 'shard_descr',
    seqNo: 1,
    regMcSeqno: 1,
    startLt: 1_000_000n,
    endLt: 1_000_001n,
    rootHash: bcRef.rootHash,
    fileHash: bcRef.fileHash,
    beforeSplit: false,
    beforeMerge: false,
    wantSplit: false,
    wantMerge: false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 0,
    nextValidatorShard: MC_SHARD,
    minRefMcSeqno: 0,
    genUtime: GEN_UTIME + 1,
    splitMergeAt: { kind: 'fsm_none' },
    feesCollected: zero(),
    fundsCreated: zero(),
  };
  const shardHashesMap = new Map([[0, { kind: 'bt_leaf' as const, leaf: descr }]]);
  const shardHashes = beginCell().store(storeShardHashes(shardHashesMap)).endCell().beginParse().loadMaybeRef();
  const mcState = state({
    ident: mcIdent,
    seqno: 1,
    genLt: 1_000_001n,
    accounts: [frozen],
    libraries,
    custom: emptyExtra(shardHashes),
    masterRef: null,
  });
  const mcBlock = block(blockInfo(mcIdent, 1, ref0(mcZero), null), mcZero, mcState, {
    keyBlock: false,
    shardHashes: shardHashesMap,
    shardFees: { entries: [], extra: { fees: zero(), create: zero() }, pruned: 0 },
    prevBlkSignatures: Dictionary.empty(Dictionary.Keys.Uint(16), cryptoSignaturePairValue),
    recoverCreateMsg: null,
    mintMsg: null,
    config: null,
  });
  const mcRef = extRef(mcBlock.root, mcBlock.data, 1, 1_000_001n);
  const mcId: BlockIdExt = {
    workchain: -1,
    shard: MC_SHARD,
    seqno: 1,
    rootHash: mcRef.rootHash,
    fileHash: mcRef.fileHash,
  };
  const shardId: BlockIdExt = {
    workchain: 0,
    shard: MC_SHARD,
    seqno: 1,
    rootHash: bcRef.rootHash,
    fileHash: bcRef.fileHash,
  };
  const blocks = [
    { id: mcId, ...mcBlock, state: mcState },
    { id: shardId, ...bcBlock, state: bcState },
  ];
  const executor = await Executor.create();
  const configBase64 = configCell.toBoc().toString('base64');
  const libsCell = beginCell().storeMaybeRef(libraries).endCell().beginParse().loadMaybeRef();
  const find = (id: BlockIdExt) =>
    blocks.find((b) => b.id.rootHash.equals(id.rootHash) && b.id.fileHash.equals(id.fileHash));

  const view: ChainView = {
    masterchainInfo: async () => ({
      last: mcId,
      stateRootHash: mcState.hash(),
      init: { workchain: -1, rootHash: mcZero.hash(), fileHash: ref0(mcZero).fileHash },
      lastUtime: GEN_UTIME + 1,
    }),
    waitMasterchainSeqno: async (seqno, signal) => {
      if (seqno > 1) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    },
    now: () => GEN_UTIME + 10,
    block: async (id) => {
      const b = find(id);
      return b ? { id: b.id, root: b.root, data: b.data } : null;
    },
    lookupBlock: async (q: BlockLookup) => {
      const b = blocks.find((x) => x.id.workchain === q.workchain && 'seqno' in q && x.id.seqno === q.seqno);
      return b ? b.id : null;
    },
    shardState: async (id) => find(id)?.state ?? null,
    runGetMethod: async (a: RunGetMethodArgs) => {
      const s = a.account.beginParse();
      s.loadBit();
      const acc = loadAccount(s);
      if (acc.storage.state.type !== 'active') throw new Error('not active');
      const init = acc.storage.state.state;
      const res = await executor.runGetMethod({
        code: init.code as Cell,
        data: init.data as Cell,
        methodId: Number(a.methodId),
        stack: a.stack ? parseTuple(a.stack) : [],
        config: configBase64,
        verbosity: 'short',
        libs: libsCell ?? undefined,
        address: new Address(a.workchain, a.address),
        unixTime: a.genUtime,
        balance: acc.storage.balance.coins,
        randomSeed: Buffer.alloc(32),
        gasLimit: 1_000_000n,
        debugEnabled: false,
      });
      if (!res.output.success) throw new Error(res.output.error);
      return {
        exitCode: res.output.vm_exit_code,
        stack: Cell.fromBoc(Buffer.from(res.output.stack, 'base64'))[0] as Cell,
      };
    },
    sendMessage: async (boc) => {
      const msg = loadMessage((Cell.fromBoc(boc)[0] as Cell).beginParse());
      if (msg.info.type !== 'external-in') throw new LiteServerError(-400, 'not an inbound external message');
      const dest = msg.info.dest;
      const known = shardAccounts.some((c) => shardAccountEntry(c).key === BigInt(`0x${dest.hash.toString('hex')}`));
      if (!known) throw new LiteServerError(-400, `account ${dest.toRawString()} does not exist`);
    },
  };
  return { view, mcId, shardId, libHash: lib.hash(), lib, executor };
}

function tlcId(id: BlockIdExt) {
  return {
    workchain: id.workchain,
    shard: BigInt.asIntN(64, id.shard).toString(),
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

interface AccountVector {
  boc_base64: string;
  verification: {
    decoded: { address: string; balance: string; shard_account: { last_trans_hash: string; last_trans_lt: string } };
  };
  computed_get_methods: Record<string, { exit_code: number; stack: Array<{ type: string; value?: string }> }>;
}

describe.skipIf(!hasVectors)('liteserver account paths on a synthetic chain holding real accounts', () => {
  let chain: SyntheticChain;
  let server: LiteServer;
  let engine: LiteSingleEngine;
  let client: LiteClient;
  let adnl: AdnlClient;

  beforeAll(async () => {
    chain = await syntheticChain();
    server = createLiteServer({
      view: chain.view,
      keys: [generateKeyPair()],
      host: '127.0.0.1',
      port: 0,
      queryTimeoutMs: 30_000,
    });
    const { port } = await server.listen();
    engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: server.publicKey });
    engine.on('error', () => {});
    await new Promise((resolve) => engine.once('ready', resolve));
    client = new LiteClient({ engine });
    adnl = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: server.publicKey });
  });
  afterAll(async () => {
    engine?.close();
    adnl?.close();
    await server?.close();
  });

  const ask = async (fn: TlObject) =>
    decodeTl(await adnl.query(encodeTl({ _: 'liteServer.query', data: encodeTl(fn) })));

  it('getAccountState at the masterchain block: shard proof, state proof, and the account with its real balance and last transaction', async () => {
    const v = loadVector<AccountVector>('accounts', 'fatblock_wallet_v4r2_89f356bd.json');
    const addr = Address.parseRaw(v.verification.decoded.address);
    const res = await client.getAccountStateRaw(addr, tlcId(chain.mcId));
    expect(res.balance.coins).toBe(BigInt(v.verification.decoded.balance));
    expect(res.lastTx?.lt).toBe(BigInt(v.verification.decoded.shard_account.last_trans_lt));
    expect(String(res.lastTx?.hash.toString(16)).padStart(64, '0')).toBe(
      v.verification.decoded.shard_account.last_trans_hash,
    );
    expect(res.shardBlock.rootHash.equals(chain.shardId.rootHash)).toBe(true);

    // shard_proof: the masterchain block names its state, whose shard_hashes name the shard block.
    const [mcBlockProof, mcStateProof] = parseBoc(res.shardProof) as [Cell, Cell];
    const mcBlock = verifyBlockProof(mcBlockProof, chain.mcId.rootHash);
    const mcState = verifyMerkleProof(mcStateProof, blockStateHash(mcBlock));
    const leaf = (((mcState.refs[3] as Cell).refs[0] as Cell).refs[0] as Cell).beginParse();
    expect(leaf.loadBit()).toBe(false);
    leaf.skip(4 + 32 + 32 + 64 + 64);
    expect(leaf.loadBuffer(32).equals(res.shardBlock.rootHash)).toBe(true);
    expect(leaf.loadBuffer(32).equals(res.shardBlock.fileHash)).toBe(true);

    // proof: the shard block names its state; the accounts dictionary holds the leaf; the leaf balance and
    // account hash are those of the returned account.
    const [blockProof, stateProof] = parseBoc(res.proof) as [Cell, Cell];
    const shardState = verifyMerkleProof(
      stateProof,
      blockStateHash(verifyBlockProof(blockProof, chain.shardId.rootHash)),
    );
    const accountCell = parseBoc(res.raw)[0] as Cell;
    const accounts = (shardState.refs[1] as Cell).beginParse();
    accounts.loadBit();
    const found = dictLeaf(accounts.loadRef(), BigInt(`0x${addr.hash.toString('hex')}`));
    expect(found).not.toBeNull();
    const extra = loadDepthBalanceInfo(found as never);
    expect(extra.balance.coins).toBe(BigInt(v.verification.decoded.balance));
    expect((found as ReturnType<Cell['beginParse']>).loadRef().hash(0).equals(accountCell.hash())).toBe(true);
    // The proof holds the path, not the other accounts.
    expect(res.proof.length).toBeLessThan(serializeBoc([shardState]).length + 4096);
  });

  it('getAccountStatePrunned: the account cell with code and data left out', async () => {
    const v = loadVector<AccountVector>('accounts', 'fatblock_wallet_v4r2_89f356bd.json');
    const addr = Address.parseRaw(v.verification.decoded.address);
    const full = await client.getAccountStateRaw(addr, tlcId(chain.shardId));
    const pr = await client.getAccountStatePrunned(addr, tlcId(chain.shardId));
    const account = parseBoc(full.raw)[0] as Cell;
    expect(pr.stateHash?.equals(account.hash())).toBe(true);
    const virt = verifyMerkleProof(parseBoc(pr.raw)[0] as Cell, account.hash());
    // Code and data are out (pruned); what stays below the account cell has no references of its own.
    expect(virt.refs.some((r) => r.isExotic)).toBe(true);
    expect(virt.refs.filter((r) => !r.isExotic).every((r) => r.refs.length === 0)).toBe(true);
    expect(pr.raw.length).toBeLessThan(full.raw.length);
  });

  it('runMethod (mode 4) runs real wallet code: the results @ton/sandbox computed for these accounts', async () => {
    for (const file of [
      'fatblock_wallet_v4r2_89f356bd.json',
      'fatblock_wallet_v3r2_04ae074a.json',
      'fatblock_wallet_v5r1_bc91b30e.json',
    ]) {
      const v = loadVector<AccountVector>('accounts', file);
      const want = v.computed_get_methods.seqno;
      const res = await client.runMethod(
        Address.parseRaw(v.verification.decoded.address),
        'seqno',
        Buffer.alloc(0),
        tlcId(chain.mcId),
        {
          timeout: 30_000,
        },
      );
      expect(res.exitCode).toBe(want?.exit_code);
      const stack = new TupleReader(parseTuple(Cell.fromBoc(Buffer.from(res.result as string, 'base64'))[0] as Cell));
      expect(stack.readBigNumber()).toBe(BigInt(want?.stack[0]?.value as string));
      expect(res.shardBlock.seqno).toBe(1);
    }
  });

  it('runSmcMethod with proofs (mode 7) and params: the state proof is the account the VM ran', async () => {
    const v = loadVector<AccountVector>('accounts', 'fatblock_jetton_93503d3a.json');
    const addr = Address.parseRaw(v.verification.decoded.address);
    const methodId = (crc16('get_wallet_data') & 0xffff) | 0x10000;
    const params = serializeTuple([]).toBoc();
    const res = await engine.query(
      Functions.liteServer_runSmcMethod,
      {
        kind: 'liteServer.runSmcMethod',
        mode: 7,
        id: { kind: 'tonNode.blockIdExt', ...tlcId(chain.mcId) },
        account: { kind: 'liteServer.accountId', workchain: 0, id: addr.hash },
        methodId: String(methodId),
        params,
      },
      { timeout: 30_000 },
    );
    expect(res.exitCode).toBe(v.computed_get_methods.get_wallet_data?.exit_code);
    const stack = new TupleReader(parseTuple(Cell.fromBoc(res.result as Buffer)[0] as Cell));
    expect(stack.readBigNumber()).toBe(BigInt(v.computed_get_methods.get_wallet_data?.stack[0]?.value as string));
    const accountHash = (Cell.fromBoc(Buffer.from(v.boc_base64, 'base64'))[0] as Cell).refs[0]?.hash() as Buffer;
    verifyMerkleProof(parseBoc(res.stateProof as Buffer)[0] as Cell, accountHash);
    const [blockProof] = parseBoc(res.proof as Buffer) as [Cell];
    verifyBlockProof(blockProof, chain.shardId.rootHash);
  });

  it('a frozen or missing account answers exit code -256', async () => {
    const frozen = loadVector<{ ids: { address: string } }>('accounts', 'account_frozen_pytoniq.json');
    const addr = Address.parseRaw(frozen.ids.address);
    const st = await client.getAccountState(addr, tlcId(chain.mcId));
    expect(st.state?.storage.state.type).toBe('frozen');
    expect((await client.runMethod(addr, 'seqno', Buffer.alloc(0), tlcId(chain.mcId))).exitCode).toBe(-256);
    const missing = new Address(0, Buffer.alloc(32, 0x42));
    expect((await client.runMethod(missing, 'seqno', Buffer.alloc(0), tlcId(chain.mcId))).exitCode).toBe(-256);
    expect((await client.getAccountStateRaw(missing, tlcId(chain.mcId))).state).toBeNull();
  });

  it('getLibraries returns the public library by its hash and omits unknown ones; WithProof proves it', async () => {
    const res = await client.getLibraries([chain.libHash, Buffer.alloc(32, 9)]);
    expect(res.result).toHaveLength(1);
    expect(
      Cell.fromBoc(res.result[0]?.data as Buffer)[0]
        ?.hash()
        .equals(chain.libHash),
    ).toBe(true);
    const wp = await ask({
      _: 'liteServer.getLibrariesWithProof',
      id: { _: 'tonNode.blockIdExt', ...chain.mcId, shard: BigInt.asIntN(64, chain.mcId.shard) },
      mode: 1,
      libraryList: [chain.libHash],
    });
    expect(wp._).toBe('liteServer.libraryResultWithProof');
    if (wp._ !== 'liteServer.libraryResultWithProof') return;
    const block = verifyBlockProof(parseBoc(wp.stateProof)[0] as Cell, chain.mcId.rootHash);
    verifyMerkleProof(parseBoc(wp.dataProof)[0] as Cell, blockStateHash(block));
    expect(wp.result[0]?.hash.equals(chain.libHash)).toBe(true);
  });

  it('getShardInfo and getState', async () => {
    const si = await engine.query(Functions.liteServer_getShardInfo, {
      kind: 'liteServer.getShardInfo',
      id: { kind: 'tonNode.blockIdExt', ...tlcId(chain.mcId) },
      workchain: 0,
      shard: BigInt.asIntN(64, MC_SHARD).toString(),
      exact: true,
    });
    expect(si.shardblk.rootHash.equals(chain.shardId.rootHash)).toBe(true);
    const leaf = Cell.fromBoc(si.shardDescr)[0]?.beginParse() as ReturnType<Cell['beginParse']>;
    expect(leaf.loadBit()).toBe(false);
    expect(leaf.loadUint(4)).toBe(0xb);
    const st = await engine.query(Functions.liteServer_getState, {
      kind: 'liteServer.getState',
      id: { kind: 'tonNode.blockIdExt', ...tlcId(chain.shardId) },
    });
    expect(Cell.fromBoc(st.data)[0]?.hash().equals(st.rootHash)).toBe(true);
    expect(createHash('sha256').update(st.data).digest().equals(st.fileHash)).toBe(true);
  });

  it('sendMessage: accepted for an existing wallet, refused with the node reason otherwise', async () => {
    const v = loadVector<AccountVector>('accounts', 'fatblock_wallet_v4r2_89f356bd.json');
    const to = (a: Address) =>
      beginCell()
        .store(storeMessage(external({ to: a, body: beginCell().endCell() })))
        .endCell()
        .toBoc();
    expect((await client.sendMessage(to(Address.parseRaw(v.verification.decoded.address)))).status).toBe(1);
    await expect(client.sendMessage(to(new Address(0, Buffer.alloc(32, 1))))).rejects.toThrow(
      /cannot apply external message to current state : account .* does not exist/,
    );
  });

  it('queue sizes and dispatch queues of the states', async () => {
    const sizes = await ask({ _: 'liteServer.getOutMsgQueueSizes', mode: 0 });
    expect(sizes._ === 'liteServer.outMsgQueueSizes' && sizes.shards.map((s) => [s.id.workchain, s.size])).toEqual([
      [-1, 0],
      [0, 0],
    ]);
    const id = { _: 'tonNode.blockIdExt' as const, ...chain.shardId, shard: BigInt.asIntN(64, chain.shardId.shard) };
    const one = await ask({ _: 'liteServer.getBlockOutMsgQueueSize', mode: 1, id, wantProof: true });
    expect(one._ === 'liteServer.blockOutMsgQueueSize' && one.size).toBe(0n);
    const dq = await ask({ _: 'liteServer.getDispatchQueueInfo', mode: 0, id, maxAccounts: 10, wantProof: false });
    expect(dq._ === 'liteServer.dispatchQueueInfo' && dq.complete).toBe(true);
    const msgs = await ask({
      _: 'liteServer.getDispatchQueueMessages',
      mode: 0,
      id,
      addr: Buffer.alloc(32),
      afterLt: 0n,
      maxMessages: 10,
      wantProof: false,
      oneAccount: false,
      messagesBoc: false,
    });
    expect(msgs._ === 'liteServer.dispatchQueueMessages' && msgs.messages).toEqual([]);
  });
});

function crc16(name: string): number {
  let crc = 0;
  for (const byte of Buffer.from(name)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
