#!/usr/bin/env bash
# kill -9 a slave in the middle of a run: the master notices, its chunk goes
# to the others, and the image is still exact: no column lost or doubled.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
for collect in piggyback end; do
	# 0.6 s after the loop starts (T_ideal 2.1 s), however long registration
	# took, slave.3 still computes its first chunk: DTSS's first chunks are
	# the largest, and no tail is taken back before the end game
	dls run --cluster C8 --scheme dtss --width 800 --height 400 --t-iter 1500 \
		--collect $collect --kill 3@start+0.6 --raw "$T/kill.pgm" --json "$T/kill.json" \
		>"$T/kill-$collect.log" 2>&1
	same_image "$T/kill.pgm" "$REF"
	grep -q "drill: kill -9 slave.3" "$T/kill-$collect.log"
	python3 - "$T/kill.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
lost = [p for p in run["pes"] if p["state"] == "lost"]
assert len(lost) == 1 and lost[0]["name"] == "slave.3", lost
assert run["requeued"] > 0, run["requeued"]
assert all(p["state"] == "done" for p in run["pes"] if p["name"] != "slave.3")
PY
	echo "ok kill -9 with collect $collect"
done
# the other side: a live slave is never declared lost because its ORB closed
# an idle connection as the ping went out (a ping is asked once more)
"$DLS_TEST_BIN_DIR/ping_retry" >"$T/ping_retry.log" 2>&1 || { cat "$T/ping_retry.log" >&2; exit 1; }
cat "$T/ping_retry.log"
