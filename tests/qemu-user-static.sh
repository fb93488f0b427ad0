#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu-user-static.sh CACHE QEMU...: the directory holding Debian's static
# QEMU of each QEMU named (qemu-ppc64le: qemu-ppc64le-static), printed on
# stdout: /usr/bin if qemu-user-static is installed, else CACHE/usr/bin,
# fetched once (apt-get download, never installed: on Debian 12 the
# package conflicts with qemu-user-binfmt; on Debian 13 its names link to
# qemu-user's QEMUs, which are static, and those are copied).  Fails with why on stderr.  Used by
# tests/chroot-test.sh and benchtests/ppctime-bench.
set -eu
[ $# -ge 2 ] || { echo "usage: qemu-user-static.sh CACHE QEMU..." >&2; exit 2; }
cache=$1
shift

# Are all the static QEMUs (QEMU...) in DIR?
statics_in() { # DIR QEMU...
	in=$1
	shift
	for qemu in "$@"; do
		[ -x "$in/${qemu##*/}-static" ] || return 1
	done
}

# make check runs its tests, and the benchmarks' smoke test, in parallel.
exec 9>"$cache.lock"
flock 9
for dir in /usr/bin "$cache/usr/bin"; do
	if statics_in "$dir" "$@"; then
		echo "$dir"
		exit 0
	fi
done
# Beside the cache, so that only a complete one is renamed into place; of
# the package, only the QEMUs asked for.
tmp=$(mktemp -d "$cache.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/keep/usr/bin"
if ! (cd "$tmp" && apt-get download qemu-user-static >/dev/null &&
      dpkg-deb -x qemu-user-static_*.deb x) 2>"$tmp/err"; then
	echo "qemu-user-static is not installed and apt-get download qemu-user-static failed: $(grep -v '^W:' "$tmp/err" | head -n 1)" >&2
	exit 1
fi
for qemu in "$@"; do
	static=$tmp/x/usr/bin/${qemu##*/}-static
	# Debian 13's qemu-user-static is a transitional package: its names
	# are links to qemu-user's QEMUs, static there.
	if [ -L "$static" ] && [ ! -e "$static" ] && [ ! -e "$tmp/qemu-user" ]; then
		if ! (cd "$tmp" && apt-get download qemu-user >/dev/null &&
		      dpkg-deb -x qemu-user_*.deb x && : >qemu-user) 2>"$tmp/err"; then
			echo "qemu-user-static links to qemu-user, and apt-get download qemu-user failed: $(grep -v '^W:' "$tmp/err" | head -n 1)" >&2
			exit 1
		fi
	fi
	cp -L "$static" "$tmp/keep/usr/bin/" 2>/dev/null ||
		{ echo "qemu-user-static has no ${qemu##*/}-static" >&2; exit 1; }
done
rm -rf "$cache"
mv -T "$tmp/keep" "$cache"
echo "$cache/usr/bin"
