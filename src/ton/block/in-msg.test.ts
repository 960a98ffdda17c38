import { beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/errors.ts';
import { type InMsg, loadInMsg, storeInMsg } from './in-msg.ts';
import type { MsgEnvelope } from './msg-envelope.ts';
import { loadOutMsg, type OutMsg, storeOutMsg } from './out-msg.ts';

/** Cells compared by hash (two equal cells may differ in cached internals that toEqual would see). */
const plain = (x: unknown): unknown =>
  x instanceof Cell
    ? `cell:${x.hash().toString('hex')}`
    : Array.isArray(x)
      ? x.map(plain)
      : x && typeof x === 'object' && !Buffer.isBuffer(x)
        ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]))
        : x;

// Stand-ins for the opaque leaves (messages, transactions, proofs): any cell, distinguishable by content.
const leaf = (n: number): Cell => beginCell().storeUint(n, 32).endCell();
const env: MsgEnvelope = {
  kind: 'msg_envelope',
  curAddr: { kind: 'interm_addr_regular', useDestBits: 0 },
  nextAddr: { kind: 'interm_addr_regular', useDestBits: 96 },
  fwdFeeRemaining: 1234n,
  msg: leaf(1),
};
const env2: MsgEnvelope = {
  kind: 'msg_envelope_v2',
  curAddr: { kind: 'interm_addr_simple', workchainId: -1, addrPfx: 0x8000000000000000n },
  nextAddr: { kind: 'interm_addr_ext', workchainId: 0x12345, addrPfx: 42n },
  fwdFeeRemaining: 0n,
  msg: leaf(2),
  emittedLt: 77n,
  metadata: null,
};
const envCell = (e: MsgEnvelope) => {
  // Hand-written from block.tlb:184-192, independent of storeMsgEnvelope.
  const b = beginCell();
  b.storeUint(e.kind === 'msg_envelope' ? 0b0100 : 0b0101, 4);
  for (const a of [e.curAddr, e.nextAddr]) {
    if (a.kind === 'interm_addr_regular') b.storeUint(0, 1).storeUint(a.useDestBits, 7);
    else if (a.kind === 'interm_addr_simple') b.storeUint(0b10, 2).storeInt(a.workchainId, 8).storeUint(a.addrPfx, 64);
    else b.storeUint(0b11, 2).storeInt(a.workchainId, 32).storeUint(a.addrPfx, 64);
  }
  b.storeCoins(e.fwdFeeRemaining).storeRef(e.msg);
  if (e.kind === 'msg_envelope_v2') {
    b.storeBit(e.emittedLt !== null);
    if (e.emittedLt !== null) b.storeUint(e.emittedLt, 64);
    b.storeBit(false);
  }
  return b.endCell();
};

