#!/usr/bin/env bash
# bench-ingest.sh [BUILD_DIR] [REPS] [WORKLOAD] - the master's result ingest
# rate beside a bare omniORB transfer of the same messages, alternating, on
# loopback.  The master ingests COUNT iterations of 8 KiB (default 8000:
# 64 MiB) delivered as a slave does (1 MiB submits, the last block on the
# request): every block checked against the ledger and by the workload, then
# stored.  Both servers are new processes in every rep: the first 1 MiB a
# process receives lands in memory it has never touched (4-6 ms here).
# WORKLOAD: pendulum (default: 1020 bins of doubles, every one checked),
# mandelbrot (4096 rows of counts, each checked to be in 1..maxit) or
# declared (a loop the master only knows the shape of: nothing to check).
# The bare servant's submit() takes the same 1 MiB messages and drops them.
# COUNT in the environment sets the number of iterations.
# Prints each rep and the medians in MiB/s, and their ratio.
set -eu
BIN=$(cd "${1:-build}/bin" && pwd)
REPS=${2:-5}
COUNT=${COUNT:-8000}
case ${3:-pendulum} in
pendulum) LOOP="--workload pendulum --param count=$COUNT --param bins=1020 --param periods=1" ;;
mandelbrot) LOOP="--workload mandelbrot --param width=$COUNT --param height=4096 --param maxit=64" ;;
declared) LOOP="--workload opaque --param dls.iterations=$COUNT --param dls.result_bytes=8192" ;;
*) echo "bench-ingest: WORKLOAD is pendulum, mandelbrot or declared" >&2; exit 2 ;;
esac
T=$(mktemp -d /tmp/dls-ingest-XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	"$BIN/dls" names stop --dir "$T/ns" >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
ROW=8192		     # octets per iteration in each workload above
BLOCK=$((1048576 / ROW * ROW)) # what a slave puts in one message
ADDR=$("$BIN/dls" names start --dir "$T/ns")
NS="-ORBInitRef NameService=$ADDR"
EP="-ORBendPoint giop:tcp:127.0.0.1:"
for rep in $(seq "$REPS"); do
	"$BIN/dls-master" --run "ingest$rep" --slaves 1 --scheme gss $LOOP --quiet $NS $EP &
	M=$!
	PIDS="$PIDS $M"
	"$BIN/dls" ingest --master "ingest$rep" $NS $EP >"$T/master.$rep"
	wait "$M"
	rm -f "$T/bare.ior"
	"$BIN/dls" ingest --serve "$T/bare.ior" $EP &
	B=$!
	PIDS="$PIDS $B"
	for _ in $(seq 50); do [ -s "$T/bare.ior" ] && break; sleep 0.1; done
	"$BIN/dls" ingest --bare "$(cat "$T/bare.ior")" --block-bytes $BLOCK \
		--bytes $((COUNT * ROW)) $EP >"$T/bare.$rep"
	kill "$B"
	wait "$B" 2>/dev/null || true
done
python3 - "$T" "$REPS" <<'PY'
import statistics, sys
t, reps = sys.argv[1], int(sys.argv[2])
def rate(path):
    f = open(path).read().split()
    return int(f[1]) / (float(f[5]) - float(f[3])) / 2**20
m = [rate(f"{t}/master.{r}") for r in range(1, reps + 1)]
b = [rate(f"{t}/bare.{r}") for r in range(1, reps + 1)]
for r in range(reps):
    print(f"rep {r + 1}: master {m[r]:8.1f} MiB/s   bare ORB {b[r]:8.1f} MiB/s")
mm, mb = statistics.median(m), statistics.median(b)
print(f"median: master {mm:.1f} MiB/s, bare ORB {mb:.1f} MiB/s, ratio {mm / mb:.2f}")
PY
