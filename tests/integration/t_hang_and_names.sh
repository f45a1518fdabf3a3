#!/usr/bin/env bash
# Servants launched by hand through a private naming service: they are listed
# while they run and gone after.  A slave that hangs (SIGSTOP) while holding
# a chunk is declared lost when it stops answering pings, its chunk goes to
# another slave, and the image is exact; resumed, it is taken back (the
# results of the chunk it lost are dropped), works on and exits 0.
# A master whose --timeout passes during registration ends at once; a
# slave whose registration call timed out and asks again gets its place
# back, not a second one, from every kind of parent.  A master that stops
# answering (SIGSTOP) is waited out by its slaves and by a two-level
# hmaster, past their call timeout and rejoin window.  A slave lost below a
# two-level hmaster (or a relay) and resumed is taken back.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
REF=$(reference 600 300)
spawn master dls-master --run hang --slaves 3 --width 600 --height 300 --scheme tss \
	--ping-ms 100 --ping-timeout-ms 500 --raw "$T/hang.pgm" --json "$T/hang.json" $NS $EP
MASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/hang | grep -qx master"
# s0's name needs escaping in the JSON report
for i in 0 1 2; do
	name=s$i
	[ $i = 0 ] && name='s"0\'
	spawn slave$i dls-slave --run hang --name "$name" --speed $((i + 1)) --t-iter 1500 $NS $EP
	eval SLAVE$i=\$LAST_PID
done
wait_for sh -c "nameclt $NS list DLS/hang | grep -c '^slave\.' | grep -qx 3"
nameclt $NS list DLS/hang | sort >"$T/names-running.txt"
expect_eq "names while running" "$(tr '\n' ' ' <"$T/names-running.txt")" \
	"master slave.0 slave.1 slave.2 "
# hang the fastest slave while it computes
sleep 0.3
pkill -STOP -P "$SLAVE2" # the slave under its timeout wrapper
wait_for grep -q "slave [0-9] 's2' lost" "$T/master.log"
# resumed while the run goes on, it is taken back: its old chunk went to
# others, its results of it are dropped, it is served fresh
pkill -CONT -P "$SLAVE2"
wait "$SLAVE2"
wait "$MASTER"
same_image "$T/hang.pgm" "$REF"
grep -q "slave [0-9] 's2' called again after it was declared lost: taken back" "$T/master.log"
grep -q "slave [0-9] sent results of [0-9]* iterations it held before it was lost: dropped" \
	"$T/master.log"
wait "$SLAVE0"
wait "$SLAVE1"
expect_eq "names after the run" "$(nameclt $NS list DLS/hang | tr '\n' ' ')" ""
python3 - "$T/hang.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
names = sorted(p["name"] for p in run["pes"])
assert names == ['s"0\\', "s1", "s2"], names
PY
echo "ok a hung slave is lost, its chunk recomputed, taken back when it resumes, the image exact"

# --- a master whose --timeout passes while a registration waits for the
# others ends then (not when the 30 s window would close), and the waiting
# slave is told why.  (--timeout counts from the master's start: 8 s, so
# that it is bound and the slave registers first even on a saturated host
# under the sanitizers.)
spawn tmaster dls-master --run to --slaves 2 --width 200 --height 100 --timeout 8 \
	--register-timeout-ms 30000 $NS $EP
TMASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/to | grep -qx master"
spawn tslave dls-slave --run to --name s0 $NS $EP
TSLAVE=$LAST_PID
t0=$(date +%s)
rc=0
wait "$TMASTER" || rc=$?
expect_eq "master exit after its --timeout" "$rc" 1
rc=0
wait "$TSLAVE" || rc=$?
took=$(( $(date +%s) - t0 ))
[ "$took" -lt 20 ] || { echo "the master took $took s to end after its --timeout of 8 s" >&2; exit 1; }
expect_eq "waiting slave's exit" "$rc" 1
grep -q "passed while waiting for slaves to register (1 in): giving up" "$T/tmaster.log"
grep -q "refused: the run is over: the master is closing" "$T/tslave.log"
echo "ok --timeout during registration: the master ends in $took s, the waiting slave is refused with the reason"