/** Every InMsg constructor with its cell written by hand from block.tlb:194-210. */
const inCases: Array<{ v: InMsg; cell: Cell }> = [
  {
    v: { kind: 'msg_import_ext', msg: leaf(10), transaction: leaf(11) },
    cell: beginCell().storeUint(0b000, 3).storeRef(leaf(10)).storeRef(leaf(11)).endCell(),
  },
  {
    v: { kind: 'msg_import_ihr', msg: leaf(10), transaction: leaf(11), ihrFee: 5n, proofCreated: leaf(12) },
    cell: beginCell()
      .storeUint(0b010, 3)
      .storeRef(leaf(10))
      .storeRef(leaf(11))
      .storeCoins(5n)
      .storeRef(leaf(12))
      .endCell(),
  },
  {
    v: { kind: 'msg_import_imm', inMsg: env, transaction: leaf(11), fwdFee: 7n },
    cell: beginCell().storeUint(0b011, 3).storeRef(envCell(env)).storeRef(leaf(11)).storeCoins(7n).endCell(),
  },
  {
    v: { kind: 'msg_import_fin', inMsg: env2, transaction: leaf(11), fwdFee: 0n },
    cell: beginCell().storeUint(0b100, 3).storeRef(envCell(env2)).storeRef(leaf(11)).storeCoins(0n).endCell(),
  },
  {
    v: { kind: 'msg_import_tr', inMsg: env, outMsg: env2, transitFee: 9n },
    cell: beginCell().storeUint(0b101, 3).storeRef(envCell(env)).storeRef(envCell(env2)).storeCoins(9n).endCell(),
  },
  {
    v: { kind: 'msg_discard_fin', inMsg: env, transactionId: 0xffffffffffffffffn, fwdFee: 3n },
    cell: beginCell()
      .storeUint(0b110, 3)
      .storeRef(envCell(env))
      .storeUint(0xffffffffffffffffn, 64)
      .storeCoins(3n)
      .endCell(),
  },
  {
    v: { kind: 'msg_discard_tr', inMsg: env2, transactionId: 1n, fwdFee: 3n, proofDelivered: leaf(13) },
    cell: beginCell()
      .storeUint(0b111, 3)
      .storeRef(envCell(env2))
      .storeUint(1n, 64)
      .storeCoins(3n)
      .storeRef(leaf(13))
      .endCell(),
  },
  {
    v: { kind: 'msg_import_deferred_fin', inMsg: env2, transaction: leaf(11), fwdFee: 4n },
    cell: beginCell().storeUint(0b00100, 5).storeRef(envCell(env2)).storeRef(leaf(11)).storeCoins(4n).endCell(),
  },
  {
    v: { kind: 'msg_import_deferred_tr', inMsg: env2, outMsg: env },
    cell: beginCell().storeUint(0b00101, 5).storeRef(envCell(env2)).storeRef(envCell(env)).endCell(),
  },
];

const imported: InMsg = { kind: 'msg_import_imm', inMsg: env, transaction: leaf(11), fwdFee: 7n };
const importedCell = beginCell().storeUint(0b011, 3).storeRef(envCell(env)).storeRef(leaf(11)).storeCoins(7n).endCell();

/** Every OutMsg constructor with its cell written by hand from block.tlb:217-236. */
const outCases: Array<{ v: OutMsg; cell: Cell }> = [
  {
    v: { kind: 'msg_export_ext', msg: leaf(20), transaction: leaf(21) },
    cell: beginCell().storeUint(0b000, 3).storeRef(leaf(20)).storeRef(leaf(21)).endCell(),
  },
  {
    v: { kind: 'msg_export_imm', outMsg: env, transaction: leaf(21), reimport: imported },
    cell: beginCell().storeUint(0b010, 3).storeRef(envCell(env)).storeRef(leaf(21)).storeRef(importedCell).endCell(),
  },
  {
    v: { kind: 'msg_export_new', outMsg: env2, transaction: leaf(21) },
    cell: beginCell().storeUint(0b001, 3).storeRef(envCell(env2)).storeRef(leaf(21)).endCell(),
  },
  {
    v: { kind: 'msg_export_tr', outMsg: env, imported },
    cell: beginCell().storeUint(0b011, 3).storeRef(envCell(env)).storeRef(importedCell).endCell(),
  },
  {
    v: { kind: 'msg_export_deq', outMsg: env, importBlockLt: (1n << 63n) - 1n },
    cell: beginCell()
      .storeUint(0b1100, 4)
      .storeRef(envCell(env))
      .storeUint((1n << 63n) - 1n, 63)
      .endCell(),
  },
  {
    v: {
      kind: 'msg_export_deq_short',
      msgEnvHash: Buffer.alloc(32, 0xab),
      nextWorkchain: -1,
      nextAddrPfx: 0x1234n,
      importBlockLt: 99n,
    },
    cell: beginCell()
      .storeUint(0b1101, 4)
      .storeBuffer(Buffer.alloc(32, 0xab))
      .storeInt(-1, 32)
      .storeUint(0x1234n, 64)
      .storeUint(99n, 64)
      .endCell(),
  },
  {
    v: { kind: 'msg_export_tr_req', outMsg: env2, imported },
    cell: beginCell().storeUint(0b111, 3).storeRef(envCell(env2)).storeRef(importedCell).endCell(),
  },
  {
    v: { kind: 'msg_export_deq_imm', outMsg: env, reimport: imported },
    cell: beginCell().storeUint(0b100, 3).storeRef(envCell(env)).storeRef(importedCell).endCell(),
  },
  {
    v: { kind: 'msg_export_new_defer', outMsg: env2, transaction: leaf(21) },
    cell: beginCell().storeUint(0b10100, 5).storeRef(envCell(env2)).storeRef(leaf(21)).endCell(),
  },
  {
    v: { kind: 'msg_export_deferred_tr', outMsg: env2, imported },
    cell: beginCell().storeUint(0b10101, 5).storeRef(envCell(env2)).storeRef(importedCell).endCell(),
  },
];

