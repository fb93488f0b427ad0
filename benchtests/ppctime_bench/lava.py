# SPDX-License-Identifier: LGPL-2.1-or-later
"""The import-lava command: a LAVA lab's results of the booted benchmarks'
jobs (make lava-jobs: lava/bench-TARGET-CONFIG.yaml) as records of the
kernel suite, beside make bench's own boots in the report.

RESULTS is a job's results as a LAVA server exports them (`lavacli
results JOB --yaml`, or the server's /results/JOB/yaml; check-lava writes
lava-run's in the same form): a list of cases, each with its job, suite,
name, result, measurement and unit.  Each vdsotest run of the job is a
suite TARGET_CONFIG_vdsotest_ARGS_N (tests/boot/lava-jobs), each of its
lines a case NAME_METHOD (vdsotest's NAME, hyphens made underscores)
with its ns per call; the runs are the repetitions.  The records' config
says where the figure came from: "CONFIG, booted on DEVICE (LAVA job
N)", and "syscall under CONFIG, booted on ..." for the system call."""

import os
import re

from . import die, progress
from .measure import parse_vdsotest
from .records import record, validator, write_records

SUITE = re.compile(r"^([a-z][a-z0-9]*)_([^_]+)_vdsotest_")
CASE = re.compile(r"^([a-z0-9_]+)_(syscall|libc|vdso)$")


def read_results(path):
    try:
        import yaml
    except ImportError:
        die("python3 lacks yaml: install the Debian package python3-yaml")
    try:
        with open(path) as f:
            cases = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        die(f"{path}: cannot read LAVA's results: {e}")
    if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
        die(f"{path}: not a LAVA job's results (a list of cases: lavacli results JOB --yaml)")
    return cases


def lava_records(cases, device):
    """The records of the vdsotest cases, by target: the job's runs in order."""
    runs, by_target = {}, {}
    for case in cases:
        suite = SUITE.match(str(case.get("suite", "")))
        name = CASE.match(str(case.get("name", "")))
        measurement = str(case.get("measurement"))
        if not suite or not name or not re.fullmatch(r"[0-9.]+", measurement):
            continue
        target, config = suite.groups()
        job = case.get("job", "?")
        rep = runs.setdefault((job, target, config), {}).setdefault(
            case["suite"], len(runs[(job, target, config)]))
        line = f"{name.group(1).replace('_', '-')}: {name.group(2)}: {measurement} nsec/call"
        booted = f"booted on {device} (LAVA job {job})"
        # parse_vdsotest takes the system call's lines from a no-vdso run.
        found = parse_vdsotest(line, "no-vdso" if name.group(2) == "syscall" else config)
        for entry, clock, cfg, metric, value in found:
            label = f"syscall under {config}, {booted}" if cfg == "syscall" else f"{cfg}, {booted}"
            by_target.setdefault((target, job), []).append(
                record("kernel", target, label, entry, clock, metric, "ns", value, False, rep))
    return by_target


def command_import_lava(args):
    check = validator("record.schema.json")
    imported = 0
    for path in args.results:
        by_target = lava_records(read_results(path), args.device)
        if not by_target:
            die(f"{path}: no vdsotest figures (the results of a bench-TARGET-CONFIG job?)")
        for (target, job), records in sorted(by_target.items()):
            for r in records:
                problems = [e.message for e in check.iter_errors(r)]
                if problems:
                    die(f"{path}: job {job}: a record that does not match "
                        f"benchtests/record.schema.json: {'; '.join(problems)}")
            written = write_records(args.out, f"kernel-{target}-lava-{job}", records)
            progress(f"{target}: {len(records)} records of LAVA job {job} in {written}")
            imported += len(records)
    print(f"import-lava: {imported} records; 'ppctime-bench render' puts them in "
          f"{os.path.join(args.out, 'report.md')}")