# --- a slave whose registration call times out (its --register-timeout-ms
# shorter than the wait for the last slave) asks again: its parent (a
# master, Tree Scheduling's coordinator, or an hmaster in either mode)
# answers the same process with the same place, and the run ends exact.
# Before, each attempt took a place of its own, and the last slave was
# refused as one too many (the run's ghost places never asked for work).
REF2=$(reference 200 100)
for role in master treesched relay twolevel; do
	run=ra-$role parent="--master master" log=$role extra=""
	case $role in
	treesched) parent="--coordinator treesched" ;;
	relay | twolevel) parent="--master hmaster.0.0" log=hm-$role ;;
	esac
	case $role in
	treesched) spawn $role dls-treesched --run $run --slaves 2 --width 200 --height 100 \
		--raw "$T/ra.pgm" $NS $EP ;;
	relay) extra="--slaves 2" ;;
	twolevel) extra="--slaves 1 --scheme dtss" ;;
	esac
	if [ $role != treesched ]; then
		# shellcheck disable=SC2086 # options
		spawn $role dls-master --run $run ${extra:---slaves 2} --width 200 --height 100 \
			--raw "$T/ra.pgm" $NS $EP
	fi
	RAPARENT=$LAST_PID
	PROCS=$RAPARENT
	wait_for sh -c "nameclt $NS list DLS/$run | grep -Eqx 'master|treesched'"
	if [ $log != $role ]; then
		spawn $log dls-hmaster --run $run --name hmaster.0.0 --mode $role --slaves 2 $NS $EP
		PROCS="$PROCS $LAST_PID"
		wait_for sh -c "nameclt $NS list DLS/$run | grep -q '^hmaster'"
	fi
	# shellcheck disable=SC2086 # two words
	spawn ra-$role-a dls-slave --run $run $parent --name a --register-timeout-ms 500 \
		--t-iter 1000 $NS $EP
	PROCS="$PROCS $LAST_PID"
	wait_for grep -q "'a' registered again by the same process" "$T/$log.log"
	# shellcheck disable=SC2086
	spawn ra-$role-b dls-slave --run $run $parent --name b --t-iter 1000 $NS $EP
	for p in $PROCS $LAST_PID; do
		rc=0
		wait "$p" || rc=$?
		expect_eq "a process of the run whose slave registered twice ($role)" "$rc" 0
	done
	same_image "$T/ra.pgm" "$REF2"
	echo "ok $role: a registration asked again by the same slave has its place, $(grep -c 'registered again' "$T/$log.log") repeat(s), image exact"
done

# --- a master that stops answering (SIGSTOP) for longer than its slaves'
# rejoin window is waited out, not given up on: a call that times out
# (CORBA TIMEOUT: the master took it) is asked again for --patience-ms;
# resumed, the master finishes the run with them, exact
spawn smaster dls-master --run stall --slaves 2 --width 600 --height 300 --scheme ss \
	--raw "$T/stall.pgm" $NS $EP
SMASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/stall | grep -qx master"
for i in 0 1; do
	spawn sslave$i dls-slave --run stall --name s$i --speed $((i + 1)) --t-iter 1500 \
		--call-timeout-ms 300 --rejoin-ms 1000 $NS $EP
	eval SSLAVE$i=\$LAST_PID
done
wait_for sh -c "nameclt $NS list DLS/stall | grep -c '^slave\.' | grep -qx 2"
sleep 0.3
pkill -STOP -P "$SMASTER" # the master under its timeout wrapper
sleep 2.5                 # the slaves' calls time out after 0.3 s, their rejoin window is 1 s
pkill -CONT -P "$SMASTER"
wait "$SMASTER"
wait "$SSLAVE0"
wait "$SSLAVE1"
same_image "$T/stall.pgm" "$(reference 600 300)"
grep -q "took a call but did not answer in time" "$T/sslave0.log" "$T/sslave1.log"
! grep -q "could not rejoin" "$T/sslave0.log" "$T/sslave1.log"
echo "ok a master stopped for 2.5 s: its slaves waited it out (call timeout 0.3 s, rejoin window 1 s), exact"

