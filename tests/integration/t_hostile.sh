#!/usr/bin/env bash
# Only the run's own processes act in a run (PROTOCOL.md 14).  A run
# with a secret: a stranger on the same host, with a client written from the
# IDL, tries to join without the secret or with another, to declare the
# real slaves lost, to submit and request as them with guessed
# capabilities, and to stop them; against Tree Scheduling also to report,
# migrate, demand and transfer.  Every attempt is refused with a reason and
# the image is exact, no slave lost.  The naming service is an open door:
# the run's master name rebound to a stranger's master sends a slave there,
# and the slave refuses to work for it.  A secret readable by others, and a
# slave without the secret, are refused with a reason.  10,000 idle
# connections held on the master's port cost a run nothing: exact image.
# A journal edited after a kill -9, or resumed under another secret, is
# refused naming the record; the untouched one resumes exact.
set -eu
. "$(dirname "$0")/lib.sh"

start_names
REF=$(reference 400 200)
SECRET=$T/run.secret
head -c 32 /dev/urandom >"$SECRET"
chmod 600 "$SECRET"

# --- master-slave ---------------------------------------------------------------
spawn master dls-master --run h --slaves 3 --width 400 --height 200 --scheme gss \
	--secret-file "$SECRET" --raw "$T/h.pgm" $NS $EP
MASTER=$LAST_PID
for i in 0 1 2; do
	spawn slave$i dls-slave --run h --name s$i --t-iter 3000 --secret-file "$SECRET" $NS $EP
done
wait_for sh -c "nameclt $NS list DLS/h | grep -c '^slave\.' | grep -qx 3"
"$DLS_TEST_BIN_DIR/bad_client" --intruder h 3 $NS $EP >"$T/intruder.log" 2>&1
wait "$MASTER"
same_image "$T/h.pgm" "$REF"
expect_eq "attacks refused" "$(grep -c '^refused:' "$T/intruder.log")" 48
! grep -q '^ACCEPTED\|^FAILED' "$T/intruder.log"
grep -q "refused: join without the run's secret: register_slave: this run has a secret and the caller showed none" "$T/intruder.log"
grep -q "refused: join with another secret: register_slave: the caller's proof does not match this run's secret" "$T/intruder.log"
grep -q "refused: slave_lost of a real slave: slave 0: the call does not carry the capability" "$T/intruder.log"
grep -q "refused: stop a real slave: stop: the caller does not show this slave's capability" "$T/intruder.log"
grep -q "refused: ask a real slave how far it is: progress: the caller does not show this slave's capability" "$T/intruder.log"
grep -q "refused: take back a real slave's chunk: take_back: the caller does not show this slave's capability" "$T/intruder.log"
! grep -q "lost" "$T/master.log"
echo "ok master-slave intruder: 48 refused, image exact"

# --- Tree Scheduling ---------------------------------------------------------------
spawn tree dls-treesched --run ht --slaves 3 --width 400 --height 200 \
	--secret-file "$SECRET" --raw "$T/ht.pgm" $NS $EP
TREE=$LAST_PID
for i in 0 1 2; do
	spawn tslave$i dls-slave --run ht --name s$i --t-iter 3000 --coordinator treesched \
		--secret-file "$SECRET" $NS $EP
done
wait_for sh -c "nameclt $NS list DLS/ht | grep -c '^slave\.' | grep -qx 3"
"$DLS_TEST_BIN_DIR/bad_client" --intruder-trees ht 3 $NS $EP >"$T/tintruder.log" 2>&1
wait "$TREE"
same_image "$T/ht.pgm" "$REF"
expect_eq "tree attacks refused" "$(grep -c '^refused:' "$T/tintruder.log")" 38
! grep -q '^ACCEPTED\|^FAILED' "$T/tintruder.log"
grep -q "refused: report as a real slave: slave 0: the call does not carry the capability" "$T/tintruder.log"
grep -q "refused: take back a tree slave's chunk: take_back: the caller does not show" "$T/tintruder.log"
grep -q "refused: demand from a stranger: demand: the caller does not show this slave's peer key" "$T/tintruder.log"
! grep -q "lost" "$T/tree.log"
grep -q "refused: balance from a stranger: balance: this slave does not run a workpile" "$T/tintruder.log"
grep -q "refused: a peer's reference as a real slave: slave 0: the call does not carry the capability" "$T/tintruder.log"
grep -q "refused: end a loop of a tree slave: end_loop: the caller does not show this slave's capability" "$T/tintruder.log"
grep -q "refused: place a tree slave for a next loop: next_loop: the caller does not show this slave's capability" "$T/tintruder.log"
echo "ok tree intruder: 38 refused, image exact"

