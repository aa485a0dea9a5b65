#!/usr/bin/env bash
#
# Moving a child of about SIZE to another tablespace while pgbench writes
# to it and reads from it, on one throwaway PostgreSQL 15 server in one
# run.  Run as root:
#
#   bash bench/tier.sh [--quick]
#
# T1  ALTER TABLE ... SET TABLESPACE of the child (and ALTER INDEX ... SET
#     TABLESPACE of its two indexes, as a DBA would), then
#     partmgr.move_partition() of the same child back into another
#     tablespace, each while two pgbench clients run for the whole leg:
#     one writing (an INSERT into the child's range and an UPDATE of one of
#     its rows, one transaction), one reading (a row of the child by its
#     key).  For each: how long the move took, and the longest transaction
#     each client saw while it ran (pgbench's per-transaction log), next to
#     the longest of a leg without a move; pg_partmgr.lock_timeout is the
#     bound an online move's waits should keep to.  Beside them, the floor
#     of any copy that is not of files: INSERT ... SELECT of the rows into a
#     table with the same primary key, CREATE INDEX after (no clients).
#
# The tablespaces are directories on the same disk: the figures are the
# cost of the copy and of the locks, not of slower storage.  pg_partman has
# no online move: ALTER TABLE is the baseline.  It installs pg_partmgr,
# starts a cluster as postgres in a temporary directory (port $PORT, 54394
# by default), prints one line per figure and removes the cluster.  Never a
# pass/fail test.
#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PORT=${PORT:-54394}
ROWS=5000000			# about 1 GB of table, 1.2 GB with its indexes
QUIET_SECS=10
if [ "${1:-}" = --quick ]; then
	ROWS=500000
	QUIET_SECS=3
fi

bash "$top/.ci/install-deps" >/dev/null
make -s -C "$top" >/dev/null
make -s -C "$top" install >/dev/null
bindir=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/partmgr-tier-bench.XXXXXX)
chown postgres "$dir"
cleanup() {
	pkill -f "pgbench .* -p $PORT" 2>/dev/null || true
	runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
runuser -u postgres -- "$bindir/initdb" -D "$dir/data" -A trust >/dev/null
cat >>"$dir/data/postgresql.conf" <<EOF
port = $PORT
listen_addresses = ''
unix_socket_directories = '$dir'
shared_buffers = 1GB
max_wal_size = 8GB
checkpoint_timeout = 30min
timezone = 'UTC'
autovacuum = off
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
EOF
mkdir -p "$dir/ts_b" "$dir/ts_c"
chown postgres "$dir/ts_b" "$dir/ts_c"
runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null
psql() { runuser -u postgres -- "$bindir/psql" -X -q -h "$dir" -p "$PORT" -v ON_ERROR_STOP=1 "$@"; }
ns() { date +%s%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) / 1000000 }'; }

