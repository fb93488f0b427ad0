# SPDX-License-Identifier: LGPL-2.1-or-later
"""The benchmark pipeline of "make bench" (benchtests/README.md).

  ppctime-bench run          "make bench": machine, every measurer on every
                             target, render
  ppctime-bench measure insns|mca|timings|glibc|timekeeper|qemu TARGET...
      run one measurer, its records into OUT/records/SUITE-TARGET.jsonl
      (mca models the calls insns traced)
  ppctime-bench machine      what the figures ran on, into OUT/machine.json
  ppctime-bench render       every record validated, then OUT/report.md,
                             OUT/summary-TARGET.json and the charts
  ppctime-bench save NAME    OUT/records and machine.json into OUT/saved/NAME
  ppctime-bench compare NAME every figure against OUT/saved/NAME, with a
                             verdict, into OUT/compare-NAME.md
  ppctime-bench import-lava --device=DEVICE RESULTS...
                             a LAVA lab's results of the booted
                             benchmarks' jobs as records (kernel suite)
  ppctime-bench model TARGET STREAMS
                             modelled cycles of the instruction streams in
                             STREAMS (insn-count --streams' format)
  ppctime-bench chroot-startup TARGET REPS STATIC_DIR
                             (the timekeeper measurer's, run by it in a
                             user and mount namespace of its own)
  ppctime-bench root-startup TARGET ROUNDS SLEEPER QEMUS
                             (the qemu measurer's, run by it as root in a
                             user, mount and network namespace of its own)

Run from the build directory (tests/config.sh), or installed (what
'make install' puts in bindir: then it measures the installed ppctime-run
with the installed harnesses, in the current directory); OUT is bench/
unless --out says otherwise.  Records: one JSON object per line, one per
measured value (benchtests/record.schema.json).
"""

import argparse
import glob
import os

from . import progress, trees
from .compare import command_compare, command_save
from .keeper import command_chroot_startup, measure_timekeeper
from .lava import command_import_lava
from .machine import command_machine
from .mca import command_model, measure_mca
from .measure import measure_glibc, measure_insns, measure_timings
from .qemu import command_root_startup, measure_qemu
from .records import write_records
from .report import command_render

MEASURERS = {"insns": measure_insns, "mca": measure_mca, "timings": measure_timings,
             "glibc": measure_glibc, "timekeeper": measure_timekeeper, "qemu": measure_qemu}


def command_measure(args):
    descriptions = trees.read_targets()
    for target in trees.chosen_targets(args.targets):
        description = dict(descriptions[target])
        description["page_size_configured"] = trees.TREE.page_size(target, description)
        records = MEASURERS[args.suite](target, description, args.out)
        if records:
            path = write_records(args.out, f"{args.suite}-{target}", records)
            progress(f"{target}: {len(records)} records in {path}")


def command_run(args):
    """Everything "make bench" does, in order.  The records of an earlier
    run of these measurers go first; other suites' (kernel boots) stay."""
    for path in glob.glob(os.path.join(args.out, "records", "*.jsonl")):
        if os.path.basename(path).split("-")[0] in MEASURERS:
            os.remove(path)
    command_machine(args)
    for suite in MEASURERS:
        args.suite = suite
        command_measure(args)
    command_render(args)


def main(script, installed):
    """ppctime-bench's command line: SCRIPT, the entry script's path, and
    INSTALLED, its directories if installed, say where the tree is
    (trees.choose_tree)."""
    parser = argparse.ArgumentParser(prog="ppctime-bench", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="bench", help="output directory (default bench)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("measure")
    p.add_argument("suite", choices=sorted(MEASURERS))
    p.add_argument("targets", nargs="*")
    p.set_defaults(func=command_measure)
    p = sub.add_parser("run")
    p.add_argument("targets", nargs="*")
    p.set_defaults(func=command_run)
    p = sub.add_parser("model")
    p.add_argument("target")
    p.add_argument("streams")
    p.set_defaults(func=command_model)
    p = sub.add_parser("import-lava")
    p.add_argument("--device", required=True, help="the device the LAVA jobs ran on")
    p.add_argument("results", nargs="+")
    p.set_defaults(func=command_import_lava)
    sub.add_parser("machine").set_defaults(func=command_machine)
    sub.add_parser("render").set_defaults(func=command_render)
    p = sub.add_parser("save")
    p.add_argument("name")
    p.set_defaults(func=command_save)
    p = sub.add_parser("compare")
    p.add_argument("baseline")
    p.set_defaults(func=command_compare)
    # The measurers' own, each run by its measurer in namespaces of its own.
    for name, func, arguments in (
            ("chroot-startup", command_chroot_startup,
             [("target", str), ("reps", int), ("static", str), ("sleeper", str)]),
            ("root-startup", command_root_startup,
             [("target", str), ("rounds", int), ("sleeper", str), ("qemus", str)])):
        p = sub.add_parser(name)
        for argument, kind in arguments:
            p.add_argument(argument, type=kind)
        p.set_defaults(func=func)
    args = parser.parse_args()
    trees.choose_tree(script, installed)
    args.func(args)
