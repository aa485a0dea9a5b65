#!/usr/bin/env bash
#
# pg_partmgr against pg_partman 4.7.2 (Debian's postgresql-15-partman), side
# by side on one throwaway PostgreSQL 15 server, in one run.  Run as root:
#
#   bash bench/run.sh [--quick|--full] [--only=W2,W8] [--huge-pages=try|off]
#                                      (--full and --huge-pages=try are the defaults)
#
# It builds and installs pg_partmgr, installs the Debian packages if they are
# missing (.ci/install-deps), starts a cluster as the postgres user in a
# temporary directory (port $PORT, 54390 by default, Unix socket only), runs
# the workloads W1..W8 described in bench/README.md against a pg_partman
# database and a pg_partmgr database, prints one line per figure, then stops
# the cluster and removes the directory.  KEEP=1 leaves the cluster running.
# With --huge-pages=try the server's shared memory is put in 2 MB huge
# pages, reserved for the run (vm.nr_hugepages) and given back at its end,
# when the kernel allows it; the header says whether it did.
#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

mode=full
only=""
huge=try
for arg in "$@"; do
	case $arg in
		--quick) mode=quick ;;
		--full) mode=full ;;
		--only=*) only=${arg#--only=} ;;
		--huge-pages=try | --huge-pages=off) huge=${arg#--huge-pages=} ;;
		-h | --help)
			sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
			exit 0
			;;
		*)
			echo "usage: bash bench/run.sh [--quick|--full] [--only=W1,W2,...] [--huge-pages=try|off]" >&2
			exit 2
			;;
	esac
done

# want W: whether workload W runs (--only lists the workloads to run; W3
# runs on W1's sets, so W1 runs with it)
want() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

# ---------------------------------------------------------------- sizes
PREMAKE=4
W5_DAYS=30
if [ "$mode" = quick ]; then
	W1_SETS=20          # W1 create_parent, then W3 catch-up on the same sets
	W2_SMALL=10         # W2 idle maintenance at this many sets ...
	W2_LARGE=50         # ... and at this many
	W2_REPS=3           # W2 timed runs per figure (the median is printed)
	W4_SETS=5           # W4 retention: sets ...
	W4_EXPIRED=10       # ... times expired children each
	W5_ROWS=100000      # W5 rows in the default partition
	W6_SECS=4           # W6 pgbench duration of each leg
	W6_SLICES=2         # W6a and W6b each run in this many slices, in turn
	W6_TIMEOUT=2        # W6c statement_timeout of the maintenance session
	W7_SETS=5           # W7 sub-partitioning: daily sets whose children become id sub-sets
	W8_SETS=50          # W8 scale: daily sets of 10 children ...
	W8_PASSES=5         # ... idle passes of the background worker watched
	W8_INTERVAL=2       # ... pg_partmgr.interval (s) meanwhile
else
	W1_SETS=200
	W2_SMALL=100
	W2_LARGE=1000
	W2_REPS=5
	W4_SETS=100
	W4_EXPIRED=30
	W5_ROWS=1000000
	W6_SECS=30
	W6_SLICES=3
	W6_TIMEOUT=10
	W7_SETS=50
	W8_SETS=10000
	W8_PASSES=20
	W8_INTERVAL=8
fi
W6_CLIENTS=4

# ---------------------------------------------------------------- setup
if [ "$(id -u)" -ne 0 ]; then
	echo "bench/run.sh: run as root (it installs packages and runs the server as postgres)" >&2
	exit 1
fi
started=$(date +%s)
phase_t=$(date +%s.%N)
phase_name=setup

bash "$top/.ci/install-deps"
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bindir=$("$PG_CONFIG" --bindir)
sharedir=$("$PG_CONFIG" --sharedir)
make -s -C "$top" PG_CONFIG="$PG_CONFIG" >/dev/null
make -s -C "$top" PG_CONFIG="$PG_CONFIG" install >/dev/null
if [ ! -f "$sharedir/extension/pg_partman--4.7.2.sql" ]; then
	echo "bench/run.sh: pg_partman 4.7.2 is not installed ($sharedir/extension/pg_partman--4.7.2.sql)" >&2
	exit 1
fi

port=${PORT:-54390}
dir=$(mktemp -d /tmp/pg_partmgr_bench.XXXXXX)
chown postgres: "$dir"
chmod 700 "$dir"
clientlog=$dir/client.log
: >"$clientlog"

