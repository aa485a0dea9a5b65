#!/usr/bin/env bash
#
# What a global unique constraint costs, measured on one throwaway
# PostgreSQL 15 server in one run.  Run as root:
#
#   bash bench/global_unique.sh [--quick] [--bulk]
#
# --bulk: G4 and G5 only.
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
# G4  COPY of ROWS rows into a set of 10 daily children, keys in order and
#     in random order, into three fresh sets in turn: without a constraint,
#     with create_global_unique(k), and with a plain local index on k (the
#     reference: a unique index cannot span children); the median of RUNS
#     runs, with the ratios to the set without and to the local index.
# G5  the same rows by INSERT ... SELECT from a table that holds them.
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
RUNS=3
bulk_only=no
for arg in "$@"; do
	case $arg in
		--quick)
			SECS=5
			ROWS=100000
			BIG=1000000
			RUNS=1
			;;
		--bulk) bulk_only=yes ;;
		*) echo "usage: bash bench/global_unique.sh [--quick] [--bulk]" >&2; exit 2 ;;
	esac
done

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

if [ "$bulk_only" = no ]; then
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
fi

# G4, G5: bulk loads into fresh sets, without / with the constraint / with
# a local index on the key
psql -d postgres -c "CREATE DATABASE l"
psql -d l >/dev/null <<EOF
CREATE EXTENSION pg_partmgr;
CREATE TABLE src_seq AS
    SELECT g AS k, timestamptz '2030-01-01' + (g % 10) * interval '1 day' AS created_at, 'x'::text AS note
      FROM generate_series(1, $ROWS) g;
CREATE TABLE src_rand AS SELECT * FROM src_seq ORDER BY random();
COPY src_seq TO '$dir/seq.csv' CSV;
COPY src_rand TO '$dir/rand.csv' CSV;
EOF
load() {
	local kind=$1 how=$2 order=$3 t0 t1
	psql -d l >/dev/null <<EOF
SET client_min_messages = warning;
DROP TABLE IF EXISTS public.t CASCADE;
DROP TABLE IF EXISTS public.t_k_gkey;
DELETE FROM partmgr.part_config;
CREATE TABLE public.t (k bigint, created_at timestamptz NOT NULL, note text) PARTITION BY RANGE (created_at);
SELECT partmgr.create_parent('public.t', 'created_at', '1 day', p_start_partition => '2030-01-01', p_premake => 9);
EOF
	case $kind in
		gu) psql -d l -c "SELECT partmgr.create_global_unique('public.t', ARRAY['k'])" >/dev/null ;;
		idx) psql -d l -c "CREATE INDEX ON public.t (k)" >/dev/null ;;
	esac
	psql -d l -c "CHECKPOINT"
	t0=$(ms)
	if [ "$how" = copy ]; then
		psql -d l -c "COPY public.t FROM '$dir/$order.csv' CSV"
	else
		psql -d l -c "INSERT INTO public.t SELECT * FROM src_$order"
	fi
	t1=$(ms)
	echo $(((t1 - t0) / 1000000))
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for how in copy insert; do
	for order in seq rand; do
		declare -A took=() runs=()
		for kind in none gu idx; do
			runs[$kind]=""
			for r in $(seq 1 "$RUNS"); do
				runs[$kind]="${runs[$kind]} $(load $kind $how $order)"
			done
			took[$kind]=$(echo ${runs[$kind]} | median)
		done
		label=$([ "$how" = copy ] && echo "G4 COPY" || echo "G5 INSERT ... SELECT")
		keys=$([ "$order" = seq ] && echo "in order" || echo "in random order")
		echo "$label of $ROWS rows, keys $keys, median of $RUNS: without ${took[none]} ms (${runs[none]# }), with the constraint ${took[gu]} ms (${runs[gu]# }), with a local index ${took[idx]} ms (${runs[idx]# }); constraint / without $(awk -v a="${took[gu]}" -v b="${took[none]}" 'BEGIN { printf "%.2f", a / b }')x, constraint / local index $(awk -v a="${took[gu]}" -v b="${took[idx]}" 'BEGIN { printf "%.2f", a / b }')x"
	done
done
