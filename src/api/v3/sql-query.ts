// The shapes every v3 query builder returns and every row comes back in; it depends on nothing, so routes,
// renderers and the address book share it.

/** A statement and its $n values: what every query builder returns (the EXPLAIN test runs them as they are). */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

/**
 * A result row as the renderers read it, column name to the driver's value: db's Row, declared here so render/
 * reads rows without depending on the database layer.
 */
export type Row = Record<string, unknown>;
