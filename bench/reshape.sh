#!/usr/bin/env bash
#
# What reshaping a live set costs, measured on one throwaway PostgreSQL 15
# server in one run.  Run as root:
#
#   bash bench/reshape.sh [--quick]
#
# R1  splitting a daily child of ROWS rows (primary key and one more index)
#     into four children of six hours with split_partition, against the
#     floor: a plain INSERT ... SELECT of the same rows into one table with
#     the same indexes (what any copy costs), then CREATE INDEX after.
# R2  single-row INSERTs by pgbench (one client per core) into the child
#     being split, for SECS seconds without a reshape, then while a child of
#     the same size is split (the split starts a second into the leg): tps,
#     p50, p99 and the largest latency of each leg, from pgbench's
#     per-transaction log.
# R3  a hash set of 8 children holding ROWS rows: split_hash_partition of
#     one child (an eighth of them) into two, against the INSERT ... SELECT
#     floor of that child's rows.
#
# pg_partman has no split or merge: the floor is the baseline.  It installs
# pg_partmgr, starts a cluster as postgres in a temporary directory (port
# $PORT, 54392 by default), prints one line per figure and removes the
# cluster.  Never a pass/fail test.
#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PORT=${PORT:-54392}
SECS=20
ROWS=1000000
if [ "${1:-}" = --quick ]; then
	SECS=5
	ROWS=200000
fi

bash "$top/.ci/install-deps" >/dev/null
make -s -C "$top" >/dev/null
make -s -C "$top" install >/dev/null
bindir=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/partmgr-reshape-bench.XXXXXX)
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
checkpoint_timeout = 30min
timezone = 'UTC'
autovacuum = off
EOF
runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null
psql() { runuser -u postgres -- "$bindir/psql" -X -q -h "$dir" -p "$PORT" -v ON_ERROR_STOP=1 "$@"; }
ns() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

