# SPDX-License-Identifier: LGPL-2.1-or-later
"""The render command: every record validated, then OUT/report.md,
OUT/summary-TARGET.json (validated against benchtests/summary.schema.json)
and the charts."""

import json
import os

from . import die, trees
from .charts import chart_cycles, chart_insns, chart_seeds, chart_speedup
from .machine import machine_lines, read_machine
from .mca import read_notes as read_mca_notes
from .qemu import read_notes
from .records import label, linux_configs, linux_version, read_records, validator
from .tables import (INSNS_GOAL, MCA_CPUS, SERVED, Results, critical_lines, keeper_cpu_bound,
                     mca_disagreements, seed_rows, summary_rows, table_floors, table_generic,
                     table_glibc, table_insns, table_mca, table_qemu_clock, table_qemu_startup,
                     table_seeds, table_summary, table_timings)

# The suites with tables of their own; any other gets table_generic's.
KNOWN_SUITES = ("insns", "mca", "timings", "glibc", "qemu")


def qemu_lines(res, t, notes):
    """The qemu suite's section: the QEMUs by version, or why one is
    missing; start-up and clock_gettime under each; start-up as root."""
    if not notes:
        return [f"(no qemu-{t}.json: which QEMUs these are, and what was not measured, "
                "is unknown)", "", table_qemu_startup(res, t, "start-up"),
                table_qemu_clock(res, t), table_qemu_startup(res, t, "start-up as root")]
    rounds = notes["rounds"]
    md = [f"- QEMU {q['version']}: `{q['line']}` ({q['path']})" for q in notes["qemus"]]
    if notes["second_qemu_why"]:
        md.append(f"- The second QEMU: not measured: {notes['second_qemu_why']}")
    md += ["", "Start-up of a program that reads the clock and exits, plain QEMU against",
           "ppctime-run with a daemon of the benchmark's own already running, "
           f"{rounds['start-up']} rounds,",
           "the launches taking turns, each round begun by another; the ratio is each",
           "round's ppctime-run over its plain QEMU, median [interquartile range].", "",
           table_qemu_startup(res, t, "start-up"),
           f"clock_gettime(CLOCK_MONOTONIC), ns per call (vdsotest, {notes['vdsotest_seconds']:g} s "
           f"a loop, {rounds['clock_gettime']} rounds):",
           "`entry`: syscall(2) under plain QEMU against the vDSO's entry called directly",
           "under ppctime-run; `libc`: the C library's clock_gettime under each (under",
           "a plain static QEMU through QEMU's own vDSO, which makes the system call).", "",
           table_qemu_clock(res, t),
           f"Start-up as root without systemd, {rounds['start-up as root']} rounds: root in a "
           "user, mount and network",
           "namespace of its own (`unshare -Urmn`), a fresh tmpfs on /run, neither",
           "XDG_RUNTIME_DIR nor PPCTIME_TIMEKEEPERD: a launch gets what the machine's",
           "daemon under /run/ppctime gives, started on demand, or keeps a timekeeper of",
           "its own; `timekeeper`: what `ppctime-run -v` said served each launch.", ""]
    if notes["root_why"]:
        md += [f"Not measured: {notes['root_why']}", ""]
    else:
        md += [f"The first launch, not timed, was served by "
               f"{SERVED.get(notes['root_first'], notes['root_first'])}.", "",
               table_qemu_startup(res, t, "start-up as root")]
    return md + [f"All of it took {notes['seconds']:.0f} s.", ""]


def chart_lines(chart, alt):
    """A chart's lines in the report: the PNG, the SVG linked; none if
    there was nothing to draw."""
    return [f"![{alt}]({chart[0]}) ([SVG]({chart[1]}))", ""] if chart else []


def lacks_lines(notes):
    """The calls with no figure on a model, because it lacks one of their
    instructions (llvm-mca refuses them rather than price them at nothing)."""
    lines = [f"- {label(config)}: {len(names)} call{'s' if len(names) > 1 else ''} "
             f"{'have' if len(names) > 1 else 'has'} no {dict(MCA_CPUS)[cpu]} cycles (`-` "
             f"below): LLVM {notes['llvm']}'s `{cpu}` model lacks "
             f"{'their' if len(names) > 1 else 'its'} `{insn}`."
             for config, per_cpu in (notes or {}).get("lacks", {}).items()
             for cpu, per_insn in per_cpu.items() for insn, names in per_insn.items()]
    return lines + [""] if lines else []


