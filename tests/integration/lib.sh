# lib.sh - helpers sourced by the integration tests.
# expect_eq WHAT GOT WANT: fail with both values when they differ.
expect_eq() {
	if [ "$2" != "$3" ]; then
		printf 'FAILED %s\n  got:  %s\n  want: %s\n' "$1" "$2" "$3" >&2
		exit 1
	fi
}

# fail WHAT: the test fails, saying what.
fail() {
	printf 'FAILED %s\n' "$*" >&2
	exit 1
}

# expect_usage_error PATTERN CMD...: CMD must exit 2 with one line matching
# PATTERN on stderr (program, option, value, cause).
expect_usage_error() {
	local pattern=$1 out rc
	shift
	out=$("$@" 2>&1 >/dev/null) && rc=0 || rc=$?
	if [ "$rc" -ne 2 ]; then
		printf 'FAILED %s: exit %s, want 2\n%s\n' "$*" "$rc" "$out" >&2
		exit 1
	fi
	if ! printf '%s\n' "$out" | head -1 | grep -qE -- "$pattern"; then
		printf 'FAILED %s: first line does not match %s\n%s\n' "$*" "$pattern" "$out" >&2
		exit 1
	fi
}

# expand "125x4 62x2" -> "125 125 125 125 62 62"
expand() {
	local out="" tok n v
	for tok in $1; do
		v=${tok%x*}
		n=1
		[ "$v" != "$tok" ] && n=${tok#*x}
		for _ in $(seq "$n"); do out="$out $v"; done
	done
	echo "${out# }"
}

# --- processes ---------------------------------------------------------------
# Every test works in its own folder.  It runs under tests/tools/subreaper
# (run.sh), so every process it started stays in its process tree
# (procs.sh).  At its end the library stops the naming service, gives the
# rest LINGER_S seconds to end by themselves, then stops what is left: on a
# test that passed, each such survivor fails it, named by its command line.
# A test stops what it means to leave running (stop_procs).
. "$(dirname "${BASH_SOURCE[0]}")/procs.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/dls-test-XXXXXX")
NS_DIR=""
CLEANUP_HOOK=""	# a test's own cleanup (network namespaces), run first
LINGER_S=10
cleanup() {
	local rc=$? left
	trap - EXIT INT TERM
	set +e # the clean-up runs to its end whatever fails in it (a test's
	# set -e would end the shell at the first failure and leave its folder)
	[ -n "$CLEANUP_HOOK" ] && $CLEANUP_HOOK
	[ -n "$NS_DIR" ] && dls names stop --dir "$NS_DIR" >/dev/null 2>&1
	if [ "$rc" -eq 0 ]; then
		# shellcheck disable=SC2046 # one PID a word
		await_death "$LINGER_S" $(descendants $$) || true
	fi
	left=$(descendants $$)
	if [ -n "$left" ]; then
		if [ "$rc" -eq 0 ]; then
			echo "FAILED the test left processes running ($LINGER_S s after its end):" >&2
			rc=1
		else
			echo "processes still running when the test failed (stopped now):" >&2
		fi
		# shellcheck disable=SC2086
		describe_procs $left >&2
		# shellcheck disable=SC2086
		stop_procs $left || {
			echo "FAILED processes that outlived SIGKILL:" >&2
			describe_procs $left >&2
		}
	fi
	if [ "$rc" -ne 0 ]; then
		for f in "$T"/*.log; do [ -f "$f" ] && { echo "---- $f"; cat "$f"; }; done
		# the processes' own logs under dls run --dir: their warnings and errors
		for f in "$T"/*/*.log; do
			[ -f "$f" ] || continue
			grep -E " (warn|error|err): |refused|lost" "$f" 2>/dev/null | tail -n 15 |
				sed "s|^|$(basename "$(dirname "$f")")/$(basename "$f"): |" || true
		done
		# DLS_TEST_KEEP=DIR: the failed test's whole folder is kept there
		[ -n "${DLS_TEST_KEEP:-}" ] && cp -a "$T" "$DLS_TEST_KEEP/" 2>/dev/null
	fi
	rm -rf "$T"
	exit "$rc"
}
trap cleanup EXIT INT TERM

