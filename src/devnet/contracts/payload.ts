// Payload conventions shared by jetton and NFT messages: `Either Cell ^Cell` forward payloads, text comments and
// TEP-64 token content (contracts.md §0, §2.2, §3).
import { createHash } from 'node:crypto';
import { type Builder, beginCell, type Cell, Dictionary } from '@ton/core';

/**
 * `Either Cell ^Cell`: `left$0` keeps the payload in the rest of the current cell, `right$1` puts it in the next ref.
 * An empty `left` is the usual "no payload".
 */
export type EitherCellRef = { kind: 'left'; value: Cell } | { kind: 'right'; value: Cell };

export const NO_PAYLOAD: EitherCellRef = { kind: 'left', value: beginCell().endCell() };

export function storeEitherCellRef(v: EitherCellRef) {
  return (b: Builder) => {
    if (v.kind === 'right') {
      b.storeBit(1).storeRef(v.value);
    } else {
      b.storeBit(0).storeSlice(v.value.beginParse());
    }
  };
}

/** A text comment: op 0 + UTF-8 bytes as snake data (continued in refs when longer than one cell). */
export function textComment(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

/** TEP-64 off-chain content: 0x01 + the URI as snake data. */
export function offchainContent(uri: string): Cell {
  return beginCell().storeUint(0x01, 8).storeStringTail(uri).endCell();
}

/** sha256 of an attribute name as the uint256 key of an on-chain content dictionary. */
export function contentKey(name: string): bigint {
  return BigInt(`0x${createHash('sha256').update(name, 'utf8').digest('hex')}`);
}

/**
 * TEP-64 on-chain content: 0x00 + HashmapE 256 ^ContentData, each value a ref to `snake#00` + the UTF-8 value.
 * Keys are the attribute names (`name`, `symbol`, `decimals`, `description`, `image`, `uri`, ...).
 */
export function onchainContent(attributes: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [name, value] of Object.entries(attributes)) {
    dict.set(contentKey(name), beginCell().storeUint(0x00, 8).storeStringTail(value).endCell());
  }
  return beginCell().storeUint(0x00, 8).storeDict(dict).endCell();
}

/** Snake bytes without a prefix: a collection's common URI prefix and an item's individual URI tail. */
export function snakeText(text: string): Cell {
  return beginCell().storeStringTail(text).endCell();
}

/** `beginCell().store(writer).endCell()` for the `storeX(value)` writers of this folder. */
export function toCell(writer: (b: Builder) => void): Cell {
  return beginCell().store(writer).endCell();
}
