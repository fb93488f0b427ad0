# SPDX-License-Identifier: LGPL-2.1-or-later
"""The report's tables, in Markdown, from the aggregated figures (Results),
and the rows the charts and the summary JSON share with them."""

import re

from . import floors
from .mca import lacked
from .records import SYSROOT_GLIBC, label, linux_configs, parse_qemu_config, qemu_config
from .stats import aggregate, compare, compare_rounds, is_control, number
from .trees import seed_design, seed_names


def md_table(header, rows):
    """A pipe table, its columns padded so it reads as plain text too;
    columns after the first ones holding text are right-aligned."""
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    numeric = [i > 0 and all(re.match(r"^[-~0-9.]", row[i]) or row[i] == "-" for row in cells[1:])
               for i in range(len(header))]

    def line(row):
        return "| " + " | ".join(c.rjust(w) if n else c.ljust(w)
                                 for c, w, n in zip(row, widths, numeric)) + " |"
    rule = "|" + "|".join(("-" * (w + 1) + ":") if n else ("-" * (w + 2))
                          for w, n in zip(widths, numeric)) + "|"
    return "\n".join([line(header), rule] + [line(r) for r in cells[1:]]) + "\n"


def call_name(entry, clock):
    return f"{entry} {clock}" if clock else entry


class Results:
    """The aggregated figures, and the lookups the tables share."""

    def __init__(self, records):
        self.figures = aggregate(records)
        self.targets = list(dict.fromkeys(k[1] for k in self.figures))

    def get(self, suite, target, entry, clock, config, metric):
        return self.figures.get((suite, target, entry, clock, config, metric))

    def calls(self, suite, target, metric=None):
        """(entry, clock) pairs of SUITE and TARGET, in the order measured."""
        return list(dict.fromkeys((k[2], k[3]) for k in self.figures
                                  if k[0] == suite and k[1] == target
                                  and (metric is None or k[5] == metric)))

    def configs(self, suite, target):
        return list(dict.fromkeys(k[4] for k in self.figures if k[0] == suite and k[1] == target))

    def linux(self, suite, target):
        """Linux's own images SUITE measured on TARGET, the anchor first."""
        return linux_configs(self.configs(suite, target))

    def insns(self, target, config, entry, clock, metric="insns_vdso"):
        return self.get("insns", target, entry, clock, config, metric)

    def vdso_entry(self, target, entry, clock):
        """The vDSO entry a libc call reaches: the 64-bit one where there are two."""
        for name in (f"__kernel_{entry}64", f"__kernel_{entry}"):
            if self.insns(target, "ppctime", name, clock):
                return name
        return None

    def libc_adds(self, target, config, entry, clock):
        """What the C library adds around the vDSO: its entry to return,
        minus the vDSO's instructions in that call; None where it made the
        system call."""
        total = self.insns(target, config, entry, clock, "insns_libc")
        inside = self.insns(target, config, entry, clock)
        if not total or not inside or not inside.median:
            return None
        return total.median - inside.median


def insns_cell(figure):
    if not figure:
        return "-"
    return ("" if figure.exact else "~") + number(figure.median)


def insns_ratio(ours, anchor):
    """ppctime's count over the anchor's, or None."""
    return ours.median / anchor.median if ours and anchor and anchor.median else None


def libc_cell(res, t, config, entry, clock):
    """CONFIG's count from the C library's entry to return; '-' for a vDSO
    entry, which the harness calls directly."""
    if entry.startswith("__kernel_"):
        return "-"
    return insns_cell(res.insns(t, config, entry, clock, "insns_libc"))


def table_insns(res, t):
    """Each call's counts: ppctime's inside the vDSO and with each C
    library, each Linux image's, and ppctime's ratio to the anchor's."""
    linux = res.linux("insns", t)
    rows = []
    for entry, clock in res.calls("insns", t):
        p = res.insns(t, "ppctime", entry, clock)
        ratio = insns_ratio(p, res.insns(t, linux[0], entry, clock) if linux else None)
        rows.append([entry, clock or "-", insns_cell(p), libc_cell(res, t, "ppctime", entry, clock),
                     libc_cell(res, t, SYSROOT_GLIBC, entry, clock)]
                    + [cell for c in linux for cell in (insns_cell(res.insns(t, c, entry, clock)),
                                                        libc_cell(res, t, c, entry, clock))]
                    + [f"{ratio:.2f}" if ratio else "-"])
    return md_table(["entry", "clock", "ppctime", "+libc", "+glibc"]
                    + [h for c in linux for h in (label(c), "+libc")] + ["ratio"], rows)