bg_pids=()
hugepages_before=""  # vm.nr_hugepages before the run, when it reserved some
cleanup() {
	local rc=$?
	local p
	for p in "${bg_pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	if [ "$rc" -ne 0 ]; then
		echo "bench/run.sh: failed (exit $rc); last client messages:" >&2
		tail -n 20 "$clientlog" >&2 2>/dev/null || true
		echo "last server log lines:" >&2
		tail -n 20 "$dir/server.log" >&2 2>/dev/null || true
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "cluster kept running: psql -h $dir -p $port (as postgres)" >&2
		[ -n "$hugepages_before" ] &&
			echo "huge pages stay reserved for it: after stopping it, echo $hugepages_before > /proc/sys/vm/nr_hugepages" >&2
		return
	fi
	runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
	if [ -n "$hugepages_before" ]; then
		echo "$hugepages_before" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

as_pg() { runuser -u postgres -- "$@"; }

runuser -u postgres -- "$bindir/initdb" -D "$dir/data" -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
cat >>"$dir/data/postgresql.conf" <<CONF
port = $port
listen_addresses = ''
unix_socket_directories = '$dir'
max_connections = 50
shared_buffers = 256MB
max_locks_per_transaction = 2048
timezone = 'UTC'
log_timezone = 'UTC'
autovacuum = off
max_wal_size = 4GB
checkpoint_timeout = 30min
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
CONF
# Huge pages for the shared memory: a new backend's first touch of a shared
# buffer costs a page fault per 4 kB page, and on a virtual machine that
# shadows the guest's page tables each fault is dear (about 6 us here
# against 0.06 us per 4 kB with 2 MB pages): a production server would use
# them.  Reserved for this run if the kernel has too few free, given back
# at its end.
hugepages_used="off"
# huge pages free and not promised to a server already running
hugepages_free() { awk '/^HugePages_Free:/ { f = $2 } /^HugePages_Rsvd:/ { r = $2 } END { print f - r }' /proc/meminfo; }
if [ "$huge" = try ] && [ -w /proc/sys/vm/nr_hugepages ]; then
	need=$(as_pg "$bindir/postgres" -D "$dir/data" -C shared_memory_size_in_huge_pages 2>/dev/null || echo -1)
	free=$(hugepages_free)
	if [ "$need" -gt 0 ] 2>/dev/null; then
		if [ "${free:-0}" -lt "$need" ]; then
			hugepages_before=$(cat /proc/sys/vm/nr_hugepages)
			echo $((hugepages_before + need - ${free:-0})) >/proc/sys/vm/nr_hugepages 2>/dev/null || true
			free=$(hugepages_free)
		fi
		if [ "${free:-0}" -ge "$need" ]; then
			echo "huge_pages = on" >>"$dir/data/postgresql.conf"
			hugepages_used="on ($need x $(awk '/^Hugepagesize:/ { print $2 / 1024 }' /proc/meminfo) MB)"
		fi
	fi
fi
[ "$hugepages_used" = off ] && echo "huge_pages = off" >>"$dir/data/postgresql.conf"
if ! as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null; then
	[ "$hugepages_used" = off ] && exit 1
	# the pages went to someone else meanwhile: run without them
	echo "huge_pages = off" >>"$dir/data/postgresql.conf"
	hugepages_used="off (the server could not get the huge pages it was given)"
	as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
fi

export PGOPTIONS="-c client_min_messages=warning -c TimeZone=UTC"

# q DB [psql args]: run psql as postgres, unaligned, tuples only, stop on the
# first error; messages go to $clientlog.
q() {
	local db=$1
	shift
	as_pg env PGOPTIONS="$PGOPTIONS" "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 \
		-h "$dir" -p "$port" -d "$db" "$@" 2>>"$clientlog"
}

# timed DB SQL: run SQL in a new connection, print the seconds it took
# (server clock, clock_timestamp() before and after; output discarded).
timed() {
	q "$1" <<SQL
SELECT clock_timestamp() AS bench_t0 \gset
\o /dev/null
$2
\o
SELECT round(extract(epoch FROM clock_timestamp() - :'bench_t0'::timestamptz)::numeric, 4);
SQL
}

# arithmetic and formatting
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
pad4() { printf '%04d' "$1"; }

# cmp LABEL A B UNIT: "LABEL: pg_partman A UNIT  pg_partmgr B UNIT  ratio A/B"
cmp() { echo "$1: pg_partman $2 $4  pg_partmgr $3 $4  ratio $(ratio "$2" "$3")"; }

checkpoint() { q postgres -c "CHECKPOINT"; }

# phase NAME: with VERBOSE=1, how long the previous phase took (on stderr)
phase() {
	local now
	now=$(date +%s.%N)
	[ "${VERBOSE:-0}" = 1 ] && echo "  [$phase_name took $(calc "$now - $phase_t" 1) s]" >&2
	phase_t=$now
	phase_name=$1
}

# Fresh benchmark databases (bench_pm: pg_partman, bench_pgm: pg_partmgr,
# bench_raw: neither, for the raw-DDL floor), copied from templates made once.
fresh() {
	local d
	for d in pm pgm raw; do
		q postgres -c "DROP DATABASE IF EXISTS bench_$d"
		q postgres -c "CREATE DATABASE bench_$d TEMPLATE tpl_$d"
	done
	checkpoint
}

for d in pm pgm raw; do
	q postgres -c "CREATE DATABASE tpl_$d"
	q "tpl_$d" <"$here/bench.sql"
done
q tpl_pm -c "CREATE SCHEMA partman" -c "CREATE EXTENSION pg_partman SCHEMA partman"
q tpl_pgm -c "CREATE EXTENSION pg_partmgr"

# Per-extension SQL.  ext: pm (pg_partman 4.7.2) or pgm (pg_partmgr).
schema_of() { if [ "$1" = pm ]; then echo partman; else echo partmgr; fi; }
# create_parent call for parent $2 (may contain %s, see bench.loop), daily,
# premake $3, optional start partition $4 (a date)
create_parent_sql() {
	local start=""
	[ -n "${4:-}" ] && start=", p_start_partition => '$4'"
	if [ "$1" = pm ]; then
		echo "SELECT partman.create_parent(p_parent_table => '$2', p_control => 'ts', p_type => 'native', p_interval => 'daily', p_premake => $3$start)"
	else
		echo "SELECT partmgr.create_parent(p_parent_table => '$2', p_control => 'ts', p_interval => '1 day', p_premake => $3$start)"
	fi
}
# create sets <schema>.tNNNN, $3 .. $4, each in its own transaction, timed
# under label $5 (in bench.timing); optional start partition $6
create_sets() {
	q "bench_$1" -c "SELECT bench.make_parents('$2', $3, $4)" >/dev/null
	register_sets "$@"
}
# the same for parents that exist already
register_sets() {
	local ext=$1 schema=$2 first=$3 last=$4 label=$5 start=${6:-}
	q "bench_$ext" -v tmpl="$(create_parent_sql "$ext" "$schema.t%s" "$PREMAKE" "$start")" \
		<<<"CALL bench.loop('$label', :'tmpl', $first, $last);"
}
# summary of a bench.loop label: "n total mean p50 p99 max cpu_mean" (seconds)
summary() {
	q "bench_$1" -F ' ' -c "SELECT n, total, mean, p50, p99, mx, cpu_mean FROM bench.summary('$2')"
}
field() { echo "$1" | awk -v f="$2" '{ print $f }'; }
ms() { calc "$1 * 1000" "${2:-2}"; }

# ---------------------------------------------------------------- header
pgver=$(q postgres -c "SHOW server_version")
pmver=$(q tpl_pm -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'")
pgmver=$(q tpl_pgm -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_partmgr'")
gitrev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$top" status --porcelain -- src sql 2>/dev/null)" ]; then gitrev="$gitrev + uncommitted changes in src/ or sql/"; fi
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)

echo "pg_partmgr benchmark (--$mode), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) CPUs (${cpu:-unknown}), $mem memory, $(uname -sr)"
echo "versions: PostgreSQL $pgver, pg_partman $pmver, pg_partmgr $pgmver (git $gitrev)"
echo "server: shared_buffers 256MB, huge pages $hugepages_used, max_locks_per_transaction 2048, fsync on, synchronous_commit on, autovacuum off, pg_partmgr.enabled off, pg_partman bgw not loaded"
echo "timing: server clock (clock_timestamp) around each call; maintenance calls each in a new connection"
echo

# ---------------------------------------------------------------- W1
if want W1 || want W3; then
phase W1
# create_parent for W1_SETS daily sets, premake 4, one transaction each.
# The two extensions (and the raw floor) take turns, a chunk of sets each,
# so that anything else happening on the machine hits them alike.
fresh
per_set=$((2 * PREMAKE + 1)) # children both make without p_start_partition
for e in pm pgm raw; do
	q "bench_$e" -c "SELECT bench.make_parents('w1', 1, $W1_SETS)" >/dev/null
done
q bench_raw -c "SELECT bench.make_parents('w1t', 1, $W1_SETS)" >/dev/null
chunk=$((W1_SETS >= 100 ? 20 : 5))
for ((f = 1; f <= W1_SETS; f += chunk)); do
	l=$((f + chunk - 1 > W1_SETS ? W1_SETS : f + chunk - 1))
	for e in pm pgm; do
		register_sets "$e" w1 "$f" "$l" w1
	done
	# raw floor: the same children (today - premake .. today + premake) and a default
	q bench_raw -v tmpl="SELECT bench.raw_children('w1', 't%s', current_date - $PREMAKE, $per_set, true)" \
		<<<"CALL bench.loop('w1', :'tmpl', $f, $l);"
	# and with the template table create_parent makes besides (pg_partman too)
	q bench_raw -v tmpl="SELECT bench.raw_children('w1t', 't%1\$s', current_date - $PREMAKE, $per_set, true) + bench.raw_template('w1t', 't%1\$s')" \
		<<<"CALL bench.loop('w1t', :'tmpl', $f, $l);"
done
for e in pm pgm; do
	s=$(summary "$e" w1)
	declare "w1_total_$e=$(field "$s" 2)" "w1_mean_$e=$(field "$s" 3)" \
		"w1_p50_$e=$(field "$s" 4)" "w1_p99_$e=$(field "$s" 5)" "w1_max_$e=$(field "$s" 6)" \
		"w1_cpu_$e=$(field "$s" 7)"
	declare "w1_children_$e=$(q "bench_$e" -c "SELECT bench.children('w1')")"
	declare "w1_defaults_$e=$(q "bench_$e" -c "SELECT bench.defaults('w1')")"
done
s=$(summary raw w1)
w1_total_raw=$(field "$s" 2)
w1_mean_raw=$(field "$s" 3)
w1_cpu_raw=$(field "$s" 7)
s=$(summary raw w1t)
w1_mean_rawt=$(field "$s" 3)
w1_cpu_rawt=$(field "$s" 7)

cmp "W1 create_parent $W1_SETS daily sets (premake $PREMAKE, one transaction each)" \
	"$(calc "$w1_total_pm")" "$(calc "$w1_total_pgm")" s
cmp "W1 create_parent per set (mean)" "$(ms "$w1_mean_pm")" "$(ms "$w1_mean_pgm")" ms
echo "W1 create_parent per set latency: pg_partman p50 $(ms "$w1_p50_pm") p99 $(ms "$w1_p99_pm") max $(ms "$w1_max_pm") ms" \
	" pg_partmgr p50 $(ms "$w1_p50_pgm") p99 $(ms "$w1_p99_pgm") max $(ms "$w1_max_pgm") ms  p99 ratio $(ratio "$w1_p99_pm" "$w1_p99_pgm")"
echo "W1 tables made per set: pg_partman $(calc "$w1_children_pm / $W1_SETS" 1) children + $(calc "$w1_defaults_pm / $W1_SETS" 1) default" \
	" pg_partmgr $(calc "$w1_children_pgm / $W1_SETS" 1) children + $(calc "$w1_defaults_pgm / $W1_SETS" 1) default"
cmp "W1 create_parent per table made (children + default)" \
	"$(calc "$w1_total_pm * 1000 / ($w1_children_pm + $w1_defaults_pm)")" \
	"$(calc "$w1_total_pgm * 1000 / ($w1_children_pgm + $w1_defaults_pgm)")" ms
echo "W1 raw DDL floor ($per_set x CREATE TABLE (LIKE parent INCLUDING ...) + ATTACH, then the default, per set): total $(calc "$w1_total_raw") s, per set $(ms "$w1_mean_raw") ms, per table $(calc "$w1_total_raw * 1000 / ($W1_SETS * ($per_set + 1))") ms; pg_partmgr $(ratio "$w1_mean_pgm" "$w1_mean_raw") of it"
echo "W1 raw DDL floor with the template table as well (CREATE TABLE template_tNNNN (LIKE parent)): per set $(ms "$w1_mean_rawt") ms; pg_partmgr $(ratio "$w1_mean_pgm" "$w1_mean_rawt") of it, pg_partman $(ratio "$w1_mean_pm" "$w1_mean_rawt")"
echo "W1 backend CPU time per set (mean, without waits for fsync or a CPU): pg_partman $(ms "$w1_cpu_pm") ms  pg_partmgr $(ms "$w1_cpu_pgm") ms  floor $(ms "$w1_cpu_raw") ms  floor with the template $(ms "$w1_cpu_rawt") ms; pg_partmgr $(ratio "$w1_cpu_pgm" "$w1_cpu_raw") of the floor, $(ratio "$w1_cpu_pgm" "$w1_cpu_rawt") of the floor with the template"

fi

# ---------------------------------------------------------------- W3
if want W3; then
phase W3
# catch-up on W1's sets: a row at now() in each, premake 4 -> 6, one
# run_maintenance(): two new children per set.
for e in pm pgm raw; do
	q "bench_$e" -c "SELECT bench.insert_now('w1', 1, $W1_SETS)" >/dev/null
done
q bench_pm -c "UPDATE partman.part_config SET premake = $((PREMAKE + 2))"
q bench_pgm -c "UPDATE partmgr.part_config SET premake = $((PREMAKE + 2))"
checkpoint
for e in pm pgm; do
	declare "w3_before_$e=$(q "bench_$e" -c "SELECT bench.children('w1')")"
	declare "w3_secs_$e=$(timed "bench_$e" "SELECT $(schema_of "$e").run_maintenance();")"
	declare "w3_after_$e=$(q "bench_$e" -c "SELECT bench.children('w1')")"
done
w3_secs_raw=$(timed bench_raw "SELECT sum(bench.raw_children('w1', 't' || bench.num(i), current_date + $((PREMAKE + 1)), 2, false)) FROM generate_series(1, $W1_SETS) i;")
w3_new_pm=$((w3_after_pm - w3_before_pm))
w3_new_pgm=$((w3_after_pgm - w3_before_pgm))
w3_expected=$((2 * W1_SETS))

echo
cmp "W3 catch-up run_maintenance, $W1_SETS sets x 2 new children" "$(calc "$w3_secs_pm")" "$(calc "$w3_secs_pgm")" s
cmp "W3 catch-up per child created" \
	"$(calc "$w3_secs_pm * 1000 / ($w3_new_pm > 0 ? $w3_new_pm : 1)")" \
	"$(calc "$w3_secs_pgm * 1000 / ($w3_new_pgm > 0 ? $w3_new_pgm : 1)")" ms
echo "W3 children created: pg_partman $w3_new_pm  pg_partmgr $w3_new_pgm  (expected $w3_expected)"
echo "W3 raw DDL floor ($w3_expected x CREATE TABLE LIKE + ATTACH, one statement): total $(calc "$w3_secs_raw") s, per child $(calc "$w3_secs_raw * 1000 / $w3_expected") ms"

fi

# ---------------------------------------------------------------- W2
if want W2; then
phase W2
# run_maintenance with nothing due, at W2_SMALL then W2_LARGE sets (each
# with a row at now(), so both look for the newest data); the median of
# W2_REPS runs, each in a new connection; the same for run_maintenance_proc.
echo
fresh
w2_have=0
w2_fn_pm=()
w2_fn_pgm=()
w2_proc_pm=()
w2_proc_pgm=()
for n in "$W2_SMALL" "$W2_LARGE"; do
	for e in pm pgm; do
		create_sets "$e" w2 $((w2_have + 1)) "$n" "w2_setup"
		q "bench_$e" -c "SELECT bench.insert_now('w2', $((w2_have + 1)), $n)" >/dev/null
		# one untimed run: anything due now (a day that began meanwhile) is made
		q "bench_$e" -c "SELECT $(schema_of "$e").run_maintenance()" >/dev/null
		declare "w2_before_$e=$(q "bench_$e" -c "SELECT bench.children('w2')")"
	done
	w2_have=$n
	checkpoint
	fn_pm=()
	fn_pgm=()
	proc_pm=()
	proc_pgm=()
	floor=()
	for _ in $(seq 1 "$W2_REPS"); do
		for e in pm pgm; do
			sch=$(schema_of "$e")
			t=$(timed "bench_$e" "SELECT $sch.run_maintenance();")
			eval "fn_$e+=(\"\$t\")"
			t=$(timed "bench_$e" "CALL $sch.run_maintenance_proc();")
			eval "proc_$e+=(\"\$t\")"
		done
		floor+=("$(timed bench_pgm "SELECT count(*), max(length(c.relpartbound::text)) FROM pg_class c WHERE c.relispartition OR c.relkind = 'p';")")
	done
	for e in pm pgm; do
		declare "w2_after_$e=$(q "bench_$e" -c "SELECT bench.children('w2')")"
	done
	m_pm=$(median "${fn_pm[@]}")
	m_pgm=$(median "${fn_pgm[@]}")
	w2_fn_pm+=("$m_pm")
	w2_fn_pgm+=("$m_pgm")
	echo "W2 run_maintenance(), nothing due, $n sets (median of $W2_REPS): pg_partman $(ms "$m_pm" 1) ms ($(calc "$m_pm * 1000 / $n" 3) ms/set)" \
		" pg_partmgr $(ms "$m_pgm" 1) ms ($(calc "$m_pgm * 1000 / $n" 3) ms/set)  ratio $(ratio "$m_pm" "$m_pgm")"
	m_pm=$(median "${proc_pm[@]}")
	m_pgm=$(median "${proc_pgm[@]}")
	w2_proc_pm+=("$m_pm")
	w2_proc_pgm+=("$m_pgm")
	echo "W2 CALL run_maintenance_proc(), nothing due, $n sets (median of $W2_REPS): pg_partman $(ms "$m_pm" 1) ms ($(calc "$m_pm * 1000 / $n" 3) ms/set)" \
		" pg_partmgr $(ms "$m_pgm" 1) ms ($(calc "$m_pgm * 1000 / $n" 3) ms/set)  ratio $(ratio "$m_pm" "$m_pgm")"
	m_floor=$(median "${floor[@]}")
	echo "W2 floor, $n sets: the pg_class rows of every partitioned table and partition (with its bound) read by one sequential scan in a new connection, what any exact answer about the sets' children reads at least (median of $W2_REPS): $(ms "$m_floor" 1) ms ($(calc "$m_floor * 1000 / $n" 3) ms/set); pg_partmgr's run_maintenance() beyond it $(calc "($(median "${fn_pgm[@]}") - $m_floor) * 1000 / $n" 3) ms/set"
	if [ "$w2_after_pm" -ne "$w2_before_pm" ] || [ "$w2_after_pgm" -ne "$w2_before_pgm" ]; then
		echo "W2 note: children were created during the timed runs (pg_partman $((w2_after_pm - w2_before_pm)), pg_partmgr $((w2_after_pgm - w2_before_pgm))): a day began meanwhile?"
	fi
done

# marginal cost: what each set beyond the first W2_SMALL added
dn=$((W2_LARGE - W2_SMALL))
cmp "W2 run_maintenance(), nothing due, marginal cost per set ($W2_SMALL -> $W2_LARGE sets)" \
	"$(calc "(${w2_fn_pm[1]} - ${w2_fn_pm[0]}) * 1000 / $dn" 3)" "$(calc "(${w2_fn_pgm[1]} - ${w2_fn_pgm[0]}) * 1000 / $dn" 3)" ms
cmp "W2 CALL run_maintenance_proc(), nothing due, marginal cost per set ($W2_SMALL -> $W2_LARGE sets)" \
	"$(calc "(${w2_proc_pm[1]} - ${w2_proc_pm[0]}) * 1000 / $dn" 3)" "$(calc "(${w2_proc_pgm[1]} - ${w2_proc_pgm[0]}) * 1000 / $dn" 3)" ms

fi

# ---------------------------------------------------------------- W4
if want W4; then
phase W4
# retention: W4_SETS sets, each with W4_EXPIRED children older than the
# retention ('4 days'), one run_maintenance(); drop, then (fresh) detach.
echo
w4_start=$(q postgres -c "SELECT current_date - $((W4_EXPIRED + PREMAKE))")
w4_expected=$((W4_SETS * W4_EXPIRED))
for leg in drop detach; do
	keep=false
	[ "$leg" = detach ] && keep=true
	fresh
	for e in pm pgm; do
		create_sets "$e" w4 1 "$W4_SETS" w4_setup "$w4_start"
		q "bench_$e" -c "SELECT bench.insert_now('w4', 1, $W4_SETS)" >/dev/null
		q "bench_$e" -c "UPDATE $(schema_of "$e").part_config SET retention = '$PREMAKE days', retention_keep_table = $keep"
	done
	per_set=$(($(q bench_pgm -c "SELECT bench.children('w4')") / W4_SETS))
	q bench_raw -c "SELECT bench.make_parents('w4', 1, $W4_SETS)" >/dev/null
	q bench_raw -c "SELECT sum(bench.raw_children('w4', 't' || bench.num(i), '$w4_start', $per_set, true)) FROM generate_series(1, $W4_SETS) i" >/dev/null
	q bench_raw -c "SELECT bench.insert_now('w4', 1, $W4_SETS)" >/dev/null
	checkpoint
	for e in pm pgm raw; do
		declare "w4_before_$e=$(q "bench_$e" -c "SELECT bench.children('w4')")"
		if [ "$e" = raw ]; then
			t=$(timed bench_raw "SELECT sum(bench.raw_retire('w4', 't' || bench.num(i), now() - interval '$PREMAKE days', $keep)) FROM generate_series(1, $W4_SETS) i;")
		else
			t=$(timed "bench_$e" "SELECT $(schema_of "$e").run_maintenance();")
		fi
		declare "w4_secs_$e=$t"
		declare "w4_after_$e=$(q "bench_$e" -c "SELECT bench.children('w4')")"
		declare "w4_loose_$e=$(q "bench_$e" -c "SELECT bench.loose_tables('w4')")"
	done
	r_pm=$((w4_before_pm - w4_after_pm))
	r_pgm=$((w4_before_pgm - w4_after_pgm))
	r_raw=$((w4_before_raw - w4_after_raw))
	what="dropped"
	[ "$leg" = detach ] && what="detached, kept"
	cmp "W4 retention ($what), $W4_SETS sets x $W4_EXPIRED expired children" "$(calc "$w4_secs_pm")" "$(calc "$w4_secs_pgm")" s
	cmp "W4 retention ($what) per child" \
		"$(calc "$w4_secs_pm * 1000 / ($r_pm > 0 ? $r_pm : 1)")" \
		"$(calc "$w4_secs_pgm * 1000 / ($r_pgm > 0 ? $r_pgm : 1)")" ms
	echo "W4 retention ($what) raw DDL floor (DETACH$([ "$keep" = false ] && echo " + DROP") per child, one statement): total $(calc "$w4_secs_raw") s, per child $(calc "$w4_secs_raw * 1000 / ($r_raw > 0 ? $r_raw : 1)") ms"
	echo "W4 retention ($what) check: children retired pg_partman $r_pm  pg_partmgr $r_pgm  floor $r_raw (expected $w4_expected);" \
		"detached tables left pg_partman $w4_loose_pm  pg_partmgr $w4_loose_pgm (expected $([ "$keep" = true ] && echo "$w4_expected" || echo 0))"
done

fi

# ---------------------------------------------------------------- W5
if want W5; then
phase W5
# partition_data: W5_ROWS rows over W5_DAYS days in the default partition,
# moved into W5_DAYS new children.
echo
fresh
w5_start=$(q postgres -c "SELECT current_date")
w5_has_pgm=$(q bench_pgm -c "SELECT count(*) FROM pg_proc WHERE proname = 'partition_data_time' AND pronamespace = 'partmgr'::regnamespace")
w5_exts=(pm)
[ "$w5_has_pgm" -gt 0 ] && w5_exts+=(pgm)
for e in "${w5_exts[@]}"; do
	create_sets "$e" w5 1 1 w5_setup "$w5_start"
	q "bench_$e" -c "INSERT INTO w5.t0001 (id, ts, payload)
	                 SELECT g, (current_date - $W5_DAYS)::timestamptz + (g - 1) * ($W5_DAYS * 86400.0 / $W5_ROWS) * interval '1 second', 'payload ' || g
	                   FROM generate_series(1, $W5_ROWS) g" \
		-c "VACUUM ANALYZE w5.t0001"
	declare "w5_default_$e=$(q "bench_$e" -c "SELECT count(*) FROM ONLY w5.t0001_default")"
	declare "w5_before_$e=$(q "bench_$e" -c "SELECT bench.children('w5')")"
done
# the raw SQL floor of moving the rows: the same rows in a default
# partition, W5_DAYS children made beforehand (untimed) under a partitioned
# staging table, then one INSERT ... SELECT and one DELETE
q bench_raw -c "SELECT bench.make_parents('w5', 1, 1)" \
	-c "SELECT bench.raw_children('w5', 't0001', current_date, 0, true)" \
	-c "INSERT INTO w5.t0001 (id, ts, payload)
	    SELECT g, (current_date - $W5_DAYS)::timestamptz + (g - 1) * ($W5_DAYS * 86400.0 / $W5_ROWS) * interval '1 second', 'payload ' || g
	      FROM generate_series(1, $W5_ROWS) g" \
	-c "VACUUM ANALYZE w5.t0001" \
	-c "CREATE TABLE w5.stage (LIKE w5.t0001) PARTITION BY RANGE (ts)" \
	-c "SELECT bench.raw_children('w5', 'stage', current_date - $W5_DAYS, $W5_DAYS, false)" >/dev/null
checkpoint
w5_secs_raw=$(timed bench_raw "BEGIN; INSERT INTO w5.stage SELECT * FROM ONLY w5.t0001_default; DELETE FROM ONLY w5.t0001_default; COMMIT;")
w5_raw_moved=$(q bench_raw -c "SELECT count(*) FROM w5.stage")
checkpoint
# pg_partman 4.7.2: partition_data_time(p_parent_table, p_batch_count, p_batch_interval,
# p_lock_wait, p_order, p_analyze, p_source_table, p_ignored_columns); one batch per child,
# it stops when the default is empty
w5_secs_pm=$(timed bench_pm "SELECT partman.partition_data_time(p_parent_table => 'w5.t0001', p_batch_count => $((W5_DAYS * 10)), p_analyze => false);")
if [ "$w5_has_pgm" -gt 0 ]; then
	args=$(q bench_pgm -c "SELECT array_to_string(proargnames, ',') FROM pg_proc WHERE proname = 'partition_data_time' AND pronamespace = 'partmgr'::regnamespace LIMIT 1")
	call="p_parent_table => 'w5.t0001'"
	case ",$args," in *,p_loop_count,*) call="$call, p_loop_count => $((W5_DAYS * 10))" ;; *,p_batch_count,*) call="$call, p_batch_count => $((W5_DAYS * 10))" ;; esac
	case ",$args," in *,p_analyze,*) call="$call, p_analyze => false" ;; esac
	checkpoint # pg_partman's move is not left to be flushed during this one
	w5_secs_pgm=$(timed bench_pgm "SELECT partmgr.partition_data_time($call);")
