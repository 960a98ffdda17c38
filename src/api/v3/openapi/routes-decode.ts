// Route table entries of GET and POST /decode (routes/decode.ts, v3-api.md §3.10), merged into ROUTES by routes.ts.
// The entry types come from primitives.ts.
import type { RouteDoc, Schema } from './primitives.ts';

export const DECODE_TAG = { name: 'Utils', description: 'Opcode and message body decoding.' };

const strings = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });

const OPCODES =
  'Opcodes, at most 1000: hex with or without 0x, tried first (so "12345" is 0x12345), else unsigned or signed ' +
  '32-bit decimal (-1 is 0xffffffff). One that is none of these is refused with 422.';
const BODIES = 'Message bodies, at most 1000: BoCs in base64 (standard or url-safe) or hex.';

const RESPONSE: Schema = {
  type: 'object',
  properties: {
    opcodes: strings('the name of each opcode, in order; "unknown" when it has none'),
    bodies: {
      type: 'array',
      description:
        'each body, in order: {"@type": "<name>", ...fields} (integers as decimal strings, addresses raw, bit ' +
        'strings as hex, cells as base64 BoCs or, when they are bodies too, decoded up to 10 levels deep), ' +
        '{"@type": "empty_cell"} for an empty cell, or {"error": "unknown: <why>"} when it cannot be decoded',
      items: { type: 'object', additionalProperties: true },
    },
  },
  required: ['opcodes', 'bodies'],
};

const REQUEST: Schema = {
  type: 'object',
  properties: { opcodes: strings(OPCODES), bodies: strings(BODIES) },
};

const DESCRIPTION =
  "Names opcodes and decodes message bodies the way toncenter's decoder does. Bodies that cannot be decoded " +
  'answer an error object in their place rather than failing the request.';

export const DECODE_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: '/decode',
    tag: DECODE_TAG.name,
    summary: 'Decode opcodes and message bodies',
    description: `${DESCRIPTION} Lists are repeated parameters or comma-separated; use POST for long BoCs.`,
    params: [
      { name: 'opcodes', in: 'query', description: OPCODES, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'bodies', in: 'query', description: BODIES, schema: { type: 'array', items: { type: 'string' } } },
    ],
    response: RESPONSE,
  },
  {
    method: 'post',
    path: '/decode',
    tag: DECODE_TAG.name,
    summary: 'Decode opcodes and message bodies (JSON body)',
    description:
      `${DESCRIPTION} The same as GET, with the lists in a JSON object. A request body that is not valid JSON is ` +
      'refused with 400, one that is not such an object with 422, one over the size limit with 413.',
    params: [],
    body: REQUEST,
    response: RESPONSE,
  },
];
