#!/usr/bin/env bash
# `dls chunks` reproduces every number of docs/schemes.md from the command line,
# and refuses bad input with one line and exit 2.
set -eu
. "$(dirname "$0")/lib.sh"

c() { dls chunks "$@"; }

# Chronopoulos et al. 2002 Table 1 (function view, table profile)
expect_eq "TSS table1" "$(c --scheme TSS --iterations 1000 --pes 4 --function)" \
	"125 117 109 101 93 85 77 69 61 53 45 37 29 21 13 5"
expect_eq "FSS table1" "$(c --scheme fss --iterations 1000 --pes 4 --function)" \
	"$(expand '125x4 62x4 32x4 16x4 8x4 4x4 2x4 1x4')"
expect_eq "FISS table1" "$(c --scheme fiss --iterations 1000 --pes 4 --function --sigma 3 --fiss-x 5)" \
	"$(expand '50x4 83x4 117x4')"
expect_eq "TFSS table1" "$(c --scheme tfss --iterations 1000 --pes 4 --function)" \
	"$(expand '113x4 81x4 49x4 17x4')"
# realized schedules and the text profile
expect_eq "TSS realized" "$(c --scheme tss --iterations 1000 --pes 4)" \
	"125 117 109 101 93 85 77 69 61 53 45 37 28"
expect_eq "TFSS realized" "$(c --scheme tfss --iterations 1000 --pes 4)" \
	"$(expand '113x4 81x4 49x4 17 11')"
expect_eq "FSS text" "$(c --scheme fss --iterations 1000 --pes 4 --profile text)" \
	"$(expand '125x4 63x4 31x4 16x4 8x4 4x4 2x4 1x4')"
expect_eq "FISS text fn" "$(c --scheme fiss --iterations 1000 --pes 4 --profile text --function)" \
	"$(expand '50x4 84x4 118x4')"
expect_eq "FISS text" "$(c --scheme fiss --iterations 1000 --pes 4 --profile text)" \
	"$(expand '50x4 84x4 118x3 110')"
expect_eq "GSS(10)" "$(c --scheme gss --iterations 1000 --pes 4 --chunk 10)" \
	"250 188 141 106 79 59 45 33 25 19 14 11 10 10 10"
expect_eq "CSS(120)" "$(c --scheme css --iterations 1000 --pes 4 --chunk 120)" "$(expand '120x8 40')"
expect_eq "CSS default K" "$(c --scheme css --iterations 10 --pes 4)" "3 3 3 1"
# distributed schemes (docs/schemes.md 4.3-4.7)
expect_eq "DTSS" "$(c --scheme dtss --iterations 1000 --acp 1,1,2,2)" \
	"(2,163) (3,151) (0,71) (1,68) (2,127) (3,115) (0,53) (1,50) (2,91) (3,79) (0,32)"
expect_eq "ACPSA" "$(c --scheme dtss --iterations 1000 --acp 1,1,1,1 --requests 0:1,1:1,2:2,3:2,0:2 | cut -d' ' -f1-5)" \
	"(0,125) (1,117) (2,210) (3,178) (0,52)"
expect_eq "DFSS" "$(c --scheme dfss --iterations 1000 --acp 1,1,2,2 | cut -d' ' -f1-16)" \
	"(2,166) (3,166) (0,83) (1,83) (2,84) (3,84) (0,42) (1,42) (2,42) (3,42) (0,21) (1,21) (2,20) (3,20) (0,10) (1,10)"
expect_eq "DFSS straddle" "$(c --scheme dfss --iterations 1000 --acp 1,1,2,2 --order 0,0,2,3,1 | cut -d' ' -f9)" "(3,63)"
expect_eq "DFISS" "$(c --scheme dfiss --iterations 1000 --acp 1,1,2,2 --sigma 3 --fiss-x 5)" \
	"(2,66) (3,66) (0,33) (1,33) (2,112) (3,112) (0,56) (1,56) (2,156) (3,156) (0,78) (1,76)"
expect_eq "DTFSS" "$(c --scheme dtfss --iterations 1000 --acp 1,1,2,2)" \
	"(2,152) (3,152) (0,76) (1,76) (2,116) (3,116) (0,58) (1,58) (2,80) (3,80) (0,36)"
expect_eq "rr order" "$(c --scheme dtss --iterations 1000 --acp 1,1,2,2 --order rr | cut -d' ' -f1-2)" \
	"(0,83) (1,80)"
# the tree plan: Example 4.2 and Fig. 4
expect_eq "tree 4.2" "$(c --tree --tau 1,2,3,4)" "tree ((0,3),(1,2))
chain 0 3 1 2
links 0-3:1 3-1:2 1-2:1"
expect_eq "fig4 levels" "$(c --tree --tau 1,2,3,4,5,6,7,8 | sed -n 3p | tr ' ' '\n' | cut -d: -f2 | tail -n +2 | tr '\n' ' ')" \
	"1 2 1 3 1 2 1 "
expect_eq "alloc" "$(c --tree --tau 1,2,3,4 --iterations 10 --alloc equal | sed -n 4p)" \
	"alloc (0,0,2) (3,2,2) (1,4,3) (2,7,3)"

