// The emulator's entry point with per-block inputs serialized once (emulate-direct.ts) against @ton/sandbox's public
// Executor.runTransaction on the same inputs: the same transaction, account and actions, byte for byte. The contract
// here stores PREVKEYBLOCK's root hash as its data, so PREVBLOCKS (16 last blocks, the key block, 100 more) must
// reach the VM as the public API sends it; the expected hash is the one we put in, not one the code computed.
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  loadShardAccount,
  type Message,
  storeMessage,
  storeShardAccount,
  toNano,
} from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { Executor } from '@ton/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetConfig, deriveGenesisKeys } from '../devnet/genesis/index.ts';
import { directEmulator } from './emulate-direct.ts';
import type { WireBlockId } from './wire.ts';

const NOW = 1_760_000_000;
const genesis = deriveGenesisKeys('emulate-direct-test');
const config = buildDevnetConfig({
  validatorPublicKey: genesis.validator.publicKey,
  genUtime: NOW - 3600,
  wcZeroStateRootHash: sha256_sync('zero state root'),
  wcZeroStateFileHash: sha256_sync('zero state file'),
})
  .toBoc()
  .toString('base64');

// PREVKEYBLOCK; INDEX 3 (its root hash); NEWC; STU 256; ENDC; POP c4
const CODE = beginCell().storeBuffer(Buffer.from('f834016f13c8cbffc9ed54', 'hex')).endCell();
const init = { code: CODE, data: Cell.EMPTY };
const address = contractAddress(0, init);

/** No account yet: the message deploys it (StateInit) and its code runs at once. */
function shardAccount(): Cell {
  return beginCell()
    .store(storeShardAccount({ account: undefined, lastTransactionHash: 0n, lastTransactionLt: 0n }))
    .endCell();
}

function message(): Cell {
  const m: Message = {
    info: {
      type: 'internal',
      src: new Address(0, Buffer.alloc(32, 9)),
      dest: address,
      value: { coins: toNano('0.1') },
      bounce: false,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 2000n,
      createdAt: NOW,
    },
    body: Cell.EMPTY,
    init,
  };
  return beginCell().store(storeMessage(m)).endCell();
}

const id = (seqno: number): WireBlockId => ({
  workchain: -1,
  shard: -(1n << 63n),
  seqno,
  rootHash: sha256_sync(`root ${seqno}`),
  fileHash: sha256_sync(`file ${seqno}`),
});
/** The data cell's 256 bits, hex, of the account in a base64 ShardAccount. */
function storedHash(shardAccountB64: string): string {
  const sa = loadShardAccount(Cell.fromBase64(shardAccountB64).beginParse());
  const st = sa.account?.storage.state;
  if (st?.type !== 'active' || !st.state.data) throw new Error('account is not active');
  return st.state.data.beginParse().loadBuffer(32).toString('hex');
}

const asBlockId = (w: WireBlockId) => ({ ...w, rootHash: Buffer.from(w.rootHash), fileHash: Buffer.from(w.fileHash) });

describe('emulate-direct', () => {
  let ex: Executor;
  beforeAll(async () => {
    ex = await Executor.create();
  });

  it('gives the transaction the public API gives, PREVBLOCKS (16 + key + 100) and libraries included', async () => {
    const last = Array.from({ length: 16 }, (_, i) => id(200 - i));
    const last100 = Array.from({ length: 100 }, (_, i) => id(200 - i * 2));
    const key = id(77);
    const libs = beginCell().storeBit(false).endCell(); // an empty library dictionary
    const common = {
      config,
      libs,
      verbosity: 'short' as const,
      shardAccount: shardAccount().toBoc().toString('base64'),
      now: NOW,
      lt: 3000n,
      randomSeed: Buffer.alloc(32, 0x5a),
      ignoreChksig: false,
      debugEnabled: false,
    };
    const viaApi = await ex.runTransaction({
      ...common,
      message: message(),
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
        config,
        libs: libs.toBoc().toString('base64'),
        shardAccount: common.shardAccount,
        now: NOW,
        lt: 3000n,
        randomSeed: common.randomSeed,
        ignoreChksig: false,
        prevBlocks: { lastMcBlocks: last, prevKeyBlock: key, lastMcBlocks100: last100 },
      },
      message().toBoc(),
    );
    if (!viaApi.result.success) throw new Error(`the public API refused: ${viaApi.result.error}`);
    expect(viaDirect).toEqual(viaApi.result);
    if (!viaDirect.success) throw new Error('unreachable');
    // The contract stored the key block's root hash: PREVBLOCKS reached the VM as given.

    expect(storedHash(viaDirect.shardAccount)).toBe(Buffer.from(key.rootHash).toString('hex'));
  });
});
