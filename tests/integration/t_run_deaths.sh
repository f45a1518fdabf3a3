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
wait_for grep -q "scheduling starts" "$T/r1/master.log"
NAMES=$(pgrep -P $RUN -x omniNames)
kill_wait KILL $NAMES
rc=0
wait $RUN || rc=$?
expect_eq "exit status after the naming service died" "$rc" 0
grep -q "the naming service stopped (exit 137); the run goes on" "$T/r1.log"
same_image "$T/r1.pgm" "$REF"

run=master-$$
DLS_LOG_LEVEL=info dls run --speeds 1,1,2,2 --scheme dtss --width 800 --height 400 --t-iter 3000 --run $run \
	--dir "$T/r2" --no-progress --no-journal >"$T/r2.log" 2>&1 &
RUN=$!
wait_for grep -q "scheduling starts" "$T/r2/master.log"
MASTER=$(pgrep -P $RUN -x dls-master)
kill_wait KILL $MASTER
rc=0
wait $RUN || rc=$?
expect_eq "exit status after the master died" "$rc" 1
grep -q "the master of run '$run' died of signal 9" "$T/r2.log"
expect_eq "processes left" "$(pgrep -f -- "--run=[m]aster-$$" | wc -l)" 0

# a slave that never starts (--no-start: launched from a missing program, as
# with a wrong path; a kill at 10 ms came after its registration on a quick
# machine): dls run withdraws it (dls
# withdraw, the run's secret) at every parent that counts it, so the run
# starts once the others are in rather than waiting out the registration
# window of 30 s (--timeout 20 would end the run), the start gate weighing
# every other first request: the master or coordinator; under hmasters
# each one above the slave (which count the slaves below them) and, in
# relay mode, the master (which counts every slave)
nostart() { # name, the start line the master logs, dls run's options
	local name=$1 want=$2
	shift 2
	DLS_LOG_LEVEL=info exact_run nostart-$name --cluster C8 --no-start 3 --timeout 20 "$@"
	grep -q "$want" "$T/logs-nostart-$name/master.log" ||
		{ cat "$T/logs-nostart-$name/master.log"; echo "FAILED no '$want'" >&2; exit 1; }
	cat "$T/logs-nostart-$name"/withdraw.slave.3.log | grep -q "'slave.3' withdrawn"
}
nostart dtss "scheduling starts with 7 of 7 first requests" --scheme dtss
nostart trees "'slave.3' withdrawn before it registered" --scheme trees
nostart twolevel "scheduling starts with 2 of 2 first requests" --hmasters 2,4 --hmode twolevel
grep -q "'slave.3' withdrawn below this hmaster" "$T/logs-nostart-twolevel/hmaster.1.3.log"
nostart relay "scheduling starts with 7 of 7 first requests" --hmasters 2 --hmode relay
grep -q "'slave.3' withdrawn below this hmaster" "$T/logs-nostart-relay/hmaster.0.1.log"
grep -q "dls run: drill: slave.3 launched from .*/dls-slave.no-start-drill, which does not exist" \
	"$T/nostart-relay.log"
expect_usage_error "^dls run: --no-start 'slave.x': a slave's name is slave.N" dls run --no-start slave.x
expect_usage_error "^dls run: --no-start: names slave 8 of a cluster of 8" \
	dls run --cluster C8 --no-start 8
expect_usage_error "^dls run: --register-window-ms '5': must be an integer" \
	dls run --cluster C8 --register-window-ms 5
