#!/usr/bin/env bash
# `dls simulate`: the zero-overhead limit of a scheme, and bad input refused.
set -eu
. "$(dirname "$0")/lib.sh"

out=$(dls simulate --speeds 1,1,1,1 --scheme ss --width 200 --height 100 --json "$T/s.json")
echo "$out" | grep -qE "^T_p .* E (0\.9|1\.0)"
expect_eq "chunks" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chunks"])' "$T/s.json")" 200
# C8's ideal time for 4000x2000 is 3.537 s (WORKLOAD.md 3)
dls simulate --cluster C8 --scheme gss --order interleaved --width 4000 --height 2000 | grep -q "T_ideal 3.537 s"
dls simulate --pes 1000 --nd --scheme dtss --width 4000 --height 100 --overhead-us 20 | grep -q "1000 slaves"
expect_usage_error "^dls simulate: --pes '0': must be an integer" dls simulate --pes 0
expect_usage_error "^dls simulate: --link-latency-us 'x': must be a number" dls simulate --cluster C8 --link-latency-us x
