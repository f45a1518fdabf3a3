#!/usr/bin/env bash
# A master that dies comes back (PROTOCOL.md 15): kill -9 of the master in
# the middle of a run; a new master resumes the run from its journal, the
# slaves rejoin it with their capabilities, and the image is exact, column
# by column, with no slave lost.  Under dls run (which restarts the master
# itself) and by hand (dls-master --resume), with the time to resume
# printed; the journal's own refusals; a master killed before its journal
# recorded the run is started afresh.  The same for Tree Scheduling's
# coordinator, also when a slave dies with it; and a master above hmasters
# (two-level and relay): they rejoin it with what it issued them.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)

# --- under dls run: it resumes the master itself --------------------------
# (half a second into the loop, however long registration took)
for scheme in dtss ss af auto; do # af, auto: the journal replays what they learnt
	dls run --cluster C8 --scheme $scheme --width 800 --height 400 --t-iter 1200 \
		--kill master@start+0.5 --raw "$T/run.pgm" --json "$T/run.json" --dir "$T/run-$scheme" \
		--no-progress >"$T/run-$scheme.log" 2>&1
	same_image "$T/run.pgm" "$REF"
	grep -q "drill: kill -9 the master" "$T/run-$scheme.log"
	grep -q "died of signal 9 at .*: resuming it from its journal (1 of 3)" "$T/run-$scheme.log"
	grep -q "resumed run" "$T/run-$scheme/master.log"
	python3 - "$T/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert all(p["state"] == "done" for p in run["pes"]), [p["state"] for p in run["pes"]]
assert run["iterations"] == 800 and sum(p["iterations"] for p in run["pes"]) == 800
# auto's decisions, those before the crash replayed, are in the report
assert (run["scheme"] == "auto") == run.get("scheme_choices", "").startswith("ss -> "), run
PY
	# the time to resume: the slowest slave's wait from losing the master to rejoining
	resume_s=$(grep -ho "rejoined the master as slave [0-9]* after [0-9.]* s" "$T/run-$scheme"/slave.*.log |
		awk '{ if ($8 > m) m = $8 } END { print m + 0 }')
	echo "ok dls run, $scheme: master killed at 1 s, resumed, image exact, T_p $(json_get "$T/run.json" t_p) s, slowest rejoin ${resume_s} s"
done

# --- a master killed before its journal recorded the run: started afresh ---
dls run --cluster C8 --scheme ss --width 800 --height 400 --kill master@0 --raw "$T/run.pgm" \
	--json "$T/run.json" --dir "$T/run-unborn" --no-progress >"$T/run-unborn.log" 2>&1
same_image "$T/run.pgm" "$REF"
# the drill fires once every process is spawned: the master has usually not
# recorded its run yet (started afresh), but on a quick start it has, with
# no slave in it yet (resumed with nothing to replay); the unit tests of
# journal_discard_unborn cover both journals deterministically
if grep -q "before its journal recorded the run (it had acknowledged nothing): starting it afresh (1 of 3)" \
	"$T/run-unborn.log"; then
	how="before its journal recorded the run, started afresh"
else
	grep -q "died of signal 9 at .*: resuming it from its journal (1 of 3)" "$T/run-unborn.log"
	grep -q "0 of 800 iterations delivered" "$T/run-unborn/master.log"
	how="after its journal recorded the run and before any result, resumed"
fi
expect_eq "slaves done after a fresh start" "$(python3 -c 'import json, sys
print(sum(p["state"] == "done" for p in json.load(open(sys.argv[1]))["pes"]))' "$T/run.json")" 8
echo "ok dls run: master killed at 0 s, $how, image exact"

# --- hmasters rejoin a resumed master -------------------------------------
for hmode in twolevel relay; do
	# the master dies once the loop started, so after the hmasters
	# registered: a registration itself is not resumed
	dls run --cluster C8 --scheme dtss --hmasters 2 --hmode $hmode --width 800 --height 400 \
		--t-iter 1500 --kill master@start+0.5 --raw "$T/hm.pgm" --json "$T/hm.json" --dir "$T/hm" \
		--no-progress >"$T/hm.log" 2>&1
	same_image "$T/hm.pgm" "$REF"
	grep -q "died of signal 9 at .*: resuming it from its journal (1 of 3)" "$T/hm.log"
	expect_eq "hmasters that rejoined ($hmode)" "$(cat "$T"/hm/hmaster.*.log | grep -c 'rejoined the parent after')" 2
	python3 - "$T/hm.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert all(p["state"] == "done" for p in run["pes"]), [p["state"] for p in run["pes"]]
