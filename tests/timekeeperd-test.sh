#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-timekeeperd, the shared timekeeper, with ppctime-run: the first
# launch starts it, the next ones find it; glibc reads the shared page
# through the vDSO; an image of either data layout gets that layout's
# pages from the one daemon; the pages a launch gets are sealed and read-only;
# clock options keep a launch's own keeper; a killed or stalled daemon
# turns into system calls for the programs already running, and the next
# launch starts a new one, also for a daemon stuck as a whole; the daemon
# watches a launch, which becomes QEMU, until its program ends; a directory
# others can write is refused; the machine's daemon, socket-activated as
# systemd would, serves launches one page, also where its directory is not
# seen (by its abstract name); a user's daemon serves that name to its
# user alone; root with no runtime directory (no systemd) starts the
# machine's on demand, in a /run/ppctime of root's alone, and the machine's
# daemon started so ends once idle.
# Each case has a directory of its own (PPCTIME_TIMEKEEPERD=DIR), so the
# user's or the machine's daemon is never touched.
. "${srcdir:=.}/tests/test-lib.sh"

run=$top_builddir/run/ppctime-run
probes=$top_builddir/tests/guest
make_work

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
at_exit 'end_daemon $(printf "%s\n" $dirs | sort -u)'

# launch_in DIR ARGS...: launch -v ARGS with the daemon of DIR.
launch_in() {
	dir=$1
	shift
	dirs="$dirs $dir"
	PPCTIME_TIMEKEEPERD=$dir launch -v "$@"
	grep ' daemon [0-9]* at ' "$work/err" >>"$dir.pid" 2>/dev/null
}

check_started_then_found() { # NAME PROBE
	d=$work/$1
	launch_in "$d" "$2" vdso
	first=$(keeper_in) started=$(grep -c "timekeeper started: daemon" "$work/err")
	launch_in "$d" "$2" vdso
	if [ "$status" -ne 0 ] || [ -z "$first" ] || [ "$started" -ne 1 ]; then
		fail "$1" "status $status, or the first launch started no daemon"; show_err
	elif ! has "timekeeper found: daemon $first " err; then
		fail "$1" "the second launch did not find daemon $first"; show_err
	else
		pass "$1 (daemon $first)"
	fi
}

check_vdso_used() { # NAME PROBE
	d=$work/$1
	dirs="$dirs $d"
	time_syscalls env PPCTIME_TIMEKEEPERD="$d" "$run" -v "$2"
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	if [ "$status" -ne 0 ] || ! has 'shared timekeeper' err; then
		fail "$1" "status $status, or no shared timekeeper"; show_err
	elif [ "$calls" -ge 100 ]; then
		fail "$1" "$calls clock_gettime system calls for 1000 calls"
	else
		pass "$1 ($calls system calls for 1000 clock_gettime)"
	fi
}

# Linux 6.1's image and the datastore's, from one daemon: each launch maps
# the daemon's data file of its image's layout (2 pages of the 6.1 one, 4
# of the datastore one), and reads the time through the datastore's with
# no time system call.
check_layouts() { # NAME TARGET PROBE
	d=$work/$1
	image=$top_builddir/vdso-kernel/$(vdso_image "$2")
	launch_in "$d" "$3" vdso
	first=$(keeper_in) old=$(grep -c "memfd:ppctime-vdso-data-$2-6.1 " "$work/err")
	export QEMU_STRACE=1
	launch_in "$d" --vdso="${image%.so}-datastore.so" "$3" vdso
	unset QEMU_STRACE
	new=$(grep -c "memfd:ppctime-vdso-data-$2-datastore " "$work/err")
	calls=$(grep -c 'clock_gettime' "$work/err")
	if [ "$status" -ne 0 ] || [ -z "$first" ] || ! has "timekeeper found: daemon $first " err ||
	   [ "$(value clock_gettime)" != 0 ]; then
		fail "$1" "status $status, or the datastore launch did not find daemon $first"; show_err
	elif [ "$old" -ne 2 ] || [ "$new" -ne 4 ]; then
		fail "$1" "$old pages of the 6.1 data file, $new of the datastore one (2 and 4 expected)"
	elif [ "$calls" -ne 0 ]; then
		fail "$1" "$calls clock_gettime system calls through the datastore image"
	else
		pass "$1 (daemon $first: 2 pages of 6.1, 4 of the datastore; 0 system calls)"
	fi
}

check_private_for_options() { # NAME PROBE
	launch_in "$work/$1" --tz=60 "$2" vdso
	if [ "$status" -eq 0 ] && has 'private timekeeper' err && ! has 'shared' err; then
		pass "$1"
	else
		fail "$1" "status $status, or --tz did not keep a private timekeeper"; show_err
	fi
}

# Kill (KILL) or stop (STOP) the keeper while the guest compares glibc's
# clock_gettime with the system call: no read may be a stale page's.
check_daemon_loss() { # NAME SIGNAL PROBE
	d=$work/$1
	launch_in "$d" "$3" vdso
	keeper=$(keeper_in)
	dirs="$dirs $d"
	PPCTIME_TIMEKEEPERD=$d "$run" --host-time-syscalls "$3" compare 1500 monotonic monotonic-coarse \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	sleep 0.5
	[ -n "$keeper" ] && kill -s "$2" "$keeper"
	wait $launcher
	status=$?
	hres=$(sed -n 's/.*\<worst_monotonic=\([^ ]*\).*/\1/p' "$work/out" | head -n 1)
	coarse=$(sed -n 's/.*\<worst_monotonic-coarse=\([^ ]*\).*/\1/p' "$work/out" | head -n 1)
	[ "$2" = STOP ] && kill -CONT "$keeper" 2>/dev/null
	launch_in "$d" "$3" vdso
	if [ -z "$keeper" ] || [ "$status" -ne 0 ] || [ -z "$hres" ] || [ -z "$coarse" ]; then
		fail "$1" "keeper '$keeper', status $status"; show_err
	elif [ "$hres" -gt 1000000 ] || [ "$coarse" -gt 250000000 ]; then
		fail "$1" "reads off by up to $hres ns, $coarse ns coarse"
	elif ! has 'timekeeper started: daemon' err; then
		fail "$1" "the next launch did not start a new daemon"; show_err
	else
		pass "$1 (worst $hres ns, coarse $coarse ns)"
	fi
}