# The calls the seeds' table shows, by the C library's names.
SEED_CALLS = [("clock_gettime", "MONOTONIC"), ("gettimeofday", None), ("time", None)]


def seed_rows(res, t):
    """(design, counts of SEED_CALLS): the seeds' variants, then ppctime."""
    measured = res.configs("insns", t)
    configs = [c for c in seed_names() if c in measured]
    rows = []
    for config in configs + ["ppctime"]:
        design = (seed_design(config) if config != "ppctime"
                  else "ppctime: inline data page (003), 32-bit pieces (001)")
        rows.append((config, design, [res.insns(t, config, res.vdso_entry(t, e, c), c)
                                      for e, c in SEED_CALLS]))
    return rows


def table_seeds(res, t):
    return md_table(["design", "gettime MONO", "gettimeofday", "time"],
                    [[design] + [insns_cell(f) for f in counts]
                     for _, design, counts in seed_rows(res, t)])


def timing_rows(res, t):
    """Each timed call: (name, metric, reference config, its figure, and
    per vDSO configuration the figure and its comparison)."""
    rows = []
    measured = res.configs("timings", t)
    vdso_configs = [c for c in ["ppctime"] + res.linux("timings", t) if c in measured]
    for metric, reference in (("ns_per_call", "syscall"), ("ns_per_call_libc", "no-vdso"),
                              ("ticks_per_call_libc", "no-vdso"), ("switches_per_s", "no-vdso")):
        for entry, clock in res.calls("timings", t, metric):
            base = res.get("timings", t, entry, clock, reference, metric)
            per_config = []
            for c in vdso_configs:
                f = res.get("timings", t, entry, clock, c, metric)
                per_config.append((c, f, compare(f, base, metric)))
            rows.append((entry, clock, metric, reference, base, per_config))
    return vdso_configs, rows


VIA = {"ns_per_call": "entry, ns", "ns_per_call_libc": "libc, ns",
       "ticks_per_call_libc": "libc, ticks", "switches_per_s": "switches/s"}


def table_timings(res, t):
    vdso_configs, rows = timing_rows(res, t)
    header = ["call", "via", "reference"]
    for c in vdso_configs:
        header += [label(c), "speedup"]
    # ppctime against the anchor, Linux's newest
    if len(vdso_configs) > 1:
        header.append(f"ppctime vs {label(vdso_configs[1])}")
    lines = []
    for entry, clock, metric, reference, base, per_config in rows:
        name = call_name(entry, clock) + (" (control)" if is_control(entry, clock) else "")
        line = [name, VIA[metric], f"{reference} {base.cell()}" if base else "-"]
        for _, f, cmp in per_config:
            line += [f.cell() if f else "-", cmp.cell() if cmp else "-"]
        if len(per_config) > 1:
            cmp = compare(per_config[0][1], per_config[1][1], metric)
            line.append(cmp.cell() if cmp else "-")
        lines.append(line)
    return md_table(header, lines)


def table_glibc(res, t):
    rows = []
    for entry, clock in res.calls("glibc", t):
        base = res.get("glibc", t, entry, clock, "no-vdso", "ticks_mean")
        vdso = res.get("glibc", t, entry, clock, "ppctime", "ticks_mean")
        cmp = compare(vdso, base, "ticks_mean")
        name = call_name(entry, clock) + (" (control)" if is_control(entry, clock) else "")
        rows.append([name, base.cell() if base else "-", vdso.cell() if vdso else "-",
                     cmp.cell() if cmp else "-"])
    return md_table(["function variant", "no-vdso mean", "vDSO mean", "speedup"], rows)


