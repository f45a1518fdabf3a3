#!/usr/bin/env bash
# The examples, built out of tree against DLS installed in a temporary
# prefix with pkg-config only (make check does the install and the build),
# run against the installed programs:
#  - heat_sim, an omniORB simulation with an IDL interface of its own,
#    embeds slaves on its own ORB: two of them compute its loop body for a
#    master that only knows the loop's shape; the results equal its own
#    sequential sweep byte for byte, and its interface answers meanwhile;
#  - collatz, the README's own loop: a workload of its own, a master and 4
#    slaves in one program; its total equals the sequential loop's;
#  - steps drives a slave from its own main loop (the step API): the prime
#    counts are right, also when one program's loop body blocks (found by
#    the stall watch, or without it as a straggler by its pace);
#  - master_callback embeds the master and takes results in a callback (and,
#    killed with -9 and run again with --resume, still every column once): the
#    sum equals the sequential image's;
#  - idl_slave, written from the installed IDL and PROTOCOL.md alone (no DLS
#    header or library), computes exact images beside dls-slave, in both
#    orders and both collection modes, with results over several blocks;
#  - embed_slave is every slave of `dls run --slave-program`, which hands it
#    dls-slave's options: emulated with wrong declarations and asking ahead
#    off, and real.
set -eu
: "${DLS_PREFIX:?the prefix DLS was installed in}" "${DLS_EXAMPLES_DIR:?the built examples}"
export PATH="$DLS_PREFIX/bin:$PATH"
. "$(dirname "$0")/lib.sh"
X=$DLS_EXAMPLES_DIR
start_names

# an existing CORBA simulation lends its ORB.  Its slaves compute for real
# and read Q_i from the host's run queue: under a distributed scheme a V = 1
# slave waits while A_i = floor(1 / Q_i) is 0, which a loaded machine (a
# shared CI host) can hold for the whole test; this test is about the
# embedding, so a simple scheme, which asks on whatever the load
spawn master dls-master --slaves 2 --run heat --scheme gss --workload heat.sweep --param count=48 \
	--param cells=32 --param dls.iterations=48 --param dls.result_bytes=256 \
	--param dls.dtype='<f8' --out "$T/sweep.npy" $NS $EP
MASTER=$LAST_PID
spawn h1 "$X/heat_sim" --run heat --name h1 --ior "$T/h1.ior" --linger 2 $NS $EP
H1=$LAST_PID
spawn h2 "$X/heat_sim" --run heat --name h2 $NS $EP
H2=$LAST_PID
wait "$MASTER"
"$X/heat_sim" --query "$(cat "$T/h1.ior")" >"$T/query.log"
grep -q "^steps [0-9]*, temperature of cell 8: 0\." "$T/query.log"
wait "$H1"
wait "$H2"
grep -q "^DLS slave [01]: [0-9]* iterations" "$T/h1.log"
"$X/heat_sim" --reference "$T/sweep.bin" --param count=48 --param cells=32
/usr/bin/python3 - "$T/sweep.npy" "$T/sweep.bin" <<'PY'
import sys, numpy
a = numpy.load(sys.argv[1])
assert a.shape == (48, 32) and a.dtype == numpy.float64, (a.shape, a.dtype)
assert a.tobytes() == open(sys.argv[2], "rb").read(), "the distributed sweep differs"
PY
grep -q "heat.sweep (count=48 cells=32 dls.iterations=48" "$T/master.log"

# heat_sim as a time-stepping simulation: 6 steps, each a loop of one run
# (its embedded master and 2 embedded slaves), each step's parameter from
# the step before's results: every step equals the sequential one
timeout 120 "$X/heat_sim" --steps 6 --slaves 2 --run heat-steps --out "$T/steps.bin" $NS $EP \
	>"$T/heat-steps.log" 2>&1 || { cat "$T/heat-steps.log"; fail "heat_sim --steps"; }
"$X/heat_sim" --steps 6 --reference "$T/steps-ref.bin" >"$T/heat-steps-ref.log"
cmp "$T/steps.bin" "$T/steps-ref.bin"
[ "$(grep -c '^step [0-5]: hot' "$T/heat-steps.log")" = 6 ]
diff <(grep '^step' "$T/heat-steps.log" | sed 's/, T_p.*//') <(grep '^step' "$T/heat-steps-ref.log")
# its honest slaves' short chunks are not taken for lies, whatever the load
! grep "claims to compute" "$T/heat-steps.log" || fail "an honest heat_sim slave taken for a liar"
echo "ok heat_sim: 6 time steps in one run, each exact"