# Keeper and watchdog both stopped: the next launch gets no answer and
# ends the pair, or finds the keeper already dead by its own deadline
# (keeper_watch.h); either way the old keeper is gone (its pages, which
# running programs may read, in mode NONE), the launch starts another, and
# the old watchdog, continued, ends.
check_stuck_replaced() { # NAME PROBE
	launch_in "$work/$1" "$2" vdso
	keeper=$(keeper_in)
	watchdog=$(ps -o ppid= -p "$keeper" 2>/dev/null | tr -d ' ')
	if [ -z "$keeper" ] || [ -z "$watchdog" ] || [ "$watchdog" = 1 ]; then
		fail "$1" "no daemon found"; show_err
		return
	fi
	kill -STOP "$watchdog" "$keeper"
	launch_in "$work/$1" "$2" vdso
	# Dead: gone, or a zombie until its parent gets to it.
	kstate=$(ps -o stat= -p "$keeper" 2>/dev/null)
	kill -CONT "$watchdog" "$keeper" 2>/dev/null
	for i in $(seq 50); do
		wstate=$(ps -o stat= -p "$watchdog" 2>/dev/null)
		[ -z "$wstate" ] || [ "${wstate#Z}" != "$wstate" ] && break
		sleep 0.1
	done
	if [ "$status" -ne 0 ] || ! has 'timekeeper started: daemon' err; then
		fail "$1" "status $status, or the stuck daemon was not replaced"; show_err
	elif [ -n "$kstate" ] && [ "${kstate#Z}" = "$kstate" ]; then
		fail "$1" "the stuck daemon's keeper $keeper is still there ($kstate)"
	elif [ -n "$wstate" ] && [ "${wstate#Z}" = "$wstate" ]; then
		fail "$1" "the stuck daemon's watchdog $watchdog is still there ($wstate) once continued"
	else
		pass "$1"
	fi
}

# The daemon watches a launch's process, which becomes QEMU (one process,
# as under plain QEMU): it outlives its idle time while the program runs,
# and ends once the program has ended and that time has passed.
check_launch_watched() { # NAME TARGET PROBE
	d=$work/$1
	mkdir -m 700 "$d"
	"$top_builddir/timekeeperd/ppctime-timekeeperd" --socket-dir="$d" --idle-exit=2 \
		2>"$work/daemon-err" </dev/null &
	daemon=$!
	# Its keeper forks once the pages are calibrated: it answers at once.
	for i in $(seq 100); do pgrep -P "$daemon" -x ppctime-tkd >/dev/null && break; sleep 0.1; done
	PPCTIME_TIMEKEEPERD=$d "$run" -v "$3" compare 5000 monotonic \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	# QEMU runs in the launch's process: exec'd (a dynamic QEMU) or mapped
	# there (a static one, from a sealed copy named as it where root runs it).
	eval "qemu=\$QEMU_$2"
	qemu=$(readlink -f "$qemu") now=
	for i in $(seq 50); do
		grep -qF -e "$qemu" -e "/memfd:${qemu##*/} " "/proc/$launcher/maps" 2>/dev/null &&
			now=$qemu && break
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
		fail "$1" "status $status, or the launch did not use the daemon"; show_err
	elif [ "$running" = no ]; then
		fail "$1" "the program ended before it could be looked at"; show_err
	elif [ -z "$now" ] || [ "$children" -ne 0 ]; then
		fail "$1" "QEMU did not run in the launch's process ($children children)"
	elif [ "$during" != alive ] || [ "$after" != gone ]; then
		fail "$1" "daemon $during while the program ran, $after 10 s after it ended"
	else
		pass "$1 (the launch runs $now)"
	fi
}

check_open_dir_refused() { # NAME PROBE
	d=$work/$1
	mkdir -m 777 "$d"
	launch_in "$d" "$2" vdso
	if [ "$status" -eq 0 ] && has 'others may write there' err && has 'private timekeeper' err
	then pass "$1"
	else fail "$1" "status $status, or a daemon in a directory of mode 777"; show_err; fi
}

