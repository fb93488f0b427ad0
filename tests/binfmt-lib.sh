# SPDX-License-Identifier: GPL-2.0
# Sourced by binfmt-test.sh and chroot-test.sh, after test-lib.sh: what
# both ask of a program run through a binfmt_misc entry of ours.  The
# cases write "$work/out" and "$work/err"; $run is ppctime-run.

# CMD... vdso: the vDSO, and clock_gettime through it.
check_vdso() { # NAME CMD...
	name=$1
	shift
	"$@" vdso >"$work/out" 2>"$work/err"
	status=$?
	ehdr=$(value sysinfo_ehdr)
	if [ "$status" -eq 0 ] && [ "${ehdr:-0}" != 0 ] && [ "$(value clock_gettime)" = 0 ]
	then pass "$name"
	else fail "$name" "status $status, AT_SYSINFO_EHDR ${ehdr:-none}"; show_err; fi
}

# A script in FILE whose interpreter is the powerpc SHELL, run as CMD...:
# the kernel runs SHELL through the handler, and the PROBE it runs through
# it again, which gets the vDSO and makes no time system call.
check_script() { # NAME FILE SHELL PROBE CMD...
	name=$1
	printf '#!%s\n# a comment\n%s vdso\n%s calls 1000 monotonic\n' "$3" "$4" "$4" >"$2"
	chmod +x "$2"
	shift 4
	QEMU_STRACE=1 "$@" >"$work/out" 2>"$work/err"
	status=$?
	ehdr=$(value sysinfo_ehdr)
	calls=$(grep -c 'clock_gettime' "$work/err")
	if [ "$status" -ne 0 ] || [ "${ehdr:-0}" = 0 ]; then
		fail "$name" "status $status, AT_SYSINFO_EHDR ${ehdr:-none}"; show_err
	elif [ "$calls" -ne 0 ]; then
		fail "$name" "$calls clock_gettime system calls"
	else
		pass "$name (0 time system calls)"
	fi
}

# The data pages' inodes in "$work"/err* (the probe's maps lines).
data_pages() { sed -n 's|.* \([0-9][0-9]*\)  */memfd:ppctime-vdso-data-.*|\1|p' "$work"/err* | sort -u; }

# CMD... vdso, 20 at once: each gets the vDSO, and all read one data page
# (PAGE's inode, if given).
check_many() { # NAME PAGE CMD...
	name=$1 want=$2
	shift 2
	rm -f "$work"/err*
	for i in $(seq 20); do
		"$@" vdso >"$work/out.$i" 2>"$work/err.$i" &
	done
	wait
	count=$(data_pages | wc -l) pages=$(data_pages | tr '\n' ' ')
	with=$(grep -l '^sysinfo_ehdr=0x[1-9a-f]' "$work"/out.* | wc -l)
	rm -f "$work"/out.* "$work"/err.*
	if [ "$with" -eq 20 ] && [ "$count" -eq 1 ] && [ "${want:-${pages% }}" = "${pages% }" ]
	then pass "$name (20 programs, one data page${want:+: the daemon's})"
	else fail "$name" "$with of 20 with a vDSO, data pages '$pages'${want:+, the daemon's '$want'}"; fi
}

# ppctime-run PROGRAM still works while the entries are registered.
check_old_form() { # NAME PROBE
	check_vdso "$1" "$run" "$2"
}