fi
for e in "${w5_exts[@]}"; do
	declare "w5_left_$e=$(q "bench_$e" -c "SELECT count(*) FROM ONLY w5.t0001_default")"
	declare "w5_total_$e=$(q "bench_$e" -c "SELECT count(*) FROM w5.t0001")"
	declare "w5_new_$e=$(( $(q "bench_$e" -c "SELECT bench.children('w5')") - $(eval echo "\$w5_before_$e") ))"
done
label="W5 partition_data_time, $W5_ROWS rows over $W5_DAYS days out of the default"
if [ "$w5_has_pgm" -gt 0 ]; then
	cmp "$label" "$(calc "$w5_secs_pm")" "$(calc "$w5_secs_pgm")" s
	echo "W5 partition_data throughput: pg_partman $(calc "$W5_ROWS / $w5_secs_pm" 0) rows/s  pg_partmgr $(calc "$W5_ROWS / $w5_secs_pgm" 0) rows/s"
	echo "W5 raw SQL floor of the rows' move alone (INSERT ... SELECT into $W5_DAYS children made beforehand + DELETE, one transaction, no DDL): $(calc "$w5_secs_raw") s ($w5_raw_moved rows), the whole call of pg_partmgr takes $(ratio "$w5_secs_pgm" "$w5_secs_raw") that time"
	echo "W5 check: pg_partman moved $((w5_default_pm - w5_left_pm)) rows into $w5_new_pm new children, $w5_left_pm left in the default, $w5_total_pm in the set;" \
		"pg_partmgr moved $((w5_default_pgm - w5_left_pgm)) into $w5_new_pgm, $w5_left_pgm left, $w5_total_pgm in the set (expected $W5_ROWS into $W5_DAYS, 0 left)"
