#!/usr/bin/env bash
# A slave whose computation hangs while its ORB still answers: a real
# dls-slave whose main thread, the one that computes, is frozen alone
# (tests/tools/freeze_main: a ptrace stop of that thread) while it
# computes its first chunk, with the stall watch off.  Once the scheme has nothing left, the
# idle slaves' requests find its chunk has not advanced for far longer than
# its pace allows (at least 3 s): it is declared a straggler, lost, and its
# work computed by the others.  The image is exact; the run ends within
# seconds of the others' last chunk, not at --stall-ms.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
REF=$(reference 400 200)
spawn master dls-master --run st --slaves 3 --width 400 --height 200 --scheme gss --stall-ms 0 \
	--raw "$T/st.pgm" --json "$T/st.json" $NS $EP
M=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/st | grep -qx master"
for i in 0 1; do
	spawn s$i dls-slave --run st --name s$i --t-iter 3000 $NS $EP
done
DLS_LOG_LEVEL=info spawn frozen "$DLS_TEST_BIN_DIR/freeze_main" dls-slave --run st --name s2 \
	--t-iter 3000 $NS $EP
FZ=$LAST_PID
# frozen once it computes its first chunk (registered, then a moment)
wait_for grep -q "registered as slave" "$T/frozen.log"
sleep 0.5
kill -USR2 "$(pgrep -P "$FZ" -x freeze_main)"
t0=$SECONDS
rc=0
wait "$M" || rc=$?
took=$((SECONDS - t0))
if grep -q "cannot freeze" "$T/frozen.log"; then
	kill_wait TERM "$FZ"
	echo "skip: this kernel forbids ptrace, so no thread can be frozen alone: $(cat "$T/frozen.log")"
	exit 0
fi
expect_eq "the master's exit" "$rc" 0
grep -q "^frozen " "$T/frozen.log" || fail "the slave was not frozen: $(cat "$T/frozen.log")"
same_image "$T/st.pgm" "$REF"
grep -q "slave [0-2] 's2' lost (a straggler: its chunk \[[0-9]*, +[0-9]*) stayed at [0-9]* computed for [0-9.]* s, where its pace" \
	"$T/master.log" || fail "no straggler found: $(grep -i "lost\|took back" "$T/master.log")"
[ "$took" -lt 60 ] || fail "the run took $took s"
kill_wait TERM "$FZ"
echo "ok a dls-slave frozen in its first chunk while its ORB answers: found a straggler, image exact, the run over $took s later"
