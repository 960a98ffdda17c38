-- Unix times in traces, actions and action_accounts were 32-bit integers (0007): a time filter past 2^31 - 1 failed
-- with "out of range for type integer", and the columns would overflow in 2038. Every other unix time column is
-- bigint already (blocks.gen_utime, transactions.now, messages.created_at, actions.start_utime/end_utime).
--
-- Widening integer to bigint keeps every stored value and its meaning; no chain data is read again. PostgreSQL
-- rewrites each table and rebuilds its indexes to change the column type, so on a large index this migration takes
-- about as long as copying the three tables (it holds an ACCESS EXCLUSIVE lock on each while it runs).
ALTER TABLE traces
  ALTER COLUMN start_utime TYPE bigint,
  ALTER COLUMN end_utime TYPE bigint;
ALTER TABLE actions ALTER COLUMN trace_end_utime TYPE bigint;
ALTER TABLE action_accounts ALTER COLUMN trace_end_utime TYPE bigint;
