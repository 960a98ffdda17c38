// The file source: block BoCs from files or memory (real mainnet vectors, block dumps). Masterchain blocks and
// the shard chains between them are usually not all at hand, so this source declares its own units instead of
// being walked:
//
// - a masterchain block with seqno N is unit N, together with every shard block in the set that its
//   shard_hashes list as a top;
// - every other shard block joins unit `master_ref.seqno + 1` (the first masterchain block that can commit
//   it), a synthetic key: shard blocks with the same key share a unit, and a key equal to a masterchain block's
//   seqno joins that block's unit.
//
// `units` overrides this with declared units ({ mcSeqno, files }). Account states come from each block's state
// update (see src/ton/block-source/state-update.ts), so they are exact in hashes and balances and carry no pruned
// code/data.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IndexError } from '../../common/index.ts';
import {
  type BlockIdExt,
  blockId,
  blockKey,
  cellsFromBoc,
  type FetchedBlock,
  listShards,
  loadBlockCell,
  statesFromStateUpdate,
} from '../../ton/index.ts';
import type { BlockSource, DeclaredUnit } from './types.ts';

export interface FileSourceInput {
  /** A directory: every `*.boc` file in it (not recursive). */
  dir?: string;
  /** Block BoC files. */
  files?: string[];
  /** Block BoCs already in memory. */
  blocks?: Buffer[];
  /** Declared units (masterchain seqno -> which of the blocks, by root hash); replaces the default grouping. */
  units?: Array<{ mcSeqno: number; rootHashes: Buffer[] }>;
}

/** A file source also lists its unit keys (they are sparse: a range over them would mostly find nothing). */
export interface FileSource extends BlockSource {
  unitSeqnos(): number[];
}

export async function createFileSource(input: FileSourceInput): Promise<FileSource> {
  const all: Buffer[] = [...(input.blocks ?? [])];
  const paths = [...(input.files ?? [])];
  if (input.dir) {
    for (const f of (await readdir(input.dir)).filter((n) => n.endsWith('.boc')).sort()) paths.push(join(input.dir, f));
  }
  for (const p of paths) all.push(await readFile(p));

  const byKey = new Map<string, FetchedBlock>();
  const decoded = new Map<string, ReturnType<typeof loadBlockCell>>();
  for (const bytes of all) {
    const root = cellsFromBoc(bytes)[0]!;
    const block = loadBlockCell(root);
    const fileHash = createHash('sha256').update(bytes).digest();
    const id = blockId(block, root.hash(), fileHash) as BlockIdExt;
    byKey.set(blockKey(id), { id, bytes, root });
    decoded.set(blockKey(id), block);
  }

  const units = new Map<number, BlockIdExt[]>();
  const add = (n: number, id: BlockIdExt) => {
    const list = units.get(n) ?? [];
    if (!list.some((x) => blockKey(x) === blockKey(id))) list.push(id);
    units.set(n, list);
  };
  if (input.units) {
    const byRoot = new Map([...byKey.values()].map((b) => [b.id.rootHash.toString('hex'), b.id]));
    for (const u of input.units) {
      for (const h of u.rootHashes) {
        const id = byRoot.get(h.toString('hex'));
        if (!id)
          throw new IndexError(
            'TG_INDEX_SOURCE',
            `file source: unit ${u.mcSeqno} names block ${h.toString('hex')} that no file holds`,
          );
        add(u.mcSeqno, id);
      }
    }
  } else {
    const claimed = new Set<string>();
    for (const [key, b] of byKey) {
      if (b.id.workchain !== -1) continue;
      add(b.id.seqno, b.id);
      claimed.add(key);
      const custom = decoded.get(key)!.extra.custom;
      for (const top of custom ? listShards(custom.shardHashes) : []) {
        const k = blockKey({ workchain: top.workchain, shard: top.shard, seqno: top.descr.seqNo });
        const hit = byKey.get(k);
        if (hit?.id.rootHash.equals(top.descr.rootHash)) {
          add(b.id.seqno, hit.id);
          claimed.add(k);
        }
      }
    }
    for (const [key, b] of byKey) {
      if (claimed.has(key)) continue;
      const ref = decoded.get(key)!.info.masterRef;
      add((ref?.master.seqNo ?? 0) + 1, b.id);
    }
  }

  const mcSeqnos = [...units.keys()].sort((a, b) => a - b);
  const get = (id: BlockIdExt): FetchedBlock => {
    const b = byKey.get(blockKey(id));
    if (!b?.id.rootHash.equals(id.rootHash)) {
      throw new IndexError('TG_INDEX_NOT_READY', `file source: no file holds block ${blockKey(id)}`, {
        details: { block: blockKey(id) },
      });
    }
    return b;
  };

  return {
    name: 'files',
    unitSeqnos: () => [...mcSeqnos],
    async head() {
      return mcSeqnos.at(-1) ?? -1;
    },
    async mcBlock(seqno) {
      const id = units.get(seqno)?.find((x) => x.workchain === -1);
      return id ? get(id) : null;
    },
    async block(id) {
      return get(id);
    },
    statesFromBlocks: true,
    async accountStates(id, addresses) {
      return statesFromStateUpdate(decoded.get(blockKey(get(id).id))!, addresses);
    },
    async declaredUnit(mcSeqno): Promise<DeclaredUnit | null> {
      const blocks = units.get(mcSeqno);
      return blocks ? { mcSeqno, blocks: [...blocks] } : null;
    },
    async close() {},
  };
}
