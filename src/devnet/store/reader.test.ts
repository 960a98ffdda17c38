// The file-only reader in this process follows a writer in another process (which holds the LevelDB LOCK):
// every committed step it sees has its manifest and block files, equal to the node-db packs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeDbChain, type NodeDbChain } from '../../../test/helpers/store-chain.ts';
import { spawnWriter, type WriterProcess } from '../../../test/helpers/store-writer.ts';
import { isTongateError } from '../../common/errors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import { openDevnetStore, openDevnetStoreReader } from './index.ts';

const UNTIL = 60;

function hex(id: BlockIdExt): string {
  return `${id.workchain}:${id.shard.toString(16)}:${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
}

describe('devnet store reader', () => {
  let chain: NodeDbChain;
  let work: string;
  let writer: WriterProcess | undefined;

  beforeAll(async () => {
    chain = loadNodeDbChain();
    work = await mkdtemp(join(tmpdir(), 'tongate-store-reader-'));
    await writeFile(join(work, 'plan.json'), JSON.stringify(chain.plan));
  });

  afterAll(async () => {
    await writer?.kill();
    await rm(work, { recursive: true, force: true });
  });

  it('sees committed steps while another process keeps appending', { timeout: 120_000 }, async () => {
    const dir = join(work, 'devnet');
    const reader = await openDevnetStoreReader(dir);
    expect(await reader.head()).toBeNull();
    expect(await reader.manifest(0)).toBeNull();

    writer = spawnWriter(dir, join(work, 'plan.json'), ['--pace', '25', '--until', String(UNTIL)]);
    await writer.waitFor((l) => l.startsWith('ready'));
    // The writer holds the LOCK: a second read-write open fails clearly, the reader does not care.
    try {
      await openDevnetStore(dir);
      expect.unreachable('the store opened twice');
    } catch (e) {
      expect(isTongateError(e) ? e.code : e).toBe('TG_DEVNET_STORE_LOCKED');
    }

    const byMcSeqno = new Map(chain.steps.map((s) => [s.mc.id.seqno, s]));
    const meta = (await reader.meta())!;
    expect(meta.seed).toBe('step-writer');
    expect(meta.mcZeroState.rootHash).toEqual(chain.steps[0]!.mc.block.stateUpdate.oldHash);
    let seen = -1;
    const observed: number[] = [];
    let writerDone = false;
    void writer.exited.then(() => {
      writerDone = true;
    });
    while (seen < UNTIL) {
      const head = await reader.head();
      if (head && head.mcSeqno > seen) {
        observed.push(head.mcSeqno);
        for (let s = seen + 1; s <= head.mcSeqno; s++) {
          const m = (await reader.manifest(s))!;
          expect(m, `manifest ${s}`).not.toBeNull();
          if (s === 0) {
            expect(hex(m.mcBlock.id)).toBe(hex(meta.mcZeroState));
            expect((await reader.zeroStateFile(m.mcBlock.id))!.length).toBeGreaterThan(0);
            continue;
          }
          const step = byMcSeqno.get(s)!;
          expect(hex(m.mcBlock.id)).toBe(hex(step.mc.id));
          expect(m.shardBlocks.map((e) => hex(e.id))).toEqual(step.shards.map((b) => hex(b.id)));
          for (const b of [step.mc, ...step.shards]) expect(await reader.blockFile(b.id)).toEqual(b.boc);
        }
        seen = head.mcSeqno;
        // Nothing above head.json is offered, even if the writer already put the next manifest on disk: the writer
        // may commit meanwhile, so a manifest offered now must be covered by the head.json read after it.
        const next = await reader.manifest(seen + 1);
        if (next !== null) expect((await reader.head())!.mcSeqno).toBeGreaterThanOrEqual(seen + 1);
      } else if (writerDone) {
        break;
      } else {
        await sleep(5);
      }
    }
    expect(await writer.exited).toBe(0);
    writer = undefined;
    expect(seen).toBe(UNTIL);
    // It really ran alongside: the reader saw the head at several points, not only the end.
    expect(observed.length).toBeGreaterThan(3);
    await reader.close();
  });
});
