# SPDX-License-Identifier: LGPL-2.1-or-later
"""The QEMU measurer: start-up and clock_gettime's cost, plain QEMU
against ppctime-run, under each QEMU it runs, side by side: configure's
(Debian 12's dynamic QEMU 7.2, Debian 13's static 10) and the second QEMU
of the other kind (tests/second-qemu, make second-qemu-fetch); and
start-up as root without systemd
(root-startup, in namespaces of its own)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import die, progress, trees
from .keeper import end_daemon, in_turn
from .machine import first_line
from .measure import Progress, bench_duration, bench_reps, run
from .records import parse_qemu_config, qemu_config, record

# vdsotest's benchmark measured here: the clock every program reads.
CLOCK_BENCH, CLOCK = "clock-gettime-monotonic", "MONOTONIC"
# Where the machine's daemon lives (ppctime-run(1)).
MACHINE_DAEMON = "/run/ppctime"
# What the measurer knows besides its figures, per target: the QEMUs'
# versions, why one was not measured, which timekeeper served the first
# launch as root, the rounds, how long it took.
NOTES = "qemu-{}.json"


def quiet_env(**more):
    """Our environment without what would choose a QEMU or a daemon for
    ppctime-run behind the measurer's back, with MORE."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PPCTIME_QEMU", "PPCTIME_TIMEKEEPERD", "XDG_RUNTIME_DIR")}
    env.update(more)
    return env


def qemus(target, description):
    """[(version, its --version line, its path, plain QEMU's command,
    ppctime-run's options)]: configure's QEMU, then the second QEMU where
    it can be had; and why not where it cannot."""
    name = os.path.basename(description["qemu"])
    configured = trees.TREE.qemu(target, description)
    if not configured:
        die(f"{target}: no {name} (Debian package qemu-user)")
    candidates = [(configured, [])]
    directory, why = trees.TREE.second_qemu_dir()
    if directory:
        if os.access(os.path.join(directory, name), os.X_OK):
            candidates.append((os.path.join(directory, name), [f"--qemu={directory}"]))
        else:
            why = f"no {name} in {directory}"
    found = []
    for qemu, options in candidates:
        line = first_line([qemu, "--version"])
        m = re.search(r" version (\S+)", line)
        if not m:
            die(f"{qemu} --version: no version in '{line}'")
        if found and m.group(1) == found[0][0]:
            why = f"{qemu} is {m.group(1)}, as configure's QEMU is"
            continue
        found.append((m.group(1), line, qemu,
                      [qemu, "-L", f"/usr/{description['triplet']}"], options))
    return found, why


def launches(found):
    """(who, version, command) of each launch in a round: each QEMU plain,
    then under ppctime-run."""
    return [(who, version, command) for version, _, _, plain, options in found
            for who, command in (("plain", plain), ("ppctime-run", [trees.TREE.run] + options))]


def timed(command, env, what):
    """COMMAND's wall time in ms, and its standard error."""
    begin = time.perf_counter()
    p = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    ms = (time.perf_counter() - begin) * 1000
    if p.returncode != 0:
        die(f"{what} failed (status {p.returncode}): {p.stderr.strip()[-500:]}")
    return ms, p.stderr


def startup_records(target, entry, rounds):
    """Each round's {config: ms} as records, with each ppctime-run's ratio
    to its QEMU's plain run in the same round."""
    records = []
    for rep, wall in enumerate(rounds):
        for config, ms in wall.items():
            records.append(record("qemu", target, config, entry, None, "wall_ms", "ms", ms,
                                  False, rep))
            who, version, _ = parse_qemu_config(config)
            if who != "plain":
                records.append(record("qemu", target, config, entry, None, "vs_plain_qemu", "x",
                                      ms / wall[qemu_config("plain", version)], False, rep))
    return records


def served_by(stderr):
    """Which timekeeper served a launch, from what ppctime-run -v said."""
    m = re.search(r"shared timekeeper (found|started): daemon", stderr)
    if m:
        return "daemon" if m.group(1) == "found" else "daemon-started"
    return "private-keeper" if "private timekeeper" in stderr else "unknown"


def root_startup(target, sleeper, found, rounds):
    """Start-up as root without systemd, where ppctime-run finds what the
    machine's daemon under /run/ppctime gives (command_root_startup, in a
    user, mount and network namespace of its own, so nothing on the
    machine changes): {"first": who served the first launch, "rounds":
    [{config: ms}]}, or None and why."""
    try:
        p = subprocess.run(["unshare", "-Urmn", sys.executable, trees.TREE.script,
                            "root-startup", target, str(rounds), sleeper,
                            json.dumps([[v, plain, options] for v, _, _, plain, options in found])],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return None, f"unshare: {e.strerror} (Debian package util-linux)"
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["unshare -Urmn failed"])[-1]
    return json.loads(p.stdout), None


