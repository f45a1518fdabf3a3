#!/usr/bin/env bash
# Every scheme on the emulated reference clusters, both iteration orders:
# T_p, T_ideal and E = T_ideal / T_p of one run each (WORKLOAD.md 2-3), as a
# Markdown table.  Usage: scripts/bench-schemes.sh [WIDTH HEIGHT [CLUSTERS...]]
# Example: scripts/bench-schemes.sh 4000 2000 C8 C8-nd  (about 8 minutes)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dls=$here/build/bin/dls
W=${1:-4000} H=${2:-2000}
shift 2 2>/dev/null || true
clusters=${*:-C8 C8-nd}
schemes="ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss"
out=$(mktemp -d /tmp/dls-bench-XXXXXX)
trap 'rm -rf "$out"' EXIT
for c in $clusters; do
	for order in natural interleaved; do
		for s in $schemes; do
			"$dls" run --cluster "$c" --scheme "$s" --order "$order" --width "$W" \
				--height "$H" --json "$out/$c-$order-$s.json" >/dev/null 2>&1 ||
				echo "run failed: $c $order $s" >&2
		done
	done
done
python3 - "$out" "$clusters" "$schemes" <<'PY'
import json, os, sys
out, clusters, schemes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
for c in clusters:
    print(f"\n{c}: E = T_ideal / T_p (T_p in s; chunks; mean emulation error per chunk in us)\n")
    print("| scheme | natural E | T_p | chunks | interleaved E | T_p | chunks | error/chunk (us) |")
    print("|---|---|---|---|---|---|---|---|")
    for s in schemes:
        row = [s]
        osh = []
        for order in ("natural", "interleaved"):
            p = os.path.join(out, f"{c}-{order}-{s}.json")
            if not os.path.exists(p):
                row += ["failed", "", ""]
                continue
            r = json.load(open(p))
            ch = sum(x["chunks"] for x in r["pes"])
            osh.append(sum(x["emul_error"] for x in r["pes"]) / max(ch, 1) * 1e6)
            row += [f"{r['efficiency']:.3f}", f"{r['t_p']:.3f}", str(ch)]
        row.append(" / ".join(f"{o:.0f}" for o in osh))
        print("| " + " | ".join(row) + " |")
    print(f"\nT_ideal = {r['t_ideal']:.3f} s, work {r['work']} unit iterations")
PY
