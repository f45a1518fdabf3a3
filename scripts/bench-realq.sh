#!/usr/bin/env bash
# bench-realq.sh [BUILD_DIR] [REPS] [OTHER_BIN_DIR] - real slaves that share
# a host with the run's other slaves: 4 real slaves (dls-slave, and embedded
# ones: examples/embed_slave) on this host under DTSS, Q_i read from the host
# (the run's own computing threads left out) against the same run with Q_i
# forced to 1 (--q 1), alternating, same master and options.  OTHER_BIN_DIR:
# also the programs of another build (one that counts the run's own slaves
# as load).  Run it on an otherwise idle host.  Prints T_p per run, the
# medians and their ratios.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
OTHER=${3:-}
EMBED="$BUILD/examples/embed_slave"
[ -x "$EMBED" ] || { echo "bench-realq: build the examples first (make examples)" >&2; exit 1; }
T=$(mktemp -d /tmp/dls-realq-XXXXXX)
trap 'rm -rf "$T"' EXIT
# the slave programs that force Q_i = 1: the same options and --q 1
printf '#!/bin/sh\nexec "%s" "$@" --q 1\n' "$BUILD/bin/dls-slave" >"$T/slave-q1"
printf '#!/bin/sh\nexec "%s" "$@" --q 1\n' "$EMBED" >"$T/embed-q1"
chmod +x "$T/slave-q1" "$T/embed-q1"
tp_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['t_p'])" "$1"; }
WHO="host q1 embedded-host embedded-q1"
[ -n "$OTHER" ] && WHO="$WHO other other-q1 other-embedded"
printf '#!/bin/sh\nexec "%s" "$@" --q 1\n' "$OTHER/dls-slave" >"$T/other-q1"
chmod +x "$T/other-q1"
for rep in $(seq "$REPS"); do
	for who in $WHO; do
		dls="$BUILD/bin/dls" extra="" env=""
		case $who in
		q1) extra="--slave-program $T/slave-q1" ;;
		embedded-host) extra="--slave-program $EMBED" ;;
		embedded-q1) extra="--slave-program $T/embed-q1" ;;
		other) dls="$OTHER/dls" ;;
		other-q1) dls="$OTHER/dls" extra="--slave-program $T/other-q1" ;;
		other-embedded) # built before dls.pc had the rpath
			dls="$OTHER/dls" extra="--slave-program $OTHER/../examples/embed_slave"
			env="LD_LIBRARY_PATH=$OTHER/../prefix/lib" ;;
		esac
		rm -f "$T/r.json"
		d="$T/$who.$rep"
		if env $env timeout 120 "$dls" run --real --speeds 1,1,1,1 --scheme dtss --width 4000 --height 2000 \
			--maxit 1000 --no-progress --json "$T/r.json" --dir "$d" $extra >"$d.log" 2>&1; then
			tp=$(tp_of "$T/r.json")
		else
			tp="120 (timed out or failed)"
		fi
		# the slaves' lines "A_i = floor(V_i / Q_i) = ... = 0: not asking for work"
		echo "rep $rep $who T_p $tp waits $(cat "$d"/slave.*.log | grep -c 'A_i = floor' || true)"
	done
done | tee "$T/all"
python3 - "$T/all" <<'PY'
import statistics, sys, collections
by = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    by.setdefault(f[2], []).append(float(f[4]))
med = {k: statistics.median(v) for k, v in by.items()}
for k, v in med.items():
    print(f"{k:14s} median T_p {v:.3f} s")
print(f"dls-slave: host Q / forced Q = 1: {med['host'] / med['q1']:.3f}")
print(f"embedded:  host Q / forced Q = 1: {med['embedded-host'] / med['embedded-q1']:.3f}")
if "other" in med:
    print(f"the other build (own slaves as load) / its forced Q = 1: dls-slave "
          f"{med['other'] / med['other-q1']:.3f}; embedded / this build's forced Q = 1: "
          f"{med['other-embedded'] / med['embedded-q1']:.3f}")
PY
