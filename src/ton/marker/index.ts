// The bodies of the protocols the action classifiers read, decoded as toncenter's decoder (ton-marker) decodes
// them: by tag, trying each constructor with the tag in ton-marker's order until one reads (v3-api.md §7.8).
// Standard jetton, NFT, DNS, wallet, multisig and vesting bodies are read elsewhere (the event parsers); this table
// covers the rest, and names their tags for decoded_opcode.
import type { Cell } from '@ton/core';
import { COCOON_BODIES } from './cocoon.ts';
import { COFFEE_BODIES } from './coffee.ts';
import { DEDUST_BODIES } from './dedust.ts';
import { EVAA_BODIES } from './evaa.ts';
import { JVAULT_BODIES } from './jvault.ts';
import type { MarkerConstructor } from './read.ts';
import { STAKING_BODIES } from './staking.ts';
import { STONFI_BODIES } from './stonfi.ts';
import { TELEMINT_BODIES } from './telemint.ts';
import { TONCO_BODIES } from './tonco.ts';

export { MarkerRecord } from './read.ts';

/** A decoded body: its constructor name and its fields by TL-B name (values as read.ts gives them). */
export interface MarkerBody {
  name: string;
  fields: Record<string, unknown>;
}

const byTag = new Map<number, MarkerConstructor[]>();
for (const c of [
  ...STONFI_BODIES,
  ...DEDUST_BODIES,
  ...COFFEE_BODIES,
  ...TONCO_BODIES,
  ...EVAA_BODIES,
  ...JVAULT_BODIES,
  ...COCOON_BODIES,
  ...STAKING_BODIES,
  ...TELEMINT_BODIES,
]) {
  const list = byTag.get(c.op);
  if (list) list.push(c);
  else byTag.set(c.op, [c]);
}

/** ton-marker's name of a tag (its first constructor), or null when this table has none. */
export function markerOpcodeName(op: number): string | null {
  return byTag.get(op >>> 0)?.[0]?.name ?? null;
}

/** The body read by the first constructor of its tag that reads it, or null. Never throws. */
export function parseMarkerBody(body: Cell): MarkerBody | null {
  if (body.isExotic || body.bits.length < 32) return null;
  const s = body.beginParse();
  const list = byTag.get(s.loadUint(32));
  for (const c of list ?? []) {
    try {
      return { name: c.name, fields: c.read(s.clone()) };
    } catch {
      // Not this layout: the next constructor with the tag is tried.
    }
  }
  return null;
}
