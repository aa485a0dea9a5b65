#!/usr/bin/env bash
#
# Tests of test/meta/check-reference: it passes on the tree as it is, and
# fails -- naming the function -- on copies where doc/reference.md lost a
# function's section, and where a new upgrade script creates a function
# the manual does not describe; a function a later script drops for good
# is not asked for.
#
#   bash test/meta/reference.sh
#
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/test/meta/check-reference
files="sql doc/reference.md"
. "$top/test/lib/doctored.sh"

out=$(perl "$check" "$top" 2>&1)
ok $? "doc/reference.md describes every function${out:+: $out}"

copy 'perl -0pi -e "s/^### config_cleanup\n.*?(?=^### )//ms; s/partmgr\.config_cleanup\(//g" doc/reference.md'
fails_with "doc/reference.md does not describe partmgr.config_cleanup()"
ok $? "a function whose section is gone fails, named"

copy 'printf "CREATE FUNCTION partmgr.brand_new() RETURNS void AS \$\$ \$\$ LANGUAGE sql;\n" > sql/pg_partmgr--0.7.0--0.8.0.sql'
fails_with "doc/reference.md does not describe partmgr.brand_new()"
ok $? "a function a new upgrade script creates fails until it is described"

copy 'printf "CREATE FUNCTION partmgr.brand_new() RETURNS void AS \$\$ \$\$ LANGUAGE sql;\n" > sql/pg_partmgr--0.7.0--0.8.0.sql; printf "DROP FUNCTION partmgr.brand_new();\n" > sql/pg_partmgr--0.8.0--0.9.0.sql'
perl "$check" "$work/tree" >/dev/null 2>&1
ok $? "a function dropped again by a later script is not asked for"

finish