else
	echo "$label: pg_partman $(calc "$w5_secs_pm") s ($(calc "$W5_ROWS / $w5_secs_pm" 0) rows/s)"
	echo "W5 partition_data: pg_partmgr not available yet"
	echo "W5 check: pg_partman moved $((w5_default_pm - w5_left_pm)) rows into $w5_new_pm new children, $w5_left_pm left in the default, $w5_total_pm in the set (expected $W5_ROWS into $W5_DAYS, 0 left)"
fi

fi

# ---------------------------------------------------------------- W7
if want W7; then
phase W7
# sub-partitioning: W7_SETS daily sets (premake 4: 9 children), each child
# turned into an id sub-set (interval 100000, premake 2: 3 children and a
# default) by create_sub_parent, one transaction per set; then a row at
# now() in each set, top premake 4 -> 6 and one run_maintenance(): two new
# sub-parents per set, each registered with its children and default.
echo
fresh
for e in pm pgm; do
	create_sets "$e" w7 1 "$W7_SETS" w7_setup
	q "bench_$e" -c "DO \$\$ BEGIN FOR i IN 1 .. $W7_SETS LOOP
	                   EXECUTE format('ALTER TABLE w7.%I ALTER COLUMN id SET NOT NULL', 't' || bench.num(i));
	                 END LOOP; END \$\$" >/dev/null
