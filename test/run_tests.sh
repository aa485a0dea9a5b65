#!/usr/bin/env bash
#
# Run every pg_partmgr test suite on throwaway PostgreSQL clusters:
#   pg_regress (sql/, expected/), isolationtester (test/specs, test/expected),
#   pgTAP (test/pgtap, run with pg_prove), TAP (test/t, run with prove and
#   PostgreSQL::Test::Cluster: the background worker, standbys, pg_cron), the
#   tests of the layer check (test/layers) and of META.json (test/meta), and
#   the check that the C code is formatted (.ci/pgindent --check).
#
# Run it as root: it installs the Debian packages the tests need if they are
# missing (.ci/install-deps), builds and installs the extension, then runs
# the servers as the postgres user.  Each runner prints its own summary; the
# script exits non-zero if any suite failed.  Set PG_CONFIG to pick another
# server installation.
#
#   bash test/run_tests.sh                      every suite
#   bash test/run_tests.sh --suite tap          one suite (repeat for more):
#                                               layers, meta, format,
#                                               regress, isolation, pgtap,
#                                               tap
#   bash test/run_tests.sh --file 013           the files whose name holds
#   bash test/run_tests.sh --suite pgtap --file owner_rights
#                                               the text, in the suites
#                                               chosen (all by default);
#                                               a suite with none is skipped
#
set -uo pipefail

usage() {
	sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}
suites=()
pattern=
while [ $# -gt 0 ]; do
	case "$1" in
	--suite)
		[ $# -ge 2 ] || usage 2
		case "$2" in
		layers | meta | format | regress | isolation | pgtap | tap) suites+=("$2") ;;
		*) echo "unknown suite \"$2\" (layers, meta, format, regress, isolation, pgtap, tap)" >&2; exit 2 ;;
		esac
		shift 2 ;;
	--file)
		[ $# -ge 2 ] || usage 2
		pattern=$2
		shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "unknown argument \"$1\"" >&2; usage 2 ;;
	esac
done
[ ${#suites[@]} -eq 0 ] && suites=(layers meta format regress isolation pgtap tap)
wanted() {
	local s
	for s in "${suites[@]}"; do [ "$s" = "$1" ] && return 0; done
	return 1
}
# the words of a list that hold the pattern (all without one)
pick() {
	local w
	for w in "$@"; do
		case "$w" in *"$pattern"*) echo "$w" ;; esac
	done
}

top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/.ci/install-deps" || exit 1

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bindir=$("$PG_CONFIG" --bindir)
pgxs_src=$(cd "$(dirname "$("$PG_CONFIG" --pgxs)")/.." && pwd)
pg_regress=$pgxs_src/test/regress/pg_regress
pg_isolation_regress=$pgxs_src/test/isolation/pg_isolation_regress
failed=()

as_postgres() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

if wanted layers && [ -z "$pattern" ]; then
	echo "== layers"
	bash "$top/test/layers/run.sh" || failed+=(layers)
fi

if wanted meta && [ -z "$pattern" ]; then
	echo "== meta"
	bash "$top/test/meta/run.sh" || failed+=(meta)
	bash "$top/test/meta/reference.sh" || failed+=(reference)
fi

if wanted format && [ -z "$pattern" ]; then
	echo "== format"
	PG_CONFIG=$PG_CONFIG bash "$top/test/format/run.sh" || failed+=(format)
fi

echo "== build and install"
make -s -C "$top" PG_CONFIG="$PG_CONFIG" WERROR=1 || exit 1
make -s -C "$top" PG_CONFIG="$PG_CONFIG" install >/dev/null || exit 1

# The servers run as postgres, which may not be able to read the checkout:
# work on a copy of the test inputs in a directory postgres owns.
work=$(mktemp -d /tmp/pg_partmgr_tests.XXXXXX)
cp -r "$top/sql" "$top/expected" "$top/test" "$top/doc" "$work/"
mkdir -p "$work/tap"
[ "$(id -u)" -eq 0 ] && chown -R postgres "$work"
regress_tests=$(pick $(make -s -C "$top" print-REGRESS))
isolation_tests=$(pick $(make -s -C "$top" print-ISOLATION))
pgtap_files=$(cd "$work" && pick test/pgtap/*.sql)
tap_files=$(cd "$work" && pick test/t/*.pl)
wanted regress || regress_tests=
wanted isolation || isolation_tests=
wanted pgtap || pgtap_files=
wanted tap || tap_files=

if [ -n "$regress_tests" ]; then
echo "== pg_regress"
if ! as_postgres "$pg_regress" --bindir="$bindir" --inputdir="$work" \
	--outputdir="$work/regress" --temp-instance="$work/regress/instance" \
	--temp-config="$work/test/conf/regress.conf" --dbname=contrib_regression \
	--encoding=UTF8 --no-locale \
	$regress_tests; then
	failed+=(pg_regress)
	cat "$work/regress/regression.diffs" 2>/dev/null
fi
fi

if [ -n "$isolation_tests" ]; then
echo "== isolationtester"
if ! as_postgres "$pg_isolation_regress" --bindir="$bindir" \
	--inputdir="$work/test" --outputdir="$work/isolation" \
	--temp-instance="$work/isolation/instance" \
	--temp-config="$work/test/conf/regress.conf" --dbname=isolation_regression \
	$isolation_tests; then
	failed+=(isolation)
	cat "$work/isolation/regression.diffs" 2>/dev/null
fi
fi

if [ -n "$pgtap_files" ]; then
echo "== pgTAP"
port=${PGTAP_PORT:-54329}
data=$work/pgtap/data
as_postgres mkdir -p "$work/pgtap"
as_postgres "$bindir/initdb" -D "$data" -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
cat "$work/test/conf/regress.conf" >>"$data/postgresql.conf"
printf "port = %s\nlisten_addresses = ''\nunix_socket_directories = '%s'\n" \
	"$port" "$work/pgtap" >>"$data/postgresql.conf"
if as_postgres "$bindir/pg_ctl" -D "$data" -l "$work/pgtap/server.log" -w start >/dev/null; then
	as_postgres "$bindir/psql" -X -q -h "$work/pgtap" -p "$port" -d postgres \
		-c "CREATE DATABASE pgtap_regression" >/dev/null
	as_postgres "$bindir/psql" -X -q -h "$work/pgtap" -p "$port" -d pgtap_regression \
		-c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION pg_partmgr" >/dev/null
	if ! as_postgres pg_prove -h "$work/pgtap" -p "$port" -d pgtap_regression \
		-U postgres $(for f in $pgtap_files; do echo "$work/$f"; done); then
		failed+=(pgTAP)
	fi
	as_postgres "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
else
	cat "$work/pgtap/server.log"
	failed+=(pgTAP)
fi
fi

if [ -n "$tap_files" ]; then
echo "== TAP"
if ! (cd "$work" && as_postgres env PATH="$bindir:$PATH" TESTDIR="$work/tap" \
	PG_REGRESS="$pg_regress" prove -I "$pgxs_src/test/perl" $tap_files); then
	failed+=(TAP)
	for f in "$work"/tap/tmp_check/log/regress_log_*; do
		[ -f "$f" ] && { echo "--- $f"; tail -40 "$f"; }
	done
fi
fi

if [ -n "$pattern" ] && [ -z "$regress_tests$isolation_tests$pgtap_files$tap_files" ]; then
	echo "no test file of the suites chosen (${suites[*]}) has \"$pattern\" in its name" >&2
	exit 2
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED: ${failed[*]} (outputs kept in $work)"
	exit 1
fi
rm -rf "$work"
echo "All test suites passed."
