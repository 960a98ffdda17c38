// GET and POST /decode (v3-api.md §3.10): opcodes to toncenter's names, message bodies (base64 or hex BoCs) to
// JSON. GET takes repeated or comma-separated `opcodes` / `bodies`; POST a JSON object with the same two lists
// (for BoCs too long for a URL). At most 1000 of each; an opcode that is no number is a 422, a body that does not
// decode is an {"error"} entry in its place, as toncenter answers.
import type { FastifyRequest } from 'fastify';
import type { V3RouteGroup } from '../context.ts';
import { invalid, listParam, type Query } from '../params.ts';
import { decodeBodyString, decodeOpcodeName } from '../render/decode.ts';

export const DECODE_MAX_ITEMS = 1000;

export interface DecodeRequest {
  opcodes: string[];
  bodies: string[];
}

/**
 * An opcode as toncenter reads it: a "0x" prefix dropped, then hex (so "12345" is 0x12345), then unsigned
 * decimal (a value too long for 8 hex digits), then signed 32-bit decimal. Returns the unsigned 32-bit value.
 */
export function parseDecodeOpcode(value: string, index: number): number {
  const v = /^0[xX]/.test(value) ? value.slice(2) : value;
  if (/^[0-9a-fA-F]{1,64}$/.test(v) && BigInt(`0x${v}`) <= 0xffffffffn) return Number.parseInt(v, 16);
  if (/^\d{1,20}$/.test(v) && BigInt(v) <= 0xffffffffn) return Number(v);
  if (/^[+-]\d{1,20}$/.test(v)) {
    const n = BigInt(v);
    if (n >= -0x80000000n && n <= 0x7fffffffn) return Number(n) >>> 0;
  }
  throw invalid(`invalid opcode format at index ${index}: ${v.slice(0, 80)}`);
}

function checkSizes(r: DecodeRequest): DecodeRequest {
  for (const name of ['opcodes', 'bodies'] as const) {
    if (r[name].length > DECODE_MAX_ITEMS) {
      throw invalid(`${name} list exceeds maximum length of ${DECODE_MAX_ITEMS}`);
    }
  }
  return r;
}

function stringList(body: Record<string, unknown>, name: keyof DecodeRequest): string[] {
  const v = body[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalid(`${name} must be an array of strings`);
  return v.map((x, i) => {
    if (typeof x !== 'string') throw invalid(`${name}[${i}] must be a string`);
    return x.trim();
  });
}

/** The POST body: a JSON object whose `opcodes` and `bodies` (both optional) are string arrays. */
export function decodeRequestFromBody(body: unknown): DecodeRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('request body must be a JSON object {"opcodes": [...], "bodies": [...]}');
  }
  const o = body as Record<string, unknown>;
  return checkSizes({ opcodes: stringList(o, 'opcodes'), bodies: stringList(o, 'bodies') });
}

export function decodeRequestFromQuery(q: Query): DecodeRequest {
  return checkSizes({ opcodes: listParam(q, 'opcodes'), bodies: listParam(q, 'bodies') });
}

export function decodeResponse(r: DecodeRequest): { opcodes: string[]; bodies: Array<Record<string, unknown>> } {
  // Every opcode is checked before any body is decoded, so a bad opcode costs no decoding.
  const opcodes = r.opcodes.map((o, i) => decodeOpcodeName(parseDecodeOpcode(o, i)));
  return { opcodes, bodies: r.bodies.map(decodeBodyString) };
}

export const decodeRoutes: V3RouteGroup = (app) => {
  app.get('/decode', async (req: FastifyRequest) => decodeResponse(decodeRequestFromQuery(req.query as Query)));
  app.post('/decode', async (req: FastifyRequest) => decodeResponse(decodeRequestFromBody(req.body)));
};
