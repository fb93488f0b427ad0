# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: one line per case (tests/README.md), and
# "failed" set for the script's exit status.
failed=0

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; failed=1; }
skip() { echo "SKIP: $1: $2"; }
