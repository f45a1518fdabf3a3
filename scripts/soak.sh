#!/usr/bin/env bash
# soak.sh [RUNS] [SEED] - whole runs of `dls run` in random configurations,
# each checked against `dls reference` byte for byte (make soak).
#
# Every run draws, from SEED, a workload and its size, a cluster, a family
# (a flat scheme, HDTSS under two-level or relay hmasters, Tree Scheduling,
# or a balancing policy), an order, a collection, asking ahead or not, the
# end game's take-back or not (flat), a
# link latency, emulated or real slaves, TLS or not, slaves embedded in a
# program of their own (examples/embed_slave, when built), a journal or
# not, and, in half the runs, a failure drill (`--kill` of a slave, the
# master, an hmaster or the coordinator at a random moment; in a quarter of
# those, another slave's too; in an eighth of the others, a slave killed at
# 10 ms, one that never starts).  A
# run passes when `dls run` exits 0 and its --out file equals the reference;
# a run that does not end within its limit is a hang.  Failing runs keep
# their folder (logs, the command) under SOAK_DIR/fail-SEED-N; the summary says
# how many passed, failed and hung, and how to replay one run:
# `scripts/soak.sh 1 SEED:N` runs exactly run N of SEED's sequence.
#
# Environment: DLS_BIN_DIR (build/bin), DLS_EXAMPLES_DIR (build/examples),
# SOAK_DIR (build/soak), SOAK_LIMIT (seconds a run may take, 240).
set -u
RUNS=${1:-40}
SEED=${2:-$(date +%s)}
ONLY=
case $SEED in
*:*) ONLY=${SEED#*:} SEED=${SEED%%:*} ;;
esac
BIN=$(cd "${DLS_BIN_DIR:-build/bin}" && pwd)
OUT=${SOAK_DIR:-build/soak}
LIMIT=${SOAK_LIMIT:-240}
EMBED=${DLS_EXAMPLES_DIR:-build/examples}/embed_slave
if [ -x "$EMBED" ]; then # built against the install in build/prefix (its rpath finds libdls)
	EMBED=$(cd "$(dirname "$EMBED")" && pwd)/embed_slave
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/dls-soak-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# pick WORD... : sets P to one of them, drawn from the run's sequence (no
# command substitution: bash reseeds RANDOM in every subshell).
pick() {
	local a=("$@")
	P=${a[RANDOM % ${#a[@]}]}
}

# The arguments of run number $1 of SEED's sequence, one a line: the same
# number always gives the same run (each run reseeds from SEED and N).
draw() {
	RANDOM=$((SEED * 7919 + $1))
	local fam scheme real=0 tls=0 who=none args=()
	[ $((RANDOM % 8)) = 0 ] && real=1 args+=(--real)
	[ $((RANDOM % 8)) = 0 ] && tls=1 args+=(--tls)
	pick mandelbrot mandelbrot pendulum
	if [ "$P" = mandelbrot ]; then
		pick 200 400 800
		args+=(--width "$P" --height $((P / 2)))
		# about 1.5 s of emulated work on C8, whatever the size
		[ $real = 1 ] || args+=(--t-iter $((8000000 / (P * P / 2) * 50)))
	else
		pick 150 300
		args+=(--workload pendulum --param "count=$P")
		[ $real = 1 ] || args+=(--t-iter $((240000 / P)))
	fi
	pick flat flat flat hdtss trees pile
	fam=$P
	case $fam in
	flat)
		pick C8 C8-nd C8-var C8-mis p3 p5
		args+=(--cluster "$P")
		pick ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss static fsc mfsc awf-b \
			awf-c awf-d awf-e af auto
		args+=(--scheme "$P")
		pick piggyback end
		args+=(--collect "$P")
		pick on on off
		args+=(--overlap "$P")
		pick on on on off # the end game (PROTOCOL.md 17)
		args+=(--take-back "$P")
		# slaves embedded in a program of their own (examples/embed_slave.cc),
		# when make check built it
		[ $((RANDOM % 6)) = 0 ] && [ $tls = 0 ] && [ -x "$EMBED" ] &&
			args+=(--slave-program "$EMBED")
		;;
	hdtss)
		pick C8 C8-nd C8-var
		args+=(--cluster "$P")
		pick dtss dfss dfiss dtfss
		args+=(--scheme "$P")
		pick 2 2 3 2,2
		args+=(--hmasters "$P")
		pick twolevel relay
		args+=(--hmode "$P")
		pick piggyback end
		args+=(--collect "$P")
		;;
	trees)
		pick C8 C8-nd C8-var p5
		args+=(--cluster "$P" --scheme trees)
		pick half proportional ratio
		args+=(--gamma "$P")
		pick equal proportional round-robin
		args+=(--alloc "$P")
		pick 0 0.2
		args+=(--report-interval "$P")
		[ $((RANDOM % 2)) = 0 ] && args+=(--bidirectional)
		;;
	pile)
		pick C8 C8-nd C8-var
		args+=(--cluster "$P")
		pick workpile roc ripple
		scheme=$P
		args+=(--scheme "$scheme")
		pick 0 0.2
		args+=(--report-interval "$P")
		if [ "$scheme" = ripple ]; then
			pick line cube
			args+=(--topology "$P")
		fi
		;;
	esac
	pick natural interleaved
	args+=(--order "$P")
	if [ $((RANDOM % 4)) = 0 ]; then
		pick 100 500
		args+=(--link-latency-us "$P")
	fi
	if [ $((RANDOM % 2)) = 0 ]; then
		case $fam in
		flat) pick "slave.$((RANDOM % 3))" master ;;
		hdtss) pick "slave.$((RANDOM % 3))" master hmaster.0.0 hmaster.0.1 ;;
		*) pick "slave.$((RANDOM % 3))" coordinator ;;
		esac
		who=$P
		args+=(--kill "$P@0.$((2 + RANDOM % 8))")
		# now and then another slave dies too
		pick slave.0 slave.1 slave.2
		[ $((RANDOM % 4)) = 0 ] && [ "$P" != "$who" ] &&
			args+=(--kill "$P@0.$((2 + RANDOM % 8))")
	fi
	case $who in
	master | coordinator) ;; # resumed from its journal
	*) [ $((RANDOM % 4)) = 0 ] && args+=(--no-journal) ;;
	esac
	# a slave that never starts (launched from a missing program), in one
	# run in eight of those without a drill: dls run withdraws it at every
	# parent that counts it (drawn last, so the draws above are those of
	# earlier sessions)
	if [ $((RANDOM % 8)) = 0 ] && [ "$who" = none ]; then
		pick slave.0 slave.1 slave.2
		args+=(--no-start "$P")
	fi
	printf '%s\n' "${args[@]}"
}

