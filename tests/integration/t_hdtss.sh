#!/usr/bin/env bash
# Hierarchical DTSS in both modes (relay: the master computes every chunk;
# twolevel: each hmaster schedules its slaves on the chunks it holds): one
# and two levels of hmasters, dedicated and non-dedicated, every distributed
# scheme, both collection modes: the image is exact.  kill -9 an hmaster in
# the middle of a run (its parent requeues what it held; dls run resumes it
# and its children rejoin it) or a slave below an hmaster (relay: the
# hmaster reports it up; twolevel: it gives the work to a sibling itself):
# still exact.  A resumed hmaster none of whose slaves comes back ends with
# its parent.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
# nothing in these runs is timed: two at once
run() { two_at_once exact_run "$@"; }
for mode in relay twolevel; do
	run $mode-one-level --hmode $mode --cluster C8 --hmasters 2 --scheme dtss --order interleaved --t-iter 300
	run $mode-one-level-nd --hmode $mode --cluster C8-nd --hmasters 2 --scheme dtss --t-iter 300
	run $mode-two-levels --hmode $mode --cluster C8 --hmasters 2,4 --scheme dtss --t-iter 300
	run $mode-latency --hmode $mode --cluster C8 --hmasters 2 --scheme dtss --t-iter 300 --link-latency-us 200
	for s in dfss dfiss dtfss; do
		run "$mode-$s-nd" --hmode $mode --cluster C8-nd --hmasters 2 --scheme $s --order interleaved --t-iter 300
	done
done
run twolevel-end --hmode twolevel --cluster C8-nd --hmasters 2,4 --scheme dtss --collect end --t-iter 300
steps_done
run() { exact_run "$@"; }
# the master sees one child per first-level hmaster
python3 - "$T/twolevel-two-levels.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
names = sorted(p["name"] for p in run["pes"])
assert names == ["hmaster.0.0", "hmaster.0.1"], names
assert sum(p["iterations"] for p in run["pes"]) == 800
PY
# ... and dls run prints each two-level hmaster's own table after the
# master's, so that every slave of the run shows, at every level
for hm in hmaster.0.0 hmaster.0.1 hmaster.1.0 hmaster.1.3; do
	grep -q "^$hm: [0-9]* slaves, " "$T/twolevel-two-levels.log" || fail "no table of $hm"
done
for k in 0 1 2 3 4 5 6 7; do
	grep -qE "^ +[0-9]+ slave\.$k " "$T/twolevel-two-levels.log" || fail "slave.$k in no table"
done

# dls status during a two-level run shows the whole tree, asking each hmaster
start_names
spawn status-run dls run --names "$NS_ADDR" --run st-$$ --hmode twolevel --cluster C8 \
	--hmasters 2,4 --width 800 --height 400 --t-iter 3000 --no-progress
rows=("^  hmaster.0.0 " "^    hmaster.1.0 " "^      slave.0 " "^      slave.7 ")
has_rows() {
	for row in "${rows[@]}"; do grep -q "$row" "$T/status.txt" || return 1; done
}
for _ in $(seq 50); do # until every part has registered
	sleep 0.2
	dls status --run st-$$ $NS >"$T/status.txt" 2>&1 && has_rows && break
done
wait "$LAST_PID"
for row in "${rows[@]}"; do
	grep -q "$row" "$T/status.txt" || { cat "$T/status.txt"; echo "FAILED no row '$row'" >&2; exit 1; }
done

# a resumed relay hmaster none of whose slaves comes back (they had all
# finished) ends when its parent is gone, exit 0
spawn rs-master dls-master --run rs-$$ --slaves 1 --width 200 --height 100 --scheme gss $NS $EP
RS_MASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/rs-$$ | grep -q '^master'"
spawn rs-hmaster dls-hmaster --run rs-$$ --name hmaster.0.0 --mode relay --resume --slaves 2 \
	$NS $EP
