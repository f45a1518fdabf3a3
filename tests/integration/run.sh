#!/usr/bin/env bash
# Runs every tests/integration/t_*.sh (or those named), each under a time
# limit, and ends with "N passed, N failed".  DLS_BIN_DIR names the programs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${DLS_BIN_DIR:?set DLS_BIN_DIR to the folder holding dls}"
export DLS_BIN_DIR PATH="$DLS_BIN_DIR:$PATH"
limit=${DLS_TEST_TIMEOUT:-300}
passed=0 failed=0 failures=""
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/t_*.sh); fi
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	log=$(mktemp)
	start=$(date +%s)
	if timeout --kill-after=10 "$limit" bash "$t" >"$log" 2>&1; then
		echo "PASS $name ($(( $(date +%s) - start ))s)"
		passed=$((passed + 1))
	else
		rc=$?
		echo "FAIL $name (exit $rc, $(( $(date +%s) - start ))s)"
		sed 's/^/    /' "$log"
		failed=$((failed + 1))
		failures="$failures $name"
	fi
	rm -f "$log"
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
