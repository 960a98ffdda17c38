// The building blocks of /api/v2/openapi.json's schemas (OpenAPI 3.1, i.e. JSON Schema 2020-12): tonlib's JSON
// conventions as schema helpers, shared by the schema files, the parameter kinds and the document.

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const int32 = (description: string, extra: Schema = {}): Schema => ({
  type: 'integer',
  format: 'int32',
  description,
  ...extra,
});
/** A tonlib int53/int64 written as a JSON number (fees, exit codes, gas). */
export const int53 = (description: string, extra: Schema = {}): Schema => ({
  type: 'integer',
  format: 'int64',
  description,
  ...extra,
});
export const bool = (description: string): Schema => ({ type: 'boolean', description });
export const list = (items: Schema, description: string): Schema => ({ type: 'array', items, description });
/** A signed integer (int64 in tonlib, a big number in toncenter's token data) as a decimal string. */
export const int64Str = (description: string): Schema => str(description, { pattern: '^-?[0-9]+$' });
/** An unsigned 64-bit value (lt, balances, fees) as a decimal string. */
export const uint64Str = (description: string): Schema => str(description, { pattern: '^[0-9]+$' });
/** An example hash (sha256 of "tongate"), so explorers do not make one up from the pattern. */
export const EXAMPLE_HASH = 'szJ4YBNdDxbKh5hFzGo9fOu5uVW0bYnY2HVH0C97LjM=';

/** A 256-bit hash, standard base64 with padding. */
export const hashB64 = (description: string): Schema =>
  str(description, { pattern: '^[A-Za-z0-9+/]{43}=$', examples: [EXAMPLE_HASH] });
/** tonlib `bytes`: standard base64 ("" for none). */
export const bytes = (description: string): Schema => str(description, { contentEncoding: 'base64' });

/**
 * A tonlib object: `@type` fixed to its name, the other fields required unless listed as optional, nothing else.
 */
export function tl(type: string, description: string, properties: Record<string, Schema>, optional: string[] = []) {
  return {
    type: 'object',
    description,
    properties: { '@type': { const: type }, ...properties },
    required: ['@type', ...Object.keys(properties).filter((k) => !optional.includes(k))],
    additionalProperties: false,
  };
}
