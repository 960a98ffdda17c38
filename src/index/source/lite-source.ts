// The liteserver source: masterchain blocks by seqno (lookupBlock, then getBlock), any block by id
// (getBlock: the pool checks the root hash, we check the file hash), account states after a shard block
// (getAccountState at that block: the proof is checked against the block's root hash and must contain the
// returned Account cell). The pool routes and retries; its errors are typed and keep their retryable flag.
import { Address } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { IndexError } from '../../common/index.ts';
import type { LitePool } from '../../lite/index.ts';
import { toBlockIdExt } from '../../lite/index.ts';
import {
  ACCOUNT_NONE,
  type AccountStateAfter,
  accountInState,
  blockIdFromTl,
  blockKey,
  cellsFromBoc,
  type FetchedBlock,
  fileCheckedBlock,
  MC_SHARD,
  verifyProofBoc,
} from '../../ton/index.ts';
import { mapLimit } from './limit.ts';
import type { BlockSource } from './types.ts';

export interface LiteSourceOptions {
  /** Parallel getAccountState requests per block (default 8). */
  accountConcurrency?: number;
}

export function createLiteSource(pool: LitePool, opts: LiteSourceOptions = {}): BlockSource {
  const concurrency = opts.accountConcurrency ?? 8;
  const fetch = async (id: FetchedBlock['id']): Promise<FetchedBlock> => {
    // Unverified by the pool: the root hash is checked where the block is parsed, once (here when the root is
    // first read, or in a decode thread; src/index/decode-pool).
    const r = await pool.getBlock(id, { verify: false });
    return fileCheckedBlock(id, Buffer.from(r.data));
  };
  return {
    name: 'lite',
    async head() {
      return (await pool.getMasterchainInfo()).last.seqno;
    },
    async mcBlock(seqno) {
      const head = (await pool.getMasterchainInfo()).last.seqno;
      if (seqno > head) return null;
      const header = await pool.lookupBlock({ workchain: -1, shard: MC_SHARD, seqno });
      const id = blockIdFromTl(header.id);
      if (id.workchain !== -1 || id.seqno !== seqno) {
        throw new IndexError('TG_INDEX_SOURCE', `lookupBlock -1:${seqno} answered ${blockKey(id)}`);
      }
      return fetch(id);
    },
    block: fetch,
    async accountStates(id, addresses) {
      const tlId = toBlockIdExt(id);
      return mapLimit(addresses, concurrency, async (address): Promise<AccountStateAfter> => {
        const r = await pool.query(Functions.liteServer_getAccountState, {
          kind: 'liteServer.getAccountState',
          id: tlId,
          account: { kind: 'liteServer.accountId', workchain: id.workchain, id: address },
        });
        const account = r.state.length > 0 ? cellsFromBoc(Buffer.from(r.state))[0]! : ACCOUNT_NONE;
        // The proof ties the state to the block: [block proof, state proof] against the block's root hash.
        const { state } = verifyProofBoc(Buffer.from(r.proof), id.rootHash);
        const proven = state ? accountInState(state, address) : null;
        if (r.state.length > 0 && !proven?.hash(0).equals(account.hash())) {
          const where = new Address(id.workchain, address).toRawString();
          throw new IndexError(
            'TG_INDEX_SOURCE',
            `getAccountState ${where} at ${blockKey(id)}: state not proven by the block`,
            {
              details: { block: blockKey(id), account: where },
            },
          );
        }
        return { address, workchain: id.workchain, account, hash: account.hash(), complete: true };
      });
    },
    async close() {},
  };
}
