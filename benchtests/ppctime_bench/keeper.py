# SPDX-License-Identifier: LGPL-2.1-or-later
"""The timekeeper measurer: what keeping time costs, start-up (in the
tree and in a foreign chroot, chroot-startup) and the keepers' CPU."""

import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

from . import die, progress, trees
from .measure import DEGRADED, Progress, bench_duration, bench_reps
from .records import record


def cpu_ns(pid):
    """Time on CPU of every thread of pid so far (schedstat, ns)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
    except OSError:
        pass
    return total


def proc_field(pid, name):
    """comm, or the parent's pid (ppid), of pid; None once it is gone."""
    try:
        if name == "comm":
            with open(f"/proc/{pid}/comm") as f:
                return f.read().strip()
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def children(parents, comm):
    """Children named comm of the processes parents: ours, no one else's."""
    return [int(p) for p in os.listdir("/proc")
            if p.isdigit() and proc_field(int(p), "ppid") in parents
            and proc_field(int(p), "comm") == comm]


def tagged_keepers(tag):
    """[keepers..., their watchdogs...] of the launches run with -0 tag:
    detached from the launch, which becomes QEMU, the keeper and its
    watchdog keep its command line."""
    keepers = []
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                tagged = f"\0-0\0{tag}\0".encode() in f.read()
        except OSError:
            continue
        if tagged and proc_field(int(p), "comm") == "ppctime-tk":
            keepers.append(int(p))
    return keepers + [proc_field(k, "ppid") for k in keepers]


