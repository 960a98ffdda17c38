// block.tlb:10-11, 155-161
//   left$0 {X:Type} {Y:Type} value:X = Either X Y;
//   right$1 {X:Type} {Y:Type} value:Y = Either X Y;
//   message$_ {X:Type} info:CommonMsgInfo
//     init:(Maybe (Either StateInit ^StateInit))
//     body:(Either X ^X) = Message X;
//   message$_ {X:Type} info:CommonMsgInfoRelaxed
//     init:(Maybe (Either StateInit ^StateInit))
//     body:(Either X ^X) = MessageRelaxed X;
//
// Layout-preserving: the schema lets `init` and `body` sit inline (left$0) or in a ref (right$1), and
// @ton/core's storeMessage picks by size, so re-storing a real message with it can change its hash.
// These codecs record the choice (`initInRef`, `bodyInRef`) and replay it, so
// storeMessageExact(loadMessageExact(c)) rebuilds c bit for bit.
import { type Builder, beginCell, type Cell, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { lazyCell } from '../cell/index.ts';
import {
  type CommonMsgInfo,
  type CommonMsgInfoRelaxed,
  loadCommonMsgInfo,
  loadCommonMsgInfoRelaxed,
  storeCommonMsgInfo,
  storeCommonMsgInfoRelaxed,
} from './common-msg-info.ts';
import { loadStateInit, type StateInit, storeStateInit } from './state-init.ts';
import { decoding, loadRefCell, loadWhole } from './util.ts';

interface MessageOf<Info> {
  info: Info;
  init: StateInit | null;
  /** right$1 (^StateInit) when true, left$0 (inline) when false; ignored when `init` is null. */
  initInRef: boolean;
  /** The body X = Any as a cell: the referenced cell, or the inline remainder (bits and refs) as one. */
  body: Cell;
  /** right$1 (^X) when true, left$0 (inline) when false. */
  bodyInRef: boolean;
  /** The cell this message was decoded from (when it was a whole cell); storers ignore it. */
  raw?: Cell;
  /** The StateInit as the cell it was read from (its ref, or the inline bits and refs); storers ignore it. */
  initCell?: Cell;
}

export type Message = MessageOf<CommonMsgInfo>;
export type MessageRelaxed = MessageOf<CommonMsgInfoRelaxed>;

function loadRest<Info>(s: Slice, type: string, info: Info, raw: Cell | undefined): MessageOf<Info> {
  let init: StateInit | null = null;
  let initInRef = false;
  let initCell: Cell | undefined;
  if (s.loadBit()) {
    initInRef = s.loadBit();
    if (initInRef) {
      initCell = loadRefCell(s, type, 'init');
      init = loadWhole('StateInit', initCell, loadStateInit);
    } else {
      const at = s.clone();
      const bits = s.remainingBits;
      const refs = s.remainingRefs;
      init = loadStateInit(s);
      initCell = lazyCell(
        at.loadBits(bits - s.remainingBits),
        Array.from({ length: refs - s.remainingRefs }, () => at.loadRef()),
      );
    }
  }
  const bodyInRef = s.loadBit();
  let body: Cell;
  if (bodyInRef) {
    // Any: the body ref may be any cell, even exotic; it must be the last thing in the message.
    if (s.remainingRefs < 1) throw new CodecError(`${type}: body: expected a reference, none left`);
    body = s.loadRef();
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
      throw new CodecError(
        `${type}: expected the cell to end after the body ref, got ${s.remainingBits} bits and ${s.remainingRefs} refs`,
      );
    }
  } else {
    body = s.asCell();
    // asCell() copies the remainder; the slice itself must now count as consumed.
    s.skip(s.remainingBits);
    while (s.remainingRefs > 0) s.loadRef();
  }
  const m: MessageOf<Info> = { info, init, initInRef, body, bodyInRef };
  if (raw) m.raw = raw;
  if (initCell) m.initCell = initCell;
  return m;
}

function storeRest<Info>(b: Builder, m: MessageOf<Info>): void {
  if (m.init) {
    b.storeBit(true).storeBit(m.initInRef);
    if (m.initInRef) b.storeRef(beginCell().store(storeStateInit(m.init)));
    else b.store(storeStateInit(m.init));
  } else {
    b.storeBit(false);
  }
  b.storeBit(m.bodyInRef);
  if (m.bodyInRef) b.storeRef(m.body);
  else b.storeSlice(m.body.beginParse());
}

function loadMessageWith(s: Slice, raw: Cell | undefined): Message {
  return decoding('Message', () => loadRest(s, 'Message', loadCommonMsgInfo(s), raw));
}

/**
 * Message Any, read from the start of its cell: an inline body is the whole rest of `s`, so `raw` (the
 * remainder of `s` on entry) is the message cell.
 */
export function loadMessageExact(s: Slice): Message {
  return loadMessageWith(s, s.asCell());
}

export function storeMessageExact(m: Message): (b: Builder) => void {
  return (b) => {
    b.store(storeCommonMsgInfo(m.info));
    storeRest(b, m);
  };
}

/** MessageRelaxed Any (what an out action carries), read from the start of its cell. */
export function loadMessageRelaxedExact(s: Slice): MessageRelaxed {
  return decoding('MessageRelaxed', () => {
    const raw = s.asCell();
    return loadRest(s, 'MessageRelaxed', loadCommonMsgInfoRelaxed(s), raw);
  });
}

export function storeMessageRelaxedExact(m: MessageRelaxed): (b: Builder) => void {
  return (b) => {
    b.store(storeCommonMsgInfoRelaxed(m.info));
    storeRest(b, m);
  };
}

/** `^(Message Any)`: decodes a message cell, keeping it as `raw`. */
export function messageFromCell(cell: Cell): Message {
  return decoding('Message', () => loadMessageWith(cell.beginParse(), cell));
}

export function messageRelaxedFromCell(cell: Cell): MessageRelaxed {
  return decoding('MessageRelaxed', () => {
    const s = cell.beginParse();
    return loadRest(s, 'MessageRelaxed', loadCommonMsgInfoRelaxed(s), cell);
  });
}

export function messageToCell(m: Message): Cell {
  return beginCell().store(storeMessageExact(m)).endCell();
}

/** The message hash: the cell it arrived in, or the cell it encodes to. */
export function messageHash(m: Message | MessageRelaxed): Buffer {
  if (m.raw) return m.raw.hash();
  const b = beginCell();
  if (m.info.kind === 'ext_in_msg_info') b.store(storeMessageExact(m as Message));
  else b.store(storeMessageRelaxedExact(m as MessageRelaxed));
  return b.endCell().hash();
}
