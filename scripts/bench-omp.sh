#!/usr/bin/env bash
# bench-omp.sh [BUILD_DIR] [SLAVES] [REPS] [SCHEMES] [WIDTH HEIGHT] - DLS on
# real cores against the same kernel in shared memory: for each repetition,
# tests/bench/omp_mandel with SLAVES threads (OpenMP schedule(dynamic,1)),
# then `dls run --real` with SLAVES slaves under each scheme of SCHEMES
# (default "gss fss ss auto"), alternating, on the same image (default
# 4000 x 2000, maxit 256).  SLAVES defaults to the host's cores.  Prints each
# run's time, then per system the median and OpenMP's median over it (1 =
# as fast as shared memory).  Run it on an otherwise idle host.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
SLAVES=${2:-$(nproc)}
REPS=${3:-3}
SCHEMES=${4:-gss fss ss auto}
WIDTH=${5:-4000}
HEIGHT=${6:-2000}
OMP="$BUILD/tests/bin/omp_mandel"
[ -x "$OMP" ] || { echo "bench-omp: $OMP missing (make $OMP)" >&2; exit 1; }
T=$(mktemp -d /tmp/dls-omp-XXXXXX)
trap 'rm -rf "$T"' EXIT
speeds=$(python3 -c "print(','.join(['1'] * $SLAVES))")
tp_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['t_p'])" "$1"; }
for rep in $(seq "$REPS"); do
	line=$("$OMP" --threads "$SLAVES" --width "$WIDTH" --height "$HEIGHT")
	echo "rep $rep openmp seconds $(echo "$line" | awk '{print $4}') work $(echo "$line" | awk '{print $6}')"
	for s in $SCHEMES; do
		rm -f "$T/r.json"
		if timeout 300 "$BUILD/bin/dls" run --real --speeds "$speeds" --scheme "$s" \
			--width "$WIDTH" --height "$HEIGHT" --no-progress --no-journal \
			--json "$T/r.json" >"$T/$s.$rep.log" 2>&1; then
			echo "rep $rep $s seconds $(tp_of "$T/r.json") $(grep -m1 '^scheme auto' "$T/$s.$rep.log" || true)"
		else
			echo "rep $rep $s failed: $(tail -1 "$T/$s.$rep.log")"
		fi
	done
done | tee "$T/all"
python3 - "$T/all" "$SLAVES" "$WIDTH" "$HEIGHT" <<'PY'
import collections, statistics, sys
by = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and f[3] == "seconds":
        by.setdefault(f[2], []).append(float(f[4]))
omp = statistics.median(by["openmp"])
print(f"{sys.argv[2]} cores, {sys.argv[3]} x {sys.argv[4]}: median seconds, OpenMP's over it")
for k, v in by.items():
    med = statistics.median(v)
    print(f"  {k:8s} {med:.3f} s   {omp / med:.3f}   ({len(v)} runs)")
PY
