#!/usr/bin/env bash
# A master that cannot be reached, or never answers: the slave retries a
# bounded number of times, each registration bounded by its timeout, then
# exits 1 with a clear message.  Bad command lines exit 2 with
# one line naming the program, the option, the value and the cause.
set -eu
. "$(dirname "$0")/lib.sh"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rc=0
dls-slave --master-ior "corbaloc::127.0.0.1:$port/DLSMaster" --retries 3 --retry-delay-ms 20 \
	$EP >"$T/slave.out" 2>&1 || rc=$?
expect_eq "exit status" "$rc" 1
grep -q "^dls-slave: slave: master of run 'dls' unreachable after 3 attempts" "$T/slave.out"
# a master that accepts the connection and never answers: each registration
# attempt ends at --register-timeout-ms, not at the 30 s call timeout (the
# timeout once set before the narrow was lost with it)
spawn silent python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
open(sys.argv[1], "w").write(str(s.getsockname()[1])); time.sleep(100)' "$T/silent.port"
SILENT=$LAST_PID
wait_for test -s "$T/silent.port"
rc=0
start=$(date +%s%N)
timeout 60 dls-slave --master-ior "corbaloc::127.0.0.1:$(cat "$T/silent.port")/DLSMaster" \
	--register-timeout-ms 500 --retries 2 --retry-delay-ms 20 $EP >"$T/slave3.out" 2>&1 || rc=$?
waited_ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "exit status, a silent master" "$rc" 1
grep -q "^dls-slave: slave: master of run 'dls' unreachable after 2 attempts: CORBA::TIMEOUT" "$T/slave3.out"
[ "$waited_ms" -lt 10000 ] || { echo "FAILED: 2 registrations of 500 ms took $waited_ms ms" >&2; exit 1; }
stop_procs "$SILENT"
echo "ok a silent master: 2 registrations of 500 ms gave up after $waited_ms ms"
# no naming service at all
rc=0
dls-slave --run nowhere --connect-timeout-ms 300 -ORBInitRef NameService=corbaname::127.0.0.1:$port \
	$EP >"$T/slave2.out" 2>&1 || rc=$?
expect_eq "exit status, no naming service" "$rc" 1
grep -q "^dls-slave: cannot find the master of run 'nowhere': the naming service cannot be reached: CORBA::TRANSIENT" "$T/slave2.out"
# a host the launch template cannot reach: what the template printed last is
# in the message, and the run ends before its master ran
printf 'localhost slots=2\n' >"$T/hosts"
rc=0
timeout 60 dls run --hostfile "$T/hosts" --launch 'sh -c "echo cannot reach {host} >&2; exit 1"' \
	--width 60 --height 30 --no-progress --dir "$T/launch" >"$T/launch.out" 2>&1 || rc=$?
expect_eq "a launch that fails" "$rc" 1
grep -q "^dls run: run 'run-[0-9]*' on 1 host (sh -c" "$T/launch.out"
grep -q "^dls run: cannot start the naming service: omniNames did not start on localhost, 5 free ports tried: cannot reach localhost (see " "$T/launch.out"
grep -q "^dls run: run 'run-[0-9]*' failed before its master ran; logs in $T/launch" "$T/launch.out"
# slaves whose launch fails: each is said at once with what it printed last
rc=0
timeout 60 dls run --hostfile "$T/hosts" \
	--launch "sh -c 'case \"\$*\" in *dls-slave*) echo no room on {host} >&2; exit 3;; esac; exec \"\$@\"' sh" \
	--width 60 --height 30 --no-progress --dir "$T/noslave" >"$T/noslave.out" 2>&1 || rc=$?
expect_eq "slaves that could not start" "$rc" 1
for i in 0 1; do
	grep -q "^dls run: slave.$i@localhost exited 3: no room on localhost (its log: " "$T/noslave.out"
done
grep -q "^dls run: every slave of run 'run-[0-9]*' has exited and the master is still waiting" \
	"$T/noslave.out"
echo "ok a launch that fails: the naming service's and the slaves' reasons said"
# no naming service given at all: said at once, not after the connect timeout
rc=0
start=$(date +%s%N)
OMNIORB_CONFIG=/dev/null timeout 30 dls-slave --run nowhere $EP >"$T/slave4.out" 2>&1 || rc=$?
waited_ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "exit status, no naming service given" "$rc" 1
grep -q "^dls-slave: cannot find the master of run 'nowhere': no naming service: the ORB was given none (-ORBInitRef NameService=" "$T/slave4.out"
[ "$waited_ms" -lt 5000 ] || { echo "FAILED: 'no naming service given' took $waited_ms ms" >&2; exit 1; }
rc=0
OMNIORB_CONFIG=/dev/null dls status --run nowhere >"$T/status.out" 2>&1 || rc=$?
expect_eq "dls status, no naming service given" "$rc" 1
grep -q "^dls status: cannot query the master of run 'nowhere': no naming service: the ORB was given none" "$T/status.out"

