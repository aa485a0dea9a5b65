#!/usr/bin/env bash
#
# What a child costs on a Citus cluster against one server: pg_partmgr on a
# distributed partitioned table (a coordinator and two workers, all on this
# machine) and on the same table on a plain server, in one run.  Run as
# root:
#
#   bash bench/citus.sh [--children=N] [--shards=N]
#
# Needs the citus extension installed (doc/citus.md says how to build it);
# prints a line and exits 0 without it.  Starts four clusters as the postgres
# user in a temporary directory (ports $PORT..$PORT+3, 54400 by default,
# Unix sockets only), and prints milliseconds per child for: create_parent
# (N daily children, made from p_start_partition), retention dropping all
# but the newest, partition_data making them again for 1,000 rows each that
# sit in the default partition, and retention detaching them.  Stops the clusters and removes the
# directory at the end.
#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
children=30
shards=32
for arg in "$@"; do
	case $arg in
		--children=*) children=${arg#--children=} ;;
		--shards=*) shards=${arg#--shards=} ;;
		*)
			echo "usage: bash bench/citus.sh [--children=N] [--shards=N]" >&2
			exit 2
			;;
	esac
done

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bindir=$("$PG_CONFIG" --bindir)
if [ ! -e "$("$PG_CONFIG" --pkglibdir)/citus.so" ]; then
	echo "citus is not installed here: nothing to measure (doc/citus.md says how to build it)"
	exit 0
fi
make -s -C "$top" PG_CONFIG="$PG_CONFIG" >/dev/null
make -s -C "$top" PG_CONFIG="$PG_CONFIG" install >/dev/null

PORT=${PORT:-54400}
dir=$(mktemp -d /tmp/pg_partmgr_bench_citus.XXXXXX)
chown postgres "$dir"
as_pg() { runuser -u postgres -- "$@"; }
nodes=(single coordinator worker1 worker2)

stop_all() {
	for i in 0 1 2 3; do
		[ -f "$dir/${nodes[$i]}/postmaster.pid" ] &&
			as_pg "$bindir/pg_ctl" -D "$dir/${nodes[$i]}" -m fast -w stop >/dev/null 2>&1
	done
	rm -rf "$dir"
}
trap stop_all EXIT

for i in 0 1 2 3; do
	d=$dir/${nodes[$i]}
	as_pg "$bindir/initdb" -D "$d" -A trust -U postgres >/dev/null
	libs="'pg_partmgr'"
	[ "$i" -gt 0 ] && libs="'citus,pg_partmgr'"
	cat >>"$d/postgresql.conf" <<-EOF
		port = $((PORT + i))
		listen_addresses = ''
		unix_socket_directories = '$dir'
		shared_preload_libraries = $libs
		max_prepared_transactions = 20
		shared_buffers = 256MB
		timezone = 'UTC'
		pg_partmgr.databases = ''
	EOF
	as_pg "$bindir/pg_ctl" -D "$d" -l "$d.log" -w start >/dev/null
done

psql_on() { as_pg "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$dir" -p "$1" -d postgres "${@:2}"; }
for i in 1 2 3; do psql_on $((PORT + i)) -c 'CREATE EXTENSION citus'; done
psql_on $((PORT + 1)) -c "SELECT citus_set_coordinator_host('$dir', $((PORT + 1)))" \
	-c "SELECT citus_add_node('$dir', $((PORT + 2)))" \
	-c "SELECT citus_add_node('$dir', $((PORT + 3)))" >/dev/null

# ms: the milliseconds one SQL script takes on a port
ms() {
	local port=$1 sql=$2 t0 t1
	t0=$(date +%s%N)
	psql_on "$port" -c "$sql" >/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# The set: daily children from $children days ago; distributed on Citus
setup() {
	local port=$1 distribute=$2
	psql_on "$port" -c 'CREATE EXTENSION pg_partmgr' \
		-c 'CREATE TABLE public.events (tenant_id int NOT NULL, ts timestamptz NOT NULL, payload text) PARTITION BY RANGE (ts)'
	if [ "$distribute" = yes ]; then
		psql_on "$port" -c "SELECT create_distributed_table('public.events', 'tenant_id', shard_count => $shards)" >/dev/null
	fi
}

declare -A fig
for target in single citus; do
	port=$PORT
	[ "$target" = citus ] && port=$((PORT + 1))
	setup "$port" "$([ "$target" = citus ] && echo yes || echo no)"
	fig[$target,create]=$(ms "$port" "SELECT partmgr.create_parent('public.events', 'ts', '1 day',
		p_premake => 1, p_start_partition => (current_date - $children)::text,
		p_default_table => true, p_automatic_maintenance => 'off')")
	made=$(psql_on "$port" -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.events'::regclass")
	fig[$target,made]=$made
	fig[$target,drop]=$(ms "$port" "UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = false;
		SET pg_partmgr.children_per_transaction = 10000;
		SELECT partmgr.run_maintenance('public.events')")
	left=$(psql_on "$port" -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.events'::regclass")
	fig[$target,dropped]=$((made - left))
	psql_on "$port" -c "UPDATE partmgr.part_config SET retention = NULL" \
		-c "INSERT INTO public.events SELECT g % 97, current_date - $children + g * interval '1 day' / 1000, 'x'
			FROM generate_series(0, ${fig[$target,dropped]} * 1000 - 1) g" -c 'ANALYZE public.events'
	fig[$target,move]=$(ms "$port" "SELECT partmgr.partition_data_time('public.events', p_batch_count => 100000)")
	moved=$(psql_on "$port" -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.events'::regclass")
	fig[$target,moved]=$((moved - left))
	fig[$target,detach]=$(ms "$port" "UPDATE partmgr.part_config SET retention = '1 day', retention_keep_table = true;
		SET pg_partmgr.children_per_transaction = 10000;
		SELECT partmgr.run_maintenance('public.events')")
	left=$(psql_on "$port" -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'public.events'::regclass")
	fig[$target,detached]=$((moved - left))
done

per() { awk -v t="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", t / n; else printf "-" }'; }
echo "pg_partmgr on Citus (extension $(psql_on $((PORT + 1)) -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'")) (coordinator and two workers on this machine, $shards shards per table) against one server, ms per child"
printf '%-44s %12s %12s %8s\n' "step" "one server" "Citus" "ratio"
for step in create:made drop:dropped move:moved detach:detached; do
	what=${step%%:*}
	count=${step##*:}
	a=$(per "${fig[single,$what]}" "${fig[single,$count]}")
	b=$(per "${fig[citus,$what]}" "${fig[citus,$count]}")
	case $what in
		create) label="create_parent (${fig[citus,made]} children)" ;;
		drop) label="retention, dropped (${fig[citus,dropped]})" ;;
		move) label="partition_data, 1000 rows each (${fig[citus,moved]})" ;;
		detach) label="retention, detached (${fig[citus,detached]})" ;;
	esac
	printf '%-44s %12s %12s %8s\n' "$label" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.0fx", b / a; else printf "-" }')"
done
