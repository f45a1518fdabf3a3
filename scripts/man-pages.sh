#!/bin/sh
# man-pages.sh BIN_DIR OUT_DIR - the manual pages of dls, its commands
# (dls-run.1 for `dls run`, ...) and the four servers, made by help2man from
# each program's --help and --version: the help texts are their one source.
set -eu
BIN=$(cd "$1" && pwd)
OUT=$2
mkdir -p "$OUT/wrap"
page() { # page PROGRAM NAME SUMMARY
	help2man --no-info --section 1 --name "$3" --output "$OUT/$2.1" "$1" ||
		{ echo "man-pages: help2man failed on $2" >&2; exit 1; }
}
page "$BIN/dls" dls "distributed loop self-scheduling over CORBA: the command-line tool"
page "$BIN/dls-master" dls-master "the master of a DLS run"
page "$BIN/dls-slave" dls-slave "a slave of a DLS run"
page "$BIN/dls-hmaster" dls-hmaster "an hmaster: a group of slaves under one parent"
page "$BIN/dls-treesched" dls-treesched "Tree Scheduling's coordinator (and the balancing policies')"
# each command of dls, as git does it: dls-run(1) for `dls run`
"$BIN/dls" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1 \2/p' | while read -r cmd summary; do
	case $cmd in help | version) continue ;; esac
	# its --version names it dls-CMD, which help2man takes as the page's name
	printf '#!/bin/sh\n[ "$1" = --version ] && exec echo "dls-%s %s"\nexec "%s" %s "$@"\n' \
		"$cmd" "$("$BIN/dls" --version | cut -d' ' -f2)" "$BIN/dls" "$cmd" >"$OUT/wrap/dls-$cmd"
	chmod +x "$OUT/wrap/dls-$cmd"
	page "$OUT/wrap/dls-$cmd" "dls-$cmd" "$summary"
done
rm -rf "$OUT/wrap"