# The machine's daemon as its systemd units run it (socket activation,
# --system, the path and the abstract name), in a user, mount and network
# namespace of its own (abstract names are the network namespace's) with
# a /run of its own: two launches of the default kind find it, and a third
# does by its abstract name with /run hidden, as in a chroot; all share
# one data page (one memfd inode in the guest's maps) and read it through
# the vDSO.  Launches before them start it, until one finds it: the first
# waits 500 ms for a daemon that calibrates first, which on a loaded
# machine can take longer (the launch then rightly keeps a private
# timekeeper: check-all saw it).
check_machine_daemon() { # NAME PROBE
	if ! command -v systemd-socket-activate >/dev/null; then
		skip "$1" "systemd-socket-activate not installed (Debian package systemd)"
		return
	fi
	can_be_root_alone "$1" || return 0
	unshare -Urmn sh -eu -c '
		mount -t tmpfs -o mode=755 none /run
		mkdir -m 755 /run/ppctime
		systemd-socket-activate -l /run/ppctime/timekeeperd.sock \
			-l @/run/ppctime/timekeeperd.sock \
			"$1" --system --idle-exit=10 2>/dev/null &
		daemon=$!
		for i in $(seq 50); do [ -S /run/ppctime/timekeeperd.sock ] && break; sleep 0.1; done
		for i in $(seq 10); do
			env -u PPCTIME_TIMEKEEPERD "$2" -v "$3" vdso 2>&1 >/dev/null |
				grep -q "timekeeper found: daemon" && break
		done
		for i in 1 2; do env -u PPCTIME_TIMEKEEPERD "$2" -v "$3" vdso || exit; done
		mount -t tmpfs -o mode=755 none /run
		env -u PPCTIME_TIMEKEEPERD "$2" -v "$3" vdso
		kill $daemon' sh "$top_builddir/timekeeperd/ppctime-timekeeperd" "$run" "$2" \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
	inodes=$(sed -n 's|.* \([0-9][0-9]*\)  */memfd:ppctime-vdso-data-.*|\1|p' "$work/err" | sort -u)
	found=$(grep -c 'timekeeper found: daemon [0-9]* at /run/ppctime/timekeeperd.sock' \
		"$work/err")
	named=$(grep -c 'timekeeper found: daemon [0-9]* at @/run/ppctime/timekeeperd.sock' \
		"$work/err")
	calls=$(grep -c '^clock_gettime=0$' "$work/out")
	if [ "$status" -ne 0 ] || [ "$found" -ne 2 ] || [ "$named" -ne 1 ]; then
		fail "$1" "status $status, or the launches did not find the machine's daemon"; show_err
	elif [ "$(echo "$inodes" | wc -w)" -ne 1 ] || [ "$calls" -ne 3 ]; then
		fail "$1" "data pages '$inodes', $calls of 3 launches without time system calls"
	else
		pass "$1 (one data page, inode $inodes)"
	fi
}

# What the cases as root with a /run of their own need: a user, mount and
# network namespace (abstract names are the network namespace's).
can_be_root_alone() { # NAME
	unshare -Urmn true 2>/dev/null && return
	skip "$1" "no user, mount and network namespaces here (unshare -Urmn failed)"
	return 1
}

# Root with no runtime directory and no systemd (a container, a build
# chroot): the first launch makes /run/ppctime, root's alone whatever its
# umask, and starts the machine's daemon there as the socket unit would
# (--system), with a user's daemon's lifetime; the next launch finds it.
check_root_on_demand() { # NAME PROBE
	can_be_root_alone "$1" || return 0
	d=$work/$1
	dirs="$dirs $d"
	unshare -Urmn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		umask 077
		for i in 1 2; do
			env -u PPCTIME_TIMEKEEPERD -u XDG_RUNTIME_DIR "$1" -v "$2" vdso >/dev/null
			echo "status$i=$?"
		done
		cd /run/ppctime && stat -c "dir=%a:%u" . && stat -c "socket=%a:%u" timekeeperd.sock &&
			stat -c "log=%a:%u" timekeeperd.log' \
		sh "$run" "$2" >"$work/out" 2>"$work/err" </dev/null
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	keeper=$(keeper_in)
	args=$(tr '\0' ' ' <"/proc/${keeper:-0}/cmdline" 2>/dev/null)
	end_daemon "$d"
	if [ "$(value status1)$(value status2)" != 00 ] || [ -z "$keeper" ] ||
		! has "timekeeper started: daemon $keeper at /run/ppctime/timekeeperd.sock" err; then
		fail "$1" "the first launch started no daemon in /run/ppctime"; show
	elif ! has "timekeeper found: daemon $keeper at /run/ppctime/timekeeperd.sock" err; then
		fail "$1" "the second launch did not find daemon $keeper"; show_err
	elif [ "$(value dir)" != 755:0 ] || [ "$(value socket)" != 666:0 ] ||
		[ "$(value log)" != 600:0 ]; then
		fail "$1" "modes and owners not 755, 666 and 600, root's"; show_out
	elif [ "${args% }" != "ppctime-timekeeperd --system --idle-exit=30 --ready-fd=3" ]; then
		fail "$1" "the daemon runs as '$args'"
	else
		pass "$1 (daemon $keeper)"
	fi
}

# Root's launch where /run/ppctime is not root's alone (mode 775): no
# daemon there, and it says why.
check_root_open_dir_refused() { # NAME PROBE
	can_be_root_alone "$1" || return 0
	unshare -Urmn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		mkdir /run/ppctime && chmod 775 /run/ppctime
		env -u PPCTIME_TIMEKEEPERD -u XDG_RUNTIME_DIR "$1" -v "$2" vdso >/dev/null
		echo "status=$? files=[$(ls -A /run/ppctime)]"' \
		sh "$run" "$2" >"$work/out" 2>"$work/err" </dev/null
	if [ "$(value status)" != 0 ] || ! has 'private timekeeper' err || has 'shared' err; then
		fail "$1" "status $(value status), or a shared timekeeper"; show
	elif ! has '/run/ppctime has mode 775: others may write there' err ||
		[ "$(value files)" != "[]" ]; then
		fail "$1" "no reason given, or files made in /run/ppctime"; show
	else
		pass "$1"
	fi
}

