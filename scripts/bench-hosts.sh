#!/usr/bin/env bash
# bench-hosts.sh [BUILD_DIR] [REPS] - a run across three hosts against the
# same run on one (BENCHMARKS.md 12), as root, on three network namespaces
# (scripts/netns-hosts.sh; 10.77.0.1-3 on a bridge):
#  - C8 at 4000x2000: dls run on the first host with its slaves there too
#    (one host), and with --hostfile over the three (2, 3 and 3 slaves,
#    launched with ip netns exec), alternating run by run, per scheme and
#    order; every image compared with the sequential kernel's;
#  - partition detection: h3's link cut at 1.5 s during a C8 run (T_ideal
#    3.5 s), for each --ping-timeout-ms: the time from the cut to the first
#    "lost" line of the master; every image compared.
# Prints every run, then the medians.  CELLS="scheme order,..." and
# TIMEOUTS="ms ..." pick what is measured.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
DLS="$BUILD/bin/dls"
HERE=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "bench-hosts.sh needs root (ip netns)" >&2; exit 1; }
T=$(mktemp -d /tmp/dls-hosts-XXXXXX)
P=dlsb$$
trap '"$HERE/netns-hosts.sh" down $P; rm -rf "$T"' EXIT
"$HERE/netns-hosts.sh" up $P
printf '%s\n' "${P}h1 addr=10.77.0.1 slots=2" "${P}h2 addr=10.77.0.2 slots=3" \
	"${P}h3 addr=10.77.0.3 slots=3" >"$T/hosts"
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
on1() { ip netns exec ${P}h1 "$@"; }
"$DLS" mandel --width 4000 --height 2000 --raw "$T/ref.pgm" >/dev/null
"$DLS" mandel --width 400 --height 200 --raw "$T/ref-small.pgm" >/dev/null
CELLS=${CELLS:-dtss interleaved,gss interleaved,dtss natural,ss natural}
IFS=, read -r -a cells <<<"$CELLS"
for cell in "${cells[@]}"; do
	set -- $cell
	for rep in $(seq "$REPS"); do
		for how in one-host three-hosts; do
			hosts=()
			[ $how = three-hosts ] && hosts=(--hostfile "$T/hosts" --launch 'ip netns exec {host}')
			on1 "$DLS" run --cluster C8 --scheme "$1" --order "$2" --width 4000 --height 2000 \
				"${hosts[@]}" --no-progress --json "$T/r.json" --raw "$T/r.pgm" >"$T/r.log" 2>&1
			exact=$("$DLS" compare "$T/r.pgm" "$T/ref.pgm" >/dev/null && echo exact || echo WRONG)
			echo "C8 $1 $2 rep $rep $how T_p $(field "$T/r.json" t_p) E $(field "$T/r.json" efficiency) $exact"
		done
	done
done | tee "$T/all"
for ms in ${TIMEOUTS:-500 1000 2000 3000}; do
	for rep in $(seq "$REPS"); do
		on1 "$DLS" run --cluster C8 --width 400 --height 200 --t-iter 10000 --ping-timeout-ms "$ms" \
			--hostfile "$T/hosts" --launch 'ip netns exec {host}' --no-progress \
			--raw "$T/c.pgm" --dir "$T/cut" >"$T/c.log" 2>&1 &
		run=$!
		sleep 1.5
		ip -n ${P}sw link set p3 down
		cut=$(date +%s.%N)
		sleep "$(python3 -c "print(2 * $ms / 1000 + 1)")"
		ip -n ${P}sw link set p3 up
		wait $run
		exact=$("$DLS" compare "$T/c.pgm" "$T/ref-small.pgm" >/dev/null && echo exact || echo WRONG)
		lost=$(grep -h " lost (" "$T/cut/master.log" | grep -v "no answer to stop" | head -1)
		at=$(date -d "$(echo "$lost" | cut -d' ' -f1)" +%s.%N)
		echo "cut ping-timeout-ms $ms rep $rep detected $(python3 -c "print(f'{$at - $cut:.3f}')") $exact"
		rm -rf "$T/cut"
	done
done | tee -a "$T/all"
python3 - "$T/all" <<'PY'
import statistics, sys
runs, cuts = {}, {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "C8":
        runs.setdefault((w[1], w[2]), {}).setdefault(w[5], []).append((float(w[7]), float(w[9])))
    elif w[0] == "cut":
        cuts.setdefault(int(w[2]), []).append(float(w[6]))
print("\n| cell | one host: T_p, E | three hosts: T_p, E | three / one (T_p) |")
print("|---|---|---|---|")
for (s, o), by in runs.items():
    one = statistics.median(t for t, _ in by["one-host"])
    three = statistics.median(t for t, _ in by["three-hosts"])
    e1 = statistics.median(e for _, e in by["one-host"])
    e3 = statistics.median(e for _, e in by["three-hosts"])
    print(f"| C8 {s} {o} | {one:.3f} s, {e1:.3f} | {three:.3f} s, {e3:.3f} | {three / one:.3f} |")
print("\n| --ping-timeout-ms | detection (median, min-max) |")
print("|---|---|")
for ms, d in sorted(cuts.items()):
    print(f"| {ms} | {statistics.median(d):.2f} s ({min(d):.2f}-{max(d):.2f}) |")
PY
