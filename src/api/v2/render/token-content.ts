// TEP-64 token content and the addresses get-methods return, read as toncenter 2.1 reads them for getTokenData
// (ton-http-api-cpp utils/common.cpp parse_token_data, address_from_cell; tokens-tlb):
//   offchain#01 uri:Text = FullContent;                           -> {"type": "offchain", "data": uri}
//   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;     -> {"type": "onchain", "data": {attr: text}}
//   snake#00 data:(SnakeData ~n) = ContentData;  chunks#01 data:ChunkedData = ContentData;
//   chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)) = ChunkedData;
// Only the attributes below are looked up (by sha256 of the name); an attribute that does not decode, or is not
// UTF-8, is skipped; image_data comes back base64. Some contracts store ContentData inline instead of by ref: both
// are read. Texts are capped at 8 KiB as toncenter's buffer is.
import { createHash } from 'node:crypto';
import { Address, type Cell, Dictionary, type DictionaryValue, type Slice, type TupleItem } from '@ton/core';
import { formatFriendlyAddress } from '../../../ton/index.ts';

const ATTRIBUTES = [
  'uri',
  'name',
  'description',
  'image',
  'image_data',
  'symbol',
  'decimals',
  'amount_style',
  'render_type',
];
const MAX_TEXT_BYTES = 8 * 1024;

export type TokenContentV2 = { type: 'offchain'; data: string } | { type: 'onchain'; data: Record<string, string> };

export class TokenDataError extends Error {}

/** The value of a dictionary entry as a cell of its remaining bits and refs. */
const rawValue: DictionaryValue<Cell> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice) => s.asCell(),
};

function appendBits(out: boolean[], s: Slice): boolean {
  const n = s.remainingBits;
  if (out.length + n > MAX_TEXT_BYTES * 8) return false;
  for (let i = 0; i < n; i++) out.push(s.loadBit());
  return true;
}

function bitsToBytes(bits: boolean[]): Buffer {
  if (bits.length % 8 !== 0) throw new TokenDataError('Not byte aligned');
  const b = Buffer.alloc(bits.length / 8);
  for (let i = 0; i < bits.length; i++) if (bits[i]) b[i >> 3]! |= 0x80 >> (i & 7);
  return b;
}

/** SnakeData: this slice's bits, then the first ref's, and so on. */
function snakeBytes(s: Slice): Buffer {
  const bits: boolean[] = [];
  let cur: Slice | null = s;
  for (let guard = 0; cur && guard < 10_000; guard++) {
    if (!appendBits(bits, cur)) break;
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse(true) : null;
  }
  return bitsToBytes(bits);
}

/** ChunkedData: chunks 0, 1, 2… while they exist, each chunk's own bits only. */
function chunkBytes(s: Slice): Buffer {
  const dict = Dictionary.load(Dictionary.Keys.Uint(32), Dictionary.Values.Cell(), s);
  const bits: boolean[] = [];
  for (let i = 0; dict.has(i); i++) {
    const chunk = dict.get(i);
    if (chunk && !appendBits(bits, chunk.beginParse(true))) break;
  }
  return bitsToBytes(bits);
}

function contentData(c: Cell): Buffer {
  const s = c.beginParse(true);
  const tag = s.loadUint(8);
  if (tag === 0x00) return snakeBytes(s);
  if (tag === 0x01) return chunkBytes(s);
  throw new TokenDataError('Unknown content data');
}

function utf8(b: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return null;
  }
}

/** FullContent of a jetton, collection or item. */
export function parseTokenContent(cell: Cell): TokenContentV2 {
  try {
    const s = cell.beginParse(true);
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const uri = utf8(snakeBytes(s));
      if (uri === null) throw new TokenDataError('Invalid uri');
      return { type: 'offchain', data: uri };
    }
    if (tag !== 0x00) throw new TokenDataError('Unknown token data type');
    const dict = Dictionary.load(Dictionary.Keys.Buffer(32), rawValue, s);
    const data: Record<string, string> = {};
    // Sorted as toncenter's std::map writes them.
    for (const attr of [...ATTRIBUTES].sort()) {
      let value = dict.get(createHash('sha256').update(attr).digest());
      if (!value) continue;
      if (value.bits.length === 0 && value.refs.length === 1) value = value.refs[0]!;
      let bytes: Buffer;
      try {
        bytes = contentData(value);
      } catch {
        continue;
      }
      if (attr === 'image_data') {
        data[attr] = bytes.toString('base64');
      } else {
        const text = utf8(bytes);
        if (text !== null) data[attr] = text;
      }
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
