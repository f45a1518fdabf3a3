#!/usr/bin/env bash
# bench-realq-one.sh [BUILD_DIR] [REPS] - four real slaves embedded in ONE
# program (examples/embed_slave --slaves 4) on this host under DTSS: Q_i read
# from the host (the run's own computing threads left out) against Q_i
# forced to 1, alternating, same master.  Run it on an otherwise idle host.
# Prints T_p per run, the waits the slaves logged, the medians and the ratio.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
EMBED="$BUILD/examples/embed_slave"
[ -x "$EMBED" ] || { echo "bench-realq-one: build the examples first (make examples)" >&2; exit 1; }
T=$(mktemp -d /tmp/dls-realq1-XXXXXX)
NS_ADDR=$("$BUILD/bin/dls" names start --dir "$T/names")
trap '"$BUILD/bin/dls" names stop --dir "$T/names" >/dev/null 2>&1; rm -rf "$T"' EXIT
NS="-ORBInitRef NameService=$NS_ADDR"
for rep in $(seq "$REPS"); do
	for who in host q1; do
		q=""
		[ $who = q1 ] && q="--q 1"
		run=r$rep$who
		"$BUILD/bin/dls-master" --run $run --slaves 4 --scheme dtss --width 4000 --height 2000 \
			--maxit 1000 --json "$T/$run.json" $NS >"$T/$run.master.log" 2>&1 &
		m=$!
		# shellcheck disable=SC2086
		timeout 120 "$EMBED" --run $run --name e --real $q --slaves 4 $NS >"$T/$run.slaves.log" 2>&1 ||
			echo "rep $rep $who: the program failed: $(tail -1 "$T/$run.slaves.log")"
		wait $m || true
		tp=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['t_p'])" "$T/$run.json")
		echo "rep $rep $who T_p $tp waits $(grep -c 'A_i = floor' "$T/$run.slaves.log" || true)"
	done
done | tee "$T/all"
python3 - "$T/all" <<'PY'
import statistics, sys, collections
by = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 4 and f[3] == "T_p":
        by.setdefault(f[2], []).append(float(f[4]))
med = {k: statistics.median(v) for k, v in by.items()}
for k, v in med.items():
    print(f"{k:6s} median T_p {v:.3f} s")
print(f"one program, 4 slaves: host Q / forced Q = 1: {med['host'] / med['q1']:.3f}")
PY
