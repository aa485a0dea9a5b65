#!/usr/bin/env bash
#
# Tests of test/meta/check-meta, the check of META.json (PGXN): it passes on
# the tree as it is, and fails -- saying why -- on copies where the control
# file's default_version moved on without META.json, where provides names
# another version, where META.json is not valid JSON, and where it misses a
# key the PGXN Meta Spec makes mandatory.
#
#   bash test/meta/run.sh
#
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/test/meta/check-meta
work=$(mktemp -d /tmp/pg_partmgr_meta.XXXXXX)
trap 'rm -rf "$work"' EXIT
n=0
bad=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=$((bad + 1))
	fi
}

# a fresh copy of what META.json describes, changed by the command given
copy() {
	rm -rf "$work/tree"
	mkdir -p "$work/tree/doc"
	cp "$top/META.json" "$top/pg_partmgr.control" "$top/LICENSE" "$work/tree/"
	cp "$top/doc/reference.md" "$work/tree/doc/"
	(cd "$work/tree" && eval "$1")
}

# runs the check on the copy; passes when it fails with the expected line
fails_with() {
	local out
	out=$(perl "$check" "$work/tree" 2>&1)
	[ $? -ne 0 ] && grep -qF -- "$1" <<<"$out"
}

out=$(perl "$check" "$top" 2>&1)
ok $? "META.json describes the tree${out:+: $out}"

copy 'sed -i "s/^default_version = .*/default_version = '"'"'0.5.0'"'"'/" pg_partmgr.control'
fails_with "META.json: version 0.4.0 differs from default_version 0.5.0 in pg_partmgr.control"
ok $? "a new default_version without META.json fails"

copy 'perl -0pi -e "s/(\"file\": \"pg_partmgr.control\",.*?\"version\": )\"[^\"]*\"/\${1}\"0.3.0\"/s" META.json'
fails_with "META.json: provides.pg_partmgr.version 0.3.0 differs from default_version 0.4.0 in pg_partmgr.control"
ok $? "provides naming another version fails"

copy 'sed -i "0,/}/s/}//" META.json'
fails_with "META.json is not valid JSON"
ok $? "META.json that is not valid JSON fails"

copy 'sed -i "/\"license\":/d" META.json'
fails_with "META.json misses the key license"
ok $? "META.json without a mandatory key fails"

copy 'rm doc/reference.md'
fails_with "META.json: provides.pg_partmgr.docfile doc/reference.md is not in the tree"
ok $? "a file META.json names that is not there fails"

echo "1..$n"
[ "$bad" -eq 0 ]
