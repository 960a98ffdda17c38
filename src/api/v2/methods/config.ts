// getConfigParam, getConfigAll, getLibraries (v2-api.md §6.7), as tonlib answers them: the config is read from
// the masterchain state proof of the block (the head, or masterchain block `seqno`) after checking the proof
// against the block's root hash; a parameter the config lacks is an empty `bytes`. Libraries come with a proof
// of the head state's library dictionary; the ones it does not hold are left out of the result.
import { type Cell, CellType, type Slice } from '@ton/core';
import { ProofError } from '../../../common/index.ts';
import type { LiteMethods } from '../../../lite/index.ts';
import {
  formatBocBase64,
  isPruned,
  loadHmLabel,
  loadShardStateUnsplit,
  parseBoc,
  verifyStateProof,
} from '../../../ton/index.ts';
import { LATEST_TTL_MS } from '../cache.ts';
import type { V2Params } from '../params.ts';
import { b64 } from '../render/block.ts';
import { type BlockIdTl, cached, FOREVER, masterchainBlock, pinned } from './block-reads.ts';
import { invalid, optInt32, seqnoParam } from './checks.ts';
import type { V2Method } from './types.ts';

/** tonlib's limit per smc.getLibraries request. */
const MAX_LIBRARIES = 16;

function proofRoot(boc: Uint8Array, what: string): Cell {
  let root: Cell | undefined;
  try {
    root = parseBoc(boc)[0];
  } catch (e) {
    throw new ProofError(`${what}: not a valid BoC: ${(e as Error).message}`, { cause: e });
  }
  if (!root) throw new ProofError(`${what}: empty BoC`);
  return root;
}

/** The masterchain state of `block` proven by a liteserver's (block proof, state proof) pair. */
function provenState(block: BlockIdTl, blockProof: Uint8Array, stateProof: Uint8Array, what: string) {
  const { state } = verifyStateProof(
    proofRoot(blockProof, `${what} block proof`),
    proofRoot(stateProof, `${what} state proof`),
    Buffer.from(block.rootHash),
  );
  return loadShardStateUnsplit(state.beginParse(true));
}

/** The ConfigParams dictionary root of a proven masterchain state. */
function configRoot(block: BlockIdTl, stateProof: Uint8Array, configProof: Uint8Array): Cell {
  const state = provenState(block, stateProof, configProof, 'config');
  if (!state.custom || isPruned(state.custom))
    throw new ProofError('config proof: the masterchain state extra is pruned');
  return state.custom.config.config;
}

/**
 * Looks one key up in a Hashmap (n-bit keys) that may come from a Merkle proof: it walks only the key's path, so
 * the branches the proof pruned elsewhere do not matter, while a pruned cell on the path means the proof does not
 * cover the key. Returns the slice after the leaf's label (the value), or null when the key is absent.
 */
export function hashmapLookup(root: Cell, keyBits: number, key: bigint): Slice | null {
  let cell = root;
  let n = keyBits;
  let rest = key;
  for (;;) {
    if (cell.isExotic && cell.type === CellType.PrunedBranch) {
      throw new ProofError(`dictionary proof: key ${key.toString(16)} runs into a pruned branch`);
    }
    const s = cell.beginParse(true);
    const label = loadHmLabel(s, n);
    const top = n - label.len;
    if (rest >> BigInt(top) !== label.bits) return null;
    if (top === 0) return s;
    rest &= (1n << BigInt(top)) - 1n;
    const bit = rest >> BigInt(top - 1);
    rest &= (1n << BigInt(top - 1)) - 1n;
    const next = s.loadRef();
    const right = s.loadRef();
    cell = bit === 1n ? right : next;
    n = top - 1;
  }
}

function configParamParam(p: V2Params): number {
  // GET: config_id (docs, Python) wins over param (2.1); POST and JSON-RPC: exactly one of them.
  const configId = optInt32(p, 'config_id');
  const param = optInt32(p, 'param');
  let id: number | undefined;
  if (p.source === 'get') id = configId ?? param;
  else if ((configId === undefined) !== (param === undefined)) id = configId ?? param;
  if (id === undefined) throw invalid('only one of config_id or param should be specified');
  if (id < 0) throw invalid('param should be non-negative');
  return id;
}

async function configAt(c: LiteMethods, seqno: number | undefined, params: number[] | null) {
  const block = await masterchainBlock(c, seqno);
  const res =
    params === null
      ? await c.queryTl({ _: 'liteServer.getConfigAll', mode: 0, id: block })
      : await c.queryTl({ _: 'liteServer.getConfigParams', mode: 0, id: block, paramList: params });
  return configRoot(block, res.stateProof, res.configProof);
}

