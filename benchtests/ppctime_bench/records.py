# SPDX-License-Identifier: LGPL-2.1-or-later
"""The records: one JSON object per measured value, one file per suite
and target (OUT/records/SUITE-TARGET.jsonl), each validated against
benchtests/record.schema.json when read."""

import glob
import json
import os
import re

from . import die, trees

# The configurations named in the records and the report: Linux's own
# vDSO images, linux-VERSION (linux_config), and the sysroot's glibc
# built with sysdeps/.
SYSROOT_GLIBC = "ppctime+sysroot-glibc"


def linux_config(version):
    return f"linux-{version}"


def linux_version(config):
    """The version of a Linux image's config, or None for another config."""
    m = re.fullmatch(linux_config(f"({trees.VERSION})"), config)
    return m.group(1) if m else None


def linux_configs(configs):
    """Linux's own images among CONFIGS, the newest first: the first is
    the anchor, what ppctime's ratios are against."""
    versions = set(filter(None, map(linux_version, configs)))
    return [linux_config(v) for v in sorted(versions, key=trees.version_key, reverse=True)]


def label(config):
    """A configuration as the report names it: linux-7.3 is Linux 7.3."""
    version = linux_version(config)
    return f"Linux {version}" if version else config


def qemu_config(who, version, served=None):
    """The qemu suite's configs: who ran (plain, ppctime-run), under which
    QEMU, and as root which timekeeper served the launch."""
    return " ".join([who, f"qemu-{version}"] + ([served] if served else []))


def parse_qemu_config(config):
    """qemu_config's (who, version, served)."""
    words = config.split()
    return words[0], words[1][len("qemu-"):], words[2] if len(words) > 2 else None


def record(suite, target, config, entry, clock, metric, unit, value, exact, rep=0):
    return {"suite": suite, "target": target, "config": config, "entry": entry,
            "clock": clock, "metric": metric, "unit": unit, "value": value,
            "exact": exact, "rep": rep}


def write_records(out, name, records):
    os.makedirs(os.path.join(out, "records"), exist_ok=True)
    path = os.path.join(out, "records", f"{name}.jsonl")
    with open(path + ".tmp", "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    os.replace(path + ".tmp", path)
    return path


def load_schema(name):
    with open(trees.TREE.schema(name)) as f:
        return json.load(f)


def validator(name):
    try:
        import jsonschema
    except ImportError:
        die("python3 lacks jsonschema: install the Debian package python3-jsonschema")
    schema = load_schema(name)
    return jsonschema.Draft7Validator(schema)


def read_records(directory):
    """Every record in DIRECTORY/*.jsonl, each validated against the schema."""
    check = validator("record.schema.json")
    records, errors = [], []
    paths = sorted(glob.glob(os.path.join(directory, "*.jsonl")))
    if not paths:
        die(f"no records in {directory}/ (make bench)")
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    errors.append(f"{path}:{number}: not JSON: {e}")
                    continue
                problems = [e.message for e in check.iter_errors(r)]
                if problems:
                    errors.append(f"{path}:{number}: {'; '.join(problems)}")
                else:
                    records.append(r)
    if errors:
        die("records that do not match benchtests/record.schema.json:\n  "
            + "\n  ".join(errors[:20]))
    return records
