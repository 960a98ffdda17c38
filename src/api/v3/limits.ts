// The page-size contract of v3's list endpoints, declared once: pageParams (params.ts) enforces it, the OpenAPI
// route table (openapi/primitives.ts pageParamDocs) documents it, and the server's defaults (context.ts V3_DEFAULTS)
// start from it. A deployment may configure other maxLimit/defaultLimit values (V3Options); the document always
// shows these constants.

/** The smallest `limit`: toncenter raises less to 1, we refuse it (issue 6). */
export const MIN_LIMIT = 1;
/** The largest `limit` accepted (toncenter: 1000). */
export const MAX_LIMIT = 1000;
/** `limit` when none is given (toncenter's docs: 10). */
export const DEFAULT_LIMIT = 10;
