// Writer steps for the tail test, from the three real archive slices in vectors/node-db (a private network's
// masterchain 1..264). A real node writes a masterchain block and then the shard blocks that block commits, so in
// these packs the shard blocks between masterchain block N's entry and N+1's are exactly those N committed
// (tail.test.ts checks this against a walk of the shard tops' prev links). Masterchain 264 is left out: the copy
// was taken before its last shard block was written.
import { Cell } from '@ton/core';
import { parseFileName } from '../../src/nodedb/fileref.ts';
import { openPackReader } from '../../src/nodedb/pack.ts';
import type { WriterBlock, WriterStep } from '../../src/nodedb/writer.ts';

export const TAIL_PACKS = ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack'] as const;
/** The last masterchain seqno whose shard blocks are all in the packs. */
export const TAIL_LAST_MC = 263;

/** The steps 1..TAIL_LAST_MC, grouped by the order the node wrote the blocks in; `packsDir` holds TAIL_PACKS. */
export async function loadTailSteps(packsDir: string): Promise<WriterStep[]> {
  const steps: WriterStep[] = [];
  let current: WriterStep | null = null;
  for (const file of TAIL_PACKS) {
    const r = await openPackReader(`${packsDir}/${file}`);
    try {
      const { entries, torn } = await r.scan();
      if (torn) throw new Error(`${file}: the pack ends in a torn entry`);
      for (const e of entries) {
        const parsed = parseFileName(e.name);
        if (parsed?.kind !== 'block') continue;
        const root = Cell.fromBoc(e.data)[0];
        if (!root) throw new Error(`${file}: ${e.name} holds no root cell`);
        const block: WriterBlock = { id: parsed.id, bytes: e.data, root };
        if (parsed.id.workchain === -1) {
          if (parsed.id.seqno !== steps.length + 1) {
            throw new Error(`${file}: masterchain block ${parsed.id.seqno} after ${steps.length}`);
          }
          current = { mc: block, shardBlocks: [] };
          steps.push(current);
        } else {
          if (!current) throw new Error(`${file}: shard block ${e.name} before any masterchain block`);
          current.shardBlocks.push(block);
        }
      }
    } finally {
      await r.close();
    }
  }
  if (steps.length < TAIL_LAST_MC) throw new Error(`expected ${TAIL_LAST_MC} masterchain blocks, got ${steps.length}`);
  return steps.slice(0, TAIL_LAST_MC);
}
