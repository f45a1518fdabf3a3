#!/usr/bin/env bash
# End-of-run collection (Chronopoulos et al. 2002 section 5's alternative) gives the same
# image; so does piggy-backing with results larger than one message.
set -eu
. "$(dirname "$0")/lib.sh"

REF=$(reference 300 150)
for scheme in dtss ss; do
	dls run --speeds 1,1,2,2 --scheme $scheme --collect end --width 300 --height 150 \
		--t-iter 300 --raw "$T/end-$scheme.pgm" --json "$T/end-$scheme.json" >"$T/end.log" 2>&1
	same_image "$T/end-$scheme.pgm" "$REF"
	expect_eq "collect mode" "$(json_get "$T/end-$scheme.json" collect)" "end"
done
# 700 rows of 2 bytes: a 1 MiB message holds 749 columns, DTSS's first chunk
# on 2 slaves is 1500 -> results travel in several blocks
REF=$(reference 3000 700 64)
dls run --speeds 1,1 --scheme dtss --width 3000 --height 700 --maxit 64 --t-iter 1 \
	--raw "$T/big.pgm" >"$T/big.log" 2>&1
same_image "$T/big.pgm" "$REF"