# the README's example: a program's own loop body, master and slaves in it
timeout 120 "$X/collatz" $NS $EP >"$T/collatz.log" 2>&1 || { cat "$T/collatz.log"; fail "collatz"; }
want=$(/usr/bin/python3 -c '
def steps(v):
    n = 0
    while v != 1:
        v = 3 * v + 1 if v % 2 else v // 2
        n += 1
    return n
print(sum(steps(x) for x in range(1, 200001)))')
grep -qx "collatz: 200000 iterations, $want steps in all (as the sequential loop)" "$T/collatz.log" ||
	{ cat "$T/collatz.log"; fail "collatz: not $want steps"; }
echo "ok collatz: the README's own loop, exact"

# a C program's own main loop, on the step API
spawn pmaster dls-master --slaves 1 --run primes --workload primes --param dls.iterations=300 \
	--param dls.result_bytes=4 --param dls.dtype='<u4' --scheme gss --out "$T/primes.npy" $NS $EP
PMASTER=$LAST_PID
"$X/steps" primes $NS $EP >"$T/steps.log" 2>&1
wait "$PMASTER"
grep -q "^steps: [0-9]* steps, [0-9]* chunks, 300 iterations" "$T/steps.log"
/usr/bin/python3 - "$T/primes.npy" <<'PY'
import sys, numpy
a = numpy.load(sys.argv[1])
n = 300 * 2000
sieve = numpy.ones(n, dtype=bool); sieve[:2] = False
for p in range(2, int(n ** 0.5) + 1):
    if sieve[p]:
        sieve[p * p::p] = False
want = sieve.reshape(300, 2000).sum(axis=1)
assert a.shape == (300, 1) and (a[:, 0] == want).all(), "wrong prime counts"
PY

# a step-API program that leaves after 2 steps: what it computed is
# delivered, the master gives what it held to the other one at once (no
# ping needed), and the counts are still exact
cp "$T/primes.npy" "$T/primes-one.npy"
spawn pmaster2 dls-master --slaves 2 --run primes2 --workload primes --param dls.iterations=300 \
	--param dls.result_bytes=4 --param dls.dtype='<u4' --scheme gss --out "$T/primes2.npy" $NS $EP
PMASTER=$LAST_PID
spawn leaver "$X/steps" primes2 --steps 2 $NS $EP
LEAVER=$LAST_PID
"$X/steps" primes2 $NS $EP >"$T/steps2.log" 2>&1
wait "$PMASTER" "$LEAVER"
grep -q "^steps: left after 2 steps, [0-9]* iterations: stopped on request before the run ended: every result it computed delivered" "$T/leaver.log"
grep -q "slave [01] 'steps' lost (it left: its program stopped it)" "$T/pmaster2.log"
cmp "$T/primes-one.npy" "$T/primes2.npy"

# a program whose loop body blocks after 2 steps while DLS answers the
# master's pings: the master sees its chunk stall (--stall-ms 2000), takes
# it as lost, and the other program computes it; counts exact.  (Without
# the end game, whose straggler rule, below, would find it first.)  SS, one
# iteration a step, so that the program surely gets its third step before
# the other has computed the loop (with GSS's two large chunks and the end
# game, it could end the run with its first)
spawn pmaster3 dls-master --slaves 2 --run primes3 --workload primes --param dls.iterations=300 \
	--param dls.result_bytes=4 --param dls.dtype='<u4' --scheme ss --stall-ms 2000 \
	--take-back off --out "$T/primes3.npy" $NS $EP
PMASTER=$LAST_PID
spawn blocked "$X/steps" primes3 --block-after 2 $NS $EP
BLOCKED=$LAST_PID
"$X/steps" primes3 $NS $EP >"$T/steps3.log" 2>&1
wait "$PMASTER"
grep -q "^steps: the loop body blocks in step 3" "$T/blocked.log" || fail "steps did not block"
grep -q "slave [01] 'steps' lost (stalled: its chunk \[[0-9]*, +[0-9]*) stayed at [0-9]* computed for [0-9]* s (--stall-ms 2000)" \
	"$T/pmaster3.log" || fail "the stall was not seen: $(grep -i "lost\|stall" "$T/pmaster3.log")"
cmp "$T/primes-one.npy" "$T/primes3.npy"
kill_wait TERM "$BLOCKED" # timeout passes it to the program

# the same without the stall watch (--stall-ms 0), with the end game: once
# the other program has nothing left to compute, the master finds the
# blocked one's chunk a straggler by its pace (3 s at least) and gives its
# work to the idle one; the run ends exact within seconds, not at the stall
# watch's 120 s
spawn pmaster4 dls-master --slaves 2 --run primes4 --workload primes --param dls.iterations=300 \
	--param dls.result_bytes=4 --param dls.dtype='<u4' --scheme ss --stall-ms 0 \
	--out "$T/primes4.npy" --json "$T/primes4.json" $NS $EP
PMASTER=$LAST_PID
spawn blocked4 "$X/steps" primes4 --block-after 2 $NS $EP
BLOCKED=$LAST_PID
t0=$SECONDS
"$X/steps" primes4 $NS $EP >"$T/steps4.log" 2>&1
wait "$PMASTER"
took=$((SECONDS - t0))
grep -q "^steps: the loop body blocks in step 3" "$T/blocked4.log" || fail "steps did not block"
grep -q "slave [01] 'steps' lost (a straggler: its chunk \[[0-9]*, +1) stayed at 0 computed for [0-9.]* s, where its pace (.*) allows 3.0 s, while slave [01] waited for work)" \
	"$T/pmaster4.log" || fail "the straggler was not seen: $(grep -i "lost\|stall\|straggl" "$T/pmaster4.log")"
cmp "$T/primes-one.npy" "$T/primes4.npy"
[ "$took" -lt 30 ] || fail "the straggler's run took $took s"
kill_wait TERM "$BLOCKED"

# a job it cannot compute (8-octet results): refused in one line, and the
# master, told at once, ends the run without waiting for a ping
spawn pmaster8 dls-master --slaves 1 --run primes8 --workload primes --param dls.iterations=300 \
	--param dls.result_bytes=8 --param dls.dtype='<u8' --out "$T/primes8.npy" $NS $EP
PMASTER=$LAST_PID
if "$X/steps" primes8 $NS $EP >"$T/steps8.log" 2>&1; then fail "steps computed a job it cannot"; fi
grep -qx "steps: refused the job of run 'primes8': 8 octets a result: this program's are 4 (a uint32)" "$T/steps8.log"
[ "$(wc -l <"$T/steps8.log")" = 1 ] || fail "more than one line for a refused job: $(cat "$T/steps8.log")"
if wait "$PMASTER"; then fail "the master of a run with no slave left succeeded"; fi
grep -q "slave 0 'steps' lost (it left: 8 octets a result: this program's are 4 (a uint32))" "$T/pmaster8.log"
[ ! -e "$T/primes8.npy" ]

# a master inside a program, results in a callback
spawn cb "$X/master_callback" cb 2 $NS $EP
CB=$LAST_PID
for i in 0 1; do
	spawn cbslave$i dls-slave --run cb --name s$i --t-iter 50 $NS $EP
done
wait "$CB"
dls reference --workload mandelbrot --param width=240 --param height=120 --out "$T/cb.npy" >/dev/null
want=$(/usr/bin/python3 -c "import numpy; print(int(numpy.load('$T/cb.npy').astype('u8').sum()))")
grep -q "^master_callback: 240 columns from 2 slaves in .* s, sum of counts $want\$" "$T/cb.log"

# the same with results checked (PROTOCOL.md 19): every chunk picked agrees
spawn cbv "$X/master_callback" cbv 3 --verify 0.5 $NS $EP
CBV=$LAST_PID
for i in 0 1 2; do
	spawn cbvslave$i dls-slave --run cbv --name s$i --t-iter 50 $NS $EP
done
wait_ok "master_callback --verify" "$CBV"
grep -q "^master_callback: 240 columns from 3 slaves in .* s, sum of counts $want\$" "$T/cbv.log"
grep -Eq "^master_callback: verified ([1-9][0-9]*) pieces \([1-9][0-9]* columns\): \1 agreed, 0 slaves lied\$" "$T/cbv.log" ||
	fail "master_callback --verify: $(cat "$T/cbv.log")"

# the same program survives its own crash: kill -9 mid-run, --resume
"$X/master_callback" cbj 2 --journal "$T/cbj" $NS $EP >"$T/cbj1.log" 2>&1 &
CB1=$!
for i in 0 1; do
	spawn cbjslave$i dls-slave --run cbj --name s$i --t-iter 4000 --rejoin-ms 20000 $NS $EP
done
wait_for sh -c "nameclt $NS list DLS/cbj | grep -qx master"
sleep 1.5
kill_wait KILL "$CB1"
spawn cbj2 "$X/master_callback" cbj 2 --resume "$T/cbj" $NS $EP
wait "$LAST_PID"
grep -q "^master_callback: 240 columns from 2 slaves in .* s, sum of counts $want\$" "$T/cbj2.log"
expect_eq "slaves of the embedded master that rejoined" "$(cat "$T"/cbjslave?.log | grep -c 'rejoined the master')" 2

# a run of 4 loops driven by the program, killed -9 once its first loop is
# in and resumed: the loops after come whole, and the resumed program is
# handed again only the results of the loop it was in
"$X/master_callback" cbl 2 --loops 4 --journal "$T/cbl" $NS $EP >"$T/cbl1.log" 2>&1 &
CB1=$!
for i in 0 1; do
	spawn cblslave$i dls-slave --run cbl --name s$i --t-iter 1500 --rejoin-ms 20000 $NS $EP
done
for _ in $(seq 600); do grep -q '^loop 0:' "$T/cbl1.log" && break; sleep 0.1; done
grep -q "^loop 0: 240 columns, sum of counts $want\$" "$T/cbl1.log"
kill_wait KILL "$CB1"
spawn cbl2 "$X/master_callback" cbl 2 --loops 4 --resume "$T/cbl" $NS $EP
wait "$LAST_PID" || { cat "$T/cbl2.log"; fail "master_callback --loops: the resumed run failed"; }
grep -q "^loop 3: 240 columns, sum of counts $want\$" "$T/cbl2.log"
[ "$(grep -c "^loop [1-3]: 240 columns, sum of counts $want\$" "$T/cbl2.log")" -ge 1 ]
! grep -q "^loop 0:" "$T/cbl2.log"
grep -q "^master_callback: 240 columns from 2 slaves in .* s, sum of counts $want\$" "$T/cbl2.log"
echo "ok master_callback: 4 loops, killed and resumed in a later loop"

# a slave from the IDL and PROTOCOL.md alone, beside dls-slave
REF=$(reference 600 900)
for mode in "natural piggyback" "interleaved end"; do
	set -- $mode
	spawn imaster dls-master --slaves 2 --run idl-$1 --width 600 --height 900 --order $1 \
		--collect $2 --scheme gss --raw "$T/idl-$1.pgm" $NS $EP
	IM=$LAST_PID
	spawn islave "$X/idl_slave" idl-$1 from-idl $NS $EP
	IS=$LAST_PID
	spawn dslave dls-slave --run idl-$1 --name dls --t-iter 50 $NS $EP
	wait "$IM"
	wait "$IS"
	same_image "$T/idl-$1.pgm" "$REF"
	grep -q "^idl_slave from-idl: [0-9]* chunks, [1-9][0-9]* iterations" "$T/islave.log"
done

# dls run --slave-program: the embedding takes the options dls-slave gets
REF=$(reference 200 100)
for args in "--cluster C8-mis --t-iter 20000 --overlap off --low-priority off" "--cluster p3 --real"; do
	tag=embed$(echo "$args" | tr -dc 'a-z0-9')
	# shellcheck disable=SC2086
	dls run $args --slave-program "$X/embed_slave" --scheme gss --width 200 --height 100 \
		--raw "$T/$tag.pgm" --no-progress >"$T/$tag.log" 2>&1 || { cat "$T/$tag.log"; exit 1; }
	same_image "$T/$tag.pgm" "$REF"
done

# four slaves embedded in one program (embed_slave --slaves 4), real: they
# start at once, each in its thread, and look up the job's workload
# together (the table of workloads once raced there: "unknown workload
# 'mandelbrot' (known: mandelbrot, ...)"); the image is exact
for rep in 1 2 3; do
	spawn m4master dls-master --run m4-$rep --slaves 4 --scheme gss --width 200 --height 100 \
		--raw "$T/m4.pgm" $NS $EP
	M4=$LAST_PID
	wait_for sh -c "nameclt $NS list DLS/m4-$rep | grep -qx master"
	"$X/embed_slave" --run m4-$rep --name e --real --slaves 4 $NS $EP >"$T/m4-$rep.log" 2>&1 ||
		fail "4 slaves in one program: $(cat "$T/m4-$rep.log")"
	wait "$M4"
	same_image "$T/m4.pgm" "$REF"
done
echo "ok 4 slaves embedded in one program, three times: exact"

# a bad option of an embedded slave is refused before anything starts,
# with one line naming the option, its value and the cause
for bad in "--load=0:2,x|load '0:2,x': each step must be TIME:VALUE" \
	"--speed=-1|speed -1: must be a number above 0" \
	"--name=|name '': 1..63 characters are required"; do
	opt=${bad%%|*} line=${bad#*|}
	"$X/embed_slave" --run bad-$$ "$opt" $NS $EP >"$T/bad.log" 2>&1 &&
		fail "embed_slave $opt: accepted"
	[ "$(wc -l <"$T/bad.log")" = 1 ] && grep -q "^embed_slave: argument out of range: $line" "$T/bad.log" ||
		fail "embed_slave $opt: $(cat "$T/bad.log")"
done
echo "ok an embedded slave's bad options: refused, one line each"
