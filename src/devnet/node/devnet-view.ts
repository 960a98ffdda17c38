// The ChainView the liteserver answers from: the store is the truth, read through small caches of the blocks and
// states the producer just made (nothing survives a restart, so nothing can be stale). Only published data is
// visible: a step becomes visible after its commit, when the producer calls publish(). A step's shard blocks may be
// previewed before (preview()): found by lookupBlock by seqno and readable, named by no masterchain block yet.
import { createHash } from 'node:crypto';
import { type Cell, loadAccount, parseTuple, type TupleItem } from '@ton/core';
import { LiteServerError, Lru } from '../../common/index.ts';
import {
  type BlockLookup,
  type BlockRecord,
  type BlockSignatureSet,
  type ChainView,
  LITE_BAD_REQUEST,
  LITE_NOT_FOUND,
  type MasterchainInfo,
  type RunGetMethodArgs,
  type RunGetMethodResult,
  type ZeroStateIdExt,
} from '../../lite/index.ts';
import { type BlockIdExt, parseBoc, sameBlockId, shardContains } from '../../ton/index.ts';
import type { TvmRunner } from '../../tvm/index.ts';
import { type ChainTop, type ChainTops, viewMc } from '../chain/index.ts';
import type { DevnetStore } from '../store/index.ts';
import type { PrevBlocksSource } from './prev-blocks.ts';
import type { SignatureStore } from './signatures.ts';

/** The newest committed step, as the liteserver shows it. */
export interface Published {
  tops: ChainTops;
  mcUtime: number;
}

export interface DevnetViewDeps {
  store: DevnetStore;
  tvm: TvmRunner;
  prevBlocks: PrevBlocksSource;
  signatures: SignatureStore;
  zeroState: BlockIdExt;
  /** Wall clock in ms. */
  clock: () => number;
  /** Checks an external message and queues it (throws the node's refusal). */
  sendMessage: (boc: Buffer) => Promise<void>;
}

export interface DevnetView extends ChainView {
  /** Makes a committed step visible and wakes the waiters it satisfies (and ends every preview). */
  publish(p: Published, fresh?: readonly HotBlock[]): void;
  /** Shows shard blocks before the masterchain block that commits them (a shard block signed, not committed). */
  preview(blocks: readonly HotBlock[]): void;
  /** Forgets the previewed blocks (their step failed to commit). */
  dropPreview(): void;
  published(): Published | null;
  /** Rejects every waiter (the node stops). */
  close(): void;
}

/** A block (or zero state) the producer holds in memory: its root, file and the state after it. */
export interface HotBlock {
  id: BlockIdExt;
  root: Cell | null;
  boc: Buffer | null;
  state: Cell;
}

const key = (id: { rootHash: Buffer }) => id.rootHash.toString('hex');

