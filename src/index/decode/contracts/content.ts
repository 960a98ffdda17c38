// TEP-64 token content (contracts.md §3) as toncenter stores it: the content cell of get_jetton_data,
// get_collection_data and get_nft_content, decoded the way ton-index-worker's parse_token_data does:
//   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   offchain#01 uri:Text = FullContent;
//   snake#00 data:(SnakeData ~n) = ContentData;                    chunks#01 data:ChunkedData = ContentData;
//   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
// Off-chain content is {uri}. On-chain (and semi-chain, an on-chain dictionary that also has a `uri` key) content
// is the subset of the nine standard keys present: UTF-8 strings, image_data in base64. A value that does not
// decode is left out; a content cell of any other shape is not TEP-64 (null), which makes detection fail.
// Content is untrusted: keys are looked up (never the whole dictionary loaded), and byte strings stop at 8 KiB
// and 1024 cells as toncenter's fixed buffer stops them, so hostile content costs bounded work. The reader is
// src/ton/contracts/tep64.ts's, in the indexer's reading (exotic cells refused, the chunked dictionary looked up).
import type { Cell, Slice } from '@ton/core';
import {
  CONTENT_KEY_HASHES,
  CONTENT_KEYS,
  type ContentReading,
  contentText,
  loadContentData,
  loadSnakeBytes,
  lookupHashmap,
  utf8OrNull,
} from '../../../ton/index.ts';
import type { ContentJson } from './types.ts';

/** Cells of one snake value or chunk indices of one chunked value read at most. */
const MAX_VALUE_CELLS = 1024;

const KEY_HASHES = CONTENT_KEY_HASHES.map((h) => BigInt(`0x${h.toString('hex')}`));

/** Chunked data: chunk 0, 1, 2… while the index exists; each chunk is its cell's own bits. */
function* chunkCells(root: Cell | null): Generator<Slice> {
  if (!root) return;
  for (let i = 0; i < MAX_VALUE_CELLS; i++) {
    const v = lookupHashmap(root, 32, BigInt(i));
    if (!v) return;
    yield v.loadRef().beginParse();
  }
}

/** The indexer's reading: exotic cells throw, a chunked value's dictionary is looked up and must end the value. */
const INDEX_READING: ContentReading = {
  exotic: false,
  maxSnakeCells: MAX_VALUE_CELLS,
  chunks: (s) => {
    const root = s.loadBit() ? s.loadRef() : null;
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) return null;
    return chunkCells(root);
  },
};

/** One ContentData value; null when it does not decode. */
function contentData(value: Slice): Buffer | null {
  try {
    return loadContentData(value, INDEX_READING);
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
    const bytes = contentData(value);
    if (!bytes) return;
    const text = contentText(key, bytes);
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
      const bytes = loadSnakeBytes(s, INDEX_READING);
      const uri = bytes ? utf8OrNull(bytes) : null;
      return uri === null ? null : { uri };
    }
    if (tag === 0x00) return loadOnchain(s);
    return null;
  } catch {
    // A malformed dictionary or a pruned cell inside the content: not TEP-64.
    return null;
  }
}