# The machine's daemon without systemd (--system, no socket activation):
# it makes /run/ppctime as a launch would and binds there, serves a
# launch, and once idle (--idle-exit=2, where a launch asks for 30) ends,
# its socket gone, so the next launch starts another.
check_system_idle_exit() { # NAME PROBE
	can_be_root_alone "$1" || return 0
	d=$work/$1
	dirs="$dirs $d"
	unshare -Urmn sh -u -c '
		gone() { s=$(ps -o stat= -p "$1"); [ -z "$s" ] || [ "${s#Z}" != "$s" ]; }
		launch() {
			env -u PPCTIME_TIMEKEEPERD -u XDG_RUNTIME_DIR "$2" -v "$3" vdso >/dev/null
			echo "$1=$?"
		}
		mount -t tmpfs -o mode=755 none /run
		umask 077
		"$1" --system --idle-exit=2 </dev/null &
		daemon=$!
		# Its keeper forks once the pages are calibrated: it answers at once.
		for i in $(seq 100); do pgrep -P $daemon -x ppctime-tkd >/dev/null && break; sleep 0.1; done
		cd /run/ppctime && stat -c "dir=%a:%u" . && stat -c "socket=%a:%u" timekeeperd.sock &&
			stat -c "lock=%a:%u" timekeeperd.lock
		launch first "$2" "$3"
		for i in $(seq 100); do gone $daemon && break; sleep 0.1; done
		gone $daemon && echo "after=gone" || { echo "after=alive"; kill $daemon; }
		wait $daemon
		echo "daemon=$? path=$(ls timekeeperd.sock 2>/dev/null)"
		launch next "$2" "$3"' \
		sh "$top_builddir/timekeeperd/ppctime-timekeeperd" "$run" "$2" \
		>"$work/out" 2>"$work/err" </dev/null
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	end_daemon "$d"
	if [ "$(value dir)" != 755:0 ] || [ "$(value socket)" != 666:0 ] ||
		[ "$(value lock)" != 600:0 ]; then
		fail "$1" "modes and owners not 755, 666 and 600, root's"; show
	elif [ "$(value first)" != 0 ] ||
		! has 'timekeeper found: daemon [0-9]* at /run/ppctime/timekeeperd.sock' err; then
		fail "$1" "status $(value first), or the launch did not find the daemon"; show_err
	elif [ "$(value after)" != gone ] || [ "$(value daemon)" != 0 ] || [ -n "$(value path)" ]; then
		fail "$1" "daemon $(value after) 10 s after the launch, status $(value daemon), socket '$(value path)'"
	elif [ "$(value next)" != 0 ] ||
		! has 'timekeeper started: daemon [0-9]* at /run/ppctime/timekeeperd.sock' err; then
		fail "$1" "status $(value next), or the next launch started none"; show_err
	else
		pass "$1"
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
	launch_in "$d" "$2" vdso
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
	else fail "$1" "status $status, the user's hello '$own', another user's '$other'"; show_err; fi
}

# What the cases below need to act as another user in namespaces of their
# own: root, setpriv, Debian's python3 and the namespaces FLAGS name.
can_act_as_others() { # NAME UNSHARE_FLAGS
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ ! -x /usr/bin/python3 ]; then
		skip "$1" "acting as another user needs root, setpriv and /usr/bin/python3 (Debian packages util-linux, python3)"
		return 1
	fi
	if ! unshare $2 true 2>/dev/null; then
		skip "$1" "no such namespaces here (unshare $2 failed)"
		return 1
	fi
}

# Another user floods the machine's daemon (in a mount and network
# namespace of the test's own): 2000 connects and closes from one process,
# then 40 processes that stay connected.  The daemon keeps one entry for
# the first and --max-launches-per-user=8 in all for the user (its
# descriptors show_err it), refuses the rest in their hello, and a launch by
# root is still served.
check_flood() { # NAME PROBE
	can_act_as_others "$1" -mn || return 0
	flood='import os, socket, struct, sys, time
path = sys.argv[1]
for i in range(2000):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.close()
r, w = os.pipe()
for i in range(40):
    if os.fork() == 0:
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        h = s.recv(32)
        refused = len(h) == 32 and struct.unpack("=IIiIQII", h)[5] & 2
        os.write(w, b"R" if refused else b"S")
        time.sleep(30)
        os._exit(0)
os.close(w)
got = b""
while len(got) < 40:
    got += os.read(r, 40)
print("served=%d refused=%d" % (got.count(b"S"), got.count(b"R")), flush=True)
time.sleep(30)'
	unshare -mn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		"$1" --system --idle-exit=30 --max-launches-per-user=8 2>/dev/null &
		daemon=$!
		# Its keeper forks once the pages are calibrated: it answers at once.
		for i in $(seq 100); do
			keeper=$(pgrep -P $daemon -x ppctime-tkd) && break
			sleep 0.1
		done
		echo "fds_before=$(ls /proc/$keeper/fd | wc -l)"
		setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c "$4" \
			/run/ppctime/timekeeperd.sock >"$5" &
		flooder=$!
		for i in $(seq 300); do [ -s "$5" ] && break; sleep 0.1; done
		echo "fds_after=$(ls /proc/$keeper/fd | wc -l) $(cat "$5")"
		env -u PPCTIME_TIMEKEEPERD timeout 10 "$2" -v "$3" vdso >/dev/null
		echo "launch=$?"
		pkill -P $flooder; kill $flooder $daemon' \
		sh "$top_builddir/timekeeperd/ppctime-timekeeperd" "$run" "$2" "$flood" "$work/flood" \
		>"$work/out" 2>"$work/err" </dev/null
	before=$(value fds_before) after=$(value fds_after)
	served=$(value served) refused=$(value refused) launched=$(value launch)
	if [ "${before:-0}" -eq 0 ] || [ "${after:-0}" -eq 0 ] || [ -z "$served" ]; then
		fail "$1" "the flood did not run"; show
	elif [ "$((after - before))" -gt 10 ]; then
		fail "$1" "the daemon holds $((after - before)) more descriptors after the flood"
	elif [ "$served" -gt 8 ] || [ "$refused" -lt 32 ]; then
		fail "$1" "$served of the user's 40 connections served, $refused refused, limit 8"
	elif [ "$launched" != 0 ] || ! has 'timekeeper found: daemon [0-9]* at /run/ppctime/' err; then
		fail "$1" "root's launch: status $launched, or not served by the machine's daemon"; show_err
	else
		pass "$1 (+$((after - before)) descriptors; $served served, $refused refused)"
	fi
}

