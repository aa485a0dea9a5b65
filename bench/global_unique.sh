#!/usr/bin/env bash
#
# What a global unique constraint costs, measured on one throwaway
# PostgreSQL 15 server in one run.  Run as root:
#
#   bash bench/global_unique.sh [--quick]
#
# G1  pgbench, one client per core, single-row INSERTs into a set of 100
#     daily children keyed by created_at with order_no from a sequence:
#     transactions per second without a constraint, then with
#     create_global_unique(order_no) on the same set (the ratio printed).
# G2  retiring one child of ROWS rows by retention (run_maintenance,
#     drop), without and with the constraint: retention does not touch
#     the side table, so the two should match; then global_unique_cleanup
#     of the retired child's entries, timed apart.
# G3  create_global_unique on a set holding BIG rows.
#
# It installs pg_partmgr, starts a cluster as postgres in a temporary
# directory (port $PORT, 54391 by default), prints one line per figure and
# removes the cluster.  pg_partman has no such constraint: the baseline is
# the same set without one.
#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PORT=${PORT:-54391}
SECS=20
ROWS=1000000
BIG=10000000
if [ "${1:-}" = --quick ]; then
	SECS=5
	ROWS=100000
	BIG=1000000
fi

bash "$top/.ci/install-deps" >/dev/null
make -s -C "$top" >/dev/null
make -s -C "$top" install >/dev/null
bindir=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/partmgr-gu-bench.XXXXXX)
chown postgres "$dir"
cleanup() {
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
synchronous_commit = off
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
EOF
runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null
psql() { runuser -u postgres -- "$bindir/psql" -X -q -h "$dir" -p "$PORT" -v ON_ERROR_STOP=1 "$@"; }
ms() { date +%s%N; }

psql -d postgres -c "CREATE DATABASE b"
psql -d b >/dev/null <<'EOF'
CREATE EXTENSION pg_partmgr;
CREATE SEQUENCE ono;
CREATE TABLE public.orders (order_no bigint, created_at timestamptz NOT NULL, note text)
    PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('public.orders', 'created_at', '1 day',
                             p_start_partition => current_date::text, p_premake => 99);
EOF
cat >"$dir/insert.sql" <<'EOF'
INSERT INTO orders VALUES (nextval('ono'), current_date + random() * interval '99 days', 'x');
EOF
chown postgres "$dir/insert.sql"
clients=$(nproc)
tps() {
	runuser -u postgres -- "$bindir/pgbench" -n -h "$dir" -p "$PORT" -c "$clients" -j "$clients" \
		-T "$SECS" -f "$dir/insert.sql" b 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
children=$(psql -d b -Atc "SELECT count(*) FROM pg_partition_tree('public.orders') WHERE isleaf")
# legs: without, with, without again (the constraint dropped), so that a
# drift over the run shows instead of being taken for the constraint's cost
without1=$(tps)
psql -d b -c "SELECT partmgr.create_global_unique('public.orders', ARRAY['order_no'])" >/dev/null
with=$(tps)
psql -d b -c "SELECT partmgr.drop_global_unique('public.orders', 'orders_order_no_gkey')" >/dev/null
without2=$(tps)
echo "G1 insert, $children children, $clients clients, ${SECS}s legs: without $without1 / $without2 tps (before / after), with $with tps, overhead $(awk -v a="$without1" -v c="$without2" -v b="$with" 'BEGIN { printf "%.2f", (a + c) / 2 / b }')x"

# G2: retire a child of ROWS rows
g2() {
	local db=$1 constraint=$2
	psql -d postgres -c "CREATE DATABASE $db"
	psql -d "$db" >/dev/null <<EOF
CREATE EXTENSION pg_partmgr;
CREATE TABLE public.t (order_no bigint, created_at timestamptz NOT NULL) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('public.t', 'created_at', '1 day',
                             p_start_partition => (current_date - 10)::text, p_premake => 2);
INSERT INTO t SELECT g, current_date - 10 + (g % 1000) * interval '1 second' FROM generate_series(1, $ROWS) g;
INSERT INTO t SELECT $ROWS + g, current_date - 1 FROM generate_series(1, 1000) g;
EOF
	if [ "$constraint" = yes ]; then
		psql -d "$db" -c "SELECT partmgr.create_global_unique('public.t', ARRAY['order_no'])" >/dev/null
	fi
	psql -d "$db" -c "UPDATE partmgr.part_config SET retention = '9 days', retention_keep_table = false" >/dev/null
	psql -d "$db" -c "CHECKPOINT"
	local t0 t1
	t0=$(ms)
	psql -d "$db" -c "SELECT partmgr.run_maintenance('public.t')" >/dev/null
	t1=$(ms)
	echo $(((t1 - t0) / 1000000))
}
plain_ms=$(g2 r1 no)
gu_ms=$(g2 r2 yes)
t0=$(ms)
gone=$(psql -d r2 -Atc "SELECT partmgr.global_unique_cleanup('public.t')")
t1=$(ms)
echo "G2 retire a child of $ROWS rows: without $plain_ms ms, with the constraint $gu_ms ms; cleanup of its $gone entries afterwards $(((t1 - t0) / 1000000)) ms"

# G3: create on BIG rows
psql -d postgres -c "CREATE DATABASE c"
psql -d c >/dev/null <<EOF
CREATE EXTENSION pg_partmgr;
CREATE TABLE public.t (order_no bigint, created_at timestamptz NOT NULL) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('public.t', 'created_at', '1 day', p_start_partition => '2030-01-01', p_premake => 30);
INSERT INTO t SELECT g, '2030-01-01'::timestamptz + (g % 30) * interval '1 day' FROM generate_series(1, $BIG) g;
VACUUM ANALYZE t;
EOF
t0=$(ms)
psql -d c -c "SELECT partmgr.create_global_unique('public.t', ARRAY['order_no'])" >/dev/null
t1=$(ms)
size=$(psql -d c -Atc "SELECT pg_size_pretty(size_bytes) FROM partmgr.global_unique_constraints")
echo "G3 create_global_unique on $BIG rows: $(((t1 - t0) / 1000000)) ms, side table $size"
