#!/usr/bin/env bash
# Many hosts (issue 13), on three network namespaces the test makes as three
# hosts on one switch (10.77.0.1-3; the third also has an interface no one
# else reaches, 10.99.0.3, listed first: a multi-homed host):
#  - dls run --hostfile --launch 'ip netns exec {host}': exact image; with
#    --tls; with --hmasters per-host (one hmaster on each host);
#  - by hand, a slave on the multi-homed host without --listen is refused,
#    on both sides, naming the address it advertised; with --listen it works;
#  - a link cut mid-run: the cut-off slave holding work is found by the
#    pings, its work goes to others, the image is exact; when the link
#    comes back the slave is refused and says it was declared lost.
# Needs root (ip netns); without it the test says so and fails.
set -eu
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
	echo "t_hosts needs root and iproute2 (ip netns) to make its three hosts" >&2
	exit 1
fi
P=dls$$
H1=${P}h1 H2=${P}h2 H3=${P}h3 SW=${P}sw
netns_down() { for n in $H1 $H2 $H3 $SW; do ip netns del "$n" 2>/dev/null || true; done; }
CLEANUP_HOOK=netns_down
ip netns add $SW
ip -n $SW link set lo up
ip -n $SW link add br0 type bridge
ip -n $SW link set br0 up
for i in 1 2 3; do
	H=${P}h$i
	ip netns add "$H"
	ip -n "$H" link set lo up
	if [ $i = 3 ]; then # the unreachable interface first: omniORB's default pick
		ip -n "$H" link add x0 type veth peer name x1
		ip -n "$H" addr add 10.99.0.3/24 dev x0
		ip -n "$H" link set x1 up
		ip -n "$H" link set x0 up
	fi
	ip -n "$H" link add eth0 type veth peer name p$i netns $SW
	ip -n "$H" addr add 10.77.0.$i/24 dev eth0
	ip -n "$H" link set eth0 up
	ip -n $SW link set p$i master br0
	ip -n $SW link set p$i up
done
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
echo "hostfile runs: plain, --tls, --hmasters per-host exact"

# a bad hostfile, a template that cannot be split: clear errors
printf '%s\n' "$H1 slots=two" >"$T/bad"
expect_usage_error "bad:1: 'slots=two': must be an integer" dls run --hostfile "$T/bad" --cluster C8
expect_usage_error "8 slaves, but the hosts have 2 slots" \
	dls run --hostfile <(echo "$H1 slots=2") --cluster C8
expect_usage_error "--launch 'ssh \"{host}': cannot be split" \
	dls run --hostfile "$T/hosts" --cluster C8 --launch 'ssh "{host}'
expect_usage_error "--listen '10.99.0.3': not an address of this host" \
	dls-slave --listen 10.99.0.3 --run x

# dls run killed -9: the lifeline closes and every process it started, on
# every host, exits (the naming service under its guard too)
# (ip netns exec execs dls run: $! is dls run's PID)
ip netns exec "${RUN[@]:1}" --t-iter 20000 --run gone$$ --dir "$T/gone" >"$T/gone.log" 2>&1 &
RUNPID=$!
sleep 2 # registered and computing (T_ideal 7 s)
kill -9 $RUNPID
wait $RUNPID || true
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
	netns_down
}
CLEANUP_HOOK=stop_names1
NSO="-ORBInitRef NameService=$NSA"
on $H1 timeout 60 dls-master --run mh --slaves 1 --width 400 --height 200 --listen 10.77.0.1 \
	--raw "$T/mh.pgm" $NSO >"$T/mh-master.log" 2>&1 &
PIDS="$PIDS $!"
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

# a link cut mid-run, while every slave computes (T_ideal 3.5 s): h3's port
# on the switch goes down at 1.5 s, up at 4.5 s.  cut_link NAME OPTIONS...
cut_link() {
	local name=$1 runpid cut_at lost at id who
	shift
	"${RUN[@]}" --t-iter 10000 --ping-timeout-ms 1000 --raw "$T/$name.pgm" --dir "$T/$name" \
		"$@" >"$T/$name.log" 2>&1 &
	runpid=$!
	PIDS="$PIDS $runpid"
	sleep 1.5
	ip -n $SW link set p3 down
	cut_at=$(date +%s.%N)
	sleep 3
	ip -n $SW link set p3 up
	wait $runpid
	same_image "$T/$name.pgm" "$REF"
	lost=$(grep -h " lost (" "$T/$name/master.log" | grep -v "no answer to stop" | head -1)
	[ -n "$lost" ] || { echo "FAILED: $name: nothing declared lost after the cut" >&2; exit 1; }
	at=$(date -d "$(echo "$lost" | cut -d' ' -f1)" +%s.%N)
	echo "$name: link cut: '${lost#* warn: }' $(awk "BEGIN { printf \"%.2f\", $at - $cut_at }") s" \
		"after the cut (--ping-timeout-ms 1000)"
	id=$(echo "$lost" | sed -n 's/.*slave \([0-9]*\) .*/\1/p')
	who=$(echo "$lost" | sed -n "s/.*slave $id '\([^']*\)'.*/\1/p")
	case $who in
	slave.[567] | hmaster.0.2) ;;
	*) echo "FAILED: $name: $who, not on the cut-off host, was declared lost" >&2; exit 1 ;;
	esac
	grep -q "slave $id was declared lost" "$T/$name/$who.log"
	echo "$name: the cut-off $who came back, was refused and said so"
}
cut_link cut-flat
cut_link cut-hmaster --hmasters per-host
cut_link cut-trees --scheme trees
