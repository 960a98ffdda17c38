import { Address, BitString, type Builder, beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/errors.ts';
import { loadCommonMsgInfoRelaxed } from './common-msg-info.ts';
import { loadMessageExact, type Message, messageFromCell, messageToCell, storeMessageExact } from './message.ts';
import { messageView, normalizedMessageHash } from './message-view.ts';
import { loadMsgAddressInt, type MsgAddressInt, msgAddressToAddress, storeMsgAddress } from './msg-address.ts';

// Cells below are written by hand from block.tlb with @ton/core's Builder (not with the codec under
// test), so a loader that misreads a bit or a storer that writes one differently fails.
const DEST = Buffer.alloc(32, 0xab);
const SRC = Buffer.alloc(32, 0x11);

function stdAddr(b: Builder, wc: number, hash: Buffer): Builder {
  return b.storeUint(0b10, 2).storeBit(false).storeInt(wc, 8).storeBuffer(hash); // addr_std$10, no anycast
}

/** int_msg_info$0 with fixed field values (block.tlb:126). */
function intInfo(b: Builder): Builder {
  b.storeBit(false).storeBit(true).storeBit(true).storeBit(false); // $0 ihr_disabled bounce bounced
  stdAddr(b, 0, SRC);
  stdAddr(b, -1, DEST);
  b.storeUint(2, 4).storeUint(1000, 16); // value: grams = 1000 (len 2)
  b.storeBit(false); // other: empty extra currencies
  b.storeUint(0, 4); // extra_flags = 0
  b.storeUint(1, 4).storeUint(7, 8); // fwd_fee = 7
  return b.storeUint(123456789n, 64).storeUint(1700000000, 32);
}

/** StateInit with code and data (block.tlb:144). */
function stateInit(b: Builder): Builder {
  return b
    .storeBit(false)
    .storeBit(false)
    .storeMaybeRef(beginCell().storeUint(0xc0de, 16))
    .storeMaybeRef(beginCell().storeUint(0xda7a, 16))
    .storeBit(false);
}

const BODY = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(42, 64).endCell();

function roundTrip(cell: Cell): Message {
  const m = messageFromCell(cell);
  expect(messageToCell(m).equals(cell)).toBe(true);
  // A message stored without the cell it came from still re-encodes the same way.
  const { raw: _raw, ...bare } = m;
  expect(beginCell().store(storeMessageExact(bare)).endCell().equals(cell)).toBe(true);
  return m;
}

describe('Message: layouts the schema leaves open', () => {
  const cases: Array<[string, (b: Builder) => void, boolean | null, boolean]> = [
    ['no init, inline body', (b) => b.storeBit(false).storeBit(false).storeSlice(BODY.beginParse()), null, false],
    ['no init, body in ref', (b) => b.storeBit(false).storeBit(true).storeRef(BODY), null, true],
    [
      'inline init, inline body',
      (b) => stateInit(b.storeBit(true).storeBit(false)).storeBit(false).storeSlice(BODY.beginParse()),
      false,
      false,
    ],
    [
      'inline init, body in ref',
      (b) => stateInit(b.storeBit(true).storeBit(false)).storeBit(true).storeRef(BODY),
      false,
      true,
    ],
    [
      'init in ref, inline body',
      (b) =>
        b.storeBit(true).storeBit(true).storeRef(stateInit(beginCell())).storeBit(false).storeSlice(BODY.beginParse()),
      true,
      false,
    ],
    [
      'init in ref, body in ref',
      (b) => b.storeBit(true).storeBit(true).storeRef(stateInit(beginCell())).storeBit(true).storeRef(BODY),
      true,
      true,
    ],
  ];
  it.each(cases)('%s', (_name, tail, initInRef, bodyInRef) => {
    const b = intInfo(beginCell());
    tail(b);
    const cell = b.endCell();
    const m = roundTrip(cell);
    expect(m.bodyInRef).toBe(bodyInRef);
    expect(m.init === null ? null : m.initInRef).toBe(initInRef);
    expect(m.body.equals(BODY)).toBe(true);
    if (m.init) {
      expect(m.init.code?.bits.toString()).toBe('C0DE');
      expect(m.init.data?.bits.toString()).toBe('DA7A');
      expect(m.init.library).toBeNull();
      expect(m.init.fixedPrefixLength).toBeNull();
      expect(m.init.special).toBeNull();
    }
    if (m.info.kind !== 'int_msg_info') throw new Error('expected int_msg_info');
    expect(m.info).toMatchObject({ ihrDisabled: true, bounce: true, bounced: false, extraFlags: 0n, fwdFee: 7n });
    expect(m.info.value.coins).toBe(1000n);
    expect(m.info.createdLt).toBe(123456789n);
    expect(m.info.createdAt).toBe(1700000000);
    const v = messageView(m);
    expect(v.source!.equals(new Address(0, SRC))).toBe(true);
    expect(v.destination!.equals(new Address(-1, DEST))).toBe(true);
    expect(v.bodyHash.equals(BODY.hash())).toBe(true);
    expect(v.opcode).toBe(0x0f8a7ea5);
    expect(v.hashNorm).toBeNull();
  });

  it('keeps an inline body’s refs with the body', () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('hi').storeRef(beginCell().storeUint(1, 1)).endCell();
    const cell = intInfo(beginCell()).storeBit(false).storeBit(false).storeSlice(body.beginParse()).endCell();
    const m = roundTrip(cell);
    expect(m.body.equals(body)).toBe(true);
  });

  it('reads StateInit fixed_prefix_length and special', () => {
    const init = beginCell()
      .storeBit(true)
      .storeUint(17, 5)
      .storeBit(true)
      .storeBit(true)
      .storeBit(false)
      .storeBit(false)
      .storeBit(false)
      .storeMaybeRef(beginCell().storeUint(1, 8));
    const cell = intInfo(beginCell())
      .storeBit(true)
      .storeBit(false)
      .storeBuilder(init)
      .storeBit(true)
      .storeRef(BODY)
      .endCell();
    const m = roundTrip(cell);
    expect(m.init).toMatchObject({
      fixedPrefixLength: 17,
      special: { tick: true, tock: false },
      code: null,
      data: null,
    });
    expect(m.init!.library!.bits.toString()).toBe('01');
  });
});

