import { afterAll, beforeAll, it } from 'vitest';
import { type ApiFixture, startApiFixture } from './fixture.ts';

let f: ApiFixture;
beforeAll(async () => {
  f = await startApiFixture({ seed: 'scratch-v2', activitySteps: 3 });
}, 300_000);
afterAll(async () => { await f?.close(); });
const show = (x: unknown) => JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? `${v}n` : v && v.type === 'Buffer' ? `buf:${Buffer.from(v.data).toString('hex').slice(0, 40)}(${v.data.length})` : v), 1).slice(0, 3000);

it('explore', async () => {
  const p = f.pool;
  const info = await p.queryTl({ _: 'liteServer.getMasterchainInfo' });
  console.log('info', show(info));
  const last = info.last;
  const prev = await p.queryTl({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: -1, shard: -(1n << 63n), seqno: last.seqno - 1 } });
  try {
    const proof = await p.queryTl({ _: 'liteServer.getBlockProof', mode: 0x1001, knownBlock: prev.id, targetBlock: last });
    console.log('proof fwd', show(proof));
  } catch (e) { console.log('proof fwd err', (e as Error).message); }
  try {
    const proof = await p.queryTl({ _: 'liteServer.getBlockProof', mode: 0x1001, knownBlock: last, targetBlock: prev.id });
    console.log('proof back', show(proof));
  } catch (e) { console.log('proof back err', (e as Error).message); }
  const sh = await p.queryTl({ _: 'liteServer.getAllShardsInfo', id: last });
  console.log('shards', show(sh));
  const shardBlk = await p.queryTl({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: 0, shard: -(1n << 62n), seqno: last.seqno - 3 } });
  console.log('shardblk', show(shardBlk.id));
  try {
    const sp = await p.queryTl({ _: 'liteServer.getShardBlockProof', id: shardBlk.id });
    console.log('shardproof', show(sp));
  } catch (e) { console.log('shardproof err', (e as Error).message); }
  try { console.log('oq', show(await p.queryTl({ _: 'liteServer.getOutMsgQueueSizes', mode: 0 }))); } catch (e) { console.log('oq err', (e as Error).message); }
  try { console.log('libs', show(await p.queryTl({ _: 'liteServer.getLibrariesWithProof', id: last, mode: 1, libraryList: [Buffer.alloc(32, 1)] }))); } catch (e) { console.log('libs err', (e as Error).message); }
  try { console.log('cfg', show(await p.queryTl({ _: 'liteServer.getConfigParams', mode: 0, id: last, paramList: [34, 999] }))); } catch (e) { console.log('cfg err', (e as Error).message); }
  try { console.log('lbt', show(await p.listBlockTransactions({ ...shardBlk.id, rootHash: shardBlk.id.rootHash, fileHash: shardBlk.id.fileHash }, { count: 5, after: { account: Buffer.alloc(32), lt: 0n } }))); } catch (e) { console.log('lbt err', (e as Error).message); }
  try { await p.queryTl({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: -1, shard: -(1n << 63n), seqno: 999999 } }); } catch (e) { console.log('lookup err', (e as Error).message, (e as any).code, (e as any).details); }
  try { await p.queryTl({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: 0, shard: 123n, seqno: 2 } }); } catch (e) { console.log('lookup err2', (e as Error).message, (e as any).code, (e as any).details); }
  try { console.log(show(await p.queryTl({ _: 'liteServer.lookupBlock', mode: 1, id: { workchain: 0, shard: -(1n << 63n), seqno: 5 } }))); } catch (e) { console.log('lookup err3', (e as Error).message); }
  console.log('head', p.headSeqno(), JSON.stringify(p.health()));
}, 120_000);