# The reference of the workload in the run's arguments, computed once.
reference() {
	local key ref wl=mandelbrot params=() w=400 h=200
	while [ $# -gt 0 ]; do
		case $1 in
		--workload) wl=$2 ;;
		--param) params+=(--param "$2") ;;
		--width) w=$2 ;;
		--height) h=$2 ;;
		esac
		shift
	done
	[ "$wl" = mandelbrot ] && params=(--param "width=$w" --param "height=$h")
	key=$(printf '%s' "$wl ${params[*]}" | tr -c 'a-z0-9' '_')
	ref=$WORK/ref-$key.npy
	[ -f "$ref" ] || "$BIN/dls" reference --workload "$wl" "${params[@]}" --out "$ref" >/dev/null ||
		return 1
	echo "$ref"
}

pass=0 fail=0 hung=0 t0=$(date +%s)
first=1 last=$RUNS
[ -n "$ONLY" ] && first=$ONLY last=$ONLY
for n in $(seq "$first" "$last"); do
	mapfile -t args < <(draw "$n")
	ref=$(reference "${args[@]}") || { echo "soak: cannot compute the reference" >&2; exit 1; }
	dir=$WORK/run-$n
	rm -rf "$dir"
	mkdir -p "$dir"
	start=$(date +%s%N)
	timeout -k 10 "$LIMIT" "$BIN/dls" run "${args[@]}" --dir "$dir/logs" --out "$dir/out.npy" \
		--no-progress --timeout $((LIMIT - 20)) >"$dir/run.out" 2>&1
	rc=$?
	took=$((($(date +%s%N) - start) / 100000000))
	took=$((took / 10)).$((took % 10))
	verdict=ok
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		verdict=HUNG
	elif [ $rc != 0 ]; then
		verdict="FAILED (exit $rc)"
	elif ! cmp -s "$ref" "$dir/out.npy"; then
		verdict="FAILED (results differ from the reference)"
	fi
	printf 'soak %s:%d  %-44s %5ss  %s\n' "$SEED" "$n" "$verdict" "$took" "${args[*]}"
	case $verdict in
	ok) pass=$((pass + 1)) ;;
	HUNG) hung=$((hung + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
	if [ "$verdict" != ok ]; then
		keep=$OUT/fail-$SEED-$n
		rm -rf "$keep"
		cp -r "$dir" "$keep"
		printf '%s\n' "${args[*]}" >"$keep/args.txt"
		tail -5 "$dir/run.out" | sed 's/^/    /'
	fi
	rm -rf "$dir"
done
kept=
[ $((fail + hung)) = 0 ] || kept=" (kept in $OUT/fail-$SEED-N; replay: scripts/soak.sh 1 $SEED:N)"
echo "soak: seed $SEED, $((last - first + 1)) runs in $(($(date +%s) - t0)) s: $pass passed," \
	"$fail failed, $hung hung$kept"
[ $fail = 0 ] && [ $hung = 0 ]
