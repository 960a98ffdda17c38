// The node-db source: the BlockSource the indexer walks, over a TON node's database folder read in place
// (src/nodedb/node-db.ts). The head is the node's shardClient (every shard block it commits is applied), or the
// archive's newest block without a state db; masterchain blocks beyond it read as absent. Account states come from
// celldb (complete) when it can be read; a state the node garbage-collected, or a node read without celldb, falls
// back to the block's own state update (hashes and balances exact, code and data possibly pruned: complete false).
import { type NodeDb, type NodeDbOptions, NodeDbPrunedError, openNodeDb } from '../../nodedb/index.ts';
import { blockKey, statesFromNewState, stateUpdateNewSide } from '../../ton/index.ts';
import type { BlockSource } from './types.ts';

export type { NodeDbOptions } from '../../nodedb/index.ts';

export interface NodeDbSourceOptions extends NodeDbOptions {
  /**
   * A block whose state the node garbage-collected: 'update' (default) reads the accounts from the block's state
   * update (complete: false) and logs once; 'error' throws NodeDbPrunedError.
   */
  prunedStates?: 'update' | 'error';
}

export type NodeDbSource = BlockSource & { nodeDb: NodeDb };

export async function createNodeDbSource(opts: NodeDbSourceOptions): Promise<NodeDbSource> {
  const nodeDb = await openNodeDb(opts);
  const log = opts.log ?? (() => {});
  let head = -1;
  let warnedPruned = false;
  const readHead = async () => {
    await nodeDb.catchUp();
    const t = await nodeDb.tip();
    head = t.shardClient ?? t.archived ?? -1;
    return head;
  };
  return {
    name: 'node-db',
    nodeDb,
    head: readHead,
    async mcBlock(seqno) {
      if (seqno > head && seqno > (await readHead())) return null;
      const id = await nodeDb.mcBlockId(seqno);
      return id ? nodeDb.block(id) : null;
    },
    block: (id) => nodeDb.block(id),
    async accountStates(id, addresses) {
      try {
        return await nodeDb.accountStates(id, addresses);
      } catch (e) {
        if (!(e instanceof NodeDbPrunedError) || opts.prunedStates === 'error') throw e;
        if (!warnedPruned) {
          warnedPruned = true;
          log(
            'warn',
            'node db: states the node garbage-collected are read from block state updates (complete: false)',
            {
              block: blockKey(id),
              error: e.message,
            },
          );
        }
        const fetched = await nodeDb.block(id);
        return statesFromNewState(stateUpdateNewSide(fetched.root), id.workchain, addresses);
      }
    },
    close: () => nodeDb.close(),
  };
}
