#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-timekeeperd, the shared timekeeper, with ppctime-run: the first
# launch starts it, the next ones find it; glibc reads the shared page
# through the vDSO; the pages a launch gets are sealed and read-only;
# clock options keep a launch's own keeper; a killed or stalled daemon
# turns into system calls for the programs already running, and the next
# launch starts a new one, also for a daemon stuck as a whole; the daemon
# watches a launch, which becomes QEMU, until its program ends; a directory
# others can write is refused; the machine's daemon, socket-activated as
# systemd would, serves launches one page, also where its directory is not
# seen (by its abstract name); a user's daemon serves that name to its
# user alone.
# Each case has a directory of its own (PPCTIME_TIMEKEEPERD=DIR), so the
# user's or the machine's daemon is never touched.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
. "$top_builddir/tests/config.sh"
top_builddir=$(cd "$top_builddir" && pwd -P)

run=$top_builddir/launcher/ppctime-run
probes=$top_builddir/tests/guest
work=$(mktemp -d "${TMPDIR:-/tmp}/timekeeperd-test.XXXXXX")
. "$srcdir/tests/test-lib.sh"

# The daemon of a directory: its keeper is the socket's peer, found by
# ppctime-run -v; its watchdog the keeper's parent.
keeper_in() { sed -n 's/.* daemon \([0-9]*\) at .*/\1/p' "$work/err" | head -n 1; }
end_daemon() { # DIR...
	for d in "$@"; do
		for k in $(sed -n 's/.* daemon \([0-9]*\) at .*/\1/p' "$d.pid" 2>/dev/null | sort -u); do
			[ "$(cat "/proc/$k/comm" 2>/dev/null)" = ppctime-tkd ] || continue
			w=$(ps -o ppid= -p "$k" 2>/dev/null | tr -d ' ')
			[ "$(cat "/proc/$w/comm" 2>/dev/null)" = ppctime-timekee ] && kill "$w"
		done
	done
}
dirs=
cleanup() { end_daemon $(printf '%s\n' $dirs | sort -u); rm -rf "$work"; }
trap cleanup EXIT

launch() { # DIR ARGS...
	dir=$1
	shift
	dirs="$dirs $dir"
	PPCTIME_TIMEKEEPERD=$dir "$run" -v "$@" >"$work/out" 2>"$work/err" </dev/null
	status=$?
	grep ' daemon [0-9]* at ' "$work/err" >>"$dir.pid" 2>/dev/null
}
has() { grep -q -- "$1" "$work/$2"; }
show() { sed 's/^/    err: /' "$work/err"; }

check_started_then_found() { # NAME PROBE
	d=$work/$1
	launch "$d" "$2" vdso
	first=$(keeper_in) started=$(grep -c "timekeeper started: daemon" "$work/err")
	launch "$d" "$2" vdso
	if [ "$status" -ne 0 ] || [ -z "$first" ] || [ "$started" -ne 1 ]; then
		fail "$1" "status $status, or the first launch started no daemon"; show
	elif ! has "timekeeper found: daemon $first " err; then
		fail "$1" "the second launch did not find daemon $first"; show
	else
		pass "$1 (daemon $first)"
	fi
}

check_vdso_used() { # NAME PROBE
	d=$work/$1
	dirs="$dirs $d"
	PPCTIME_TIMEKEEPERD=$d QEMU_STRACE=1 "$run" -v "$2" calls 1000 monotonic \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	calls=$(grep -c 'clock_gettime' "$work/err")
	if [ "$status" -ne 0 ] || ! has 'shared timekeeper' err; then
		fail "$1" "status $status, or no shared timekeeper"; show
	elif [ "$calls" -ge 100 ]; then
		fail "$1" "$calls clock_gettime system calls for 1000 calls"
	else
		pass "$1 ($calls system calls for 1000 clock_gettime)"
	fi
}

check_private_for_options() { # NAME PROBE
	launch "$work/$1" --tz=60 "$2" vdso
	if [ "$status" -eq 0 ] && has 'private timekeeper' err && ! has 'shared' err; then
		pass "$1"
	else
		fail "$1" "status $status, or --tz did not keep a private timekeeper"; show
	fi
}

