#!/usr/bin/env bash
# --verify F (PROTOCOL.md 19): a master that has a sample of the chunks
# computed again by other slaves.  An honest run is exact and says what
# it verified; a registered slave that returns plausible wrong values (each
# count one higher: the workload's check accepts them) is found, refused
# from then on, and its results are computed again: the image is exact.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
REF=$(reference 400 200)

# verify_run LOG RUN SLAVES SCHEME F HONEST: a master of SLAVES slaves that
# verifies F (its log $T/LOG.log, image $T/RUN.pgm, JSON $T/RUN.json; its
# PID in MASTER) and HONEST dls-slaves s0, s1, ...
verify_run() {
	spawn "$1" dls-master --run "$2" --slaves "$3" --width 400 --height 200 --scheme "$4" \
		--verify "$5" --raw "$T/$2.pgm" --json "$T/$2.json" $NS $EP
	MASTER=$LAST_PID
	for i in $(seq 0 $(($6 - 1))); do
		spawn "$2$i" dls-slave --run "$2" --name "s$i" --t-iter 2000 $NS $EP
	done
}

# An honest run: every chunk picked is confirmed by a second copy (how
# many are picked is the secret draw's).
verify_run master vh 3 gss 0.5 3
wait_ok "the honest master" "$MASTER"
same_image "$T/vh.pgm" "$REF"
grep -q "^verify 0.5: [0-9]* iterations picked, computed again by other slaves in [0-9]* pieces" "$T/master.log" ||
	fail "no verify line: $(grep verify "$T/master.log")"
verify_get() { # FILE KEY: a field of the JSON's "verify"
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verify"][sys.argv[2]])' "$1" "$2"
}
expect_eq "honest chunks disputed" "$(verify_get "$T/vh.json" disputed)" 0
expect_eq "honest liars" "$(verify_get "$T/vh.json" liars)" "[]"

# A liar among honest slaves: found, refused, its work computed again
# (every chunk picked: the draw's key is random, and a sample might miss it).
verify_run lmaster vl 4 ss 1 3
spawn liar "$DLS_TEST_BIN_DIR/bad_client" --liar vl $NS $EP
LIAR=$LAST_PID
wait_ok "the master beside a liar" "$MASTER"
wait_ok "the liar" "$LIAR"
same_image "$T/vl.pgm" "$REF"
grep -q "^liar refused after [1-9][0-9]* wrong chunks delivered: slave [0-9] returned wrong results (--verify): it is no longer trusted" "$T/liar.log" ||
	fail "the liar was not refused: $(cat "$T/liar.log")"
# (caught on a copy it was given before any result of its own was taken,
# it has nothing to compute again: on a loaded host it may register last)
grep -qE "^verify: wrong results from slave [0-9] 'liar'; (their [1-9][0-9]* iterations were computed again by others|none of their results had been taken: nothing to compute again)$" \
	"$T/lmaster.log" || fail "no liar in the report: $(grep verify "$T/lmaster.log")"

# A liar below a relay hmaster: its relay's merged messages go on for the
# others; the liar is told the run is done.
verify_run rmaster vr 4 gss 1 2
spawn rhm dls-hmaster --run vr --name hmaster.0.0 --mode relay --slaves 2 $NS $EP
RHM=$LAST_PID
spawn vrb dls-slave --run vr --master hmaster.0.0 --name b --t-iter 2000 $NS $EP
VRB=$LAST_PID
spawn rliar "$DLS_TEST_BIN_DIR/bad_client" --liar vr hmaster.0.0 $NS $EP
LIAR=$LAST_PID
wait_ok "the master beside a liar below a relay" "$MASTER"
wait_ok "the relay hmaster" "$RHM"
wait_ok "the honest slave below the relay" "$VRB"
wait_ok "the liar below the relay" "$LIAR"
same_image "$T/vr.pgm" "$REF"
grep -q "^liar told the run is done after [1-9][0-9]* wrong chunks delivered" "$T/rliar.log" ||
	fail "the liar below the relay: $(cat "$T/rliar.log")"
grep -q "^verify: wrong results from slave [0-9] 'hmaster.0.0/liar'" "$T/rmaster.log" ||
	fail "no liar in the report: $(grep verify "$T/rmaster.log")"