assert run["iterations"] == 800 and sum(p["iterations"] for p in run["pes"]) == 800
# auto's decisions, those before the crash replayed, are in the report
assert (run["scheme"] == "auto") == run.get("scheme_choices", "").startswith("ss -> "), run
PY
	echo "ok dls run, dtss under 2 $hmode hmasters: master killed, resumed, both hmasters rejoined, image exact, T_p $(json_get "$T/hm.json" t_p) s"
	rm -rf "$T/hm"
done

# --- Tree Scheduling: dls run resumes the coordinator ----------------------
for kill in "coordinator@0.5" "3@0.5 --kill coordinator@0.5"; do
	# shellcheck disable=SC2086 # two --kill options
	dls run --cluster C8 --scheme trees --width 800 --height 400 --t-iter 600 \
		--kill $kill --raw "$T/tree.pgm" --json "$T/tree.json" --dir "$T/tree" \
		--no-progress >"$T/tree.log" 2>&1
	same_image "$T/tree.pgm" "$REF"
	grep -q "drill: kill -9 the coordinator" "$T/tree.log"
	# slave 3 killed before it registered (a slow start: make sanitize)
	# holds the registration open, so the coordinator dies before its
	# journal recorded the run and is started afresh; else it resumes
	afresh=0
	if grep -q "the coordinator of run .* died of signal 9 at .*, before its journal recorded the run (it had acknowledged nothing): starting it afresh (1 of 3)" "$T/tree.log"; then
		afresh=1
	else
		grep -q "the coordinator of run .* died of signal 9 at .*: resuming it from its journal (1 of 3)" "$T/tree.log"
		grep -q "resumed run" "$T/tree/master.log"
	fi
	python3 - "$T/tree.json" "$kill" "$afresh" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
states = [p["state"] for p in run["pes"]]
lost = 1 if sys.argv[2].startswith("3@") else 0
if sys.argv[3] == "1":
    assert lost and len(states) == 7, ("started afresh, not for slave 3's death", states)
if lost and len(states) == 7:
    # slave 3 died before it registered, so the coordinator placed the
    # seven that had when its registration window closed
    assert states.count("done") == 7, states
else:
    assert states.count("lost") == lost and states.count("done") == 8 - lost, states
assert run["iterations"] == 800 and sum(p["iterations"] for p in run["pes"]) == 800
# auto's decisions, those before the crash replayed, are in the report
assert (run["scheme"] == "auto") == run.get("scheme_choices", "").startswith("ss -> "), run
PY
	resume_s=$(grep -ho "rejoined the coordinator as slave [0-9]* after [0-9.]* s" "$T/tree"/slave.*.log |
		awk '{ if ($8 > m) m = $8 } END { print m + 0 }')
	echo "ok dls run, trees, --kill $kill: $([ $afresh = 1 ] && echo "started afresh (slave 3 died unregistered)" || echo resumed), image exact, T_p $(json_get "$T/tree.json" t_p) s, slowest rejoin ${resume_s} s"
	rm -rf "$T/tree"
done

# --- by hand: dls-master --journal, kill -9, dls-master --resume -----------
start_names
umask 077
head -c 32 /dev/urandom >"$T/secret"
J=$T/journal
# not under timeout: the kill below must reach the master itself
dls-master --run hand --slaves 4 --width 800 --height 400 --scheme gss \
	--journal "$J" --secret-file "$T/secret" $NS $EP >"$T/master1.log" 2>&1 &
M1=$!
wait_for sh -c "nameclt $NS list DLS/hand | grep -qx master"
SL=""
for i in 0 1 2 3; do
	spawn slave$i dls-slave --run hand --name s$i --speed $((1 + i % 2)) --t-iter 1000 \
		--rejoin-ms 20000 --secret-file "$T/secret" $NS $EP
	SL="$SL $LAST_PID"
done
sleep 1.2
# one master per journal: a second one is refused while the first lives
rc=0
dls-master --resume "$J" $NS $EP >"$T/second.log" 2>&1 || rc=$?
expect_eq "a second master on a live journal" "$rc" 1
grep -q "in use by another master (pid $M1): one master per run" "$T/second.log"
kill_wait KILL "$M1"
# a new run over the journal is refused; resuming with options of its own too
rc=0
dls-master --run hand --slaves 4 --width 800 --height 400 --journal "$J" $NS $EP \
	>"$T/again.log" 2>&1 || rc=$?
expect_eq "a new run over a journal" "$rc" 1
grep -q "journal '.*journal.db': exists already: resume it (--resume) or remove it" "$T/again.log"
expect_usage_error "^dls-master: --slaves '.*': a resumed run takes its configuration from its journal" \
	dls-master --resume "$J" --slaves 4