# --- the naming service hijacked ---------------------------------------------------------------
# a stranger's open master, bound as run v's master: v's slave refuses it
spawn evil dls-master --run evil --slaves 1 --width 40 --height 20 --register-timeout-ms 60000 \
	$NS $EP
EVIL=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/evil | grep -qx master"
"$DLS_TEST_BIN_DIR/bad_client" --hijack v evil $NS $EP >"$T/hijack.log" 2>&1
rc=0
timeout 60 dls-slave --run v --name victim --secret-file "$SECRET" $NS $EP \
	>"$T/victim.log" 2>&1 || rc=$?
expect_eq "the victim's exit" "$rc" 1
grep -q "not this run's master (its naming-service entry may have been replaced)" "$T/victim.log"
kill_wait TERM "$EVIL"
echo "ok naming hijack: the slave refused a master without the secret"

# --- a slave without the secret; a secret others may read ------------------------------
spawn lone dls-master --run l --slaves 1 --width 40 --height 20 --secret-file "$SECRET" $NS $EP
LONE=$LAST_PID
rc=0
timeout 60 dls-slave --run l --name nosecret $NS $EP >"$T/nosecret.log" 2>&1 || rc=$?
expect_eq "the slave without the secret" "$rc" 1
grep -q "this run has a secret and the caller showed none: start it with the run's --secret-file" \
	"$T/nosecret.log"
kill_wait TERM "$LONE"
chmod 644 "$SECRET"
expect_usage_error "^dls-slave: --secret-file '.*run.secret': .*has mode 0644: others may read it; chmod 600 it" \
	dls-slave --run l --secret-file "$SECRET" $NS
echo "ok refusals of a missing or open secret"

# --- 10,000 idle connections held on the master's port during a run -------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# (its registration window outlasts the holder's minute to open them all:
# on a loaded machine that took 30 s once, the default window)
spawn idlemaster dls-master --run idle --slaves 2 --width 400 --height 200 --scheme gss \
	--register-timeout-ms 90000 --raw "$T/idle.pgm" --json "$T/idle.json" $NS \
	-ORBendPoint "giop:tcp:127.0.0.1:$port"
IDLEM=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/idle | grep -qx master"
python3 - "$port" >"$T/holder.log" 2>&1 <<'PY' &
import socket, sys, time
socks = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(10000)]
print("holding", len(socks), flush=True)
time.sleep(120)
PY
HOLDER=$!
for _ in $(seq 600); do grep -q "holding 10000" "$T/holder.log" && break; sleep 0.1; done
grep -q "holding 10000" "$T/holder.log"
# the connections cost no thread each: the ORB serves them from its pool
# past the first 1024 (without the bound: one thread each, 10,003)
mpid=$(pgrep -P "$IDLEM" -x dls-master)
threads=$(awk '/^Threads:/ {print $2}' "/proc/$mpid/status")
rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$mpid/status")
[ "$threads" -le 1100 ] || fail "the master has $threads threads under 10000 idle connections"
for i in 0 1; do
	spawn islave$i dls-slave --run idle --name s$i --t-iter 400 $NS $EP
done
wait "$IDLEM"
kill_wait TERM "$HOLDER"
same_image "$T/idle.pgm" "$REF"
echo "ok 10000 idle connections: image exact, T_p $(json_get "$T/idle.json" t_p) s, the master at $threads threads and $((rss / 1024)) MB"

