#!/usr/bin/env bash
# A run of many loops (dls run --loops N): the slaves stay registered from
# one loop to the next, loop k computes the job with dls.loop=k (the
# pendulum's drift moves its costs), and --out holds every loop, each
# byte-identical to `dls reference` of that loop, for every scheme family,
# hmasters in both modes, Tree Scheduling and a balancing policy, the end
# collection, a slave killed in a later loop (under a master and under
# Tree Scheduling) and the master and Tree Scheduling's coordinator killed
# in a later loop and resumed from their journals.  What cannot run many
# loops is refused before anything starts.
set -eu
. "$(dirname "$0")/lib.sh"

LOOPS=3
COUNT=90
PARAMS="--workload pendulum --param count=$COUNT --param bins=8 --param drift=0.15"
for k in $(seq 0 $((LOOPS - 1))); do
	dls reference $PARAMS --param dls.loop=$k --out "$T/ref$k.npy" >/dev/null
done

# every loop of NAME's --out equals its reference, and the JSON has each loop
loops_exact() { # NAME
	/usr/bin/python3 - "$T/$1.npy" "$T/$1.json" "$T" $LOOPS $COUNT <<'PY'
import json, sys, numpy
out, js, T, L, N = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
a = numpy.load(out)
assert a.shape == (L, N, 12) and a.dtype == numpy.float64, (out, a.shape)
for k in range(L):
    r = numpy.load("%s/ref%d.npy" % (T, k))
    assert a[k].tobytes() == r.tobytes(), (out, "loop %d differs from its reference" % k)
assert a[0].tobytes() != a[1].tobytes(), "the drift moves nothing"
j = json.load(open(js))
assert [l["loop"] for l in j["loops"]] == list(range(L)), j["loops"]
assert all(l["t_p"] > 0 and l["efficiency"] > 0 for l in j["loops"]), j["loops"]
assert abs(j["work"] - sum(l["work"] for l in j["loops"])) == 0
assert j["t_p"] >= sum(l["t_p"] for l in j["loops"]) - 1e-6
PY
	echo "ok $1: $LOOPS loops exact"
}

run_loops() { # NAME ARGS...
	local name=$1
	shift
	dls run $PARAMS --loops $LOOPS --out "$T/$name.npy" --json "$T/$name.json" --no-progress \
		"$@" >"$T/$name.log" 2>&1 || { cat "$T/$name.log"; fail "$name: dls run failed"; }
	grep -q "^$LOOPS loops; a loop's T_p" "$T/$name.log" || fail "$name: no loops line"
	loops_exact "$name"
}

run_loops dtss --speeds 1,2,1,2
run_loops gss --speeds 1,2,1 --scheme gss --order interleaved
run_loops awf --speeds 1,2,1,2 --scheme awf
run_loops awfb-fresh --speeds 1,2,1 --scheme awf-b --fresh-loops
run_loops auto --speeds 1,2 --scheme auto --collect end
run_loops relay --speeds 1,2,1,2 --scheme fss --hmasters 2 --hmode relay
# two-level hmasters: each passes its parent's loop on to its slaves, the
# job with each one's first chunk of the loop
run_loops twolevel --speeds 1,2,1,2 --hmasters 2 --hmode twolevel
# Tree Scheduling and a balancing policy: every loop placed over the same
# chain, the slaves ending each loop before the next is placed
run_loops trees --speeds 1,2,1,2 --scheme trees
run_loops workpile --speeds 1,2,1 --scheme workpile
grep -q "^scheme trees\|chain (work flows right)" "$T/trees.log" || fail "trees: no chain in the table"

# every loop of NAME's --out equals its reference (a resumed run's JSON
# holds the loops from the one it resumed in)
planes_exact() { # NAME
	/usr/bin/python3 - "$T/$1.npy" "$T" $LOOPS <<'PY'
import sys, numpy
a = numpy.load(sys.argv[1])
for k in range(int(sys.argv[3])):
    r = numpy.load("%s/ref%d.npy" % (sys.argv[2], k))
    assert a[k].tobytes() == r.tobytes(), "loop %d differs after the resume" % k
PY
}

