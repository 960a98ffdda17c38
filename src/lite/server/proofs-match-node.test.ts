// Our proofs against the reference node's: rebuilt from the very cells a real liteserver sent, the dispatcher's
// answers come out byte for byte as the node's (same cells visited, same BoC layout).
import type { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { createMainnetVectorChain, tongoConfigFixture } from '../../../test/helpers/vector-chain.ts';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { loadHmLabel } from '../../ton/index.ts';
import { encodeTl, type TlObject } from '../tl/index.ts';
import { lookupAccount } from './accounts.ts';
import { createLiteDispatcher } from './dispatcher.ts';

const query = (fn: TlObject) => encodeTl({ _: 'liteServer.query', data: encodeTl(fn) });

describe.skipIf(!hasVectors)('answers equal the reference liteserver byte for byte', () => {
  it('getMasterchainInfo and getConfigAll of masterchain block 26309435 (tongo get-last-config-all fixture)', async () => {
    const fx = tongoConfigFixture();
    const dispatch = createLiteDispatcher(createMainnetVectorChain());
    expect((await dispatch(query({ _: 'liteServer.getMasterchainInfo' }))).equals(fx.masterchainInfoBytes)).toBe(true);
    const answer = await dispatch(query({ _: 'liteServer.getConfigAll', mode: 0, id: fx.masterchainInfo.last }));
    expect(answer.equals(fx.configInfoBytes)).toBe(true);
  });

  it("getAccountState's proof of shard block 0:8000000000000000:31618192 (ton-core accountProof.txt)", async () => {
    const view = createMainnetVectorChain();
    const b = view.find(0, 31618192);
    const accounts = (b.state as Cell).refs[1]?.beginParse();
    expect(accounts?.loadBit()).toBe(true);
    const address = firstLeafKey(accounts?.loadRef() as Cell);
    const ctx = { view, log: () => {}, signal: new AbortController().signal };
    // No source states this block's file hash; the view matches it by root hash, whatever the client sends.
    const found = await lookupAccount(ctx, { ...view.idOf(b), fileHash: Buffer.alloc(32, 0xee) }, 0, address);
    const v = loadVector<{ boc_base64: string }>('liteserver', 'account_proof_toncore.json');
    expect(found.proof.equals(Buffer.from(v.boc_base64, 'base64'))).toBe(true);
    expect(found.shardProof).toHaveLength(0);
  });
});

function firstLeafKey(root: Cell): Buffer {
  const walk = (c: Cell, n: number, prefix: bigint): bigint | null => {
    if (c.isExotic) return null;
    const s = c.beginParse();
    const { len, bits } = loadHmLabel(s, n);
    const p = (prefix << BigInt(len)) | bits;
    if (n === len) return p;
    const left = s.loadRef();
    const right = s.loadRef();
    return walk(left, n - len - 1, p << 1n) ?? walk(right, n - len - 1, (p << 1n) | 1n);
  };
  const key = walk(root, 256, 0n);
  if (key === null) throw new Error('no present leaf');
  return Buffer.from(key.toString(16).padStart(64, '0'), 'hex');
}