# --- withdraw: only the run's own launcher, before registration closes ---------------
# a slave that will not come is withdrawn (dls run does it for a slave that
# exits unregistered); a stranger without the secret, or with another, is
# refused; so is a second withdrawal, a withdrawn name that registers after
# all, and a withdrawal once registration closed
head -c 32 /dev/urandom >"$T/wd.secret"
chmod 600 "$T/wd.secret"
spawn wd-master dls-master --run wd --slaves 2 --width 400 --height 200 --scheme gss \
	--secret-file "$T/wd.secret" --raw "$T/wd.pgm" $NS $EP
WD=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/wd | grep -q '^master'"
head -c 32 /dev/urandom >"$T/other.secret"
chmod 600 "$T/other.secret"
withdraw_refused() { # pattern, then dls withdraw's options
	local pattern=$1 rc=0
	shift
	dls withdraw --run wd "$@" $NS >"$T/wd-refused.log" 2>&1 || rc=$?
	expect_eq "dls withdraw $*" "$rc" 1
	grep -q "^dls withdraw: run 'wd' did not withdraw 's1': $pattern" "$T/wd-refused.log" ||
		{ cat "$T/wd-refused.log"; echo "FAILED no '$pattern'" >&2; exit 1; }
}
withdraw_refused "withdraw: this run has a secret and the caller showed none" --name s1
withdraw_refused "withdraw: the caller's proof does not match this run's secret" --name s1 \
	--secret-file "$T/other.secret"
dls withdraw --run wd --name s1 --secret-file "$T/wd.secret" $NS | grep -qx "run 'wd': 's1' withdrawn"
withdraw_refused "withdraw 's1': withdrawn already" --name s1 --secret-file "$T/wd.secret"
spawn wd-s0 dls-slave --run wd --name s0 --t-iter 1000 --secret-file "$T/wd.secret" $NS $EP
wait_for grep -q "withdrawn before it registered" "$T/wd-master.log"
wait_for sh -c "nameclt $NS list DLS/wd | grep -q '^slave\.'"
rc=0
dls-slave --run wd --name s1 --secret-file "$T/wd.secret" $NS $EP >"$T/wd-s1.log" 2>&1 || rc=$?
expect_eq "a withdrawn slave that registers after all" "$rc" 1
grep -q "'s1' was withdrawn: the launcher saw it exit before it registered" "$T/wd-s1.log" ||
	{ cat "$T/wd-s1.log"; exit 1; }
withdraw_refused "withdraw 's1': registration has closed" --name s1 --secret-file "$T/wd.secret"
wait "$WD"
same_image "$T/wd.pgm" "$REF"
echo "ok withdraw: the launcher's taken, strangers' and late ones refused, image exact"

# a withdrawal goes up a chain: a slave that registered with its relay
# hmaster (then died, say) is refused there, and the master, told only
# after, is not told at all, so it still expects both slaves the relay
# brings (told at once, it expected one fewer and refused the relay's
# registration: seen in CI)
spawn wc-master dls-master --run wc --slaves 2 --width 400 --height 200 --scheme gss \
	--secret-file "$T/wd.secret" --raw "$T/wc.pgm" $NS $EP
WC=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/wc | grep -q '^master'"
DLS_LOG_LEVEL=info spawn wc-hmaster dls-hmaster --run wc --name hmaster.0.0 --mode relay \
	--slaves 2 --secret-file "$T/wd.secret" $NS $EP
wait_for sh -c "nameclt $NS list DLS/wc | grep -q '^hmaster'"
spawn wc-a dls-slave --run wc --master hmaster.0.0 --name a --t-iter 1000 \
	--secret-file "$T/wd.secret" $NS $EP
wait_for grep -q "'a' registered below, 1 of 2 expected are in" "$T/wc-hmaster.log"
rc=0
dls withdraw --run wc --name a --parent hmaster.0.0 --parent master --secret-file "$T/wd.secret" \
	$NS >"$T/wc-withdraw.log" 2>&1 || rc=$?
expect_eq "dls withdraw of a slave registered below" "$rc" 1
grep -q "^dls withdraw: run 'wc' did not withdraw 'a' at hmaster.0.0: withdraw 'a': it registered below this hmaster" \
	"$T/wc-withdraw.log" || { cat "$T/wc-withdraw.log"; exit 1; }
