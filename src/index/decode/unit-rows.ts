// What decode/ hands write/: a unit's rows, table by table.
import type { EncodedCopy } from '../../db/index.ts';
import type { Row } from './columns.ts';

/**
 * A unit's rows per core table: values, or COPY text a decode thread encoded (src/index/decode-pool), with the
 * content-addressed tables already deduplicated and sorted as uniqueByKey does.
 */
export interface UnitRowsOf<T> {
  mcSeqno: number;
  /** Base64 root hash of the masterchain block (or the unit's synthetic hash). */
  mcRootHash: string;
  blocks: T;
  shardState: T;
  transactions: T;
  messages: T;
  messageContents: T;
  accountStates: T;
  latestAccountStates: T;
  /** Contract decoders' rows by table (issue 9); absent when the decoders are off. */
  contracts?: Map<string, Row[]>;
}

export type TableRows = Row[] | EncodedCopy;
export type UnitRows = UnitRowsOf<TableRows>;

/** Rows a table's entry stands for, as decoded (before a decode thread dropped duplicates): what checkpoints count. */
export const rowCount = (t: TableRows): number => (Array.isArray(t) ? t.length : t.decoded);
