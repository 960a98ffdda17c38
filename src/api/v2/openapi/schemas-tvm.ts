// TVM stacks and get-method results of /api/v2 (src/ton/stack, methods/run.ts) as OpenAPI 3.1 schemas: tonlib's typed
// entries (tvm.StackEntry and the objects inside, named after their @type), the legacy [type, value] entries of
// runGetMethod, both result forms, and the stacks a request may carry (inner @type optional, as tonlib reads them).
import { bool, bytes, int32, int53, list, ref, type Schema, str, tl } from './kit.ts';

const ENTRY_TYPES = [
  'tvm.stackEntryNumber',
  'tvm.stackEntryCell',
  'tvm.stackEntrySlice',
  'tvm.stackEntryTuple',
  'tvm.stackEntryList',
  'tvm.stackEntryUnsupported',
];

/** A fixed-length JSON array: its items one by one. */
const tuple = (description: string, ...items: Schema[]): Schema => ({
  type: 'array',
  description,
  prefixItems: items,
  minItems: items.length,
  items: false,
});

/** An input object: `@type` optional (tonlib ignores it; compared case-insensitively), other keys ignored. */
const input = (type: string, properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties: { '@type': { type: 'string', description: `"${type}" or absent` }, ...properties },
  required: Object.keys(properties),
});
const inputEntry = (type: string, key: string, value: Schema): Schema => ({
  type: 'object',
  properties: { '@type': { const: type }, [key]: value },
  required: ['@type', key],
});
const NUMBER_INPUT: Schema = {
  type: ['string', 'integer'],
  description: 'decimal or 0x-hex text (up to 257 bits), or a JSON integer',
};
const BOC = bytes('a base64 BoC');

