#!/usr/bin/env bash
# Many hosts, on three network namespaces the test makes as three
# hosts on one switch (10.77.0.1-3; the third also has an interface no one
# else reaches, 10.99.0.3, listed first: a multi-homed host):
#  - dls run --hostfile --launch 'ip netns exec {host}': exact image; with
#    --tls; with --hmasters per-host (one hmaster on each host);
#  - by hand, a slave on the multi-homed host without --listen is refused,
#    on both sides, naming the address it advertised; with --listen it works;
#  - a link cut mid-run: the cut-off slave holding work is found by the
#    pings, its work goes to others, the image is exact; when the link
#    comes back the master takes it back (a tree slave is refused by the
#    coordinator and says it was declared lost).
#  - over ssh (an sshd in each namespace): exact; dls run killed -9: every
#    process of its run, on every host, exits (the lifeline).
# Needs root (ip netns) and openssh; without root the test says so and fails.
set -eu
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
	echo "t_hosts needs root and iproute2 (ip netns) to make its three hosts" >&2
	exit 1
fi
P=dls$$
H1=${P}h1 H2=${P}h2 H3=${P}h3 SW=${P}sw
NETNS=$(cd "$(dirname "$0")/../../scripts" && pwd)/netns-hosts.sh
netns_down() { "$NETNS" down $P; }
CLEANUP_HOOK=netns_down
"$NETNS" up $P
cat >"$T/hosts" <<HOSTS
# three namespace hosts
$H1 addr=10.77.0.1 slots=2
$H2 addr=10.77.0.2 slots=3   # a comment after a host
$H3 addr=10.77.0.3 slots=3
HOSTS
REF=$(reference 400 200)
# dls run itself runs on the first host, as on a cluster's head node
on() { local h=$1; shift; ip netns exec "$h" "$@"; }
RUN=(on $H1 dls run --hostfile "$T/hosts" --launch 'ip netns exec {host}' --cluster C8
	--width 400 --height 200 --no-progress)

"${RUN[@]}" --raw "$T/plain.pgm" --dir "$T/plain" >"$T/plain.log" 2>&1
same_image "$T/plain.pgm" "$REF"
grep -q "on 3 hosts (ip netns exec {host}): $H1 runs the naming service and the master; $H1 2 slaves, $H2 3 slaves, $H3 3 slaves" "$T/plain.log"
grep -q "slave.7@$H3 " "$T/plain.log"
# (real slaves read Q_i from the run queue: a simple scheme asks on under
# any load, where a distributed one waits while A_i is 0 on a loaded machine)
"${RUN[@]}" --real --scheme gss --raw "$T/real.pgm" --dir "$T/real" >"$T/real.log" 2>&1
same_image "$T/real.pgm" "$REF"
grep -qx "T_p [0-9.]* s" "$T/real.log" # no emulated T_ideal: the slaves measured themselves
"${RUN[@]}" --tls --raw "$T/tls.pgm" --dir "$T/tls" >"$T/tls.log" 2>&1
same_image "$T/tls.pgm" "$REF"
for i in 1 2 3; do [ -f "$T/tls/tls/${P}h$i/node.pem" ]; done
openssl x509 -in "$T/tls/tls/$H3/node.pem" -noout -ext subjectAltName | grep -q "IP Address:10.77.0.3"
"${RUN[@]}" --hmasters per-host --raw "$T/hm.pgm" --dir "$T/hm" >"$T/hm.log" 2>&1
same_image "$T/hm.pgm" "$REF"
expect_eq "one hmaster per host" "$(ls "$T"/hm/hmaster.0.*.log | wc -l)" 3
# slaves 0-1 on h1, 2-4 on h2, 5-7 on h3: each host's hmaster has its own
expect_eq "h3's hmaster has h3's slaves" \
	"$(grep -o 'slave\.[0-9]' "$T/hm/hmaster.0.2.log" | sort | tr '\n' ' ')" "slave.5 slave.6 slave.7 "
expect_eq "h1's hmaster has h1's slaves" \
	"$(grep -o 'slave\.[0-9]' "$T/hm/hmaster.0.0.log" | sort | tr '\n' ' ')" "slave.0 slave.1 "
echo "hostfile runs: plain, --real, --tls, --hmasters per-host exact"

# a bad hostfile, a template that cannot be split: clear errors
printf '%s\n' "$H1 slots=two" >"$T/bad"
expect_usage_error "bad:1: 'slots=two': must be an integer" dls run --hostfile "$T/bad" --cluster C8
expect_usage_error "host 'b' has the loopback address 127.0.0.1" \
	dls run --hostfile <(printf 'a addr=10.77.0.1\nb addr=127.0.0.1 slots=7\n') --cluster C8