# bad input: one line naming the option, the value and the cause; exit 2
expect_usage_error "^dls chunks: --scheme 'foo': unknown scheme" c --scheme foo --iterations 10 --pes 2
expect_usage_error "^dls chunks: --iterations 'abc': must be an integer" c --scheme ss --iterations abc --pes 2
expect_usage_error "^dls chunks: --iterations '-5': must be an integer" c --scheme ss --iterations -5 --pes 2
expect_usage_error "^dls chunks: --pes '0': must be an integer" c --scheme ss --iterations 10 --pes 0
expect_usage_error "^dls chunks: --acp '1,1,2': the list must have one value per PE" c --scheme dtss --iterations 10 --pes 4 --acp 1,1,2
expect_usage_error "^dls chunks: --acp '1,x': must be" c --scheme dtss --iterations 10 --acp 1,x
expect_usage_error "^dls chunks: --chunk '0': must be an integer" c --scheme css --iterations 10 --pes 2 --chunk 0
expect_usage_error "^dls chunks: --profile 'fast': must be table or text" c --scheme fss --iterations 10 --pes 2 --profile fast
expect_usage_error "^dls chunks: --tau '1,0': must be a number" c --tree --tau 1,0
expect_usage_error "^dls mandel: --width '-3': must be an integer" dls mandel --width -3 --height 2
expect_usage_error "^dls: unknown command 'frobnicate'" dls frobnicate
# the fixed-size techniques (tests/unit/test_sched_adapt.c works them out):
# STATIC ceil(I/p); mFSC ceil(I / FAC's 32 chunks); FSC from h and sd
expect_eq "static" "$(c --scheme static --iterations 1000 --pes 4)" "250 250 250 250"
expect_eq "mfsc" "$(c --scheme mfsc --iterations 1000 --pes 4 | tr ' ' '\n' | sort -u | tr '\n' ' ')" "32 8 "
expect_eq "fsc" "$(c --scheme fsc --iterations 1000 --pes 4 --fsc-overhead 2 --sd 0.5)" "113 113 113 113 113 113 113 113 96"
expect_eq "fsc h = sd" "$(c --scheme fsc --iterations 100 --pes 4)" "$(c --scheme fsc --iterations 100 --pes 4 --fsc-overhead 3 --sd 3)"
# an adaptive one with nothing measured is factoring, and says so
expect_eq "af unmeasured" "$(c --scheme af --iterations 100 --pes 4 2>"$T/af.err")" \
	"13 11 10 9 8 7 6 5 4 4 3 3 3 2 2 2 1 1 1 1 1 1 1 1"
grep -q "^dls chunks: af learns from measured chunk times" "$T/af.err"
# awf's first time step is WF's on the given weights, and says so
expect_eq "awf's first step" "$(c --scheme awf --iterations 1200 --acp 3,1 2>"$T/awf.err")" \
	"$(c --scheme wf --iterations 1200 --acp 3,1)"
expect_eq "awf's first chunks" "$(c --scheme awf --iterations 1200 --acp 3,1 2>/dev/null | cut -d' ' -f1-2)" \
	"(0,450) (1,150)"
grep -q "^dls chunks: awf's first time step" "$T/awf.err"
expect_usage_error "^dls chunks: --fsc-overhead: fsc needs both --fsc-overhead and --sd" c --scheme fsc --iterations 10 --pes 2 --fsc-overhead 1
expect_usage_error "^dls chunks: --sd '0': fsc needs an iteration-time sd above 0" c --scheme fsc --iterations 10 --pes 2 --fsc-overhead 1 --sd 0
expect_usage_error "^dls chunks: --fsc-overhead: applies to fsc only" c --scheme gss --iterations 10 --pes 2 --fsc-overhead 1
expect_usage_error "^dls chunks: --function: applies to the simple, non-adaptive" c --scheme awf-b --iterations 10 --pes 2 --function
# every A_i = 0 is a runtime refusal, not a hang
out=$(c --scheme dtss --iterations 10 --acp 0,0 2>&1) && exit 1 || true
echo "$out" | grep -q "every A_i is 0"
# --help on every sub-command, to stdout, exit 0
dls --help | grep -q chunks
dls chunks --help | grep -q -- --scheme
dls mandel --help | grep -q -- --sums
# the sequential kernel's totals
expect_eq "mandel 200x100" "$(dls mandel --width 200 --height 100 --sums | head -1)" "total 1060194"
expect_eq "mandel 123x77" "$(dls mandel --width 123 --height 77 --maxit 1000 --sums | head -1)" "total 1849188"
# dls compare says which file it could not read, and why
dls mandel --width 20 --height 10 --raw "$T/a.pgm" >/dev/null
echo "P5 3" >"$T/cut.pgm"
rc=0
dls compare "$T/none.pgm" "$T/a.pgm" 2>"$T/cmp.err" || rc=$?
expect_eq "compare, a file that is not there" "$rc" 2
grep -q "^dls compare: cannot read '$T/none.pgm': No such file or directory" "$T/cmp.err"
rc=0
dls compare "$T/a.pgm" "$T/cut.pgm" 2>"$T/cmp.err" || rc=$?
expect_eq "compare, not a PGM" "$rc" 2
grep -q "^dls compare: cannot read '$T/cut.pgm': not a 16-bit PGM (P5, maxval 65535), or cut short" "$T/cmp.err"
echo ok
