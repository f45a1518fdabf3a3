#!/usr/bin/env bash
# The picture of a run: the JSON's timeline holds every chunk (each loop
# index delivered by exactly one chunk that came in, a slave killed in the
# run leaving its chunk undelivered), and `dls plot --gantt` and `dls run
# --gantt` draw it as PNG and SVG; what they cannot draw is refused in one
# line.
set -eu
. "$(dirname "$0")/lib.sh"

W=400 H=200
REF=$(reference $W $H)
dls run -c C8 -s gss --t-iter 4000 --kill slave.2@1.0 --width $W --height $H \
	--json "$T/run.json" --raw "$T/run.pgm" --gantt "$T/run.png" --no-progress >"$T/run.log" 2>&1
same_image "$T/run.pgm" "$REF"
grep -q "^dls run: drew the Gantt chart in $T/run.png$" "$T/run.log" ||
	fail "dls run --gantt: $(tail -3 "$T/run.log")"
python3 - "$T/run.json" $W <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
t = run["timeline"]
assert t, "an empty timeline"
covered = [0] * n
for c in t:
    assert c["given"] >= 0 and c["count"] > 0, c
    if c["delivered"] is not None:
        assert c["delivered"] >= c["given"] and c["delivered_iterations"] >= c["count"], c
        assert c["compute"] is not None and c["compute"] > 0, c  # emulated slaves report it
        for i in range(c["first"], c["first"] + c["count"]):
            covered[i] += 1
assert covered == [1] * n, [i for i, k in enumerate(covered) if k != 1][:10]
# only the killed slave's chunks may be lost (it may have held none then)
ids = {p["pe"]: p["name"] for p in run["pes"]}
lost = [c for c in t if c["delivered"] is None and not c["cut"]]
assert all(ids[c["pe"]] == "slave.2" for c in lost), lost
PY
# the pictures: PNG of the size the rows ask for, SVG
dls plot "$T/run.json" --gantt "$T/again.png" >"$T/plot.log"
dls plot "$T/run.json" --gantt "$T/again.svg" >>"$T/plot.log"
python3 - "$T/run.png" "$T/again.png" <<'PY'
import struct, sys
for path in sys.argv[1:]:
    head = open(path, "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    w, h = struct.unpack(">II", head[16:24])
    assert (w, h) == (1100, 130 + 26 * 8), (path, w, h)
PY
grep -q "<svg" "$T/again.svg" || fail "no SVG in $T/again.svg"
[ -z "$(ls "$T" | grep -E '\.(dat|gp|log)$' | grep -E 'again|run\.png')" ] ||
	fail "dls plot left its working files: $(ls "$T")"

# what cannot be drawn
echo '{"run": "x"}' >"$T/notime.json"
expect_usage_error "^dls plot: RUN.json '.*notime.json': no \"timeline\" in it" \
	dls plot "$T/notime.json" --gantt "$T/x.png"
expect_usage_error "^dls plot: --gantt '.*x.jpg': the picture's name must end in .png or .svg$" \
	dls plot "$T/run.json" --gantt "$T/x.jpg"
expect_usage_error "^dls plot: --gantt: is required" dls plot "$T/run.json"
expect_usage_error "^dls run: --gantt 'x.gif': must name a .png or .svg file$" dls run --gantt x.gif
expect_usage_error "^dls run: --gantt '.*x.png': Tree Scheduling and the balancing policies keep no timeline" \
	dls run --scheme trees --gantt "$T/x.png"
echo "ok the timeline covers the loop once; PNG and SVG drawn"
