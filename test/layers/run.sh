#!/usr/bin/env bash
#
# Tests of .ci/check-layers: it passes on the tree as it is, and fails --
# naming the file and the layers -- on copies of src/ where one include goes
# upward (the executor including a job's header), where two files of one
# layer include each other, where a file is in no layer's folder, and where
# two layers have a header of one name.
#
#   bash test/layers/run.sh
#
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/.ci/check-layers
files="Makefile src"
. "$top/test/lib/doctored.sh"

perl "$check" "$top" >/dev/null
ok $? "the tree keeps to the layers of src/"

copy 'sed -i "s|^#include \"work.h\"$|#include \"work.h\"\n#include \"setup.h\"|" src/actions/execute.c'
fails_with 'src/actions/execute.c (actions) includes setup.h, of a higher layer (jobs)'
ok $? "an upward include fails, naming the file and both layers"

copy 'echo "#include \"children.h\"" >> src/actions/plan.h'
fails_with 'include cycle: actions/plan -> jobs/children -> actions/plan'
ok $? "an include back into the layer above fails"

copy 'printf "#include \"execute.h\"\n" >> src/actions/work.h'
fails_with 'include cycle: actions/execute -> actions/work -> actions/execute'
ok $? "two files of one layer including each other fail"

copy 'printf "/* nothing */\n" > src/stray.c'
fails_with 'src/stray.c: in no layer'
ok $? "a file at the top of src/ fails"

copy 'mkdir src/misc && printf "/* nothing */\n" > src/misc/stray.c'
fails_with 'src/misc/stray.c: in no layer'
ok $? "a file in a folder that is no layer fails"

copy 'printf "#if PG_VERSION_NUM >= 190000\n#endif\n" >> src/jobs/retention.c'
fails_with 'src/jobs/retention.c tests PG_VERSION_NUM at line'
ok $? "a version test outside base/compat.h fails, naming the file"

copy 'printf "/* nothing */\n" > src/api/locks.h'
fails_with 'header locks.h is both src/api/locks.h and src/base/locks.h'
ok $? "a header name used in two layers fails"

finish