export const TVM_SCHEMAS: Record<string, Schema> = {
  'tvm.slice': tl('tvm.slice', 'A slice as a base64 BoC of a cell holding its remaining bits and refs.', {
    bytes: bytes('the BoC, standard base64'),
  }),
  'tvm.numberDecimal': tl('tvm.numberDecimal', 'A TVM integer.', {
    number: str('decimal ("NaN" for NaN)', { pattern: '^(-?[0-9]+|NaN)$' }),
  }),
  'tvm.tuple': tl('tvm.tuple', 'A tuple.', { elements: list(ref('tvm.StackEntry'), 'its items') }),
  'tvm.list': tl('tvm.list', 'A list (null or nested pairs ending in null), by its heads.', {
    elements: list(ref('tvm.StackEntry'), 'the heads'),
  }),
  'tvm.stackEntryNumber': tl('tvm.stackEntryNumber', 'An integer.', { number: ref('tvm.numberDecimal') }),
  'tvm.stackEntryCell': tl('tvm.stackEntryCell', 'A cell.', { cell: ref('tvm.cell') }),
  'tvm.stackEntrySlice': tl('tvm.stackEntrySlice', 'A slice.', { slice: ref('tvm.slice') }),
  'tvm.stackEntryTuple': tl('tvm.stackEntryTuple', 'A tuple.', { tuple: ref('tvm.tuple') }),
  'tvm.stackEntryList': tl('tvm.stackEntryList', 'A list.', { list: ref('tvm.list') }),
  'tvm.stackEntryUnsupported': tl('tvm.stackEntryUnsupported', 'A builder or continuation (no JSON form).', {}),
  'tvm.StackEntry': { description: 'A stack entry in tonlib typed form.', oneOf: ENTRY_TYPES.map(ref) },
  CellObject: {
    type: 'object',
    description: "A cell spelled out (the legacy stack's `object`).",
    properties: {
      data: {
        type: 'object',
        properties: {
          b64: bytes('the data bytes; the last byte keeps the completion tag when len is not a multiple of 8'),
          len: int32('data length in bits'),
        },
        required: ['b64', 'len'],
        additionalProperties: false,
      },
      refs: list(ref('CellObject'), 'the referenced cells'),
      special: bool('an exotic cell'),
    },
    required: ['data', 'refs', 'special'],
    additionalProperties: false,
  },
  LegacyStackEntry: {
    description:
      'A runGetMethod result entry: [type, value]. Numbers are 0x-hex; cells and slices both come as "cell"; inside ' +
      'tuples and lists the entries are in tonlib typed form.',
    oneOf: [
      tuple(
        'an integer',
        { const: 'num' },
        str('lower-case hex, "-0x…" when negative', { pattern: '^-?0x[0-9a-f]+$' }),
      ),
      tuple(
        'a cell or a slice',
        { const: 'cell' },
        {
          type: 'object',
          properties: { bytes: BOC, object: ref('CellObject') },
          required: ['bytes', 'object'],
          additionalProperties: false,
        },
      ),
      tuple('a tuple', { const: 'tuple' }, ref('tvm.tuple')),
      tuple('a list or null', { const: 'list' }, ref('tvm.list')),
      tuple('a builder or continuation', { const: 'unsupported' }, { const: '' }),
    ],
  },
  'smc.runResult': tl('smc.runResult', 'A get-method result in tonlib typed form (runGetMethodStd).', {
    gas_used: int53('gas used'),
    stack: list(ref('tvm.StackEntry'), 'the result stack, bottom first'),
    exit_code: int32('TVM exit code (0 and 1 are success; other codes are answers too, not errors)'),
  }),
  'smc.runResult.legacy': tl(
    'smc.runResult',
    "A get-method result in runGetMethod's legacy form (its @type is smc.runResult), with the block and the " +
      "account's last transaction it ran on.",
    {
      gas_used: int53('gas used'),
      stack: list(ref('LegacyStackEntry'), 'the result stack, bottom first'),
      exit_code: int32('TVM exit code (0 and 1 are success; other codes are answers too, not errors)'),
      block_id: ref('ton.blockIdExt'),
      last_transaction_id: ref('internal.transactionId'),
    },
  ),
  StackEntryInput: {
    description: 'A request stack entry in tonlib typed form (runGetMethodStd, and inside legacy tuples and lists).',
    oneOf: [
      inputEntry('tvm.stackEntryNumber', 'number', input('tvm.numberDecimal', { number: NUMBER_INPUT })),
      inputEntry('tvm.stackEntryCell', 'cell', input('tvm.cell', { bytes: BOC })),
      inputEntry('tvm.stackEntrySlice', 'slice', input('tvm.slice', { bytes: BOC })),
      inputEntry(
        'tvm.stackEntryTuple',
        'tuple',
        input('tvm.tuple', { elements: list(ref('StackEntryInput'), 'its items') }),
      ),
      inputEntry('tvm.stackEntryList', 'list', input('tvm.list', { elements: list(ref('StackEntryInput'), 'heads') })),
    ],
  },
  LegacyStackEntryInput: {
    description:
      'A runGetMethod request entry, [type, value]. Another type string is answered with 542 (as toncenter does).',
    oneOf: [
      tuple('an integer', { enum: ['num', 'number', 'int', 'integer'] }, NUMBER_INPUT),
      tuple('a bare BoC', { enum: ['tvm.Cell', 'tvm.Slice', 'tvm.Builder'] }, BOC),
      tuple(
        'a cell object',
        { enum: ['cell', 'slice', 'builder'] },
        {
          description: '{"bytes": <base64 BoC>} (toncenter 2.1), or a cell object as a JSON string (toncenter 2.0)',
          anyOf: [{ type: 'object', properties: { bytes: BOC }, required: ['bytes'] }, { type: 'string' }],
        },
      ),
      tuple(
        'a tuple',
        { enum: ['tuple', 'tvm.Tuple'] },
        input('tvm.tuple', { elements: list(ref('StackEntryInput'), 'its items') }),
      ),
      tuple(
        'a list',
        { enum: ['list', 'tvm.List'] },
        input('tvm.list', { elements: list(ref('StackEntryInput'), 'the heads') }),
      ),
      tuple('null', { const: 'null' }),
    ],
  },
};
