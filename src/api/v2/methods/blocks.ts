// getMasterchainInfo, getMasterchainBlockSignatures, getShardBlockProof, getConsensusBlock, lookupBlock,
// getShards (shards), getBlockHeader, getOutMsgQueueSize (v2-api.md §6.2).
import type { V2Method } from './types.ts';

export const blockMethods: V2Method[] = [
  {
    name: 'getMasterchainInfo',
    verbs: 'read',
    async run(_p, ctx) {
      const info = await ctx.lite.getMasterchainInfo();
      const id = (b: { workchain: number; shard: string; seqno: number; root_hash: Buffer; file_hash: Buffer }) => ({
        '@type': 'ton.blockIdExt',
        workchain: b.workchain,
        shard: BigInt.asIntN(64, BigInt(`0x${b.shard}`)).toString(),
        seqno: b.seqno,
        root_hash: b.root_hash.toString('base64'),
        file_hash: b.file_hash.toString('base64'),
      });
      return {
        '@type': 'blocks.masterchainInfo',
        last: id(info.last as never),
        state_root_hash: Buffer.from(info.stateRootHash).toString('base64'),
        init: {
          '@type': 'ton.blockIdExt',
          workchain: info.init.workchain,
          shard: '0',
          seqno: 0,
          root_hash: Buffer.from(info.init.rootHash).toString('base64'),
          file_hash: Buffer.from(info.init.fileHash).toString('base64'),
        },
      };
    },
  },
];