def summary_rows(res, t):
    """Per C library call: the vDSO entry against the system call, ppctime
    and each Linux image, and the instructions in and around the vDSO,
    ppctime's ratio to the anchor's."""
    linux = res.linux("insns", t)
    rows = []
    for entry, clock in res.calls("insns", t):
        if entry.startswith("__kernel_"):
            continue
        vdso = res.vdso_entry(t, entry, clock)
        insns = {c: res.insns(t, c, vdso, clock) if vdso else None for c in ["ppctime"] + linux}
        ns = {c: res.get("timings", t, entry, clock, c, "ns_per_call")
              for c in ["syscall", "ppctime"] + linux}
        speedup = {c: compare(ns[c], ns["syscall"], "ns_per_call") for c in ["ppctime"] + linux}
        rows.append({
            "entry": entry, "clock": clock, "vdso_entry": vdso, "control": is_control(entry, clock),
            "ns_per_call": {c: f.as_json() if f else None for c, f in ns.items()},
            "speedup": {c: s.as_json() if s else None for c, s in speedup.items()},
            "vdso_insns": {**{c: f.median if f else None for c, f in insns.items()},
                           "ratio": insns_ratio(insns["ppctime"],
                                                insns[linux[0]] if linux else None)},
            "libc_adds_insns": {"sysroot_glibc": res.libc_adds(t, SYSROOT_GLIBC, entry, clock),
                                "debian_glibc": res.libc_adds(t, "ppctime", entry, clock)}})
    return rows


def table_summary(rows, linux):
    """summary_rows' table; LINUX: the Linux images' configs, anchor first."""
    def ns(row, c):
        f = row["ns_per_call"][c]
        return number(f["median"]) if f else "-"

    def speed(row, c):
        s = row["speedup"][c]
        return f"{s['ratio']:.2f}x {s['verdict']}" if s else "-"
    lines = []
    for r in rows:
        i = r["vdso_insns"]
        a = r["libc_adds_insns"]
        lines.append([call_name(r["entry"], r["clock"]) + (" (control)" if r["control"] else ""),
                      ns(r, "syscall"), ns(r, "ppctime"), speed(r, "ppctime")]
                     + [cell for c in linux for cell in (ns(r, c), speed(r, c))]
                     + [number(i["ppctime"])] + [number(i[c]) for c in linux]
                     + [f"{i['ratio']:.2f}" if i["ratio"] else "-",
                        f"{number(a['sysroot_glibc'])} / {number(a['debian_glibc'])}"])
    return md_table(["call", "syscall ns", "ppctime ns", "speedup"]
                    + [h for c in linux for h in (f"{label(c)} ns", "speedup")]
                    + ["insns"] + [f"{label(c)} insns" for c in linux]
                    + ["ratio", "glibc adds"], lines)


# What the shared daemon (keeper and watchdog) may cost while programs
# run, however many: the kernel does the same work at its tick.  A launch's
# private keeper costs as much again per launch.
KEEPER_CPU_BOUND_PCT = 0.3


def keeper_cpu_bound(res, t):
    """A line saying whether the daemon's CPU median is within the bound
    for every number of programs."""
    figures = [(k[2], f) for k, f in res.figures.items()
               if k[0] == "timekeeper" and k[1] == t and k[4] == "daemon-running"
               and k[5] == "keeper_cpu_pct"]
    if not figures:
        return []
    entry, worst = max(figures, key=lambda c: c[1].median)
    verdict = "within" if worst.median <= KEEPER_CPU_BOUND_PCT else "OVER"
    return [f"Keeper CPU bound, {KEEPER_CPU_BOUND_PCT}% of a core for the shared daemon: "
            f"{verdict} (worst {number(worst.median)}%, {entry}).", ""]


def table_generic(res, suite, t):
    """Any suite the renderer does not know: median [spread] per metric."""
    metrics = list(dict.fromkeys(k[5] for k in res.figures if k[0] == suite and k[1] == t))
    rows = {}
    for k, f in res.figures.items():
        if k[0] == suite and k[1] == t:
            rows.setdefault((k[2], k[3], k[4]), {})[k[5]] = f
    header = ["entry", "clock", "config"] + [
        f"{m} ({next(f.unit for k, f in res.figures.items() if k[0] == suite and k[5] == m)})"
        for m in metrics]
    return md_table(header, [[e, c or "-", cfg] + [cells[m].cell() if m in cells else "-" for m in metrics]
                             for (e, c, cfg), cells in rows.items()])


