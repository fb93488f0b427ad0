# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the figures ran on: OUT/machine.json, written by the machine
command, and its lines in the report and the comparison."""

import datetime
import json
import os
import platform
import subprocess

from . import trees
from .measure import bench_duration, bench_reps


def first_line(command):
    try:
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def command_machine(args):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    tree, descriptions = trees.TREE, trees.read_targets()
    qemu = next((q for t in tree.targets if (q := tree.qemu(t, descriptions[t]))), "qemu-ppc64le")
    machine = {"cpu": cpu, "cpus": os.cpu_count(), "host_kernel": platform.release(),
               "qemu": first_line([qemu, "--version"]),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "bench_duration_s": bench_duration(), "bench_reps": bench_reps("BENCH_REPS", 5, 5)}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "machine.json"), "w") as f:
        json.dump(machine, f, indent=2)
        f.write("\n")


def machine_lines(machine):
    if not machine:
        return ["(no machine.json: the figures' machine is unknown)"]
    return [f"- CPU: {machine['cpu']} ({machine['cpus']} CPUs)",
            f"- host kernel: Linux {machine['host_kernel']}",
            f"- QEMU: {machine['qemu']}",
            f"- date: {machine['date']}",
            f"- BENCH_DURATION {machine['bench_duration_s']} s, BENCH_REPS {machine['bench_reps']}"]


def read_machine(directory):
    path = os.path.join(directory, "machine.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return None
