#!/usr/bin/env bash
# Tree Scheduling end to end: dls-treesched and slaves in tree mode compute
# the exact image for every gamma and initial allocation, dedicated and not,
# uni- and bi-directional, with results at intervals or when idle; kill -9
# a slave in the middle: its iterations go to its left neighbour, the chain
# closes, and the image is still exact.  dls status shows the chain.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
run() { # NAME ARGS...: a tree run that must reproduce the image
	local name=$1
	shift
	dls run --scheme trees --width 800 --height 400 --raw "$T/$name.pgm" --json "$T/$name.json" \
		--dir "$T/logs-$name" "$@" >"$T/$name.log" 2>&1
	same_image "$T/$name.pgm" "$REF"
	echo "ok $name"
}
run half-equal --cluster C8 --t-iter 300
run proportional --cluster C8-nd --gamma proportional --alloc proportional --t-iter 300 --order interleaved
run ratio-rr --cluster C8 --gamma ratio --alloc round-robin --t-iter 300
run bidi-end --cluster C8-nd --bidirectional --report-interval 0 --t-iter 300
run bidi-var --cluster C8-var --bidirectional --gamma proportional --t-iter 300 --order interleaved
# the migration figures add up: Kim and Purtilo 1996's Table 2 and the links
python3 - "$T/half-equal.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["scheme"] == "trees", r["scheme"]
assert r["migrations"] >= 1, r
assert sum(c for _, c in r["units"]) == r["migrations"], r["units"]
assert sum(s * c for s, c in r["units"]) == r["moved"], r["units"]
assert sum(r["link_migrations"]) == r["migrations"], r["link_migrations"]
assert sorted(r["chain"]) == list(range(8)), r["chain"]
assert sum(p["iterations"] for p in r["pes"]) == 800, r["pes"]
PY
grep -q "^migration units (size x times): " "$T/half-equal.log"

# kill -9 a slave holding work
run kill --cluster C8 --t-iter 2000 --order interleaved --kill slave.3@start+0.8 # every slave still holds work then (by its name)
python3 - "$T/kill.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
lost = [p["name"] for p in r["pes"] if p["state"] == "lost"]
assert lost == ["slave.3"], lost
assert r["reassigned"] > 0, r["reassigned"]
PY
grep -q "lost (.*): [0-9]* undelivered iterations go to slave" "$T/logs-kill/master.log"

# dls status during a run lists the slaves in chain order
start_names
spawn tree-run dls run --names "$NS_ADDR" --run tr-$$ --scheme trees --cluster C8 \
	--width 800 --height 400 --t-iter 3000 --no-progress
for _ in $(seq 50); do
	sleep 0.2
	dls status --run tr-$$ $NS >"$T/status.txt" 2>&1 && grep -q "slave.7" "$T/status.txt" && break
done
wait "$LAST_PID"
grep -q "scheme trees" "$T/status.txt" || { cat "$T/status.txt"; exit 1; }
grep -q "^chain (work flows down)" "$T/status.txt" || { cat "$T/status.txt"; exit 1; }

expect_usage_error "^dls-treesched: --gamma 'third': must be half, proportional or ratio" \
	dls-treesched --slaves 2 --gamma third
expect_usage_error "^dls run: --hmasters: Tree Scheduling has no masters to stack" \
	dls run --scheme trees --cluster C8 --hmasters 2
expect_usage_error "^dls run: --gamma=half: applies to --scheme trees only" \
	dls run --cluster C8 --gamma half
# checked by dls run before anything starts (no folder is made)
expect_usage_error "^dls run: --gamma 'nope': must be half, proportional or ratio" \
	dls run --scheme trees --cluster C8 --gamma nope --dir "$T/never"
expect_usage_error "^dls run: --report-interval '-1': must be a number from 0 to 3600" \
	dls run --scheme trees --cluster C8 --report-interval -1 --dir "$T/never"
[ ! -e "$T/never" ]
expect_usage_error "^dls-slave: --coordinator 'a/b': must be 1 to 63 characters" \
	dls-slave --coordinator a/b

# a registration that waits longer than the call timeout: a tree slave's
# registration blocks until the chain is built, here 4 s after the first
# slave came; its --register-timeout-ms (default 60 s) holds, not the 2 s
# call timeout (a registration asked again would place the same slave
# twice)
REF2=$(reference 200 100)
spawn late-coord dls-treesched --run late-$$ --slaves 2 --width 200 --height 100 --t-iter 300 \
	--register-timeout-ms 20000 --raw "$T/late.pgm" --json "$T/late.json" $NS $EP
LATE_COORD=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/late-$$ | grep -qx treesched"
spawn late-early dls-slave --run late-$$ --coordinator treesched --name early --speed 1 \
	--t-iter 300 --call-timeout-ms 2000 $NS $EP
EARLY=$LAST_PID
sleep 4
dls-slave --run late-$$ --coordinator treesched --name late --speed 1 --t-iter 300 $NS $EP \
	>"$T/late-late.log" 2>&1
rc=0
wait "$EARLY" || rc=$?
expect_eq "the slave that registered first" "$rc" 0
wait "$LATE_COORD"
same_image "$T/late.pgm" "$REF2"
expect_eq "'master not reached' lines" "$(cat "$T/late-early.log" | grep -c 'not reached' || true)" 0
python3 - "$T/late.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert sorted(p["name"] for p in r["pes"]) == ["early", "late"], r["pes"]
assert all(p["state"] == "done" for p in r["pes"]), r["pes"]
PY
echo "ok a registration 4 s long under a 2 s call timeout: 2 slaves, image exact"
