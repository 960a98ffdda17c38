import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { ProofError } from '../../common/errors.ts';
import { parseBoc, parseBocHeader } from '../boc/index.ts';
import {
  blockStateHash,
  createMerkleProof,
  createPrunedBranch,
  proveCells,
  pruneTree,
  verifyBlockProof,
  verifyMerkleProof,
  verifyMerkleProofBoc,
  verifyProofBoc,
  verifyStateProof,
} from './index.ts';
import { blockSeqno, hexBuf, stateSeqno } from './test-support.ts';

type ProofVec = {
  boc_base64: string;
  verification: { stored_hash: string; virtual_root_hash: string; root_hash: string };
};
const bocOf = (...parts: string[]) => Buffer.from(loadVector<{ boc_base64: string }>(...parts).boc_base64, 'base64');

/** liteServer.configInfo mode:# id:tonNode.blockIdExt state_proof:bytes config_proof:bytes (lite_api.tl). */
function readConfigInfo(resp: Buffer): { stateProof: Buffer; configProof: Buffer } {
  let pos = 4 + 4 + 80;
  const bytes = (): Buffer => {
    const start = pos;
    let len = resp[pos] as number;
    let skip = 1;
    if (len === 254) {
      len = resp.readUIntLE(pos + 1, 3);
      skip = 4;
    }
    const out = resp.subarray(pos + skip, pos + skip + len);
    pos += skip + len;
    pos += (4 - ((pos - start) % 4)) % 4;
    return out;
  };
  return { stateProof: bytes(), configProof: bytes() };
}

/** Copy of a tree with one cell (found by hash) replaced, rehashing the path above it. */
function replaceCell(root: Cell, target: Buffer, replacement: Cell): Cell {
  if (root.hash().equals(target)) return replacement;
  const refs = root.refs.map((r) => replaceCell(r, target, replacement));
  if (refs.every((r, i) => r === root.refs[i])) return root;
  return new Cell({ exotic: root.isExotic, bits: root.bits, refs });
}