def daemon_pids(directory):
    """[keeper, watchdog] of the daemon serving directory: the socket's
    peer is the watchdog (it bound it before forking), the keeper its
    child."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(os.path.join(directory, "timekeeperd.sock"))
        watchdog = struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                    struct.calcsize("3i")))[0]
    except OSError:
        return []
    finally:
        s.close()
    if watchdog <= 1 or proc_field(watchdog, "comm") != "ppctime-timekee":
        return []
    return children({watchdog}, "ppctime-tkd") + [watchdog]


def end_daemon(directory):
    """SIGTERM to the watchdog: it ends its keeper, and the socket goes."""
    pids = daemon_pids(directory)
    if pids:
        os.kill(pids[-1], signal.SIGTERM)
    deadline = time.monotonic() + 2
    while daemon_pids(directory) and time.monotonic() < deadline:
        time.sleep(0.01)


def keeper_cpu(target, sleeper, programs, window, private, env, directory):
    """% of one core the keepers (with their watchdogs) and the launches'
    processes (QEMU) take over window seconds while programs sleepers
    sleep; and how many launches lost their keeper (DEGRADED)."""
    tag = f"ppctime-bench-{os.getpid()}"
    options = ["-0", tag] + (["--private-timekeeper"] if private else [])
    settle = 1.0 + programs * 0.06       # every launch up before the window
    nap = settle + window + 1.0
    procs = [subprocess.Popen([trees.TREE.run] + options + [sleeper, str(nap)], env=env,
                              stderr=subprocess.PIPE, text=True) for _ in range(programs)]
    time.sleep(settle)
    launchers = [p.pid for p in procs]
    keepers = tagged_keepers(tag) if private else daemon_pids(directory)
    start = time.monotonic()
    k0, l0 = {p: cpu_ns(p) for p in keepers}, {p: cpu_ns(p) for p in launchers}
    time.sleep(window)
    k1, l1 = {p: cpu_ns(p) for p in keepers}, {p: cpu_ns(p) for p in launchers}
    span = time.monotonic() - start
    degraded = 0
    for p in procs:
        err = p.communicate()[1]
        if p.returncode != 0:
            die(f"{target}: {sleeper} failed (status {p.returncode}): {err.strip()[-500:]}")
        degraded += DEGRADED in err
    if not keepers:
        die(f"{target}: no {'private keeper' if private else 'shared daemon'} found to measure")

    def percent(a, b):
        return 100.0 * sum(b[p] - a.get(p, b[p]) for p in b) / (span * 1e9)
    return percent(k0, k1), percent(l0, l1), degraded


def in_turn(turns, rep):
    """turns, round rep's way: each round begun by the next, so that none
    gains from going first."""
    first = rep % len(turns)
    return turns[first:] + turns[:first]


def chroot_startup(target, description, sleeper, reps):
    """Start-up in a foreign chroot, where ppctime-run's entries (flags OPF)
    run a program with the static QEMU in their handler and find the
    daemon by its abstract name, against that QEMU run in the tree: in a
    user and mount namespace of its own (chroot-startup), so nothing on the
    machine changes.  {config: [ms per round]}, or None and why."""
    static, why = trees.TREE.static_qemu_dir()
    if not static:
        return None, why
    p = subprocess.run(["unshare", "-Urm", sys.executable, trees.TREE.script,
                        "chroot-startup", target, str(reps), static, sleeper],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["unshare -Urm failed"])[-1]
    return json.loads(p.stdout), None


def command_chroot_startup(args):
    """chroot_startup()'s measurer, in its namespace: a binfmt_misc of its
    own with ppctime-run's entries, a tree of the target's own (Debian's
    cross C library, the sleeper, the static QEMU), the user's daemon
    started outside the tree, and each configuration's turn in each round,
    the order turning as measure_timekeeper's does."""
    description = trees.read_targets()[args.target]
    qemu = os.path.join(args.static, os.path.basename(description["qemu"]) + "-static")
    work = tempfile.mkdtemp(prefix="ppctime-bench-chroot-")
    root, directory = os.path.join(work, "root"), os.path.join(work, "tkd")
    daemon = dict(os.environ, PPCTIME_TIMEKEEPERD=directory)
    turns = [("plain-qemu-static", ["/bin/qemu", "/bin/sleeper", "0"], os.environ),
             ("daemon-running", ["/bin/sleeper", "0"], daemon),
             ("private-keeper", ["/bin/sleeper", "0"], dict(os.environ, PPCTIME_TIMEKEEPERD="off"))]
    times = {config: [] for config, _, _ in turns}
    try:
        for command in (["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"],
                        [trees.TREE.run, "--binfmt-register", f"--static-qemu={args.static}"],
                        [trees.TREE.run, args.sleeper, "0"]):
            p = subprocess.run(command, env=daemon, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                die(f"{' '.join(command)}: {p.stderr.strip()[-300:]}")
        for lib in ("lib", "lib64"):
            if os.path.isdir(f"/usr/{description['triplet']}/{lib}"):
                shutil.copytree(f"/usr/{description['triplet']}/{lib}",
                                os.path.join(root, lib), symlinks=True)
        os.makedirs(os.path.join(root, "bin"), exist_ok=True)
        shutil.copy(args.sleeper, os.path.join(root, "bin", "sleeper"))
        shutil.copy(qemu, os.path.join(root, "bin", "qemu"))
        for rep in range(args.reps):
            for config, command, env in in_turn(turns, rep):
                begin = time.perf_counter()
                p = subprocess.run(["chroot", root] + command, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
                times[config].append((time.perf_counter() - begin) * 1000)
                if p.returncode != 0:
                    die(f"{config} in a chroot failed: {p.stderr.strip()[-300:]}")
    finally:
        end_daemon(directory)
        shutil.rmtree(work, ignore_errors=True)
    json.dump(times, sys.stdout)


def measure_timekeeper(target, description, out):
    """What keeping time costs: start-up against plain QEMU, the modes
    taking turns in each repetition, the same in a foreign chroot, and the
    keepers' CPU while 1, 10 and 100 programs sleep, a keeper per launch
    against the shared one.  The daemon is one of its own
    (PPCTIME_TIMEKEEPERD), never the user's or the machine's."""
    duration = bench_duration()
    # Start-ups are short: four rounds for each of the timings' runs.
    reps = 4 * bench_reps("BENCH_REPS", 5, 5)
    window = max(0.2, 100 * duration)       # 10 s by default
    counts = (1, 10, 100) if duration >= 0.05 else (1, 2)
    sleeper = trees.TREE.program("sleeper", target)
    qemu = trees.TREE.qemu(target, description)
    if not os.access(sleeper, os.X_OK):
        die(f"no {sleeper}: make it first")
    if not qemu:
        die(f"{target}: no {description['qemu']} (Debian package qemu-user)")
    directory = tempfile.mkdtemp(prefix="ppctime-bench-timekeeper-")
    env = dict(os.environ, PPCTIME_TIMEKEEPERD=directory)
    # Each round starts with another of these, so that none gains from
    # going first; the daemon's two stay in order, one started, one not.
    turns = [
        [("plain-qemu", [qemu, "-L", f"/usr/{description['triplet']}"], None)],
        [("no-vdso", [trees.TREE.run, "--no-vdso"], None)],
        [("private-keeper", [trees.TREE.run, "--private-timekeeper"], None)],
        [("daemon-started", [trees.TREE.run], lambda: end_daemon(directory)),
         ("daemon-running", [trees.TREE.run], None)],
    ]
    steps = Progress(f"{target}: timekeeper,", reps + 1 + 2 * len(counts))
    records = []
    try:
        for rep in range(reps):
            steps.step(f"start-up run {rep + 1}/{reps}")
            wall = {}
            for turn in in_turn(turns, rep):
                for config, command, before in turn:
                    if before:
                        before()
                    begin = time.perf_counter()
                    p = subprocess.run(command + [sleeper, "0"], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       text=True)
                    wall[config] = (time.perf_counter() - begin) * 1000
                    if p.returncode != 0:
                        die(f"{target}: start-up under {config} failed: "
                            f"{p.stderr.strip()[-500:]}")
            for config, ms in wall.items():
                records.append(record("timekeeper", target, config, "start-up", None,
                                      "wall_ms", "ms", ms, False, rep))
                records.append(record("timekeeper", target, config, "start-up", None,
                                      "vs_plain_qemu", "x", ms / wall["plain-qemu"], False, rep))
        steps.step(f"start-up in a chroot, {reps} runs")
        chroot, why = chroot_startup(target, description, sleeper, reps)
        if not chroot:
            progress(f"{target}: no start-up in a chroot measured: {why}")
        for rep, plain in enumerate((chroot or {}).get("plain-qemu-static", [])):
            for config, runs in chroot.items():
                records.append(record("timekeeper", target, config, "start-up in a chroot", None,
                                      "wall_ms", "ms", runs[rep], False, rep))
                records.append(record("timekeeper", target, config, "start-up in a chroot", None,
                                      "vs_plain_qemu", "x", runs[rep] / plain, False, rep))
        for programs in counts:
            for config, private in (("private-keeper", True), ("daemon-running", False)):
                steps.step(f"keeper CPU, {programs} programs, {config}")
                keeper, launchers, degraded = keeper_cpu(target, sleeper, programs, window,
                                                         private, env, directory)
                entry = f"{programs} program{'s' if programs > 1 else ''} asleep"
                for metric, unit, value in (("keeper_cpu_pct", "% of a core", keeper),
                                            ("launch_cpu_pct", "% of a core", launchers),
                                            ("launches_degraded", "launches", degraded)):
                    records.append(record("timekeeper", target, config, entry, None,
                                          metric, unit, value, False))
    finally:
        end_daemon(directory)
        shutil.rmtree(directory, ignore_errors=True)
    return records