expect_usage_error "8 slaves, but the hosts have 2 slots" \
	dls run --hostfile <(echo "$H1 slots=2") --cluster C8
expect_usage_error "--launch 'ssh \"{host}': cannot be split" \
	dls run --hostfile "$T/hosts" --cluster C8 --launch 'ssh "{host}'
expect_usage_error "--listen '10.99.0.3': not an address of this host" \
	dls-slave --listen 10.99.0.3 --run x

# over ssh (dls run's default launcher): an sshd in each namespace, a key of
# the test's own; outputs given as relative paths land where dls run runs
S=$T/ssh
mkdir -p "$S" /run/sshd
chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$S/id"
cp "$S/id.pub" "$S/authorized_keys"
for i in 1 2 3; do
	printf '%s\n' "ListenAddress 10.77.0.$i" "HostKey $S/hostkey" "PidFile $S/sshd$i.pid" \
		"AuthorizedKeysFile $S/authorized_keys" "PermitRootLogin prohibit-password" \
		"PasswordAuthentication no" "KbdInteractiveAuthentication no" "UsePAM no" \
		"StrictModes no" >"$S/sshd$i.conf"
	ip netns exec ${P}h$i "$(command -v sshd || echo /usr/sbin/sshd)" -f "$S/sshd$i.conf" \
		-E "$S/sshd$i.log"
	printf 'Host %s\n  HostName 10.77.0.%s\n' ${P}h$i $i >>"$S/config"
done
printf '%s\n' "Host *" "  User root" "  IdentityFile $S/id" "  IdentitiesOnly yes" \
	"  BatchMode yes" "  StrictHostKeyChecking no" "  UserKnownHostsFile /dev/null" \
	"  LogLevel ERROR" >>"$S/config"
sshd_down() {
	for i in 1 2 3; do [ -f "$S/sshd$i.pid" ] && kill "$(cat "$S/sshd$i.pid")" 2>/dev/null; done
	netns_down
}
CLEANUP_HOOK=sshd_down
# (a run name and an output with a space and a quote: quoted for the remote shell)
(cd "$T" && on $H1 dls run --hostfile "$T/hosts" --launch "ssh -F $S/config {host}" --cluster C8 \
	--width 400 --height 200 --no-progress --run "it's $$" --raw "ssh o'k.pgm" --dir ssh-run \
	>"$T/ssh.log" 2>&1)
same_image "$T/ssh o'k.pgm" "$REF"
echo "over ssh: exact, arguments quoted, outputs where dls run runs"

# dls run killed -9: the lifeline closes and every process it started, on
# every host, exits: through ssh, and the naming service under its guard
# (ip netns exec execs dls run: $! is dls run's PID)
ip netns exec $H1 dls run --hostfile "$T/hosts" --launch "ssh -F $S/config {host}" --cluster C8 \
	--width 400 --height 200 --no-progress --t-iter 30000 --run gone$$ --dir "$T/gone" \
	>"$T/gone.log" 2>&1 &
RUNPID=$!
for _ in $(seq 150); do
	[ "$(pgrep -fc -- "--run=gone$$ --name=slave")" = 8 ] && break
	sleep 0.1
done
sleep 1 # registered, computing (T_ideal 10 s)
kill -9 $RUNPID
wait $RUNPID 2>/dev/null || true
left=""
for _ in $(seq 50); do
	left=$(pgrep -f -- "gone$$|$T/gone/names" || true)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || { echo "FAILED: left running after dls run died: $(pgrep -af "gone$$")" >&2; exit 1; }
grep -q "its launcher is gone" "$T/gone/slave.7.log"
echo "dls run killed -9: every process of its run, on every host, exited"

# by hand: the multi-homed host's slave advertises 10.99.0.3 unless --listen
NSA=$(on $H1 dls names start --listen 10.77.0.1 --dir "$T/names1")
stop_names1() {
	on $H1 dls names stop --dir "$T/names1" >/dev/null 2>&1 || true
	sshd_down
}
CLEANUP_HOOK=stop_names1
NSO="-ORBInitRef NameService=$NSA"
on $H1 timeout 60 dls-master --run mh --slaves 1 --width 400 --height 200 --listen 10.77.0.1 \
	--raw "$T/mh.pgm" $NSO >"$T/mh-master.log" 2>&1 &
MASTER=$!
rc=0
on $H3 timeout 60 dls-slave --run mh --retries 1 $NSO >"$T/mh-refused.log" 2>&1 || rc=$?
expect_eq "a slave advertising an unreachable address is refused" "$rc" 1
grep -q "cannot be reached at the address its reference advertises, giop:tcp:10.99.0.3:" \
	"$T/mh-refused.log"
