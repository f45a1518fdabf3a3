#!/usr/bin/env bash
# Every scheme on an emulated heterogeneous cluster, dedicated and
# non-dedicated (one slave's load changes during the run), in both iteration
# orders: the image equals `dls mandel` column by column.
set -eu
. "$(dirname "$0")/lib.sh"

W=240 H=120
REF=$(reference $W $H)
# one_scheme SCHEME MODE: one run, its image and report checked
one_scheme() {
	local scheme=$1 mode=$2 order=natural
	if [ $mode = dedicated ]; then
		set -- --speeds 1,2,1,2 --t-iter 300
	else
		set -- --speeds 1,2,1,2 --loads '1;2;0:1,0.15:3;0:2,0.3:1' --t-iter 3000
	fi
	[ $scheme = dtss ] || [ $scheme = fss ] || [ $scheme = gss ] && order=interleaved
	dls run "$@" --scheme $scheme --width $W --height $H --order $order \
		--raw "$T/$scheme-$mode.pgm" --json "$T/$scheme-$mode.json" \
		--dir "$T/logs-$scheme-$mode" >"$T/$scheme-$mode.log" 2>&1 ||
		{ cat "$T/$scheme-$mode.log"; exit 1; }
	same_image "$T/$scheme-$mode.pgm" "$REF"
	expect_eq "$scheme $mode work" "$(json_get "$T/$scheme-$mode.json" work)" "$WORK"
	grep -q "^T_p" "$T/$scheme-$mode.log"
	if [ $scheme = auto ]; then # its choice is in the report, text and JSON
		grep -q "^scheme auto: ss -> " "$T/$scheme-$mode.log"
		json_get "$T/$scheme-$mode.json" scheme_choices | grep -q "^ss -> "
	fi
	echo "ok $scheme $mode ($order)"
}
WORK=$(dls mandel --width $W --height $H --sums | head -1 | cut -d' ' -f2)
# nothing here is timed: two runs at once, of about the same length
for mode in dedicated nondedicated; do
	for scheme in ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss static fsc mfsc \
		awf-b awf-c awf-d awf-e af auto; do
		two_at_once one_scheme $scheme $mode
	done
done
steps_done

# Asking ahead (PROTOCOL.md 5): off, and in real mode, where a thread sends
# while the chunk computes and a request not sent (A_i = 0 from the real run
# queue) hands its results back: the image stays exact.
one_mode() {
	local tag
	tag=$(echo "$*" | tr -d ' -')
	dls run --speeds 1,2,1,2 "$@" --width $W --height $H --raw "$T/$tag.pgm" \
		--dir "$T/logs-$tag" >"$T/$tag.log" 2>&1 || { cat "$T/$tag.log"; exit 1; }
	same_image "$T/$tag.pgm" "$REF"
	echo "ok $*"
}
two_at_once one_mode --scheme ss --overlap off
two_at_once one_mode --scheme gss --real
two_at_once one_mode --scheme ss --real --collect end
two_at_once one_mode --scheme fss --low-priority off
steps_done

# A second request on its way (PROTOCOL.md 5, depth 2): on a 2 ms link every
# column computes in far less than a round trip, so a slave's next request
# leaves as soon as its chunk is computed, before the answer to the one it
# asked ahead is in; the master serves the two in order.  Piggy-back and
# end collection, emulated and real: the image stays exact, and the slaves
# did send second requests.
for args in "--scheme ss" "--scheme ss --collect end" "--scheme css --chunk 2 --real"; do
	tag=second$(echo "$args" | tr -d ' -')
	# shellcheck disable=SC2086
	DLS_LOG_LEVEL=info dls run --speeds 1,2,1,2 $args --link-latency-us 2000 --width $W \
		--height $H --raw "$T/$tag.pgm" --dir "$T/logs-$tag" >"$T/$tag.log" 2>&1
	same_image "$T/$tag.pgm" "$REF"
	seconds=$(sed -n 's/.*chunks (\([0-9]*\) of them a second request on its way).*/\1/p' \
		"$T/logs-$tag"/slave.*.log | awk '{ s += $1 } END { print s + 0 }')
	[ "$seconds" -gt 0 ] || { echo "$args: no second request was sent" >&2; exit 1; }
	echo "ok $args on a 2 ms link: $seconds second requests, exact image"
done

# Wrong declared speeds (C8-mis: every slave declares V = 1, half compute
# at V = 2): the master sees V_i = 1 everywhere, an adaptive technique
# learns the truth from the measured chunk times and gives the fast half
# more (interleaved columns: about the same cost each).  The real
# computation at normal priority (--low-priority off): on a host whose
# cores are busy with others, one at SCHED_IDLE waits for them, every chunk
# ends late, and the times no longer show the emulated speeds to learn.
dls run --cluster C8-mis --scheme awf-c --order interleaved --width $W --height $H \
	--t-iter 3000 --low-priority off --raw "$T/mis.pgm" --json "$T/mis.json" \
	--dir "$T/logs-mis" >"$T/mis.log" 2>&1
