# SPDX-License-Identifier: LGPL-2.1-or-later
"""ppctime-bench's package (benchtests/README.md lists its modules);
here, how it speaks to the user."""

import sys


def die(message):
    sys.exit(f"ppctime-bench: {message}")


def progress(message):
    print(f"  BENCH    {message}", file=sys.stderr, flush=True)
