#!/usr/bin/env bash
# `dls simulate`: the zero-overhead limit of a scheme, and bad input refused.
set -eu
. "$(dirname "$0")/lib.sh"

out=$(dls simulate --speeds 1,1,1,1 --scheme ss --width 200 --height 100 --json "$T/s.json")
echo "$out" | grep -qE "^T_p .* E (0\.9|1\.0)"
expect_eq "chunks" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chunks"])' "$T/s.json")" 200
# C8's ideal time for 4000x2000 is 3.537 s (docs/emulation.md 3)
dls simulate --cluster C8 --scheme gss --order interleaved --width 4000 --height 2000 | grep -q "T_ideal 3.537 s"
dls simulate --pes 1000 --nd --scheme dtss --width 4000 --height 100 --overhead-us 20 | grep -q "1000 slaves"
# pN / pN-nd are cluster names of run, simulate and bench alike: --pes N [--nd]
a=$(dls simulate --cluster p6-nd --scheme fss --width 400 --height 100 | grep '^T_p')
b=$(dls simulate --pes 6 --nd --scheme fss --width 400 --height 100 | grep '^T_p')
expect_eq "p6-nd against --pes 6 --nd" "$a" "$b"
expect_usage_error "^dls simulate: --cluster 'p0': unknown cluster" dls simulate --cluster p0
expect_usage_error "^dls run: --cluster 'p3x': unknown cluster" dls run --cluster p3x
expect_usage_error "^dls simulate: --pes '0': must be an integer" dls simulate --pes 0
expect_usage_error "^dls simulate: --link-latency-us 'x': must be a number" dls simulate --cluster C8 --link-latency-us x

# the take-back (PROTOCOL.md 17, BENCHMARKS.md 5), modelled by default as
# dls run plays it: mFSC on C8-mis, natural order, beats itself without it,
# says what it took back; flat, one step only
off=$(dls simulate --cluster C8-mis --scheme mfsc --width 800 --height 400 --take-back off |
	sed -n 's/.* E \([0-9.]*\) .*/\1/p')
out=$(dls simulate --cluster C8-mis --scheme mfsc --width 800 --height 400 --json "$T/tb.json")
on=$(echo "$out" | sed -n 's/.* E \([0-9.]*\) .*/\1/p')
python3 -c "import sys; assert float(sys.argv[2]) > float(sys.argv[1]), sys.argv" "$off" "$on"
echo "$out" | grep -qE "^take-back \(holders\): [1-9][0-9]* take-backs, [1-9][0-9]* iterations taken back"
[ "$(json_get "$T/tb.json" take_back)" = holders ]
expect_usage_error "^dls simulate: --take-back 'x': must be off, holders or oracle" \
	dls simulate --cluster C8 --take-back x
expect_usage_error "^dls simulate: --take-back: models a flat master-slave run of one step only" \
	dls simulate --cluster C8 --take-back oracle --hmasters 2

# Tree Scheduling: Kim and Purtilo 1996's Example 4.3 exactly (docs/schemes.md 6.6) and a
# theorem check of 6.7, through the command line
out=$(dls simulate --scheme trees --tau 1,2,3,4 --tasks 60 --gamma proportional --json "$T/t.json")
echo "$out" | grep -qx "chain 0 3 1 2"
echo "$out" | grep -qx "migrations 2, iterations moved 48"
echo "$out" | grep -qx "migration units (size x times): 12x1 36x1"
echo "$out" | grep -q "^T_p 24.000000 "
python3 - "$T/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["units"] == [[12, 1], [36, 1]] and r["link_migrations"] == [1, 0, 1], r
PY
out=$(dls simulate --scheme trees --tau 1,2,3,4 --tasks 600)
echo "$out" | grep -qx "migrations 9, iterations moved 478"
echo "$out" | grep -q "^T_p 241.000000   T_ideal 240.000000"
dls simulate --scheme trees --tau 1,3 --tasks 3000 | grep -qx "migrations 7, iterations moved 1498"
dls simulate --scheme trees --cluster C8-nd --order interleaved --bidirectional --alloc proportional \
	--gamma proportional | grep -q "bi-directional"
expect_usage_error "^dls simulate: --gamma 'third': must be half, proportional or ratio" \
	dls simulate --scheme trees --cluster C8 --gamma third
expect_usage_error "^dls simulate: --tau: needs --scheme trees" dls simulate --tau 1,2 --tasks 3
# the adaptive techniques learn in the model (t_run_schemes runs them)
for s in af awf-b awf-c awf-d awf-e mfsc static; do
	dls simulate --scheme $s --cluster C8 --order interleaved | grep -q "^T_p .* E 0\.[0-9]*"
done
# time-stepping AWF (--steps): a line per step whose figures add up to the
# totals, the first step WF's on the given weights; auto and hmasters
# refused; a run (one loop) refuses awf with the reason
out=$(dls simulate --scheme awf --cluster C8-mis --order interleaved --steps 3 --width 800 \
	--height 400 --overhead-us 100 --json "$T/awf.json")
expect_eq "awf's first step" "$(echo "$out" | sed -n 's/^step 1: T_p \([0-9.]*\) s .* chunks \([0-9]*\)$/\1 \2/p')" \
	"$(dls simulate --scheme wf --cluster C8-mis --order interleaved --width 800 --height 400 \
		--overhead-us 100 | sed -n 's/^T_p \([0-9.]*\) s .* chunks \([0-9]*\) .*/\1 \2/p')"