rc=0
dls-master --resume "$T/nowhere" $NS $EP >"$T/nowhere.log" 2>&1 || rc=$?
expect_eq "resume from no journal" "$rc" 1
grep -q "^dls-master: cannot resume from '.*nowhere': journal '.*': no such file: nothing to resume" "$T/nowhere.log"
rc=0
timeout 60 dls-master --resume "$J" --raw "$T/hand.pgm" --json "$T/hand.json" \
	--secret-file "$T/secret" $NS $EP >"$T/master2.log" 2>&1 || rc=$?
expect_eq "the resumed master" "$rc" 0
same_image "$T/hand.pgm" "$REF"
# shellcheck disable=SC2086 # one PID a word
wait_ok "a slave of the resumed run" $SL
grep -q "resumed run 'hand'" "$T/master2.log"
python3 - "$T/hand.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert all(p["state"] == "done" for p in run["pes"]), [p["state"] for p in run["pes"]]
PY
expect_eq "slaves that rejoined" "$(cat "$T"/slave?.log | grep -c 'rejoined the master')" 4
echo "ok by hand: kill -9, a second master refused, dls-master --resume, 4 slaves rejoined, image exact"

# --- by hand: the master killed while registration is open ----------------
# One of its two hmasters has registered, its call waiting for the other,
# when the master dies: the hmaster finds the resumed master by name and
# registers again, and the run ends exact, in either mode (a relay one
# does not ask a slave it has counted to register again).
REF2=$(reference 200 100)
for mode in relay twolevel; do
	J=$T/open-$mode
	DLS_LOG_LEVEL=info dls-master --run open-$mode --slaves 2 --width 200 --height 100 \
		--scheme dtss --journal "$J" $NS $EP >"$T/open1-$mode.log" 2>&1 &
	M1=$!
	wait_for sh -c "nameclt $NS list DLS/open-$mode | grep -qx master"
	for h in 0 1; do
		[ $h = 1 ] && spawn open2-$mode dls-master --resume "$J" --raw "$T/open-$mode.pgm" $NS $EP
		[ $h = 1 ] && M2=$LAST_PID
		spawn open-h$h-$mode dls-hmaster --run open-$mode --name hmaster.0.$h --mode $mode \
			--slaves 1 --rejoin-ms 20000 $NS $EP
		spawn open-s$h-$mode dls-slave --run open-$mode --master hmaster.0.$h --name s$h \
			--t-iter 1000 --rejoin-ms 20000 $NS $EP
		[ $h = 1 ] && break
		wait_for grep -q "registered, speed" "$T/open1-$mode.log"
		kill_wait KILL "$M1"
	done
	rc=0
	wait "$M2" || rc=$?
	expect_eq "the master resumed during registration ($mode)" "$rc" 0
	same_image "$T/open-$mode.pgm" "$REF2"
	grep -q "the parent cannot be reached to register" "$T/open-h0-$mode.log"
	grep -q "registered with the parent after [0-9]* attempts" "$T/open-h0-$mode.log"
	echo "ok by hand: $mode hmaster registered again with a master resumed during registration, image exact"
done

# --- by hand: dls-treesched --journal, kill -9, dls-treesched --resume ----
J=$T/tjournal
dls-treesched --run thand --slaves 4 --width 800 --height 400 --report-interval 0.2 \
	--journal "$J" --secret-file "$T/secret" $NS $EP >"$T/coord1.log" 2>&1 &
C1=$!
wait_for sh -c "nameclt $NS list DLS/thand | grep -qx treesched"
SL=""
for i in 0 1 2 3; do
	spawn tslave$i dls-slave --run thand --coordinator treesched --name t$i \
		--speed $((1 + i % 2)) --t-iter 1000 --rejoin-ms 20000 --secret-file "$T/secret" $NS $EP
	SL="$SL $LAST_PID"
done
sleep 1.2
kill_wait KILL "$C1"
expect_usage_error "^dls-treesched: --gamma '.*': a resumed run takes its configuration from its journal" \
	dls-treesched --resume "$J" --gamma ratio
rc=0
dls-master --resume "$J" $NS $EP >"$T/wrongrole.log" 2>&1 || rc=$?
expect_eq "dls-master on a coordinator's journal" "$rc" 2
rc=0
timeout 60 dls-treesched --resume "$J" --raw "$T/thand.pgm" --json "$T/thand.json" \
	--secret-file "$T/secret" $NS $EP >"$T/coord2.log" 2>&1 || rc=$?
expect_eq "the resumed coordinator" "$rc" 0
same_image "$T/thand.pgm" "$REF"
for p in $SL; do
	rc=0
	wait "$p" || rc=$?
	expect_eq "a slave of the resumed tree run" "$rc" 0
done
grep -q "resumed run 'thand'" "$T/coord2.log"
expect_eq "tree slaves that rejoined" "$(cat "$T"/tslave?.log | grep -c 'rejoined the coordinator')" 4
echo "ok by hand: kill -9 of dls-treesched, dls-treesched --resume, 4 slaves rejoined, image exact"
