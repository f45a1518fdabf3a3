# lib.sh - helpers sourced by the integration tests.
# expect_eq WHAT GOT WANT: fail with both values when they differ.
expect_eq() {
	if [ "$2" != "$3" ]; then
		printf 'FAILED %s\n  got:  %s\n  want: %s\n' "$1" "$2" "$3" >&2
		exit 1
	fi
}

# expect_usage_error PATTERN CMD...: CMD must exit 2 with one line matching
# PATTERN on stderr (program, option, value, cause).
expect_usage_error() {
	local pattern=$1 out rc
	shift
	out=$("$@" 2>&1 >/dev/null) && rc=0 || rc=$?
	if [ "$rc" -ne 2 ]; then
		printf 'FAILED %s: exit %s, want 2\n%s\n' "$*" "$rc" "$out" >&2
		exit 1
	fi
	if ! printf '%s\n' "$out" | head -1 | grep -qE -- "$pattern"; then
		printf 'FAILED %s: first line does not match %s\n%s\n' "$*" "$pattern" "$out" >&2
		exit 1
	fi
}

# expand "125x4 62x2" -> "125 125 125 125 62 62"
expand() {
	local out="" tok n v
	for tok in $1; do
		v=${tok%x*}
		n=1
		[ "$v" != "$tok" ] && n=${tok#*x}
		for _ in $(seq "$n"); do out="$out $v"; done
	done
	echo "${out# }"
}
