import { Address, beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { createJobHandler } from './job-handler.ts';
import { BLOB_CACHE_SIZE, BlobSender, BlobStore, ownBytes, type WireJob } from './wire.ts';

describe('blob caches', () => {
  it('keep sender and executor in step while blobs come and go', () => {
    const sender = new BlobSender();
    const store = new BlobStore((b) => Buffer.from(b).toString('hex'));
    const blobs = Array.from({ length: BLOB_CACHE_SIZE + 4 }, (_, i) => beginCell().storeUint(i, 16).endCell());
    let shipped = 0;
    // A fixed, irregular walk over more blobs than either side keeps.
    for (let step = 0; step < 500; step++) {
      const cell = blobs[(step * 7 + (step >> 3)) % blobs.length]!;
      const ref = sender.ref(cell.hash(), () => ownBytes(cell.toBoc()));
      if (ref.boc !== null) shipped++;
      expect(store.resolve(ref)).toBe(cell.toBoc().toString('hex'));
    }
    expect(shipped).toBeLessThan(500);
  });

  it('report a miss when the executor lost a blob, so the runner can resend it', async () => {
    const handler = createJobHandler({ verbosity: 'short' });
    const job: WireJob = {
      kind: 'get',
      code: ownBytes(Cell.EMPTY.toBoc()),
      data: ownBytes(Cell.EMPTY.toBoc()),
      address: Address.parse(`0:${'00'.repeat(32)}`).toRawString(),
      balance: 0n,
      methodId: 0,
      stack: ownBytes(beginCell().storeUint(0, 24).storeRef(Cell.EMPTY).endCell().toBoc()),
      now: 0,
      config: { hash: 'ab'.repeat(32), boc: null },
      libs: null,
      extraCurrency: null,
      randomSeed: new Uint8Array(32),
      gasLimit: 1000n,
      prevBlocks: null,
    };
    const { result } = await handler.handle(job);
    expect(result).toEqual({ kind: 'blob-miss', hash: 'ab'.repeat(32) });
  });
});

describe('ownBytes', () => {
  it('copies views into a shared pool, so transferring never detaches other buffers', () => {
    const pooled = Buffer.from('ab');
    const own = ownBytes(pooled);
    expect(own.buffer.byteLength).toBe(2);
    expect(Buffer.from(own).equals(pooled)).toBe(true);
    const whole = new Uint8Array(4);
    expect(ownBytes(whole)).toBe(whole);
  });
});
