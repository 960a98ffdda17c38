-- 0002_create_bookkeeping: what is indexed. A worker writes a masterchain block's rows and its checkpoint
-- in one transaction, so a checkpoint row proves its rows are complete; the planner reads checkpoints to
-- find gaps and folds them into ranges for /healthz and progress. (schema_migrations, the migrations'
-- own bookkeeping, is created by tongate db migrate before the first file runs.)

CREATE TABLE index_checkpoints (
  part text NOT NULL,
  mc_seqno integer NOT NULL,
  mc_root_hash tonhash NOT NULL,
  decoder_version integer NOT NULL,
  row_counts jsonb NOT NULL DEFAULT '{}',
  indexed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (part, mc_seqno)
);
COMMENT ON TABLE index_checkpoints IS 'One row per (part, masterchain block) whose rows are committed, written in the same transaction as those rows: a job that finds its row here has nothing to do, and a block without one has no rows. Later decoders (jettons, NFTs, traces, actions) record their own part here when they derive rows from what is stored, without re-reading the chain.';
COMMENT ON COLUMN index_checkpoints.part IS 'What was written: ''core'' (blocks, shard_state, transactions, messages, message_contents, account_states, latest_account_states); later parts use their own names (''jettons'', ''nfts'', ''traces'', ...).';
COMMENT ON COLUMN index_checkpoints.mc_seqno IS 'The masterchain block (with the shard blocks it committed) whose rows were written.';
COMMENT ON COLUMN index_checkpoints.mc_root_hash IS 'Root hash of that masterchain block, base64: a database indexed from another network or fork fails the comparison with the chain.';
COMMENT ON COLUMN index_checkpoints.decoder_version IS 'Version of the code that produced the rows: after a decoder fix, exactly the blocks written by older versions can be redone.';
COMMENT ON COLUMN index_checkpoints.row_counts IS 'Rows written per table, as a JSON object {"transactions": 12, ...}, for progress metrics and checks.';
COMMENT ON COLUMN index_checkpoints.indexed_at IS 'Commit time of the rows (server clock).';

CREATE TABLE indexed_ranges (
  part text NOT NULL,
  first_mc_seqno integer NOT NULL,
  last_mc_seqno integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (part, first_mc_seqno),
  CHECK (first_mc_seqno <= last_mc_seqno)
);
COMMENT ON TABLE indexed_ranges IS 'Contiguous runs of checkpointed masterchain seqnos per part, folded from index_checkpoints by the planner (never by workers, so parallel workers do not contend on it). A summary for /healthz and progress; index_checkpoints stays the authority.';
COMMENT ON COLUMN indexed_ranges.part IS 'As index_checkpoints.part.';
COMMENT ON COLUMN indexed_ranges.first_mc_seqno IS 'First masterchain seqno of the run (inclusive).';
COMMENT ON COLUMN indexed_ranges.last_mc_seqno IS 'Last masterchain seqno of the run (inclusive).';
COMMENT ON COLUMN indexed_ranges.updated_at IS 'When the planner last wrote this run.';

CREATE TABLE ton_db_version (
  id integer PRIMARY KEY CHECK (id = 1),
  major integer NOT NULL,
  minor integer NOT NULL,
  patch integer NOT NULL
);
COMMENT ON TABLE ton_db_version IS 'toncenter''s schema version row, one row (id = 1): /api/v3 sends it as the X-API-Version header. It names the toncenter schema whose tables and columns this database follows; tongate''s own migration state is schema_migrations.';
COMMENT ON COLUMN ton_db_version.id IS 'Always 1.';
COMMENT ON COLUMN ton_db_version.major IS 'toncenter schema major version.';
COMMENT ON COLUMN ton_db_version.minor IS 'toncenter schema minor version.';
COMMENT ON COLUMN ton_db_version.patch IS 'toncenter schema patch version.';
INSERT INTO ton_db_version (id, major, minor, patch) VALUES (1, 1, 2, 10);
