#!/usr/bin/env bash
# bench-idle.sh BEFORE_BIN AFTER_BIN N - a master of two emulated slaves
# (400x200, GSS, t_iter 400 ns) under N idle connections held on its port by
# a stranger, for two builds one after the other: the master's threads,
# resident memory and descriptors once the connections are held, T_p, and
# whether the image is exact.  N 0 is the unloaded run.  The holder needs N
# descriptors and the master N + 20: the hard limit must allow them.
#
#   scripts/bench-idle.sh /tmp/before build/bin 19000
set -eu
[ $# -eq 3 ] || { echo "usage: bench-idle.sh BEFORE_BIN AFTER_BIN N" >&2; exit 2; }
N=$3
T=$(mktemp -d /tmp/dls-idle-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$2/dls" mandel --width 400 --height 200 --raw "$T/ref.pgm" >/dev/null
for side in before after; do
	bin=$(cd "$1" && pwd)
	[ $side = after ] && bin=$(cd "$2" && pwd)
	ns=$("$bin/dls" names start --dir "$T/ns")
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$bin/dls-master" --run idle --slaves 2 --width 400 --height 200 --scheme gss \
		--register-timeout-ms 90000 --raw "$T/idle.pgm" --json "$T/idle.json" \
		-ORBInitRef "NameService=$ns" -ORBendPoint "giop:tcp:127.0.0.1:$port" \
		>"$T/master.log" 2>&1 &
	master=$!
	for _ in $(seq 100); do
		nameclt -ORBInitRef "NameService=$ns" list DLS/idle 2>/dev/null | grep -qx master && break
		sleep 0.1
	done
	holder=
	if [ "$N" -gt 0 ]; then
		python3 - "$port" "$N" >"$T/holder.log" 2>&1 <<-'PY' &
		import resource, socket, sys, time
		hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
		resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
		socks = []
		for _ in range(int(sys.argv[2])):
		    try:
		        socks.append(socket.create_connection(("127.0.0.1", int(sys.argv[1]))))
		    except OSError as e:
		        print("stopped:", e, flush=True)
		        break
		print("holding", len(socks), flush=True)
		time.sleep(600)
		PY
		holder=$!
		for _ in $(seq 1800); do grep -q "^holding" "$T/holder.log" && break; sleep 0.1; done
		sleep 1 # the master accepts them
	fi
	held=$(sed -n 's/^holding //p' "$T/holder.log" 2>/dev/null || echo 0)
	st=/proc/$master/status
	line="$side: ${held:-0} idle connections held; the master: $(awk '/^Threads:/ {print $2}' $st) threads, $(awk '/^VmRSS:/ {print int($2 / 1024)}' $st) MB, $(ls /proc/$master/fd | wc -l) descriptors"
	for i in 0 1; do
		"$bin/dls-slave" --run idle --name "s$i" --t-iter 400 -ORBInitRef "NameService=$ns" \
			>"$T/s$i.log" 2>&1 &
	done
	wait "$master"
	[ -n "$holder" ] && kill "$holder" && wait "$holder" 2>/dev/null || true
	wait
	"$bin/dls" names stop --dir "$T/ns" >/dev/null 2>&1 || true
	cmp -s "$T/idle.pgm" "$T/ref.pgm" && exact=exact || exact=DIFFERS
	echo "$line; T_p $(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["t_p"], 3))' "$T/idle.json") s, image $exact"
done
