#!/usr/bin/env bash
# `dls run --tls`: every servant listens on TLS only, with a certificate
# authority made for the run (dls tls init's layout: RUNDIR/tls/HOST, an
# encrypted key and its password), and the image is still exact.  Its object
# references offer only an SSL profile; a client without TLS, or with a
# certificate of another CA, cannot reach the master; one with the run's
# folder can.
set -eu
. "$(dirname "$0")/lib.sh"

# the run's naming service address, from its omniNames command line
wait_for_names() {
	local addr=""
	for _ in $(seq 100); do
		addr=$(pgrep -af -- "-datadir $T/logs/names" | grep -o -- '-start [0-9]*' | cut -d' ' -f2)
		[ -n "$addr" ] && { echo "corbaname::127.0.0.1:$addr"; return; }
		sleep 0.1
	done
	echo "FAILED: no naming service for the run" >&2
	exit 1
}

REF=$(reference 300 150)
dls run --speeds 1,2 --width 300 --height 150 --tls --raw "$T/tls.pgm" --dir "$T/quick" \
	>"$T/quick.log" 2>&1
same_image "$T/tls.pgm" "$REF"

# a stranger's CA and certificate, made before the run whose queries
# follow: the run (8.5 s) must outlast them, also on a loaded host
dls tls init --dir "$T/other" >/dev/null
run=tls-$$
dls run --speeds 1,2 --width 800 --height 200 --t-iter 3000 --tls --run $run --dir "$T/logs" \
	--raw "$T/long.pgm" >"$T/long.log" 2>&1 &
RUN=$!
NS="-ORBInitRef NameService=$(wait_for_names)"
wait_for sh -c "nameclt $NS resolve DLS/$run/master"
ior=$(nameclt $NS resolve DLS/$run/master | tail -1)
catior "$ior" >"$T/catior.txt"
grep -q "TAG_SSL_SEC_TRANS" "$T/catior.txt"
rc=0
dls status --run $run $NS >"$T/plain.txt" 2>&1 || rc=$?
expect_eq "plain client refused" "$rc" 1
grep -q "CORBA::TRANSIENT" "$T/plain.txt"
# a stranger with a CA and certificate of its own
rc=0
dls status --run $run $NS --tls-dir "$T/other/localhost" >"$T/stranger.txt" 2>&1 || rc=$?
expect_eq "another CA's certificate refused" "$rc" 1
[ "$(stat -c %a "$T/logs/tls/localhost/node.password")" = 600 ]
grep -q "ENCRYPTED PRIVATE KEY" "$T/logs/tls/localhost/node.pem"
dls status --run $run $NS --tls-dir "$T/logs/tls/localhost" | grep -q "^run '$run': scheme dtss"
wait $RUN
same_image "$T/long.pgm" "$(reference 800 200)"

# a TLS folder that is not one: a usage error naming the file and the cause
expect_usage_error "^dls-slave: --tls-dir '$T/none': '$T/none/ca.pem': No such file or directory" \
	dls-slave --tls-dir "$T/none"
chmod 644 "$T/logs/tls/localhost/node.password"
expect_usage_error "^dls-master: --tls-dir '$T/logs/tls/localhost': .*node.password.*" \
	dls-master --slaves 1 --tls-dir "$T/logs/tls/localhost"
echo "ok a bad --tls-dir is a usage error"