done
checkpoint
w7_sub_pm="SELECT partman.create_sub_parent(p_top_parent => 'w7.t%s', p_control => 'id', p_type => 'native', p_interval => '100000', p_native_check => 'yes', p_premake => 2)"
w7_sub_pgm="SELECT partmgr.create_sub_parent(p_top_parent => 'w7.t%s', p_control => 'id', p_interval => '100000', p_declarative_check => 'yes', p_premake => 2)"
chunk=$((W7_SETS >= 20 ? 10 : 5))
for ((f = 1; f <= W7_SETS; f += chunk)); do
	l=$((f + chunk - 1 > W7_SETS ? W7_SETS : f + chunk - 1))
	q bench_pm -v tmpl="$w7_sub_pm" <<<"CALL bench.loop('w7', :'tmpl', $f, $l);"
	q bench_pgm -v tmpl="$w7_sub_pgm" <<<"CALL bench.loop('w7', :'tmpl', $f, $l);"
done
for e in pm pgm; do
	s=$(summary "$e" w7)
	declare "w7_total_$e=$(field "$s" 2)" "w7_mean_$e=$(field "$s" 3)"
	declare "w7_tables_$e=$(q "bench_$e" -c "SELECT count(*) FROM pg_class WHERE relnamespace = 'w7'::regnamespace AND relkind IN ('r', 'p') AND relispartition")"
	declare "w7_subsets_$e=$(q "bench_$e" -c "SELECT count(*) FROM $(schema_of "$e").part_config WHERE parent_table ~ '^w7[.]t[0-9]+_p'")"
done
cmp "W7 create_sub_parent, $W7_SETS daily sets of $((2 * PREMAKE + 1)) children (one transaction each)" \
	"$(calc "$w7_total_pm")" "$(calc "$w7_total_pgm")" s
cmp "W7 create_sub_parent per set (mean)" "$(ms "$w7_mean_pm")" "$(ms "$w7_mean_pgm")" ms
echo "W7 after create_sub_parent: sub-sets registered pg_partman $w7_subsets_pm  pg_partmgr $w7_subsets_pgm (expected $((W7_SETS * (2 * PREMAKE + 1))));" \
	"partitions at both levels pg_partman $w7_tables_pm  pg_partmgr $w7_tables_pgm"
for e in pm pgm; do
	q "bench_$e" -c "SELECT bench.insert_now('w7', 1, $W7_SETS)" >/dev/null
	q "bench_$e" -c "UPDATE $(schema_of "$e").part_config SET premake = $((PREMAKE + 2)) WHERE parent_table !~ '_p'" >/dev/null
done
checkpoint
for e in pm pgm; do
	declare "w7_before_$e=$(q "bench_$e" -c "SELECT count(*) FROM pg_class WHERE relnamespace = 'w7'::regnamespace AND relispartition")"
	declare "w7_secs_$e=$(timed "bench_$e" "SELECT $(schema_of "$e").run_maintenance();")"
	declare "w7_after_$e=$(q "bench_$e" -c "SELECT count(*) FROM pg_class WHERE relnamespace = 'w7'::regnamespace AND relispartition")"
	declare "w7_newsub_$e=$(q "bench_$e" -c "SELECT count(*) FROM $(schema_of "$e").part_config WHERE parent_table ~ '^w7[.]t[0-9]+_p'")"
done
w7_new_pm=$((w7_after_pm - w7_before_pm))
w7_new_pgm=$((w7_after_pgm - w7_before_pgm))
cmp "W7 catch-up run_maintenance, $W7_SETS sets x 2 new sub-parents with their sub-sets" \
	"$(calc "$w7_secs_pm")" "$(calc "$w7_secs_pgm")" s
