// TEP-64 token content (contracts.md §3) as toncenter stores it: the content cell of get_jetton_data,
// get_collection_data and get_nft_content, decoded the way ton-index-worker's parse_token_data does:
//   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   offchain#01 uri:Text = FullContent;
//   snake#00 data:(SnakeData ~n) = ContentData;                    chunks#01 data:ChunkedData = ContentData;
//   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
// Off-chain content is {uri}. On-chain (and semi-chain, an on-chain dictionary that also has a `uri` key) content
// is the subset of the nine standard keys present: UTF-8 strings, image_data in base64. A value that does not
// decode is left out; a content cell of any other shape is not TEP-64 (null), which makes detection fail.
// Content is untrusted: keys are looked up (never the whole dictionary loaded), and byte strings stop at 8 KiB
// and 1024 cells as toncenter's fixed buffer stops them, so hostile content costs bounded work.
import { createHash } from 'node:crypto';
import type { Cell, Slice } from '@ton/core';
import { lookupHashmap } from '../../../ton/index.ts';
import type { ContentJson } from './types.ts';

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

/** toncenter's buffer: a snake or chunked value keeps the cells that fit in 8 KiB. */
const MAX_VALUE_BYTES = 8 * 1024;
/** Cells of one snake value or chunk indices of one chunked value read at most. */
const MAX_VALUE_CELLS = 1024;

const KEY_HASHES = CONTENT_KEYS.map((k) => BigInt(`0x${createHash('sha256').update(k).digest('hex')}`));

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of `bytes`, or null when they are not valid UTF-8. */
function textOf(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
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

/** Snake data: this slice's bits, then its first ref's, and so on (the refs after the first are ignored). */
function loadSnakeBytes(s: Slice): Buffer | null {
  const sink = new ByteSink();
  let cur = s;
  for (let cells = 0; cells < MAX_VALUE_CELLS; cells++) {
    if (!sink.add(cur)) break;
    if (cur.remainingRefs === 0) break;
    cur = cur.loadRef().beginParse();
  }
  return sink.bytes();
}

/** Chunked data: chunk 0, 1, 2… while the index exists; each chunk is its cell's own bits. */
function loadChunkedBytes(s: Slice): Buffer | null {
  const root = s.loadBit() ? s.loadRef() : null;
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) return null;
  const sink = new ByteSink();
  if (root) {
    for (let i = 0; i < MAX_VALUE_CELLS; i++) {
      const v = lookupHashmap(root, 32, BigInt(i));
      if (!v) break;
      if (!sink.add(v.loadRef().beginParse())) break;
    }
  }
  return sink.bytes();
}

/** One ContentData value (a ref to it, or inline as some contracts store it); null when it does not decode. */
function loadContentData(value: Slice): Buffer | null {
  try {
    let s = value;
    if (s.remainingBits === 0 && s.remainingRefs === 1) s = s.loadRef().beginParse();
    if (s.remainingBits < 8) return null;
    const tag = s.loadUint(8);
    if (tag === 0x00) return loadSnakeBytes(s);
    if (tag === 0x01) return loadChunkedBytes(s);
    return null;
  } catch {
    return null;
  }
}

/** The on-chain dictionary's standard keys; throws when the dictionary itself is malformed. */
function loadOnchain(s: Slice): ContentJson | null {
  const root = s.loadBit() ? s.loadRef() : null;
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) return null;
  const out: ContentJson = {};
  if (!root) return out;
  CONTENT_KEYS.forEach((key, i) => {
    const value = lookupHashmap(root, 256, KEY_HASHES[i]!);
    if (!value) return;
    const bytes = loadContentData(value);
    if (!bytes) return;
    if (key === 'image_data') {
      out[key] = bytes.toString('base64');
      return;
    }
    const text = textOf(bytes);
    if (text !== null) out[key] = text;
  });
  return out;
}

/** The TEP-64 content of `cell`, or null when the cell is not TEP-64 content. */
export function loadTokenContent(cell: Cell): ContentJson | null {
  try {
    if (cell.isExotic) return null;
    const s = cell.beginParse();
    if (s.remainingBits < 8) return null;
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const bytes = loadSnakeBytes(s);
      const uri = bytes ? textOf(bytes) : null;
      return uri === null ? null : { uri };
    }
    if (tag === 0x00) return loadOnchain(s);
    return null;
  } catch {
    // A malformed dictionary or a pruned cell inside the content: not TEP-64.
    return null;
  }
}
