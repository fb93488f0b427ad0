# SPDX-License-Identifier: LGPL-2.1-or-later
"""The modelled-cycles measurer: each vDSO call's executed instructions,
in order (insn-count's streams, which the insns measurer leaves in
OUT/streams/), run through LLVM's machine-code analyser, llvm-mca, on its
POWER9 and POWER10 scheduling models: cycles for one call from an empty
pipeline, cycles per call back to back, and the critical path.  A call
holding an instruction a model lacks gets no figures on that model."""

import json
import os
import re
import shutil
import subprocess

from . import die, floors, progress, trees
from .records import record

# LLVM's POWER scheduling models llvm-mca can run (POWER8's has only
# itineraries, which llvm-mca does not simulate).
CPUS = ("pwr9", "pwr10")
# One call, and 101 back to back: their difference leaves out filling and
# draining the pipeline, so a call's steady cost comes out exactly.
B2B_RUNS = (1, 101)
# The Debian package with llvm-mca and llvm-mc: the release's own LLVM's
# (14 on Debian 12, 19 on Debian 13).
LLVM_PACKAGES = "llvm"
SYSCALL = 0x44000002


class Unsupported(Exception):
    """llvm-mca refused a region: its CPU's model has no scheduling class
    for INSN (LLVM 19's pwr9 lacks sync).  Skipping it, as llvm-mca
    offers, would price a full barrier at nothing."""

    def __init__(self, insn):
        super().__init__(insn)
        self.insn = insn


def tools():
    """(llvm-mca, llvm-mc of the same LLVM): LLVM_MCA (what configure
    found, which make passes), else the newest on PATH."""
    mca = os.environ.get("LLVM_MCA") or next(
        (f"llvm-mca{v}" for v in ("", "-19", "-18", "-17", "-16", "-15", "-14")
         if shutil.which(f"llvm-mca{v}")), None)
    if not mca or not shutil.which(mca):
        die(f"no llvm-mca{' ' + mca if mca else ''}: install Debian's {LLVM_PACKAGES}")
    mc = re.sub(r"llvm-mca(-[0-9]+)?$", r"llvm-mc\1", mca)
    if not shutil.which(mc):
        die(f"no {mc} beside {mca}: install Debian's {LLVM_PACKAGES}")
    return mca, mc


