# procs.sh - the processes a test (or the suite) started, found through the
# process tree.  Sourced by lib.sh and run.sh.  Each test, and run.sh
# itself, runs under tests/tools/subreaper: an orphan among a shell's
# descendants (a server whose `timeout` wrapper was killed, omniNames after
# `dls names start` returned) is re-parented to that shell, so its tree holds
# every process it started, whatever wrapper started it.

# descendants ROOT: the PIDs of ROOT's live descendants, one a line (zombies
# and the listing's own processes left out).
descendants() {
	local self=$BASHPID # this function's shell: the listing's processes are below it
	ps -e -o pid=,ppid=,stat= | awk -v root="$1" -v self="$self" '
		$3 !~ /^Z/ { kids[$2] = kids[$2] " " $1 }
		END {
			tail = split(kids[root], queue, " ")
			for (head = 1; head <= tail; head++) {
				p = queue[head]
				if (p == self)
					continue
				print p
				n = split(kids[p], c, " ")
				for (i = 1; i <= n; i++)
					queue[++tail] = c[i]
			}
		}'
}

# proc_gone PID: true once PID has exited (gone, or a zombie its parent has
# not reaped yet: its files, locks and ports are released either way).
proc_gone() {
	local state
	[ -e "/proc/$1" ] || return 0
	state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}

# describe_procs PID...: one line each, "  PID (parent PPID): its command line".
describe_procs() {
	local p cmd parent
	for p; do
		proc_gone "$p" && continue
		# (it may end meanwhile: its /proc files go, which is no error here)
		cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) || true
		parent=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null) || true
		echo "  $p (parent ${parent:-?}): ${cmd:-[$(cat "/proc/$p/comm" 2>/dev/null)]}"
	done
}

# await_death SECONDS PID...: waits until every PID has exited (a child of
# this shell is reaped), at most SECONDS in all; false if one still lives.
await_death() {
	local p deadline=$((SECONDS + $1))
	shift
	for p; do
		while ! proc_gone "$p"; do
			[ "$SECONDS" -ge "$deadline" ] && return 1
			sleep 0.05
		done
		wait "$p" 2>/dev/null || true
	done
	return 0
}

# stop_procs PID...: SIGTERM, then after 3 s SIGKILL for what still lives;
# returns once every one of them has exited.
stop_procs() {
	local p
	[ $# -gt 0 ] || return 0
	for p; do kill -TERM "$p" 2>/dev/null || true; done
	await_death 3 "$@" && return 0
	for p; do proc_gone "$p" || kill -KILL "$p" 2>/dev/null || true; done
	await_death 10 "$@"
}
