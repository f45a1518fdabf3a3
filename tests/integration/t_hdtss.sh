#!/usr/bin/env bash
# Hierarchical DTSS (relay mode): one and two levels of hmasters, dedicated
# and non-dedicated, every distributed scheme: the image is exact.  kill -9
# an hmaster in the middle of a run (its parent requeues everything below
# it) or a slave below an hmaster (the hmaster reports it): still exact.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 800 400)
run() { # NAME ARGS...: a run that must reproduce the image
	local name=$1
	shift
	dls run --width 800 --height 400 --raw "$T/$name.pgm" --json "$T/$name.json" \
		--dir "$T/logs-$name" "$@" >"$T/$name.log" 2>&1
	same_image "$T/$name.pgm" "$REF"
	echo "ok $name"
}
run one-level --cluster C8 --hmasters 2 --scheme dtss --order interleaved --t-iter 300
run one-level-nd --cluster C8-nd --hmasters 2 --scheme dtss --t-iter 300
run two-levels --cluster C8 --hmasters 2,4 --scheme dtss --t-iter 300
run latency --cluster C8 --hmasters 2 --scheme dtss --t-iter 300 --link-latency-us 200
for s in dfss dfiss dtfss; do
	run "$s-nd" --cluster C8-nd --hmasters 2 --scheme $s --order interleaved --t-iter 300
done

run kill-hmaster --cluster C8 --hmasters 2 --scheme dtss --t-iter 1000 --kill hmaster.0.1@0.5
grep -q "drill: kill -9 hmaster.0.1" "$T/kill-hmaster.log"
python3 - "$T/kill-hmaster.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
lost = [p for p in run["pes"] if p["state"] == "lost"]
assert len(lost) == 4, [(p["name"], p["state"]) for p in run["pes"]]   # the 4 slaves below it
assert run["requeued"] > 0, run["requeued"]
PY
run kill-below --cluster C8 --hmasters 2 --scheme dtss --t-iter 1000 --kill 3@0.5
python3 - "$T/kill-below.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
lost = [p["name"] for p in run["pes"] if p["state"] == "lost"]
assert lost == ["hmaster.0.1/slave.3"], lost   # the table shows the path below the master
assert run["requeued"] > 0
PY
expect_usage_error "^dls run: --hmasters '0': must be an integer" dls run --cluster C8 --hmasters 0
expect_usage_error "^dls run: --kill 'hmaster.3.0': names no hmaster" dls run --cluster C8 --hmasters 2 --kill hmaster.3.0@1
expect_usage_error "^dls-hmaster: --slaves 'x': must be an integer" dls-hmaster --slaves x
