// The real mainnet blocks of vectors/blocks written by openNodeDbWriter into node-format trees, read back by NodeDb.
// They are isolated blocks (two masterchain blocks, shard blocks of unrelated masterchain seqnos), so no masterchain
// block commits them: the writer stores each shard block as the node would once masterchain block `master_ref`
// committed it (appendBlocks), in increasing masterchain order. The file bytes are the vectors' BoCs, so the file
// hash is their sha256. Expected lt/utime come from the vector files' own decoding (verification.block_info), the
// state hash from the MERKLE_UPDATE cell's second ref, not from the writer's parse.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FirstBlock, readGlobalIndex, readPackages } from '../../src/nodedb/global-index.ts';
import { HANDLE_FLAGS } from '../../src/nodedb/handle.ts';
import { type NodeDb, openNodeDb } from '../../src/nodedb/index.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import { type ArchiveGeneration, globalIndexDir, PACKAGE_SPAN } from '../../src/nodedb/layout.ts';
import { openNodeDbWriter, type WriterBlock } from '../../src/nodedb/writer.ts';
import { type BlockIdExt, loadBlockCell, masterRefId } from '../../src/ton/index.ts';
import { fullKeyOf } from '../helpers/node-db.ts';
import { hasVectors, loadVectors } from '../helpers/vectors.ts';

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db vector blocks: index tests SKIPPED: ${addon.reason}`);
const withIndexes = hasVectors && addon.ok;

interface VectorJson {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
  boc_base64: string;
  verification: { block_info: { end_lt: string; gen_utime: number; key_block: boolean; min_ref_mc_seqno: number } };
}

interface VectorBlock {
  file: string;
  block: WriterBlock;
  /** The masterchain seqno the block is stored under: its own, or its master_ref for a shard block. */
  mcRef: number;
  endLt: bigint;
  genUtime: number;
  keyBlock: boolean;
  minRefMc: number;
  /** MERKLE_UPDATE new hash: the level-0 hash of the update's second ref. */
  newState: Buffer;
}

/** Every vector block, sorted by the masterchain seqno it is stored under (the order packages grow in). */
function loadBlocks(): VectorBlock[] {
  return loadVectors<VectorJson>('blocks')
    .map(({ file, data: v }) => {
      const bytes = Buffer.from(v.boc_base64, 'base64');
      const root = Cell.fromBoc(bytes)[0]!;
      const id: BlockIdExt = {
        workchain: v.ids.workchain,
        shard: BigInt(`0x${v.ids.shard}`),
        seqno: v.ids.seqno,
        rootHash: Buffer.from(v.ids.root_hash, 'hex'),
        fileHash: createHash('sha256').update(bytes).digest(),
      };
      if (!root.hash().equals(id.rootHash)) throw new Error(`${file}: BoC root is not the vector's root hash`);
      const ref = id.workchain === -1 ? id.seqno : masterRefId(loadBlockCell(root).info)?.seqno;
      if (ref === undefined) throw new Error(`${file}: shard block without a master_ref`);
      const bi = v.verification.block_info;
      return {
        file,
        block: { id, bytes, root },
        mcRef: ref,
        endLt: BigInt(bi.end_lt),
        genUtime: bi.gen_utime,
        keyBlock: bi.key_block,
        minRefMc: bi.min_ref_mc_seqno,
        newState: root.refs[2]!.refs[1]!.hash(0),
      };
    })
    .sort((a, b) => a.mcRef - b.mcRef || a.block.id.seqno - b.block.id.seqno);
}

