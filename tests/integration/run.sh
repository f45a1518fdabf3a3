#!/usr/bin/env bash
# Runs every tests/integration/t_*.sh (or those named), each under a time
# limit, DLS_TEST_JOBS of them at once (default 2: the tests mostly wait on
# emulated work, 190 s of CPU in 470 s; each has its own naming service,
# folders and, for t_hosts, namespaces), and ends with "N passed, N
# failed".  Each PASS or FAIL line comes as its test ends, a failure with
# that test's output.  DLS_BIN_DIR names the programs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${DLS_BIN_DIR:?set DLS_BIN_DIR to the folder holding dls}"
export DLS_BIN_DIR PATH="$DLS_BIN_DIR:$PATH"
limit=${DLS_TEST_TIMEOUT:-300}
jobs=${DLS_TEST_JOBS:-2}
case $jobs in
'' | *[!0-9]* | 0)
	echo "run.sh: DLS_TEST_JOBS '$jobs': must be a positive integer" >&2
	exit 2
	;;
esac
passed=0 failed=0 failures=""
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/t_*.sh); fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
declare -A name_of=() start_of=()

# one test, under its limit; its exit status is the test's
one() { timeout --kill-after=10 "$limit" bash "$1" >"$logs/$2.log" 2>&1; }

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
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