def command_root_startup(args):
    """root_startup()'s measurer, in its namespaces, as root: a fresh tmpfs
    on /run (no systemd, no daemon yet), neither XDG_RUNTIME_DIR nor
    PPCTIME_TIMEKEEPERD, and the abstract socket names a network namespace
    of its own (neither the machine's daemon found nor one left to it).
    The first launch, which may start the daemon, is not timed; each
    launch says (-v) which timekeeper served it, its config says so."""
    found = [(v, None, None, plain, options) for v, plain, options in json.loads(args.qemus)]
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=755", "tmpfs", "/run"],
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        die(f"mount -t tmpfs tmpfs /run: {p.stderr.strip()[-300:]}")
    env = quiet_env()
    turns = launches(found)
    rounds = []
    try:
        first = served_by(timed(turns[1][2] + ["-v", args.sleeper, "0"], env,
                                "the first launch as root")[1])
        for rep in range(args.rounds):
            wall = {}
            for who, version, command in in_turn(turns, rep):
                verbose = ["-v"] if who != "plain" else []
                ms, err = timed(command + verbose + [args.sleeper, "0"], env,
                                f"start-up as root, {who} QEMU {version}")
                wall[qemu_config(who, version, served_by(err) if verbose else None)] = ms
            rounds.append(wall)
    finally:
        end_daemon(MACHINE_DAEMON)
    json.dump({"first": first, "rounds": rounds}, sys.stdout)


def measure_qemu(target, description, out):
    """Under each QEMU, side by side: start-up of a program that reads the
    clock and exits, plain QEMU against ppctime-run with a daemon of its
    own already running (2 x BENCH_REPS rounds); clock_gettime
    (MONOTONIC) ns per call, syscall(2) under plain QEMU against the vDSO
    entry under ppctime-run, and the C library's (BENCH_REPS rounds of
    vdsotest, BENCH_DURATION / 5 s a loop); start-up as root without
    systemd (2 x BENCH_REPS rounds).  The launches take turns in each
    round, each round begun by another.  The versions, and why a QEMU or
    the root's start-up was not measured, go into OUT/qemu-TARGET.json."""
    begin = time.monotonic()
    reps = bench_reps("BENCH_REPS", 5, 5)
    seconds = bench_duration() / 5
    sleeper = trees.TREE.program("sleeper", target)
    vdsotest = trees.TREE.program("vdsotest", target)
    for program in (sleeper, vdsotest):
        if not os.access(program, os.X_OK):
            die(f"no {program}: make it first")
    found, why = qemus(target, description)
    if why:
        progress(f"{target}: the second QEMU not measured: {why}")
    turns = launches(found)
    steps = Progress(f"{target}: QEMU {' and '.join(v for v, *_ in found)},", 3 * reps + 1)
    directory = tempfile.mkdtemp(prefix="ppctime-bench-qemu-")
    env = quiet_env(PPCTIME_TIMEKEEPERD=directory)
    records, rounds = [], []
    try:
        timed(turns[1][2] + [sleeper, "0"], env, f"{target}: the daemon's first launch")
        for rep in range(2 * reps):
            steps.step(f"start-up run {rep + 1}/{2 * reps}")
            wall = {}
            for who, version, command in in_turn(turns, rep):
                wall[qemu_config(who, version)] = timed(
                    command + [sleeper, "0"], env,
                    f"{target}: start-up, {who} QEMU {version}")[0]
            rounds.append(wall)
        records += startup_records(target, "start-up", rounds)
        for rep in range(reps):
            steps.step(f"clock_gettime run {rep + 1}/{reps}")
            for who, version, command in in_turn(turns, rep):
                config = qemu_config(who, version)
                output = run(command + [vdsotest, f"{seconds:g}", CLOCK_BENCH],
                             f"{target}: vdsotest, {config}", env=env)
                ns = dict(re.findall(rf"^{CLOCK_BENCH}: (\w+): ([0-9.]+) nsec/call$", output, re.M))
                entry = "syscall" if who == "plain" else "vdso"
                if entry not in ns or "libc" not in ns:
                    die(f"{target}: vdsotest, {config}: no {entry} and libc lines: {output}")
                for metric, method in (("ns_per_call", entry), ("ns_per_call_libc", "libc")):
                    records.append(record("qemu", target, config, "clock_gettime", CLOCK, metric,
                                          "ns", float(ns[method]), False, rep))
    finally:
        end_daemon(directory)
        shutil.rmtree(directory, ignore_errors=True)
    steps.step(f"start-up as root without systemd, {2 * reps} runs")
    root, root_why = root_startup(target, sleeper, found, 2 * reps)
    if root:
        records += startup_records(target, "start-up as root", root["rounds"])
    else:
        progress(f"{target}: no start-up as root measured: {root_why}")
    notes = {"target": target,
             "qemus": [{"version": v, "line": line, "path": path} for v, line, path, _, _ in found],
             "second_qemu_why": why, "root_why": root_why, "root_first": root and root["first"],
             "rounds": {"start-up": 2 * reps, "clock_gettime": reps, "start-up as root": 2 * reps},
             "vdsotest_seconds": seconds, "seconds": time.monotonic() - begin}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, NOTES.format(target)), "w") as f:
        json.dump(notes, f, indent=1)
        f.write("\n")
    return records


def read_notes(out, target):
    """measure_qemu's notes on TARGET, or None."""
    try:
        with open(os.path.join(out, NOTES.format(target))) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
