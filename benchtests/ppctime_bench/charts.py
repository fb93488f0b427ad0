# SPDX-License-Identifier: LGPL-2.1-or-later
"""The report's charts, PNG and SVG, with matplotlib: instructions per
call, modelled cycles per call, the timings' speedups, the seeds'
designs."""

import os

from . import die
from .records import label, linux_configs
from .stats import is_control, number
from .tables import (FLOOR_CONFIGS, MCA_CPUS, SEED_CALLS, call_name, mca_configs, seed_rows,
                     timing_rows)

# ppctime's colour, then Linux's images', the anchor's first; the floors'.
PPCTIME_COLOUR = "#1f77b4"
LINUX_COLOURS = ["#ff7f0e", "#2ca02c", "#7f7f7f"]
FLOOR_COLOURS = dict(zip(FLOOR_CONFIGS, ["#c7c7c7", "#9edae5"]))


def config_colour(config, configs):
    """CONFIG's colour among CONFIGS: ppctime's, a floor's, or by its
    Linux's rank."""
    if config == "ppctime":
        return PPCTIME_COLOUR
    if config in FLOOR_COLOURS:
        return FLOOR_COLOURS[config]
    return LINUX_COLOURS[linux_configs(configs).index(config) % len(LINUX_COLOURS)]


def pyplot():
    try:
        import matplotlib
    except ImportError:
        die("python3 lacks matplotlib: install the Debian package python3-matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"figure.facecolor": "white", "axes.facecolor": "white",
                         "savefig.facecolor": "white", "svg.fonttype": "none"})
    return plt


def save_chart(fig, out, name):
    """NAME.png and NAME.svg, opaque; the file names for the report."""
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=110, transparent=False)
    pyplot().close(fig)
    return f"{name}.png", f"{name}.svg"