# The goal for start-up as root without systemd, where the
# machine's daemon is started on demand: at most this times plain QEMU's.
ROOT_STARTUP_GOAL = 1.2
SERVED = {"daemon": "the machine's daemon, found", "private-keeper": "a private timekeeper",
          "daemon-started": "the machine's daemon, started", "unknown": "unknown (-v said neither)"}


def qemu_versions(res, t):
    """The QEMUs the qemu suite measured on T, in the order measured."""
    return list(dict.fromkeys(parse_qemu_config(k[4])[1] for k in res.figures
                              if k[0] == "qemu" and k[1] == t))


def ratio_cell(figure):
    return f"{figure.median:.2f}x [{figure.low:.2f}..{figure.high:.2f}]" if figure else "-"


def table_qemu_startup(res, t, entry):
    """Start-up per QEMU and, as root, per timekeeper that served:
    plain QEMU, ppctime-run and each round's ratio, medians [spreads]."""
    rows = []
    for version in qemu_versions(res, t):
        plain = res.get("qemu", t, entry, None, qemu_config("plain", version), "wall_ms")
        for k, f in res.figures.items():
            if k[:3] != ("qemu", t, entry) or k[5] != "wall_ms":
                continue
            who, v, served = parse_qemu_config(k[4])
            if v != version or who == "plain":
                continue
            ratio = res.get("qemu", t, entry, None, k[4], "vs_plain_qemu")
            row = [version, plain.cell() if plain else "-", f.cell(), ratio_cell(ratio)]
            if served:
                met = ratio and ratio.median <= ROOT_STARTUP_GOAL
                row[1:1] = [f"{SERVED.get(served, served)} ({len(f.values)} runs)"]
                row.append("met" if met else "NOT met")
            rows.append(row)
    header = ["QEMU", "plain QEMU, ms", "ppctime-run, ms", "ppctime-run / plain"]
    if entry != "start-up":
        header[1:1] = ["timekeeper"]
        header.append(f"goal <= {ROOT_STARTUP_GOAL}x")
    return md_table(header, rows)


def table_qemu_clock(res, t):
    """clock_gettime per QEMU: the system call under plain QEMU against the
    vDSO entry under ppctime-run, and the C library's under each."""
    rows = []
    for version in qemu_versions(res, t):
        for metric, via, names in (("ns_per_call", "entry", ("syscall(2)", "vDSO")),
                                   ("ns_per_call_libc", "libc", ("libc", "libc"))):
            plain, vdso = (res.get("qemu", t, "clock_gettime", "MONOTONIC",
                                   qemu_config(who, version), metric)
                           for who in ("plain", "ppctime-run"))
            cmp = compare(vdso, plain, metric)
            rows.append([version, via, f"{names[0]} {plain.cell()}" if plain else "-",
                         f"{names[1]} {vdso.cell()}" if vdso else "-", cmp.cell() if cmp else "-"])
    return md_table(["QEMU", "via", "plain QEMU, ns", "ppctime-run, ns", "speedup"], rows)


# The mca suite (mca.py): modelled cycles per call, with the counts and
# the TCG times beside them, and the floors (floors.py): the floor, and
# the design floor, a generic C core's behind thin assembly entries.
MCA_CPUS = (("pwr9", "P9"), ("pwr10", "P10"))
# Booted: each boot's median (tests/boot/bench-kernel), judged round by round.
BOOTED = "ns_per_call_boot"
# The goal in instructions, against the anchor, where the floor allows.
INSNS_GOAL = 0.75
FLOOR_CONFIGS = tuple(floors.CONFIGS)


def timed_entry(res, t, entry, clock):
    """The C library's name of a vDSO entry, for the timings suite, which
    names the entry a call reaches by it (the 64-bit one where there are
    two); None for ppc32's 32-bit clock_gettime, which it does not time."""
    name = entry[len("__kernel_"):]
    name = name[:-2] if name.endswith("64") else name
    return name if res.vdso_entry(t, name, clock) == entry else None


def booted_config(res, t, config):
    """The kernel suite's config of an image: ppctime's kernel, or the same
    Linux as it is."""
    configs = res.configs("kernel", t)
    if config == "ppctime":
        return next((c for c in configs if c.startswith("ppctime")), None)
    return config if config in configs else None


def mca_configs(res, t):
    """ppctime, Linux's images (the anchor first), the floors: as measured."""
    measured = res.configs("mca", t)
    return [c for c in ["ppctime"] + res.linux("mca", t) + list(FLOOR_CONFIGS) if c in measured]