psql -d postgres -c "CREATE DATABASE b"
psql -d postgres -c "CREATE TABLESPACE ts_b LOCATION '$dir/ts_b'" -c "CREATE TABLESPACE ts_c LOCATION '$dir/ts_c'"
psql -d b >/dev/null <<EOF
CREATE EXTENSION pg_partmgr;
CREATE SEQUENCE ev_id START 100000000;
CREATE TABLE public.ev (id bigint NOT NULL DEFAULT nextval('ev_id'), ts timestamptz NOT NULL,
						v int NOT NULL, pad text, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE INDEX ev_v ON public.ev (v);
SELECT partmgr.create_parent('public.ev', 'ts', '1 day', p_premake => 1,
							 p_start_partition => '2030-01-01');
INSERT INTO public.ev
SELECT g, '2030-01-01'::timestamptz + (g % 86400) * interval '1 second', g % 1000, repeat(md5(g::text), 5)
  FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE public.ev;
CHECKPOINT;
EOF
size=$(psql -d b -At -c "SELECT pg_size_pretty(pg_total_relation_size('public.ev_p20300101'))")
echo "T1 the child: $ROWS rows, $size with its indexes; pg_partmgr.lock_timeout = $(psql -d b -At -c 'SHOW pg_partmgr.lock_timeout')"

cat >"$dir/write.sql" <<EOF
\set id random(1, $ROWS)
BEGIN;
INSERT INTO public.ev (ts, v, pad) VALUES ('2030-01-01'::timestamptz + random() * interval '86399 seconds', 1, 'w');
UPDATE public.ev SET v = v + 1 WHERE id = :id AND ts >= '2030-01-01' AND ts < '2030-01-02';
END;
EOF
cat >"$dir/read.sql" <<EOF
\set id random(1, $ROWS)
SELECT v FROM public.ev WHERE id = :id AND ts >= '2030-01-01' AND ts < '2030-01-02';
EOF
chown postgres "$dir"/*.sql

# start a writer and a reader, in their own folders (for their logs)
start_clients() {
	local leg=$1
	for who in write read; do
		mkdir -p "$dir/$leg/$who"
		chown postgres "$dir/$leg/$who"
		(cd "$dir/$leg/$who" && exec runuser -u postgres -- "$bindir/pgbench" -n -h "$dir" -p "$PORT" -c 1 \
			-T 100000 -l -f "$dir/$who.sql" b >"$dir/$leg/$who.out" 2>&1) &
	done
	# both have committed a transaction
	for _ in $(seq 1 600); do
		[ "$(cat "$dir/$leg"/write/pgbench_log.* 2>/dev/null | wc -l)" -gt 10 ] &&
			[ "$(cat "$dir/$leg"/read/pgbench_log.* 2>/dev/null | wc -l)" -gt 10 ] && return 0
		sleep 0.1
	done
	echo "the pgbench clients did not start" >&2
	exit 1
}
stop_clients() {
	pkill -INT -f "pgbench .* -p $PORT" 2>/dev/null || true
	wait 2>/dev/null || true
}
# the longest transaction of a client that ran within [from, to] (ns)
longest() {
	local leg=$1 who=$2 from=$3 to=$4
	cat "$dir/$leg/$who"/pgbench_log.* 2>/dev/null | awk -v from="$from" -v to="$to" '
		{ end = ($5 * 1000000 + $6) * 1000; start = end - $3 * 1000;
		  if (end >= from && start <= to && $3 > max) max = $3; n++ }
		END { printf "%.1f", max / 1000 }'
}

# the floor of any copy that is not of files: INSERT ... SELECT of the
# child's rows into a table with the same primary key in another
# tablespace, then CREATE INDEX of the other index
f0=$(ns)
psql -d b >/dev/null <<'EOF'
CREATE TABLE public.floor (LIKE public.ev) TABLESPACE ts_b;
ALTER TABLE public.floor ADD PRIMARY KEY (id, ts) USING INDEX TABLESPACE ts_b;
INSERT INTO public.floor SELECT * FROM ONLY public.ev_p20300101;
CREATE INDEX ON public.floor (v) TABLESPACE ts_b;
EOF
f1=$(ns)
psql -d b -c "DROP TABLE public.floor" -c "CHECKPOINT" >/dev/null
floor_ms=$(ms "$f0" "$f1")
echo "T1 floor of a row-by-row copy (INSERT ... SELECT with the primary key, CREATE INDEX after), no clients: ${floor_ms} ms"

# a leg without a move: the clients' own longest transaction
start_clients quiet
q0=$(ns)
sleep "$QUIET_SECS"
q1=$(ns)
stop_clients
echo "T1 no move, $QUIET_SECS s: longest write $(longest quiet write "$q0" "$q1") ms, longest read $(longest quiet read "$q0" "$q1") ms"

# ALTER TABLE ... SET TABLESPACE (and its indexes), the plain rewrite
psql -d b -c "CHECKPOINT" >/dev/null
start_clients alter
a0=$(ns)
psql -d b >/dev/null <<'EOF'
ALTER TABLE public.ev_p20300101 SET TABLESPACE ts_b;
ALTER INDEX public.ev_p20300101_pkey SET TABLESPACE ts_b;
ALTER INDEX public.ev_p20300101_v_idx SET TABLESPACE ts_b;
EOF
a1=$(ns)
sleep 1
stop_clients
alter_ms=$(ms "$a0" "$a1")
echo "T1 ALTER TABLE ... SET TABLESPACE: ${alter_ms} ms; longest write $(longest alter write "$a0" "$a1") ms, longest read $(longest alter read "$a0" "$a1") ms"

# move_partition, online
psql -d b -c "CHECKPOINT" >/dev/null
start_clients online
o0=$(ns)
psql -d b -c "CALL partmgr.move_partition('public.ev_p20300101', 'ts_c', p_quiet => true)"
o1=$(ns)
sleep 1
stop_clients
online_ms=$(ms "$o0" "$o1")
echo "T1 move_partition: ${online_ms} ms ($(awk -v a="$online_ms" -v b="$alter_ms" 'BEGIN { printf "%.2f", a / b }')x ALTER TABLE, $(awk -v a="$online_ms" -v b="$floor_ms" 'BEGIN { printf "%.2f", a / b }')x the floor); longest write $(longest online write "$o0" "$o1") ms, longest read $(longest online read "$o0" "$o1") ms"
psql -d b -At -c "SELECT 'T1 the move''s steps: ' || string_agg(action || ' ' || round(extract(epoch FROM finished_at - started_at) * 1000) || ' ms', ', ' ORDER BY log_id) FROM partmgr.maintenance_log WHERE run_by = 'move_partition'"
psql -d b -At -c "SELECT 'T1 after: ' || string_agg(c.relname || ' in ' || coalesce(t.spcname, 'default'), ', ' ORDER BY c.relname) FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace WHERE c.relname LIKE 'ev\_p20300101%'"
psql -d b -At -c "SELECT 'T1 rows: ' || count(*) FROM public.ev"
