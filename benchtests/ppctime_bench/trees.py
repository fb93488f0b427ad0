# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where ppctime-bench finds what it measures and reads: a build tree, or
what 'make install' installed; and the targets and seeds they describe."""

import glob
import os
import re
import shutil
import subprocess

from . import die


class BuildTree:
    """A configured build directory, the current one ("make bench"): the
    launcher, harnesses, sysroots and Linux's images it built, and the
    source's data (srcdir)."""
    glibc = True

    def __init__(self, script):
        self.script = script    # run again by keeper.chroot_startup
        srcdir = os.environ.get("srcdir", ".")
        self.benchtests = os.path.join(srcdir, "benchtests")
        self.targets_file = os.path.join(srcdir, "targets.txt")
        self.run = "run/ppctime-run"
        self.insn_count = os.path.join(self.benchtests, "insn-count")
        self.seeds = os.path.join(self.benchtests, "seeds")
        self.config = None

    def configured(self):
        """What configure found: tests/config.sh's assignments."""
        if self.config is None:
            if not os.path.exists("tests/config.sh"):
                die("no tests/config.sh: run from a configured build directory")
            self.config = {}
            with open("tests/config.sh") as f:
                for line in f:
                    m = re.match(r'^([A-Za-z_0-9]+)="(.*)"$', line.strip())
                    if m:
                        self.config[m.group(1)] = m.group(2)
        return self.config

    @property
    def targets(self):
        return self.configured()["TARGETS"].split()

    def program(self, name, target):
        return f"benchtests/{name}-{target}"

    def schema(self, name):
        return os.path.join(self.benchtests, name)

    def page_size(self, target, description):
        return self.configured().get(f"PAGE_SIZE_{target}", description["page"])

    def qemu(self, target, description):
        return self.configured().get(f"QEMU_{target}")

    def static_qemu_dir(self):
        """Where Debian's static QEMUs of the targets are (fetched once, as
        for make check); None and why if nowhere."""
        descriptions = read_targets(self)
        p = subprocess.run(["sh", os.path.join(os.path.dirname(self.benchtests), "tests",
                                               "qemu-user-static.sh"), "tests/qemu-user-static"]
                           + [descriptions[t]["qemu"] for t in self.targets],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return (p.stdout.strip(), None) if p.returncode == 0 else (None, p.stderr.strip())

    def second_qemu_dir(self):
        """The second QEMU's qemu-user, as make check fetches it (make
        second-qemu-fetch, tests/second-qemu.mk): the directory of its
        QEMUs, or None and why."""
        if os.path.exists("tests/second-qemu/version") and \
                not os.path.exists("tests/second-qemu/why"):
            return os.path.abspath("tests/second-qemu/root/usr/bin"), None
        try:
            with open("tests/second-qemu/why") as f:
                why = f.read().strip().splitlines()[-1]
        except (OSError, IndexError):
            why = "not fetched (make second-qemu-fetch)"
        return None, why

    def linux_images(self, description):
        """Linux's own images of the target (make linux-vdso), one per
        version: [(version, path)], the newest first."""
        found = [(os.path.basename(os.path.dirname(path)), path)
                 for path in glob.glob(f"linux-vdso/*/{description['image']}.so")]
        return sorted([(v, path) for v, path in found if re.fullmatch(VERSION, v)],
                      key=lambda f: version_key(f[0]), reverse=True)

    def linux_missing(self):
        """The Linux versions whose source could not be had, and why: the
        last line of linux-source/VERSION/why (patches/linux-sources.mk)."""
        missing = []
        for path in glob.glob("linux-source/*/why"):
            with open(path) as f:
                lines = f.read().strip().splitlines()
            missing.append((os.path.basename(os.path.dirname(path)),
                            lines[-1] if lines else "unknown"))
        return sorted(missing, key=lambda m: version_key(m[0]))

    def sysroot(self, description):
        path = f"sysroot/{description['triplet']}"
        return path if os.path.exists(f"{path}.stamp") else None


class InstalledTree(BuildTree):
    """What 'make install' installed beside the entry script: ppctime-run,
    the harnesses and the data.  It has no sysroot harness, Linux image,
    seed or glibc build: those measurements need a build tree."""
    glibc = False

    def __init__(self, script, installed):
        self.script = script
        here = os.path.dirname(script)
        data, self.programs = (os.path.normpath(os.path.join(here, d)) for d in installed)
        self.benchtests = data
        self.targets_file = os.path.join(data, "targets.txt")
        self.run = os.path.join(here, "ppctime-run")
        self.insn_count = os.path.join(self.programs, "insn-count")
        self.seeds = os.path.join(data, "seeds")
        self.installed = [t for t in read_targets(self)
                          if os.access(self.program("vdso-insns", t), os.X_OK)]

    @property
    def targets(self):
        if not self.installed:
            die(f"no harness installed in {self.programs}")
        return self.installed

    def program(self, name, target):
        return os.path.join(self.programs, f"{name}-{target}")

    def page_size(self, target, description):
        return description["page"]

    def qemu(self, target, description):
        return shutil.which(description["qemu"])

    def static_qemu_dir(self):
        descriptions = read_targets(self)
        if all(os.access(f"/usr/bin/{descriptions[t]['qemu']}-static", os.X_OK)
               for t in self.targets):
            return "/usr/bin", None
        return None, "qemu-user-static is not installed"

    def second_qemu_dir(self):
        return None, "the second QEMU is fetched into a build tree (make bench there)"

    def linux_images(self, description):
        return []

    def linux_missing(self):
        return []

    def sysroot(self, description):
        return None


# A Linux version, as linux-vdso/VERSION/ and the records' linux-VERSION
# name it, and its order.
VERSION = r"[0-9]+(?:\.[0-9]+)+"


def version_key(version):
    return [int(n) for n in version.split(".")]


# The tree this run measures and reads (choose_tree).
TREE = None


def choose_tree(script, installed):
    """The build tree, or the installed one: SCRIPT is the entry script's
    path, INSTALLED the data and programs directories relative to it that
    'make install' gave it (None in the source tree)."""
    global TREE
    TREE = InstalledTree(script, installed) if installed else BuildTree(script)


def read_targets(tree=None):
    """The one target description, targets.txt: name -> its fields."""
    path = (tree or TREE).targets_file
    fields, targets = None, {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("# name"):
                fields = words[1:]
            elif words and not line.startswith("#"):
                targets[words[0]] = dict(zip(fields, words))
    if not targets:
        die(f"{path} describes no target")
    return targets


def chosen_targets(names):
    configured = TREE.targets
    wanted = names or os.environ.get("TARGETS", "").split() or configured
    for t in wanted:
        if t not in configured:
            die(f"target '{t}' is not {'configured' if TREE.glibc else 'installed'}"
                f" (those that are: {' '.join(configured)})")
    return wanted


def seed_names():
    """The seeds' variants, each seed's before ahead of its after."""
    names = [os.path.basename(p)[:-len(".patch")]
             for p in glob.glob(os.path.join(TREE.seeds, "*.patch"))]
    return sorted(names, key=lambda n: (seed_design(n).split(",")[0], "after" in seed_design(n)))


def seed_design(name):
    """A seed variant's one-line description: its patch's first line."""
    with open(os.path.join(TREE.seeds, f"{name}.patch")) as f:
        return f.readline().strip()