# Another user (2002) floods the daemon with connections for 2 s, from two
# processes connecting and closing as fast as they can: the machine's
# daemon by its path, and a user's by its abstract name, where every
# connection is refused.  Root, holding the status page, reads the largest
# gap between the keeper's updates, quiet and in the flood: the updates
# come on time all the while (well under the watchdog's 200 ms, which
# would kill the keeper), and the keeper lives on.  The flooders run at
# nice 19: the question is whether the daemon's handling of their
# connections holds the updates back, not whether two busy processes of
# the test's own take the CPU from the keeper on a loaded machine (check-all
# saw 164 ms there with them at nice 0).
check_flood_updates() { # NAME PROBE
	can_act_as_others "$1" -mn || return 0
	watch='import mmap, os, socket, struct, sys, time
path, seconds = sys.argv[1], 2
s = socket.socket(socket.AF_UNIX)
s.connect(path)
msg, fds, _, _ = socket.recv_fds(s, 64, 16)
status = mmap.mmap(fds[0], 0, prot=mmap.PROT_READ)
keeper = struct.unpack_from("=i", status, 8)[0]
def last():
    return struct.unpack_from("=Q", status, 24)[0]
def largest_gap_ms(seconds):
    end = time.monotonic() + seconds
    seen, gap = last(), 0
    while time.monotonic() < end:
        time.sleep(0.001)
        now = last()
        gap = max(gap, (now if now != seen else time.clock_gettime_ns(time.CLOCK_MONOTONIC)) - seen)
        seen = now
    return gap // 1000000
quiet = largest_gap_ms(1)
r, w = os.pipe()
for i in range(2):
    if os.fork() == 0:
        os.nice(19); os.setgroups([]); os.setgid(2002); os.setuid(2002)
        end, n = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            c = socket.socket(socket.AF_UNIX)
            try:
                c.connect(sys.argv[2].replace("@", "\0", 1))
            except OSError:
                pass
            c.close()
            n += 1
        os.write(w, b"%d " % n)
        os._exit(0)
os.close(w)
gap = largest_gap_ms(seconds)
connects = sum(int(x) for x in os.fdopen(r).read().split())
try:
    os.kill(keeper, 0)
    alive = struct.unpack_from("=i", status, 8)[0] == keeper
except OSError:
    alive = False
print(" ".join("%s_%s=%s" % (sys.argv[3], k, v) for k, v in (("quiet", quiet), ("flood", gap),
      ("connects", connects), ("keeper", "alive" if alive else "dead"))), flush=True)'
	unshare -mn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		mkdir -m 700 /run/user
		"$1" --system --idle-exit=30 2>/dev/null &
		machine=$!
		"$1" --socket-dir=/run/user --idle-exit=30 2>/dev/null &
		user=$!
		for s in /run/ppctime/timekeeperd.sock /run/user/timekeeperd.sock; do
			for i in $(seq 100); do [ -S $s ] && break; sleep 0.1; done
		done
		/usr/bin/python3 -c "$2" /run/ppctime/timekeeperd.sock /run/ppctime/timekeeperd.sock path
		/usr/bin/python3 -c "$2" /run/user/timekeeperd.sock @/run/user/timekeeperd.sock name
		kill $machine $user' \
		sh "$top_builddir/timekeeperd/ppctime-timekeeperd" "$watch" \
		>"$work/out" 2>"$work/err" </dev/null
	figures="path: $(value path_flood) ms at most ($(value path_quiet) quiet), $(value path_connects) connects; name: $(value name_flood) ms ($(value name_quiet) quiet), $(value name_connects) connects"
	if [ -z "$(value path_flood)" ] || [ -z "$(value name_flood)" ]; then
		fail "$1" "the flood did not run"; show
	elif [ "$(value path_keeper)$(value name_keeper)" != alivealive ]; then
		fail "$1" "a keeper died in the flood ($figures)"; show_err
	elif [ "$(value path_flood)" -ge 150 ] || [ "$(value name_flood)" -ge 150 ]; then
		fail "$1" "updates came 150 ms apart or more in the flood ($figures)"
	else
		pass "$1 (largest gap between updates, $figures)"
	fi
}

