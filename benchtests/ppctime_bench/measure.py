# SPDX-License-Identifier: LGPL-2.1-or-later
"""The measurers of instructions per call (insn-count), of the
microbenchmarks' timings and of glibc's benchtests: each runs its
programs on one target and returns its records."""

import glob
import json
import os
import re
import shutil
import subprocess
import time

from . import die, progress, trees
from .mca import streams_path
from .records import SYSROOT_GLIBC, linux_config, record


class Progress:
    """'k of n, about S s left', from the time the first k took."""

    def __init__(self, what, total):
        self.what, self.total, self.done, self.start = what, total, 0, time.monotonic()

    def step(self, detail):
        if self.done:
            left = (time.monotonic() - self.start) / self.done * (self.total - self.done)
            eta = f", ~{left:.0f} s left"
        else:
            eta = ""
        self.done += 1
        progress(f"{self.what} {self.done}/{self.total}: {detail}{eta}")


# What ppctime-run's watchdog says when it stops a late timekeeper: from
# then on the run measured the system-call fallback, not the vDSO.
DEGRADED = "clocks now served by the system call"


def run(command, what, attempts=3, env=None):
    """COMMAND's standard output (in ENV, default ours); a run the
    timekeeper failed in (a machine too busy to schedule it) is discarded
    and made again."""
    for attempt in range(1, attempts + 1):
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env)
        if p.returncode != 0:
            die(f"{what} failed (status {p.returncode}): {(p.stdout + p.stderr).strip()[-2000:]}")
        degraded = next((line for line in p.stderr.splitlines() if DEGRADED in line), None)
        if not degraded:
            return p.stdout
        progress(f"{what}: {degraded}; run {attempt} of {attempts} discarded")
    die(f"{what}: the timekeeper failed in {attempts} runs in a row: the machine is too busy")


def seed_variants(description):
    """The seeds' designs built for the benchmarks (benchtests/seeds/)."""
    found = []
    for name in trees.seed_names():
        image = f"benchtests/seeds/{name}/{description['image']}.so"
        if os.path.exists(image):
            found.append((name, image))
    return found


def linux_runs(description):
    """Linux's own images of the target, the newest first: (config,
    ppctime-run's options mapping it)."""
    return [(linux_config(version), [f"--vdso={image}",
                                     f"--page-size={description['page_size_configured']}"])
            for version, image in trees.TREE.linux_images(description)]


def measure_insns(target, description, out):
    """Exact instructions per call from QEMU's exec trace (insn-count);
    ppctime's and Linux's images leave the instructions each call
    executed in OUT/streams/ for the mca measurer."""
    harness = trees.TREE.program("vdso-insns", target)
    runs = [("ppctime", harness, [])] + [(config, harness, options)
                                         for config, options in linux_runs(description)]
    streams = {config: streams_path(out, target, config) for config, _, _ in runs}
    os.makedirs(os.path.join(out, "streams"), exist_ok=True)
    for path in glob.glob(streams_path(out, target, "*")):
        os.remove(path)
    sysroot = trees.TREE.sysroot(description)
    if sysroot and os.path.exists(f"{harness}-glibc"):
        runs.append((SYSROOT_GLIBC, f"{harness}-glibc", [f"--sysroot={sysroot}"]))
    runs += [(name, harness, [f"--vdso={path}"]) for name, path in seed_variants(description)]
    steps = Progress(f"{target}: instructions per call,", len(runs))
    records = []
    for config, program, options in runs:
        steps.step(config)
        output = run([trees.TREE.insn_count] + ([f"--streams={streams[config]}"] if config in streams
                                                else []) + [trees.TREE.run, program] + options,
                     f"{target}: insn-count under {config}")
        for line in output.splitlines():
            m = re.match(r"^(\S+) (\S+) (~?)(\d+) (~?)(\d+)$", line)
            if not m:
                die(f"{target}: insn-count under {config}: a line that does not parse: {line}")
            entry, clock = m.group(1), None if m.group(2) == "-" else m.group(2)
            records.append(record("insns", target, config, entry, clock, "insns_vdso", "insns",
                                  int(m.group(4)), not m.group(3)))
            records.append(record("insns", target, config, entry, clock, "insns_libc", "insns",
                                  int(m.group(6)), not m.group(5)))
    return records


def bench_duration():
    text = os.environ.get("BENCH_DURATION", "0.1")
    try:
        duration = float(text)
    except ValueError:
        duration = 0
    if not 0 < duration <= 10:
        die(f"BENCH_DURATION must be seconds in (0, 10], not '{text}'")
    return duration


def bench_reps(variable, default, least):
    text = os.environ.get(variable, str(default))
    if not text.isdigit() or int(text) < least:
        die(f"{variable} must be an integer of {least} or more, not '{text}'")
    return int(text)


def glibc_seconds():
    """glibc's BENCH_DURATION: whole seconds per variant, BENCH_DURATION's
    whole part (default 1; 0: one batch)."""
    text = os.environ.get("BENCH_DURATION", "1")
    try:
        seconds = int(float(text))
    except ValueError:
        seconds = -1
    if not 0 <= seconds <= 60:
        die(f"BENCH_DURATION must be seconds in [0, 60], not '{text}'")
    return seconds


