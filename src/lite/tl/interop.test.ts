// Interop with ton-lite-client's own generated codecs (ton-lite-client/dist/schema.js on ton-tl's buffers):
// for every constructor whose TL line it shares with us and whose codec is sound (no `?true` fields), bytes we
// encode equal the bytes it encodes, and each side decodes the other's bytes to the same values.
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/index.ts';
import { decodeTl, encodeTl, TL_SCHEMA, type TlConstructorSchema, type TlObject, type TlTypeRef } from './index.ts';
import {
  flagCombos,
  fromTheirsObject,
  loadTheirModule,
  readTheirSchema,
  rng,
  sampleObject,
  toTheirsObject,
  type Value,
} from './test-helpers.ts';

const theirs = loadTheirModule();
const theirSchema = readTheirSchema();
const ours = new Map(TL_SCHEMA.map((c) => [c.name, c]));
const key = (tlName: string) => tlName.replaceAll('.', '_');

/** Constructors both sides describe identically, with no `?true` field, transitively through nested types. */
function compatible(): Map<string, string> {
  const reasons = new Map<string, string>(); // name -> why not (absent = compatible)
  const memo = new Map<string, boolean>();
  const ok = (c: TlConstructorSchema): boolean => {
    const known = memo.get(c.name);
    if (known !== undefined) return known;
    memo.set(c.name, true); // provisional (no recursion in lite_api)
    const t = theirSchema.get(c.name);
    let why: string | undefined;
    if (!t) why = 'not in ton-lite-client';
    else if (t.fields.join(',') !== c.fields.map((f) => f.name).join(',')) why = 'fields differ';
    else if (t.id !== c.id) why = 'id differs';
    else if (c.fields.some((f) => f.type === 'true')) why = '?true field (ton-lite-client writes a Bool)';
    else {
      const bad = c.fields.find((f) => !refOk(f.type));
      if (bad) why = `nested ${JSON.stringify(bad.type)} not compatible`;
    }
    if (why) reasons.set(c.name, why);
    memo.set(c.name, !why);
    return !why;
  };
  const refOk = (ref: TlTypeRef): boolean => {
    if (typeof ref === 'string') return true;
    if ('vector' in ref) return refOk(ref.vector);
    if ('bare' in ref) return ok(ours.get(ref.bare)!);
    const members = TL_SCHEMA.filter((c) => c.kind === 'type' && c.type === ref.boxed);
    return members.every(ok) && theirs.Codecs[key(ref.boxed)] !== undefined;
  };
  for (const c of TL_SCHEMA) ok(c);
  return reasons;
}

const incompatible = compatible();
const shared = TL_SCHEMA.filter((c) => !incompatible.has(c.name));

function theirEncode(c: TlConstructorSchema, v: Value): Buffer {
  const w = theirs.newWriter();
  const src = toTheirsObject(c, v);
  if (c.kind === 'function') theirs.Functions[key(c.name)]!.encodeRequest(src, w);
  else theirs.Codecs[key(c.type)]!.encode(src, w);
  return Buffer.from(w.build());
}

function theirDecode(c: TlConstructorSchema, bytes: Buffer): Value {
  // boxed type codecs read the id themselves; functions only have bare codecs, so skip the id we checked
  const raw =
    c.kind === 'function'
      ? theirs.Codecs[key(c.name)]!.decode(theirs.newReader(bytes.subarray(4)))
      : theirs.Codecs[key(c.type)]!.decode(theirs.newReader(bytes));
  return fromTheirsObject(c, raw as Value);
}

describe('ton-lite-client codec interop', () => {
  it('covers most of the schema; every exclusion has a reason', () => {
    expect(shared.length).toBeGreaterThan(45);
    expect(Object.fromEntries(incompatible)).toMatchObject({
      'liteServer.listBlockTransactions': '?true field (ton-lite-client writes a Bool)',
      'liteServer.transactionId': 'fields differ',
      'liteServer.getValidatorStats': 'id differs',
      'liteServer.blockTransactions': expect.stringContaining('liteServer.transactionId'),
      'liteServer.getDispatchQueueMessages': 'not in ton-lite-client',
    });
  });

  for (const c of shared) {
    it(`${c.name}: same bytes both ways for every flag combination`, () => {
      const r = rng(c.id ^ 0x1234);
      for (const flags of flagCombos(c)) {
        const sample = sampleObject(c, r, { nonFalsyFlagged: true }, flags);
        const mine = encodeTl(sample as unknown as TlObject);
        const their = theirEncode(c, sample);
        expect(mine.equals(their)).toBe(true);
        expect(theirDecode(c, mine)).toEqual(sample);
        expect(decodeTl(their)).toEqual(sample);
      }
    });
  }

  it('their known bugs, which our codec does not share', () => {
    const id = {
      workchain: 0,
      shard: 1n << 63n,
      seqno: 5,
      rootHash: Buffer.alloc(32, 1),
      fileHash: Buffer.alloc(32, 2),
    };
    // ?true fields: ton-lite-client writes want_proof as a 4-byte Bool (mode 39 = what pytoniq sends)
    const list = ours.get('liteServer.listBlockTransactions')!;
    const req = { _: list.name, id, mode: 39, count: 10, reverseOrder: false, wantProof: true };
    const theirBytes = theirEncode(list, { ...req, id: { ...id, shard: -(1n << 63n) } });
    const mine = encodeTl(req as TlObject);
    expect(theirBytes.length).toBe(mine.length + 4);
    expect(theirBytes.subarray(0, mine.length).equals(mine)).toBe(true);
    expect(theirBytes.readUInt32LE(mine.length)).toBe(0x997275b5);
    expect(() => decodeTl(theirBytes)).toThrow(CodecError); // a stray Bool is trailing garbage to a strict decoder

    // falsy flagged values: lookupBlock by utime 0 (mode 4) silently loses its utime
    const lookup = ours.get('liteServer.lookupBlock')!;
    const byUtime = {
      _: lookup.name,
      mode: 4,
      id: { _: 'tonNode.blockId', workchain: -1, shard: -(1n << 63n), seqno: 0 },
      utime: 0,
    };
    expect(encodeTl(byUtime as TlObject).length).toBe(theirEncode(lookup, byUtime).length + 4);
  });
});

describe.skipIf(!hasVectors)('ton-lite-client reads the real configInfo bytes as we do', () => {
  it('liteServer.configInfo of mainnet block 26309435', () => {
    const bytes = Buffer.from(
      loadVector<{ response_hex: string }>('liteserver', 'get_config_all_tongo.json').response_hex,
      'hex',
    );
    const c = ours.get('liteServer.configInfo')!;
    expect(theirDecode(c, bytes)).toEqual(decodeTl(bytes));
  });
});
