#!/usr/bin/env bash
# A child whose parent is gone for good exits: its parent killed with -9 and
# never resumed, each role (a flat slave, a relay and a two-level hmaster
# and the slave below each, a Tree Scheduling slave, a workpile slave, a
# slave embedded in a program of its own) exits 1 within its rejoin window
# (--rejoin-ms) plus a margin, with a line that says it gave up; without
# --rejoin-ms, after its retries.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
WINDOW_MS=2000
MARGIN_S=4 # the chunk in hand (under 0.2 s), the retries' back-off, a loaded machine
X=$DLS_EXAMPLES_DIR

# parent ROLE LOG ARGS...: starts a parent (not under timeout: the kill must
# reach it) and waits for its name; PARENT is its PID
parent() {
	local leaf=$1 log=$2 run
	shift 2
	DLS_LOG_LEVEL=info "$@" $NS $EP >"$T/$log.log" 2>&1 &
	PARENT=$!
	run=$(printf '%s\n' "$@" | sed -n '/^--run$/{n;p}')
	wait_for sh -c "nameclt $NS list DLS/$run | grep -qx $leaf"
}

# orphaned WHAT LIMIT_S PATTERN PID LOG: PID (a spawn) must exit 1 within
# LIMIT_S seconds of the kill at $KILLED, its log matching PATTERN
orphaned() {
	local what=$1 limit=$2 pattern=$3 pid=$4 log=$5 rc=0 took
	if ! await_death "$limit" "$pid"; then
		echo "FAILED $what: still running $limit s after its parent was killed" >&2
		exit 1
	fi
	wait "$pid" || rc=$?
	took=$(python3 -c "import time; print('%.1f' % (time.time() - $KILLED))")
	expect_eq "$what: exit status" "$rc" 1
	if ! grep -qE "$pattern" "$T/$log.log"; then
		echo "FAILED $what: no line matching '$pattern' in its log:" >&2
		tail -5 "$T/$log.log" >&2
		exit 1
	fi
	echo "ok $what exited $took s after its parent was killed: $(grep -E "$pattern" "$T/$log.log" | tail -1 | cut -c1-160)"
}

# kill_parent: kill -9 of PARENT (never resumed), its time in KILLED
kill_parent() {
	kill_wait KILL "$PARENT"
	KILLED=$(python3 -c 'import time; print(time.time())')
}

# --- a flat slave: with a rejoin window, and without (its retries) ---------
for rejoin in $WINDOW_MS 0; do
	run=flat$rejoin
	parent master m-$run dls-master --run $run --slaves 1 --width 400 --height 200 --scheme ss
	spawn s-$run dls-slave --run $run --name s0 --t-iter 20000 --rejoin-ms $rejoin $NS $EP
	S=$LAST_PID
	wait_for grep -q "registered" "$T/m-$run.log"
	sleep 0.5
	kill_parent
	if [ $rejoin = 0 ]; then
		# 5 attempts, back-offs 0.2 + 0.4 + 0.8 + 1.6 s
		orphaned "a flat slave without --rejoin-ms" $((3 + MARGIN_S)) \
			"master not reached \(attempt 5 of 5\)" $S s-$run
	else
		orphaned "a flat slave" $((WINDOW_MS / 1000 + MARGIN_S)) \
			"could not rejoin the master in $WINDOW_MS ms" $S s-$run
	fi
done

# --- an hmaster of each mode, and the slave below it ------------------------
for mode in relay twolevel; do
	run=hm-$mode
	# (two-level: one child, the hmaster, and a distributed scheme)
	parent master m-$run dls-master --run $run --slaves 1 --width 400 --height 200 \
		--scheme dtss
	spawn h-$run dls-hmaster --run $run --name hmaster.0.0 --mode $mode --slaves 1 \
		--rejoin-ms $WINDOW_MS $NS $EP
	H=$LAST_PID
	spawn s-$run dls-slave --run $run --master hmaster.0.0 --name s0 --t-iter 20000 \
		--rejoin-ms $WINDOW_MS $NS $EP
	S=$LAST_PID
	wait_for grep -q "registered" "$T/m-$run.log"
	sleep 0.5
	kill_parent
	orphaned "a $mode hmaster" $((WINDOW_MS / 1000 + MARGIN_S)) \
		"gave up: the parent" $H h-$run
	orphaned "the slave below a $mode hmaster" $((2 * WINDOW_MS / 1000 + MARGIN_S)) \
		"could not rejoin the master in $WINDOW_MS ms|gave up" $S s-$run
done

# --- Tree Scheduling and workpile slaves: the coordinator killed -----------
for policy in trees workpile; do
	run=co-$policy
	opts=()
	[ $policy = workpile ] && opts=(--policy workpile)
	parent treesched c-$run dls-treesched --run $run --slaves 2 --width 400 --height 200 \
		--report-interval 0.2 "${opts[@]}"
	CS=""
	for i in 0 1; do
		spawn s$i-$run dls-slave --run $run --coordinator treesched --name s$i --t-iter 20000 \
			--rejoin-ms $WINDOW_MS $NS $EP
		CS="$CS $LAST_PID"
	done
	wait_for sh -c "grep -c 'registered, speed' '$T/c-$run.log' | grep -qx 2"
	sleep 0.5
	kill_parent
	i=0
	for p in $CS; do
		orphaned "a $policy slave" $((WINDOW_MS / 1000 + MARGIN_S)) \
			"could not rejoin the coordinator in $WINDOW_MS ms|gave up" $p s$i-$run
		i=$((i + 1))
	done
done

# --- a slave embedded in a program of its own ---------------------------------
run=embedded
parent master m-$run dls-master --run $run --slaves 1 --width 400 --height 200 --scheme ss
spawn e-$run "$X/embed_slave" --run $run --name e0 --speed 1 --load 1 --t-iter 20000 \
	--rejoin-ms $WINDOW_MS $NS $EP
E=$LAST_PID
wait_for grep -q "registered" "$T/m-$run.log"
sleep 0.5
kill_parent
orphaned "an embedded slave" $((WINDOW_MS / 1000 + MARGIN_S)) \
	"could not rejoin the master in $WINDOW_MS ms" $E e-$run