echo "# reshape benchmark: $(date -u +%FT%TZ), git $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs, ROWS=$ROWS, SECS=$SECS"
psql -d postgres -c "CREATE DATABASE b"
psql -d b >/dev/null <<EOF
CREATE EXTENSION pg_partmgr;
CREATE TABLE public.ev (id bigint NOT NULL, ts timestamptz NOT NULL, account int NOT NULL, payload text,
                        PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
CREATE INDEX ON public.ev (account);
SELECT partmgr.create_parent('public.ev', 'ts', '1 day', p_start_partition => '2030-01-01', p_premake => 3);
SELECT partmgr.create_partition_time('public.ev', ARRAY['2030-01-02', '2030-01-03', '2030-01-04']::timestamptz[]);
EOF
# one child of ROWS rows per day for three days (id spreads them over the day)
psql -d b >/dev/null <<EOF
INSERT INTO public.ev
SELECT d * $ROWS + g, '2030-01-01'::timestamptz + d * interval '1 day' + (g % 86400) * interval '1 second',
       g % 1000, md5(g::text)
  FROM generate_series(0, 2) d, generate_series(0, $ROWS - 1) g;
VACUUM ANALYZE public.ev;
CHECKPOINT;
EOF

# R1: the floor, then the split
t0=$(ns)
psql -d b >/dev/null <<'EOF'
CREATE TABLE public.floor (LIKE public.ev);
ALTER TABLE public.floor ADD PRIMARY KEY (id, ts);
INSERT INTO public.floor SELECT * FROM ONLY public.ev_p20300101;
CREATE INDEX ON public.floor (account);
EOF
t1=$(ns)
psql -d b -c "DROP TABLE public.floor" -c "CHECKPOINT" >/dev/null
t2=$(ns)
psql -d b -c "CALL partmgr.split_partition('public.ev_p20300101', p_interval => '6 hours', p_quiet => true)"
t3=$(ns)
floor=$(secs "$t0" "$t1")
split=$(secs "$t2" "$t3")
echo "R1 floor: INSERT ... SELECT of $ROWS rows (primary key, then CREATE INDEX): ${floor} s"
echo "R1 split_partition of $ROWS rows into 4: ${split} s ($(awk -v a="$split" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')x the floor)"
psql -d b -At -c "SELECT 'R1 after: ' || string_agg(tableoid::regclass || ' ' || n, ', ' ORDER BY 1) FROM (SELECT tableoid, count(*) n FROM public.ev WHERE ts < '2030-01-02' GROUP BY 1) c"

# R2: insert latency into the child being split, without and with the split
cat >"$dir/insert.sql" <<EOF
INSERT INTO public.ev VALUES (nextval('ins') , '2030-01-02'::timestamptz + random() * interval '86399 seconds', 1, 'x');
EOF
cat >"$dir/insert3.sql" <<EOF
INSERT INTO public.ev VALUES (nextval('ins') , '2030-01-03'::timestamptz + random() * interval '86399 seconds', 1, 'x');
EOF
chown postgres "$dir"/insert*.sql
psql -d b -c "CREATE SEQUENCE ins START 100000000" -c "CHECKPOINT" >/dev/null
clients=$(nproc)
leg() {
	local name=$1 script=$2
	mkdir -p "$dir/$name"
	chown postgres "$dir/$name"
	(cd "$dir/$name" && runuser -u postgres -- "$bindir/pgbench" -n -h "$dir" -p "$PORT" -c "$clients" \
		-j "$clients" -T "$SECS" -l -f "$script" b >"$dir/$name/out" 2>&1)
}
summary() {
	local name=$1
	local tps
	tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$dir/$name/out")
	cat "$dir/$name"/pgbench_log.* | awk '{ print $3 }' | sort -n | awk -v tps="$tps" -v name="$name" '
		{ v[NR] = $1 }
		END { printf "R2 %s: %.0f tps, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d inserts)\n",
		      name, tps, v[int(NR * 0.5)] / 1000, v[int(NR * 0.99)] / 1000, v[NR] / 1000, NR }'
}
leg alone "$dir/insert.sql"
summary alone
leg during "$dir/insert3.sql" &
bench=$!
sleep 1
t4=$(ns)
psql -d b -c "CALL partmgr.split_partition('public.ev_p20300103', p_interval => '6 hours', p_quiet => true)"
t5=$(ns)
wait "$bench"
summary during
echo "R2 the split during the inserts took $(secs "$t4" "$t5") s"
psql -d b -At -c "SELECT 'R2 rows: ' || count(*) FROM public.ev"

# R3: a hash set of 8 children, one of them split in two
psql -d b >/dev/null <<EOF
CREATE TABLE public.hs (id bigint PRIMARY KEY, account int NOT NULL, payload text) PARTITION BY HASH (id);
SELECT partmgr.create_parent('public.hs', 'id', '8', p_type => 'hash');
INSERT INTO public.hs SELECT g, g % 1000, md5(g::text) FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE public.hs;
CHECKPOINT;
EOF
t6=$(ns)
psql -d b >/dev/null <<'EOF'
CREATE TABLE public.hfloor (LIKE public.hs);
ALTER TABLE public.hfloor ADD PRIMARY KEY (id);
INSERT INTO public.hfloor SELECT * FROM ONLY public.hs_h8_3;
EOF
t7=$(ns)
psql -d b -c "DROP TABLE public.hfloor" -c "CHECKPOINT" >/dev/null
t8=$(ns)
psql -d b -c "CALL partmgr.split_hash_partition('public.hs_h8_3', p_quiet => true)"
t9=$(ns)
hfloor=$(secs "$t6" "$t7")
hsplit=$(secs "$t8" "$t9")
echo "R3 floor: INSERT ... SELECT of one child of 8 ($(psql -d b -At -c "SELECT count(*) FROM public.hs WHERE satisfies_hash_partition('public.hs'::regclass, 8, 3, id)") rows): ${hfloor} s"
echo "R3 split_hash_partition of that child into 2: ${hsplit} s ($(awk -v a="$hsplit" -v b="$hfloor" 'BEGIN { printf "%.2f", a / b }')x the floor)"
psql -d b -At -c "SELECT 'R3 after: ' || string_agg(partition_tablename, ', ') FROM partmgr.show_partitions('public.hs')"