expect_usage_error "^dls-master: --slaves '0': must be an integer" dls-master --slaves 0
expect_usage_error "^dls-master: --scheme 'nope': unknown scheme" dls-master --slaves 2 --scheme nope
expect_usage_error "^dls-master: --order 'random': must be natural or interleaved" dls-master --slaves 2 --order random
expect_usage_error "^dls-master: --collect 'later': must be piggyback or end" dls-master --slaves 2 --collect later
expect_usage_error "^dls-slave: --speed '-1': must be a number" dls-slave --speed -1
expect_usage_error "^dls-slave: --load '0:1,x': each step" dls-slave --load 0:1,x
expect_usage_error "^dls-slave: --load '1:2': the first step must be at time 0" dls-slave --load 1:2
expect_usage_error "^dls run: --cluster 'C9': unknown cluster" dls run --cluster C9
expect_usage_error "^dls run: --loads '1,2': one load per slave" dls run --speeds 1,1,1 --loads 1,2
expect_usage_error "^dls run: --kill '9': must be WHO@SECONDS or WHO@start\\+SECONDS" dls run --cluster C8 --kill 9
expect_usage_error "^dls run: --kill: names slave 9 of a cluster of 8 \\(slave.0 to slave.7\\)" dls run --cluster C8 --kill slave.9@1
expect_usage_error "^dls run: --kill 'slave.x': a slave's name is slave.N" dls run --cluster C8 --kill slave.x@1
expect_usage_error "^dls run: --nope: unknown option$" dls run --nope
expect_usage_error "^dls run: --t-iter: sets the emulated time of an iteration; --real slaves" \
	dls run --speeds 1,1 --real --t-iter 5
expect_usage_error "^dls run: --loads '1,2': sets emulated loads; --real slaves measure" \
	dls run --speeds 1,1 --real --loads 1,2
expect_usage_error "^dls-slave: --nope: unknown option$" dls-slave --nope
expect_usage_error "^dls run: --workload 'mandelbrot': parameter width: 'wide' is not an integer in 1\.\.1000000" dls run --cluster C8 --width wide
dls-master --help | grep -q -- --collect
dls-slave --help | grep -q -- --load
dls run --help | grep -q -- --cluster

# a naming service that runs but whose port this host cannot reach (here an
# omniNames that starts, says so as the real one does, and never opens its
# port) is said as such, and stopped
mkdir -p "$T/fakebin"
printf '#!/bin/sh\necho "Starting omniNames for the first time."\nexec sleep 60\n' \
	>"$T/fakebin/omniNames"
chmod +x "$T/fakebin/omniNames"
rc=0
PATH="$T/fakebin:$PATH" dls names start --dir "$T/fakenames" >"$T/fakenames.log" 2>&1 || rc=$?
expect_eq "an unreachable naming service" "$rc" 1
grep -q "omniNames runs on 127.0.0.1:[0-9]* but this host cannot reach it there in 5 s" \
	"$T/fakenames.log" || fail "unreachable naming service: $(cat "$T/fakenames.log")"
echo "ok a naming service this host cannot reach is said so"

# a master no slave ever reaches: the registration window counts from its
# start, and it says so and exits 1 instead of waiting for ever
start_names
rc=0
timeout 30 dls-master --run lonely --slaves 2 --register-timeout-ms 1000 $NS $EP \
	>"$T/lonely.log" 2>&1 || rc=$?
expect_eq "a master nobody reached" "$rc" 1
grep -q "no slave registered within the registration window (--register-timeout-ms)" "$T/lonely.log"
echo "ok a master nobody reached exits 1"

# --timeout: every server program gives up when told, saying what it waited for
rc=0
timeout 30 dls-master --run waiting --slaves 2 --timeout 1 $NS $EP >"$T/tmaster.log" 2>&1 || rc=$?
expect_eq "dls-master --timeout" "$rc" 1
grep -q "^dls-master: --timeout 1 s passed while waiting for slaves to register (0 in): giving up" "$T/tmaster.log"
rc=0
timeout 30 dls-treesched --run twaiting --slaves 2 --timeout 1 $NS $EP >"$T/ttree.log" 2>&1 || rc=$?
expect_eq "dls-treesched --timeout" "$rc" 1
grep -q "^dls-treesched: --timeout 1 s passed while waiting for slaves to register (0 in): giving up" "$T/ttree.log"
for prog in dls-slave dls-hmaster; do
	extra=""
	[ $prog = dls-hmaster ] && extra="--slaves 1"
	rc=0
	# shellcheck disable=SC2086
	timeout 30 $prog --run nobody $extra --timeout 1 $NS $EP >"$T/t$prog.log" 2>&1 || rc=$?
	expect_eq "$prog --timeout" "$rc" 1
	grep -q "^$prog: --timeout 1 s passed before the run ended: giving up" "$T/t$prog.log"
done
expect_usage_error "^dls-master: --timeout '0': must be a number" dls-master --slaves 2 --timeout 0
echo "ok --timeout ends dls-master, dls-treesched, dls-slave and dls-hmaster with a line"