cmp "W7 catch-up per partition made (both levels)" \
	"$(calc "$w7_secs_pm * 1000 / ($w7_new_pm > 0 ? $w7_new_pm : 1)")" \
	"$(calc "$w7_secs_pgm * 1000 / ($w7_new_pgm > 0 ? $w7_new_pgm : 1)")" ms
echo "W7 catch-up made: pg_partman $w7_new_pm partitions, $((w7_newsub_pm - w7_subsets_pm)) sub-sets  pg_partmgr $w7_new_pgm partitions, $((w7_newsub_pgm - w7_subsets_pgm)) sub-sets (expected $((2 * W7_SETS)) sub-sets)"

fi

# ---------------------------------------------------------------- W6
if want W6; then
phase W6
# insert latency with pgbench: (a) alone, (b) with run_maintenance() looping
# in another session, (c) with a long reader on the parent while
# maintenance has a child to make.
echo
fresh
w6=$dir/w6
mkdir "$w6"
chown postgres: "$w6"
echo "\\set id random(1, 1000000000)
INSERT INTO w6.t0001 (id, ts, payload) VALUES (:id, now(), 'payload');" >"$w6/insert.sql"
for e in pm pgm; do
	create_sets "$e" w6 1 1 w6_setup
	echo "SELECT $(schema_of "$e").run_maintenance();" >"$w6/maint_$e.sql"
done
# W6b's floors, in pg_partmgr's database: a loop of the cheapest statement
# there is, and a loop of a one-row UPDATE committed each time (what a
# maintenance call that records its run writes at least)
q bench_pgm -c "CREATE TABLE w6.floor_stamp (id int PRIMARY KEY, t timestamptz); INSERT INTO w6.floor_stamp VALUES (1, now())" >/dev/null
echo "SELECT 1;" >"$w6/floor_select.sql"
echo "UPDATE w6.floor_stamp SET t = now() WHERE id = 1;" >"$w6/floor_update.sql"
chmod 644 "$w6"/*.sql

# pgbench_run NAME DB SCRIPT CLIENTS SECS [SLICE]: per-transaction logs under
# $w6/log_NAME (SLICE tells the slices of one leg apart), output added to
# $w6/NAME.out
pgbench_run() {
	as_pg env PGOPTIONS="$PGOPTIONS" "$bindir/pgbench" -n -h "$dir" -p "$port" -c "$4" -j "$(( $4 < 2 ? 1 : 2 ))" -T "$5" \
		-f "$3" -l --log-prefix="$w6/log_$1_s${6:-1}" "$2" >>"$w6/$1.out" 2>&1
}
# latency NAME: "count p50 p99 max" in ms from pgbench's per-transaction logs
# (SLICE: of that slice only)
latency() {
	cat "$w6/log_$1_s${2:-}"* 2>/dev/null | awk '{ print $3 / 1000 }' | sort -g |
		awk '{ v[NR] = $1 } END {
			if (NR == 0) { print "0 0 0 0"; exit }
			i50 = int(NR * 0.50); if (i50 < NR * 0.50) i50++; i99 = int(NR * 0.99); if (i99 < NR * 0.99) i99++;
			printf "%d %.2f %.2f %.2f\n", NR, v[i50], v[i99], v[NR] }'
}
lat_line() { # LABEL NAME_PM NAME_PGM
	local a b
	a=$(latency "$2")
	b=$(latency "$3")
	echo "$1: pg_partman p50 $(field "$a" 2) p99 $(field "$a" 3) max $(field "$a" 4) ms ($(field "$a" 1) inserts)" \
		" pg_partmgr p50 $(field "$b" 2) p99 $(field "$b" 3) max $(field "$b" 4) ms ($(field "$b" 1) inserts)  p99 ratio $(ratio "$(field "$a" 3)" "$(field "$b" 3)")"
}

# (a) alone and (b) with maintenance looping in another session (pgbench
# with one client), in W6_SLICES slices of W6_SECS / W6_SLICES seconds taken
# in turn (a, then b, for pg_partman, then for pg_partmgr): the machine's
# drift over minutes (its fsync latency most of all) falls on the legs
# alike, and each b slice is compared with the a slice just before it.
slice=$((W6_SECS / W6_SLICES))
for k in $(seq 1 "$W6_SLICES"); do
	for e in pm pgm; do
		checkpoint
		pgbench_run "a_$e" "bench_$e" "$w6/insert.sql" "$W6_CLIENTS" "$slice" "$k" || true
		checkpoint
		pgbench_run "bm_$e" "bench_$e" "$w6/maint_$e.sql" 1 "$slice" "$k" &
		p=$!
		bg_pids+=("$p")
		pgbench_run "b_$e" "bench_$e" "$w6/insert.sql" "$W6_CLIENTS" "$slice" "$k" || true
		wait "$p" || true
	done
	# the floors, after pg_partmgr's b slice, against its a slice
	for f in select update; do
		checkpoint
		pgbench_run "fm_$f" bench_pgm "$w6/floor_$f.sql" 1 "$slice" "$k" &
		p=$!
		bg_pids+=("$p")
		pgbench_run "f_$f" bench_pgm "$w6/insert.sql" "$W6_CLIENTS" "$slice" "$k" || true
		wait "$p" || true
	done
done
lat_line "W6a insert latency, $W6_CLIENTS clients x ${W6_SECS} s ($W6_SLICES slices), alone" a_pm a_pgm
lat_line "W6b insert latency, run_maintenance() looping alongside (slices taken in turn with W6a's)" b_pm b_pgm
for e in pm pgm; do
	per=""
	for k in $(seq 1 "$W6_SLICES"); do
		per="$per $(ratio "$(field "$(latency "b_$e" "$k.")" 3)" "$(field "$(latency "a_$e" "$k.")" 3)")"
	done
	echo "W6b insert p99 against W6a's, slice by slice, $(if [ "$e" = pm ]; then echo pg_partman; else echo pg_partmgr; fi):$per"
done
a=$(latency bm_pm)
b=$(latency bm_pgm)
echo "W6b maintenance runs in ${W6_SECS} s: pg_partman $(field "$a" 1) (p50 $(field "$a" 2) ms, max $(field "$a" 4) ms)" \
	" pg_partmgr $(field "$b" 1) (p50 $(field "$b" 2) ms, max $(field "$b" 4) ms)"
for f in select update; do
	per=""
	for k in $(seq 1 "$W6_SLICES"); do
		per="$per $(ratio "$(field "$(latency "f_$f" "$k.")" 3)" "$(field "$(latency a_pgm "$k.")" 3)")"
	done
	a=$(latency "f_$f")
	b=$(latency "fm_$f")
	if [ "$f" = select ]; then what="SELECT 1"; else what="a one-row UPDATE, committed each time"; fi
	echo "W6b floor, pg_partmgr's inserts with a loop of $what alongside: p50 $(field "$a" 2) p99 $(field "$a" 3) max $(field "$a" 4) ms ($(field "$a" 1) inserts; $(field "$b" 1) loop statements); p99 against pg_partmgr's W6a slice by slice:$per; pg_partmgr's W6b p99 is $(ratio "$(field "$(latency b_pgm)" 3)" "$(field "$a" 3)") of it"
done

# (c) a long reader holds the parent (and every child) while maintenance has
# a child to make (premake raised by one); a new reader arrives meanwhile.
# pg_partman's run is bounded by statement_timeout = W6_TIMEOUT s;
# pg_partmgr's by its own pg_partmgr.lock_timeout (100ms).
for e in pm pgm; do
	sch=$(schema_of "$e")
	q "bench_$e" -c "UPDATE $sch.part_config SET premake = $((PREMAKE + 1))"
	before=$(q "bench_$e" -c "SELECT bench.children('w6')")
	checkpoint
	pgbench_run "c_$e" "bench_$e" "$w6/insert.sql" "$W6_CLIENTS" "$W6_SECS" &
	p_ins=$!
	bg_pids+=("$p_ins")
	sleep 1
	q "bench_$e" <<<"BEGIN; SELECT count(*) FROM w6.t0001; SELECT pg_sleep($W6_SECS - 1); COMMIT;" >/dev/null &
	p_long=$!
	bg_pids+=("$p_long")
	sleep 0.5
	if [ "$e" = pm ]; then
		settings="SET statement_timeout = '${W6_TIMEOUT}s';"
	else
		settings="SET statement_timeout = '${W6_TIMEOUT}s'; SET pg_partmgr.lock_timeout = '100ms';"
	fi
	as_pg env PGOPTIONS="$PGOPTIONS" "$bindir/psql" -X -q -At -h "$dir" -p "$port" -d "bench_$e" \
		>"$w6/cm_$e.out" 2>"$w6/cm_$e.err" <<SQL &
$settings
SELECT clock_timestamp() AS t0 \gset
SELECT $sch.run_maintenance();
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3);
SQL
	p_maint=$!
	bg_pids+=("$p_maint")
	sleep 0.5
	reader=$(q "bench_$e" <<<"SET statement_timeout = '60s';
SELECT clock_timestamp() AS t0 \gset
SELECT count(*) FROM w6.t0001 \gset
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 4);")
	declare "w6c_reader_$e=$reader"
	wait "$p_maint" || true
	wait "$p_ins" || true
	wait "$p_long" || true
	if grep -q "statement timeout" "$w6/cm_$e.err"; then
		outcome="waited, canceled by statement_timeout (${W6_TIMEOUT} s)"
	elif grep -q "WARNING" "$w6/cm_$e.err"; then
		outcome="returned with a WARNING: $(grep -m1 WARNING "$w6/cm_$e.err" | sed 's/^.*WARNING: *//' | cut -c1-150)"
	elif grep -q "ERROR" "$w6/cm_$e.err"; then
		outcome="failed: $(grep -m1 ERROR "$w6/cm_$e.err" | sed 's/^.*ERROR: *//' | cut -c1-150)"
	else
		outcome="returned"
	fi
	declare "w6c_base_$e=$(timed "bench_$e" "SELECT count(*) FROM w6.t0001;")"
	during=$(($(q "bench_$e" -c "SELECT bench.children('w6')") - before))
	q "bench_$e" -c "SELECT $sch.run_maintenance()" >/dev/null
	after=$(($(q "bench_$e" -c "SELECT bench.children('w6')") - before))
	declare "w6c_outcome_$e=$(calc "$(tail -n 1 "$w6/cm_$e.out" | grep -E '^[0-9.]+$' || echo 0)" 2) s, $outcome; children made: $during during the leg, $after after a run without the reader"
