#!/bin/sh
# netns-hosts.sh up|down PREFIX: three network namespaces PREFIXh1..h3 as
# three hosts on one switch (a fourth namespace, PREFIXsw, holding a bridge),
# at 10.77.0.1-3/24.  The third is multi-homed: it also has 10.99.0.3 on an
# interface no one else reaches, listed first (omniORB's default pick).
# Nothing outside the namespaces is touched.  Needs root (ip netns).
# Used by tests/integration/t_hosts.sh and scripts/bench-hosts.sh.
set -eu
P=$2
if [ "$1" = down ]; then
	for n in h1 h2 h3 sw; do ip netns del "$P$n" 2>/dev/null || true; done
	exit 0
fi
[ "$1" = up ] || { echo "usage: netns-hosts.sh up|down PREFIX" >&2; exit 2; }
ip netns add "${P}sw"
ip -n "${P}sw" link set lo up
ip -n "${P}sw" link add br0 type bridge
ip -n "${P}sw" link set br0 up
for i in 1 2 3; do
	H=$P"h"$i
	ip netns add "$H"
	ip -n "$H" link set lo up
	if [ $i = 3 ]; then
		ip -n "$H" link add x0 type veth peer name x1
		ip -n "$H" addr add 10.99.0.3/24 dev x0
		ip -n "$H" link set x1 up
		ip -n "$H" link set x0 up
	fi
	ip -n "$H" link add eth0 type veth peer name "p$i" netns "${P}sw"
	ip -n "$H" addr add "10.77.0.$i/24" dev eth0
	ip -n "$H" link set eth0 up
	ip -n "${P}sw" link set "p$i" master br0
	ip -n "${P}sw" link set "p$i" up
done