# --- the same for a two-level hmaster whose master stops answering: it
# waits the master out, the run ends exact
spawn hmmaster dls-master --run stallh --slaves 1 --width 600 --height 300 --scheme dtss \
	--raw "$T/stallh.pgm" $NS $EP
HMMASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/stallh | grep -qx master"
spawn hm dls-hmaster --run stallh --name hmaster.0 --slaves 2 --mode twolevel \
	--call-timeout-ms 300 --rejoin-ms 1000 $NS $EP
HM=$LAST_PID
for i in 0 1; do
	spawn hmslave$i dls-slave --run stallh --master hmaster.0 --name s$i --speed $((i + 1)) \
		--t-iter 1500 $NS $EP
done
wait_for sh -c "nameclt $NS list DLS/stallh | grep -c '^slave\.' | grep -qx 2"
sleep 0.3
pkill -STOP -P "$HMMASTER" || fail "stallh: no master to stop (pkill exit $?)"
# stopped until the hmaster has had a call time out (its local chunks may
# last a while: a fixed pause did not always reach its next call)
wait_for grep -q "took a call but did not answer in time" "$T/hm.log"
sleep 1
pkill -CONT -P "$HMMASTER" || fail "stallh: no master to resume (pkill exit $?)"
rc=0
wait "$HMMASTER" || rc=$?
expect_eq "stallh: the master's exit" "$rc" 0
wait "$HM" || rc=$?
expect_eq "stallh: the hmaster's exit" "$rc" 0
same_image "$T/stallh.pgm" "$(reference 600 300)"
! grep -q "could not rejoin" "$T/hm.log" || fail "stallh: the hmaster tried to rejoin a master that was only slow"
echo "ok a master stopped below a two-level hmaster until it timed out a call: waited out, exact"

# --- a slave below an hmaster hangs and is lost, then resumes: a two-level
# hmaster takes it back itself; a relay tells the master, which does
for mode in twolevel relay; do
	scheme=dtss
	[ $mode = relay ] && scheme=tss
	spawn bm$mode dls-master --run back$mode --slaves $([ $mode = relay ] && echo 2 || echo 1) \
		--width 600 --height 300 --scheme $scheme --raw "$T/back$mode.pgm" $NS $EP
	BM=$LAST_PID
	wait_for sh -c "nameclt $NS list DLS/back$mode | grep -qx master"
	spawn bh$mode dls-hmaster --run back$mode --name hmaster.0 --slaves 2 --mode $mode \
		--ping-ms 100 --ping-timeout-ms 500 $NS $EP
	BH=$LAST_PID
	for i in 0 1; do
		spawn bs$mode$i dls-slave --run back$mode --master hmaster.0 --name s$i \
			--speed $((i + 1)) --t-iter 1500 $NS $EP
		eval BS$i=\$LAST_PID
	done
	wait_for sh -c "nameclt $NS list DLS/back$mode | grep -c '^slave\.' | grep -qx 2"
	sleep 0.3
	pkill -STOP -P "$BS1"
	wait_for grep -q "lost below this hmaster" "$T/bh$mode.log"
	pkill -CONT -P "$BS1"
	wait "$BM"
	wait "$BH"
	wait "$BS0"
	wait "$BS1"
	same_image "$T/back$mode.pgm" "$(reference 600 300)"
	taker=$T/bh$mode.log
	[ $mode = relay ] && taker=$T/bm$mode.log
	grep -q "s1' called again after it was declared lost: taken back" "$taker"
	echo "ok $mode hmaster: a slave lost below it and resumed is taken back, exact"
done
