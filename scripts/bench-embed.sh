#!/usr/bin/env bash
# bench-embed.sh [BUILD_DIR] [REPS] - slaves embedded in a host program on
# the host's ORB (examples/embed_slave.cc, through the installed libdls.so)
# against dls-slave, on the emulated C8 and C8-nd clusters, alternating,
# same master and options.  Needs `make examples` (BUILD_DIR/prefix and
# BUILD_DIR/examples).  Prints E per run and the medians.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
EMBED="$BUILD/examples/embed_slave"
[ -x "$EMBED" ] || { echo "bench-embed: build the examples first (make examples)" >&2; exit 1; }
T=$(mktemp -d /tmp/dls-embed-XXXXXX)
trap 'rm -rf "$T"' EXIT
e_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['efficiency'])" "$1"; }
for cell in "C8 gss interleaved" "C8 dtss interleaved" "C8-nd gss interleaved" "C8 ss natural"; do
	set -- $cell
	for rep in $(seq "$REPS"); do
		for who in dls-slave embedded; do
			extra=""
			[ $who = embedded ] && extra="--slave-program $EMBED"
			"$BUILD/bin/dls" run --cluster "$1" --scheme "$2" --order "$3" --width 4000 \
				--height 2000 --no-progress --json "$T/$who.$rep.json" $extra >/dev/null 2>&1
			echo "$1 $2 $3 rep $rep $who E $(e_of "$T/$who.$rep.json")"
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
    a, b = statistics.median(by["dls-slave"]), statistics.median(by["embedded"])
    print(f"{cell:24s} median E: dls-slave {a:.3f}, embedded {b:.3f} ({(b - a) / a * 100:+.1f}%)")
PY
