#!/usr/bin/env bash
# The command-line conventions every program follows: --version (and `dls
# version`) gives the version dls.pc has; `dls help CMD` is `dls CMD --help`;
# help texts fit 80 columns and cite no file a clone lacks; an option a
# program cannot take gets one line (the nearest option for a typo, the new
# name of a renamed one, the candidates of an ambiguous abbreviation, a
# missing or unwanted value); options that contradict each other are refused
# before anything starts; and several --kill drills each fire at their own
# time.
set -eu
. "$(dirname "$0")/lib.sh"

SERVERS="dls-master dls-slave dls-hmaster dls-treesched"
COMMANDS="chunks mandel reference run simulate names tls status withdraw load bench orbping
ingest compare plot"

# the version: one, the Makefile's, as dls.pc says it
want=$(sed -n 's/^Version: //p' "$DLS_PREFIX/lib/pkgconfig/dls.pc")
[ -n "$want" ] || fail "no Version in dls.pc"
expect_eq "dls --version" "$(dls --version)" "dls $want"
expect_eq "dls version" "$(dls version)" "dls $want"
expect_eq "dls run --version" "$(dls run --version)" "dls run $want"
for p in $SERVERS; do
	expect_eq "$p --version" "$("$p" --version)" "$p $want"
done

# help: dls help CMD, 80 columns, nothing a clone cannot follow
expect_eq "dls help run" "$(dls help run)" "$(dls run --help)"
for c in $COMMANDS; do
	dls "$c" --help >"$T/help-$c.txt"
done
for p in $SERVERS; do
	"$p" --help >"$T/help-$p.txt"
done
dls --help >"$T/help-dls.txt"
wide=$(awk 'length($0) > 80 { print FILENAME ": " $0 }' "$T"/help-*.txt)
[ -z "$wide" ] || fail "help lines wider than 80 columns: $wide"
cites=$(grep -H -E "seeds? 00[0-9]|SCHEMES\.md|WORKLOAD\.md|shared/" "$T"/help-*.txt || true)
[ -z "$cites" ] || fail "help texts cite what a clone does not hold: $cites"
grep -q "default dtss" "$T/help-run.txt" || fail "dls run --help does not say the default scheme"

# the manual pages make install put in the prefix, one per program and command
for p in dls $SERVERS $(printf 'dls-%s ' $COMMANDS); do
	f="$DLS_PREFIX/share/man/man1/$p.1"
	upper=$(echo "$p" | tr a-z A-Z)
	grep -q "^\.TH $upper \"1\" " "$f" || fail "no manual page $f"
done
grep -qF -- '\-\-cluster' "$DLS_PREFIX/share/man/man1/dls-run.1" || fail "dls-run.1 lacks the options"
# make uninstall removes every file make install put in a prefix (a copy of
# the one make check installed, so that nothing is built here)
repo=$(cd "$(dirname "$0")/../.." && pwd)
cp -a "$DLS_PREFIX" "$T/prefix"
make -s -C "$repo" uninstall PREFIX="$T/prefix" >"$T/uninstall.log" 2>&1 ||
	fail "make uninstall: $(tail -3 "$T/uninstall.log")"