# kill_wait SIGNAL PID...: signals each PID and returns once each has exited,
# so that what its death releases (a journal's lock, a port, a name in the
# naming service) is free for what the test does next; fails the test when
# one still lives 10 s later.
kill_wait() {
	local sig=$1 p
	shift
	for p; do kill -"$sig" "$p" 2>/dev/null || true; done
	if ! await_death 10 "$@"; then
		echo "FAILED still running 10 s after SIG$sig:" >&2
		describe_procs "$@" >&2
		exit 1
	fi
}

# start_names: a private omniNames on a free loopback port; sets NS (the
# -ORBInitRef option) and NS_ADDR.
start_names() {
	NS_DIR=$T/names
	NS_ADDR=$(dls names start --dir "$NS_DIR")
	NS="-ORBInitRef NameService=$NS_ADDR"
}

EP="-ORBendPoint giop:tcp:127.0.0.1:"

# spawn LOG CMD...: starts CMD in the background under a time limit; LAST_PID
# is its `timeout` wrapper's PID (wait on it for CMD's exit status).
spawn() {
	local log=$1
	shift
	timeout --kill-after=5 120 "$@" >"$T/$log.log" 2>&1 &
	LAST_PID=$!
}

# wait_ok WHAT PID...: each PID (a child of the test) must exit 0.
wait_ok() {
	local what=$1 p rc
	shift
	for p; do
		rc=0
		wait "$p" || rc=$?
		expect_eq "$what" "$rc" 0
	done
}

# wait_for CMD...: retry CMD for up to 10 s.
wait_for() {
	for _ in $(seq 100); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
	echo "FAILED waiting for: $*" >&2
	exit 1
}

# reference W H [MAXIT]: the sequential image as $T/ref-W-H.pgm
reference() {
	dls mandel --width "$1" --height "$2" --maxit "${3:-256}" --raw "$T/ref-$1-$2.pgm" >/dev/null
	echo "$T/ref-$1-$2.pgm"
}

# same_image A B: the images must be identical column by column.
same_image() {
	local out
	if ! out=$(dls compare "$1" "$2"); then
		echo "FAILED image differs: $out" >&2
		exit 1
	fi
}

# exact_run NAME ARGS...: dls run of an 800x400 image with ARGS that must
# reproduce $REF (set it with reference 800 400); its report in $T/NAME.log,
# JSON in $T/NAME.json, logs in $T/logs-NAME.
exact_run() {
	local name=$1
	shift
	dls run --width 800 --height 400 --raw "$T/$name.pgm" --json "$T/$name.json" \
		--dir "$T/logs-$name" "$@" >"$T/$name.log" 2>&1 || { cat "$T/$name.log"; exit 1; }
	same_image "$T/$name.pgm" "$REF"
	echo "ok $name"
}

# two_at_once CMD...: runs the test step CMD (a function or program whose
# outcome depends on nothing timed, e.g. exact_run) in the background, at
# most two at once; steps_done waits for the rest.  A step that fails fails
# the test at the next two_at_once or steps_done, its output shown.
STEPS=""
two_at_once() {
	local out
	[ "$(echo $STEPS | wc -w)" -lt 2 ] || step_wait_first
	out=$(mktemp "$T/step.XXXXXX")
	("$@") >"$out" 2>&1 &
	STEPS="$STEPS $!:$out"
}
step_wait_first() {
	local first
	STEPS=${STEPS# }
	first=${STEPS%% *}
	STEPS=${STEPS#"$first"}
	if ! wait "${first%%:*}"; then
		cat "${first#*:}"
		echo "FAILED a step run in the background (above)" >&2
		exit 1
	fi
	cat "${first#*:}"
}
steps_done() {
	while [ -n "${STEPS// /}" ]; do step_wait_first; done
}

# json_get FILE KEY: a top-level number or string of the run's JSON summary.
json_get() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}
