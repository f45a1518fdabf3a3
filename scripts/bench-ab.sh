#!/usr/bin/env bash
# bench-ab.sh BEFORE_BIN AFTER_BIN REPS CELL... - two builds of DLS side by
# side on the same cells, alternating run by run, so that a change is
# measured against the unchanged binaries in one invocation (this machine's
# speed moves from one hour to the next).  BEFORE_BIN and AFTER_BIN are
# folders holding dls, dls-master and dls-slave (copies of build/bin: a
# build changes build/bin in place).  Each CELL is "CLUSTER SCHEME ORDER
# LATENCY_US", e.g. "C8 ss natural 500".  4000x2000, no journal (with
# JOURNAL=1 in the environment: dls run's journal, handed to the OS).
# Prints each cell's E, median and runs, for both.  AFTER_ARGS in the
# environment: options the after side's runs take besides (for example
# AFTER_ARGS="--verify 0.05", with the same folder on both sides).
#
#   cp -r build/bin /tmp/before; (change, make); cp -r build/bin /tmp/after
#   scripts/bench-ab.sh /tmp/before /tmp/after 3 "C8 ss natural 500" "C8 gss interleaved 0"
set -eu
[ $# -ge 4 ] || { echo "usage: bench-ab.sh BEFORE_BIN AFTER_BIN REPS CELL..." >&2; exit 2; }
BEFORE=$(cd "$1" && pwd)
AFTER=$(cd "$2" && pwd)
REPS=$3
shift 3
journal=--no-journal
[ "${JOURNAL:-0}" = 1 ] && journal=
T=$(mktemp -d /tmp/dls-ab-XXXXXX)
trap 'rm -rf "$T"' EXIT
for rep in $(seq "$REPS"); do
	for cell in "$@"; do
		read -r cl scheme order lat <<<"$cell"
		for side in before after; do
			bin=$BEFORE extra=
			[ $side = after ] && bin=$AFTER extra=${AFTER_ARGS:-}
			# shellcheck disable=SC2086 # extra: options, split into words
			"$bin/dls" run --cluster "$cl" --scheme "$scheme" --order "$order" \
				--width 4000 --height 2000 --link-latency-us "$lat" $journal $extra \
				--no-progress --json "$T/$cl,$scheme,$order,$lat,$side,$rep.json" \
				>"$T/run.log" 2>&1 || { cat "$T/run.log" >&2; exit 1; }
		done
	done
done
python3 - "$T" "$@" <<'PY'
import json, os, statistics, sys
t, cells = sys.argv[1], sys.argv[2:]
print(f"{'cell':34s} {'before':>7s} {'runs':24s} {'after':>7s} runs")
for cell in cells:
    key = ",".join(cell.split())
    e = {side: sorted(json.load(open(os.path.join(t, f)))["efficiency"]
                      for f in os.listdir(t) if f.startswith(key + "," + side + ","))
         for side in ("before", "after")}
    runs = {s: " ".join(f"{x:.3f}" for x in v) for s, v in e.items()}
    print(f"{cell:34s} {statistics.median(e['before']):7.3f} {runs['before']:24s} "
          f"{statistics.median(e['after']):7.3f} {runs['after']}")
    # --verify: the share of the loop computed again, run by run
    for side in ("before", "after"):
        v = [json.load(open(os.path.join(t, f))).get("verify")
             for f in sorted(os.listdir(t)) if f.startswith(key + "," + side + ",")]
        v = [x for x in v if x]
        if v:
            share = " ".join(f"{x['copied'] / json.load(open(os.path.join(t, f)))['iterations']:.3f}"
                             for x, f in zip(v, sorted(g for g in os.listdir(t)
                                                        if g.startswith(key + "," + side + ","))))
            print(f"{'':34s} {side}: iterations computed again / the loop's, run by run: {share}")
PY
