# SPDX-License-Identifier: GPL-2.0
"""The machine each target boots on under qemu-system, described once for
tests/boot/boot-test (the project's harness) and tests/boot/lava-jobs (the
same boots as LAVA jobs, whose QEMU device type builds the command line from
the job's context): firmware and its Debian package, machine, CPU, CPUs,
memory and console.

ppc64 and ppc64le: a pseries guest, 2 vCPUs (SLOF).  ppc32: a Power Mac G4
(mac99, OpenBIOS), Debian's powerpc flavour (book3s 32); QEMU gives it one
CPU."""
from collections import namedtuple

# arch: LAVA's name for the qemu-system binary, qemu-system-ARCH.
Machine = namedtuple("Machine", "firmware package arch machine cpu smp memory console")

PSERIES = Machine("/usr/share/qemu/slof.bin", "qemu-slof", "ppc64", "pseries", "power9", 2, 512,
                  "hvc0")
MACHINES = {
    "ppc64le": PSERIES,
    "ppc64": PSERIES,
    "ppc32": Machine("/usr/share/qemu/openbios-ppc", "openbios-ppc", "ppc", "mac99", None, 1, 512,
                     "ttyPZ0"),
}
# What every boot adds: the console on stdio, no monitor (what LAVA's QEMU
# device type gives itself), no display, and the guest's power-off (or
# reboot) ends QEMU (what a LAVA job asks of it).
LAVA_EXTRA_OPTIONS = [["-vga", "none"], ["-no-reboot"]]
COMMON_OPTIONS = ["-nographic", "-monitor", "none"] + sum(LAVA_EXTRA_OPTIONS, [])


def cpu_options(m):
    """The options past the machine and memory: CPU model and count."""
    return (["-cpu", m.cpu] if m.cpu else []) + (["-smp", str(m.smp)] if m.smp > 1 else [])


def qemu_command(qemu, target, kernel, initrd):
    """The harness's qemu-system command line for TARGET."""
    m = MACHINES[target]
    return [qemu, "-M", m.machine, *cpu_options(m), "-m", str(m.memory), *COMMON_OPTIONS,
            "-kernel", kernel, "-initrd", initrd, "-append", f"console={m.console}"]