RS_HMASTER=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/rs-$$ | grep -q '^hmaster'"
# a second of either name, while the first serves, is refused before it
# reaches the parent (a resumed hmaster would declare a live one lost)
for second in "dls-hmaster --name hmaster.0.0 --mode relay --resume --slaves 2" \
	"dls-master --slaves 1 --width 200 --height 100"; do
	rc=0
	$second --run rs-$$ $NS $EP >"$T/second.log" 2>&1 || rc=$?
	expect_eq "a second '${second%% *}' on a live name" "$rc" 1
	grep -q "^dls-.*: cannot take 'DLS/rs-$$/.*': .* is bound to a servant that answers: a second one would share its name" \
		"$T/second.log" || { cat "$T/second.log"; echo "FAILED no refusal" >&2; exit 1; }
done
spawn rs-slave dls-slave --run rs-$$ --name s --t-iter 100 $NS $EP
wait "$RS_MASTER"
wait "$RS_HMASTER"
grep -q "the parent is gone and every slave that rejoined is done: the run is over" \
	"$T/rs-hmaster.log"
# an hmaster killed before its parent registered its slaves (it waits for
# its second slave): nobody knew it, so its successor, started with --resume
# as dls run does, starts afresh, and the slave that was registering with
# the dead one registers with it.  A two-level one finds no record; a relay
# one sees a slave register before any rejoined.  Either way the subtree
# takes part in the run
NR_REF=$(reference 200 100)
for mode in twolevel relay; do
	if [ $mode = twolevel ]; then up=1 rec=(--record "$T/nr-$mode.record"); else up=2 rec=(); fi
	spawn nr-master-$mode dls-master --run nr-$mode-$$ --slaves $up --width 200 --height 100 \
		--scheme dtss --raw "$T/nr-$mode.pgm" $NS $EP
	NR_MASTER=$LAST_PID
	wait_for sh -c "nameclt $NS list DLS/nr-$mode-$$ | grep -q '^master'"
	HM=(dls-hmaster --run nr-$mode-$$ --name hmaster.0.0 --mode $mode --slaves 2 "${rec[@]}" $NS $EP)
	"${HM[@]}" >"$T/nr-h1-$mode.log" 2>&1 & # not under timeout: the kill must reach it
	NR_H1=$!
	wait_for sh -c "nameclt $NS list DLS/nr-$mode-$$ | grep -q '^hmaster'"
	spawn nr-s0-$mode dls-slave --run nr-$mode-$$ --master hmaster.0.0 --name s0 --t-iter 1000 $NS $EP
	sleep 0.5
	kill_wait KILL "$NR_H1"
	[ ! -e "$T/nr-$mode.record" ] # a two-level one writes it once registered
	spawn nr-h2-$mode "${HM[@]}" --resume
	spawn nr-s1-$mode dls-slave --run nr-$mode-$$ --master hmaster.0.0 --name s1 --t-iter 1000 $NS $EP
	wait "$NR_MASTER"
	same_image "$T/nr-$mode.pgm" "$NR_REF"
	if [ $mode = twolevel ]; then
		grep -q "no record '.*nr-twolevel.record': the hmaster this one succeeds died before its parent registered it" \
			"$T/nr-h2-$mode.log"
	else
		grep -q "a slave registers before any rejoined: the relay this one succeeds died" \
			"$T/nr-h2-$mode.log"
	fi
	echo "ok a $mode hmaster killed before its parent registered it: its successor starts afresh, image exact"
done

expect_usage_error "^dls-hmaster: --resume: a two-level hmaster resumes from the record" \
	dls-hmaster --slaves 2 --resume
expect_usage_error "^dls-hmaster: --record 'r': only a two-level hmaster keeps a record" \
	dls-hmaster --slaves 2 --mode relay --record r

for mode in relay twolevel; do
	# killed once the loop started, so after registration (T_ideal 2.8 s)
	run $mode-kill-hmaster --hmode $mode --cluster C8 --hmasters 2 --scheme dtss --t-iter 2000 \
		--kill hmaster.0.1@start+0.5
	grep -q "drill: kill -9 hmaster.0.1" "$T/$mode-kill-hmaster.log"
	# slave.3 still holds its first chunk half a second into the loop
	run $mode-kill-below --hmode $mode --cluster C8 --hmasters 2 --scheme dtss --t-iter 4000 \
		--kill 3@start+0.5