# WHO (slave.1, or the parent: master or treesched) killed by kill -9 once
# the first loop is done (the parent 0.2 s into the second): a slave's
# work goes to the others and the later loops start without it; a parent
# is resumed by dls run from its journal in the later loop it was in.
# Every loop exact.
kill_in_loop() { # NAME WHO ARGS...
	local name=$1 who=$2 log pid
	shift 2
	DLS_LOG_LEVEL=info dls run $PARAMS --loops $LOOPS --out "$T/$name.npy" --json "$T/$name.json" \
		--no-progress --speeds 1,2,1,2 --t-iter 400 --dir "$T/$name-dir" "$@" \
		>"$T/$name.log" 2>&1 &
	RUN=$!
	for _ in $(seq 600); do
		grep -q "every result is in" "$T/$name-dir/master.log" 2>/dev/null && break
		sleep 0.1
	done
	grep -q "every result is in" "$T/$name-dir/master.log" || fail "$name: the first loop did not end"
	log=$T/$name-dir/master.log
	if [ "$who" = slave.1 ]; then
		log=$T/$name-dir/slave.1.log
	else
		sleep 0.2
	fi
	pid=$(sed -n "s/.* ${who//./\\.}\[\([0-9]*\)\] .*/\1/p" "$log" | head -1)
	[ -n "$pid" ] || fail "$name: no pid of $who in $log"
	kill -9 "$pid"
	wait "$RUN" || { cat "$T/$name.log"; fail "$name: dls run failed"; }
	if [ "$who" = slave.1 ]; then
		grep -q "'slave.1' lost" "$T/$name-dir/master.log" || fail "$name: slave.1 was not lost"
		loops_exact "$name"
		return
	fi
	grep -q "resuming it from its journal" "$T/$name.log" || fail "$name: $who was not resumed"
	grep -q "resumed run .* in loop [1-9] of $LOOPS" "$T/$name-dir/master.log" ||
		fail "$name: not resumed in a later loop"
	planes_exact "$name"
	echo "ok $name: $who killed in a later loop, resumed there, every loop exact"
}
kill_in_loop kill slave.1
kill_in_loop kill-trees slave.1 --scheme trees
grep -q "loop $((LOOPS - 1)) of $LOOPS" "$T/kill-trees-dir/master.log" ||
	fail "kill-trees: the coordinator did not begin the last loop"
# the master's learning of awf replayed; Tree Scheduling's coordinator
# places every slave again (those placed already go on)
kill_in_loop mkill master --scheme awf
kill_in_loop ckill treesched --scheme trees

# one loop of a drifting workload alone (a run of one loop naming its
# dls.loop): the slaves number it as the run's first, and it is exact
dls run $PARAMS --param dls.loop=2 --speeds 1,2 --out "$T/alone.npy" --no-progress \
	>"$T/alone.log" 2>&1 || { cat "$T/alone.log"; fail "a run of loop 2 alone failed"; }
cmp "$T/alone.npy" "$T/ref2.npy"
echo "ok loop 2 alone, in a run of one loop, exact"

# what cannot run many loops says so before anything starts
expect_usage_error "^dls run: --fresh-loops: Tree Scheduling and the balancing policies start every loop" \
	dls run --speeds 1,2 --scheme trees --loops 3 --fresh-loops
expect_usage_error "^dls run: --scheme 'awf': awf learns its weights from one loop for the next" \
	dls run --speeds 1,2 --scheme awf
expect_usage_error "^dls-master: --loops '.*mkill-dir': a resumed run takes its configuration from its journal" \
	dls-master --loops 2 --resume "$T/mkill-dir"
expect_usage_error "^dls-master: --loops '0': " dls-master --slaves 1 --loops 0
expect_usage_error "^dls run: --param 'dls.loop': a run of many loops numbers its loops itself" \
	dls run --speeds 1,2 --loops 3 --param dls.loop=1
echo "ok refusals before the run"
