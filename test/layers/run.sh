#!/usr/bin/env bash
#
# Tests of .ci/check-layers: it passes on the tree as it is, and fails --
# naming the file and the layers -- on copies of src/ where one include goes
# upward (the executor including a job's header), where two files of one
# layer include each other, and where a file is in no layer of README.md.
#
#   bash test/layers/run.sh
#
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/.ci/check-layers
files="README.md src"
. "$top/test/lib/doctored.sh"

perl "$check" "$top" >/dev/null
ok $? "the tree keeps to README.md's layers"

copy 'sed -i "s|^#include \"work.h\"$|#include \"work.h\"\n#include \"setup.h\"|" src/execute.c'
fails_with 'src/execute.c (what / how) includes setup.h, of a higher layer (jobs)'
ok $? "an upward include fails, naming the file and both layers"

copy 'echo "#include \"children.h\"" >> src/plan.h'
fails_with 'include cycle: children.c -> plan.c -> children.c'
ok $? "an include back into the layer above fails"

copy 'printf "#include \"execute.h\"\n" >> src/work.h'
fails_with 'include cycle: execute.c -> work.c -> execute.c'
ok $? "two files of one layer including each other fail"

copy 'printf "/* nothing */\n" > src/stray.c'
fails_with 'src/stray.c: in no layer of README.md'"'"'s table'
ok $? "a file in no layer fails"

finish
