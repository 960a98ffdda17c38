// What every part of the v3 OpenAPI description shares, so the route tables (routes*.ts) and the schema files
// (schemas*.ts) depend on this file instead of on each other: the Schema type, $ref, the query-value patterns, the
// route entry types and the page parameters.
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from '../limits.ts';

export type Schema = Record<string, unknown>;

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * Query values in the forms the v3 parsers accept (params.ts): an address raw or user-friendly (base64 or
 * base64url, 48 characters), a hash as 64 hex digits or 43/44 characters of base64(url). Clients see what to send,
 * and generated examples (Schemathesis, test/api/schemathesis.test.ts) reach the queries instead of the parser.
 */
export const ADDRESS_PARAM: Schema = {
  type: 'string',
  pattern: '^(-?[0-9]{1,10}:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{48})$',
};
export const HASH_PARAM: Schema = { type: 'string', pattern: '^((0[xX])?[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$' };

export interface ParamDoc {
  name: string;
  in: 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
}

export interface RouteDoc {
  method: 'get' | 'post';
  /** Path under /api/v3, e.g. "/accountStates". */
  path: string;
  tag: string;
  summary: string;
  description: string;
  params: ParamDoc[];
  /** The JSON request body of a POST. */
  body?: Schema;
  /** The 200 response body. */
  response: Schema;
  /**
   * Error statuses this endpoint can answer besides the common ones (401, 422, 429, 500, 503; with a body also
   * 400, 413 and 415), which document.ts adds to every operation.
   */
  errors?: number[];
}

/** `limit` and `offset` of a list endpoint, as pageParams (params.ts) reads them (the range: ../limits.ts). */
export function pageParamDocs(defaultLimit: number = DEFAULT_LIMIT): ParamDoc[] {
  return [
    {
      name: 'limit',
      in: 'query',
      description:
        `Rows to return, ${MIN_LIMIT} to ${MAX_LIMIT} (default ${defaultLimit}; ${MIN_LIMIT - 1} or less, ` +
        `or more than ${MAX_LIMIT}, is refused with 422).`,
      schema: { type: 'integer', format: 'int32', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: defaultLimit },
    },
    {
      name: 'offset',
      in: 'query',
      description: 'Rows to skip; with limit, pages through the result.',
      schema: { type: 'integer', format: 'int32', minimum: 0, default: 0 },
    },
  ];
}
