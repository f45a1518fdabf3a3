#!/usr/bin/env bash
# bench-straggler.sh BEFORE_BIN AFTER_BIN FREEZE_MAIN STALL_MS - a run whose
# slave's computing thread freezes (tests/tools/freeze_main) half a second
# after it registered, while its ORB answers pings: 3 emulated slaves,
# 400x200 GSS, t_iter 3000 ns, --stall-ms STALL_MS, for two builds one
# after the other.  Prints T_p, how the frozen slave was found, and whether
# the image is exact.
#
#   scripts/bench-straggler.sh /tmp/before build/bin build/tests/bin/freeze_main 20000
set -eu
[ $# -eq 4 ] || { echo "usage: bench-straggler.sh BEFORE_BIN AFTER_BIN FREEZE_MAIN STALL_MS" >&2; exit 2; }
FREEZE=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
T=$(mktemp -d /tmp/dls-straggler-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$2/dls" mandel --width 400 --height 200 --raw "$T/ref.pgm" >/dev/null
for side in before after; do
	bin=$(cd "$1" && pwd)
	[ $side = after ] && bin=$(cd "$2" && pwd)
	ns=$("$bin/dls" names start --dir "$T/ns")
	NS="-ORBInitRef NameService=$ns"
	# shellcheck disable=SC2086 # the ORB's option and its value
	"$bin/dls-master" --run st --slaves 3 --width 400 --height 200 --scheme gss \
		--stall-ms "$4" --raw "$T/st.pgm" --json "$T/st.json" $NS >"$T/master.log" 2>&1 &
	master=$!
	for _ in $(seq 100); do
		nameclt $NS list DLS/st 2>/dev/null | grep -qx master && break
		sleep 0.1
	done
	for i in 0 1; do
		# shellcheck disable=SC2086
		"$bin/dls-slave" --run st --name "s$i" --t-iter 3000 $NS >"$T/s$i.log" 2>&1 &
	done
	# shellcheck disable=SC2086
	DLS_LOG_LEVEL=info "$FREEZE" "$bin/dls-slave" --run st --name s2 --t-iter 3000 $NS \
		>"$T/frozen.log" 2>&1 &
	frozen=$!
	for _ in $(seq 100); do grep -q "registered as slave" "$T/frozen.log" && break; sleep 0.1; done
	sleep 0.5
	kill -USR2 "$frozen"
	wait "$master" || true
	kill "$frozen"
	wait
	"$bin/dls" names stop --dir "$T/ns" >/dev/null 2>&1 || true
	cmp -s "$T/st.pgm" "$T/ref.pgm" && exact=exact || exact=DIFFERS
	how=$(grep -o "lost ([a-z ]*" "$T/master.log" | head -1)
	echo "$side: T_p $(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["t_p"], 2))' "$T/st.json") s, the frozen slave ${how:-not found} ...), image $exact"
done
