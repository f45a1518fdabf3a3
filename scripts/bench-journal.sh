#!/usr/bin/env bash
# bench-journal.sh [BUILD_DIR] [REPS] - what the master's (and Tree
# Scheduling's coordinator's) journal costs and what their crash costs
# (BENCHMARKS.md 13.1), on the emulated C8 at 4000x2000:
#  - T_p with the journal, handed to the OS (dls run's default, which
#    survives the master's crash) and synced to the disk (--journal-sync
#    disk, which survives the machine's), against --no-journal, alternating
#    run by run, per scheme and order;
#  - kill -9 of the master (the coordinator, for trees) at 1.5 s (dls run
#    --kill master@1.5): dls run resumes it from its journal, the slaves
#    rejoin; the image is compared with the sequential kernel's, and the
#    crash's cost is T_p with the kill minus T_p without it.
# Prints every run and the medians.  CELLS="scheme order ..." picks the cells
# (default: every one below).
set -eu
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
DLS="$BUILD/bin/dls"
T=$(mktemp -d /tmp/dls-journal-XXXXXX)
trap 'rm -rf "$T"' EXIT
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
"$DLS" mandel --width 4000 --height 2000 --raw "$T/ref.pgm" >/dev/null
CELLS=${CELLS:-dtss interleaved,gss interleaved,ss natural,dtss natural,trees natural}
IFS=, read -r -a cells <<<"$CELLS"
for cell in "${cells[@]}"; do
	set -- $cell
	for rep in $(seq "$REPS"); do
		for how in no-journal journal-os journal-disk kill; do
			extra=""
			[ $how = no-journal ] && extra="--no-journal"
			[ $how = journal-disk ] && extra="--journal-sync disk"
			[ $how = kill ] && extra="--kill master@1.5"
			"$DLS" run --cluster C8 --scheme "$1" --order "$2" --width 4000 --height 2000 \
				--no-progress --json "$T/r.json" --raw "$T/r.pgm" $extra >"$T/r.log" 2>&1
			exact=$("$DLS" compare "$T/r.pgm" "$T/ref.pgm" >/dev/null && echo exact || echo WRONG)
			echo "C8 $1 $2 rep $rep $how T_p $(field "$T/r.json" t_p) E $(field "$T/r.json" efficiency) $exact"
		done
	done
done | tee "$T/all"
python3 - "$T/all" <<'PY'
import statistics, sys, collections
cells = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    cells.setdefault(" ".join(f[:3]), {}).setdefault(f[5], []).append(float(f[7]))
for cell, by in cells.items():
    n, j, d, k = (statistics.median(by[h]) for h in ("no-journal", "journal-os", "journal-disk", "kill"))
    print(f"{cell:20s} median T_p: no journal {n:.3f} s, journal (os) {j:.3f} s ({(j - n) / n * 100:+.1f}%),"
          f" (disk) {d:.3f} s ({(d - n) / n * 100:+.1f}%), master killed at 1.5 s {k:.3f} s"
          f" (the crash cost {k - j:+.2f} s)")
PY
