import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { ProofError } from '../../common/errors.ts';
import { parseBoc } from '../boc/index.ts';
import { buildMerkleUpdate, createMerkleUpdate, loadMerkleUpdate, pruneTree, verifyMerkleUpdate } from './index.ts';

// The replay vectors were written by tonutils-go, which puts a wrong level mask in some d1 bytes.
const rootOf = (b64: string) => parseBoc(Buffer.from(b64, 'base64'), { allowLevelMaskMismatch: true })[0] as Cell;

function hashesOf(root: Cell): Set<string> {
  const out = new Set<string>();
  const walk = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (out.has(h)) return;
    out.add(h);
    c.refs.forEach(walk);
  };
  walk(root);
  return out;
}

function prunedIn(root: Cell): Cell[] {
  const out: Cell[] = [];
  const walk = (c: Cell) => {
    if (c.type === CellType.PrunedBranch) out.push(c);
    else c.refs.forEach(walk);
  };
  walk(root);
  return out;
}

/** The block with BlockInfo.gen_utime (bit 248: tag, version, 8 flag bits, flags, seq_no, vert_seq_no, shard) changed. */
function withGenUtime(block: Cell, utime: number): Cell {
  const info = block.refs[0] as Cell;
  const s = info.beginParse();
  const head = s.loadBits(248);
  s.skip(32);
  const b = beginCell().storeBits(head).storeUint(utime, 32).storeBits(s.loadBits(s.remainingBits));
  for (const r of info.refs) b.storeRef(r);
  const nb = beginCell().storeBits(block.bits).storeRef(b.endCell());
  for (const r of block.refs.slice(1)) nb.storeRef(r);
  return nb.endCell();
}

describe.skipIf(!hasVectors)('real state_update cells of blocks', () => {
  const blocks = loadVectors<{ boc_base64: string }>('blocks');

  it.each(blocks.map((b) => [b.file, b.data.boc_base64] as const))(
    '%s: verifies, including the applicability check',
    (_f, b64) => {
      const update = rootOf(b64).refs[2] as Cell;
      const u = loadMerkleUpdate(update.beginParse(true));
      const sides = verifyMerkleUpdate(update, u.oldHash, u.newHash);
      expect(sides.new.hash(0).equals(u.newHash)).toBe(true);
      // Wrong or swapped hashes fail.
      expect(() => verifyMerkleUpdate(update, u.newHash, u.oldHash)).toThrow(ProofError);
      expect(() => verifyMerkleUpdate(update, u.oldHash, u.oldHash)).toThrow(/expected new hash/);
    },
  );

  it('fails when the old side no longer shows a subtree the new side reuses', () => {
    const block = rootOf(blocks.find((b) => b.file === 'mainnet_tongo_block-5.json')?.data.boc_base64 as string);
    const u = loadMerkleUpdate((block.refs[2] as Cell).beginParse(true));
    // Same old hash, but everything below the old root's children pruned away.
    const cut = createMerkleUpdate(
      pruneTree(u.old, () => false),
      u.new,
    );
    expect(() => verifyMerkleUpdate(cut, u.oldHash, u.newHash)).toThrow(/the old tree does not contain/);
  });

  it('refuses a cell that is not a Merkle update', () => {
    const block = rootOf(blocks[0]?.data.boc_base64 as string);
    expect(() => verifyMerkleUpdate(block, block.hash(0), block.hash(0))).toThrow(
      /expected an exotic Merkle update cell/,
    );
  });
});

