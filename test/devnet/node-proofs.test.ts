// Every proof the running node returns verifies with our verifier (src/ton verifyBlockProof / verifyMerkleProof,
// against the block root hash and the state hash its state_update names), and the chain links up: each block file
// hashes to the id the masterchain (shard_hashes) or the next block (prev_ref) gives for it. The getBlockProof
// chain from the zero state carries ed25519 signatures by the validator that config param 34 names.
import { createHash } from 'node:crypto';
import { Address, type Cell, serializeTuple } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodId } from '../../src/lite/index.ts';
import {
  blockStateHash,
  loadConfigParams,
  parseBoc,
  verifyBlockProof,
  verifyMerkleProof,
} from '../../src/ton/index.ts';
import {
  type BlockIdLike,
  type Devnet,
  idKey,
  MC_SHARD,
  startDevnet,
  tlcId,
  tlId,
  validatorKeyOf,
  verifiedAccountState,
  verifyBlockSignature,
  walkChain,
} from '../helpers/devnet-node.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-proofs', blockIntervalMs: 50 });
  await d.node.waitMasterchainSeqno(12);
});

afterAll(async () => {
  await d?.close();
});

async function last(): Promise<BlockIdLike> {
  return (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
}

/** The config dictionary of a config proof's virtual masterchain state. */
function configOf(state: Cell): Map<number, Cell> {
  const extra = (state.refs[3] as Cell).beginParse();
  expect(extra.loadUint(16)).toBe(0xcc26);
  if (extra.loadBit()) extra.loadRef();
  extra.loadBuffer(32);
  return loadConfigParams(extra.loadRef());
}

describe('devnet node proofs and links', () => {
  it('walks the chain: block files hash to the ids shard_hashes and prev_ref name', async () => {
    const info = await d.lite.client.getMasterchainInfo();
    const walk = await walkChain(d.lite, info.last.seqno);
    expect(walk.mcIds).toHaveLength(info.last.seqno);
    // Both shards of the layout have blocks, and the split parent chain is in the walk.
    const shards = new Set([...walk.shardBlocks.values()].map((b) => BigInt(b.id.shard)));
    expect(shards).toContain(0x4000000000000000n);
    expect(shards).toContain(0xc000000000000000n);
    expect(shards).toContain(0x8000000000000000n);
    // The head's state hash is the one its state_update names.
    const header = await d.lite.client.getBlockHeader(tlcId(info.last as BlockIdLike));
    const block = verifyBlockProof(parseBoc(header.headerProof)[0] as Cell, info.last.rootHash);
    expect(blockStateHash(block).equals(info.stateRootHash)).toBe(true);
  });

  it('block header proofs verify for masterchain and shard blocks', async () => {
    const head = await last();
    const walk = await walkChain(d.lite, head.seqno, Math.max(1, head.seqno - 4));
    const ids = [...walk.mcIds, ...[...walk.shardBlocks.values()].map((b) => b.id)];
    for (const id of ids) {
      const h = await d.lite.client.getBlockHeader(tlcId(id));
      expect(h.id.rootHash.equals(id.rootHash)).toBe(true);
      const root = verifyBlockProof(parseBoc(h.headerProof)[0] as Cell, id.rootHash);
      expect(blockStateHash(root)).toHaveLength(32);
    }
  });

  it('account state proofs (shard proof and state proof) verify for every genesis wallet and the reserve', async () => {
    const head = await last();
    for (const w of d.wallets) {
      const st = await verifiedAccountState(d.lite, Address.parse(w.raw), head);
      expect(st.exists).toBe(true);
    }
    const missing = await verifiedAccountState(d.lite, new Address(0, Buffer.alloc(32, 0x5a)), head);
    expect(missing.exists).toBe(false);
  });

  it('getConfigAll proofs verify; param 34 names the validator whose signatures getBlockProof carries', async () => {
    const head = await last();
    const cfg = await d.lite.ask<{ stateProof: Buffer; configProof: Buffer }>({
      _: 'liteServer.getConfigAll',
      mode: 0,
      id: tlId(head),
    });
    const block = verifyBlockProof(parseBoc(cfg.stateProof)[0] as Cell, head.rootHash);
    const state = verifyMerkleProof(parseBoc(cfg.configProof)[0] as Cell, blockStateHash(block));
    const p34 = configOf(state).get(34);
    expect(p34).toBeTruthy();
    const validatorKey = validatorKeyOf(p34 as Cell);

    const init = (await d.lite.client.getMasterchainInfo()).init;
    const zero: BlockIdLike = {
      workchain: -1,
      shard: MC_SHARD,
      seqno: 0,
      rootHash: init.rootHash,
      fileHash: init.fileHash,
    };
    let from = zero;
    let links = 0;
    for (let round = 0; round < 20 && from.seqno < head.seqno; round++) {
      const proof = await d.lite.ask<{
        complete: boolean;
        to: BlockIdLike;
        steps: Array<{
          _: string;
          from: BlockIdLike;
          to: BlockIdLike;
          destProof: Buffer;
          signatures?: { signatures: Array<{ nodeIdShort: Buffer; signature: Buffer }> };
        }>;
      }>({ _: 'liteServer.getBlockProof', mode: 1, knownBlock: tlId(from), targetBlock: tlId(head) });
      for (const step of proof.steps) {
        expect(idKey(step.from)).toBe(idKey(from));
        verifyBlockProof(parseBoc(step.destProof)[0] as Cell, step.to.rootHash);
        if (step._ === 'liteServer.blockLinkForward') {
          const sigs = step.signatures?.signatures ?? [];
          expect(sigs.length).toBeGreaterThan(0);
          for (const s of sigs) {
            expect(verifyBlockSignature(validatorKey, step.to.rootHash, step.to.fileHash, s.signature)).toBe(true);
            const tl = Buffer.concat([Buffer.from([0xc6, 0xb4, 0x13, 0x48]), validatorKey]);
            expect(s.nodeIdShort.equals(createHash('sha256').update(tl).digest())).toBe(true);
          }
        }
        from = step.to;
        links++;
      }
      if (proof.complete) break;
    }
    expect(links).toBeGreaterThan(0);
    expect(idKey(from)).toBe(idKey(head));
  });

  it('listBlockTransactions, getOneTransaction, runSmcMethod and getShardInfo proofs verify', async () => {
    const head = await last();
    const wallet = Address.parse(d.wallets.find((w) => w.version === 'v4r2')!.raw);
    const st = await verifiedAccountState(d.lite, wallet, head);
    const txs = await d.lite.client.getAccountTransactions(wallet, st.lastTx!.lt.toString(), st.lastTx!.hash, 1);
    const blk = txs.ids[0] as BlockIdLike;

    const list = await d.lite.ask<{ proof: Buffer; ids: Array<{ hash: Buffer }> }>({
      _: 'liteServer.listBlockTransactions',
      id: tlId(blk),
      mode: 7 | 32,
      count: 16,
      reverseOrder: false,
      wantProof: true,
    });
    expect(list.ids.some((t) => t.hash.equals(st.lastTx!.hash))).toBe(true);
    verifyBlockProof(parseBoc(list.proof)[0] as Cell, blk.rootHash);

    const one = await d.lite.ask<{ proof: Buffer; transaction: Buffer }>({
      _: 'liteServer.getOneTransaction',
      id: tlId(blk),
      account: { workchain: 0, id: wallet.hash },
      lt: st.lastTx!.lt,
    });
    verifyBlockProof(parseBoc(one.proof)[0] as Cell, blk.rootHash);
    expect((parseBoc(one.transaction)[0] as Cell).hash().equals(st.lastTx!.hash)).toBe(true);

    const run = await d.lite.ask<{
      exitCode: number;
      shardblk: BlockIdLike;
      shardProof: Buffer;
      proof: Buffer;
      stateProof: Buffer;
    }>({
      _: 'liteServer.runSmcMethod',
      mode: 7,
      id: tlId(head),
      account: { workchain: 0, id: wallet.hash },
      methodId: BigInt(methodId('seqno')),
      params: serializeTuple([]).toBoc(),
    });
    expect(run.exitCode).toBe(0);
    const [mcBlockProof, mcStateProof] = parseBoc(run.shardProof) as [Cell, Cell];
    verifyMerkleProof(mcStateProof, blockStateHash(verifyBlockProof(mcBlockProof, head.rootHash)));
    const [blockProof, stateProof] = parseBoc(run.proof) as [Cell, Cell];
    verifyMerkleProof(stateProof, blockStateHash(verifyBlockProof(blockProof, run.shardblk.rootHash)));
    const account = await d.lite.client.getAccountStateRaw(wallet, tlcId(head));
    verifyMerkleProof(parseBoc(run.stateProof)[0] as Cell, (parseBoc(account.raw)[0] as Cell).hash());

    const shard = await d.lite.ask<{ shardblk: BlockIdLike; shardProof: Buffer }>({
      _: 'liteServer.getShardInfo',
      id: tlId(head),
      workchain: 0,
      shard: BigInt.asIntN(64, 0x4000000000000000n),
      exact: true,
    });
    expect(BigInt.asUintN(64, BigInt(shard.shardblk.shard))).toBe(0x4000000000000000n);
    const [p1, p2] = parseBoc(shard.shardProof) as [Cell, Cell];
    verifyMerkleProof(p2, blockStateHash(verifyBlockProof(p1, head.rootHash)));
  });
});
