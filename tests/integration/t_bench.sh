#!/usr/bin/env bash
# A tiny `dls bench` matrix end to end: every output is there and consistent
# (cells, runs, tables, CSV, JSON, plots, capacity), not timings.
set -eu
. "$(dirname "$0")/lib.sh"

dls bench --clusters C8,C8-nd --schemes ss,hdtss --orders interleaved --reps 2 \
	--width 200 --height 100 --t-iter 2000 --capacity --out "$T/b" >"$T/bench.out" 2>"$T/bench.err"
for f in bench.csv bench.json tables.txt plots/efficiency-interleaved.png \
	plots/tcomp-C8-interleaved.png plots/tcomp-C8-nd-interleaved.png; do
	[ -s "$T/b/$f" ] || { echo "FAILED missing $f" >&2; exit 1; }
done
grep -qx "wrote $T/b/bench.csv, $T/b/bench.json, $T/b/tables.txt and the plots in $T/b/plots/" \
	"$T/bench.out" || fail "dls bench does not say where it wrote: $(tail -1 "$T/bench.out")"
expect_eq "csv rows" "$(tail -n +2 "$T/b/bench.csv" | wc -l)" 4
expect_eq "runs kept" "$(ls "$T/b"/runs/*-interleaved-*.json | wc -l)" 8
if python3 - "$T/b/bench.json" <<'PY'
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert len(cells) == 4, cells
for c in cells:
    assert c["ok"] == c["runs"] == 2, c
    assert len(c["tp"]) == 2 and c["tp"][0] <= c["tp"][1], c
    assert c["tp"][0] <= c["tp_median"] <= c["tp"][1], c
    # every run computed the same work, so T_ideal is the cluster's
    assert c["t_ideal"] > 0 and abs(c["efficiency"] - c["t_ideal"] / c["tp_median"]) < 0.05, c
    assert 0 < c["sim_tp"] and c["sim_efficiency"] <= 1.0 + 1e-9, c
    assert c["chunks"] >= 1, c
nd = [c for c in cells if c["cluster"] == "C8-nd"]
ded = [c for c in cells if c["cluster"] == "C8"]
assert all(n["t_ideal"] > d["t_ideal"] for n, d in zip(nd, ded))  # less power
PY
then :; else
	# show why a run failed: dls bench names its log
	cat "$T/bench.err"
	for f in $(sed -n 's/.* failed (see \(.*\))$/\1/p' "$T/bench.err"); do
		echo "---- $f"
		cat "$f"
	done
	exit 1
fi
grep -q "^C8, order interleaved: PE_i T_com+wait/T_comp" "$T/bench.out"
grep -q "^ T_p " "$T/bench.out"
grep -qE "^  ratio: +[0-9.]+ of the bare ORB's rate" "$T/bench.out"
expect_usage_error "^dls bench: --clusters 'C9': unknown cluster" dls bench --clusters C9
expect_usage_error "^dls bench: --collection '12000': must be WIDTHxHEIGHT" dls bench --collection 12000
# scaling: E against the number of slaves for pN clusters
dls bench --clusters p2,p4,p2-nd,p4-nd --schemes ss --orders interleaved --reps 1 \
	--width 100 --height 50 --t-iter 4000 --out "$T/s" >"$T/scale.out" 2>&1
[ -s "$T/s/plots/scaling.png" ] || { echo "FAILED missing plots/scaling.png" >&2; exit 1; }
expect_eq "scaling series" "$(head -1 "$T/s/plots/scaling.dat")" "slaves ss-interleaved ss-nd-interleaved"
expect_eq "scaling sizes" "$(cut -d' ' -f1 "$T/s/plots/scaling.dat" | tail -n +2 | tr '\n' ' ')" "2 4 "