left=$(find "$T/prefix" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"

# options a program cannot take: one line each, exit 2
expect_usage_error "^dls: unknown command 'rnu'; did you mean 'run'\?$" dls rnu
expect_usage_error "^dls run: --clustr: unknown option; did you mean --cluster\?$" \
	dls run --clustr C8
expect_usage_error "^dls-master: --slavs: unknown option; did you mean --slaves\?$" \
	dls-master --slavs 2
expect_usage_error "^dls run: --k: unknown option: it is called --chunk now$" \
	dls run --scheme css --k 3
expect_usage_error "^dls chunks: --X: unknown option: it is called --fiss-x now$" \
	dls chunks --scheme fiss --iterations 100 --pes 2 --X 5
expect_usage_error "^dls run: --h: ambiguous: it could be .*--help" dls run --h
expect_usage_error "^dls run: --cluster: requires a value$" dls run --cluster
expect_usage_error "^dls run: --verify '1.5': must be a number from 0 to 1$" \
	dls run --cluster C8 --verify 1.5
expect_usage_error "^dls run: --verify '0.1': Tree Scheduling and the balancing policies have no master to compare copies" \
	dls run --cluster C8 --scheme trees --verify 0.1
expect_usage_error "^dls-master: --verify '-1': must be a number from 0 to 1$" \
	dls-master --slaves 2 --verify -1
expect_usage_error "^dls run: -s: requires a value$" dls run -s
expect_usage_error "^dls run: --fac=1: takes no value$" dls run --fac=1
expect_usage_error "^dls-slave: -z: unknown option$" dls-slave -z

# contradictions, refused before anything starts
expect_usage_error "^dls run: --speeds '1,2': conflicts with --cluster C8: give one of them$" \
	dls run --cluster C8 --speeds 1,2
expect_usage_error "^dls simulate: --cluster 'C8': conflicts with --speeds 1,2" \
	dls simulate --speeds 1,2 --cluster C8
expect_usage_error "^dls run: --csv '.*same.out': the same file as --png: one would overwrite the other$" \
	dls run --png "$T/same.out" --csv "$T/same.out"
expect_usage_error "^dls run: --json '.*/x.png': the same file as --png" \
	dls run --png "$T/x.png" --json "$T/./x.png"
expect_usage_error "^dls run: --kill 'slave.1@0.5': that process is drilled already: one --kill each$" \
	dls run --kill slave.1@0.3 --kill slave.1@0.5
expect_usage_error "^dls run: --out '.*m.txt': the results are written as NumPy .npy: name the file FILE.npy$" \
	dls run --out "$T/m.txt"
expect_usage_error "^dls-master: --out 'm.txt': the results are written as NumPy .npy" \
	dls-master --slaves 1 --out m.txt
[ ! -e "$T/same.out" ] && [ ! -e "$T/x.png" ] && [ ! -e "$T/m.txt" ] || fail "a refused run wrote a file"

# watching a run: dls run says how, and dls status finds it by its folder,
# from inside it, or by its name; once it is over, status says so
run=watch-$$
dls run -c C8 --width 400 --height 200 --t-iter 8000 --run $run --no-progress >"$T/w.log" 2>&1 &
RUN=$!
wait_for grep -q "^dls run: run '$run' in /tmp/dls-run-.*; to watch it: dls status --dir " "$T/w.log"
dir=$(sed -n "s/^dls run: run '$run' in \(.*\); to watch it: dls status --dir .*$/\1/p" "$T/w.log")
wait_for sh -c "dls status --dir '$dir' | grep -q \"^run '$run': scheme dtss, \""
dls status --run $run >"$T/w-name.txt" 2>&1 || fail "dls status --run $run: $(cat "$T/w-name.txt")"
(cd "$dir" && dls status) >"$T/w-here.txt" 2>&1 || fail "dls status in $dir: $(cat "$T/w-here.txt")"
grep -q "^run '$run': " "$T/w-name.txt" && grep -q "^run '$run': " "$T/w-here.txt" ||
	fail "dls status did not find run $run"
wait $RUN
expect_usage_error "^dls status: --dir '$dir': no such folder \(dls run removes a run's folder" \
	dls status --dir "$dir"
rc=0
OMNIORB_CONFIG=/dev/null dls status --run $run >"$T/w-over.txt" 2>&1 || rc=$?
expect_eq "dls status of a run that is over" "$rc" 1
grep -q "^dls status: cannot query the master of run '$run': no naming service" "$T/w-over.txt" ||
	fail "dls status of a run that is over: $(cat "$T/w-over.txt")"
start_names
rc=0
dls status --run nothing-$$ $NS >"$T/w-none.txt" 2>&1 || rc=$?
expect_eq "dls status of a run that is not there" "$rc" 1
grep -qx "dls status: run 'nothing-$$' is not running: nothing is bound under DLS/nothing-$$ (it ended, or has not started)" \
	"$T/w-none.txt" || fail "dls status of no run: $(cat "$T/w-none.txt")"

# short options, and two drills, each at its own time; the image is exact
REF=$(reference 400 200)
dls run -c C8 -s gss --width 400 --height 200 --t-iter 3000 --kill slave.3@0.2 --kill slave.6@0.6 --raw "$T/k.pgm" \
	--dir "$T/k" --no-progress >"$T/k.log" 2>&1
at3=$(sed -n 's/^dls run: drill: kill -9 slave.3 (pid [0-9]*) at \([0-9.]*\) s$/\1/p' "$T/k.log")
at6=$(sed -n 's/^dls run: drill: kill -9 slave.6 (pid [0-9]*) at \([0-9.]*\) s$/\1/p' "$T/k.log")
[ -n "$at3" ] && [ -n "$at6" ] || fail "the drills did not both fire: $(cat "$T/k.log")"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(not (0.2 <= a < 0.6 <= b))" \
	"$at3" "$at6" || fail "drills at $at3 s and $at6 s, not at 0.2 s and 0.6 s"
same_image "$T/k.pgm" "$REF"
echo "PASS t_cli: versions, help, refusals, conflicts, drills at $at3 s and $at6 s"