def mca_insns(res, t, config, entry, clock):
    if config in FLOOR_CONFIGS:
        return res.get("mca", t, entry, clock, config, "insns_vdso")
    return res.insns(t, config, entry, clock)


def table_mca(res, t):
    """Per call and image: instructions, cycles on each model (one call,
    back to back), what TCG pays for beside the instructions (branches,
    timebase reads), ns per call under TCG (user mode; booted)."""
    rows = []
    for entry, clock in res.calls("mca", t):
        timed = timed_entry(res, t, entry, clock)
        for config in mca_configs(res, t):
            cycles = [res.get("mca", t, entry, clock, config, f"cycles{kind}_{cpu}")
                      for cpu, _ in MCA_CPUS for kind in ("", "_b2b")]
            user = res.get("timings", t, timed, clock, config, "ns_per_call") if timed else None
            kconfig = booted_config(res, t, config)
            booted = res.get("kernel", t, entry, clock, kconfig, BOOTED) if kconfig else None
            rows.append([call_name(entry, clock), label(config),
                         insns_cell(mca_insns(res, t, config, entry, clock))]
                        + [number(f.median) if f else "-" for f in cycles]
                        + [insns_cell(res.get("mca", t, entry, clock, config, m))
                           for m in ("branches", "timebase_reads")]
                        + [user.cell() if user else "-",
                           f"{number(booted.median)} [{number(booted.min)}..{number(booted.max)}]"
                           if booted else "-"])
    return md_table(["call", "image", "insns"]
                    + [f"{name} {kind}" for _, name in MCA_CPUS for kind in ("1x", "b2b")]
                    + ["branches", "tb reads", "TCG ns", "booted ns"], rows)


def distance(ours, *floors):
    """OURS and how far above each of FLOORS."""
    if not ours or not all(floors):
        return "-"
    return (f"{number(ours.median)} ("
            + ", ".join(("+" if ours.median >= f.median else "")
                        + number(round(ours.median - f.median, 1)) for f in floors) + ")")


def insns_verdict(ours, floor, design, anchor):
    """The goal: at most INSNS_GOAL x the anchor's instructions, or the
    floor where that is below it; where the design floor is above both,
    at the design floor."""
    if not ours or not anchor:
        return "-"
    goal = max(floor.median, INSNS_GOAL * anchor.median)
    if ours.median <= goal:
        return "met"
    if design and ours.median <= design.median:
        return f"at the design floor (goal <= {number(int(goal))})"
    return f"not met (<= {number(int(goal))})"


def floor_rows(res, t):
    """Per call: the floor, the design floor and ppctime's distance from
    each, in instructions and in modelled cycles back to back; the
    anchor's, the goal."""
    linux = res.linux("mca", t)
    rows = []
    for entry, clock in res.calls("mca", t):
        floor, design = (res.get("mca", t, entry, clock, c, "insns_vdso") for c in FLOOR_CONFIGS)
        if not floor:
            continue
        ours = res.insns(t, "ppctime", entry, clock)
        anchor = res.insns(t, linux[0], entry, clock) if linux else None
        cycles = []
        for cpu, _ in MCA_CPUS:
            f, d, o = (res.get("mca", t, entry, clock, c, f"cycles_b2b_{cpu}")
                       for c in FLOOR_CONFIGS + ("ppctime",))
            a = res.get("mca", t, entry, clock, linux[0], f"cycles_b2b_{cpu}") if linux else None
            cycles += [number(f.median) if f else "-", number(d.median) if d else "-",
                       distance(o, f, d), number(a.median) if a else "-"]
        rows.append([call_name(entry, clock), number(floor.median),
                     number(design.median) if design else "-", distance(ours, floor, design),
                     insns_cell(anchor), insns_verdict(ours, floor, design, anchor)] + cycles)
    return rows


def table_floors(res, t):
    linux = res.linux("mca", t)
    anchor = label(linux[0]) if linux else "Linux"
    return md_table(["call", "floor insns", "design floor", "ppctime (over each)", anchor,
                     f"goal {INSNS_GOAL}x or floor"]
                    + [h for _, name in MCA_CPUS
                       for h in (f"{name} floor", "design floor", "ppctime (over each)", anchor)],
                    floor_rows(res, t))


