import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AdnlError } from '../common/index.ts';
import { decodeAdnlMessage, encodeAdnlMessage } from './messages.ts';

describe('ADNL messages', () => {
  // The payload of the getMasterchainInfo query packet in the TON documentation's ADNL-TCP walkthrough
  // (ton-community/ton-docs docs/v3/documentation/network/protocols/adnl/adnl-tcp.md, "getMasterchainInfo").
  const docQueryId = Buffer.from('77c1545b96fa136b8e01cc08338bec47e8a43215492dda6d4d7e286382bb00c4', 'hex');
  const docLiteQuery = Buffer.from('df068c79042ee6b589000000', 'hex');
  const docPayload = Buffer.from(`7af98bb4${docQueryId.toString('hex')}0c${docLiteQuery.toString('hex')}000000`, 'hex');

  it('encodes adnl.message.query exactly like the documented packet', () => {
    expect(encodeAdnlMessage({ _: 'adnl.message.query', queryId: docQueryId, query: docLiteQuery })).toEqual(
      docPayload,
    );
    expect(decodeAdnlMessage(docPayload)).toEqual({
      _: 'adnl.message.query',
      queryId: docQueryId,
      query: docLiteQuery,
    });
  });

  it('round-trips answers of every length class and pings', () => {
    for (const n of [0, 5, 253, 254, 100_000]) {
      const m = { _: 'adnl.message.answer' as const, queryId: randomBytes(32), answer: randomBytes(n) };
      expect(decodeAdnlMessage(encodeAdnlMessage(m))).toEqual(m);
    }
    for (const randomId of [0n, -1n, 0x7fffffffffffffffn, -0x8000000000000000n]) {
      const ping = encodeAdnlMessage({ _: 'tcp.ping', randomId });
      expect(ping.length).toBe(12);
      expect(ping.subarray(0, 4).toString('hex')).toBe('9a2b084d'); // documented little-endian bytes
      expect(decodeAdnlMessage(ping)).toEqual({ _: 'tcp.ping', randomId });
      expect(decodeAdnlMessage(encodeAdnlMessage({ _: 'tcp.pong', randomId }))).toEqual({ _: 'tcp.pong', randomId });
    }
  });

  it('rejects unknown constructors, short buffers and trailing bytes', () => {
    expect(() => decodeAdnlMessage(Buffer.from('01020304', 'hex'))).toThrow(/constructor 0x04030201/);
    expect(() => decodeAdnlMessage(Buffer.alloc(2))).toThrow(AdnlError);
    expect(() => decodeAdnlMessage(docPayload.subarray(0, 40))).toThrow(AdnlError);
    expect(() => decodeAdnlMessage(Buffer.concat([docPayload, Buffer.alloc(4)]))).toThrow(/trailing/);
    const ping = encodeAdnlMessage({ _: 'tcp.ping', randomId: 1n });
    expect(() => decodeAdnlMessage(ping.subarray(0, 8))).toThrow(AdnlError);
  });

  it('refuses a query id that is not 32 bytes', () => {
    expect(() =>
      encodeAdnlMessage({ _: 'adnl.message.query', queryId: Buffer.alloc(31), query: Buffer.alloc(0) }),
    ).toThrow(AdnlError);
  });
});