done
python3 - "$T/relay-kill-hmaster.json" "$T/twolevel-kill-hmaster.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    run = json.load(open(path))
    lost = sorted(p["name"] for p in run["pes"] if p["state"] == "lost")
    # resumed: relay, its 4 slaves rejoined it (within the relay grace, or
    # later and taken back); twolevel, it was taken back itself, what it
    # held requeued
    assert lost == [], (path, lost)
    assert "relay" in path or run["requeued"] > 0, run["requeued"]
PY
# the master waited for the dead relay's slaves (--relay-grace-ms)
grep -q "relay hmaster does not answer (.*): the slave counts as lost unless it rejoins within 3000 ms" \
	"$T/logs-relay-kill-hmaster/master.log" ||
	fail "relay-kill-hmaster: the master did not wait for the dead relay's slaves"
for mode in relay twolevel; do
	grep -q "hmaster.0.1 of run .* died of signal 9 at .* resuming it" "$T/$mode-kill-hmaster.log" ||
		fail "$mode-kill-hmaster: dls run did not resume hmaster.0.1"
	n=$(grep -c "rejoined this resumed hmaster" "$T/logs-$mode-kill-hmaster/hmaster.0.1.resumed.log" ||
		true)
	[ "$n" = 4 ] || fail "$mode-kill-hmaster: $n of 4 slaves rejoined the resumed hmaster"
done
# the record a two-level hmaster keeps holds capabilities: 0600
mode=$(stat -c %a "$T/logs-twolevel-kill-hmaster/hmaster.0.1.record")
[ "$mode" = 600 ] || fail "the two-level hmaster's record has mode $mode"
# two levels deep: the hmasters below the resumed one rejoin it (relay: for
# each of their slaves; two-level: as its one child)
for mode in relay twolevel; do
	run $mode-2-kill-hmaster --hmode $mode --cluster C8 --hmasters 2,4 --scheme dtss \
		--t-iter 2000 --kill hmaster.0.1@start+0.5
	grep -q "rejoined this resumed hmaster" "$T/logs-$mode-2-kill-hmaster/hmaster.0.1.resumed.log" ||
		fail "$mode-2-kill-hmaster: nothing rejoined the resumed hmaster.0.1"
	grep -q "rejoined the parent" "$T/logs-$mode-2-kill-hmaster/hmaster.1.1.log" ||
		fail "$mode-2-kill-hmaster: hmaster.1.1 did not rejoin its parent"
done
python3 - "$T/relay-kill-below.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
lost = [p["name"] for p in run["pes"] if p["state"] == "lost"]
assert lost == ["hmaster.0.1/slave.3"], lost   # the table shows the path below the master
assert run["requeued"] > 0
PY
# twolevel: the hmaster handled it; the master lost nothing
grep -q "lost below this hmaster" "$T/logs-twolevel-kill-below/hmaster.0.1.log" ||
	fail "twolevel-kill-below: the hmaster did not handle its lost slave"
n=$(json_get "$T/twolevel-kill-below.json" requeued)
[ "$n" = 0 ] || fail "twolevel-kill-below: the master requeued $n iterations"

expect_usage_error "^dls run: --hmasters '0': must be an integer" dls run --cluster C8 --hmasters 0
expect_usage_error "^dls run: --hmode 'flat': must be relay or twolevel" dls run --cluster C8 --hmasters 2 --hmode flat
expect_usage_error "^dls run: --kill 'hmaster.3.0': names no hmaster" dls run --cluster C8 --hmasters 2 --kill hmaster.3.0@1
expect_usage_error "^dls-hmaster: --slaves 'x': must be an integer" dls-hmaster --slaves x
expect_usage_error "^dls-hmaster: --mode 'x': must be relay or twolevel" dls-hmaster --slaves 2 --mode x
