// One entry of the opcode table `parseKnownBody` dispatches on: a name (toncenter's ton-marker name where it has
// one, v3-api.md Appendix A), the opcode, and a loader reading the body after the opcode.
import type { Slice } from '@ton/core';

export interface BodyParser<N extends string = string, T = unknown> {
  name: N;
  /** Unsigned 32-bit opcode. */
  op: number;
  load: (s: Slice) => T;
}

export function bodyParser<N extends string, T>(name: N, op: number, load: (s: Slice) => T): BodyParser<N, T> {
  return { name, op: op >>> 0, load };
}

/** The `{ type, ...fields }` object a parser gives. */
export type ParsedBody<P> = P extends BodyParser<infer N, infer T> ? { type: N } & T : never;

/** query_id:uint64 alone, the body of many acknowledgements. */
export interface QueryOnly {
  queryId: bigint;
}

export const loadQueryOnly = (s: Slice): QueryOnly => ({ queryId: s.loadUintBig(64) });
