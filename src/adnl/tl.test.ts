import { describe, expect, it } from 'vitest';
import { AdnlError } from '../common/index.ts';
import { encodeTlBytes, readTlBytes, tlId } from './tl.ts';

describe('tlId', () => {
  // Expected ids: ton-libs.md §2.7 (taken from the reference node's generated ton_api / lite_api).
  it.each([
    ['tcp.ping random_id:long = tcp.Pong', 0x4d082b9a],
    ['tcp.pong random_id:long = tcp.Pong', 0xdc69fb03],
    ['adnl.message.query query_id:int256 query:bytes = adnl.Message', 0xb48bf97a],
    ['adnl.message.answer query_id:int256 answer:bytes = adnl.Message', 0x0fac8416],
    ['pub.ed25519 key:int256 = PublicKey', 0x4813b4c6],
    ['liteServer.query data:bytes = Object', 0x798c06df],
    ['liteServer.getTime = liteServer.CurrentTime', 0x16ad5a34],
    ['liteServer.error code:int message:string = liteServer.Error', 0xbba9e148],
  ])('%s', (line, id) => {
    expect(tlId(line)).toBe(id);
  });
});

describe('TL bytes', () => {
  it('uses a one-byte length below 254 and pads to 4 bytes', () => {
    expect(encodeTlBytes(Buffer.alloc(0)).toString('hex')).toBe('00000000');
    expect(encodeTlBytes(Buffer.from('abcdef', 'hex')).toString('hex')).toBe('03abcdef');
    expect(encodeTlBytes(Buffer.from('abcdef01', 'hex')).toString('hex')).toBe('04abcdef01000000');
  });

  it('uses 0xfe and a 3-byte length from 254 bytes on', () => {
    const data = Buffer.alloc(254, 7);
    const enc = encodeTlBytes(data);
    expect(enc.subarray(0, 4).toString('hex')).toBe('fefe0000');
    expect(enc.length).toBe(260); // 4 + 254, padded to 4
    expect(enc.subarray(4, 258).equals(data)).toBe(true);
    expect(enc.subarray(258).toString('hex')).toBe('0000');
  });

  it.each([0, 1, 3, 4, 253, 254, 255, 1000, 70_000])('round-trips %i bytes and reports the next offset', (n) => {
    const data = Buffer.from(Array.from({ length: n }, (_, i) => (i * 31) & 0xff));
    const buf = Buffer.concat([Buffer.from([9, 9, 9, 9]), encodeTlBytes(data), Buffer.from([1, 2, 3, 4])]);
    const { value, next } = readTlBytes(buf, 4, 'test');
    expect(value.equals(data)).toBe(true);
    expect(buf.subarray(next).toString('hex')).toBe('01020304');
  });

  it('rejects a truncated value with AdnlError', () => {
    const enc = encodeTlBytes(Buffer.alloc(100, 1));
    expect(() => readTlBytes(enc.subarray(0, 50), 0, 'test')).toThrow(AdnlError);
    expect(() => readTlBytes(Buffer.alloc(0), 0, 'test')).toThrow(AdnlError);
    expect(() => readTlBytes(Buffer.from('ff000000', 'hex'), 0, 'test')).toThrow(AdnlError);
  });
});
