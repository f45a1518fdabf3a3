#!/usr/bin/env bash
# check-repeat.sh N [HOG [TEST...]] - runs the integration suite
# (tests/integration/run.sh), or only the tests named (t_verify ...), N
# times, each in a fresh temporary folder, and prints how many of the N
# runs each test passed (make check-repeat N=20 [HOG=1] [TESTS="..."]).
#
# HOG=1: one busy process (`dls load`) on every core for the whole time,
# the load of a shared CI machine.  A run's full output is kept in
# REPEAT_DIR/run-I.log (build/repeat); a test that failed keeps its folder
# under REPEAT_DIR/run-I/ (DLS_TEST_KEEP).  Exit status 0 only when every
# test passed every run.
#
# Environment: DLS_BIN_DIR, DLS_TEST_BIN_DIR, DLS_PREFIX, DLS_EXAMPLES_DIR
# as for run.sh; REPEAT_DIR (build/repeat).
set -u
N=${1:-20}
HOG=${2:-0}
shift 2 2>/dev/null || shift $#
tests=()
for t in "$@"; do
	[ -f "$(dirname "$0")/../tests/integration/$t.sh" ] || {
		echo "check-repeat: test '$t': no tests/integration/$t.sh" >&2
		exit 2
	}
	tests+=("tests/integration/$t.sh")
done
case $N in
'' | *[!0-9]* | 0)
	echo "check-repeat: N '$N': must be a positive integer" >&2
	exit 2
	;;
esac
case $HOG in
0 | 1) ;;
*)
	echo "check-repeat: HOG '$HOG': must be 0 or 1" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
: "${DLS_BIN_DIR:?set DLS_BIN_DIR to the folder holding dls}"
OUT=${REPEAT_DIR:-$here/build/repeat}
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

hogs=()
suite=""
stop_hogs() {
	[ ${#hogs[@]} -gt 0 ] && kill -TERM "${hogs[@]}" 2>/dev/null
	[ ${#hogs[@]} -gt 0 ] && wait "${hogs[@]}" 2>/dev/null
	hogs=()
}
# stopped: the running suite stops its tests (run.sh's trap), then the hogs
stop_all() {
	[ -n "$suite" ] && kill -TERM "$suite" 2>/dev/null && wait "$suite" 2>/dev/null
	stop_hogs
	exit 130
}
trap stop_hogs EXIT
trap stop_all INT TERM
if [ "$HOG" = 1 ]; then
	for _ in $(seq "$(nproc)"); do
		"$DLS_BIN_DIR/dls" load >/dev/null 2>&1 &
		hogs+=($!)
	done
	echo "check-repeat: ${#hogs[@]} busy processes (dls load), one a core"
fi

declare -A passes=() runs=()
t0=$SECONDS
for i in $(seq "$N"); do
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/dls-repeat-XXXXXX")
	mkdir -p "$OUT/run-$i"
	start=$SECONDS
	(cd "$here" && TMPDIR=$tmp DLS_TEST_KEEP=$OUT/run-$i tests/integration/run.sh \
		${tests[@]+"${tests[@]}"}) >"$OUT/run-$i.log" 2>&1 &
	suite=$!
	rc=0
	wait "$suite" || rc=$?
	suite=""
	while read -r verdict name _; do
		runs[$name]=$((${runs[$name]:-0} + 1))
		[ "$verdict" = PASS ] && passes[$name]=$((${passes[$name]:-0} + 1))
	done < <(grep -E '^(PASS|FAIL) ' "$OUT/run-$i.log")
	rmdir "$OUT/run-$i" 2>/dev/null
	left=$(find "$tmp" -mindepth 1 -maxdepth 1 | wc -l)
	rm -rf "$tmp"
	echo "run $i of $N: $(tail -1 "$OUT/run-$i.log") (exit $rc, $((SECONDS - start)) s$([ "$left" -gt 0 ] && echo ", $left entries left in its temporary folder"))"
done

echo
echo "each test's passes in $N runs$([ "$HOG" = 1 ] && echo ", a busy process on every core") ($((SECONDS - t0)) s):"
all=1
for name in $(printf '%s\n' "${!runs[@]}" | sort); do
	p=${passes[$name]:-0}
	printf '  %-28s %3d of %d\n' "$name" "$p" "${runs[$name]}"
	[ "$p" = "$N" ] && [ "${runs[$name]}" = "$N" ] || all=0
done
[ "$all" = 1 ] || echo "check-repeat: not every test passed every run: the logs are in $OUT"
[ "$all" = 1 ]
