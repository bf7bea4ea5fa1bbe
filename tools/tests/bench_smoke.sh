#!/bin/bash
# tools/tests/bench_smoke.sh: the benchmark boots work (host test).  Runs
# tools/bench.sh --smoke: boots bench=all (ext2 image as a Multiboot module)
# and bench=readata (the image as hda) once each, and checks that the kernel
# (the test kernel: the benchmarks are not in the production one) reported no error and printed every figure named in
# tools/bench-baseline.txt.  No figure is compared or timed here: speed is
# `make bench`'s job.
source "$(dirname "$0")/../testlib.sh"
T=bench_smoke
OUT=$(mktemp "${TMPDIR:-/tmp}/vellum-benchsmoke.XXXXXX") || exit 1
trap 'rm -f "$OUT"' EXIT
if KERNEL=$TKERNEL BUILD=$BUILD bash tools/bench.sh "$TKERNEL" --smoke >"$OUT" 2>&1; then
    pass "$T.boot_and_figures"
else
    fail "$T.boot_and_figures"; show_tail "$OUT" 40
fi
