-- 0008_create_bulk_load_indexes: what `tongate walk backfill --bulk` dropped and must build again
-- (src/index/plan/bulk.ts). A bulk load records every secondary index of the indexing tables it is about to drop
-- (their exact pg_get_indexdef text) in one transaction before dropping any, loads the range with only the
-- indexes the writer itself reads by, then builds each recorded index once and deletes its row. A row here means
-- "this index is (or may be) missing and must be built": a crash at any point leaves the rows that say what is
-- left, and a re-run (or `tongate db indexes --restore`) finishes from them. Empty when no bulk load is pending.

CREATE TABLE bulk_load_indexes (
  index_name text PRIMARY KEY,
  table_name text NOT NULL,
  definition text NOT NULL,
  partitioned boolean NOT NULL,
  top_index text NOT NULL,
  tablespace text,
  comment text,
  build_order integer NOT NULL,
  dropped boolean NOT NULL DEFAULT false,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE bulk_load_indexes IS 'tongate addition: secondary indexes a bulk backfill (tongate walk backfill --bulk) dropped and has not built again yet, one row per index (partition indexes included), recorded before any is dropped and deleted as each is built again. Empty when no bulk load is pending.';
COMMENT ON COLUMN bulk_load_indexes.index_name IS 'The index (schema public), as named before it was dropped; it is built again under the same name.';
COMMENT ON COLUMN bulk_load_indexes.table_name IS 'Its table (for an index of a partition: the partition).';
COMMENT ON COLUMN bulk_load_indexes.definition IS 'pg_get_indexdef() of the index when it was recorded: the exact statement that builds it again (CONCURRENTLY and IF NOT EXISTS are added; ON ONLY is dropped for a partitioned index, which then attaches its partitions'' indexes).';
COMMENT ON COLUMN bulk_load_indexes.partitioned IS 'True for the index of a partitioned table (built with CREATE INDEX, which attaches the partitions'' indexes built before it); false for an index of a plain table or partition (built CONCURRENTLY).';
COMMENT ON COLUMN bulk_load_indexes.top_index IS 'The index of the recorded table this one belongs to: itself, or for an index of a partition the partitioned index it was attached to (dropping that one dropped this one).';
COMMENT ON COLUMN bulk_load_indexes.tablespace IS 'The index''s tablespace when not the default (pg_get_indexdef leaves it out); NULL for the default.';
COMMENT ON COLUMN bulk_load_indexes.comment IS 'COMMENT ON INDEX text of the index, restored after it is built; NULL when it had none.';
COMMENT ON COLUMN bulk_load_indexes.build_order IS 'Order in which the indexes are built again: an index of a partition before the partitioned index that attaches it.';
COMMENT ON COLUMN bulk_load_indexes.dropped IS 'Set once the drop of the index (or of its top_index) committed; a row still false was recorded but not dropped yet.';
COMMENT ON COLUMN bulk_load_indexes.recorded_at IS 'When the bulk load recorded it (server clock).';