def llvm_version(mca):
    out = subprocess.run([mca, "--version"], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else "unknown"


def unlinked(word):
    """A call as the branch it is: llvm-mca gives a call a flat 100 cycles,
    but in a dynamic stream the callee's instructions follow it.  Clears LK
    of b, bc (bl, bcl) and bclr, bcctr (blrl, bctrl)."""
    op = word >> 26
    if op in (16, 18) or (op == 19 and (word >> 1) & 0x3FF in (16, 528)):
        return word & ~1
    return word


def disassemble(mc, triple, words):
    """The words as assembly llvm-mca reads, one instruction each."""
    order = "little" if triple.startswith("powerpc64le") else "big"
    text = "".join(" ".join(f"0x{b:02x}" for b in unlinked(w).to_bytes(4, order)) + "\n"
                   for w in words)
    p = subprocess.run([mc, "--disassemble", f"-triple={triple}", "-mcpu=pwr10"], input=text,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [line.strip() for line in p.stdout.splitlines()
             if line.strip() and not line.strip().startswith(".")]
    if p.returncode != 0 or len(lines) != len(words):
        die(f"{mc}: {len(words)} instruction words gave {len(lines)} instructions: "
            f"{p.stderr.strip()[-500:]}")
    return lines


def read_streams(path):
    """insn-count's streams: [(entry, clock, words)]."""
    streams = []
    try:
        f = open(path)
    except OSError as e:
        die(f"{path}: {e.strerror}")
    with f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            try:
                words = [int(w, 16) for w in fields[2:]]
            except ValueError:
                words = None
            if len(fields) < 2 or words is None or any(not 0 <= w < 2**32 for w in words):
                die(f"{path}:{number}: not ENTRY CLOCK WORD...: {line.strip()[:80]}")
            streams.append((fields[0], None if fields[1] == "-" else fields[1], words))
    return streams


def simulate(mca, triple, cpu, regions, iterations, bottlenecks=False):
    """llvm-mca on REGIONS ([(name, [insn])]), each its own code region:
    per name, its total cycles and (BOTTLENECKS) its critical sequence."""
    source = "".join(f"# LLVM-MCA-BEGIN {name}\n" + "\n".join(insns) + "\n# LLVM-MCA-END\n"
                     for name, insns in regions)
    command = [mca, f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={iterations}",
               "-all-views=false", "-summary-view"]
    command += ["-bottleneck-analysis"] if bottlenecks else []
    p = subprocess.run(command, input=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        lacked = re.search(r"unsupported instruction.*\n.*instruction:\s*(.+)", p.stderr)
        if lacked:
            raise Unsupported(re.sub(r"\s+", " ", lacked.group(1)).strip())
        die(f"{' '.join(command)}: {p.stderr.strip()[-500:]}")
    found = {}
    for chunk in re.split(r"^\[\d+\] Code Region - ", p.stdout, flags=re.M)[1:]:
        name = chunk.split("\n", 1)[0].strip()
        cycles = re.search(r"^Total Cycles:\s+(\d+)", chunk, re.M)
        if not cycles:
            die(f"llvm-mca gave no total cycles for {name}")
        # On the path: the sequence's first instruction, and each one
        # it marks as depending on the one before.
        path = [re.sub(r"\s+", " ", m.group(1)).strip()
                for m in re.finditer(r"^ \+----[<>] +\d+\.\s+(.*?)(?:\s+## .*)?$", chunk, re.M)]
        found[name] = int(cycles.group(1)), path
    if len(found) != len(regions):
        die(f"llvm-mca gave {len(found)} code regions of {len(regions)}")
    return found


def modelled(streams):
    """STREAMS' vDSO entries, but a call that made the system call: the
    model has no kernel."""
    return [(f"{entry}/{clock or '-'}", words) for entry, clock, words in streams
            if entry.startswith("__kernel_") and words and SYSCALL not in words]


def stream_regions(mc, triple, streams):
    """STREAMS' modelled calls as code regions: [(ENTRY/CLOCK, [insn])]."""
    return [(name, disassemble(mc, triple, words)) for name, words in modelled(streams)]


def tcg_costs(words):
    """What QEMU's TCG pays for beside the instructions: the branches (each
    ends a translated block; blr and bctr look the next one up) and the
    timebase reads (each a helper call reading the host's counter)."""
    branches = sum(1 for w in words if w >> 26 in (16, 18)
                   or (w >> 26 == 19 and (w >> 1) & 0x3FF in (16, 528)))
    # mfspr RT,268|269: the SPR number's halves swapped in the word
    timebase = sum(1 for w in words if w >> 26 == 31 and (w >> 1) & 0x3FF in (339, 371)
                   and (w >> 11) & 0x3FF in (0x188, 0x1A8))
    return branches, timebase


def model(mca, triple, regions):
    """Per region name and CPU: (cycles one call, cycles per call back to
    back, critical path); and per CPU, the instructions its model lacks,
    each with the regions that hold it, which get no figures there."""
    results, lacks = {}, {}
    for cpu in CPUS:
        priced = regions
        while priced:
            try:
                one, many = (simulate(mca, triple, cpu, priced, n, bottlenecks=(n > 1))
                             for n in B2B_RUNS)
                break
            except Unsupported as e:
                holding = {name for name, insns in priced
                           if e.insn in (re.sub(r"\s+", " ", i) for i in insns)}
                if not holding:
                    die(f"llvm-mca -mcpu={cpu}: its model lacks '{e.insn}', "
                        "which no call's instructions read as")
                lacks.setdefault(cpu, {})[e.insn] = sorted(holding)
                priced = [(name, insns) for name, insns in priced if name not in holding]
        for name, _ in priced:
            b2b = round((many[name][0] - one[name][0]) / (B2B_RUNS[1] - B2B_RUNS[0]), 1)
            results[(name, cpu)] = one[name][0], b2b, many[name][1]
    return results, lacks


def lacked(lacks, cpu, name):
    """The instruction CPU's model lacks in region NAME, or None."""
    return next((insn for insn, names in lacks.get(cpu, {}).items() if name in names), None)


def region_records(target, config, regions, modelled_calls, notes):
    """REGIONS' records of MODELLED_CALLS (model's answer); the critical
    paths and what a model lacks go in NOTES."""
    results, lacks = modelled_calls
    if lacks:
        notes["lacks"][config] = lacks
    records = []
    for name, insns in regions:
        entry, clock = split_name(name)
        if config in floors.CONFIGS:
            records.append(record("mca", target, config, entry, clock, "insns_vdso", "insns",
                                  len(insns), True))
        for cpu in CPUS:
            if (name, cpu) not in results:
                continue
            one, b2b, path = results[(name, cpu)]
            records.append(record("mca", target, config, entry, clock, f"cycles_{cpu}",
                                  "cycles", one, True))
            records.append(record("mca", target, config, entry, clock, f"cycles_b2b_{cpu}",
                                  "cycles", b2b, True))
            if config not in floors.CONFIGS:
                notes["critical"].setdefault(config, {}).setdefault(name, {})[cpu] = path
    return records


def split_name(name):
    entry, clock = name.split("/")
    return entry, None if clock == "-" else clock


def streams_path(out, target, config):
    return os.path.join(out, "streams", f"{target}-{config}.txt")


def measure_mca(target, description, out):
    """Modelled cycles of every vDSO entry the insns measurer traced."""
    mca, mc = tools()
    version = llvm_version(mca)
    streams = os.path.join(out, "streams")
    paths = sorted(p for p in os.listdir(streams)
                   if p.startswith(f"{target}-")) if os.path.isdir(streams) else []
    if not paths:
        die(f"{target}: no {streams_path(out, target, '*')}: measure insns first")
    records, notes = [], {"llvm": version, "tool": os.path.basename(mca), "cpus": list(CPUS),
                          "critical": {}, "lacks": {}}
    calls = []
    for path in paths:
        config = path[len(target) + 1:-len(".txt")]
        progress(f"{target}: modelled cycles, {config}, llvm-mca {version} {' '.join(CPUS)}")
        streams = modelled(read_streams(os.path.join(out, "streams", path)))
        regions = [(name, disassemble(mc, description["triplet"], words))
                   for name, words in streams]
        calls += [name for name, _ in regions if name not in calls]
        records += region_records(target, config, regions,
                                  model(mca, description["triplet"], regions), notes)
        for name, words in streams:
            branches, timebase = tcg_costs(words)
            records += [record("mca", target, config, *split_name(name), "branches", "branches",
                               branches, True),
                        record("mca", target, config, *split_name(name), "timebase_reads", "reads",
                               timebase, True)]
    # The floors of each call modelled (floors.py).
    for config, c_core in floors.CONFIGS.items():
        regions = [(name, floors.instructions(groups)) for name in calls
                   if (groups := floors.floor(description, *split_name(name), c_core))]
        records += region_records(target, config, regions,
                                  model(mca, description["triplet"], regions), notes)
    with open(os.path.join(out, f"mca-{target}.json"), "w") as f:
        json.dump(notes, f, indent=1)
        f.write("\n")
    return records


def read_notes(out, target):
    """What measure_mca left beside its records: the LLVM, the critical
    paths, the instructions a model lacks; None if nothing."""
    try:
        with open(os.path.join(out, f"mca-{target}.json")) as f:
            return json.load(f)
    except OSError:
        return None


def command_model(args):
    """Modelled cycles of the streams in a file (insn-count's format), on
    TARGET's triplet: 'ENTRY CLOCK CPU ONE B2B' a line."""
    descriptions = trees.read_targets()
    if args.target not in descriptions:
        die(f"no target '{args.target}': targets.txt has {' '.join(descriptions)}")
    mca, mc = tools()
    triple = descriptions[args.target]["triplet"]
    regions = stream_regions(mc, triple, read_streams(args.streams))
    if not regions:
        die(f"{args.streams}: no vDSO entry's stream (ENTRY __kernel_..., no system call)")
    results, lacks = model(mca, triple, regions)
    for name, _ in regions:
        for cpu in CPUS:
            if (name, cpu) in results:
                one, b2b, _ = results[(name, cpu)]
                print(f"{name.replace('/', ' ')} {cpu} {one} {b2b:g}")
            else:
                print(f"{name.replace('/', ' ')} {cpu} - - "
                      f"(the model lacks '{lacked(lacks, cpu, name)}')")