def parse_vdsotest(output, config):
    """vdsotest's 'NAME: METHOD: NS nsec/call' lines as (entry, clock,
    config, metric, value): the vDSO entry and syscall(2) called directly
    (ns_per_call), the C library's function (ns_per_call_libc)."""
    found = []
    for line in output.splitlines():
        m = re.match(r"^([-a-z]+): (syscall|libc|vdso): ([0-9.]+) nsec/call$", line)
        if not m:
            continue
        name, method, value = m.group(1), m.group(2), float(m.group(3))
        m2 = re.match(r"^(clock-gettime|clock-getres)-(.*)$", name)
        entry, clock = ((m2.group(1).replace("-", "_"), m2.group(2).upper().replace("-", "_"))
                        if m2 else (name, None))
        if method == "libc":
            found.append((entry, clock, config, "ns_per_call_libc", value))
        elif method == "vdso" and config != "no-vdso":
            found.append((entry, clock, config, "ns_per_call", value))
        elif method == "syscall" and config == "no-vdso":
            found.append((entry, clock, "syscall", "ns_per_call", value))
    return found


def measure_timings(target, description, out):
    """The list's microbenchmarks under each configuration, the
    configurations taking turns inside each repetition, so that a noisy
    stretch of a shared machine falls on all of them."""
    duration = bench_duration()
    reps = bench_reps("BENCH_REPS", 5, 5)
    long_seconds = 5 * duration
    tb_calls = max(1000, int(duration * 1e8))
    configs = [("ppctime", [])] + linux_runs(description) + [("no-vdso", ["--no-vdso"])]
    programs = [("vdsotest", [str(duration)]), ("tb", [str(tb_calls)]),
                ("null_syscall", [str(long_seconds)]), ("context_switch", [str(long_seconds)])]
    for program, _ in programs:
        if not os.access(trees.TREE.program(program, target), os.X_OK):
            die(f"no {trees.TREE.program(program, target)}: make it first")
    steps = Progress(f"{target}: timings,", reps * len(programs) * len(configs))
    records = []
    for rep in range(reps):
        for program, arguments in programs:
            for config, options in configs:
                steps.step(f"run {rep + 1}/{reps}, {program} under {config}")
                output = run([trees.TREE.run] + options + [trees.TREE.program(program, target)] + arguments,
                             f"{target}: {program} under {config}")
                found = parse_program(program, output, config, tb_calls)
                if not found:
                    die(f"{target}: {program} under {config}: output does not parse: {output}")
                for entry, clock, cfg, metric, value in found:
                    unit = {"switches_per_s": "switches/s", "ticks_per_call_libc": "ticks"}.get(metric, "ns")
                    records.append(record("timings", target, cfg, entry, clock, metric, unit,
                                          value, False, rep))
    return records


def parse_program(program, output, config, tb_calls):
    if program == "vdsotest":
        return parse_vdsotest(output, config)
    found = []
    for line in output.splitlines():
        if program == "tb" and (m := re.match(r"^time = ([0-9.]+)$", line)):
            found.append(("tb", None, config, "ns_per_call_libc", float(m.group(1)) * 1e9 / tb_calls))
        elif program == "null_syscall" and (
                m := re.match(r"^(ticks|ns)/call: mean = ([0-9.]+) sd = [0-9.]+$", line)):
            metric = "ticks_per_call_libc" if m.group(1) == "ticks" else "ns_per_call_libc"
            found.append(("getppid", None, config, metric, float(m.group(2))))
        elif program == "context_switch" and (m := re.match(r"^switches/s = ([0-9]+)$", line)):
            found.append(("context_switch", None, config, "switches_per_s", float(m.group(1))))
    return found


def records_from_benchout(path, target, config, rep):
    """glibc's bench.out: per function and variant, mean and min in
    timebase ticks per call."""
    with open(path) as f:
        functions = json.load(f)["functions"]
    records = []
    for function, variants in functions.items():
        for variant, figures in variants.items():
            clock = variant if function.startswith("clock_") and variant else None
            entry = f"{function}({variant})" if variant and not clock else function
            for stat in ("mean", "min"):
                records.append(record("glibc", target, config, entry, clock, f"ticks_{stat}",
                                      "ticks", figures[stat], False, rep))
    return records


def measure_glibc(target, description, out):
    """glibc's own bench machinery (glibc-bench), repeated, vDSO and
    --no-vdso taking turns inside each repetition."""
    reps = bench_reps("BENCH_GLIBC_REPS", 3, 1)
    seconds = glibc_seconds()
    if not trees.TREE.glibc:
        progress(f"{target}: no glibc benchtests: they run in a build tree's glibc (make bench)")
        return []
    if not trees.TREE.sysroot(description):
        progress(f"{target}: no glibc benchtests: no sysroot/{description['triplet']} (make sysroot)")
        return []
    records = []
    steps = Progress(f"{target}: glibc benchtests,", reps)
    for rep in range(reps):
        steps.step(f"with the vDSO, then --no-vdso, {seconds} s per variant")
        work = os.path.join(out, "glibc", f"run{rep}")
        run(["bash", os.path.join(trees.TREE.benchtests, "glibc-bench"), f"--duration={seconds}",
             f"--output={work}", target], f"{target}: glibc-bench")
        records += records_from_benchout(f"{work}/bench-{target}.out", target, "ppctime", rep)
        records += records_from_benchout(f"{work}/bench-{target}-no-vdso.out", target, "no-vdso", rep)
    # glibc's own files of the last run, as glibc's scripts made them
    for name in (f"bench-{target}.out", f"bench-{target}-no-vdso.out", f"compare_bench-{target}.txt"):
        shutil.copy(os.path.join(work, name), os.path.join(out, name))
    return records
