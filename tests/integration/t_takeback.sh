#!/usr/bin/env bash
# The end game (PROTOCOL.md 17): once the scheme has handed out every
# iteration, idle slaves take back the undone tails of the chunks that would
# end last.  On C8-mis in the natural order (wrong declared speeds, the
# expensive columns together) the run takes tails back, the image equals
# `dls mandel` column by column, emulated and real; without it none is
# taken; a slave or the master killed in the end game loses nothing.
set -eu
. "$(dirname "$0")/lib.sh"

W=800 H=400
REF=$(reference $W $H)
# run_one TAG ARGS...: a run on C8-mis, natural order; its image checked
run_one() {
	local tag=$1
	shift
	dls run --cluster C8-mis --scheme mfsc --order natural --width $W --height $H \
		--raw "$T/$tag.pgm" --json "$T/$tag.json" --dir "$T/logs-$tag" "$@" \
		>"$T/$tag.log" 2>&1 || { cat "$T/$tag.log"; exit 1; }
	same_image "$T/$tag.pgm" "$REF"
	echo "ok $tag"
}
# Whether a tail is worth taking back depends on what is running when the
# scheme runs out, which on C8-mis depends on the order the requests come
# in, hence on the host's load.  Here it is certain: two slaves, one 10
# times slower (its load), each given a quarter of the loop (CSS); the fast
# one computes the two other quarters while the slow one is still in the
# first third of its own, then asks with nothing left.  Their real
# computation keeps the normal priority (--low-priority off): at the idle
# priority a busy host could starve the fast one's and leave it no faster.
SW=200 SH=100
SREF=$(reference $SW $SH)
# run_sure TAG ARGS...: that run, its image checked
run_sure() {
	local tag=$1
	shift
	dls run --speeds 1,1 --loads 1,10 --scheme css --chunk 50 --order interleaved \
		--low-priority off --width $SW --height $SH --t-iter 2000 --raw "$T/$tag.pgm" \
		--json "$T/$tag.json" --dir "$T/logs-$tag" "$@" \
		>"$T/$tag.log" 2>&1 || { cat "$T/$tag.log"; exit 1; }
	same_image "$T/$tag.pgm" "$SREF"
	echo "ok $tag"
}
two_at_once run_one on --t-iter 2000
two_at_once run_one off --t-iter 2000 --take-back off
two_at_once run_sure sure-on
two_at_once run_sure sure-off --take-back off
steps_done
# the default takes tails back and says how many; off takes none.  (What
# it gains is measured in BENCHMARKS.md 4.1 and 5, side by side: two runs at once
# on a loaded machine do not tell, and a test asserts no speed.)
grep -qE "^take-back: [1-9][0-9]* chunk tails, [1-9][0-9]* iterations" "$T/sure-on.log"
[ "$(json_get "$T/sure-on.json" takebacks)" -ge 1 ]
for tag in off sure-off; do
	[ "$(json_get "$T/$tag.json" takebacks)" = 0 ]
	! grep -q "^take-back:" "$T/$tag.log"
done
# the holders that were cut stopped early: the iterations in the table add
# up to the loop (each counted once, by the slave that delivered it)
for tag in on sure-on; do
	python3 - "$T/$tag.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert sum(p["iterations"] for p in r["pes"]) == r["iterations"], r["pes"]
EOF
done

# real computation: cut between iterations; a slave killed, and the master
# killed (resumed from its journal), in the end game
two_at_once run_one real --real
two_at_once run_one killslave --t-iter 2000 --kill slave.1@start+2
steps_done
run_one killmaster --t-iter 2000 --kill master@start+2.2
grep -q "resum" "$T/killmaster.log" "$T"/logs-killmaster/*.log

expect_usage_error "^dls run: --take-back 'x': must be on or off" \
	dls run --cluster C8 --take-back x
expect_usage_error "^dls run: --take-back 'on': Tree Scheduling and the balancing policies" \
	dls run --cluster C8 --scheme trees --take-back on
expect_usage_error "^dls-master: --take-back 'maybe': must be on or off" \
	dls-master --slaves 2 --take-back maybe
