#!/usr/bin/env bash
# The second workload, "pendulum" (results as doubles, cost rising about
# sevenfold across the sweep): every way of running it gives results
# byte-identical to `dls reference`, the .npy reads in numpy, and bad
# workloads or parameters are refused before anything starts.
set -eu
. "$(dirname "$0")/lib.sh"

PARAMS="--param count=400 --param bins=40"
dls reference --workload pendulum $PARAMS --out "$T/ref.npy" >"$T/ref.log"
grep -q "workload pendulum: 400 iterations of 352 octets ('<f8')" "$T/ref.log"

run_same() { # NAME ARGS...: a run whose --out must equal the reference
	local name=$1
	shift
	dls run --workload pendulum $PARAMS --out "$T/$name.npy" --json "$T/$name.json" \
		--no-progress "$@" >"$T/$name.log" 2>&1
	cmp "$T/$name.npy" "$T/ref.npy"
	expect_eq "$name: iterations" "$(json_get "$T/$name.json" iterations)" 400
	expect_eq "$name: workload" "$(json_get "$T/$name.json" workload)" pendulum
}
run_same dfss --cluster C8 --scheme dfss --order interleaved
run_same trees --speeds 1,2,1 --scheme trees --order interleaved
run_same hdtss --speeds 1,1,2,2 --scheme dtss --hmasters 2
run_same end --speeds 1,2 --scheme gss --collect end
# bins=2000: 16 KiB per iteration, so a message holds 65 iterations and
# large chunks travel in several blocks
dls reference --workload pendulum --param count=200 --param bins=2000 --param periods=1 \
	--out "$T/big-ref.npy" >/dev/null
dls run --speeds 1,1 --scheme gss --workload pendulum --param count=200 --param bins=2000 \
	--param periods=1 --out "$T/big.npy" --no-progress >"$T/big.log" 2>&1
cmp "$T/big.npy" "$T/big-ref.npy"

# numpy reads what the master wrote (Debian's python3, where python3-numpy is)
/usr/bin/python3 - "$T/dfss.npy" <<'PY'
import sys, numpy
a = numpy.load(sys.argv[1])
assert a.shape == (400, 44) and a.dtype == numpy.float64, (a.shape, a.dtype)
assert abs(a[:, 4:].sum(axis=1) - 1).max() < 1e-9   # each histogram sums to 1
assert a[-1, 3] > 5 * a[0, 3]                         # the cost rises along the sweep
PY

# bad workloads and parameters: one line, exit 2, nothing started
expect_usage_error "^dls run: --workload 'nosuch': unknown workload 'nosuch' \(known: mandelbrot, pendulum" \
	dls run --speeds 1 --workload nosuch
expect_usage_error "^dls run: --workload 'pendulum': parameter bins: '0' is not an integer in 1\.\." \
	dls run --speeds 1 --workload pendulum --param bins=0
expect_usage_error "^dls run: --workload 'pendulum': unknown parameter 'width' \(known: count bins" \
	dls run --speeds 1 --workload pendulum --width 10
expect_usage_error "^dls run: --png 'pendulum': images are Mandelbrot's" \
	dls run --speeds 1 --workload pendulum --png "$T/x.png"
expect_usage_error "^dls run: --param 'novalue': must be NAME=VALUE" \
	dls run --speeds 1 --param novalue
expect_usage_error "^dls-master: --workload 'mandelbrot': parameter maxit: '70000' is not an integer" \
	dls-master --slaves 1 --maxit 70000
expect_usage_error "^dls reference: --workload 'pendulum': parameter closeness: 'x' is not a number" \
	dls reference --workload pendulum --param closeness=x

# the simulator on the pendulum's own costs (each computed once)
dls simulate --cluster C8 --scheme dfss --workload pendulum $PARAMS >"$T/sim.log"
grep -q "^simulated: scheme dfss, workload pendulum, 400 iterations, order natural, 8 slaves" "$T/sim.log"
grep -qE "^T_p [0-9.]+ s   T_ideal [0-9.]+ s   E 0\.9[0-9]+" "$T/sim.log"
expect_usage_error "^dls simulate: --workload 'pendulum': parameter bins: '-1' is not an integer" \
	dls simulate --cluster C8 --workload pendulum --param bins=-1
expect_usage_error "^dls simulate: --param 'count': needs --workload" \
	dls simulate --cluster C8 --param count=5

# dls run checks the scheme and the outputs before anything starts: no
# folder made, no computation lost to a path it cannot write
expect_usage_error "^dls run: --scheme 'foo': unknown scheme" \
	dls run --cluster C8 --scheme foo --dir "$T/never"
expect_usage_error "^dls run: --png '/nonexistent/x.png': No such file or directory" \
	dls run --cluster C8 --png /nonexistent/x.png --dir "$T/never"
expect_usage_error "^dls-master: --out '/nonexistent/x.npy': No such file or directory" \
	dls-master --slaves 1 --out /nonexistent/x.npy
[ ! -e "$T/never" ]
echo "ok options and outputs checked before the run"