function configInfo(cell: Cell | null) {
  return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: cell ? formatBocBase64(cell) : '' } };
}

export const configMethods: V2Method[] = [
  {
    name: 'getConfigParam',
    verbs: 'read',
    run(p, ctx) {
      const param = configParamParam(p);
      const seqno = seqnoParam(p, 'seqno', false);
      return cached(ctx, p, 'getConfigParam', [param, seqno], seqno === undefined ? LATEST_TTL_MS : FOREVER, () =>
        pinned(ctx, async (c) => {
          const root = await configAt(c, seqno, [param]);
          const value = hashmapLookup(root, 32, BigInt(param));
          return configInfo(value ? value.loadRef() : null);
        }),
      );
    },
  },

  {
    // The whole ConfigParams dictionary (what @ton/sandbox's fetchConfig reads from result.config.bytes).
    name: 'getConfigAll',
    verbs: 'read',
    run(p, ctx) {
      const seqno = seqnoParam(p, 'seqno', false);
      return cached(ctx, p, 'getConfigAll', [seqno], seqno === undefined ? LATEST_TTL_MS : FOREVER, () =>
        pinned(ctx, async (c) => {
          const root = await configAt(c, seqno, null);
          if (hasPruned(root)) throw new ProofError('getConfigAll: the liteserver sent a partial config');
          return configInfo(root);
        }),
      );
    },
  },

  {
    // Sorted and deduplicated as tonlib asks for them; a library the state lacks is simply absent.
    name: 'getLibraries',
    verbs: 'read',
    run(p, ctx) {
      const hashes: Buffer[] = [];
      for (const text of p.list('libraries')) {
        const h = hashOf(p, text);
        if (!hashes.some((x) => x.equals(h))) hashes.push(h);
      }
      hashes.sort(Buffer.compare);
      if (hashes.length > MAX_LIBRARIES) {
        throw invalid(`too many libraries requested, ${MAX_LIBRARIES} maximum`);
      }
      const key = hashes.map((h) => h.toString('hex'));
      return cached(ctx, p, 'getLibraries', key, LATEST_TTL_MS, async () => {
        if (hashes.length === 0) return { '@type': 'smc.libraryResult', result: [] };
        return pinned(ctx, async (c) => {
          const block = await masterchainBlock(c, undefined);
          const res = await c.queryTl({
            _: 'liteServer.getLibrariesWithProof',
            id: block,
            mode: 1,
            libraryList: hashes,
          });
          const state = provenState(block, res.stateProof, res.dataProof, 'libraries');
          if (isPruned(state.r1)) throw new ProofError('libraries proof: the state header is pruned');
          const dict = state.r1.libraries;
          const result = [];
          for (const hash of hashes) {
            const leaf = dict ? hashmapLookup(dict, 256, BigInt(`0x${hash.toString('hex')}`)) : null;
            const entry = res.result.find((e) => e.hash.equals(hash));
            if (!leaf) {
              if (entry)
                throw new ProofError(`libraries: ${hash.toString('hex')} is in the answer but not in the proof`);
              continue;
            }
            // lib_descr$00 lib:^Cell publishers:(Hashmap 256 True): only the library's hash matters here.
            const lib = leaf.loadUint(2) === 0 ? leaf.loadRef() : null;
            const data = entry ? proofRoot(entry.data, 'library') : null;
            if (!entry || !data?.hash().equals(hash) || !lib?.hash(0).equals(hash)) {
              throw new ProofError(
                `libraries: ${hash.toString('hex')} is in the proof but missing or wrong in the answer`,
              );
            }
            result.push({ '@type': 'smc.libraryEntry', hash: b64(hash), data: b64(entry.data) });
          }
          return { '@type': 'smc.libraryResult', result };
        });
      });
    },
  },
];

function hashOf(p: V2Params, text: string): Buffer {
  let b: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(text)) b = Buffer.from(text, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) b = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (b?.length !== 32) throw p.fail(`failed to parse libraries: invalid hash: '${text.slice(0, 80)}'`);
  return b;
}

function hasPruned(root: Cell): boolean {
  const seen = new Set<string>();
  const walk = (c: Cell): boolean => {
    if (c.isExotic && c.type === CellType.PrunedBranch) return true;
    const k = c.hash().toString('hex');
    if (seen.has(k)) return false;
    seen.add(k);
    return c.refs.some(walk);
  };
  return walk(root);
}
