#!/usr/bin/env bash
# Runs every tests/integration/t_*.sh (or those named), each under a time
# limit, DLS_TEST_JOBS of them at once (default 3: the tests mostly wait on
# emulated work, 160 s of CPU in 540 s of tests; each has its own naming
# service, folders and, for t_hosts, namespaces), the longest first so that
# the last ones to end are short, and ends with "N passed, N failed".  Each PASS or FAIL line comes as its test ends, a failure with
# that test's output.  DLS_BIN_DIR names the programs, DLS_TEST_BIN_DIR the
# test programs (tests/tools/subreaper among them).
#
# The suite and each test run as child subreapers (procs.sh): every process
# a test starts stays in its tree, the test's end stops and names what it
# left (lib.sh), and the suite ends by failing on any process it started
# that is still alive.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${DLS_BIN_DIR:?set DLS_BIN_DIR to the folder holding dls}"
: "${DLS_TEST_BIN_DIR:?set DLS_TEST_BIN_DIR to the folder holding subreaper}"
reaper=$DLS_TEST_BIN_DIR/subreaper
[ -x "$reaper" ] || { echo "run.sh: no '$reaper': make builds it" >&2; exit 2; }
if [ "${DLS_SUITE_REAPER:-}" != $$ ]; then
	# bash keeps its PID across the exec: the suite's shell is the reaper
	export DLS_SUITE_REAPER=$$
	exec "$reaper" bash "$0" "$@"
fi
. "$here/procs.sh"
# stopped (Ctrl-C, or check-repeat stopped): every test stops with it
# shellcheck disable=SC2046 # one PID a word
trap 'stop_procs $(descendants $$); exit 130' INT TERM
export DLS_BIN_DIR PATH="$DLS_BIN_DIR:$PATH"
# a test's limit: its longest (t_hdtss: 16 runs, 1-2 minutes alone) took
# over 300 s once when two suites shared a loaded 2-core machine; the limit
# is there to stop a hang, not to time a test
limit=${DLS_TEST_TIMEOUT:-600}
jobs=${DLS_TEST_JOBS:-3}
case $jobs in
'' | *[!0-9]* | 0)
	echo "run.sh: DLS_TEST_JOBS '$jobs': must be a positive integer" >&2
	exit 2
	;;
esac
passed=0 failed=0 failures=""
# the tests that take longest alone (40-70 s each on a 2-core machine),
# started first; the others follow in order of name
longest=(t_hdtss t_hostile t_hosts t_hang_and_names t_piles t_resume t_run_schemes)
if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=()
	for t in "${longest[@]}"; do tests+=("$here/$t.sh"); done
	for t in "$here"/t_*.sh; do
		[[ " ${longest[*]} " == *" $(basename "$t" .sh) "* ]] || tests+=("$t")
	done
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
declare -A name_of=() start_of=()

# one test, under its limit; its exit status is the test's
one() { timeout --kill-after=10 "$limit" "$reaper" bash "$1" >"$logs/$2.log" 2>&1; }

# waits for one running test and says how it went
reap_one() {
	local pid rc=0 name
	wait -n -p pid || rc=$?
	name=${name_of[$pid]}
	unset "name_of[$pid]"
	if [ "$rc" -eq 0 ]; then
		echo "PASS $name ($(($(date +%s) - start_of[$name]))s)"
		passed=$((passed + 1))
	else
		echo "FAIL $name (exit $rc, $(($(date +%s) - start_of[$name]))s)"
		sed 's/^/    /' "$logs/$name.log"
		failed=$((failed + 1))
		failures="$failures $name"
	fi
}

for t in "${tests[@]}"; do
	[ "${#name_of[@]}" -ge "$jobs" ] && reap_one
	name=$(basename "$t" .sh)
	start_of[$name]=$(date +%s)
	one "$t" "$name" &
	name_of[$!]=$name
done
while [ "${#name_of[@]}" -gt 0 ]; do reap_one; done

# what a test left that its own end did not stop (a test killed past its
# limit ends without its cleanup): named, stopped, and the suite fails
left=$(descendants $$)
if [ -n "$left" ]; then
	echo "FAIL leftovers (processes the suite started are still running)"
	# shellcheck disable=SC2086 # one PID a word
	describe_procs $left
	# shellcheck disable=SC2086
	stop_procs $left
	failed=$((failed + 1))
	failures="$failures leftovers"
fi
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
