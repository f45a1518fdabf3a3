#!/usr/bin/env bash
# plot-piles.sh MAIN_OUT C64_OUT [DEST] - BENCHMARKS.md 8.1's two plots:
# E by scheme and cluster in each order, from two `dls bench --out` folders:
# MAIN_OUT (C8, C8-nd, C8-var, C24-nd at t_iter 100 ns) and C64_OUT (C64-nd at
# 300 ns, where 64 emulated slaves on 2 cores leave the work its share).
# Writes DEST/piles-efficiency-{natural,interleaved}.png (default docs/plots).
set -eu
MAIN=$1 C64=$2 DEST=${3:-docs/plots}
T=$(mktemp -d /tmp/dls-plot-piles-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
for o in natural interleaved; do
	python3 - "$MAIN/plots/efficiency-$o.dat" "$C64/plots/efficiency-$o.dat" "$T/$o.dat" <<'PY'
import sys
main = [l.split() for l in open(sys.argv[1])]
c64 = {r[0]: r[1:] for r in (l.split() for l in open(sys.argv[2]))}
with open(sys.argv[3], "w") as out:
    cols = [c for c in main[0][1:] if c != "C64-nd"]
    out.write(" ".join(["scheme"] + cols + ["C64-nd(300ns)"]) + "\n")
    for row in main[1:]:
        vals = dict(zip(main[0][1:], row[1:]))
        out.write(" ".join([row[0]] + [vals[c] for c in cols] + [c64[row[0]][0]]) + "\n")
PY
done
n=$(head -1 "$T/natural.dat" | wc -w)
{
	echo "set terminal pngcairo size 1000,560 enhanced font 'sans,11'"
	echo "set style histogram clustered gap 1; set style fill solid 0.8 border -1; set boxwidth 0.9"
	echo "set yrange [0:1.05]; set ylabel 'E'; set key outside right top; set grid ytics; set xtics rotate by -30"
	for o in natural interleaved; do
		echo "set output '$DEST/piles-efficiency-$o.png'"
		echo "set title 'E = T_{ideal} / T_p, $o order: decentralized policies beside DTSS, HDTSS, SS, GSS (one run a cell)'"
		echo "plot for [i=2:$n] '$T/$o.dat' using i:xtic(1) with histograms title columnheader(i)"
	done
} >"$T/p.gp"
gnuplot "$T/p.gp"
echo "wrote $DEST/piles-efficiency-natural.png and $DEST/piles-efficiency-interleaved.png"