spawn wc-b dls-slave --run wc --master hmaster.0.0 --name b --t-iter 1000 \
	--secret-file "$T/wd.secret" $NS $EP
wait "$WC"
same_image "$T/wc.pgm" "$REF"
echo "ok withdraw up a chain: refused below for a slave that registered there, image exact"

# --- idle connections up to the master's descriptor limit: no result lost ---------------------
# a master limited to 64 descriptors; once its slaves work, 300 idle
# connections take every descriptor it has left; its outputs, held open
# from its start, are still written, exact.  (Without the end game: its
# calls on a slave then need a connection it cannot open.  Under make
# sanitize, UBSan's vptr check still stops this master at its exit, in the
# ORB's teardown at the descriptor limit: an open defect, see BENCHMARKS.md
# 14.3; a release build ends exact, exit 0.)
if [ -n "${DLS_SANITIZE:-}" ]; then
	echo "skip the descriptor-limit master under make sanitize (UBSan stops it in the ORB's teardown: BENCHMARKS.md 14.3)"
else
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	(
		ulimit -Sn 64
		ulimit -Hn 64
		exec timeout 120 dls-master --run fdl --slaves 2 --width 400 --height 200 --raw "$T/fdl.pgm" \
			--json "$T/fdl.json" --take-back off $NS -ORBendPoint "giop:tcp:127.0.0.1:$port"
	) >"$T/fdl-master.log" 2>&1 &
	FDL=$!
	wait_for sh -c "nameclt $NS list DLS/fdl | grep -qx master"
	for i in 0 1; do
		DLS_LOG_LEVEL=info spawn fdl$i dls-slave --run fdl --name s$i --t-iter 8000 $NS $EP
	done
	wait_for grep -q "registered as slave" "$T/fdl0.log"
	wait_for grep -q "registered as slave" "$T/fdl1.log"
	python3 - "$port" >"$T/fdl-holder.log" 2>&1 <<-'PY' &
	import socket, sys, time
	socks = []
	for _ in range(300):
	    try:
	        socks.append(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=0.5))
	    except OSError:
	        pass
	print("holding", len(socks), flush=True)
	time.sleep(120)
	PY
	FDH=$!
	for _ in $(seq 600); do grep -q "^holding" "$T/fdl-holder.log" && break; sleep 0.1; done
	rc=0
	wait "$FDL" || rc=$?
	kill_wait TERM "$FDH"
	expect_eq "the master at its descriptor limit" "$rc" 0
	held=$(sed -n 's/^holding //p' "$T/fdl-holder.log")
	[ "${held:-0}" -ge 100 ] || fail "the flood did not reach the master: $(cat "$T/fdl-holder.log")"
	same_image "$T/fdl.pgm" "$REF"
	echo "ok $held idle connections at a 64-descriptor limit: outputs written, image exact"
fi

# --- a flood of forged calls: refused, and the log stays small -------------------------------
# 4000 requests and result submissions with a wrong capability while a run
# goes on: every one refused, the image exact, the master's log holding the
# first refusals of each kind and then one line that sums up the rest
spawn flood-master dls-master --run fl --slaves 2 --width 400 --height 200 --raw "$T/fl.pgm" \
	$NS $EP
FL=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/fl | grep -qx master"
spawn fl-a dls-slave --run fl --name a --t-iter 3000 $NS $EP
spawn fl-b dls-slave --run fl --name b --t-iter 3000 $NS $EP
"$DLS_TEST_BIN_DIR/bad_client" --flood fl 4000 $NS $EP >"$T/flood.log" 2>&1 ||
	fail "the flood: $(cat "$T/flood.log")"
wait "$FL"
same_image "$T/fl.pgm" "$REF"
lines=$(grep -c "refused a request of slave\|refused results of slave" "$T/flood-master.log" || true)
[ "$lines" -le 20 ] || fail "the flood wrote $lines refusal lines"
grep -qE "refused (requests|results): [0-9]+ more in the last [0-9]+ s \(from slave" \
	"$T/flood-master.log" || fail "no summary of the refusals: $(tail -5 "$T/flood-master.log")"
