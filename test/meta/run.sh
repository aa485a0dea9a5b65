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
files="META.json pg_partmgr.control LICENSE doc/reference.md"
. "$top/test/lib/doctored.sh"

out=$(perl "$check" "$top" 2>&1)
ok $? "META.json describes the tree${out:+: $out}"

copy 'sed -i "s/^default_version = .*/default_version = '"'"'0.8.0'"'"'/" pg_partmgr.control'
fails_with "META.json: version 0.7.0 differs from default_version 0.8.0 in pg_partmgr.control"
ok $? "a new default_version without META.json fails"

copy 'perl -0pi -e "s/(\"file\": \"pg_partmgr.control\",.*?\"version\": )\"[^\"]*\"/\${1}\"0.3.0\"/s" META.json'
fails_with "META.json: provides.pg_partmgr.version 0.3.0 differs from default_version 0.7.0 in pg_partmgr.control"
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

finish
