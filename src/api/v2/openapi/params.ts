// The parameters of /api/v2 methods as toncenter 2.1 (and params.ts) reads them, each with its schema in a GET query
// string and in a POST body / JSON-RPC params: integers as JSON numbers or decimal strings, shard as signed 64-bit
// decimal, hashes in hex or base64(url), booleans in every spelling. Values a schema lets through may still break a
// rule of the method (seqno > 0, one of lt/seqno/unixtime, …): those are 422 with the rule in the message.
import { EXAMPLE_HASH, ref, type Schema } from './kit.ts';

export interface ParamDoc {
  name: string;
  description: string;
  required?: boolean;
  /** In a GET query string (absent for parameters of POST-only methods). */
  query?: Schema;
  /** In a POST JSON body and in JSON-RPC params. */
  body: Schema;
}

const INT_TEXT = '^-?[0-9]{1,40}$';
const HASH_TEXT = '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$';
const HASH_FORMS = '64 hex digits, 44-character base64 or base64url, or 43-character unpadded base64url';

function param(name: string, description: string, schema: Schema, required = false, body: Schema = schema): ParamDoc {
  return { name, description, ...(required ? { required: true } : {}), query: schema, body };
}

interface IntOptions {
  min?: number;
  max?: number;
  default?: number;
  required?: boolean;
}

function integer(name: string, description: string, format: 'int32' | 'int64', o: IntOptions = {}): ParamDoc {
  const bounds = {
    ...(o.min === undefined ? {} : { minimum: o.min }),
    ...(o.max === undefined ? {} : { maximum: o.max }),
    ...(o.default === undefined ? {} : { default: o.default }),
  };
  const wide =
    format === 'int64' ? ' A JSON number must be a safe integer (|n| < 2^53); send larger ones as text.' : '';
  return param(name, `${description}${wide}`, { type: 'integer', format, ...bounds }, o.required, {
    type: ['integer', 'string'],
    format,
    pattern: INT_TEXT,
    ...bounds,
  });
}

export const int32Param = (name: string, description: string, o?: IntOptions) => integer(name, description, 'int32', o);
export const int64Param = (name: string, description: string, o?: IntOptions) => integer(name, description, 'int64', o);

/** Free text (the server reads it its own way; the description says how). */
export const textParam = (name: string, description: string): ParamDoc => param(name, description, { type: 'string' });

export const addressParam = (name: string, description: string, required = true): ParamDoc =>
  param(
    name,
    `${description} Raw (<workchain>:<64 hex digits>) or user-friendly (48 characters, either base64 alphabet); ` +
      'anything else is 422 "Failed to parse ton_addr".',
    { type: 'string' },
    required,
  );

export const hashParam = (name: string, description: string, required = false): ParamDoc =>
  param(
    name,
    `${description} ${HASH_FORMS}.`,
    { type: 'string', pattern: HASH_TEXT, examples: [EXAMPLE_HASH] },
    required,
  );

export const boolParam = (name: string, description: string, defaultValue?: boolean): ParamDoc => {
  const d = defaultValue === undefined ? {} : { default: defaultValue };
  return param(
    name,
    `${description} Also y/yes/t/on/1 and n/no/f/off/0, any case; in a body a number (0 is false) too.`,
    { type: 'boolean', ...d },
    false,
    { type: ['boolean', 'integer', 'string'], ...d },
  );
};

/** Base64 bytes of a POST-only method (a BoC). */
export const bytesParam = (name: string, description: string, required = false): ParamDoc => ({
  name,
  description: `${description} Standard base64 (with padding).`,
  ...(required ? { required: true } : {}),
  body: { type: 'string', contentEncoding: 'base64' },
});

export const libraryList: ParamDoc = {
  name: 'libraries',
  description: `Library hashes (${HASH_FORMS}), at most 16; in a query string repeat the parameter.`,
  query: { type: 'array', items: { type: 'string', pattern: HASH_TEXT }, maxItems: 16 },
  body: {
    anyOf: [
      { type: 'array', items: { type: 'string', pattern: HASH_TEXT } },
      { type: 'string', pattern: HASH_TEXT },
    ],
  },
};

export const methodParam: ParamDoc = {
  name: 'method',
  description:
    'The get-method: its name, or its numeric id (an int32, as a JSON number or as text of digits). Names longer ' +
    'than 256 characters are refused.',
  required: true,
  body: { type: ['string', 'integer'] },
};

export const stackParam = (form: 'legacy' | 'std'): ParamDoc => ({
  name: 'stack',
  description:
    form === 'legacy'
      ? 'Arguments, bottom first, as [type, value] entries ([] for none).'
      : 'Arguments, bottom first, in tonlib typed form ([] for none).',
  required: true,
  body: { type: 'array', items: ref(form === 'legacy' ? 'LegacyStackEntryInput' : 'StackEntryInput') },
});

// ---- the parameters methods share ------------------------------------------------------------------------------

export const ADDRESS = addressParam('address', 'The account.');
export const ACCOUNT_SEQNO = int32Param(
  'seqno',
  'Masterchain seqno to read the state at (> 0); the head when absent.',
  {
    min: 1,
  },
);
export const WORKCHAIN = int32Param('workchain', 'Workchain of the block.', { required: true });
export const SHARD = int64Param(
  'shard',
  'Shard of the block, signed 64-bit decimal (the masterchain: -9223372036854775808); a lookup takes any prefix ' +
    'the shard contains.',
  { required: true },
);
export const BLOCK_SEQNO = int32Param('seqno', 'Seqno of the block (> 0).', { min: 1, required: true });
export const ROOT_HASH = hashParam('root_hash', 'Root hash of the block; with file_hash the block is not looked up.');
export const FILE_HASH = hashParam('file_hash', 'File hash of the block; with root_hash the block is not looked up.');
export const LOCATE = [
  addressParam('source', 'Sender of the internal message.'),
  addressParam('destination', 'Receiver of the internal message.'),
  int64Param('created_lt', 'created_lt of the message (>= 0).', { min: 0, required: true }),
];
