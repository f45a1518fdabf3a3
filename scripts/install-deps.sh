#!/bin/sh
# Install the Debian packages DLS needs, only those that are missing.
# Called by the Makefile before anything is built, so that `make check` alone
# sets up a fresh machine. Exits 0 when everything is present afterwards.
# Extra package names as arguments are wanted too (make fuzz: clang).
set -eu

PKGS="build-essential pkg-config libomniorb4-dev omniidl omniorb omniorb-nameserver
libssl-dev openssl libcunit1-dev libpng-dev libjansson-dev libsqlite3-dev sqlite3 gnuplot-nox
procps iproute2 openssh-client openssh-server python3 python3-numpy help2man $*"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "install-deps: need root (or sudo) to install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