grep -q "start it with --listen ADDR" "$T/mh-refused.log"
grep -q "refused register_slave: 'slave' cannot be reached .*10.99.0.3" "$T/mh-master.log"
on $H3 timeout 60 dls-slave --run mh --listen 10.77.0.3 $NSO >"$T/mh-slave.log" 2>&1
wait $MASTER
same_image "$T/mh.pgm" "$REF"
echo "multi-homed host: refused naming 10.99.0.3, exact with --listen"

# a link cut mid-run, while every slave computes (T_ideal 7 s): h3's port
# on the switch goes down once h3 is seen holding work, 1.5 s in or later,
# and up 3 s after.  cut_link NAME OPTIONS...
cut_link() {
	local name=$1 runpid cut_at lost at id who back seen=no
	shift
	"${RUN[@]}" --t-iter 20000 --ping-timeout-ms 1000 --raw "$T/$name.pgm" --dir "$T/$name" \
		--run "$name" "$@" >"$T/$name.log" 2>&1 &
	runpid=$!
	# cut once h3's hmaster or slaves hold work (dls status), not at a fixed
	# time: a slow start (under ASan) may not have registered by then, and
	# a cut-off child that holds nothing is never pinged, so never lost;
	# asked until the run ends (on a saturated host one dls status may take
	# seconds)
	sleep 1.5
	while kill -0 "$runpid" 2>/dev/null; do
		if [ -f "$T/$name/names.address" ] && on $H1 dls status --run "$name" \
			-ORBInitRef NameService="$(cat "$T/$name/names.address")" 2>/dev/null |
			awk '$1 ~ /^(hmaster\.0\.2|slave\.[567])/ && $NF ~ /^[0-9]+$/ && $NF > 0 { f = 1 }
			     END { exit !f }'; then
			seen=yes
			break
		fi
		sleep 0.1
	done
	ip -n $SW link set p3 down
	cut_at=$(date +%s.%N)
	sleep 3
	ip -n $SW link set p3 up
	wait $runpid
	same_image "$T/$name.pgm" "$REF"
	lost=$(grep -h " lost (" "$T/$name/master.log" | grep -v "no answer to stop" | head -1)
	[ -n "$lost" ] || {
		echo "FAILED: $name: nothing declared lost after the cut (h3 seen holding work before it: $seen)" >&2
		exit 1
	}
	at=$(date -d "$(echo "$lost" | cut -d' ' -f1)" +%s.%N)
	echo "$name: link cut: '${lost#* warn: }' $(awk "BEGIN { printf \"%.2f\", $at - $cut_at }") s" \
		"after the cut (--ping-timeout-ms 1000)"
	id=$(echo "$lost" | sed -n 's/.*slave \([0-9]*\) .*/\1/p')
	who=$(echo "$lost" | sed -n "s/.*slave $id '\([^']*\)'.*/\1/p")
	case $who in
	slave.[567]@$H3 | hmaster.0.2) ;; # the table names each slave's host
	*) echo "FAILED: $name: $who, not on the cut-off host, was declared lost" >&2; exit 1 ;;
	esac
	if [ "$name" != cut-trees ]; then # a master takes a child back, the coordinator does not
		# (one of h3's: a slave in the middle of a long chunk calls again
		# only at its end, which may come after the run's)
		back=$(grep -oE "slave [0-9]+ '(slave\.[567]@$H3|hmaster\.0\.2)' called again after it was declared lost: taken back" \
			"$T/$name/master.log" | head -1)
		if [ -z "$back" ]; then
			echo "FAILED: $name: no cut-off child of h3 was taken back when it came back" >&2
			exit 1
		fi
		echo "$name: the cut-off $(echo "$back" | cut -d"'" -f2) came back and was taken back"
		return
	fi
	if ! grep -q "slave $id was declared lost" "$T/$name/${who%@*}.log"; then
		# a tree slave that held nothing undelivered when it was cut off
		# has no call left to make to the coordinator: nothing to refuse
		case $lost in
		*": 0 undelivered iterations go to"*)
			echo "$name: the cut-off $who held nothing and had nothing more to say"
			return ;;
		esac
		echo "FAILED: $name: the cut-off $who did not say it was refused" >&2
		exit 1
	fi
	echo "$name: the cut-off $who came back, was refused and said so"
}
cut_link cut-flat
# interleaved: in the natural order DTSS may give h3's hmaster (V 6, the
# fastest) the cheap first columns, all done within a second, and nothing
# after (every column is assigned by then): it would never hold work again
cut_link cut-hmaster --hmasters per-host --order interleaved
cut_link cut-trees --scheme trees
