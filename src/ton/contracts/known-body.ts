// Any known body -> `{ type, ...fields }`, dispatching on the opcode (what v3 /decode serves, v3-api.md §3.10).
// Where two layouts share an opcode (change_content#4 of NFT and v1 jetton collections, change and delete of a
// DNS record), each loader refuses the other's shape and the first that parses wins, as ton-marker does.
// Signed wallet externals start with a signature, not an opcode; they are recognised by shape (wallets-body.ts).
import type { Cell, Slice } from '@ton/core';
import type { BodyParser, ParsedBody } from './body-parser.ts';
import { readCell } from './body-reader.ts';
import { DNS_BODIES } from './dns-body.ts';
import { JETTON_BODIES } from './jetton-body.ts';
import { MULTISIG_BODIES } from './multisig-body.ts';
import { NFT_BODIES } from './nft-body.ts';
import { VESTING_BODIES } from './vesting-body.ts';
import { WALLET_BODIES, WALLET_EXTERNAL_BODIES } from './wallets-body.ts';

const OPCODE_BODIES = [
  ...JETTON_BODIES,
  ...NFT_BODIES,
  ...DNS_BODIES,
  ...MULTISIG_BODIES,
  ...VESTING_BODIES,
  ...WALLET_BODIES,
] as const;

type ExternalParser = (typeof WALLET_EXTERNAL_BODIES)[number];
type ExternalBody<P> = P extends { name: infer N; load: (...a: never[]) => infer T } ? { type: N } & T : never;

/** A body decoded by opcode (internal messages, v5 requests). */
export type KnownOpcodeBody = ParsedBody<(typeof OPCODE_BODIES)[number]>;
/** A signed wallet external without an opcode (v3, vesting, lockup, v4, highload v3). */
export type KnownExternalBody = ExternalBody<ExternalParser>;
export type KnownBody = KnownOpcodeBody | KnownExternalBody;
export type KnownBodyType = KnownBody['type'];

const byOp = new Map<number, BodyParser[]>();
for (const p of OPCODE_BODIES as readonly BodyParser[]) {
  const list = byOp.get(p.op);
  if (list) list.push(p);
  else byOp.set(p.op, [p]);
}

/** The name of an opcode (the first layout registered for it), or null when unknown. */
export function knownOpcodeName(op: number): string | null {
  return byOp.get(op >>> 0)?.[0]?.name ?? null;
}

function byOpcode(body: Cell): KnownOpcodeBody | null {
  const op = readCell(body, (s) => (s.remainingBits >= 32 ? s.loadUint(32) : null));
  if (op === null) return null;
  for (const p of byOp.get(op) ?? []) {
    const v = readCell(body, (s) => {
      s.skip(32);
      return p.load(s);
    });
    if (v !== null) return { type: p.name, ...(v as object) } as KnownOpcodeBody;
  }
  return null;
}

function byShape(body: Cell): KnownExternalBody | null {
  for (const p of WALLET_EXTERNAL_BODIES as readonly { name: string; load: (s: Slice) => unknown }[]) {
    const v = readCell(body, p.load);
    if (v !== null) return { type: p.name, ...(v as object) } as KnownExternalBody;
  }
  return null;
}

export interface ParseKnownBodyOptions {
  /**
   * 'internal': the opcode table only; 'external': signed wallet requests by shape, then the opcode table.
   * Default: the opcode table, then the shapes (a body of unknown origin, as /decode gets).
   */
  direction?: 'internal' | 'external';
}

/** A known body decoded, or null. Total: never throws, whatever the cell holds. */
export function parseKnownBody(body: Cell, opts: ParseKnownBodyOptions = {}): KnownBody | null {
  // An external's first 32 bits are usually a signature, so its shapes go first (v5 has a real opcode).
  if (opts.direction === 'external') return byShape(body) ?? byOpcode(body);
  const v = byOpcode(body);
  return v || opts.direction === 'internal' ? v : byShape(body);
}
