#!/bin/sh
# options-doc.sh BIN_DIR - prints docs/options.md: every program's and
# every dls command's --help, whole, as the programs print them (the help
# texts are the one source; `make docs` writes the file and `make check`
# fails when the file differs from what the programs print).
set -eu
BIN=$(cd "$1" && pwd)
section() { # section TITLE COMMAND...
	title=$1
	shift
	printf '\n## %s\n\n```\n' "$title"
	"$@" --help 2>&1
	printf '```\n'
}
cat <<'HEAD'
# Every option of every program

The `--help` of each program and of each `dls` command, as they print it
(`make docs` regenerates this file from the programs; `make check` fails
when it is out of date). [reference.md](reference.md) explains them; the
manual pages (`man dls-run`, ...) hold the same text.
HEAD
section dls "$BIN/dls"
"$BIN/dls" --help | sed -n 's/^  \([a-z][a-z]*\)  *.*$/\1/p' | while read -r cmd; do
	case $cmd in help | version) continue ;; esac
	section "dls $cmd" "$BIN/dls" "$cmd"
done
for prog in dls-master dls-slave dls-hmaster dls-treesched; do
	section "$prog" "$BIN/$prog"
done