def mca_verdicts(res, t, entry, clock, anchor):
    """Per measure, who is ahead, ppctime or ANCHOR ('same': neither), and
    the two figures."""
    pairs = [("instructions", mca_insns(res, t, "ppctime", entry, clock),
              mca_insns(res, t, anchor, entry, clock), "insns")]
    pairs += [(f"{name} b2b cycles",
               res.get("mca", t, entry, clock, "ppctime", f"cycles_b2b_{cpu}"),
               res.get("mca", t, entry, clock, anchor, f"cycles_b2b_{cpu}"), "cycles")
              for cpu, name in MCA_CPUS]
    timed = timed_entry(res, t, entry, clock)
    if timed:
        pairs.append(("TCG ns", res.get("timings", t, timed, clock, "ppctime", "ns_per_call"),
                      res.get("timings", t, timed, clock, anchor, "ns_per_call"), "ns_per_call"))
    verdicts = {}
    for what, ours, theirs, metric in pairs:
        cmp = compare(ours, theirs, metric)
        if cmp:
            verdicts[what] = ("same" if cmp.verdict == "same" else
                              "ppctime" if cmp.verdict in ("better", "faster") else anchor,
                              ours, theirs)
    kconfig, kanchor = booted_config(res, t, "ppctime"), booted_config(res, t, anchor)
    ours, theirs = (res.get("kernel", t, entry, clock, c, BOOTED) if c else None
                    for c in (kconfig, kanchor))
    cmp = compare_rounds(ours, theirs, BOOTED)
    if cmp:
        verdicts["booted ns"] = ("same" if cmp.verdict == "same" else
                                 "ppctime" if cmp.verdict == "faster" else anchor, ours, theirs)
    return verdicts


def mca_disagreements(res, t):
    """Where instructions, modelled cycles and TCG time do not rank
    ppctime and the anchor alike: the figures, and what TCG pays for
    beside the instructions, which the model does not (branches, each a
    translated block; timebase reads, each a helper call)."""
    linux = res.linux("mca", t)
    if not linux:
        return []
    lines = []
    for entry, clock in res.calls("mca", t):
        verdicts = mca_verdicts(res, t, entry, clock, linux[0])
        if len({v for v, _, _ in verdicts.values() if v != "same"}) < 2:
            continue
        figures = "; ".join(f"{what} {number(ours.median)} vs {number(theirs.median)}"
                            f" ({label(v) if v != 'same' else 'same'})"
                            for what, (v, ours, theirs) in verdicts.items())
        shape = [(what, res.get("mca", t, entry, clock, "ppctime", m),
                  res.get("mca", t, entry, clock, linux[0], m))
                 for what, m in (("branches", "branches"), ("timebase reads", "timebase_reads"))]
        more = [f"{number(o.median - a.median)} more {what}" for what, o, a in shape
                if o and a and o.median > a.median]
        cause = (f"ppctime runs {' and '.join(more)} under TCG, which the model prices low"
                 if more else "ppctime runs no more branches or timebase reads than "
                 f"{label(linux[0])}, what TCG pays for beside the instructions: the "
                 "difference is the run's (its spread; booted, the load between boots) or "
                 "TCG's cost per instruction, which is not a POWER core's")
        lines.append(f"- {call_name(entry, clock)}, ppctime vs {label(linux[0])}: "
                     f"{figures}. {cause}.")
    return lines


def critical_lines(notes, res, t):
    """Each call's critical path on each model, ppctime's and the anchor's,
    as llvm-mca's bottleneck analysis gives it."""
    linux = res.linux("mca", t)
    lines = []
    for config in ["ppctime"] + linux[:1]:
        for key, per_cpu in notes["critical"].get(config, {}).items():
            entry, clock = key.split("/")
            call = call_name(entry, None if clock == "-" else clock)
            for cpu, cname in MCA_CPUS:
                insn = lacked(notes.get("lacks", {}).get(config, {}), cpu, key)
                path = ([f"(no figure: the model lacks {insn})"] if insn else per_cpu.get(cpu)
                        or ["(no dependency chain bounds it: dispatch does)"])
                lines.append(f"- {label(config)}, {call}, {cname}: "
                             + " → ".join(f"`{i}`" for i in path))
    return lines
