-- Helpers for bench/run.sh, installed in schema "bench" of every benchmark
-- database (the pg_partman one, the pg_partmgr one and the raw-DDL one).
-- Nothing here calls either extension: run.sh passes the calls in as text,
-- so both extensions go through exactly the same loop.

CREATE SCHEMA bench;

-- One row per timed iteration of bench.loop().
-- cpu: the backend's own time on a CPU over the same span (from
-- /proc/self/schedstat), without the waits for fsync or for a CPU.
CREATE TABLE bench.timing (label text NOT NULL, i int NOT NULL, secs float8 NOT NULL,
                           cpu float8);

-- This backend's time on a CPU so far, in seconds (Linux), or NULL.
CREATE FUNCTION bench.cpu_secs() RETURNS float8
LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 / 1e9;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

-- The number of a set in its table's name: four digits at least (t0001),
-- more when it has more (t10000; lpad alone would cut it to t1000).
CREATE FUNCTION bench.num(i int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT lpad(i::text, greatest(4, length(i::text)), '0') $$;

-- Run format(p_tmpl, NNNN) for NNNN = bench.num(p_first .. p_last), each in
-- a transaction of its own, and record how long each one took, COMMIT
-- included, and the backend's CPU time over it, in bench.timing under
-- p_label.  Call it as a top-level CALL so that it can commit.
CREATE PROCEDURE bench.loop(p_label text, p_tmpl text, p_first int, p_last int)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	c0 float8;
	d float8[] := '{}';
	c float8[] := '{}';
BEGIN
	FOR i IN p_first .. p_last LOOP
		c0 := bench.cpu_secs();
		t0 := clock_timestamp();
		EXECUTE format(p_tmpl, bench.num(i));
		COMMIT;
		d := d || extract(epoch FROM clock_timestamp() - t0)::float8;
		c := c || (bench.cpu_secs() - c0);
	END LOOP;
	INSERT INTO bench.timing
	SELECT p_label, p_first + o::int - 1, x, c[o] FROM unnest(d) WITH ORDINALITY AS u(x, o);
	COMMIT;
END $$;

-- total seconds, mean, median, p99 and max (seconds) of one label, and its
-- mean CPU time (seconds; 0 where it was not read)
CREATE FUNCTION bench.summary(p_label text,
	OUT n bigint, OUT total float8, OUT mean float8, OUT p50 float8, OUT p99 float8, OUT mx float8,
	OUT cpu_mean float8)
LANGUAGE sql STABLE AS $$
	SELECT count(*), sum(secs), avg(secs),
	       percentile_disc(0.5) WITHIN GROUP (ORDER BY secs),
	       percentile_disc(0.99) WITHIN GROUP (ORDER BY secs),
	       max(secs), coalesce(avg(cpu), 0)
	  FROM bench.timing WHERE label = p_label
$$;

-- The parent tables: <schema>.tNNNN for NNNN = p_first .. p_last, the shape
-- both extensions are benchmarked with.
CREATE FUNCTION bench.make_parents(p_schema text, p_first int, p_last int) RETURNS int
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', p_schema);
	FOR i IN p_first .. p_last LOOP
		EXECUTE format('CREATE TABLE %I.%I (id bigint, ts timestamptz NOT NULL, payload text)'
		               ' PARTITION BY RANGE (ts)', p_schema, 't' || bench.num(i));
	END LOOP;
	RETURN p_last - p_first + 1;
END $$;

-- One row at now() in each parent <schema>.tNNNN, p_first .. p_last, so
-- that both extensions see a "current" child.
CREATE FUNCTION bench.insert_now(p_schema text, p_first int, p_last int) RETURNS int
LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN p_first .. p_last LOOP
		EXECUTE format('INSERT INTO %I.%I (id, ts, payload) VALUES (%s, now(), %L)',
		               p_schema, 't' || bench.num(i), i, 'bench');
	END LOOP;
	RETURN p_last - p_first + 1;
END $$;

-- Partitions (default excluded) attached to the partitioned tables of a schema.
CREATE FUNCTION bench.children(p_schema text) RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT count(*)
	  FROM pg_inherits i
	  JOIN pg_class p ON p.oid = i.inhparent
	  JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE p.relnamespace = p_schema::regnamespace
	   AND p.relkind = 'p'
	   AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;

-- Default partitions attached in a schema.
CREATE FUNCTION bench.defaults(p_schema text) RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT count(*)
	  FROM pg_inherits i
	  JOIN pg_class p ON p.oid = i.inhparent
	  JOIN pg_class c ON c.oid = i.inhrelid
	 WHERE p.relnamespace = p_schema::regnamespace
	   AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'
$$;

-- Plain tables of a schema that are not partitions (detached children).
CREATE FUNCTION bench.loose_tables(p_schema text) RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT count(*) FROM pg_class
	 WHERE relnamespace = p_schema::regnamespace AND relkind = 'r' AND NOT relispartition
$$;

-- The raw-DDL floor: what any partition manager has to issue for a child,
-- and nothing else.  p_count daily children of <schema>.<table> from p_from
-- on, each a plain table made with LIKE and then attached (as pg_partman and
-- pg_partmgr both do), then a default partition if p_default.
CREATE FUNCTION bench.raw_children(p_schema text, p_table text, p_from timestamptz,
                                   p_count int, p_default boolean) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
	lo timestamptz;
	c text;
BEGIN
	FOR k IN 0 .. p_count - 1 LOOP
		lo := p_from + k * interval '1 day';
		c := p_table || '_p' || to_char(lo, 'YYYYMMDD');
		EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS'
		               ' INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED'
		               ' INCLUDING COMPRESSION INCLUDING STATISTICS)', p_schema, c, p_schema, p_table);
		EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)',
		               p_schema, p_table, p_schema, c, lo, lo + interval '1 day');
	END LOOP;
	IF p_default THEN
		c := p_table || '_default';
		EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS'
		               ' INCLUDING STORAGE INCLUDING COMMENTS INCLUDING GENERATED'
		               ' INCLUDING COMPRESSION INCLUDING STATISTICS)', p_schema, c, p_schema, p_table);
		EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I DEFAULT', p_schema, p_table, p_schema, c);
	END IF;
	RETURN p_count + p_default::int;
END $$;

-- A template table for <schema>.<table>, as create_parent makes one: the
-- rest of create_parent's raw-DDL floor.
CREATE FUNCTION bench.raw_template(p_schema text, p_table text) RETURNS int
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I)', p_schema, 'template_' || p_table, p_schema, p_table);
	RETURN 1;
END $$;

-- The raw-DDL floor of retention: detach the children of <schema>.<table>
-- whose upper bound is before p_horizon, and drop them unless p_keep.
CREATE FUNCTION bench.raw_retire(p_schema text, p_table text, p_horizon timestamptz,
                                 p_keep boolean) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	n int := 0;
BEGIN
	FOR r IN
		SELECT c.relname
		  FROM pg_inherits i
		  JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = format('%I.%I', p_schema, p_table)::regclass
		   AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
		   AND substring(pg_get_expr(c.relpartbound, c.oid) FROM $re$TO \('([^']+)'\)$re$)::timestamptz < p_horizon
	LOOP
		EXECUTE format('ALTER TABLE %I.%I DETACH PARTITION %I.%I', p_schema, p_table, p_schema, r.relname);
		IF NOT p_keep THEN
			EXECUTE format('DROP TABLE %I.%I', p_schema, r.relname);
		END IF;
		n := n + 1;
	END LOOP;
	RETURN n;
END $$;