/** Writes the blocks in order: masterchain blocks as steps of their own, shard blocks under their master_ref. */
async function writeBlocks(root: string, blocks: readonly VectorBlock[], generation: ArchiveGeneration) {
  const writer = await openNodeDbWriter({ root, generation, indexCommit: 'sync', cellDb: 'none' });
  try {
    for (let i = 0; i < blocks.length; ) {
      const b = blocks[i]!;
      if (b.block.id.workchain === -1) {
        await writer.append({ mc: b.block, shardBlocks: [] });
        i++;
        continue;
      }
      const group: WriterBlock[] = [];
      for (; i < blocks.length && blocks[i]!.mcRef === b.mcRef && blocks[i]!.block.id.workchain !== -1; i++) {
        group.push(blocks[i]!.block);
      }
      await writer.appendBlocks(b.mcRef, group);
    }
    return writer.written;
  } finally {
    await writer.close();
  }
}

const packageOf = (mcSeqno: number) => Math.floor(mcSeqno / PACKAGE_SPAN) * PACKAGE_SPAN;

let scratch = '';
let blocks: VectorBlock[] = [];
const opened: NodeDb[] = [];
const open = async (root: string, blocksMode: 'index' | 'packscan') => {
  const db = await openNodeDb({
    root,
    blocks: blocksMode,
    states: 'none',
    secondaryDir: `${root}-secondary-${blocksMode}`,
  });
  opened.push(db);
  return db;
};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tongate-nodedb-vectors-'));
  if (hasVectors) blocks = loadBlocks();
});

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => {});
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!hasVectors)('the vector blocks', () => {
  it('are twelve real mainnet blocks, none a key block, two of them masterchain blocks', () => {
    expect(blocks.length).toBe(12);
    expect(blocks.filter((b) => b.block.id.workchain === -1).map((b) => b.block.id.seqno)).toEqual([
      17734191, 24374597,
    ]);
    expect(blocks.some((b) => b.keyBlock)).toBe(false);
    // the master_ref a shard block is stored under is at or after the oldest masterchain block it may refer to
    for (const b of blocks) expect(b.mcRef, b.file).toBeGreaterThanOrEqual(b.minRefMc);
  });
});

