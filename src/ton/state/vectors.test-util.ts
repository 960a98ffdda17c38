// Test-only helpers for the state codec tests: where the real shard states sit inside the vectors, and a
// walker over augmented-dictionary nodes. Imported by *.test.ts only (it reads vector files).
import { type Builder, beginCell, Cell, CellType, type Slice } from '@ton/core';
import { loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { loadHmLabel } from '../dict/index.ts';
import { isPrunedCell } from './pruned.ts';

type Json = Record<string, unknown>;

export function bocRoots(base64: string): Cell[] {
  return Cell.fromBoc(Buffer.from(base64, 'base64'));
}

export function rootOf(base64: string): Cell {
  const roots = bocRoots(base64);
  if (roots.length !== 1) throw new Error(`expected one root, got ${roots.length}`);
  return roots[0]!;
}

/** The virtual root of a MerkleProof cell. */
export function proofRoot(c: Cell): Cell {
  if (c.type !== CellType.MerkleProof) throw new Error(`expected a MerkleProof cell, got ${CellType[c.type]}`);
  return c.refs[0]!;
}

/** old_hash / new_hash stored in a MERKLE_UPDATE cell (update#04 old_hash new_hash old_depth new_depth). */
export function merkleUpdateHashes(c: Cell): { oldHash: Buffer; newHash: Buffer } {
  if (c.type !== CellType.MerkleUpdate) throw new Error(`expected a MerkleUpdate cell, got ${CellType[c.type]}`);
  const s = c.beginParse(true);
  s.skip(8);
  return { oldHash: s.loadBuffer(32), newHash: s.loadBuffer(32) };
}

/** A TL `bytes` field at `offset`; returns the bytes and the offset after its padding. */
export function tlBytes(buf: Buffer, offset: number): { bytes: Buffer; next: number } {
  let len = buf[offset]!;
  let head = 1;
  if (len === 254) {
    len = buf.readUIntLE(offset + 1, 3);
    head = 4;
  }
  const end = offset + head + len;
  return { bytes: buf.subarray(offset + head, end), next: end + ((4 - ((head + len) % 4)) % 4) };
}

export interface RealState {
  label: string;
  /** The state's root (an ordinary cell, possibly above pruned branches). */
  cell: Cell;
  /** The level-0 hash the source gives this state (a proof's stored hash, a state_update's old/new hash). */
  expectedHash?: Buffer;
  /** The representation hash the source gives (a root that is itself the virtual root of a proof). */
  expectedReprHash?: Buffer;
  block?: { workchain: number; shard: bigint; seqno: number; json: Json; blockRoot: Cell };
  side?: 'old' | 'new';
}

interface BlockIds {
  workchain: number;
  shard: string;
  seqno: number;
}

/** Every real shard state in the vectors: liteserver/config proofs and both sides of each block's state_update. */
export function realStates(): RealState[] {
  const out: RealState[] = [];
  for (const { file, data } of loadVectors('config')) {
    if (!file.startsWith('config_proof_') && !file.startsWith('config_state_')) continue;
    const root = rootOf(data.boc_base64 as string);
    if (root.type === CellType.MerkleProof) {
      const ids = data.ids as Json;
      out.push({
        label: `config/${file}`,
        cell: proofRoot(root),
        expectedHash: Buffer.from(ids.state_hash_in_proof as string, 'hex'),
      });
    } else {
      const reprHash = Buffer.from((data.ids as Json).root_hash as string, 'hex');
      out.push({ label: `config/${file}`, cell: root, expectedReprHash: reprHash });
    }
  }
  // liteServer.accountState.proof: [0] proves the block header, [1] the state; the block's state_update
  // names the state's hash.
  const accountProof = bocRoots(loadVector<Json>('liteserver', 'account_proof_toncore.json').boc_base64 as string);
  out.push({
    label: 'liteserver/account_proof_toncore.json[1]',
    cell: proofRoot(accountProof[1]!),
    expectedHash: merkleUpdateHashes(proofRoot(accountProof[0]!).refs[2]!).newHash,
  });
  const check = loadVector<Json>('liteserver', 'proof_check_tonutils.json');
  out.push({
    label: 'liteserver/proof_check_tonutils.json',
    cell: proofRoot(rootOf(check.boc_base64 as string)),
    expectedHash: Buffer.from((check.expected as Json).CheckProof_hash as string, 'hex'),
  });
  const cfgAll = getConfigAllProofs();
  out.push({
    label: 'liteserver/get_config_all_tongo.json config_proof',
    cell: proofRoot(cfgAll.configProof),
    expectedHash: merkleUpdateHashes(proofRoot(cfgAll.stateProof).refs[2]!).newHash,
  });
  const blockFiles = loadVectors('blocks').map((v) => ({ ...v, folder: 'blocks' }));
  const pop = loadVector<Json>('liteserver', 'proof_of_proof_masterchain_block_tonutils.json');
  blockFiles.push({ file: 'proof_of_proof_masterchain_block_tonutils.json', data: pop, folder: 'liteserver' });
  for (const { file, data, folder } of blockFiles) {
    const blockRoot = rootOf(data.boc_base64 as string);
    const info = ((data.verification as Json).block_info ?? (data.verification as Json).block) as Json;
    const ids: BlockIds = {
      workchain: info.workchain as number,
      shard: info.shard as string,
      seqno: info.seqno as number,
    };
    const update = blockRoot.refs[2]!;
    const { oldHash, newHash } = merkleUpdateHashes(update);
    const block = {
      workchain: ids.workchain,
      shard: BigInt(`0x${ids.shard}`),
      seqno: ids.seqno,
      json: data,
      blockRoot,
    };
    out.push({ label: `${folder}/${file} old`, cell: update.refs[0]!, expectedHash: oldHash, block, side: 'old' });
    out.push({ label: `${folder}/${file} new`, cell: update.refs[1]!, expectedHash: newHash, block, side: 'new' });
  }
  return out;
}

/** liteServer.configInfo mode:# id:tonNode.blockIdExt state_proof:bytes config_proof:bytes. */
export function getConfigAllProofs(): { stateProof: Cell; configProof: Cell; seqno: number } {
  const v = loadVector<Json>('liteserver', 'get_config_all_tongo.json');
  const buf = Buffer.from(v.response_hex as string, 'hex');
  const seqno = buf.readUInt32LE(4 + 4 + 4 + 8);
  const state = tlBytes(buf, 4 + 4 + 80);
  const config = tlBytes(buf, state.next);
  return { stateProof: Cell.fromBoc(state.bytes)[0]!, configProof: Cell.fromBoc(config.bytes)[0]!, seqno };
}

export interface AugNode {
  cell: Cell;
  /** Key bits left below this node's label. */
  n: number;
  /** Key bits still to be read at this node (label included). */
  keyBits: number;
  isLeaf: boolean;
  /** The key bits read down to and including this node's label (the whole key at a leaf). */
  key: bigint;
  /**
   * The slice positioned at the extra, for forks and leaves alike: after the label, and for a fork also past
   * its two child refs (so an extra that holds a ref, e.g. an extra-currency dict, reads its own ref).
   */
  afterLabel: Slice;
  children: Cell[];
}

/** Every non-pruned node of a HashmapAug rooted at `root` with `keyBits` key bits. */
export function augNodes(root: Cell, keyBits: number): AugNode[] {
  const out: AugNode[] = [];
  const visit = (c: Cell, bits: number, prefix: bigint) => {
    if (isPrunedCell(c)) return;
    const s = c.beginParse();
    const label = loadHmLabel(s, bits);
    const n = bits - label.len;
    const key = (prefix << BigInt(label.len)) | label.bits;
    const children = n === 0 ? [] : [s.loadRef(), s.loadRef()];
    out.push({ cell: c, n, keyBits: bits, isLeaf: n === 0, key, afterLabel: s, children });
    children.forEach((child, i) => {
      visit(child, n - 1, (key << 1n) | BigInt(i));
    });
  };
  visit(root, keyBits, 0n);
  return out;
}

/** The extra of a HashmapAug node (after its label, and for a fork after its two child refs). */
export function nodeExtra<E>(node: Cell, keyBits: number, loadExtra: (s: Slice) => E): E {
  const s = node.beginParse();
  const label = loadHmLabel(s, keyBits);
  if (label.len < keyBits) {
    s.loadRef();
    s.loadRef();
  }
  return loadExtra(s);
}

export function cellOf(store: (b: Builder) => void): Cell {
  return beginCell().store(store).endCell();
}