describe('MsgAddress: every constructor', () => {
  it('external-in with addr_extern src and an anycast addr_std dest', () => {
    const ext = new BitString(Buffer.from([0xde, 0xad, 0xbe]), 0, 21);
    const b = beginCell().storeUint(0b10, 2); // ext_in_msg_info$10
    b.storeUint(0b01, 2).storeUint(21, 9).storeBits(ext); // addr_extern$01 len:(## 9)
    b.storeUint(0b10, 2).storeBit(true).storeUint(3, 5).storeUint(0b101, 3).storeInt(0, 8).storeBuffer(DEST); // anycast depth 3
    b.storeUint(1, 4).storeUint(9, 8); // import_fee = 9
    const cell = b.storeBit(false).storeBit(true).storeRef(BODY).endCell();
    const m = roundTrip(cell);
    if (m.info.kind !== 'ext_in_msg_info') throw new Error('expected ext_in_msg_info');
    expect(m.info.importFee).toBe(9n);
    expect(m.info.src.kind).toBe('addr_extern');
    const v = messageView(m);
    // The 21 bits 1101_1110_1010_1101_1011_1 of 0xdeadbe, as an unsigned integer.
    expect(v.sourceExternal?.value).toBe(0b110111101010110110111n);
    expect(v.sourceExternal?.bits).toBe(21);
    // extract_std_address: the anycast prefix 101 replaces the first three bits of 0xab = 1010_1011.
    const rewritten = Buffer.from(DEST);
    rewritten[0] = 0b1010_1011;
    expect(v.destination!.equals(new Address(0, rewritten))).toBe(true);
    const rewritten2 = Buffer.from(DEST);
    expect(
      msgAddressToAddress({
        kind: 'addr_std',
        anycast: { rewritePfx: new BitString(Buffer.from([0x00]), 0, 2) },
        workchainId: 0,
        address: rewritten2,
      })!.hash[0],
    ).toBe(0b0010_1011);
    expect(v.importFee).toBe(9n);
    expect(v.value).toBeNull();
    // TEP-467: src addr_none, import_fee 0, no init, body in a ref, dest kept with its anycast.
    const norm = beginCell().storeUint(0b10, 2).storeUint(0, 2);
    norm.storeUint(0b10, 2).storeBit(true).storeUint(3, 5).storeUint(0b101, 3).storeInt(0, 8).storeBuffer(DEST);
    norm.storeUint(0, 4).storeBit(false).storeBit(true).storeRef(BODY);
    expect(normalizedMessageHash(m)!.equals(norm.endCell().hash())).toBe(true);
  });

  it('TEP-467 hash equals the one built with @ton/core’s own address and coins writers', () => {
    const cell = beginCell().storeUint(0b10, 2).storeUint(0, 2);
    stdAddr(cell, 0, DEST).storeUint(1, 4).storeUint(5, 8); // import_fee 5
    stateInit(cell.storeBit(true).storeBit(false)).storeBit(false).storeSlice(BODY.beginParse());
    const m = roundTrip(cell.endCell());
    const expected = beginCell()
      .storeUint(2, 2)
      .storeAddress(null)
      .storeAddress(new Address(0, DEST))
      .storeCoins(0)
      .storeBit(false)
      .storeBit(true)
      .storeRef(BODY)
      .endCell();
    expect(normalizedMessageHash(m)!.equals(expected.hash())).toBe(true);
    expect(normalizedMessageHash(m)!.equals(m.raw!.hash())).toBe(false);
  });

  it('external-out with an addr_var src', () => {
    const bits = new BitString(Buffer.alloc(32, 0x5a), 0, 256);
    const b = beginCell().storeUint(0b11, 2); // ext_out_msg_info$11
    b.storeUint(0b11, 2).storeBit(false).storeUint(256, 9).storeInt(7, 32).storeBits(bits); // addr_var$11
    b.storeUint(0, 2).storeUint(5n, 64).storeUint(6, 32); // dest addr_none, created_lt, created_at
    const m = roundTrip(b.storeBit(false).storeBit(false).endCell());
    if (m.info.kind !== 'ext_out_msg_info') throw new Error('expected ext_out_msg_info');
    expect(m.info.src.kind).toBe('addr_var');
    const v = messageView(m);
    expect(v.source!.equals(new Address(7, Buffer.alloc(32, 0x5a)))).toBe(true);
    expect(v.destination).toBeNull();
    expect(v.createdLt).toBe(5n);
    expect(v.createdAt).toBe(6);
    expect(v.body.bits.length).toBe(0);
    expect(v.opcode).toBeNull();
  });

  it('an addr_var that is not 256 bits has no standard form', () => {
    const a: MsgAddressInt = {
      kind: 'addr_var',
      anycast: null,
      workchainId: 0,
      address: new BitString(Buffer.alloc(4), 0, 30),
    };
    const cell = beginCell().store(storeMsgAddress(a)).endCell();
    const back = loadMsgAddressInt(cell.beginParse());
    if (back.kind !== 'addr_var') throw new Error('expected addr_var');
    expect(back.address.equals(a.address as BitString)).toBe(true);
    expect(cell.bits.length).toBe(2 + 1 + 9 + 32 + 30);
    expect(msgAddressToAddress(a)).toBeNull();
  });
});