def mca_lines(res, t, notes, out):
    """The mca suite's section: modelled cycles beside counts and TCG
    times, what the model leaves out, the floors, where the three
    measures disagree, the critical paths."""
    llvm = f"LLVM {notes['llvm']}'s llvm-mca" if notes else "llvm-mca"
    md = ["Each vDSO entry's executed instructions, in order (the exec trace's, branches",
          f"resolved), run through {llvm} on its POWER9 and POWER10 scheduling models",
          "(`-mcpu=pwr9`, `pwr10`; POWER8's has only itineraries, which llvm-mca cannot",
          "run): `1x` cycles for one call from an empty pipeline, `b2b` cycles per call",
          "back to back (runs of 101 calls and of one differenced).  Beside them the exact",
          "instructions, what QEMU's TCG pays for besides (`branches`: each ends a",
          "translated block; `tb reads`: each a helper call reading the host's counter),",
          "and ns per call under TCG: user mode (vdsotest's entry call, median",
          "[interquartile range]) and booted (`make bench`'s kernel boots, taking turns:",
          "the median of the boots' medians [their range]).", "",
          "What the model leaves out: the timebase read is a generic `mfspr` at the",
          "model's latency, not the timebase's; `lwsync` orders nothing; every load hits",
          "the L1 at its fixed latency, no cache or TLB miss; branches are predicted",
          "perfectly and a taken one costs no fetch bubble; a call (`bl`, `bcl`) is",
          "modelled as the branch it is, its link-register write free (llvm-mca would",
          "charge a call 100 cycles); no SMT neighbour; ppc32's code on the 64-bit",
          "cores.", ""] + lacks_lines(notes) + [table_mca(res, t)]
    md += chart_lines(chart_cycles(res, out, t), "modelled cycles")
    md += ["#### Floors", "",
           "The floor: the instructions no correct implementation of the call can",
           "avoid with Linux's data page and ABI (`benchtests/ppctime_bench/floors.py`",
           "writes each out, group by group, with why): the data page found",
           "PC-relative, the clock id checked, the seqcount's loads, test and two",
           "`lwsync`s, the timebase read, the multiply and shift, the carry test,",
           "the result stores, the CR0[SO] return; its path modelled as ppctime's is.",
           "The design floor: the same path run by a generic C core behind thin",
           "assembly entries (ppctime's design, and Linux's since 5.11), which no such",
           "implementation can avoid adding: the data page's address made whole to pass",
           "it (C cannot fold a link-time displacement into its loads), the entry's",
           "`bl` and the core's `blr`; on gettimeofday 1000's reciprocal built in two",
           "instructions where the floor loads it in one (C cannot address the image).",
           "Below the design floor is hand-written assembly per call.  ppctime's",
           "distance from each, in instructions and in modelled cycles back to back.",
           f"Goal: at most {INSNS_GOAL}x the anchor's instructions, or the floor where "
           "that is below it;", "where the design floor is above both, the design floor.", "",
           table_floors(res, t)]
    disagreements = mca_disagreements(res, t)
    md += ["#### Where the measures disagree", ""]
    md += (disagreements + ["", "Modelled cycles rank what a POWER core would run; TCG time "
                            "follows QEMU's translated blocks and helper calls (`mftb` is a "
                            "helper reading the host's counter, each `blr` a lookup of the "
                            "next block), and a few ns either way under a shared host's load.",
                            ""]
           if disagreements else ["None: instructions, modelled cycles and TCG time rank "
                                  "ppctime and the anchor alike, or as `same`.", ""])
    if notes:
        md += ["#### Critical paths", "",
               "llvm-mca's bottleneck analysis, back to back: the chain that bounds a call,",
               "its first instruction then each that waits on the one before, for its",
               "result or for a unit it holds.",
               ""] + critical_lines(notes, res, t) + [""]
    return md


def linux_lines(res):
    """Which of Linux's own images the figures set ppctime beside: the
    anchor, the newest, which ratios are against, then the others; and
    why a newer version's are missing."""
    linux = linux_configs(k[4] for k in res.figures if k[0] == "insns")
    newest = trees.version_key(linux_version(linux[0])) if linux else []
    md = [f"Linux {version}'s own vDSO images: not built, its source could not be had:\n"
          f"{why.rstrip('.')}."
          for version, why in trees.TREE.linux_missing() if trees.version_key(version) > newest]
    if not linux:
        return md + ["No Linux image measured (a build tree's `make linux-vdso` builds them).", ""]
    return md + ["Linux's own vDSO images, built with the kernel's own Makefiles: ratios are",
                 f"ppctime's over {label(linux[0])}'s, the anchor"
                 + "".join(f"; {label(c)}'s beside" for c in linux[1:]) + ".", ""]


