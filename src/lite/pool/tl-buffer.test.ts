import { Functions } from 'ton-lite-client/dist/schema.js';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/index.ts';
import { encodeTl } from '../tl/index.ts';
import { TlReader, TlWriter } from './tl-buffer.ts';

// Requests built with ton-lite-client's generated codecs over our writer must be byte-identical to what our own
// (independently written) lite_api codec produces for the same function.
function viaLiteClient<REQ>(fn: { encodeRequest(src: REQ, w: never): void }, req: REQ): Buffer {
  const w = new TlWriter();
  fn.encodeRequest(req, w.asEncoder() as never);
  return w.build();
}

const MC = '-9223372036854775808';
const hash = (b: number) => Buffer.alloc(32, b);

describe('TlWriter with ton-lite-client codecs', () => {
  it('encodes lookupBlock, getBlock and getTransactions exactly as src/lite/tl does', () => {
    expect(
      viaLiteClient(Functions.liteServer_lookupBlock, {
        kind: 'liteServer.lookupBlock',
        mode: 2,
        id: { kind: 'tonNode.blockId', workchain: -1, shard: MC, seqno: 0 },
        lt: '32119774000001',
        utime: null,
      }),
    ).toEqual(
      encodeTl({
        _: 'liteServer.lookupBlock',
        mode: 2,
        id: { workchain: -1, shard: -(2n ** 63n), seqno: 0 },
        lt: 32119774000001n,
      }),
    );
    const id = { workchain: 0, shard: '-6917529027641081856', seqno: 77, rootHash: hash(1), fileHash: hash(2) };
    expect(
      viaLiteClient(Functions.liteServer_getBlock, {
        kind: 'liteServer.getBlock',
        id: { kind: 'tonNode.blockIdExt', ...id },
      }),
    ).toEqual(encodeTl({ _: 'liteServer.getBlock', id: { ...id, shard: 0xa000000000000000n } }));
    expect(
      viaLiteClient(Functions.liteServer_getTransactions, {
        kind: 'liteServer.getTransactions',
        count: 16,
        account: { kind: 'liteServer.accountId', workchain: 0, id: hash(3) },
        lt: '18446744073709551615',
        hash: hash(4),
      }),
    ).toEqual(
      encodeTl({
        _: 'liteServer.getTransactions',
        count: 16,
        account: { workchain: 0, id: hash(3) },
        lt: 2n ** 64n - 1n,
        hash: hash(4),
      }),
    );
  });

  it('listBlockTransactions with want_proof/reverse_order set only in mode matches the ?true encoding', () => {
    const id = { workchain: -1, shard: MC, seqno: 5, rootHash: hash(5), fileHash: hash(6) };
    const ours = viaLiteClient(Functions.liteServer_listBlockTransactions, {
      kind: 'liteServer.listBlockTransactions',
      id: { kind: 'tonNode.blockIdExt', ...id },
      mode: 7 | 32 | 64 | 128,
      count: 40,
      after: { kind: 'liteServer.transactionId3', account: hash(7), lt: '100' },
      reverseOrder: null,
      wantProof: null,
    });
    const reference = encodeTl({
      _: 'liteServer.listBlockTransactions',
      id: { ...id, shard: -(2n ** 63n) },
      mode: 7 | 32 | 64 | 128,
      count: 40,
      after: { account: hash(7), lt: 100n },
      reverseOrder: true,
      wantProof: true,
    });
    expect(ours).toEqual(reference);
  });

  it('pads bytes to 4 and uses the 0xfe long form from 254 bytes on', () => {
    for (const len of [0, 1, 3, 4, 253, 254, 255, 1000]) {
      const w = new TlWriter();
      w.writeBuffer(Buffer.alloc(len, 9));
      const out = w.build();
      expect(out.length % 4).toBe(0);
      expect(new TlReader(out).readBuffer()).toEqual(Buffer.alloc(len, 9));
    }
  });

  it('refuses 64-bit values that do not fit and int256 of the wrong size', () => {
    expect(() => new TlWriter().writeInt64('18446744073709551616')).toThrow(CodecError);
    expect(() => new TlWriter().writeInt64('-9223372036854775809')).toThrow(CodecError);
    expect(() => new TlWriter().writeInt64('12x')).toThrow(CodecError);
    expect(() => new TlWriter().writeInt256(Buffer.alloc(31))).toThrow(CodecError);
  });
});

describe('TlReader', () => {
  it('reads longs as signed decimal strings without touching the buffer', () => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(-(2n ** 63n));
    const copy = Buffer.from(buf);
    expect(new TlReader(buf).readInt64()).toBe('-9223372036854775808');
    expect(buf).toEqual(copy);
  });

  it('throws CodecError on every short read instead of returning a truncated value', () => {
    expect(() => new TlReader(Buffer.alloc(3)).readInt32()).toThrow(CodecError);
    expect(() => new TlReader(Buffer.alloc(31)).readInt256()).toThrow(CodecError);
    expect(() => new TlReader(Buffer.from([10, 1, 2])).readBuffer()).toThrow(/needed 10 bytes/);
    expect(() => new TlReader(Buffer.from([0xfe, 0xff, 0xff, 0x00])).readBuffer()).toThrow(CodecError);
    expect(() => new TlReader(Buffer.from([255, 0, 0, 0])).readBuffer()).toThrow(/length byte 255/);
    expect(() => new TlReader(Buffer.from([1, 7, 0])).readBuffer()).toThrow(/padding/);
  });

  it('refuses a Bool that is neither boolTrue nor boolFalse, and a vector count larger than the bytes left', () => {
    expect(() => new TlReader(Buffer.alloc(4)).readBool()).toThrow(/expected boolTrue or boolFalse/);
    const v = Buffer.alloc(8);
    v.writeUInt32LE(0xffffffff, 0);
    let calls = 0;
    expect(() =>
      new TlReader(v).readVector(() => {
        calls++;
        return 0;
      }),
    ).toThrow(/4294967295 elements announced/);
    expect(calls).toBe(0);
  });
});