# The machine's daemon, started by a root launch from a service (with
# its NOTIFY_SOCKET, WATCHDOG_USEC and LISTEN_*), at nice 19, with 1024
# descriptors and a CPU-time limit: starts as a service manager would
# start it, with none of those: a clean environment, nice 0, its own
# descriptors (65536) and no CPU-time limit; the service's socket hears
# nothing from it.  Where root may not raise a hard limit (no
# CAP_SYS_RESOURCE: a container), the launch's limits are soft ones, and
# the daemon's are the hard ones.
check_started_as_service() { # NAME PROBE
	can_act_as_others "$1" -mn || return 0
	d=$work/$1
	dirs="$dirs $d"
	if prlimit --nofile=1024:1024 sh -c 'ulimit -Hn 2048' 2>/dev/null; then
		limits="--nofile=1024:1024 --cpu=100:100" files=65536:65536
	else
		limits="--nofile=1024:4096 --cpu=100:unlimited" files=4096:4096
	fi
	listen='import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0ppctime-test-notify")
s.settimeout(0.1)
print("ready", flush=True)
got, end = 0, time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    try:
        got += len(s.recv(4096)) > 0
    except socket.timeout:
        pass
print("notified=%d" % got, flush=True)'
	unshare -mn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		/usr/bin/python3 -c "$4" 2 >"$5" &
		for i in $(seq 100); do [ -s "$5" ] && break; sleep 0.1; done
		env -u PPCTIME_TIMEKEEPERD -u XDG_RUNTIME_DIR NOTIFY_SOCKET=@ppctime-test-notify \
			WATCHDOG_USEC=1000000 LISTEN_PID=1 LISTEN_FDS=1 \
			nice -n 19 prlimit $6 "$1" -v "$2" vdso >/dev/null
		echo "status=$?"
		keeper=$(sed -n "s/.* daemon \([0-9]*\) at .*/\1/p" "$3" | head -n 1)
		echo "nice=$(ps -o ni= -p "$keeper" | tr -d " ")"
		echo "files=$(sed -n "s/^Max open files  *\([0-9]*\)  *\([0-9]*\) .*/\1:\2/p" /proc/$keeper/limits)"
		echo "cpu=$(sed -n "s/^Max cpu time  *\([a-z0-9]*\) .*/\1/p" /proc/$keeper/limits)"
		echo "environ=$(tr "\0" "\n" </proc/$keeper/environ | grep -c "^NOTIFY_SOCKET=\|^WATCHDOG_USEC=\|^LISTEN_")"
		wait
		cat "$5"
		kill "$keeper"' \
		sh "$run" "$2" "$work/err" "$listen" "$work/listening" "$limits" \
		>"$work/out" 2>"$work/err" </dev/null
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	if [ "$(value status)" != 0 ] || ! has 'timekeeper started: daemon' err; then
		fail "$1" "status $(value status), or the launch started no daemon"; show
	elif [ "$(value environ)" != 0 ] || [ "$(value notified)" != 0 ]; then
		fail "$1" "the daemon has $(value environ) of the service's variables and sent $(value notified) notifications"
	elif [ "$(value nice)" != 0 ] || [ "$(value files)" != "$files" ] ||
		[ "$(value cpu)" != unlimited ]; then
		fail "$1" "the daemon runs at nice $(value nice), with files $(value files), CPU time $(value cpu)"
	else
		pass "$1"
	fi
}

# A daemon with few descriptors (a hard limit of 160: 96 launches in
# all) serves a user no more than half of them, and a launch past that
# says which limit it met.  Root in a user namespace cannot raise the
# limit, as no user can.
check_user_share() { # NAME PROBE
	can_be_root_alone "$1" || return 0
	hold='import os, socket, struct, sys, time
r, w = os.pipe()
for i in range(60):
    if os.fork() == 0:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        h = s.recv(32)
        os.write(w, b"R" if len(h) == 32 and struct.unpack("=IIiIQII", h)[5] & 2 else b"S")
        time.sleep(30)
        os._exit(0)
os.close(w)
got = b""
while len(got) < 60:
    got += os.read(r, 60)
print("served=%d refused=%d" % (got.count(b"S"), got.count(b"R")), flush=True)'
	unshare -Urmn sh -u -c '
		mount -t tmpfs -o mode=755 none /run
		prlimit --nofile=160:160 "$1" --system --idle-exit=30 2>/dev/null &
		daemon=$!
		for i in $(seq 100); do [ -S /run/ppctime/timekeeperd.sock ] && break; sleep 0.1; done
		/usr/bin/python3 -c "$4" /run/ppctime/timekeeperd.sock &
		holder=$!
		for i in $(seq 100); do grep -q served= "$5" && break; sleep 0.1; done
		env -u PPCTIME_TIMEKEEPERD -u XDG_RUNTIME_DIR "$2" -v "$3" vdso
		echo "launch=$?"
		pkill -P $holder; kill $holder $daemon' \
		sh "$top_builddir/timekeeperd/ppctime-timekeeperd" "$run" "$2" "$hold" "$work/out" \
		>"$work/out" 2>"$work/err" </dev/null
	if [ -z "$(value served)" ] || [ "$(value launch)" != 0 ]; then
		fail "$1" "status $(value launch), or the connections were not made"; show
	elif [ "$(value served)" -ne 48 ] || [ "$(value refused)" -ne 12 ]; then
		fail "$1" "$(value served) of 60 served, $(value refused) refused (48 and 12 expected: half of 96)"
	elif ! has 'private timekeeper' err || ! has 'serves no more launches of this user now (48 at most)' err; then
		fail "$1" "the launch past the limit did not say which"; show_err
	else
		pass "$1 (48 of 96 for one user; the next refused, saying so)"
	fi
}

# A daemon's own directory that others may write is refused: they could
# replace its socket.
check_open_socket_dir_refused() { # NAME PROBE
	d=$work/$1
	mkdir -m 777 "$d"
	timeout 10 "$top_builddir/timekeeperd/ppctime-timekeeperd" --socket-dir="$d" --idle-exit=1 \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
	if [ "$status" -eq 1 ] && has "$d has mode 777: others may write there" err &&
		[ ! -e "$d/timekeeperd.sock" ]
	then pass "$1"
	else fail "$1" "status $status, a socket made, or no reason given"; show_err; fi
}