describe.skipIf(!withIndexes)('the vector blocks written as a node tree', () => {
  for (const generation of ['shard-split', 'unsliced'] as const) {
    describe(generation, () => {
      let root = '';
      let written: { blocks: number; packages: number[] };
      beforeAll(async () => {
        root = join(scratch, generation);
        written = await writeBlocks(root, blocks, generation);
      }, 60_000);

      it('the writer stored every block in the package of its masterchain seqno', () => {
        expect(written.blocks).toBe(blocks.length);
        expect(written.packages).toEqual([...new Set(blocks.map((b) => packageOf(b.mcRef)))]);
      });

      it('the global index lists the packages, each with the first block of each of its shards', async () => {
        const kv = await openRocks(globalIndexDir(root), { mode: 'readonly' });
        try {
          const index = await readGlobalIndex(kv);
          expect(index).toEqual({ packages: written.packages, keyPackages: [], tempPackages: [] });
          const want = new Map<number, FirstBlock[]>();
          for (const b of blocks) {
            const list = want.get(packageOf(b.mcRef)) ?? [];
            const { workchain, shard, seqno } = b.block.id;
            if (!list.some((f) => f.workchain === workchain && f.shard === shard)) {
              list.push({ workchain, shard, seqno, unixtime: b.genUtime, lt: b.endLt });
            }
            want.set(packageOf(b.mcRef), list);
          }
          const got = await readPackages(kv, index!);
          expect(got.map((p) => ({ id: p.id, key: p.key, temp: p.temp, deleted: p.deleted }))).toEqual(
            written.packages.map((id) => ({ id, key: false, temp: false, deleted: false })),
          );
          for (const p of got) expect(p.firstBlocks, `package ${p.id}`).toEqual(want.get(p.id));
        } finally {
          await kv.close();
        }
      });

      it('index mode: every block reads back by id, with its handle, and by seqno', async () => {
        const db = await open(root, 'index');
        expect(db.mode.blocks).toBe('index');
        // only a masterchain block moves the state db's shard client: the newest one written, not the shard blocks'
        expect((await db.tip()).shardClient).toBe(24374597);
        for (const b of blocks) {
          const { id } = b.block;
          const what = `${b.file} ${fullKeyOf(id)}`;
          const got = await db.block(id);
          expect(got.bytes.equals(b.block.bytes), what).toBe(true);
          const h = await db.handle(id);
          expect(h, what).not.toBeNull();
          expect(fullKeyOf(h!.id), what).toBe(fullKeyOf(id));
          expect(h!.lt, what).toBe(b.endLt);
          expect(h!.ts, what).toBe(b.genUtime);
          expect(h!.state?.toString('hex'), what).toBe(b.newState.toString('hex'));
          expect((h!.flags & HANDLE_FLAGS.masterchain) !== 0, what).toBe(id.workchain === -1);
          // the node's masterchain handles carry no ref; a shard block's is the masterchain block it went in with
          expect(h!.masterchainRefSeqno, what).toBe(id.workchain === -1 ? undefined : b.mcRef);
          // lookupBlock follows the node's lookup: the global index's first blocks over the shard prefixes of length
          // 0, 1, ..., stopping at the first longer prefix whose package is older. For 0:a000… that is 0:8000's
          // package 34600000 (0:8000:40484416), as 0:c000's (9540000) is older: the walk stops in a package without
          // the 0:a000 blocks. A full archive has the blocks between, whose packages carry it on; isolated blocks not.
          const found = await db.lookupBlock(id.workchain, id.shard, { seqno: id.seqno });
          const reachable = !(id.workchain === 0 && id.shard === 0xa000000000000000n);
          expect(found && fullKeyOf(found), what).toBe(reachable ? fullKeyOf(id) : null);
        }
        for (const b of blocks.filter((x) => x.block.id.workchain === -1)) {
          const mc = await db.mcBlockId(b.block.id.seqno);
          expect(mc && fullKeyOf(mc)).toBe(fullKeyOf(b.block.id));
        }
      });

      it('pack-scan mode: masterchain blocks by seqno and id, every block by seqno', async () => {
        const db = await open(root, 'packscan');
        expect(db.mode.blocks).toBe('packscan');
        for (const b of blocks) {
          const { id } = b.block;
          const what = `${b.file} ${fullKeyOf(id)}`;
          const found = await db.lookupBlock(id.workchain, id.shard, { seqno: id.seqno });
          expect(found && fullKeyOf(found), what).toBe(fullKeyOf(id));
          if (id.workchain !== -1) continue;
          const mc = await db.mcBlockId(id.seqno);
          expect(mc && fullKeyOf(mc), what).toBe(fullKeyOf(id));
          expect((await db.block(id)).bytes.equals(b.block.bytes), what).toBe(true);
          expect(await db.handle(id), what).toBeNull(); // handles live in the indexes only
        }
      });
    });
  }
});

describe.skipIf(!hasVectors)('appendBlocks refuses', () => {
  it('a masterchain block, and a masterchain seqno below the package being written', async () => {
    const root = join(scratch, 'refusals');
    const writer = await openNodeDbWriter({ root, indexes: false });
    try {
      const mc = blocks.find((b) => b.block.id.workchain === -1)!;
      const shard = blocks.filter((b) => b.block.id.workchain !== -1).at(-1)!;
      await expect(writer.appendBlocks(mc.mcRef, [mc.block])).rejects.toThrow('goes through append');
      await writer.appendBlocks(shard.mcRef, [shard.block]);
      await expect(writer.appendBlocks(packageOf(shard.mcRef) - 1, [shard.block])).rejects.toThrow(
        'packages only grow',
      );
      await expect(writer.append({ mc: mc.block, shardBlocks: [] })).rejects.toThrow('packages only grow');
      expect(writer.written).toEqual({ blocks: 1, packages: [packageOf(shard.mcRef)] });
    } finally {
      await writer.close();
    }
  });
});
