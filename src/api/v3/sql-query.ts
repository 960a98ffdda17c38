// The shape every v3 query builder returns; it depends on nothing, so routes, renderers and the address book share it.

/** A statement and its $n values: what every query builder returns (the EXPLAIN test runs them as they are). */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}