size=$(stat -c %s "$T/flood-master.log")
[ "$size" -lt 20000 ] || fail "the flood's log has $size octets"
echo "ok a flood of 4000 forged calls: all refused, image exact, $lines refusal lines, $size octets of log"

# --- an edited journal: refused, naming the first record that does not match ---------
# a master journaling under the run's secret is killed with kill -9 part way;
# the counts of one result block are changed in its journal.db; --resume
# refuses it in one line naming the record, and refuses the untouched journal
# under another secret; the untouched copy then resumes, exact.
J=$T/ej
EJ_SECRET=$T/ej.secret
OTHER=$T/other.secret
head -c 32 /dev/urandom >"$EJ_SECRET"
head -c 32 /dev/urandom >"$OTHER"
chmod 600 "$EJ_SECRET" "$OTHER"
# not under timeout: the kill below must reach the master itself
dls-master --run ej --slaves 2 --width 400 --height 200 --scheme dtss --journal "$J" \
	--secret-file "$EJ_SECRET" $NS $EP >"$T/ej-master1.log" 2>&1 &
EJ=$!
wait_for sh -c "nameclt $NS list DLS/ej | grep -qx master"
EJS=""
for i in 0 1; do
	spawn ej$i dls-slave --run ej --name s$i --t-iter 3000 --rejoin-ms 30000 \
		--secret-file "$EJ_SECRET" $NS $EP
	EJS="$EJS $LAST_PID"