# Kill (KILL) or stop (STOP) the keeper while the guest compares glibc's
# clock_gettime with the system call: no read may be a stale page's.
check_daemon_loss() { # NAME SIGNAL PROBE
	d=$work/$1
	launch "$d" "$3" vdso
	keeper=$(keeper_in)
	dirs="$dirs $d"
	PPCTIME_TIMEKEEPERD=$d "$run" "$3" compare 1500 monotonic monotonic-coarse \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	sleep 0.5
	[ -n "$keeper" ] && kill -s "$2" "$keeper"
	wait $launcher
	status=$?
	hres=$(sed -n 's/.*\<worst_monotonic=\([^ ]*\).*/\1/p' "$work/out" | head -n 1)
	coarse=$(sed -n 's/.*\<worst_monotonic-coarse=\([^ ]*\).*/\1/p' "$work/out" | head -n 1)
	[ "$2" = STOP ] && kill -CONT "$keeper" 2>/dev/null
	launch "$d" "$3" vdso
	if [ -z "$keeper" ] || [ "$status" -ne 0 ] || [ -z "$hres" ] || [ -z "$coarse" ]; then
		fail "$1" "keeper '$keeper', status $status"; show
	elif [ "$hres" -gt 1000000 ] || [ "$coarse" -gt 250000000 ]; then
		fail "$1" "reads off by up to $hres ns, $coarse ns coarse"
	elif ! has 'timekeeper started: daemon' err; then
		fail "$1" "the next launch did not start a new daemon"; show
	else
		pass "$1 (worst $hres ns, coarse $coarse ns)"
	fi
}

# Keeper and watchdog both stopped: the next launch gets no answer, ends
# the pair (the pages, which running programs may read, go to mode NONE)
# and starts another.
check_stuck_replaced() { # NAME PROBE
	launch "$work/$1" "$2" vdso
	keeper=$(keeper_in)
	watchdog=$(ps -o ppid= -p "$keeper" 2>/dev/null | tr -d ' ')
	if [ -z "$keeper" ] || [ -z "$watchdog" ] || [ "$watchdog" = 1 ]; then
		fail "$1" "no daemon found"; show
		return
	fi
	kill -STOP "$watchdog" "$keeper"
	launch "$work/$1" "$2" vdso
	# Dead: gone, or a zombie until init gets to it.
	state=$(ps -o stat= -p "$watchdog" 2>/dev/null)
	if [ "$status" -eq 0 ] && has 'timekeeper started: daemon' err && [ "${state#Z}" = "$state" ] &&
	   [ -n "$state" ]; then
		fail "$1" "the stuck daemon's watchdog $watchdog is still there ($state)"
	elif [ "$status" -eq 0 ] && has 'timekeeper started: daemon' err
	then pass "$1"
	else fail "$1" "status $status, or the stuck daemon was not replaced"; show; fi
	kill -CONT "$watchdog" "$keeper" 2>/dev/null
}

# The daemon watches a launch's process, which becomes QEMU (one process,
# as under plain QEMU): it outlives its idle time while the program runs,
# and ends once the program has ended and that time has passed.
check_launch_watched() { # NAME PROBE
	d=$work/$1
	mkdir -m 700 "$d"
	"$top_builddir/launcher/ppctime-timekeeperd" --socket-dir="$d" --idle-exit=2 \
		2>"$work/daemon-err" </dev/null &
	daemon=$!
	# Its keeper forks once the pages are calibrated: it answers at once.
	for i in $(seq 100); do pgrep -P "$daemon" -x ppctime-tkd >/dev/null && break; sleep 0.1; done
	PPCTIME_TIMEKEEPERD=$d "$run" -v "$2" compare 5000 monotonic \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	exe=$(readlink -f "$run")
	for i in $(seq 50); do
		now=$(readlink -f "/proc/$launcher/exe" 2>/dev/null)
		[ "$now" = "$exe" ] || break
		[ -z "$(ps -o pid= --ppid "$launcher")" ] || break
		sleep 0.1
	done
	sleep 2.5
	kill -0 "$daemon" 2>/dev/null && during=alive || during=gone
	children=$(ps -o pid= --ppid "$launcher" | wc -l)
	kill -0 "$launcher" 2>/dev/null && running=yes || running=no
	wait "$launcher"
	status=$?
	for i in $(seq 100); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$daemon" 2>/dev/null && after=alive || after=gone
	[ "$after" = alive ] && kill "$daemon"
	wait "$daemon" 2>/dev/null
	if [ "$status" -ne 0 ] || ! has 'timekeeper found: daemon' err; then
		fail "$1" "status $status, or the launch did not use the daemon"; show
	elif [ "$running" = no ]; then
		fail "$1" "the program ended before it could be looked at"; show
	elif [ "$now" = "$exe" ] || [ "$children" -ne 0 ]; then
		fail "$1" "the launch stayed ppctime-run ('$now') with $children children"
	elif [ "$during" != alive ] || [ "$after" != gone ]; then
		fail "$1" "daemon $during while the program ran, $after 10 s after it ended"
	else
		pass "$1 (the launch became $now)"
	fi
}

check_open_dir_refused() { # NAME PROBE
	d=$work/$1
	mkdir -m 777 "$d"
	launch "$d" "$2" vdso
	if [ "$status" -eq 0 ] && has 'others may write there' err && has 'private timekeeper' err
	then pass "$1"
	else fail "$1" "status $status, or a daemon in a directory of mode 777"; show; fi
}

