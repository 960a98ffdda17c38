// TEP-64 token content and the addresses get-methods return, read as toncenter 2.1 reads them for getTokenData
// (ton-http-api-cpp utils/common.cpp parse_token_data, address_from_cell; tokens-tlb):
//   offchain#01 uri:Text = FullContent;                           -> {"type": "offchain", "data": uri}
//   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;     -> {"type": "onchain", "data": {attr: text}}
//   snake#00 data:(SnakeData ~n) = ContentData;  chunks#01 data:ChunkedData = ContentData;
//   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
// Only the attributes below are looked up (by sha256 of the name); an attribute that does not decode, or is not
// UTF-8, is skipped; image_data comes back base64. Some contracts store ContentData inline instead of by ref: both
// are read. Texts are capped at 8 KiB as toncenter's buffer is. The reader is src/ton/contracts/tep64.ts's, in
// toncenter 2.1's reading (exotic cells read as ordinary ones, the chunked dictionary loaded whole).
import { Address, type Cell, Dictionary, type DictionaryValue, type Slice, type TupleItem } from '@ton/core';
import {
  CONTENT_KEY_HASHES,
  CONTENT_KEYS,
  type ContentReading,
  contentText,
  formatFriendlyAddress,
  loadContentData,
  loadSnakeBytes,
  utf8OrNull,
} from '../../../ton/index.ts';

export type TokenContentV2 = { type: 'offchain'; data: string } | { type: 'onchain'; data: Record<string, string> };

export class TokenDataError extends Error {}

/** The value of a dictionary entry as a cell of its remaining bits and refs. */
const rawValue: DictionaryValue<Cell> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice) => s.asCell(),
};

/** ChunkedData: chunks 0, 1, 2… while they exist, each chunk's own bits only (the whole dictionary loaded). */
function* chunkCells(dict: Dictionary<number, Cell>): Generator<Slice> {
  for (let i = 0; dict.has(i); i++) yield dict.get(i)!.beginParse(true);
}

/** toncenter 2.1's reading: exotic cells read as ordinary ones, up to 10 000 snake cells, chunks unbounded. */
const V2_READING: ContentReading = {
  exotic: true,
  maxSnakeCells: 10_000,
  chunks: (s) => chunkCells(Dictionary.load(Dictionary.Keys.Uint(32), Dictionary.Values.Cell(), s)),
};

/** SnakeData as bytes; throws when not a whole number of bytes. */
function snakeBytes(s: Slice): Buffer {
  const bytes = loadSnakeBytes(s, V2_READING);
  if (!bytes) throw new TokenDataError('Not byte aligned');
  return bytes;
}

/** The attributes (CONTENT_KEYS) with their dictionary keys, sorted as toncenter's std::map writes them. */
const ATTRIBUTES = CONTENT_KEYS.map((key, i) => ({ key, hash: CONTENT_KEY_HASHES[i]! })).sort((a, b) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
);

/** FullContent of a jetton, collection or item. */
export function parseTokenContent(cell: Cell): TokenContentV2 {
  try {
    const s = cell.beginParse(true);
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const uri = utf8OrNull(snakeBytes(s));
      if (uri === null) throw new TokenDataError('Invalid uri');
      return { type: 'offchain', data: uri };
    }
    if (tag !== 0x00) throw new TokenDataError('Unknown token data type');
    const dict = Dictionary.load(Dictionary.Keys.Buffer(32), rawValue, s);
    const data: Record<string, string> = {};
    for (const { key, hash } of ATTRIBUTES) {
      const value = dict.get(hash);
      if (!value) continue;
      let bytes: Buffer | null;
      try {
        bytes = loadContentData(value.beginParse(true), V2_READING);
      } catch {
        continue;
      }
      if (!bytes) continue;
      const text = contentText(key, bytes);
      if (text !== null) data[key] = text;
    }
    return { type: 'onchain', data };
  } catch (e) {
    if (e instanceof TokenDataError) throw e;
    throw new TokenDataError(`Failed to parse token data: ${(e as Error).message}`);
  }
}

/** A MsgAddress returned in a cell or slice: "" for addr_none, bounceable url-safe for addr_std. */
export function addressFromStackEntry(item: TupleItem | undefined, testnet: boolean): string {
  if (!item || (item.type !== 'cell' && item.type !== 'slice')) {
    throw new TokenDataError('stackEntryCell or stackEntrySlice expected');
  }
  try {
    const s = item.cell.beginParse(true);
    const kind = s.loadUint(2);
    if (kind === 0) return '';
    if (kind === 1) throw new TokenDataError('addr_ext is not supported');
    if (kind === 3) throw new TokenDataError('addr_var is not supported');
    if (s.loadBit()) throw new TokenDataError('anycast is not supported');
    const wc = s.loadInt(8);
    const hash = s.loadBuffer(32);
    return formatFriendlyAddress(new Address(wc, hash), { bounceable: true, testOnly: testnet, urlSafe: true });
  } catch (e) {
    if (e instanceof TokenDataError) throw e;
    throw new TokenDataError(`Failed to parse address: ${(e as Error).message}`);
  }
}

/** A number entry as a decimal string. */
export function numberFromStackEntry(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new TokenDataError('stackEntryNumber expected');
  return item.value;
}

export function cellFromStackEntry(item: TupleItem | undefined, position: number): Cell {
  if (item?.type !== 'cell') throw new TokenDataError(`stackEntryCell expected at ${position} position`);
  return item.cell;
}
