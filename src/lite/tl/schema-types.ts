// Shapes of the schema table that scripts/gen-lite-tl.ts writes into schema.generated.ts and that codec.ts walks.

/** TL built-in types the codec reads and writes directly. `#` is the uint32 flags type, `true` only appears under a flag. */
export type TlPrimitive = 'int' | '#' | 'long' | 'double' | 'int128' | 'int256' | 'bytes' | 'string' | 'Bool' | 'true';

/**
 * A field's type. TL's rule: a name whose last segment starts lower-case is a bare constructor (no id on the wire),
 * an upper-case one is a boxed type (constructor id first). `vector t` is bare, `Vector t` boxed.
 */
export type TlTypeRef = TlPrimitive | { bare: string } | { boxed: string } | { vector: TlTypeRef; boxed?: true };

export interface TlFieldSchema {
  /** Mechanical camelCase of the TL field name. */
  name: string;
  /** The field name as written in lite_api.tl. */
  tl: string;
  type: TlTypeRef;
  /** `flags.N?T`: present iff bit N of the earlier `#` field is set (`?true` fields are a boolean mirroring the bit). */
  flag?: { field: string; bit: number };
}

export interface TlConstructorSchema {
  /** TL constructor name, e.g. `liteServer.getAccountState`; also the `_` tag of its objects. */
  name: string;
  /** Constructor id: the explicit `#xxxxxxxx` or crc32 of the normalised line. */
  id: number;
  kind: 'type' | 'function';
  /** The boxed type it builds (`= liteServer.AccountState`); for functions the result type. */
  type: string;
  /** Line number in lite_api.tl where the declaration starts. */
  line: number;
  /** The declaration as written (whitespace collapsed, without the trailing `;`). */
  tl: string;
  fields: readonly TlFieldSchema[];
}

/**
 * A bare (non-boxed) nested object: its `_` tag is implied by the schema, so callers may omit it when encoding;
 * decoders always set it.
 */
export type TlBare<T extends { _: string }> = Omit<T, '_'> & { _?: T['_'] };
