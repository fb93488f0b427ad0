# SPDX-License-Identifier: GPL-2.0
# Sourced after tests/test-lib.sh by the tests of tests/host/ (check-host,
# sbuild-test), each a sequence of steps on a root of Debian $suite made
# here by mmdebstrap from this machine's own archive.  They set suite,
# dir (their logs) and steps (the steps' names, one TAP result each),
# and print progress as host_tag.

# skip_after STEP WHY: every step after STEP SKIPs, saying WHY.
skip_after() {
	local s after=
	for s in $steps; do
		[ -z "$after" ] || skip "$suite-$s" "$2"
		[ "$s" = "$1" ] && after=1
	done
}
# skip_from STEP WHY: STEP and every step after it SKIP, saying WHY.
skip_from() { skip "$suite-$1" "$2"; skip_after "$1" "$2"; exit "$failed"; }
# fail_from STEP WHY: STEP fails; the steps after it SKIP, as it failed.
fail_from() { fail "$suite-$1" "$2"; skip_after "$1" "$suite-$1 failed"; exit 1; }
progress() { printf '  %-8s %s\n' "$host_tag" "$suite: $*"; }

# A run whose every step passed is not repeated while its inputs are the
# same (make check-all's runs take hours; make runs each test again):
# the sources (the names and contents in TARBALL, not its dates) and the
# command's own arguments.  begin_run prints the plan, or that run's
# results again, saying when they were had, and exits; end_run keeps
# this run's if they all passed, and exits.  The run's results and its
# inputs are kept in $dir/passed (rm it to run again).
begin_run() {
	local when
	run_inputs="${0##*/} $* $({ tar -tJf "$tarball"; tar -xJOf "$tarball"; } | sha256sum | cut -d ' ' -f 1)"
	plan "$(count $steps)"
	if [ -f "$dir/passed" ] && [ "$(head -n 1 "$dir/passed")" = "$run_inputs" ]; then
		when=$(date -u -r "$dir/passed" '+%Y-%m-%d %H:%M UTC')
		progress "these sources passed at $when: those results again (rm $dir/passed to run again)"
		sed '1d; s/$/ [passed at '"$when"', these sources]/' "$dir/passed"
		exit 0
	fi
	rm -f "$dir/passed" "$dir/results"
	results_copy=$dir/results
}
end_run() {
	if [ "$failed" -eq 0 ] && ! grep -q ' # SKIP ' "$results_copy"; then
		{ echo "$run_inputs"; cat "$results_copy"; } >"$dir/passed"
	fi
	exit "$failed"
}

# cpu_seconds: the CPU time, user and system, of this shell's children
# that have ended (the second line of bash's times, which must run in
# this shell, not in a command substitution's).
cpu_seconds() {
	times >"$dir/times"
	awk 'NR == 2 { split($1 " " $2, t, "[ms]+"); printf "%d\n", t[1] * 60 + t[2] + t[3] * 60 + t[4] }' \
		"$dir/times"
}
# step NAME COMMAND...: COMMAND with its output in NAME.log; 0 or its
# status.  Its wall and CPU time are printed, and kept in step_times for
# the step's result, which CI shows: in CI it shares the cores.
step() {
	local name=$1 started=$SECONDS rc=0
	shift
	cpu_seconds >"$dir/$name.cpu"
	progress "$name (log: $dir/$name.log)"
	"$@" >"$dir/$name.log" 2>&1 || rc=$?
	cpu_seconds >>"$dir/$name.cpu"
	step_times="$((SECONDS - started)) s, $(awk 'NR == 1 { a = $1 } END { print $1 - a }' \
		"$dir/$name.cpu") s of CPU"
	progress "$name: status $rc in $step_times"
	return "$rc"
}

# make_root STEP VARIANT FORMAT PATH: mmdebstrap's root of $suite, of
# VARIANT (apt: as a user's fresh machine has it; buildd: as the build
# daemons' have it), in FORMAT (directory, tar) at PATH, as the result of
# STEP; a second run keeps it while PATH.stamp says it was made so.
# Nothing is installed on this machine.  dpkg in the root syncs no file
# (a root thrown away, as sbuild's are): install-deps' own two thousand
# files took minutes of syncs.
make_root() {
	local name=$1 variant=$2 format=$3 path=$4 archive uri keyring value stamp
	local aptopts=() dpkgopt=--dpkgopt=force-unsafe-io
	[ "$(id -u)" -eq 0 ] || skip_from "$name" "runs as root only (mmdebstrap --mode=root, mount, pivot_root)"
	command -v mmdebstrap >/dev/null ||
		skip_from "$name" "mmdebstrap not found: install the Debian package mmdebstrap"
	command -v unshare >/dev/null ||
		skip_from "$name" "unshare not found: install the Debian package util-linux"
	archive=$("$srcdir/build-aux/fetch-deb" --archive 2>&1) || skip_from "$name" "$archive"
	read -r uri keyring <<<"$archive"
	# The archive as this machine's apt reaches it: a snapshot's Release
	# files may be past their Valid-Until (testing's are), which the
	# machine's apt is told to accept.
	for option in Acquire::Check-Valid-Until Acquire::Check-Date; do
		value=$(apt-config dump "$option" | sed -n "s/^$option \"\(.*\)\";\$/\1/p")
		[ -z "$value" ] || aptopts+=("--aptopt=$option \"$value\"")
	done
	# The archive by a digest of its URI: the stamp names no host.
	stamp="mmdebstrap --variant=$variant --format=$format $dpkgopt ${aptopts[*]} $suite"
	stamp="$stamp (archive $(echo "$uri" | md5sum | cut -c 1-12))"
	if [ -f "$path.stamp" ] && [ "$(cat "$path.stamp")" = "$stamp" ] && [ -e "$path" ]; then
		progress "$name: kept ($stamp)"
		step_times=kept
	else
		rm -rf --one-file-system "$path" "$path.stamp"
		step "$name" mmdebstrap --mode=root --variant="$variant" --format="$format" "$dpkgopt" \
			"${aptopts[@]}" ${keyring:+--keyring="$keyring"} "$suite" "$path" \
			"deb $uri $suite main" ||
			fail_from "$name" "mmdebstrap failed: $(tail -n 1 "$dir/$name.log")"
		echo "$stamp" >"$path.stamp"
	fi
	pass "$suite-$name ($step_times)"
}
