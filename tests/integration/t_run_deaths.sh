#!/usr/bin/env bash
# Under `dls run`: the naming service dying after every process found its
# master does not end the run (nothing needs it any more; the image stays
# exact); a master killed with -9 in a run without its journal makes `dls
# run` exit 1 naming the signal, and it stops everything it started (with
# the journal, dls run resumes it: t_resume.sh).  (DLS_LOG_LEVEL=info: the master logs
# when scheduling starts, after every slave registered.)
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
run=names-$$
DLS_LOG_LEVEL=info dls run --speeds 1,1,2,2 --scheme dtss --width 800 --height 400 --t-iter 3000 --run $run \
	--dir "$T/r1" --raw "$T/r1.pgm" --no-progress >"$T/r1.log" 2>&1 &
RUN=$!
PIDS="$PIDS $RUN"
wait_for grep -q "scheduling starts" "$T/r1/master.log"
NAMES=$(pgrep -P $RUN -x omniNames)
kill -KILL $NAMES
rc=0
wait $RUN || rc=$?
expect_eq "exit status after the naming service died" "$rc" 0
grep -q "the naming service stopped (exit 137); the run goes on" "$T/r1.log"
same_image "$T/r1.pgm" "$REF"

run=master-$$
DLS_LOG_LEVEL=info dls run --speeds 1,1,2,2 --scheme dtss --width 800 --height 400 --t-iter 3000 --run $run \
	--dir "$T/r2" --no-progress --no-journal >"$T/r2.log" 2>&1 &
RUN=$!
PIDS="$PIDS $RUN"
wait_for grep -q "scheduling starts" "$T/r2/master.log"
MASTER=$(pgrep -P $RUN -x dls-master)
kill -KILL $MASTER
rc=0
wait $RUN || rc=$?
expect_eq "exit status after the master died" "$rc" 1
grep -q "the master of run '$run' died of signal 9" "$T/r2.log"
expect_eq "processes left" "$(pgrep -f -- "--run=[m]aster-$$" | wc -l)" 0

# a slave that never starts (killed at 10 ms): dls run withdraws it (dls
# withdraw, the run's secret), so the master, or the coordinator, stops
# waiting for it rather than waiting out its window of 30 s (--timeout 20
# would end the run), and the start gate weighs every other first request
for scheme in dtss trees; do
	DLS_LOG_LEVEL=info exact_run nostart-$scheme --cluster C8 --scheme $scheme --kill 3@0.01 \
		--timeout 20
	grep -qx "run 'run-.*': 'slave.3' withdrawn" "$T/logs-nostart-$scheme/withdraw.slave.3.log"
done
grep -q "scheduling starts with 7 of 7 first requests" "$T/logs-nostart-dtss/master.log"
# below hmasters (they take no withdrawal) the run waits out the window;
# each level of hmasters closes its own before its parent's, so only that
# slave is missing: before, its hmaster came too late and its three live
# slaves sat out the run (BENCHMARKS.md 23)
for mode in twolevel relay; do
	DLS_LOG_LEVEL=info exact_run nostart-$mode --cluster C8 --hmasters 2 --hmode $mode \
		--kill 3@0.01 --register-window-ms 5000 --no-journal
	if [ $mode = twolevel ]; then want="scheduling starts with 2 of 2 first requests"; else
		want="scheduling starts with 7 of 7 first requests"; fi
	grep -q "$want" "$T/logs-nostart-$mode/master.log" ||
		{ cat "$T/logs-nostart-$mode/master.log"; echo "FAILED no '$want'" >&2; exit 1; }
done
expect_usage_error "^dls run: --register-window-ms '5': must be an integer" \
	dls run --cluster C8 --register-window-ms 5
