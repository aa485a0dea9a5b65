#!/usr/bin/env bash
#
# Run every pg_partmgr test suite on throwaway PostgreSQL clusters:
#   pg_regress (sql/, expected/), isolationtester (test/specs, test/expected),
#   pgTAP (test/pgtap, run with pg_prove), TAP (test/t, run with prove and
#   PostgreSQL::Test::Cluster: the background worker, standbys, pg_cron) and
#   the tests of the layer check (test/layers) and of META.json (test/meta).
#
# Run it as root: it installs the Debian packages the tests need if they are
# missing (.ci/install-deps), builds and installs the extension, then runs
# the servers as the postgres user.  Each runner prints its own summary; the
# script exits non-zero if any suite failed.  Set PG_CONFIG to pick another
# server installation.
#
set -uo pipefail

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

echo "== layers"
bash "$top/test/layers/run.sh" || failed+=(layers)

echo "== meta"
bash "$top/test/meta/run.sh" || failed+=(meta)

echo "== build and install"
make -s -C "$top" PG_CONFIG="$PG_CONFIG" WERROR=1 || exit 1
make -s -C "$top" PG_CONFIG="$PG_CONFIG" install >/dev/null || exit 1

# The servers run as postgres, which may not be able to read the checkout:
# work on a copy of the test inputs in a directory postgres owns.
work=$(mktemp -d /tmp/pg_partmgr_tests.XXXXXX)
cp -r "$top/sql" "$top/expected" "$top/test" "$top/doc" "$work/"
mkdir -p "$work/tap"
[ "$(id -u)" -eq 0 ] && chown -R postgres "$work"
regress_tests=$(make -s -C "$top" print-REGRESS)
isolation_tests=$(make -s -C "$top" print-ISOLATION)

echo "== pg_regress"
if ! as_postgres "$pg_regress" --bindir="$bindir" --inputdir="$work" \
	--outputdir="$work/regress" --temp-instance="$work/regress/instance" \
	--temp-config="$work/test/conf/regress.conf" --dbname=contrib_regression \
	--encoding=UTF8 --no-locale \
	$regress_tests; then
	failed+=(pg_regress)
	cat "$work/regress/regression.diffs" 2>/dev/null
fi

echo "== isolationtester"
if ! as_postgres "$pg_isolation_regress" --bindir="$bindir" \
	--inputdir="$work/test" --outputdir="$work/isolation" \
	--temp-instance="$work/isolation/instance" \
	--temp-config="$work/test/conf/regress.conf" --dbname=isolation_regression \
	$isolation_tests; then
	failed+=(isolation)
	cat "$work/isolation/regression.diffs" 2>/dev/null
fi

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
		-U postgres "$work"/test/pgtap/*.sql; then
		failed+=(pgTAP)
	fi
	as_postgres "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
else
	cat "$work/pgtap/server.log"
	failed+=(pgTAP)
fi

echo "== TAP"
if ! (cd "$work" && as_postgres env PATH="$bindir:$PATH" TESTDIR="$work/tap" \
	PG_REGRESS="$pg_regress" prove -I "$pgxs_src/test/perl" test/t/*.pl); then
	failed+=(TAP)
	for f in "$work"/tap/tmp_check/log/regress_log_*; do
		[ -f "$f" ] && { echo "--- $f"; tail -40 "$f"; }
	done
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED: ${failed[*]} (outputs kept in $work)"
	exit 1
fi
rm -rf "$work"
echo "All test suites passed."
