-- 0003_create_partition_helpers: operator tools that turn a large table into a range-partitioned one in
-- place, without copying or re-indexing a single row (schema/README.md, "Partitioning a mainnet-scale
-- history"). tongate never calls them itself; the tables stay plain until an operator does.

CREATE FUNCTION tongate_partition_by_range(p_table text, p_column text, p_upper bigint) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
  v_rel regclass := to_regclass(quote_ident(p_table));
  v_initial text := p_table || '_initial';
  v_names text[] := '{}';
  v_renamed text[] := '{}';
  v_comment text;
  v_pos integer;
  r record;
BEGIN
  IF v_rel IS NULL THEN
    RAISE EXCEPTION 'tongate_partition_by_range: there is no table %', p_table;
  END IF;
  IF (SELECT relkind FROM pg_class WHERE oid = v_rel) <> 'r' THEN
    RAISE EXCEPTION 'tongate_partition_by_range: % is not a plain table (already partitioned?)', p_table;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = v_rel AND attname = p_column AND NOT attisdropped) THEN
    RAISE EXCEPTION 'tongate_partition_by_range: % has no column %', p_table, p_column;
  END IF;
  -- PostgreSQL requires every unique index of a partitioned table to contain the partition key.
  FOR r IN
    SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = v_rel AND i.indisunique AND NOT EXISTS (
      SELECT 1 FROM pg_attribute a
      WHERE a.attrelid = v_rel AND a.attname = p_column AND a.attnum = ANY (i.indkey::int2[]))
  LOOP
    RAISE EXCEPTION 'tongate_partition_by_range: unique index % of % does not contain %', r.relname, p_table, p_column;
  END LOOP;

  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_table);
  -- Move the indexes' names aside so the partitioned table can take them over.
  FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = v_rel
  LOOP
    v_names := v_names || r.relname::text;
    v_renamed := v_renamed || (left(r.relname, 54) || '_initial');
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, left(r.relname, 54) || '_initial');
  END LOOP;
  v_comment := obj_description(v_rel, 'pg_class');
  EXECUTE format('ALTER TABLE %I RENAME TO %I', p_table, v_initial);
  -- Same columns, types, defaults, NOT NULLs, comments and index definitions.
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL EXCLUDING CONSTRAINTS) PARTITION BY RANGE (%I)',
    p_table, v_initial, p_column);
  EXECUTE format('COMMENT ON TABLE %I IS %L', p_table, v_comment);
  -- Validated CHECK constraints carry over, except those on the partition column alone: such a check
  -- (lt < upper, added beforehand so that ATTACH can skip its scan) describes the old rows only.
  FOR r IN
    SELECT c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
    WHERE c.conrelid = v_rel AND c.contype = 'c' AND c.convalidated
      AND c.conkey <> ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = v_rel AND attname = p_column)]
  LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', p_table, r.conname, r.def);
  END LOOP;
  -- The old table becomes the first partition. Its existing indexes are attached, not rebuilt; the only
  -- cost is one read pass checking the range, skipped when a valid CHECK already proves it.
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)', p_table, v_initial, p_upper);
  EXECUTE format('COMMENT ON TABLE %I IS %L', v_initial,
    format('Partition of %s for %s < %s: the table as it was before partitioning.', p_table, p_column, p_upper));
  FOR r IN
    SELECT parent.relname AS parent_name, child.relname AS child_name
    FROM pg_inherits inh
    JOIN pg_class parent ON parent.oid = inh.inhparent
    JOIN pg_class child ON child.oid = inh.inhrelid
    JOIN pg_index ci ON ci.indexrelid = child.oid
    WHERE ci.indrelid = to_regclass(quote_ident(v_initial))
  LOOP
    v_pos := array_position(v_renamed, r.child_name::text);
    IF v_pos IS NOT NULL AND r.parent_name::text <> v_names[v_pos] THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I', r.parent_name, v_names[v_pos]);
    END IF;
  END LOOP;
  RETURN v_initial;
END
$fn$;
COMMENT ON FUNCTION tongate_partition_by_range(text, text, bigint) IS 'Operator tool: turns table p_table into a table range-partitioned by p_column, attaching the existing table (renamed <table>_initial, indexes kept) as the partition for values below p_upper. No row is copied and no index rebuilt; a validated CHECK (p_column < p_upper) added beforehand lets ATTACH skip its read pass. Add partitions for p_upper and above with tongate_add_range_partition before writers reach them.';

CREATE FUNCTION tongate_add_range_partition(p_table text, p_from bigint, p_to bigint) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
  v_name text := p_table || '_from_' || p_from;
BEGIN
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)', v_name, p_table, p_from, p_to);
  EXECUTE format('COMMENT ON TABLE %I IS %L', v_name, format('Partition of %s for [%s, %s).', p_table, p_from, p_to));
  RETURN v_name;
END
$fn$;
COMMENT ON FUNCTION tongate_add_range_partition(text, bigint, bigint) IS 'Operator tool: adds the partition [p_from, p_to) to a range-partitioned table, named <table>_from_<p_from>, with every index of the parent.';