done
lat_line "W6c insert latency, long reader + maintenance with a child to make" c_pm c_pgm
cmp "W6c new SELECT count(*) issued while maintenance runs" "$(ms "$w6c_reader_pm" 1)" "$(ms "$w6c_reader_pgm" 1)" ms
echo "W6c the same SELECT count(*) after the leg, uncontended: pg_partman $(ms "$w6c_base_pm" 1) ms  pg_partmgr $(ms "$w6c_base_pgm" 1) ms"
echo "W6c maintenance run, pg_partman: $w6c_outcome_pm"
echo "W6c maintenance run, pg_partmgr: $w6c_outcome_pgm"
for f in "$w6"/*.out; do
	n=$(grep -c -E "aborted|ERROR" "$f" || true)
	if [ "$n" -gt 0 ]; then
		echo "W6 note: pgbench $(basename "$f" .out) reported $n error(s): $(grep -m1 -E "aborted|ERROR" "$f" | cut -c1-150)"
	fi
done

fi

# ---------------------------------------------------------------- W8
if want W8; then
phase W8
# scale: W8_SETS daily sets of 10 children each (5 days back to premake 4
# ahead), a row at now() in each.  pg_partman: CALL run_maintenance_proc()
# idle, then with one child due in every set (premake + 1), in one session
# whose peak memory (VmHWM) is read after each call.  pg_partmgr: the same
# two calls, then the background worker, which is what runs in production:
# W8_PASSES idle passes (each pass's time, peak memory and own and shared
# memory from the worker's DEBUG1 line, the launcher's memory before and
# after), then one pass with a child due in every set.
fresh
w8_start=$(q postgres -c "SELECT current_date - 5")
for e in pm pgm; do
	create_sets "$e" w8 1 "$W8_SETS" w8 "$w8_start"
	q "bench_$e" -c "SELECT bench.insert_now('w8', 1, $W8_SETS)" >/dev/null
	declare "w8_made_$e=$(q "bench_$e" -c "SELECT bench.children('w8')")"
	# what autovacuum (off here, for steady timings) would have done to the
	# catalogs after so many CREATE TABLEs and ATTACHes: a scan of pg_class
	# otherwise checks every dead row version those left, on every pass
	q "bench_$e" -c "VACUUM" >/dev/null
done
checkpoint
w8_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
# w8_proc EXT: one session, CALL run_maintenance_proc() twice (idle, then a
# child due in every set): "idle_s idle_kb due_s due_kb children_made"
w8_proc() {
	local e=$1 sch
	sch=$(schema_of "$e")
	q "bench_$e" -F ' ' <<SQL
CREATE TEMP VIEW w8_hwm AS
	SELECT (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1] AS kb;
SELECT bench.children('w8') AS before \gset
SELECT clock_timestamp() AS t0 \gset
CALL $sch.run_maintenance_proc();
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3) AS idle, kb AS idle_kb
  FROM w8_hwm \gset
UPDATE $sch.part_config SET premake = premake + 1 WHERE parent_table LIKE 'w8.%';
SELECT clock_timestamp() AS t0 \gset
CALL $sch.run_maintenance_proc();
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3) AS due, kb AS due_kb
  FROM w8_hwm \gset
UPDATE $sch.part_config SET premake = premake - 1 WHERE parent_table LIKE 'w8.%';
SELECT :idle, :idle_kb, :due, :due_kb, bench.children('w8') - :before;
SQL
}
for e in pm pgm; do
	declare "w8_proc_$e=$(w8_proc "$e")"
done
w8_db=$(q postgres -c "SELECT oid FROM pg_database WHERE datname = 'bench_pgm'")
# the log holds every LOG line of the sets' creation by now (tens of MB):
# the watch reads only what was written after this point, so that polling it
# takes no CPU from the worker it watches
w8_log_from=$(($(stat -c %s "$dir/server.log") + 1))
w8_new_log() { tail -c "+$w8_log_from" "$dir/server.log"; }
w8_passes() { w8_new_log | grep -c "worker maintained [0-9]* of [0-9]* partition sets in database $w8_db in" || true; }
# w8_watch N: wait for N more passes of the worker (timeout); prints
# "pass_ms... / peak_kb... / private_kb... / shared_kb..." from the DEBUG1
# line that ends each pass, where the worker says its time, its own peak
# memory (VmHWM) and, before it frees its catalog prefetch, the memory it
# holds split into its own (RssAnon) and the shared memory it has touched
# (RssShmem, the shared buffers it read). One tail and grep every half
# second: sampling /proc and the log every 50 ms, as this did before, took
# about a quarter of a second from each pass of a 2-CPU machine.
w8_watch() {
	local want=$(($(w8_passes) + $1)) deadline=$(($(date +%s) + $1 * W8_INTERVAL * 4 + 120)) lines
	while [ "$(w8_passes)" -lt "$want" ]; do
		[ "$(date +%s)" -gt "$deadline" ] && { echo "W8: timed out waiting for the worker" >&2; exit 1; }
		sleep 0.5
	done
	lines=$(w8_new_log | grep -o "worker maintained [0-9]* of [0-9]* partition sets in database $w8_db in [0-9]* ms, peak memory [0-9]* kB, at the end [0-9]* kB private and [0-9]* kB shared" |
		tail -n "$1")
	# fields from the end: ... in MS ms, peak memory PEAK kB, at the end PRIV kB private and SHARED kB shared
	echo "$(awk '{ print $(NF - 15) }' <<<"$lines" | tr '\n' ' ')/ $(awk '{ print $(NF - 11) }' <<<"$lines" | tr '\n' ' ')/ $(awk '{ print $(NF - 6) }' <<<"$lines" | tr '\n' ' ')/ $(awk '{ print $(NF - 2) }' <<<"$lines" | tr '\n' ' ')"
}
q bench_pgm -c "VACUUM" >/dev/null # after the children the calls above made
checkpoint
launcher=$(pgrep -u postgres -f "pg_partmgr launcher" | head -n 1)
q postgres -c "ALTER SYSTEM SET pg_partmgr.databases = 'bench_pgm'" \
	-c "ALTER SYSTEM SET pg_partmgr.interval = $W8_INTERVAL" \
	-c "ALTER SYSTEM SET log_min_messages = debug1" \
	-c "ALTER SYSTEM SET pg_partmgr.enabled = on" -c "SELECT pg_reload_conf()" >/dev/null
w8_launcher_before=$(w8_kb "$launcher" VmRSS)
w8_idle=$(w8_watch "$W8_PASSES")
w8_launcher_after=$(w8_kb "$launcher" VmRSS)
w8_before_children=$(q bench_pgm -c "SELECT bench.children('w8')")
w8_log_mark=$(q bench_pgm -c "SELECT coalesce(max(log_id), 0) FROM partmgr.maintenance_log")
w8_log_bytes=$(stat -c %s "$dir/server.log")
# premake + 1 was made by the call above: + 2 makes one more child due.
# The worker is paused while the UPDATE runs (its time is printed): a pass
# that started before it commits sees the sets it reaches first as they
# were, with no child due, and makes their child one pass later -- the
# likeliest reading of the 543 of 10000 children an earlier run on a shared
# machine made late (doc/performance.md).
q postgres -c "ALTER SYSTEM SET pg_partmgr.enabled = off" -c "SELECT pg_reload_conf()" >/dev/null
until [ "$(q postgres -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pg_partmgr worker'")" = 0 ]; do
	sleep 0.2
done
w8_update_s=$(timed bench_pgm "UPDATE partmgr.part_config SET premake = premake + 2 WHERE parent_table LIKE 'w8.%';")
q postgres -c "ALTER SYSTEM SET pg_partmgr.enabled = on" -c "SELECT pg_reload_conf()" >/dev/null
w8_due=$(w8_watch 1)
w8_due_children=$(($(q bench_pgm -c "SELECT bench.children('w8')") - w8_before_children))
# what the pass logged, and what it warned of: where a due child went
w8_due_log=$(q bench_pgm -c "SELECT coalesce(string_agg(action || ' ' || outcome || ': ' || n, ', ' ORDER BY n DESC), 'nothing')
	FROM (SELECT action, outcome, count(*) AS n FROM partmgr.maintenance_log
	       WHERE log_id > $w8_log_mark GROUP BY 1, 2) s")
w8_due_warnings=$(tail -c "+$((w8_log_bytes + 1))" "$dir/server.log" | grep -c "WARNING" || true)
w8_due_first_warning=$(tail -c "+$((w8_log_bytes + 1))" "$dir/server.log" | grep -m 1 "WARNING" | cut -c 1-300 || true)
w8_next=$(w8_watch 1)
w8_next_children=$(($(q bench_pgm -c "SELECT bench.children('w8')") - w8_before_children - w8_due_children))
q postgres -c "ALTER SYSTEM RESET pg_partmgr.databases" -c "ALTER SYSTEM RESET pg_partmgr.interval" \
	-c "ALTER SYSTEM RESET log_min_messages" -c "ALTER SYSTEM RESET pg_partmgr.enabled" \
	-c "SELECT pg_reload_conf()" >/dev/null

echo "W8 scale: $W8_SETS daily sets, children each: pg_partman $(calc "$w8_made_pm / $W8_SETS" 1)  pg_partmgr $(calc "$w8_made_pgm / $W8_SETS" 1)"
for e in pm pgm; do
	v=w8_proc_$e
	declare "w8_pi_$e=$(field "${!v}" 1)" "w8_pik_$e=$(field "${!v}" 2)" "w8_pd_$e=$(field "${!v}" 3)" \
		"w8_pdk_$e=$(field "${!v}" 4)" "w8_pm_$e=$(field "${!v}" 5)"
done
cmp "W8 CALL run_maintenance_proc(), nothing due, $W8_SETS sets" "$(calc "$w8_pi_pm")" "$(calc "$w8_pi_pgm")" s
cmp "W8 CALL run_maintenance_proc(), one child due in every set" "$(calc "$w8_pd_pm")" "$(calc "$w8_pd_pgm")" s
echo "W8 children made by that call: pg_partman $w8_pm_pm  pg_partmgr $w8_pm_pgm (expected $W8_SETS)"
echo "W8 session peak memory (VmHWM) after the idle call / after the call with a child due: pg_partman $(calc "$w8_pik_pm / 1024" 1) / $(calc "$w8_pdk_pm / 1024" 1) MiB  pg_partmgr $(calc "$w8_pik_pgm / 1024" 1) / $(calc "$w8_pdk_pgm / 1024" 1) MiB"
# "ms... / peak_kb... / private_kb... / shared_kb..." -> four lists
w8_split() { awk -F / -v i="$2" '{ print $i }' <<<"$1"; }
w8_mib() { for k in $1; do calc "$k / 1024" 1; printf ' '; done; }
w8_idle_ms=$(w8_split "$w8_idle" 1)
# shellcheck disable=SC2086
echo "W8 worker, $W8_PASSES idle passes (pg_partmgr.interval $W8_INTERVAL s): ms per pass median $(median $w8_idle_ms), min $(printf '%s\n' $w8_idle_ms | sort -g | head -n 1), max $(printf '%s\n' $w8_idle_ms | sort -g | tail -n 1); all: $w8_idle_ms"
echo "W8 worker peak memory (VmHWM), MiB, as each of the $(wc -w <<<"$(w8_split "$w8_idle" 2)") passes reported it: $(w8_mib "$(w8_split "$w8_idle" 2)")"
echo "W8 worker memory at the end of each pass, MiB: its own (RssAnon) $(w8_mib "$(w8_split "$w8_idle" 3)")"
w8_shared_note=""
[[ $hugepages_used == on* ]] && w8_shared_note="; shared memory in huge pages is not counted there, so this is little more than what is outside the buffers"
echo "W8 worker memory at the end of each pass, MiB: shared memory touched (RssShmem, the shared buffers it read$w8_shared_note) $(w8_mib "$(w8_split "$w8_idle" 4)")"
echo "W8 launcher memory (VmRSS) before / after the idle passes: $(calc "${w8_launcher_before:-0} / 1024" 1) / $(calc "${w8_launcher_after:-0} / 1024" 1) MiB"
echo "W8 the UPDATE that makes a child due in every set, the worker paused: $(calc "$w8_update_s" 2) s"
echo "W8 worker pass with one child due in every set: $(w8_split "$w8_due" 1)ms, $w8_due_children children made (expected $W8_SETS), peak memory $(w8_mib "$(w8_split "$w8_due" 2)")MiB, at its end $(w8_mib "$(w8_split "$w8_due" 3)")MiB its own and $(w8_mib "$(w8_split "$w8_due" 4)")MiB shared"
echo "W8 that pass's log: $w8_due_log; $w8_due_warnings WARNING lines in the server log${w8_due_first_warning:+, the first: $w8_due_first_warning}"
echo "W8 the pass after it: $(w8_split "$w8_next" 1)ms, $w8_next_children more children made"

fi

phase end
echo
echo "done in $(($(date +%s) - started)) s"
