# SPDX-License-Identifier: LGPL-2.1-or-later
"""The save and compare commands: a run's records kept as OUT/saved/NAME,
and every figure of a later run against them, into OUT/compare-NAME.md."""

import glob
import os
import re
import shutil

from . import die
from .machine import machine_lines, read_machine
from .records import read_records
from .stats import Comparison, aggregate
from .tables import call_name, md_table


def command_save(args):
    records = os.path.join(args.out, "records")
    if not glob.glob(os.path.join(records, "*.jsonl")):
        die(f"nothing to save: no records in {records}/ (make bench first)")
    if not re.match(r"^[-A-Za-z0-9_.]+$", args.name):
        die(f"NAME must be letters, digits, '-', '_' or '.', not '{args.name}'")
    saved = os.path.join(args.out, "saved", args.name)
    shutil.rmtree(saved, ignore_errors=True)
    shutil.copytree(records, os.path.join(saved, "records"))
    if os.path.exists(os.path.join(args.out, "machine.json")):
        shutil.copy(os.path.join(args.out, "machine.json"), saved)
    print(f"saved: {saved} (make bench-compare BASELINE={args.name} compares a later run with it)")


def change_cell(before, now, metric):
    """The verdict of NOW against BEFORE: exact figures, and counts taken
    once (a count that varies between calls), by equality; the others
    'same' where the spreads overlap."""
    if not before or not now:
        return "only " + ("now" if now else "before")
    if (before.exact and now.exact) or (len(before.values) == 1 and len(now.values) == 1):
        if before.median == now.median:
            return "same"
        return f"{now.median - before.median:+g} {before.unit}"
    if before.overlaps(now):
        return "same"
    cmp = Comparison(now, before, metric)
    return f"{cmp.ratio:.2f}x {cmp.verdict}"


def command_compare(args):
    saved = os.path.join(args.out, "saved", args.baseline)
    if not os.path.isdir(saved):
        die(f"no saved run '{args.baseline}' in {os.path.join(args.out, 'saved')} "
            f"(make bench-save NAME={args.baseline})")
    before = aggregate(read_records(os.path.join(saved, "records")))
    now = aggregate(read_records(os.path.join(args.out, "records")))
    keys = list(dict.fromkeys(list(before) + list(now)))
    md = [f"# ppctime benchmarks: {args.baseline} against now", "",
          "Instruction counts compared exactly; other figures are `same` where the",
          "interquartile ranges overlap.", "",
          f"Before ({args.baseline}):", ""] + machine_lines(read_machine(saved)) + [
          "", "Now:", ""] + machine_lines(read_machine(args.out)) + [""]
    verdicts = {}
    for suite, target in dict.fromkeys((k[0], k[1]) for k in keys):
        rows = []
        for k in keys:
            if (k[0], k[1]) != (suite, target):
                continue
            b, n = before.get(k), now.get(k)
            verdict = change_cell(b, n, k[5])
            verdicts[verdict == "same"] = verdicts.get(verdict == "same", 0) + 1
            rows.append([call_name(k[2], k[3]), k[4], k[5], b.cell() if b else "-",
                         n.cell() if n else "-", verdict])
        md += [f"## {target}: {suite}", "",
               md_table(["call", "config", "metric", args.baseline, "now", "verdict"], rows)]
    path = os.path.join(args.out, f"compare-{args.baseline}.md")
    with open(path, "w") as f:
        f.write("\n".join(md))
    changed = [line for line in "\n".join(md).splitlines()
               if line.startswith("| ") and not line.rstrip(" |").endswith(("same", "verdict"))]
    print("\n".join(changed[:60]) if changed else "every figure: same")
    print(f"{verdicts.get(True, 0)} same, {verdicts.get(False, 0)} different: {path}")
