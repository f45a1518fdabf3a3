#!/usr/bin/env bash
# The balancing policies of Rudolph et al. 1991, Campos and Scherson 2000
# and Melhem et al. 1991 end to end:
# dls-treesched --policy workpile|roc|ripple places the slaves, which move work
# among themselves with the rules the simulator runs; the image is exact in
# both orders and both collection modes, equal and proportional placement,
# dedicated or not; kill -9 a slave in the middle, or the coordinator (it
# resumes from its journal), or hang a slave: exact still; the report
# counts the migrations per pair; a stranger's balance message or transfer
# is refused; bad options are refused with the reason.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
run() { exact_run "$@"; }
run wp-nat --scheme workpile --cluster C8 --t-iter 300
run wp-int-end --scheme workpile --cluster C8-nd --t-iter 300 --order interleaved \
	--report-interval 0 --alloc proportional
run roc-nat --scheme roc --cluster C8 --t-iter 300 --ht 10 --lt 5 --ct 2
run roc-var-end --scheme roc --cluster C8-var --t-iter 300 --order interleaved --report-interval 0
run ripple-nat --scheme ripple --cluster C8 --t-iter 300
run ripple-cube-end --scheme ripple --topology cube --cluster C8-nd --t-iter 300 \
	--order interleaved --report-interval 0
# the figures add up: sizes (Kim and Purtilo 1996's Table 2) and pairs
python3 - "$T/wp-nat.json" "$T/roc-nat.json" <<'PY'
import json, sys
for path, scheme in zip(sys.argv[1:], ["workpile", "roc"]):
    r = json.load(open(path))
    assert r["scheme"] == scheme, r["scheme"]
    assert r["migrations"] >= 1, r
    assert sum(c for _, c in r["units"]) == r["migrations"], r["units"]
    assert sum(s * c for s, c in r["units"]) == r["moved"], r["units"]
    assert sum(c for _, _, c in r["pairs"]) == r["migrations"], r["pairs"]
    assert sum(p["iterations"] for p in r["pes"]) == 800, r["pes"]
PY
grep -q "^per pair (giver>receiver migrations): [0-9]>[0-9]" "$T/wp-nat.log"

# kill -9 a slave holding work: its iterations go to another, exact
run wp-kill --scheme workpile --cluster C8 --t-iter 2000 --order interleaved --kill 3@start+0.8
run roc-kill --scheme roc --cluster C8 --t-iter 2000 --kill 5@start+0.8
# (Ripple's at t_iter 6000, T_ideal 8.5 s: on a saturated host a peer's
# calls to the dying slave may wait out their 3 s timeout before its
# neighbours know it is dead, and the bridge must still have work to carry)
run ripple-kill --scheme ripple --cluster C8 --t-iter 6000 --kill 4@start+0.8
python3 - "$T/wp-kill.json" "$T/roc-kill.json" "$T/ripple-kill.json" <<'PY'
import json, sys
for path, name in zip(sys.argv[1:], ["slave.3", "slave.5", "slave.4"]):
    r = json.load(open(path))
    lost = [p for p in r["pes"] if p["state"] == "lost"]
    assert [p["name"] for p in lost] == [name], lost
    assert r["reassigned"] > 0, r["reassigned"]
# Ripple bridges the dead one: its two neighbours on the line of ids trade work
r, k = json.load(open(sys.argv[3])), lost[0]["pe"]
if 0 < k < r["slaves"] - 1:
    across = [c for g, t, c in r["pairs"] if {g, t} == {k - 1, k + 1}]
    assert across, ("nothing moved across the dead slave", k, r["pairs"])
PY

# a slave of a Ripple cube that never starts (withdrawn): seven slaves make
# no cube, so Ripple runs on a line, exact
run ripple-cube-nostart --scheme ripple --topology cube --cluster C8 --t-iter 300 --no-start 3
grep -q "Ripple's cube needs a power-of-two number of slaves and 7 registered: it runs on a line" \
	"$T/logs-ripple-cube-nostart/master.log"