export function createDevnetView(deps: DevnetViewDeps): DevnetView {
  const { store } = deps;
  const hot = new Lru<string, HotBlock>(96);
  const roots = new Lru<string, Cell>(256);
  const states = new Lru<string, Cell>(32);
  const waiters = new Set<{ seqno: number; resolve: () => void; reject: (e: Error) => void }>();
  let current: Published | null = null;
  let closed = false;
  /** Previewed shard blocks (see preview()). */
  let previews: HotBlock[] = [];

  const zeroStateId: ZeroStateIdExt = {
    workchain: deps.zeroState.workchain,
    rootHash: deps.zeroState.rootHash,
    fileHash: deps.zeroState.fileHash,
  };

  function headSeqno(): number {
    return current?.tops.mc.id.seqno ?? -1;
  }

  /** The stored block record if it is committed by a published masterchain block. */
  async function visible(id: BlockIdExt) {
    const rec = await store.blockById(id);
    return rec && rec.mcSeqno <= headSeqno() ? rec : null;
  }

  async function blockRoot(id: BlockIdExt): Promise<{ root: Cell; data: Buffer } | null> {
    const h = hot.get(key(id));
    if (h?.root && h.boc && sameBlockId(h.id, id)) return { root: h.root, data: h.boc };
    if (id.seqno === 0 || !(await visible(id))) return null;
    const data = await store.blockFile(id);
    if (!data) return null;
    let root = roots.get(key(id));
    if (!root) {
      root = parseBoc(data)[0] as Cell;
      roots.set(key(id), root);
    }
    return { root, data };
  }

  async function stateOf(id: BlockIdExt): Promise<Cell | null> {
    const h = hot.get(key(id));
    if (h && sameBlockId(h.id, id)) return h.state;
    const cached = states.get(key(id));
    if (cached) return cached;
    if (!(await visible(id))) return null;
    const s = await store.stateRoot(id);
    if (s) states.set(key(id), s);
    return s;
  }

  async function mcTop(id: BlockIdExt): Promise<ChainTop> {
    const state = await stateOf(id);
    if (!state)
      throw new LiteServerError(LITE_NOT_FOUND, `cannot load state of masterchain block ${id.seqno} : not in db`);
    const b = id.seqno === 0 ? null : ((await blockRoot(id))?.root ?? null);
    return { id, block: b, state };
  }

  const view: DevnetView = {
    async masterchainInfo(): Promise<MasterchainInfo> {
      if (!current) throw new LiteServerError(LITE_NOT_FOUND, 'no masterchain block yet');
      const mc = current.tops.mc;
      return { last: mc.id, stateRootHash: mc.state.hash(), init: zeroStateId, lastUtime: current.mcUtime };
    },

    waitMasterchainSeqno(seqno, signal) {
      if (seqno <= headSeqno()) return Promise.resolve();
      if (closed) return Promise.reject(new LiteServerError(-503, 'node is stopping'));
      return new Promise<void>((resolve, reject) => {
        const w = {
          seqno,
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: (e: Error) => {
            signal.removeEventListener('abort', onAbort);
            reject(e);
          },
        };
        const onAbort = () => {
          waiters.delete(w);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        if (signal.aborted) {
          onAbort();
          return;
        }
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.add(w);
      });
    },

    now() {
      return Math.max(Math.floor(deps.clock() / 1000), current?.mcUtime ?? 0);
    },

    async block(id): Promise<BlockRecord | null> {
      const b = await blockRoot(id);
      return b ? { id, root: b.root, data: b.data } : null;
    },

    async lookupBlock(q: BlockLookup): Promise<BlockIdExt | null> {
      const rec =
        'seqno' in q
          ? await store.blockBySeqno(q.workchain, q.prefix, q.seqno)
          : 'lt' in q
            ? await store.blockByLt(q.workchain, q.prefix, q.lt)
            : await store.blockByUtime(q.workchain, q.prefix, q.utime);
      if (rec && rec.mcSeqno <= headSeqno()) return rec.id;
      if (!('seqno' in q)) return null;
      const p = previews.find(
        (b) => b.id.workchain === q.workchain && b.id.seqno === q.seqno && shardContains(b.id.shard, q.prefix),
      );
      return p?.id ?? null;
    },

    shardState: stateOf,

    async zeroState(id) {
      return id.seqno === 0 ? store.zeroStateFile(id) : null;
    },

    async masterchainRefSeqno(id) {
      return (await visible(id))?.mcSeqno ?? null;
    },

    async blockSignatures(id): Promise<BlockSignatureSet | null> {
      if (id.workchain !== -1 || id.seqno === 0 || !(await visible(id))) return null;
      return deps.signatures.read(id, async () => (await blockRoot(id))?.root ?? null);
    },

    async runGetMethod(a: RunGetMethodArgs): Promise<RunGetMethodResult> {
      const s = a.account.beginParse();
      if (!s.loadBit()) throw new LiteServerError(LITE_BAD_REQUEST, 'account does not exist');
      const account = loadAccount(s);
      const st = account.storage.state;
      if (st.type !== 'active' || !st.state.code || !st.state.data) {
        throw new LiteServerError(LITE_BAD_REQUEST, 'account is not active or has no code/data');
      }
      let stack: TupleItem[] = [];
      if (a.stack) {
        try {
          stack = parseTuple(a.stack);
        } catch (e) {
          throw new LiteServerError(LITE_BAD_REQUEST, `parameter list cannot be read: ${(e as Error).message}`);
        }
      }
      const methodId = Number(BigInt.asIntN(32, a.methodId));
      if (BigInt(methodId) !== BigInt.asIntN(64, a.methodId)) {
        throw new LiteServerError(LITE_BAD_REQUEST, `method id ${a.methodId} does not fit in 32 bits`);
      }
      const mc = await mcTop(a.mcBlock);
      const mv = viewMc(mc);
      const r = await deps.tvm.runGetMethod({
        code: st.state.code,
        data: st.state.data,
        address: account.addr,
        balance: account.storage.balance.coins,
        methodId,
        stack,
        now: a.genUtime,
        config: mv.extra.config.config,
        libs: mv.state.r1.libraries,
        // A get-method's rand seed only has to be fixed per (block, account): reruns give the same answer.
        randomSeed: createHash('sha256').update(a.block.rootHash).update(a.address).digest(),
        prevBlocksInfo: await deps.prevBlocks.of(mc),
      });
      return { exitCode: r.exitCode, stack: r.stackBoc };
    },

    sendMessage: (boc) => deps.sendMessage(boc),

    preview(blocks) {
      for (const b of blocks) hot.set(key(b.id), b);
      previews = [...blocks];
    },

    dropPreview() {
      for (const b of previews) hot.delete(key(b.id));
      previews = [];
    },

    publish(p, fresh = []) {
      previews = [];
      for (const b of fresh) hot.set(key(b.id), b);
      current = p;
      const seqno = headSeqno();
      for (const w of [...waiters]) {
        if (w.seqno <= seqno) {
          waiters.delete(w);
          w.resolve();
        }
      }
    },

    published: () => current,

    close() {
      closed = true;
      for (const w of waiters) w.reject(new LiteServerError(-503, 'node is stopping'));
      waiters.clear();
      hot.clear();
      roots.clear();
      states.clear();
    },
  };
  return view;
}