describe.skipIf(!hasVectors)('real Merkle proofs verify against the hash they prove', () => {
  it('account_proof_toncore: block proof of 0:8000000000000000:31618192 + state proof (two roots)', () => {
    const v = loadVector<{ ids: { block_root_hash: string }; verification: { roots: { stored_hash: string }[] } }>(
      'liteserver',
      'account_proof_toncore.json',
    );
    const { block, state } = verifyProofBoc(
      bocOf('liteserver', 'account_proof_toncore.json'),
      hexBuf(v.ids.block_root_hash),
    );
    expect(blockSeqno(block)).toBe(31618192);
    expect(blockStateHash(block).toString('hex')).toBe(v.verification.roots[1]?.stored_hash);
    // The state the proof reveals is the state after that very block.
    expect(stateSeqno(state as Cell)).toBe(31618192);
  });

  it('get_config_all_tongo: state_proof (block) and config_proof (state) from a raw liteServer.configInfo', () => {
    const v = loadVector<{
      response_hex: string;
      ids: { block: { seqno: number; root_hash: string } };
      verification: { config_proof: { virtual_root_hash: string } };
    }>('liteserver', 'get_config_all_tongo.json');
    const { stateProof, configProof } = readConfigInfo(Buffer.from(v.response_hex, 'hex'));
    const [blockProof] = parseBoc(stateProof);
    const [stateProofRoot] = parseBoc(configProof);
    const { block, state } = verifyStateProof(
      blockProof as Cell,
      stateProofRoot as Cell,
      hexBuf(v.ids.block.root_hash),
    );
    expect(blockSeqno(block)).toBe(v.ids.block.seqno);
    expect(state.hash(0).toString('hex')).toBe(v.verification.config_proof.virtual_root_hash);
    expect(stateSeqno(state)).toBe(v.ids.block.seqno);
  });

  it.each([
    'config_proof_mainnet_33651872.json',
    'config_proof_mainnet_65466080.json',
    'config_proof_testnet_4324374.json',
  ])('config/%s proves the masterchain state it names', (file) => {
    const v = loadVector<{
      boc_base64: string;
      ids: { masterchain_seqno: number; proof_root_hash: string; state_hash_in_proof: string };
    }>('config', file);
    const bytes = Buffer.from(v.boc_base64, 'base64');
    expect((parseBoc(bytes)[0] as Cell).hash().toString('hex')).toBe(v.ids.proof_root_hash);
    const state = verifyMerkleProofBoc(bytes, hexBuf(v.ids.state_hash_in_proof));
    expect(stateSeqno(state)).toBe(v.ids.masterchain_seqno);
  });

  it('account_state_test_pruned_proof proves the full account in accounts/account_state_test_c8af6e3c.json', () => {
    const v = loadVector<ProofVec>('liteserver', 'account_state_test_pruned_proof.json');
    const full = parseBoc(bocOf('accounts', 'account_state_test_c8af6e3c.json'))[0] as Cell;
    const account = verifyMerkleProofBoc(bocOf('liteserver', 'account_state_test_pruned_proof.json'), full.hash());
    expect(account.hash(0).toString('hex')).toBe(v.verification.virtual_root_hash);
  });

  it('proof_check_tonutils proves the state hash tonutils-go checks (tvm/cell/proof_test.go:10)', () => {
    const v = loadVector<{ expected: { CheckProof_hash: string } }>('liteserver', 'proof_check_tonutils.json');
    const state = verifyMerkleProofBoc(
      bocOf('liteserver', 'proof_check_tonutils.json'),
      hexBuf(v.expected.CheckProof_hash.toLowerCase()),
    );
    expect(state.beginParse().preloadUint(32)).toBe(0x9023afe2);
  });

  it('cascade_proof_tonutils unwraps along the chain tonutils-go asserts (tvm/cell/proof_test.go:84)', () => {
    const v = loadVector<{ expected: { unwrap_chain: string[] } }>('liteserver', 'cascade_proof_tonutils.json');
    const [outerHash, innerHash, stateHash] = v.expected.unwrap_chain.map((h) => hexBuf(h.toLowerCase())) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    const [outer] = parseBoc(bocOf('liteserver', 'cascade_proof_tonutils.json')) as [Cell];
    expect(outer.hash().equals(outerHash)).toBe(true);
    const inner = verifyMerkleProof(outer, innerHash);
    const state = verifyMerkleProof(inner, stateHash, 1);
    expect(state.beginParse().preloadUint(32)).toBe(0x9023afe2);
    // The inner proof is not a complete proof on its own: the outer one pruned parts of it at level 2.
    expect(() => verifyMerkleProof(inner, stateHash)).toThrow(/expected level 0, got 1/);
  });

  it('every proof root in liteserver/ and config/ stores the hash of its virtual root', () => {
    let checked = 0;
    for (const folder of ['liteserver', 'config']) {
      for (const { data } of loadVectors<{ boc_base64?: string }>(folder)) {
        if (!data.boc_base64) continue;
        for (const root of parseBoc(Buffer.from(data.boc_base64, 'base64'), { allowLevelMaskMismatch: true })) {
          if (root.type !== CellType.MerkleProof) continue;
          const child = root.refs[0] as Cell;
          expect(verifyMerkleProof(root, child.hash(0)).hash(0).equals(child.hash(0))).toBe(true);
          checked++;
        }
      }
    }
    // 2 (account proof) + 1 + 1 + 1 (pruned account, cascade, proof check) + 3 config proofs.
    expect(checked).toBe(8);
  });
});