def bars(ax, labels, series, value_format=number, xlabel=None):
    """Horizontal grouped bars, one group per label, with value labels;
    series: [(name, colour, [value or None], [(low, high) or None])]."""
    count = len(series)
    height = 0.8 / count
    for s, (name, colour, values, spreads) in enumerate(series):
        ys = [i + (s - (count - 1) / 2) * height for i in range(len(labels))]
        vals = [v if v is not None else 0 for v in values]
        xerr = None
        if spreads and any(spreads):
            xerr = [[max(0, v - (sp[0] if sp else v)) for v, sp in zip(vals, spreads)],
                    [max(0, (sp[1] if sp else v) - v) for v, sp in zip(vals, spreads)]]
        ax.barh(ys, vals, height, color=colour, label=name, xerr=xerr, capsize=2)
        for y, v, sp in zip(ys, values, spreads or [None] * len(values)):
            if v is not None:
                ax.annotate(value_format(v), (max(v, sp[1]) if sp else v, y), xytext=(3, 0),
                            textcoords="offset points", va="center", fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.legend(fontsize=8, loc="best")


def chart_insns(res, out):
    """The headline: instructions inside the vDSO per entry, ppctime
    against Linux's newest image, the anchor, and its others, each target."""
    plt = pyplot()
    targets = [t for t in res.targets if res.calls("insns", t)]
    if not targets:
        return None
    fig, axes = plt.subplots(1, len(targets), figsize=(max(8, 5.5 * len(targets)), 5.5),
                             squeeze=False)
    linux = linux_configs(c for t in targets for c in res.configs("insns", t))
    for ax, t in zip(axes[0], targets):
        calls = [(e, c) for e, c in res.calls("insns", t) if e.startswith("__kernel_")]
        series = [(label(config), config_colour(config, linux),
                   [getattr(res.insns(t, config, e, c), "median", None) for e, c in calls], None)
                  for config in ["ppctime"] + res.linux("insns", t)]
        bars(ax, [call_name(e.replace("__kernel_", ""), c) for e, c in calls], series,
             xlabel="instructions inside the vDSO per call")
        ax.set_title(f"{t}", fontsize=10)
    against = f", ppctime against {label(linux[0])}" if linux else ""
    beside = "".join(f", {label(c)} beside" for c in linux[1:])
    fig.suptitle(f"Instructions inside the vDSO per call{against}{beside}\n"
                 "(exact counts from QEMU's exec trace; fewer is better)", fontsize=11)
    return save_chart(fig, out, "insns")


def chart_cycles(res, out, t):
    """Modelled cycles per call back to back, a panel per POWER model:
    ppctime, Linux's images, the floor and the design floor."""
    plt = pyplot()
    calls = res.calls("mca", t)
    configs = mca_configs(res, t)
    if not calls or "ppctime" not in configs:
        return None
    linux = linux_configs(configs)
    fig, axes = plt.subplots(1, len(MCA_CPUS), figsize=(6 * len(MCA_CPUS), 0.9 * len(calls) + 2),
                             squeeze=False)
    for ax, (cpu, name) in zip(axes[0], MCA_CPUS):
        series = [(label(c), config_colour(c, linux),
                   [getattr(res.get("mca", t, e, k, c, f"cycles_b2b_{cpu}"), "median", None)
                    for e, k in calls], None) for c in configs]
        bars(ax, [call_name(e.replace("__kernel_", ""), k) for e, k in calls], series,
             xlabel=f"cycles per call back to back, {name}")
        ax.set_title(f"{t}, llvm-mca -mcpu={cpu}", fontsize=10)
    fig.suptitle("Modelled cycles per call (LLVM's scheduling models; fewer is better)",
                 fontsize=11)
    return save_chart(fig, out, f"cycles-{t}")


def chart_speedup(res, out, t):
    """The vDSO entry's speedup over syscall(2) per call, with the range
    its spreads allow, on a log scale; the controls apart."""
    plt = pyplot()
    vdso_configs, rows = timing_rows(res, t)
    rows = [r for r in rows if r[2] == "ns_per_call" and r[4]]
    if not rows:
        return None
    rows.sort(key=lambda r: is_control(r[0], r[1]))
    labels = [call_name(e, c) + (" (control)" if is_control(e, c) else "") for e, c, *_ in rows]
    series = []
    for i, c in enumerate(vdso_configs):
        cmps = [r[5][i][2] for r in rows]
        series.append((f"{label(c)} vDSO", config_colour(c, vdso_configs),
                       [x.ratio if x else None for x in cmps],
                       [(x.low, x.high) if x else None for x in cmps]))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(labels) + 1.5))
    bars(ax, labels, series, value_format=lambda v: f"{v:.2f}x",
         xlabel="speedup over syscall(2), median; bars: the range the spreads allow (log scale)")
    ax.set_xscale("log")
    ax.axvline(1, color="black", linewidth=0.8)
    controls = sum(is_control(r[0], r[1]) for r in rows)
    if controls:
        ax.axhspan(len(rows) - controls - 0.5, len(rows) - 0.5, color="#eeeeee", zorder=0)
    ax.set_title(f"{t}: vDSO entries called directly against syscall(2), under QEMU", fontsize=10)
    return save_chart(fig, out, f"speedup-{t}")


def chart_seeds(res, out, t):
    """The seeds' designs, before and after: instructions per call."""
    plt = pyplot()
    rows = seed_rows(res, t)
    if len(rows) < 2:
        return None
    palette = ["#d62728", "#2ca02c", "#9467bd", "#8c564b", PPCTIME_COLOUR]
    labels = [call_name(e, c) for e, c in SEED_CALLS]
    series = [(design, palette[-1] if config == "ppctime" else palette[i % 4],
               [getattr(f, "median", None) for f in counts], None)
              for i, (config, design, counts) in enumerate(rows)]
    fig, ax = plt.subplots(figsize=(9, 1.2 * len(labels) + 0.4 * len(rows) + 1))
    bars(ax, labels, series, xlabel="instructions inside the vDSO per call")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=1)
    ax.set_title(f"{t}: the seeds' designs, before and after", fontsize=10)
    return save_chart(fig, out, f"seeds-{t}")