# The machine's daemon as its systemd units run it (socket activation,
# --system, the path and the abstract name), in a user, mount and network
# namespace of its own (abstract names are the network namespace's) with
# a /run of its own: two launches of the default kind find it, and a third
# does by its abstract name with /run hidden, as in a chroot; all share
# one data page (one memfd inode in the guest's maps) and read it through
# the vDSO.
check_machine_daemon() { # NAME PROBE
	if ! command -v systemd-socket-activate >/dev/null; then
		skip "$1" "systemd-socket-activate not installed (Debian package systemd)"
		return
	fi
	if ! unshare -Urmn true 2>/dev/null; then
		skip "$1" "no user, mount and network namespaces here (unshare -Urmn failed)"
		return
	fi
	unshare -Urmn sh -eu -c '
		mount -t tmpfs -o mode=755 none /run
		mkdir -m 755 /run/ppctime
		systemd-socket-activate -l /run/ppctime/timekeeperd.sock \
			-l @/run/ppctime/timekeeperd.sock \
			"$1" --system --idle-exit=10 2>/dev/null &
		daemon=$!
		for i in $(seq 50); do [ -S /run/ppctime/timekeeperd.sock ] && break; sleep 0.1; done
		for i in 1 2; do env -u PPCTIME_TIMEKEEPERD "$2" -v "$3" vdso || exit; done
		mount -t tmpfs -o mode=755 none /run
		env -u PPCTIME_TIMEKEEPERD "$2" -v "$3" vdso
		kill $daemon' sh "$top_builddir/launcher/ppctime-timekeeperd" "$run" "$2" \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
	inodes=$(sed -n 's|.* \([0-9][0-9]*\)  */memfd:ppctime-vdso-data-.*|\1|p' "$work/err" | sort -u)
	found=$(grep -c 'timekeeper found: daemon [0-9]* at /run/ppctime/timekeeperd.sock' \
		"$work/err")
	named=$(grep -c 'timekeeper found: daemon [0-9]* at @/run/ppctime/timekeeperd.sock' \
		"$work/err")
	calls=$(grep -c '^clock_gettime=0$' "$work/out")
	if [ "$status" -ne 0 ] || [ "$found" -ne 2 ] || [ "$named" -ne 1 ]; then
		fail "$1" "status $status, or the launches did not find the machine's daemon"; show
	elif [ "$(echo "$inodes" | wc -w)" -ne 1 ] || [ "$calls" -ne 3 ]; then
		fail "$1" "data pages '$inodes', $calls of 3 launches without time system calls"
	else
		pass "$1 (one data page, inode $inodes)"
	fi
}

# The user's daemon's abstract name is anyone's to connect to; another
# user's connection there is closed unanswered, the user's gets the hello.
check_name_serves_user_only() { # NAME PROBE
	# Debian's, which any user may run.
	py=/usr/bin/python3
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ ! -x "$py" ]; then
		skip "$1" "connecting as another user needs root, setpriv and $py (Debian packages util-linux, python3)"
		return
	fi
	d=$work/$1
	launch "$d" "$2" vdso
	hello='import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect("\0" + sys.argv[1])
print(len(s.recv(4096)))'
	own=$("$py" -c "$hello" "$d/timekeeperd.sock" 2>&1)
	other=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$py" -c "$hello" "$d/timekeeperd.sock" 2>&1)
	if [ "$status" -eq 0 ] && [ "$own" -gt 0 ] 2>/dev/null && [ "$other" = 0 ]
	then pass "$1 (the user's hello: $own bytes; another's: none)"
	else fail "$1" "status $status, the user's hello '$own', another user's '$other'"; show; fi
}

for t in $TARGETS; do
	dyn=$probes/launcher-probe-$t static=$probes/launcher-probe-static-$t
	if [ ! -x "$dyn" ] || [ ! -x "$top_builddir/launcher/ppctime-timekeeperd" ]; then
		skip "timekeeperd-$t" "the probes or the daemon not built"
		continue
	fi
	check_started_then_found "daemon-started-then-found-$t" "$dyn"
	check_vdso_used "daemon-vdso-used-$t" "$dyn"
	check_vdso_used "daemon-vdso-used-static-$t" "$static"
	check_private_for_options "daemon-private-for-options-$t" "$dyn"
	check_daemon_loss "daemon-killed-$t" KILL "$dyn"
	check_daemon_loss "daemon-stalled-$t" STOP "$static"
	check_stuck_replaced "daemon-stuck-replaced-$t" "$dyn"
	check_launch_watched "daemon-watches-launch-$t" "$dyn"
	check_open_dir_refused "daemon-open-dir-refused-$t" "$dyn"
	check_machine_daemon "daemon-machine-socket-activated-$t" "$dyn"
	check_name_serves_user_only "daemon-name-serves-user-only-$t" "$dyn"
done
exit $failed
