#!/usr/bin/env bash
# The picture of a run: the JSON's timeline holds every chunk (each loop
# index delivered by exactly one chunk that came in, a slave killed in the
# run leaving its chunk undelivered), and `dls plot --gantt` and `dls run
# --gantt` draw it as PNG and SVG; `--report` writes the HTML report, which
# a real browser (headless Chromium) loads and shows: the run's E, a row
# per PE, the chart; what they cannot draw is refused in one line.
set -eu
. "$(dirname "$0")/lib.sh"

W=400 H=200
REF=$(reference $W $H)
dls run -c C8 -s gss --t-iter 4000 --kill slave.2@start+0.5 --width $W --height $H \
	--json "$T/run.json" --raw "$T/run.pgm" --gantt "$T/run.png" --report "$T/run.html" \
	--no-progress >"$T/run.log" 2>&1
same_image "$T/run.pgm" "$REF"
grep -q "^dls run: drew the Gantt chart in $T/run.png$" "$T/run.log" ||
	fail "dls run --gantt: $(tail -3 "$T/run.log")"
python3 - "$T/run.json" $W <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
t = run["timeline"]
assert t, "an empty timeline"
covered = [0] * n
for c in t:
    assert c["given"] >= 0 and c["count"] > 0, c
    if c["delivered"] is not None:
        assert c["delivered"] >= c["given"] and c["delivered_iterations"] >= c["count"], c
        assert c["compute"] is not None and c["compute"] > 0, c  # emulated slaves report it
        for i in range(c["first"], c["first"] + c["count"]):
            covered[i] += 1
assert covered == [1] * n, [i for i, k in enumerate(covered) if k != 1][:10]
# only the killed slave's chunks may be lost (it may have held none then)
ids = {p["pe"]: p["name"] for p in run["pes"]}
lost = [c for c in t if c["delivered"] is None and not c["cut"]]
assert all(ids[c["pe"]] == "slave.2" for c in lost), lost
PY
# the pictures: PNG of the size the rows ask for, SVG
dls plot "$T/run.json" --gantt "$T/again.png" >"$T/plot.log"
dls plot "$T/run.json" --gantt "$T/again.svg" >>"$T/plot.log"
python3 - "$T/run.png" "$T/again.png" <<'PY'
import struct, sys
for path in sys.argv[1:]:
    head = open(path, "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    w, h = struct.unpack(">II", head[16:24])
    assert (w, h) == (1100, 130 + 26 * 8), (path, w, h)
PY
grep -q "<svg" "$T/again.svg" || fail "no SVG in $T/again.svg"
[ -z "$(ls "$T" | grep -E '\.(dat|gp|log)$' | grep -E 'again|run\.png')" ] ||
	fail "dls plot left its working files: $(ls "$T")"

# what cannot be drawn
echo '{"run": "x"}' >"$T/notime.json"
expect_usage_error "^dls plot: RUN.json '.*notime.json': no \"timeline\" in it" \
	dls plot "$T/notime.json" --gantt "$T/x.png"
expect_usage_error "^dls plot: --gantt '.*x.jpg': the picture's name must end in .png or .svg$" \
	dls plot "$T/run.json" --gantt "$T/x.jpg"
expect_usage_error "^dls plot: --gantt: or --report is required: what to draw$" dls plot "$T/run.json"
expect_usage_error "^dls run: --gantt 'x.gif': must name a .png or .svg file$" dls run --gantt x.gif
expect_usage_error "^dls run: --gantt '.*x.png': Tree Scheduling and the balancing policies keep no timeline" \
	dls run --scheme trees --gantt "$T/x.png"
echo "ok the timeline covers the loop once; PNG and SVG drawn"

# the HTML report, as a browser shows it: dls run's and dls plot's
grep -q "^dls run: wrote the report in $T/run.html$" "$T/run.log" ||
	fail "dls run --report: $(tail -3 "$T/run.log")"
dls plot "$T/run.json" --report "$T/again.html" >>"$T/plot.log"
command -v chromium >/dev/null || fail "chromium is not installed (make check installs it)"
for page in run again; do
	timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/chromium" --dump-dom "file://$T/$page.html" \
		>"$T/$page.dom" 2>"$T/chromium.log" || fail "chromium could not load $page.html"
	python3 - "$T/run.json" "$T/$page.dom" <<'PY' || fail "the report $page.html shows the wrong run"
import json, sys
from html.parser import HTMLParser
run = json.load(open(sys.argv[1]))
class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.at, self.rows, self.svg, self.shapes, self.tbody = {}, None, 0, 0, 0, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.at = a["id"]
            self.ids[self.at] = ""
            if tag == "table":
                self.tbody = a["id"]
        if tag == "tr" and self.tbody == "pes":
            self.rows += 1
        if tag == "svg":
            self.svg += 1
        if tag in ("path", "rect") and self.svg:
            self.shapes += 1
    def handle_endtag(self, tag):
        self.at = None
        if tag == "table":
            self.tbody = None
    def handle_data(self, data):
        if self.at:
            self.ids[self.at] += data
p = Page()
p.feed(open(sys.argv[2]).read())
assert p.ids["efficiency"].strip() == "%.3f" % run["efficiency"], p.ids["efficiency"]
assert p.ids["t_p"].strip() == "%.3f s" % run["t_p"], p.ids["t_p"]
assert p.rows == len(run["pes"]) + 1, p.rows            # the header and a row per PE
assert "gss" in p.ids["summary"], p.ids["summary"]
assert p.svg >= 1 and p.shapes >= len(run["timeline"]), (p.svg, p.shapes)
PY
done
expect_usage_error "^dls plot: --report '.*x.htm': the report's name must end in .html$" \
	dls plot "$T/run.json" --report "$T/x.htm"
expect_usage_error "^dls run: --report 'x.txt': must name a .html file$" dls run --report x.txt
expect_usage_error "^dls run: --report '.*same.html': the same file as --json" \
	dls run -c C8 --json "$T/same.html" --report "$T/same.html"
expect_usage_error "^dls run: --gantt '.*same.png': the same file as --png" \
	dls run -c C8 --png "$T/same.png" --gantt "$T/same.png"
echo "ok the HTML report, loaded in Chromium, shows the run's E, its PEs and its chart"
