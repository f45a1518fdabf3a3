#!/usr/bin/env bash
# A test client sends every kind of bad request and result (unknown slave id,
# a range it does not hold, the wrong number of octets, another protocol
# version, a second result for
# the same range, NaN and negative speeds, A_i = 0, ...): each is refused
# with a reason, and the run still completes with the exact image.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
REF=$(reference 400 200)
spawn master dls-master --run bad --slaves 3 --width 400 --height 200 --scheme ss \
	--start-timeout-ms 100 --raw "$T/bad.pgm" $NS $EP
MASTER=$LAST_PID
# The bad client probes alone: no other slave may be given, or deliver,
# the ranges it probes.  The real slaves register first and are stopped
# (SIGSTOP) before the bad client registers, which closes the
# registration; they go on once its last probe is answered, and compute the
# rest of the loop beside it.  A stopped slave may be declared lost
# meanwhile: it is taken back when it calls again, holding nothing.
SLAVES=()
for i in 0 1; do
	spawn slave$i dls-slave --run bad --name s$i --t-iter 200 $NS $EP
	SLAVES+=("$LAST_PID")
done
both_registered() {
	dls status --run bad $NS >"$T/status.txt" 2>&1 &&
		grep -q ' s0 .* registered ' "$T/status.txt" &&
		grep -q ' s1 .* registered ' "$T/status.txt"
}
wait_for both_registered
for p in "${SLAVES[@]}"; do
	pkill -STOP -P "$p" || fail "no slave under $p to stop (pkill exit $?)"
done
spawn bad "$DLS_TEST_BIN_DIR/bad_client" bad $NS $EP
BAD=$LAST_PID
probed() { grep -q 'a request carrying results already delivered' "$T/bad.log"; }
for _ in $(seq 600); do probed || ! kill -0 "$BAD" 2>/dev/null && break; sleep 0.1; done
probed || fail "the bad client did not finish its probes: $(tail -3 "$T/bad.log")"
for p in "${SLAVES[@]}"; do
	pkill -CONT -P "$p" || fail "no slave under $p to resume (pkill exit $?)"
done
wait "$MASTER"
wait "$BAD"
same_image "$T/bad.pgm" "$REF"
refused=$(grep -c '^refused:' "$T/bad.log")
expect_eq "refusals" "$refused" 22
! grep -q '^ACCEPTED' "$T/bad.log"
grep -q "refused: result for a range the slave does not hold: slave [0-9]* does not hold" "$T/bad.log"
grep -q "refused: a second result for the same range: iteration [0-9]* was already delivered" "$T/bad.log"
grep -q "refused: register with a NaN speed: speed nan" "$T/bad.log"
grep -q "refused: result with a count above maxit: result of iteration [0-9]* refused: column [0-9]* row 0 carries count 257: a Mandelbrot count is 1..256 (maxit)" "$T/bad.log"
grep -q "refused: result with a count of 0: result of iteration [0-9]* refused: column [0-9]* row 0 carries count 0" "$T/bad.log"
grep -q "refused: register speaking protocol version 1: register_slave: the caller speaks DLS protocol version 1, this peer speaks version 13" "$T/bad.log"
grep -q "refused: result with one octet too few: result \[[0-9]*, +[0-9]*) carries [0-9]* octets, expected" "$T/bad.log"
grep -q "refused: request that leaves an older chunk undelivered: slave [0-9]* holds [0-9]* undelivered iterations and its request delivers 0, leaving some of a chunk older than its last one" "$T/bad.log"
grep -q "refused: request with another capability: slave [0-9]*: the call does not carry the capability issued to that slave at registration" "$T/bad.log"
grep -q "refused: slave_lost with another capability: slave [0-9]*: the call does not carry the capability" "$T/bad.log"
