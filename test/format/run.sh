#!/usr/bin/env bash
#
# Tests of .ci/pgindent --check: it passes on the tree as it is, and fails --
# naming the file, or the typedef -- on copies where a line is formatted
# otherwise than pgindent formats it, and where a new typedef is missing
# from .ci/typedefs.list.
#
#   bash test/format/run.sh
#
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/test/format/check
files="src .ci"
. "$top/test/lib/doctored.sh"

perl "$top/.ci/pgindent" --check "$top" >/dev/null 2>&1
ok $? "the tree is formatted"

copy 'sed -i "0,/^\tListCell   \*lc;$/s//\tListCell *lc;/" src/actions/work.c'
fails_with 'not formatted (perl .ci/pgindent rewrites it): src/actions/work.c'
ok $? "a declaration aligned otherwise fails, naming the file"

copy 'printf "typedef struct BrandNew\n{\n\tint\t\t\tx;\n} BrandNew;\n" >> src/base/locks.h'
fails_with 'typedef missing from .ci/typedefs.list: BrandNew'
ok $? "a typedef missing from the list fails, naming it"

finish