describe('InMsg: every constructor of block.tlb', () => {
  it('covers all nine constructors', () => {
    expect(new Set(inCases.map((c) => c.v.kind)).size).toBe(9);
  });

  it.each(inCases.map((c) => ({ ...c, kind: c.v.kind })))(
    '$kind: writes the TL-B layout and reads it back',
    ({ v, cell }) => {
      expect(beginCell().store(storeInMsg(v)).endCell().equals(cell)).toBe(true);
      expect(plain(loadInMsg(cell.beginParse()))).toEqual(plain(v));
    },
  );

  it('rejects the unassigned tags $00110 and $00111', () => {
    for (const tag of [0b00110, 0b00111]) {
      const bad = beginCell().storeUint(tag, 5).storeRef(envCell(env)).storeRef(envCell(env)).endCell();
      expect(() => loadInMsg(bad.beginParse())).toThrow(CodecError);
      expect(() => loadInMsg(bad.beginParse())).toThrow(/^InMsg: expected tag .* got \$0011[01]$/);
    }
  });

  it('names the inner type when an envelope is malformed', () => {
    const badEnv = beginCell().storeUint(0b0011, 4).storeUint(0, 16).storeRef(leaf(1)).endCell();
    const bad = beginCell().storeUint(0b011, 3).storeRef(badEnv).storeRef(leaf(11)).storeCoins(7n).endCell();
    expect(() => loadInMsg(bad.beginParse())).toThrow('MsgEnvelope: expected tag 0x4 or 0x5, got 0x3');
  });

  it('throws CodecError on a truncated value', () => {
    const cut = beginCell().storeUint(0b110, 3).storeRef(envCell(env)).storeUint(1, 20).endCell();
    expect(() => loadInMsg(cut.beginParse())).toThrow(CodecError);
    expect(() => loadInMsg(cut.beginParse())).toThrow(/^InMsg: /);
  });
});

describe('OutMsg: every constructor of block.tlb', () => {
  it('covers all ten constructors', () => {
    expect(new Set(outCases.map((c) => c.v.kind)).size).toBe(10);
  });

  it.each(outCases.map((c) => ({ ...c, kind: c.v.kind })))(
    '$kind: writes the TL-B layout and reads it back',
    ({ v, cell }) => {
      expect(beginCell().store(storeOutMsg(v)).endCell().equals(cell)).toBe(true);
      expect(plain(loadOutMsg(cell.beginParse()))).toEqual(plain(v));
    },
  );

  it('rejects the unassigned tags $10110 and $10111', () => {
    for (const tag of [0b10110, 0b10111]) {
      const bad = beginCell().storeUint(tag, 5).storeRef(envCell(env)).storeRef(leaf(1)).endCell();
      expect(() => loadOutMsg(bad.beginParse())).toThrow(/^OutMsg: expected tag .* got \$1011[01]$/);
    }
  });

  it('refuses to write a msg_env_hash that is not 32 bytes', () => {
    const v: OutMsg = {
      kind: 'msg_export_deq_short',
      msgEnvHash: Buffer.alloc(31),
      nextWorkchain: 0,
      nextAddrPfx: 0n,
      importBlockLt: 0n,
    };
    expect(() => storeOutMsg(v)).toThrow(CodecError);
  });
});