# Inside a user namespace with no uid map every unmapped user shows as
# the overflow uid, the launch's own uid there: a daemon of another user
# (uid 2002, in a mount namespace where the directory is its own) on the
# victim's abstract name must not be taken for the victim's.
check_unmapped_user() { # NAME PROBE
	can_act_as_others "$1" -Umn || return 0
	d=$work/$1
	mkdir -m 700 "$d"
	# Over $work, in a mount namespace of its own: the same directory, its;
	# --system: it serves anyone on the name.
	attacker='mount -t tmpfs -o mode=755 none "${1%/*}"
		mkdir -m 700 "$1" && chown 2002:2002 "$1" && cp "$2" "$1.daemon" &&
		exec setpriv --reuid=2002 --regid=2002 --clear-groups "$1.daemon" \
			--system --socket-dir="$1" --idle-exit=20'
	unshare -n sh -u -c '
		unshare -m sh -c "$5" sh "$1" "$2" 2>/dev/null &
		attacker=$!
		for i in $(seq 50); do grep -q "@$1/timekeeperd.sock" /proc/net/unix && break; sleep 0.1; done
		PPCTIME_TIMEKEEPERD=$1 unshare -U "$3" -v "$4" vdso
		echo "status=$?"
		kill $attacker' sh "$d" "$top_builddir/timekeeperd/ppctime-timekeeperd" "$run" "$2" \
		"$attacker" >"$work/out" 2>"$work/err" </dev/null
	if [ "$(value status)" != 0 ]; then
		fail "$1" "status $(value status)"; show_err
	elif has 'timekeeper found' err || ! has 'overflow uid' err; then
		fail "$1" "the launch took another user's daemon as its own"; show_err
	else
		pass "$1"
	fi
}

# A daemon keeps the initial time namespace's clocks: a launch in another
# (unshare --time) keeps its own timekeeper and starts none, one outside
# never gets pages with a namespace's offsets, and one inside with a daemon
# outside never reads that daemon's.  Each compares its clock with the
# system call's.
check_time_namespaces() { # NAME PROBE
	if [ "$(id -u)" -ne 0 ] || ! unshare -T --monotonic=1 true 2>/dev/null; then
		skip "$1" "no time namespace here (unshare -T, as root)"
		return
	fi
	d=$work/$1 probe=$2
	dirs="$dirs $d"
	mkdir -m 700 "$d"
	compare() { # COMMAND ARGS...: in which to launch
		PPCTIME_TIMEKEEPERD=$d "$@" "$run" -v --host-time-syscalls "$probe" compare 300 monotonic boottime \
			>"$work/out" 2>"$work/err" </dev/null
		status=$?
		grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
		worst=$(($(value worst_monotonic) + $(value worst_boottime)))
	}
	compare unshare -T --monotonic=86400 --boottime=86400
	inside_started=$(grep -c 'timekeeper started' "$work/err")
	inside=$worst inside_status=$status
	compare env
	outside=$worst outside_status=$status
	# Back by less than the uptime: a namespace's clocks may not go below 0.
	back=$(awk '{ s = int($1 / 2); print s < 1000 ? s : 1000 }' /proc/uptime)
	compare unshare -T --monotonic=-"$back" --boottime=-"$back"
	below=$worst below_status=$status
	if [ "$inside_status$outside_status$below_status" != 000 ]; then
		fail "$1" "statuses $inside_status, $outside_status, $below_status"; show_err
	elif [ "$inside_started" -ne 0 ]; then
		fail "$1" "a launch in a time namespace started a daemon"
	elif [ "$inside" -gt 1000000 ] || [ "$outside" -gt 1000000 ] || [ "$below" -gt 1000000 ]; then
		fail "$1" "off the system call by $inside ns (+86400 s inside), $outside ns (outside), $below ns (-$back s inside)"
	else
		pass "$1"
	fi
}

# Another user holds the user's abstract name (no daemon yet): where the
# user's directory is seen, the launch starts the user's daemon there
# anyway.
check_squatted_name() { # NAME PROBE
	can_act_as_others "$1" -n || return 0
	d=$work/$1
	dirs="$dirs $d"
	mkdir -m 700 "$d"
	squat='import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind("\0" + sys.argv[1])
s.listen(8)
print("bound", flush=True)
time.sleep(30)'
	unshare -n sh -u -c '
		setpriv --reuid=2002 --regid=2002 --clear-groups /usr/bin/python3 -c "$4" \
			"$1/timekeeperd.sock" >"$1.squat" &
		squatter=$!
		for i in $(seq 100); do [ -s "$1.squat" ] && break; sleep 0.1; done
		PPCTIME_TIMEKEEPERD=$1 "$2" -v "$3" vdso
		echo "status=$?"
		kill $squatter' sh "$d" "$run" "$2" "$squat" >"$work/out" 2>"$work/err" </dev/null
	grep ' daemon [0-9]* at ' "$work/err" >>"$d.pid"
	if [ "$(value status)" = 0 ] && has 'timekeeper started: daemon' err; then
		pass "$1"
	else
		fail "$1" "status $(value status), or no daemon started beside the squatter"; show_err
	fi
}

# A launch stopped while it holds the spawn lock delays the others by a
# bounded time: they keep their own timekeepers meanwhile.
check_spawn_lock_held() { # NAME PROBE
	d=$work/$1
	mkdir -m 700 "$d"
	"$PYTHON" -c 'import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.flock(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)' "$d/spawn.lock" >"$work/held" &
	holder=$!
	for i in $(seq 100); do [ -s "$work/held" ] && break; sleep 0.1; done
	PPCTIME_TIMEKEEPERD=$d timeout 20 "$run" -v "$2" vdso >"$work/out" 2>"$work/err" </dev/null
	status=$?
	kill $holder
	if [ "$status" -eq 0 ] && has 'held by another launch' err && has 'private timekeeper' err
	then pass "$1"
	else fail "$1" "status $status (124: it waited for the lock)"; show_err; fi
}