describe.skipIf(!hasVectors)('buildMerkleUpdate on real trees', () => {
  it('block 0:8000000000000000:71398501 -> the same block with another gen_utime', () => {
    const v = loadVector<{ boc_base64: string }>('blocks', 'mainnet_0_8000000000000000_71398501.json');
    const block = rootOf(v.boc_base64);
    const changed = withGenUtime(block, 1_800_000_000);
    const update = buildMerkleUpdate(block, changed);
    const { old, new: next } = verifyMerkleUpdate(update, block.hash(0), changed.hash(0));

    // New side: root and BlockInfo are new; value_flow, state_update and extra are reused, so pruned.
    const info = next.refs[0] as Cell;
    expect(info.isExotic).toBe(false);
    const s = info.beginParse();
    s.skip(248);
    expect(s.loadUint(32)).toBe(1_800_000_000);
    for (const i of [1, 2, 3]) {
      expect(next.refs[i]?.type).toBe(CellType.PrunedBranch);
      expect(next.refs[i]?.hash(0).equals((block.refs[i] as Cell).hash(0))).toBe(true);
    }
    // BlockInfo's children have no refs: reused, yet kept as they are (the node never prunes such cells).
    for (const r of info.refs) expect(r.isExotic).toBe(false);
    // Old side: only the path to the reused cells (the root); the old BlockInfo is not needed.
    expect(old.isExotic).toBe(false);
    expect(old.refs[0]?.type).toBe(CellType.PrunedBranch);
    expect(old.refs[0]?.hash(0).equals((block.refs[0] as Cell).hash(0))).toBe(true);
  });

  it('two real mainnet config dictionaries (tonutils-go fixtures, years apart): unchanged params are reused', () => {
    const before = rootOf(loadVector<{ boc_base64: string }>('config', 'config_dict_mainnet_tonutils.json').boc_base64);
    const after = rootOf(
      loadVector<{ boc_base64: string }>('config', 'config_dict_mainnet_tonutils_replay_2026.json').boc_base64,
    );
    const update = buildMerkleUpdate(before, after);
    const { old, new: next } = verifyMerkleUpdate(update, before.hash(0), after.hash(0));
    const oldHashes = hashesOf(before);
    const reused = prunedIn(next);
    expect(reused.length).toBeGreaterThan(0);
    for (const p of reused) expect(oldHashes.has(p.hash(0).toString('hex'))).toBe(true);
    // The new side carries only what changed (here most of it: validator sets and prices moved), the old
    // side only the paths down to the reused subtrees.
    expect(hashesOf(next).size).toBeLessThan(hashesOf(after).size);
    expect(hashesOf(old).size).toBeLessThan(hashesOf(before).size / 10);
  });

  it.each(['replay_00b5ea43_76982528000005.json', 'replay_2b615dd3_76982529000011.json'])(
    'replay/%s: ShardAccount before -> after, where nothing with refs is reused',
    (file) => {
      const v = loadVector<{ from_shard_account_boc_base64: string; to_shard_account_boc_base64: string }>(
        'replay',
        file,
      );
      const before = rootOf(v.from_shard_account_boc_base64);
      const after = rootOf(v.to_shard_account_boc_base64);
      const update = buildMerkleUpdate(before, after);
      const { old, new: next } = verifyMerkleUpdate(update, before.hash(0), after.hash(0));
      // The code is a library reference cell (no refs): the same on both sides, kept rather than pruned.
      expect(prunedIn(next)).toEqual([]);
      expect(next.hash().equals(after.hash())).toBe(true);
      // Nothing to reach in the old tree: the old side is a bare pruned branch.
      expect(old.type).toBe(CellType.PrunedBranch);
    },
  );

  it('an unchanged tree gives a bare pruned new side', () => {
    const v = loadVector<{ boc_base64: string }>('accounts', 'account_state_test_c8af6e3c.json');
    const account = rootOf(v.boc_base64);
    const update = buildMerkleUpdate(account, account);
    const { new: next } = verifyMerkleUpdate(update, account.hash(0), account.hash(0));
    expect(next.type).toBe(CellType.PrunedBranch);
  });

  it('refuses trees that are already partial', () => {
    const v = loadVector<{ boc_base64: string }>('liteserver', 'proof_check_tonutils.json');
    const partial = (rootOf(v.boc_base64).refs[0] as Cell) ?? Cell.EMPTY;
    expect(() => buildMerkleUpdate(partial, partial)).toThrow(/expected complete trees/);
  });
});