# kill -9 the coordinator: resumed from its journal, the slaves rejoin, exact
run roc-resume --scheme roc --cluster C8 --t-iter 2000 --kill coordinator@1
grep -q "resuming it from its journal" "$T/roc-resume.log"

# a slave that hangs (SIGSTOP) while holding work: lost when it stops
# answering pings, its work goes on elsewhere; the others' calls to it time
# out and they draw other peers; exact
start_names
spawn hcoord dls-treesched --run hg --slaves 4 --width 800 --height 400 --policy workpile \
	--ping-ms 100 --ping-timeout-ms 500 --raw "$T/hg.pgm" $NS $EP
HCOORD=$LAST_PID
for i in 0 1 2 3; do
	spawn hslave$i dls-slave --run hg --name h$i --speed $((i % 2 + 1)) --t-iter 1500 \
		--coordinator treesched $NS $EP
	eval HSLAVE$i=\$LAST_PID
done
wait_for sh -c "nameclt $NS list DLS/hg | grep -c '^slave\.' | grep -qx 4"
sleep 0.3
pkill -STOP -P "$HSLAVE3"
wait_for grep -q "lost" "$T/hcoord.log"
wait "$HCOORD"
same_image "$T/hg.pgm" "$REF"
pkill -KILL -P "$HSLAVE3" || true
await_death 10 "$HSLAVE3"
for i in 0 1 2; do eval wait \$HSLAVE$i; done
echo "ok hung slave"

# strangers: joins without the secret, reports, notices, demands, transfers,
# balance messages and stops without the keys: every one refused, exact
SECRET="$T/run.secret"
head -c 32 /dev/urandom >"$SECRET"
chmod 600 "$SECRET"
spawn pile dls-treesched --run hp --slaves 3 --width 400 --height 200 --policy workpile \
	--secret-file "$SECRET" --raw "$T/hp.pgm" $NS $EP
PILE=$LAST_PID
for i in 0 1 2; do
	spawn pslave$i dls-slave --run hp --name s$i --t-iter 3000 --coordinator treesched \
		--secret-file "$SECRET" $NS $EP
done
wait_for sh -c "nameclt $NS list DLS/hp | grep -c '^slave\.' | grep -qx 3"
"$DLS_TEST_BIN_DIR/bad_client" --intruder-trees hp 3 $NS $EP >"$T/pintruder.log" 2>&1
wait "$PILE"
same_image "$T/hp.pgm" "$(reference 400 200)"
expect_eq "workpile attacks refused" "$(grep -c '^refused:' "$T/pintruder.log")" 38
! grep -q '^ACCEPTED\|^FAILED' "$T/pintruder.log"
grep -q "refused: a peer's reference as a real slave: slave 0: the call does not carry the capability" \
	"$T/pintruder.log"
grep -q "refused: balance from a stranger: balance: the caller does not show this slave's peer key" \
	"$T/pintruder.log"

expect_usage_error "^dls-treesched: cannot set up the run: policy 'ripple': the cube topology needs a power-of-two" \
	dls-treesched --slaves 3 --topology cube --policy ripple
expect_usage_error "^dls-treesched: --policy 'heap': unknown" dls-treesched --slaves 2 --policy heap
expect_usage_error "^dls run: --collect 'end': the balancing policies collect as Tree Scheduling" \
	dls run --scheme roc --cluster C8 --collect end
expect_usage_error "^dls run: --gamma=half: applies to --scheme trees only" \
	dls run --scheme workpile --cluster C8 --gamma half
expect_usage_error "^dls run: --threshold/--ht/--interval-us/...: applies to --scheme workpile" \
	dls run --scheme dtss --cluster C8 --ht 3
expect_usage_error "^dls run: --scheme 'roc': the RoC thresholds must satisfy" \
	dls run --scheme roc --cluster C8 --ct 30 --dir "$T/never"
[ ! -e "$T/never" ]