describe('Message views: ihr_fee vs extra_flags', () => {
  it('reports the field as ihr_fee before global version 12 and as extra_flags from 12', () => {
    const b = beginCell().storeBit(false).storeBit(false).storeBit(false).storeBit(false);
    stdAddr(b, 0, SRC);
    stdAddr(b, 0, DEST);
    b.storeUint(0, 4)
      .storeBit(false)
      .storeUint(3, 4)
      .storeUint(3000000, 24)
      .storeUint(0, 4)
      .storeUint(1n, 64)
      .storeUint(2, 32);
    const m = roundTrip(b.storeBit(false).storeBit(false).endCell());
    expect(messageView(m, { globalVersion: 11 })).toMatchObject({ ihrFee: 3000000n, extraFlags: null });
    expect(messageView(m, { globalVersion: 12 })).toMatchObject({ ihrFee: 0n, extraFlags: 3000000n });
    expect(messageView(m)).toMatchObject({ ihrFee: 0n, extraFlags: 3000000n });
  });
});

describe('Message: malformed input throws CodecError', () => {
  const good = () => intInfo(beginCell()).storeBit(false).storeBit(true).storeRef(BODY).endCell();

  it('accepts the well-formed control cell', () => {
    expect(() => messageFromCell(good())).not.toThrow();
  });

  it('truncated cell', () => {
    const c = good();
    const cut = beginCell().storeBits(c.bits.substring(0, 300)).endCell();
    expect(() => messageFromCell(cut)).toThrow(CodecError);
  });

  it('body ref missing', () => {
    const c = beginCell().storeBits(good().bits).endCell();
    expect(() => messageFromCell(c)).toThrow(/body: expected a reference/);
  });

  it('data after the body ref', () => {
    const c = beginCell().storeSlice(good().beginParse()).storeUint(1, 3).endCell();
    expect(() => messageFromCell(c)).toThrow(/expected the cell to end after the body ref/);
  });

  it('non-minimal Grams (the node rejects them too)', () => {
    const b = beginCell().storeUint(0b10, 2).storeUint(0, 2);
    stdAddr(b, 0, DEST).storeUint(1, 4).storeUint(0, 8); // import_fee: len 1, value 0
    const c = b.storeBit(false).storeBit(true).storeRef(BODY).endCell();
    expect(() => messageFromCell(c)).toThrow(/import_fee: VarUInteger 16 is not minimally encoded/);
  });

  it('addr_none where MsgAddressInt is required', () => {
    const b = beginCell().storeUint(0b10, 2).storeUint(0, 2).storeUint(0, 2).storeUint(0, 4);
    expect(() => messageFromCell(b.storeBit(false).storeBit(true).storeRef(BODY).endCell())).toThrow(
      /MsgAddressInt: expected tag \$10 or \$11, got \$00/,
    );
  });

  it('anycast of depth 0', () => {
    const b = beginCell().storeUint(0b10, 2).storeBit(true).storeUint(0, 5).storeInt(0, 8).storeBuffer(DEST);
    expect(() => loadMsgAddressInt(b.endCell().beginParse())).toThrow(/Anycast: expected depth 1..30, got 0/);
  });

  it('ext_in_msg_info in a MessageRelaxed', () => {
    const c = beginCell().storeUint(0b10, 2).endCell();
    expect(() => loadCommonMsgInfoRelaxed(c.beginParse())).toThrow(/CommonMsgInfoRelaxed: expected tag \$0 or \$11/);
  });

  it('a pruned branch instead of a StateInit ref', () => {
    const pruned = new Cell({
      exotic: true,
      bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32, 7)).storeUint(3, 16).endCell()
        .bits,
    });
    const c = intInfo(beginCell())
      .storeBit(true)
      .storeBit(true)
      .storeRef(pruned)
      .storeBit(true)
      .storeRef(BODY)
      .endCell();
    expect(() => loadMessageExact(c.beginParse())).toThrow(/init: expected an ordinary cell, got exotic/);
  });

  it('storing a value that does not fit', () => {
    const m = messageFromCell(good());
    if (m.info.kind !== 'int_msg_info') throw new Error('expected int_msg_info');
    const bad: Message = { ...m, info: { ...m.info, fwdFee: 1n << 120n } };
    expect(() => beginCell().store(storeMessageExact(bad))).toThrow(/fwd_fee: .* does not fit VarUInteger 16/);
  });
});
