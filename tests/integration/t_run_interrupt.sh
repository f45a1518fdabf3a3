#!/usr/bin/env bash
# Ctrl-C (SIGINT) on `dls run` stops every process it started: the master,
# the slaves and its private naming service; and when the master fails, the
# run stops and says where the logs are.
set -eu
. "$(dirname "$0")/lib.sh"

run=intr-$$
# the brackets keep the pattern from matching the shell that runs pgrep
pat="--run=[i]ntr-$$"
dls run --cluster C8 --width 2000 --height 1000 --t-iter 2000 --run $run --dir "$T/logs" \
	>"$T/run.log" 2>&1 &
RUN=$!
wait_for sh -c "pgrep -f -- '$pat' | wc -l | grep -qx 9"
kill -INT $RUN
rc=0
wait $RUN || rc=$?
expect_eq "exit status" "$rc" 130
grep -q "interrupted: stopping every process of run '$run'" "$T/run.log"
expect_eq "processes left" "$(pgrep -f -- "$pat" | wc -l)" 0
expect_eq "naming service left" "$(pgrep -f -- "-datadir $T/logs/names" | wc -l)" 0

# Ctrl-C at a terminal reaches the launcher's whole process group: the
# master and the hmasters die of it too, and none is resumed on the way out
pat3="--run=[i]ntr3-$$"
setsid dls run --cluster C8 --hmasters 2 --width 2000 --height 1000 --t-iter 2000 \
	--run intr3-$$ --dir "$T/logs3" >"$T/run3.log" 2>&1 &
RUN=$! # setsid, not a group leader here, runs dls run in this pid's new group
wait_for sh -c "pgrep -f -- '$pat3' | wc -l | grep -qx 11"
kill -INT -- -$RUN
rc=0
wait $RUN || rc=$?
expect_eq "exit status of the group's Ctrl-C" "$rc" 130
if grep -q "resuming" "$T/run3.log"; then
	fail "a process the interrupt killed was resumed: $(cat "$T/run3.log")"
fi
expect_eq "processes left after the group's Ctrl-C" "$(pgrep -f -- "$pat3" | wc -l)" 0

# without --dir, an interrupted run keeps its logs in its own folder and
# names it (they say what it did until then)
pat2="--run=[i]ntr2-$$"
dls run --cluster C8 --width 2000 --height 1000 --t-iter 2000 --run intr2-$$ \
	>"$T/run2.log" 2>&1 &
RUN=$!
wait_for sh -c "pgrep -f -- '$pat2' | wc -l | grep -qx 9"
kill -INT $RUN
rc=0
wait $RUN || rc=$?
expect_eq "exit status without --dir" "$rc" 130
kept=$(sed -n 's/^dls run: logs kept in \(.*\) (the run was interrupted)$/\1/p' "$T/run2.log")
[ -n "$kept" ] && [ -f "$kept/master.log" ] || fail "interrupted run: no log folder named: $(cat "$T/run2.log")"
rm -rf -- "$kept"

# A failed run keeps its logs in a folder of its own and names it ("logs in
# DIR"): this test removes the ones it made.
remove_kept_logs() {
	local dir
	dir=$(sed -n 's/.*; logs in \(.*\/dls-run-[A-Za-z0-9]*\)$/\1/p' "$1")
	expect_eq "kept log folder named in $1" "$([ -n "$dir" ] && [ -d "$dir" ] && echo yes)" yes
	rm -rf -- "$dir"
}

# a master that fails: the naming service given by --names does not exist
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rc=0
dls run --speeds 1,1 --width 400 --height 200 --names corbaname::127.0.0.1:$port --run fail-$$ --timeout 30 \
	>"$T/fail.log" 2>&1 || rc=$?
expect_eq "failed run exit status" "$rc" 1
grep -q "run 'fail-$$' failed (master exit 1); logs in" "$T/fail.log"
grep -q "cannot bind 'DLS/fail-$$/master' in the naming service" "$T/fail.log"
expect_eq "processes left after failure" "$(pgrep -f -- "--run=[f]ail-$$" | wc -l)" 0
remove_kept_logs "$T/fail.log"

# every slave fails at start-up (a dls-slave that exits at once, beside a
# copy of the other programs): the run stops instead of waiting forever
mkdir "$T/bin"
cp "$DLS_BIN_DIR"/dls "$DLS_BIN_DIR"/dls-master "$T/bin/"
printf '#!/bin/sh\necho "dls-slave: broken on purpose" >&2\nexit 1\n' >"$T/bin/dls-slave"
chmod +x "$T/bin/dls-slave"
rc=0
"$T/bin/dls" run --speeds 1,1 --run dead-$$ --timeout 60 >"$T/dead.log" 2>&1 || rc=$?
expect_eq "exit status when every slave died" "$rc" 1
grep -q "every slave of run 'dead-$$' has exited and the master is still waiting" "$T/dead.log"
grep -q "broken on purpose" "$T/dead.log"
expect_eq "processes left after dead slaves" "$(pgrep -f -- "--run=[d]ead-$$" | wc -l)" 0
remove_kept_logs "$T/dead.log"
