#!/usr/bin/env bash
# Runs of many loops (BENCHMARKS.md 15), in one invocation:
#   cost     1000 loops of 64 cheap iterations on C8, under a master
#            (dtss), Tree Scheduling and workpile: from a loop's last
#            result to every slave holding its first chunk of the next
#            (the JSON's gap + all_given), beside the bare ORB round trip
#            (dls orbping: N two-way calls on one connection)
#   learn    LOOPS loops of the drifting pendulum on C8-var and C8-mis,
#            natural order: awf, awf-b, af and auto carrying what they learnt
#            and afresh (--fresh-loops); E of the whole run
#   separate the same loops as one dls run per loop (today's other way),
#            for auto on C8-var: the sum of their wall times
#   heat     examples/heat_sim: STEPS steps in one run against STEPS runs
#            of one step, in pairs, 3 times: the wall time of each
# usage: scripts/bench-loops.sh [cost|learn|separate|heat ...]   (default: all)
# Needs `make` and `make examples` (build/bin, build/examples).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=$here/build/bin
X=$here/build/examples
OUT=${OUT:-$(mktemp -d /tmp/bench-loops.XXXXXX)}
mkdir -p "$OUT"
LOOPS=${LOOPS:-100}
STEPS=${STEPS:-50}
PEND="--workload pendulum --param count=400 --param drift=0.05"
parts=${*:-cost learn separate heat}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

for part in $parts; do
case $part in
cost)
	# the master's scheme (dtss), Tree Scheduling and a balancing policy:
	# for the last two, "holding a chunk" is every slave placed for the
	# next loop (the gate: every slave ended the loop before)
	for s in dtss trees workpile; do
		"$BIN/dls" run --cluster C8 --scheme $s --loops 1000 --width 64 --height 16 --maxit 32 \
			--no-journal --no-progress --json "$OUT/cost-$s.json" >"$OUT/cost-$s.log" 2>&1
		/usr/bin/python3 - "$OUT/cost-$s.json" $s <<'PY'
import json, statistics, sys
L = json.load(open(sys.argv[1]))["loops"]
s = [(l["gap"] + l["all_given"]) * 1e3 for l in L[1:]]
g = [l["gap"] * 1e3 for l in L[1:]]
print("cost: %-8s %d loops; last result -> every slave holding a chunk: median %.3f ms, p90 %.3f ms, max %.3f ms (gate alone: median %.3f ms); a loop's T_p median %.2f ms"
      % (sys.argv[2], len(L), statistics.median(s), sorted(s)[int(0.9 * len(s))], max(s),
         statistics.median(g), statistics.median(l["t_p"] for l in L) * 1e3))
PY
	done
	rm -f "$OUT/ping.ior"
	"$BIN/dls" orbping --serve "$OUT/ping.ior" -ORBendPoint giop:tcp:127.0.0.1: &
	server=$!
	for _ in $(seq 100); do [ -s "$OUT/ping.ior" ] && break; sleep 0.1; done
	"$BIN/dls" orbping --call "$(cat "$OUT/ping.ior")" --calls 10000 >"$OUT/ping.log"
	kill "$server"
	wait "$server" 2>/dev/null || true
	awk '{ printf "cost: bare ORB round trip %.3f ms (%d calls)\n", ($6 - $4) / $2 * 1e3, $2 }' \
		"$OUT/ping.log"
	;;
learn)
	for cl in C8-var C8-mis; do
		for s in awf awf-b af auto; do
			for fresh in "" --fresh-loops; do
				tag=$cl-$s${fresh:+-fresh}
				"$BIN/dls" run --cluster $cl --scheme $s $fresh --loops "$LOOPS" $PEND \
					--no-journal --no-progress --json "$OUT/$tag.json" \
					>"$OUT/$tag.log" 2>&1
				/usr/bin/python3 - "$OUT/$tag.json" "$tag" <<'PY'
import json, statistics, sys
j = json.load(open(sys.argv[1]))
L = j["loops"]
print("learn: %-22s E %.3f over the run (T_p %.2f s, T_ideal %.2f s); a loop's E %.3f median, %.3f first, %.3f min"
      % (sys.argv[2], j["efficiency"], j["t_p"], j["t_ideal"],
         statistics.median(l["efficiency"] for l in L), L[0]["efficiency"],
         min(l["efficiency"] for l in L)))
PY
			done
		done
	done
	;;
separate)
	t0=$(date +%s.%N)
	for k in $(seq 0 $((LOOPS - 1))); do
		"$BIN/dls" run --cluster C8-var --scheme auto $PEND --param dls.loop=$k --no-journal \
			--no-progress --json "$OUT/sep-$k.json" >"$OUT/sep-$k.log" 2>&1
	done
	t1=$(date +%s.%N)
	/usr/bin/python3 - "$OUT" "$LOOPS" "$t0" "$t1" <<'PY'
import json, sys
out, n, t0, t1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
js = [json.load(open("%s/sep-%d.json" % (out, k))) for k in range(n)]
tp = sum(j["t_p"] for j in js)
ti = sum(j["t_ideal"] for j in js)
print("separate: %d runs of auto on C8-var: %.1f s of wall time, sum of T_p %.2f s, sum T_ideal / sum T_p %.3f"
      % (n, t1 - t0, tp, ti / tp))
PY
	/usr/bin/time -f "separate: the same %e s of wall time for one run of $LOOPS loops" \
		"$BIN/dls" run --cluster C8-var --scheme auto --loops "$LOOPS" $PEND --no-journal \
		--no-progress >/dev/null 2>"$OUT/one-run.time" || true
	tail -1 "$OUT/one-run.time"
	;;
heat)
	names=$("$BIN/dls" names start --dir "$OUT/names")
	ORB="-ORBInitRef NameService=$names -ORBendPoint giop:tcp:127.0.0.1:"
	# paired: one run of STEPS steps, then STEPS runs of one step, 3 times
	for rep in 1 2 3; do
		t0=$(date +%s.%N)
		"$X/heat_sim" --steps "$STEPS" --slaves 2 --run "heat-all-$rep" $ORB >/dev/null
		t1=$(date +%s.%N)
		for i in $(seq "$STEPS"); do
			"$X/heat_sim" --steps 1 --slaves 2 --run "heat-one-$rep-$i" $ORB >/dev/null
		done
		t2=$(date +%s.%N)
		echo "$t0 $t1 $t2"
	done | awk -v steps="$STEPS" '{ a[NR] = $2 - $1; b[NR] = $3 - $2 }
		END { for (i = 1; i <= NR; i++) printf "heat: pair %d: %d steps in one run %.3f s, as %d runs %.3f s (%.3f)\n", i, steps, a[i], steps, b[i], a[i] / b[i] }'
	"$BIN/dls" names stop --dir "$OUT/names"
	;;
*)
	echo "bench-loops.sh: unknown part '$part' (cost, learn, separate, heat)" >&2
	exit 2
	;;
esac
done
echo "bench-loops.sh: outputs in $OUT"
