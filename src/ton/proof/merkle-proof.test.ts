import { beginCell, Cell, CellType, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { ProofError } from '../../common/errors.ts';
import { parseBoc, serializeBoc } from '../boc/index.ts';
import {
  blockStateHash,
  buildMerkleProof,
  createMerkleProof,
  createPrunedBranch,
  loadMerkleProof,
  proveCells,
  proveReads,
  trackCellUsage,
  verifyBlockProof,
  verifyMerkleProof,
} from './index.ts';
import { findTransaction, hexBuf, lookupHashmap, refAt } from './test-support.ts';

type Vec = { boc_base64: string };
const rootOf = (...parts: string[]) => parseBoc(Buffer.from(loadVector<Vec>(...parts).boc_base64, 'base64'))[0] as Cell;

describe('trackCellUsage', () => {
  const leaf = beginCell().storeUint(5, 8).endCell();
  const shared = beginCell().storeUint(1, 4).storeRef(leaf).endCell();
  const root = beginCell().storeUint(9, 8).storeRef(shared).storeRef(shared).endCell();

  it('records cells whose contents are read, not those whose hash is taken', () => {
    const u = trackCellUsage(root);
    expect(u.root).toBeInstanceOf(Cell);
    expect(u.root.hash().equals(root.hash())).toBe(true);
    const s = u.root.beginParse();
    expect(s.loadUint(8)).toBe(9);
    const child = s.loadRef();
    expect(child.hash(0).equals(shared.hash(0))).toBe(true);
    expect(child.depth()).toBe(1);
    expect([...u.visited]).toEqual([root]);
    expect(child.beginParse().loadUint(4)).toBe(1);
    expect(u.visited.has(shared)).toBe(true);
    expect(u.visited.has(leaf)).toBe(false);
    // The same original cell reached twice is the same view.
    expect(s.loadRef()).toBe(child);
  });

  it('treats bits and refs access as a read and keeps exotic cells closed without allowExotic', () => {
    const pruned = createPrunedBranch(shared, 0);
    const holder = beginCell().storeRef(pruned).endCell();
    const u = trackCellUsage(holder);
    const p = u.root.refs[0] as Cell;
    expect(u.visited.has(holder)).toBe(true);
    expect(p.isExotic).toBe(true);
    expect(() => p.beginParse()).toThrow('Exotic cells cannot be parsed');
    expect(u.visited.has(pruned)).toBe(false);
    expect(p.bits.length).toBe(288);
    expect(u.visited.has(pruned)).toBe(true);
  });
});

describe('createPrunedBranch', () => {
  const leaf = beginCell().storeUint(5, 8).endCell();
  const cell = beginCell().storeUint(1, 1).storeRef(leaf).endCell();

  it('stands for the subtree at level depth + 1, preserving its level-0 hash and depth', () => {
    for (const depth of [0, 1, 2]) {
      const p = createPrunedBranch(cell, depth);
      expect(p.type).toBe(CellType.PrunedBranch);
      expect(p.level()).toBe(depth + 1);
      // Gap-free masks 1, 3, 7 (see pruned-branch.ts: @ton/core cannot hold the node's mask 2 or 4 here).
      expect(p.mask.value).toBe((1 << (depth + 1)) - 1);
      expect(p.hash(0).equals(cell.hash(0))).toBe(true);
      expect(p.depth(0)).toBe(cell.depth(0));
    }
  });

  it('refuses a Merkle depth beyond what a level mask can express', () => {
    expect(() => createPrunedBranch(cell, 3)).toThrow(ProofError);
  });

  it('cannot be wrapped into a level-0 proof when pruned deeper than the tree is nested', () => {
    const tree = beginCell().storeRef(createPrunedBranch(cell, 1)).endCell();
    expect(() => createMerkleProof(tree)).toThrow(/expected level 0, got 1/);
  });
});

describe.skipIf(!hasVectors)('buildMerkleProof on real trees', () => {
  // tonutils-go tvm/cell/proof_test.go:84 (TestCheckCascadeProof) unwraps this cascade proof: a proof
  // of the proof in proof_check_tonutils.json that opens the state root and its third child.
  it('rebuilds the real cascade proof (a proof of a proof) bit for bit', () => {
    const inner = rootOf('liteserver', 'proof_check_tonutils.json');
    const cascade = loadVector<{ verification: { root_hash: string } }>('liteserver', 'cascade_proof_tonutils.json');
    const { proof } = proveReads(inner, (p) => {
      const state = p.beginParse(true).loadRef();
      state.beginParse();
      state.refs[2]?.beginParse();
    });
    expect(proof.hash().toString('hex')).toBe(cascade.verification.root_hash);
  });

  describe('a transaction read from block 0:8000000000000000:71398501 through the AccountBlock path', () => {
    const block = rootOf('blocks', 'mainnet_0_8000000000000000_71398501.json');
    const blockHash = hexBuf('244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241');
    const tx = loadVector<{ ids: { tx_hash_hex: string; lt: string; account: string } }>(
      'transactions',
      'jetton_burn_2300d2f7.json',
    ).ids;
    const account = BigInt(`0x${tx.account.split(':')[1]}`);
    const { proof, value } = proveReads(block, (b) => {
      const txCell = findTransaction(b, account, BigInt(tx.lt));
      if (!txCell) throw new Error('transaction not found');
      return loadTransaction(txCell.beginParse());
    });

    it('reads the transaction the vector names', () => {
      expect(block.hash().equals(blockHash)).toBe(true);
      expect(value.lt).toBe(BigInt(tx.lt));
      expect(value.hash().toString('hex')).toBe(tx.tx_hash_hex);
    });

    it('verifies against the block root hash and gives the same transaction when re-read from the proof', () => {
      const wire = serializeBoc([proof], { crc32: false });
      const virtualBlock = verifyBlockProof(parseBoc(wire)[0] as Cell, blockHash);
      const txCell = findTransaction(virtualBlock, account, BigInt(tx.lt));
      expect(txCell?.hash(0).toString('hex')).toBe(tx.tx_hash_hex);
      const again = loadTransaction((txCell as Cell).beginParse());
      expect(again.lt).toBe(value.lt);
      expect(again.now).toBe(value.now);
      expect(again.outMessagesCount).toBe(value.outMessagesCount);
      // A small fraction of the block.
      const blockBytes = Buffer.from(
        loadVector<Vec>('blocks', 'mainnet_0_8000000000000000_71398501.json').boc_base64,
        'base64',
      );
      expect(wire.length).toBeLessThan(blockBytes.length / 50);
    });

    it('prunes what was not read, keeping its hash', () => {
      const virtualBlock = verifyMerkleProof(proof, blockHash);
      // value_flow, state_update and in/out_msg_descr were never opened.
      for (const path of [[1], [2], [3, 0], [3, 1]]) {
        const v = refAt(virtualBlock, ...path);
        expect(v.type).toBe(CellType.PrunedBranch);
        expect(v.hash(0).equals(refAt(block, ...path).hash(0))).toBe(true);
      }
      // Another account of the same block (jetton_burn_notification_a526406f): its path runs into a pruned
      // branch that carries the original subtree's hash.
      const other = BigInt('0xbdf3fa8098d129b54b4f73b5bac5d1e1fd91eb054169c3916dfc8ccd536d1000');
      const path: number[] = [];
      expect(lookupHashmap(refAt(block, 3, 2, 0).beginParse(), 256, other, path)).toBeDefined();
      let v = refAt(virtualBlock, 3, 2, 0);
      let o = refAt(block, 3, 2, 0);
      for (const i of path) {
        if (v.isExotic) break;
        v = v.refs[i] as Cell;
        o = o.refs[i] as Cell;
      }
      expect(v.type).toBe(CellType.PrunedBranch);
      expect(v.hash(0).equals(o.hash(0))).toBe(true);
      expect(() => findTransaction(virtualBlock, other, 76734069000007n)).toThrow('Exotic cells cannot be parsed');
    });
  });

  it('builds a block header proof with the state_update sides pruned at level 2, as liteservers send', () => {
    const block = rootOf('blocks', 'mainnet_-1_8000000000000000_24374597.json');
    const proof = proveCells(block, [[0], [2]]);
    const v = verifyBlockProof(proof, block.hash(0));
    expect(blockStateHash(v).equals(blockStateHash(block))).toBe(true);
    const update = v.refs[2] as Cell;
    expect(update.type).toBe(CellType.MerkleUpdate);
    for (const side of update.refs) {
      // The sides already hold level-1 pruned branches; inside the update (Merkle depth 1) they are
      // pruned again at level 2, keeping both hashes (mask 3), like the real proof in account_proof_toncore.
      expect(side.type).toBe(CellType.PrunedBranch);
      expect(side.mask.value).toBe(3);
    }
    expect(v.refs[1]?.mask.value).toBe(1);
    expect(v.refs[3]?.mask.value).toBe(1);
  });

  it('nests proofs three deep, raising pruned levels to 2 and 3', () => {
    const block = rootOf('liteserver', 'proof_of_proof_masterchain_block_tonutils.json');
    const p1 = proveCells(block, [[0], [2]]);
    // A proof of p1 that opens the block but none of its children: inside p1 (Merkle depth 1) the children
    // with refs get level-2 pruned branches; the ones p1 had already pruned (level 1) stay as they are.
    const p2 = proveCells(p1, [[0]]);
    // A proof of p2 that opens p1 but not the block: the block is pruned at depth 2, level 3.
    const p3 = proveCells(p2, [[0]]);
    for (const p of [p1, p2, p3]) expect(p.level()).toBe(0);

    const b2 = verifyMerkleProof(verifyMerkleProof(p2, p1.hash(0)), block.hash(0), 1);
    expect(b2.refs.map((r) => r.level())).toEqual([2, 1, 2, 1]);
    expect(b2.refs.map((r) => r.mask.value)).toEqual([3, 1, 3, 1]);
    expect(b2.refs.map((r) => r.hash(0).toString('hex'))).toEqual(block.refs.map((r) => r.hash(0).toString('hex')));

    const v3 = verifyMerkleProof(p3, p2.hash(0));
    const v3b = verifyMerkleProof(v3, p1.hash(0), 1);
    const b3 = verifyMerkleProof(v3b, block.hash(0), 2);
    expect(b3.type).toBe(CellType.PrunedBranch);
    expect(b3.level()).toBe(3);
    expect(b3.hash(0).equals(block.hash(0))).toBe(true);
    // A proof nested that deep is not acceptable on its own.
    expect(() => verifyMerkleProof(v3b, block.hash(0))).toThrow(/expected level 0, got 2/);
  });

  it('keeps cells by predicate and rejects paths that leave the tree', () => {
    const block = rootOf('blocks', 'mainnet_tongo_block-5.json');
    const extra = block.refs[3] as Cell;
    const proof = proveCells(block, (c) => c.hash().equals(extra.hash()));
    const v = verifyMerkleProof(proof, block.hash(0));
    expect(v.refs[3]?.isExotic).toBe(false);
    expect(v.refs[0]?.isExotic).toBe(true);
    expect(() => proveCells(block, [[3, 9]])).toThrow(/path \[3,9\] leaves the tree at step 1/);
  });

  it('keeps the whole tree when every cell is kept, giving the plain convertToMerkleProof cell', () => {
    const account = rootOf('accounts', 'account_state_test_c8af6e3c.json');
    const proof = buildMerkleProof(account, () => true);
    expect(loadMerkleProof(proof.beginParse(true)).virtualRoot).toBe(account);
    expect(proof.hash(0).toString('hex')).toBe(createMerkleProof(account).hash(0).toString('hex'));
  });
});