python3 - "$T/awf.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["steps"]
assert len(s) == 3 and abs(sum(x["t_p"] for x in s) - r["t_p"]) < 1e-6, r
assert sum(x["chunks"] for x in s) == r["chunks"], r
assert all(0.5 < x["efficiency"] <= 1.0 for x in s), s
PY
# auto starts every loop afresh, as dls run --loops does
dls simulate --scheme auto --cluster C8 --loops 2 >"$T/auto-loops.log"
[ "$(grep -c '^step [12]: ' "$T/auto-loops.log")" = 2 ] || { cat "$T/auto-loops.log"; fail "auto --loops 2"; }
expect_usage_error "^dls simulate: --loops: models a flat run only" \
	dls simulate --scheme dtss --cluster C8 --steps 2 --hmasters 2
expect_usage_error "^dls run: --scheme 'awf': awf learns its weights from one loop for the next: give --loops N" \
	dls run --cluster C8 --scheme awf
expect_usage_error "^dls bench: --schemes 'awf': awf learns its weights from one loop for the next: give --loops N" \
	dls bench --schemes awf
dls simulate --scheme fsc --cluster C8 --overhead-us 100 | grep -q "^fsc: h 100.0 us (the modelled round trip), iteration sd"
dls simulate --scheme fsc --cluster C8 | grep -q "^fsc: h = sd (the model has no overhead"

# the decentralized policies (docs/papers.md): each balances
# C8 far above the placement alone (NP against it), and bad options are
# refused with the reason
for s in workpile roc ripple; do
	out=$(dls simulate --scheme $s --cluster C8 --width 800 --height 400 --json "$T/$s.json")
	echo "$out" | grep -q "^simulated: scheme $s (allocation equal)"
	python3 - "$T/$s.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["t_nolb"] > r["t_p"] >= r["t_ideal"] * 0.999, r
assert sum(r["pe_iterations"]) == 800 and r["moved"] > 0, r
PY
done
dls simulate --scheme ripple --topology cube --cluster C8 --width 800 --height 400 \
	| grep -q "^ripple: Tortoise on a cube"
dls simulate --scheme none --cluster C8 --width 800 --height 400 | grep -q "^migrations 0,"
expect_usage_error "^dls simulate: --scheme 'ripple': the cube topology needs a power-of-two" \
	dls simulate --scheme ripple --topology cube --speeds 1,2,3
expect_usage_error "^dls simulate: --scheme 'roc': the RoC thresholds must satisfy" \
	dls simulate --scheme roc --cluster C8 --ct 30
expect_usage_error "^dls simulate: --alloc 'round-robin': must be equal or proportional" \
	dls simulate --scheme workpile --cluster C8 --alloc round-robin
expect_usage_error "^dls simulate: --topology 'ring': must be line or cube" \
	dls simulate --scheme ripple --cluster C8 --topology ring
expect_usage_error "^dls simulate: --seed/--threshold/--ht/...: needs --scheme workpile" \
	dls simulate --scheme ss --cluster C8 --ht 3

# the simulated run's timeline and pictures, as a measured run's: every
# iteration in exactly one chunk (the take-back's cut chunks and their
# tails included), the Gantt chart and the report drawn from it
out=$(dls simulate --cluster C8-mis --scheme mfsc --width 400 --height 200 --json "$T/tl.json" \
	--gantt "$T/tl.png" --report "$T/tl.html")
echo "$out" | grep -qx "drew the Gantt chart in $T/tl.png" || fail "simulate --gantt: $out"
echo "$out" | grep -qx "wrote the report in $T/tl.html" || fail "simulate --report: $out"
python3 - "$T/tl.json" "$T/tl.png" <<'PY'
import json, struct, sys
r = json.load(open(sys.argv[1]))
covered = [0] * 400
for c in r["timeline"]:
    assert c["count"] > 0 and c["begin"] >= c["given"] >= 0, c
    assert c["delivered"] >= c["begin"] + c["compute"] - 1e-6, c
    for i in range(c["first"], c["first"] + c["count"]):
        covered[i] += 1
assert covered == [1] * 400, [i for i, k in enumerate(covered) if k != 1][:10]
assert len(r["pes"]) == 8 and r["iterations"] == 400, r["pes"]
assert sum(p["iterations"] for p in r["pes"]) >= 400
head = open(sys.argv[2], "rb").read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1100, 130 + 26 * 8)
PY
grep -q '<td id="efficiency">' "$T/tl.html" || fail "the simulated run's report has no E"
expect_usage_error "^dls simulate: --gantt 'x.gif': must name a .png or .svg file$" \
	dls simulate --cluster C8 --gantt x.gif
expect_usage_error "^dls simulate: --report 'x.htm': must name a .html file$" \
	dls simulate --cluster C8 --report x.htm
expect_usage_error "^dls simulate: --gantt 'x.png': the flat model only keeps a timeline" \
	dls simulate --cluster C8 --hmasters 2 --gantt x.png
expect_usage_error "^dls simulate: --report 'x.html': Tree Scheduling and the balancing policies" \
	dls simulate --cluster C8 --scheme trees --report x.html
echo "ok a simulated run's timeline covers the loop once; its Gantt chart and report drawn"