same_image "$T/mis.pgm" "$REF"
python3 - "$T/mis.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert all(p["vpower"] == 1.0 for p in run["pes"]), [p["vpower"] for p in run["pes"]]
# slaves 4-7 compute at V = 2 (clients/cluster.c), though they declared 1
fast = sum(p["iterations"] for p in run["pes"] if int(p["name"].split(".")[1]) >= 4)
slow = sum(p["iterations"] for p in run["pes"] if int(p["name"].split(".")[1]) < 4)
assert fast > 1.4 * slow, (fast, slow)
PY
echo "ok C8-mis: the adaptive technique learnt the true speeds"

# A distributed scheme told to weigh the slaves by their measured rates
# (--rates measured) instead of the declared V_i = 1: the image stays exact
# (the chunks it gives are checked in the unit tests); on a scheme that
# weighs nobody the option is refused
dls run --cluster C8-mis --scheme dtss --rates measured --order interleaved --width $W \
	--height $H --t-iter 3000 --raw "$T/mis-dtss.pgm" --dir "$T/logs-mis-dtss" \
	>"$T/mis-dtss.log" 2>&1
same_image "$T/mis-dtss.pgm" "$REF"
if dls run --speeds 1,2 --scheme ss --rates measured --width $W --height $H \
	>"$T/rates-ss.log" 2>&1; then
	echo "--rates measured accepted with ss" >&2
	exit 1
fi
grep -q "dls run: --rates 'measured': applies to dtss dfss dfiss dtfss only" "$T/rates-ss.log"
echo "ok --rates measured: exact image; refused where nothing is weighed"

# auto under relay hmasters learns from the slaves' times they pass on;
# two-level hmasters run a distributed scheme, so dls run refuses auto there
dls run --speeds 1,2,1,2 --scheme auto --hmasters 2 --hmode relay --width $W --height $H \
	--t-iter 300 --raw "$T/auto-relay.pgm" --json "$T/auto-relay.json" \
	--dir "$T/logs-auto-relay" >"$T/auto-relay.log" 2>&1
same_image "$T/auto-relay.pgm" "$REF"
json_get "$T/auto-relay.json" scheme_choices | grep -q "^ss -> "
if dls run --speeds 1,2,1,2 --scheme auto --hmasters 2 --width $W --height $H \
	>"$T/auto-twolevel.log" 2>&1; then
	echo "auto accepted with two-level hmasters" >&2
	exit 1
fi
grep -q "two-level hmasters run a distributed scheme" "$T/auto-twolevel.log"
echo "ok auto under relay hmasters; refused under two-level ones"

# A_i = 0 (docs/schemes.md 7.11): every slave loaded past its power.
# A simple scheme does not weigh A_i, so its slaves ask on and the image is
# exact; a distributed one would never ask, so dls run refuses it at once.
# A slave that waits with A_i = 0 says why in its log, and when it asks again.
dls run --speeds 1,1 --loads 2,2 --scheme ss --width $W --height $H --t-iter 300 \
	--raw "$T/loaded-ss.pgm" >"$T/loaded-ss.log" 2>&1
same_image "$T/loaded-ss.pgm" "$REF"
expect_usage_error "^dls run: --loads '2,2': every slave's A_i = floor\(V_i / Q_i\) is 0 throughout" \
	dls run --speeds 1,1 --loads 2,2 --scheme dtss
dls run --speeds 1,1 --loads '0:2,0.3:1;1' --scheme dtss --width $W --height $H --t-iter 3000 \
	--raw "$T/late-ss.pgm" --dir "$T/logs-late" >"$T/late.log" 2>&1
same_image "$T/late-ss.pgm" "$REF"
grep -q "A_i = floor(V_i / Q_i) = floor(1.00 / 2.00) = 0: not asking for work until the load drops" \
	"$T/logs-late/slave.0.log"
grep -q "A_i = 1: asking for work again" "$T/logs-late/slave.0.log"
# Scheduling started when slave 0 first asked, 0.3 s into its load clock,
# at full power: T_ideal is the work at power 2 (it counted the 0.3 s at
# power 1.5 once, 0.075 s more, and reported E above 1).
awk '/^work / { work = $2 } /^T_p / { t_ideal = $5; e = $8 }
	END { want = work * 3000e-9 / 2; d = t_ideal - want
	      if (d < -0.002 || d > 0.01 || e > 1) { print "T_ideal " t_ideal ", want " want ", E " e; exit 1 } }' \
	"$T/late.log" || { cat "$T/late.log"; exit 1; }
echo "ok A_i = 0: a simple scheme asks on; a distributed one waits, saying why, or is refused"