describe.skipIf(!hasVectors)('tampered proofs fail with ProofError', () => {
  const v = loadVector<{ ids: { state_hash_in_proof: string } }>('config', 'config_proof_mainnet_33651872.json');
  const bytes = bocOf('config', 'config_proof_mainnet_33651872.json');
  const stateHash = hexBuf(v.ids.state_hash_in_proof);
  const proof = parseBoc(bytes)[0] as Cell;
  const state = proof.refs[0] as Cell;

  it('a wrong expected hash', () => {
    const wrong = Buffer.from(stateHash);
    wrong[31] = (wrong[31] ?? 0) ^ 1;
    expect(() => verifyMerkleProof(proof, wrong)).toThrow(ProofError);
    expect(() => verifyMerkleProof(proof, wrong)).toThrow(/expected root hash .* the proof proves a9e24bd6/);
    expect(() => verifyMerkleProof(proof, Buffer.alloc(31))).toThrow(/must be 32 bytes/);
  });

  it('a flipped bit in a visited cell, even with the proof cell re-made around it', () => {
    const bits = state.beginParse();
    const tag = bits.loadUint(32);
    const globalId = bits.loadInt(32);
    const rest = bits.loadBits(bits.remainingBits);
    const b = beginCell()
      .storeUint(tag, 32)
      .storeInt(globalId ^ 1, 32)
      .storeBits(rest);
    for (const r of state.refs) b.storeRef(r);
    const tampered = createMerkleProof(b.endCell());
    expect(() => verifyMerkleProof(tampered, stateHash)).toThrow(ProofError);
  });

  it('a flipped bit in the BoC bytes of a visited cell', () => {
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf(Buffer.from('9023afe2', 'hex'), parseBocHeader(tampered).dataOffset);
    tampered[at + 5] = (tampered[at + 5] ?? 0) ^ 0x10;
    expect(() => verifyMerkleProofBoc(tampered, stateHash)).toThrow(ProofError);
    expect(() => verifyMerkleProofBoc(tampered, stateHash)).toThrow(/Merkle Proof cell ref hash must be exactly/);
  });

  it('a pruned branch that carries another hash', () => {
    const prunedCells: Cell[] = [];
    const collect = (c: Cell) => {
      if (c.type === CellType.PrunedBranch) prunedCells.push(c);
      else c.refs.forEach(collect);
    };
    collect(state);
    const [a, b] = prunedCells as [Cell, Cell];
    expect(a.hash(0).equals(b.hash(0))).toBe(false);
    // Put b's hash where a was: a valid cell, but the tree now hashes differently.
    const swapped = replaceCell(state, a.hash(), b);
    const remade = createMerkleProof(swapped);
    expect(() => verifyMerkleProof(remade, stateHash)).toThrow(/expected root hash/);
    // In the wire form the stored proof hash no longer matches, which the BoC reader catches.
    const wire = Buffer.from(bytes);
    const at = wire.indexOf(a.bits.subbuffer(0, 288) as Buffer);
    expect(at).toBeGreaterThan(0);
    (b.bits.subbuffer(0, 288) as Buffer).copy(wire, at);
    expect(() => verifyMerkleProofBoc(wire, stateHash)).toThrow(ProofError);
  });

  it('something that is not a level-0 Merkle proof', () => {
    expect(() => verifyMerkleProof(state, stateHash)).toThrow(
      /expected an exotic Merkle proof cell \(type 3\), got an ordinary cell/,
    );
    const deep = beginCell()
      .storeRef(createPrunedBranch(beginCell().storeRef(Cell.EMPTY).endCell(), 1))
      .endCell();
    const levelOne = new Cell({
      exotic: true,
      bits: beginCell().storeUint(3, 8).storeBuffer(deep.hash(0)).storeUint(deep.depth(0), 16).endCell().bits,
      refs: [deep],
    });
    expect(() => verifyMerkleProof(levelOne, deep.hash(0))).toThrow(/expected level 0, got 1/);
  });

  it('a BoC that does not parse, or has the wrong number of roots', () => {
    expect(() => verifyMerkleProofBoc(bytes.subarray(0, 100), stateHash)).toThrow(ProofError);
    const two = bocOf('liteserver', 'account_proof_toncore.json');
    expect(() => verifyMerkleProofBoc(two, stateHash)).toThrow(/expected 1 root, got 2/);
  });
});

describe.skipIf(!hasVectors)('block and state proofs', () => {
  const block = parseBoc(bocOf('blocks', 'mainnet_0_8000000000000000_29836576.json'))[0] as Cell;
  const blockHash = hexBuf('129b0f8f95c96555fcd13074ad07ee965fdaa06b29cb5f7aeb45e566b137817b');

  it('a header proof without the state_update cannot name a state', () => {
    const proof = proveCells(block, [[0]]);
    const v = verifyBlockProof(proof, blockHash);
    expect(blockSeqno(v)).toBe(29836576);
    expect(() => blockStateHash(v)).toThrow(/state_update \(ref 2\) as a Merkle update, got exotic cell type 1/);
  });

  it('a state proof must prove the state the block names, and must come second', () => {
    const blockProof = proveCells(block, [[0], [2]]);
    const newState = (block.refs[2] as Cell).refs[1] as Cell;
    const oldState = (block.refs[2] as Cell).refs[0] as Cell;
    // The sides of a real state_update are partial trees already; a proof of one is a proof of the state.
    const stateProof = createMerkleProof(pruneTree(newState, () => false));
    const ok = verifyStateProof(blockProof, stateProof, blockHash);
    expect(ok.state.hash(0).equals(newState.hash(0))).toBe(true);
    const oldProof = createMerkleProof(pruneTree(oldState, () => false));
    expect(() => verifyStateProof(blockProof, oldProof, blockHash)).toThrow(/expected root hash/);
    expect(() => verifyStateProof(stateProof, blockProof, blockHash)).toThrow(ProofError);
    expect(() => verifyBlockProof(stateProof, newState.hash(0))).toThrow(/expected Block tag 0x11ef55aa/);
  });
});
