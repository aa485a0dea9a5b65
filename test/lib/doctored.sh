# Shared by the tests of pg_partmgr's tree checks (test/layers/run.sh,
# test/meta/run.sh): each runs its check on the tree, which must pass, and
# on copies doctored one way each, where it must fail with the line that
# says why.  Sourced after setting
#   top    the top of the tree
#   check  the check (a Perl script taking the directory to check)
#   files  what a copy holds: paths relative to top, files or directories
# It prints TAP; `finish` ends the script with its status.

work=$(mktemp -d /tmp/pg_partmgr_doctored.XXXXXX)
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

# a fresh copy of $files, changed by the command given
copy() {
	rm -rf "$work/tree"
	mkdir -p "$work/tree"
	(cd "$top" && cp -r --parents $files "$work/tree/")
	(cd "$work/tree" && eval "$1")
}

# runs the check on the copy; passes when it fails with the expected line
fails_with() {
	local out
	out=$(perl "$check" "$work/tree" 2>&1)
	[ $? -ne 0 ] && grep -qF -- "$1" <<<"$out"
}

finish() {
	echo "1..$n"
	[ "$bad" -eq 0 ]
}
