#!/bin/bash
# tools/tests/ubench_smoke.sh: the user-space benchmark runs (host test).
# Boots Vellum with root=hda init=/ubench (tools/ubench.sh --smoke: ubench -q,
# small sizes, one repetition) from the 1 KiB-block image (make bench runs both sizes) and
# checks that it printed every figure and reported no error (ubench checks
# the file contents it wrote and read).  Nothing is timed or compared here:
# the figures are `make bench`'s.
source "$(dirname "$0")/../testlib.sh"
T=ubench_smoke
OUT=$(mktemp "${TMPDIR:-/tmp}/vellum-ubenchsmoke.XXXXXX") || exit 1
trap 'rm -f "$OUT"' EXIT
UB=${BUILD:-build}/user/bench/ubench
if KERNEL=$KERNEL UBENCH=$UB bash tools/ubench.sh --smoke --blocks 1024 >"$OUT" 2>&1 &&
        grep -q '^ubench: smoke: every figure printed, no errors' "$OUT"; then
    pass "$T.figures"
else
    fail "$T.figures"; show_tail "$OUT" 40
fi