done
wait_for python3 -c 'import sqlite3, sys
sys.exit(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM block").fetchone()[0] < 2)' "$J/journal.db"
kill_wait KILL "$EJ"
wait "$EJ" 2>/dev/null || true
cp -a "$J" "$J.untouched"
bad=$(python3 - "$J/journal.db" <<-'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
event, rowid = db.execute("SELECT event, rowid FROM block ORDER BY rowid LIMIT 1").fetchone()
db.execute("UPDATE block SET data = zeroblob(length(data)) WHERE rowid = ?", (rowid,))
db.commit()
print(event)
PY
)
rc=0
dls-master --resume "$J" --secret-file "$EJ_SECRET" $NS $EP >"$T/ej-edited.log" 2>&1 || rc=$?
expect_eq "resuming an edited journal" "$rc" 2
expect_eq "the refusal's lines" "$(wc -l <"$T/ej-edited.log")" 1
grep -q "^dls-master: cannot set up the run: journal '.*journal.db': record $bad (event '[a-z]*') does not match its MAC" \
	"$T/ej-edited.log" || fail "the refusal: $(cat "$T/ej-edited.log")"
rm -rf "$J"
cp -a "$J.untouched" "$J"
rc=0
dls-master --resume "$J" --secret-file "$OTHER" $NS $EP >"$T/ej-other.log" 2>&1 || rc=$?
expect_eq "resuming under another secret" "$rc" 2
grep -q "the run's record does not match its MAC" "$T/ej-other.log" ||
	fail "the refusal: $(cat "$T/ej-other.log")"
rc=0
timeout 60 dls-master --resume "$J" --raw "$T/ej.pgm" --secret-file "$EJ_SECRET" $NS $EP \
	>"$T/ej-master2.log" 2>&1 || rc=$?
expect_eq "the untouched journal resumed" "$rc" 0
same_image "$T/ej.pgm" "$REF"
# shellcheck disable=SC2086 # one PID a word
wait_ok "a slave of the resumed run" $EJS
echo "ok an edited journal: refused naming record $bad, another secret refused, the untouched one resumed exact"

# --- a squatter on the master's name ------------------------------------------------------
# a stranger's live master is bound as run sq's master before sq's master
# starts: sq's master asks it to prove sq's secret, it cannot, and the name
# is taken over with a line; bound to the stranger again mid-run, the name is
# bound back within a second; the run ends exact.  An open run cannot tell a
# squatter from its own: it refuses, and says a secret would take it over.
SQ_SECRET=$T/sq.secret
head -c 32 /dev/urandom >"$SQ_SECRET"
chmod 600 "$SQ_SECRET"
spawn sq-evil dls-master --run sqe --slaves 1 --width 40 --height 20 --register-timeout-ms 60000 \
	$NS $EP
SQE=$LAST_PID
wait_for sh -c "nameclt $NS list DLS/sqe | grep -qx master"
"$DLS_TEST_BIN_DIR/bad_client" --hijack sq sqe $NS $EP >"$T/sq-hijack.log" 2>&1
spawn sq-master dls-master --run sq --slaves 2 --width 400 --height 200 --scheme dtss \
	--secret-file "$SQ_SECRET" --raw "$T/sq.pgm" $NS $EP
SQ=$LAST_PID
wait_for grep -q "'DLS/sq/master' was held by an object that cannot prove the run's secret (it proves no secret): taking the name over" \
	"$T/sq-master.log"
for i in 0 1; do
	DLS_LOG_LEVEL=info spawn sq$i dls-slave --run sq --name s$i --t-iter 3000 \
		--secret-file "$SQ_SECRET" $NS $EP
done
wait_for grep -q "registered as slave" "$T/sq0.log"
wait_for grep -q "registered as slave" "$T/sq1.log"
"$DLS_TEST_BIN_DIR/bad_client" --hijack sq sqe $NS $EP >>"$T/sq-hijack.log" 2>&1
wait_for grep -q "'DLS/sq/master' was bound to another object: bound it back" "$T/sq-master.log"
wait "$SQ"
same_image "$T/sq.pgm" "$REF"
"$DLS_TEST_BIN_DIR/bad_client" --hijack sqo sqe $NS $EP >>"$T/sq-hijack.log" 2>&1
rc=0
timeout 60 dls-master --run sqo --slaves 1 --width 40 --height 20 $NS $EP \
	>"$T/sqo.log" 2>&1 || rc=$?
expect_eq "an open run's master on a squatted name" "$rc" 1
grep -q "^dls-master: cannot take 'DLS/sqo/master': .*with a secret, --secret-file, a name held by a stranger is taken over" \
	"$T/sqo.log" || fail "the open run's refusal: $(cat "$T/sqo.log")"
# dls run on a naming service where a stranger binds its object as the run's
# master before the run starts and again and again while it runs: the
# master takes the name over and binds it back, and its slaves reach it by
# the reference it wrote, so no name look-up can divert them; exact
"$DLS_TEST_BIN_DIR/bad_client" --hijack dr sqe $NS $EP >>"$T/sq-hijack.log" 2>&1
(
	trap 'exit 0' TERM # after the bad_client in flight
	while :; do
		"$DLS_TEST_BIN_DIR/bad_client" --hijack dr sqe $NS $EP >/dev/null 2>&1
		sleep 0.02
	done
) &
SQUAT=$!
rc=0
timeout 120 dls run --names "$NS_ADDR" --run dr --cluster C8 --width 400 --height 200 \
	--raw "$T/dr.pgm" --json "$T/dr.json" --dir "$T/dr" >"$T/dr.log" 2>&1 || rc=$?
kill_wait TERM "$SQUAT"
expect_eq "dls run on a squatted name" "$rc" 0
same_image "$T/dr.pgm" "$REF"
# every slave worked (by name, the stranger would have refused them: 1 of 8)
python3 - "$T/dr.json" <<'PY' || fail "not every slave of dls run worked: $(cat "$T/dr.log")"
import json, sys
pes = json.load(open(sys.argv[1]))["pes"]
assert len(pes) == 8 and all(p["state"] == "done" for p in pes), [p["state"] for p in pes]
PY
grep -q "'DLS/dr/master' was held by an object that cannot prove the run's secret" "$T/dr/master.log" ||
	fail "dls run's master did not take its name over: $(cat "$T/dr/master.log")"
kill_wait TERM "$SQE"
echo "ok a squatter: the name taken over at the start and bound back mid-run, image exact; an open run refuses; dls run's slaves reach the master by its IOR"