# The daemon a launch starts is a daemon: in /, none of the launch's files
# open (stdio /dev/null, so no $(...) waits for it), also when the launch
# is short of descriptors.
check_daemonized() { # NAME PROBE
	d=$work/$1
	dirs="$dirs $d"
	mkdir -m 700 "$d" "$d.cwd"
	(cd "$d.cwd" && ulimit -Sn 9 && PPCTIME_TIMEKEEPERD=$d "$run" -v "$2" vdso) \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
	for i in $(seq 50); do [ -S "$d/timekeeperd.sock" ] && break; sleep 0.1; done
	watchdog=$(pgrep -o -f "ppctime-timekeeperd --socket-dir=$d ")
	keeper=$(pgrep -P "${watchdog:-0}" -x ppctime-tkd)
	[ -n "$keeper" ] && echo " daemon $keeper at " >>"$d.pid"
	cwd=$(readlink "/proc/$keeper/cwd") out=$(readlink "/proc/$keeper/fd/1")
	if [ "$status" -ne 0 ] || [ -z "$keeper" ]; then
		fail "$1" "status $status, or no daemon started"; show_err
	elif [ "$cwd" != / ] || [ "$out" != /dev/null ]; then
		fail "$1" "the daemon runs in '$cwd' with stdout '$out'"
	else
		pass "$1"
	fi
}

# Keeper and watchdog both stopped while a program reads the coarse clock
# (SIGSTOP; a frozen cgroup alike): the keeper's deadline kills it, so the
# program's clock stands still for KEEPER_DEADLINE_MS (400 ms) at most,
# not for as long as the daemon is stopped (2 s).
check_daemon_frozen() { # NAME PROBE
	d=$work/$1
	launch_in "$d" "$2" vdso
	keeper=$(keeper_in)
	PPCTIME_TIMEKEEPERD=$d "$run" --host-time-syscalls "$2" compare 3000 monotonic-coarse \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	freeze_keeper "$keeper"
	wait $launcher
	status=$?
	frozen_verdict "$1"
}

# A daemon exiting for idleness as a launch connects resets the
# connection: the launch starts the next daemon, as when it hangs up.
check_reset_retried() { # NAME PROBE
	d=$work/$1
	dirs="$dirs $d"
	mkdir -m 700 "$d"
	"$PYTHON" -c 'import os, select, socket, sys
path = sys.argv[1] + "/timekeeperd.sock"
s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(8)
print("listening", flush=True)
select.select([s], [], [], 20)
os.unlink(path)
s.close()' "$d" >"$work/listening" &
	fake=$!
	for i in $(seq 100); do [ -s "$work/listening" ] && break; sleep 0.1; done
	launch_in "$d" "$2" vdso
	wait $fake
	if [ "$status" -eq 0 ] && has 'timekeeper started: daemon' err
	then pass "$1"
	else fail "$1" "status $status, or the reset was not tried again"; show_err; fi
}

# The daemon's own defences, CHECK:NAME: the same for every target.
defences="check_flood:flood-bounded check_flood_updates:flood-updates-on-time
	check_started_as_service:started-as-service check_user_share:user-share-below-all
	check_open_socket_dir_refused:open-socket-dir-refused check_unmapped_user:unmapped-user-refused
	check_time_namespaces:time-namespaces check_squatted_name:squatted-name-started
	check_spawn_lock_held:spawn-lock-bounded check_daemonized:daemonized
	check_daemon_frozen:frozen-deadline check_reset_retried:reset-retried
	check_root_on_demand:root-machine-on-demand
	check_root_open_dir_refused:root-open-dir-refused
	check_system_idle_exit:system-idle-exit"
checked=
for t in $TARGETS; do
	dyn=$probes/launcher-probe-$t static=$probes/launcher-probe-static-$t
	if [ ! -x "$dyn" ] || [ ! -x "$top_builddir/timekeeperd/ppctime-timekeeperd" ]; then
		case_add skip "timekeeperd-$t" "the probes or the daemon not built"
		continue
	fi
	case_add check_started_then_found "daemon-started-then-found-$t" "$dyn"
	case_add check_vdso_used "daemon-vdso-used-$t" "$dyn"
	case_add check_vdso_used "daemon-vdso-used-static-$t" "$static"
	case_add check_layouts "daemon-layouts-$t" "$t" "$dyn"
	case_add check_private_for_options "daemon-private-for-options-$t" "$dyn"
	case_add check_daemon_loss "daemon-killed-$t" KILL "$dyn"
	case_add check_daemon_loss "daemon-stalled-$t" STOP "$static"
	case_add check_stuck_replaced "daemon-stuck-replaced-$t" "$dyn"
	case_add check_launch_watched "daemon-watches-launch-$t" "$t" "$dyn"
	case_add check_open_dir_refused "daemon-open-dir-refused-$t" "$dyn"
	case_add check_machine_daemon "daemon-machine-socket-activated-$t" "$dyn"
	case_add check_name_serves_user_only "daemon-name-serves-user-only-$t" "$dyn"
	checked=$dyn
done
# The daemon's own defences, once if a target ran: they are the same for
# every target.
if [ -n "$checked" ]; then
	for defence in $defences; do
		case_add "${defence%%:*}" "daemon-${defence#*:}" "$checked"
	done
fi
run_cases
exit $failed