def command_render(args):
    res = Results(read_records(os.path.join(args.out, "records")))
    machine = read_machine(args.out)
    check = validator("summary.schema.json")
    md = ["# ppctime benchmark report", ""]
    md += ["Exact instruction counts from QEMU's exec trace; timings under QEMU user",
           "mode, median [interquartile range] of the runs, configurations taking",
           "turns inside each repetition; a verdict is `same` where the spreads",
           "overlap.  Speedups: how many times faster than the reference",
           "(`syscall`: syscall(2) called directly; `no-vdso`: the C library",
           "under plain QEMU, with no vDSO or, from QEMU 8.2, QEMU's own, whose",
           "entries make the system call).  `~`: the count varies between calls",
           "(the smallest).",
           "", "Machine:", ""] + machine_lines(machine) + [""] + linux_lines(res)
    md += chart_lines(chart_insns(res, args.out), "instructions per call")
    summaries = {}
    for t in res.targets:
        md += [f"## {t}", ""]
        if res.calls("insns", t):
            rows = summary_rows(res, t)
            linux = res.linux("insns", t)
            summary = {"target": t, "machine": machine, "anchor": linux[0] if linux else None,
                       "rows": rows}
            problems = [e.message for e in check.iter_errors(summary)]
            if problems:
                die(f"summary-{t}.json does not match benchtests/summary.schema.json: {problems[0]}")
            with open(os.path.join(args.out, f"summary-{t}.json"), "w") as f:
                json.dump(summary, f, indent=1)
                f.write("\n")
            summaries[t] = rows, linux
            md += [f"### Summary ([summary-{t}.json](summary-{t}.json))", "",
                   "Per C library call: the vDSO entry it reaches, called directly, against",
                   "syscall(2), ns per call (medians); instructions inside that entry; what",
                   "glibc adds around it (sysroot's glibc / Debian's; `-`: it made the",
                   "system call).", "", table_summary(rows, linux),
                   "### Instructions per call", "",
                   "Inside the vDSO, and from the C library's entry to return: Debian's",
                   "glibc (+libc) and the sysroot's built with sysdeps/ (+glibc"
                   + (", 64-bit time_t" if t == "ppc32" else "") + "); ratio: ppctime over "
                   + (f"{label(linux[0])}." if linux else "Linux."),
                   "", table_insns(res, t)]
        if res.calls("mca", t):
            md += ["### Modelled cycles", ""] + mca_lines(res, t, read_mca_notes(args.out, t),
                                                          args.out)
        # The seeds' variants: measured in a build tree only.
        if res.calls("insns", t) and len(seed_rows(res, t)) > 1:
            md += ["### The seeds' designs", "", "Instructions per call inside the vDSO.  "
                   "bcl+8 even saves an instruction: its price, mispredicted returns from "
                   "POWER8's corrupted link stack, is invisible under QEMU; seed 000 measured "
                   "4-9% of a gettimeofday call on POWER7 and POWER8.", "", table_seeds(res, t)]
            md += chart_lines(chart_seeds(res, args.out, t), "seeds")
        if res.calls("timings", t):
            md += ["### Timings", "", "Reference and speedups per call; controls should "
                   "come out `same`.", "", table_timings(res, t)]
            md += chart_lines(chart_speedup(res, args.out, t), "speedup")
        if res.calls("glibc", t):
            md += ["### glibc benchtests", "",
                   f"glibc's own bench machinery (bench-{t}.out, validated by glibc's",
                   "validate_benchout.py), timebase ticks per call, mean over each run's",
                   f"iterations, median [spread] over the runs; glibc's compare_bench.py: "
                   f"[compare_bench-{t}.txt](compare_bench-{t}.txt).", "", table_glibc(res, t)]
        if res.calls("qemu", t):
            md += ["### Each QEMU", ""] + qemu_lines(res, t, read_notes(args.out, t))
        for suite in sorted({k[0] for k in res.figures if k[1] == t} - set(KNOWN_SUITES)):
            md += [f"### {suite}", "", table_generic(res, suite, t)]
            if suite == "timekeeper":
                md += keeper_cpu_bound(res, t)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(md))
    for t, (rows, linux) in summaries.items():
        print(f"{t}: summary\n{table_summary(rows, linux)}")
    print(f"report: {os.path.join(args.out, 'report.md')}")
