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
# the real slaves start with A_i = 0 (V = 1, Q = 2) for 1.5 s, so the bad
# client probes alone and no other slave delivers the ranges it probes
spawn master dls-master --run bad --slaves 3 --width 400 --height 200 --scheme ss \
	--start-timeout-ms 100 --raw "$T/bad.pgm" $NS $EP
MASTER=$LAST_PID
spawn bad "$DLS_TEST_BIN_DIR/bad_client" bad $NS $EP
BAD=$LAST_PID
for i in 0 1; do
	spawn slave$i dls-slave --run bad --name s$i --t-iter 200 --load 0:2,1.5:1 $NS $EP
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
grep -q "refused: register speaking protocol version 1: register_slave: the caller speaks DLS protocol version 1, this peer speaks version 12" "$T/bad.log"
grep -q "refused: result with one octet too few: result \[[0-9]*, +[0-9]*) carries [0-9]* octets, expected" "$T/bad.log"
grep -q "refused: request that leaves an older chunk undelivered: slave [0-9]* holds [0-9]* undelivered iterations and its request delivers 0, leaving some of a chunk older than its last one" "$T/bad.log"
grep -q "refused: request with another capability: slave [0-9]*: the call does not carry the capability issued to that slave at registration" "$T/bad.log"
grep -q "refused: slave_lost with another capability: slave [0-9]*: the call does not carry the capability" "$T/bad.log"
