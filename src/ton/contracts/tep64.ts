// TEP-64 token content (contracts.md §3), the reader both toncenter readings share: the content cell of
// get_jetton_data, get_collection_data and get_nft_content,
//   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   offchain#01 uri:Text = FullContent;
//   snake#00 data:(SnakeData ~n) = ContentData;                    chunks#01 data:ChunkedData = ContentData;
//   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
// Only the nine standard keys are read (looked up by sha256 of the name); a value is UTF-8 text, image_data
// base64. Byte strings stop at 8 KiB as toncenter's fixed buffer stops them (a cell that would overflow it ends the
// value). Where the two readings differ (exotic cells, how many cells a value may span, how a chunked value's
// dictionary is read), a ContentReading says which: the indexer's (src/index/decode/contracts/content.ts, as
// ton-index-worker's parse_token_data) and v2's getTokenData (src/api/v2/render/token-content.ts, as toncenter 2.1's
// parse_token_data) are thin adapters over this module.
import { createHash } from 'node:crypto';
import type { Cell, Slice } from '@ton/core';
import { utf8OrNull } from '../message/comment.ts';

/** The keys toncenter reads (v3-api.md §3.4), in its order. */
export const CONTENT_KEYS = [
  'uri',
  'name',
  'description',
  'image',
  'image_data',
  'symbol',
  'decimals',
  'amount_style',
  'render_type',
] as const;

export type ContentKey = (typeof CONTENT_KEYS)[number];

/** sha256 of each of CONTENT_KEYS, in the same order: the on-chain dictionary's keys. */
export const CONTENT_KEY_HASHES: readonly Buffer[] = CONTENT_KEYS.map((k) => createHash('sha256').update(k).digest());

/** toncenter's buffer: a snake or chunked value keeps the cells that fit in 8 KiB. */
const MAX_VALUE_BYTES = 8 * 1024;

/** How a content cell is read where the two toncenter readings differ. */
export interface ContentReading {
  /** Exotic cells are parsed as ordinary ones (toncenter 2.1); otherwise parsing one throws (the indexer). */
  exotic: boolean;
  /** Cells of one snake value read at most. */
  maxSnakeCells: number;
  /** The chunks of ChunkedData (the slice after its tag), in index order; null when it is not chunked data. */
  chunks: (s: Slice) => Iterable<Slice> | null;
}

/** A cell's slice as the reading parses it. */
export function parseCell(c: Cell, r: ContentReading): Slice {
  return r.exotic ? c.beginParse(true) : c.beginParse();
}

/** Collects bits up to the byte limit (a cell that would overflow it ends the value, as in toncenter). */
class ByteSink {
  private readonly parts: Buffer[] = [];
  private bits = 0;
  private pending = 0n;
  private pendingBits = 0;

  /** Appends the slice's remaining bits; false when they would pass the limit (nothing appended). */
  add(s: Slice): boolean {
    const n = s.remainingBits;
    if (this.bits + n > MAX_VALUE_BYTES * 8) return false;
    this.bits += n;
    let left = n;
    // Whole bytes go straight through when the sink is aligned; otherwise bits are carried over.
    if (this.pendingBits === 0 && left >= 8) {
      const whole = Math.floor(left / 8);
      this.parts.push(s.loadBuffer(whole));
      left -= whole * 8;
    }
    while (left > 0) {
      const take = Math.min(left, 8 - this.pendingBits);
      this.pending = (this.pending << BigInt(take)) | s.loadUintBig(take);
      this.pendingBits += take;
      left -= take;
      if (this.pendingBits === 8) {
        this.parts.push(Buffer.from([Number(this.pending)]));
        this.pending = 0n;
        this.pendingBits = 0;
      }
    }
    return true;
  }

  /** The bytes, or null when the bit count is not a whole number of bytes. */
  bytes(): Buffer | null {
    return this.pendingBits === 0 ? Buffer.concat(this.parts) : null;
  }
}

/** The bytes of `slices` in turn, up to the byte limit; null when they are not a whole number of bytes. */
function collectBytes(slices: Iterable<Slice>): Buffer | null {
  const sink = new ByteSink();
  for (const s of slices) if (!sink.add(s)) break;
  return sink.bytes();
}

function* snakeCells(s: Slice, r: ContentReading): Generator<Slice> {
  let cur = s;
  for (let cells = 0; cells < r.maxSnakeCells; cells++) {
    yield cur;
    if (cur.remainingRefs === 0) return;
    cur = parseCell(cur.loadRef(), r);
  }
}

/**
 * Snake data: this slice's bits, then its first ref's, and so on (the refs after the first are ignored); null when
 * not a whole number of bytes.
 */
export function loadSnakeBytes(s: Slice, r: ContentReading): Buffer | null {
  return collectBytes(snakeCells(s, r));
}

/**
 * One ContentData value (a ref to it, or inline as some contracts store it); null when it does not decode. May
 * throw on a malformed value: callers treat that as not decoding.
 */
export function loadContentData(value: Slice, r: ContentReading): Buffer | null {
  let s = value;
  if (s.remainingBits === 0 && s.remainingRefs === 1) s = parseCell(s.loadRef(), r);
  if (s.remainingBits < 8) return null;
  const tag = s.loadUint(8);
  if (tag === 0x00) return loadSnakeBytes(s, r);
  if (tag === 0x01) {
    const chunks = r.chunks(s);
    return chunks ? collectBytes(chunks) : null;
  }
  return null;
}

/** A decoded value as toncenter writes it: image_data in base64, the others as UTF-8 text (null when not UTF-8). */
export function contentText(key: ContentKey, bytes: Buffer): string | null {
  return key === 'image_data' ? bytes.toString('base64') : utf8OrNull(bytes);
}
