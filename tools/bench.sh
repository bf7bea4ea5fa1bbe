#!/bin/bash
# tools/bench.sh: Vellum's benchmarks (`make bench`).  Layer: host tooling.
#
# Boots the kernel under QEMU with -icount shift=0 (the guest's TSC then
# counts guest instructions, so every figure is the same on every run and
# every host), runs the in-kernel benchmarks (kernel/test/bench.c, boot option
# bench=), collects their "bench: NAME VALUE UNIT" lines, prints a table
# and compares it with the committed baseline (tools/bench-baseline.txt).
#
#   tools/bench.sh [options]
#     --runs N      boot each configuration N times (default 2) and fail
#                   unless every compared figure is identical in all runs
#     --tol PCT     tolerance for "le" figures, percent (default 10)
#     --update      write the figures of this run as the new baseline
#                   (keeping each figure's check column)
#     --raw FILE    also write the collected lines to FILE
#     --smoke       one run; check only that the kernel reported no error and
#                   printed every figure of the baseline (values are not
#                   compared): the host test tools/tests/bench_smoke.sh
#   KERNEL=... BUILD=... select the kernel (default build/vellum-test.elf,
#                 the test kernel: the production one has no benchmarks);
#   BENCH_BASELINE=FILE another baseline.
#
# Boots:  1. bench=all, with a Multiboot module (-initrd): a 16 MiB ext2
#            image holding /big, which the kernel serves as a RAM disk;
#         2. bench=readata, with the same image as IDE disk hda (the cold
#            read waits for QEMU's disk emulation, which runs in host time:
#            that one figure is "info", shown but never compared).
#
# Baseline lines: NAME VALUE UNIT CHECK, CHECK one of
#   le    lower is better: a regression if VALUE > baseline * (1 + tol)
#         (a baseline of 0 must stay 0); better than baseline by more than
#         tol is reported as "better" (update the baseline)
#   eq    a behaviour counter (faults, retries, I/Os): must be equal
#   info  shown, never compared (host-dependent)
# Exit status: 0 all within tolerance; 1 a regression, a changed counter, a
# missing figure, a non-repeatable figure or a kernel error; 2 boot failure.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
KERNEL=${KERNEL:-${1:-$BUILD/vellum-test.elf}}
case "$KERNEL" in -*) KERNEL=$BUILD/vellum-test.elf ;; *) [ $# -gt 0 ] && [ "$1" = "$KERNEL" ] && shift ;; esac
BASELINE=${BENCH_BASELINE:-tools/bench-baseline.txt}
RUNS=2 TOL=10 UPDATE=0 RAW= SMOKE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift 2 ;;
        --tol) TOL=$2; shift 2 ;;
        --update) UPDATE=1; shift ;;
        --raw) RAW=$2; shift 2 ;;
        --smoke) SMOKE=1; RUNS=1; shift ;;
        *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
PATH=$PATH:/usr/sbin:/sbin
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

# ---- the ext2 image: /big, 4 MiB, page k = the 32-bit number k, then
# k & 255 repeated (kernel/test/bench.c checks it); fixed UUID, seed and times,
# so the image is the same byte for byte everywhere.
mkdir -p "$TMP/root"
perl -e 'binmode STDOUT; for my $k (0 .. 1023) { print pack("V", $k), chr($k & 255) x 4092 }' \
    > "$TMP/root/big"
touch -d @1700000000 "$TMP/root/big" "$TMP/root"
if ! E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null mke2fs -q -F -t ext2 -b 4096 -m 0 \
        -U 6c6c6576-6d75-6265-6e63-680000000001 -E hash_seed=6c6c6576-6d75-6265-6e63-680000000002,root_owner=0:0 \
        -d "$TMP/root" "$TMP/ext2.img" 16M >"$TMP/mkfs.log" 2>&1; then
    echo "bench: mke2fs failed:"; cat "$TMP/mkfs.log"; exit 2
fi

# QEMU passes the kernel's file name on the command line and the image's as
# the module's string: run from $TMP with short fixed names, so that the
# guest sees the same bytes (and so runs the same instructions) wherever the
# tree and the kernel are.
cp "$KERNEL" "$TMP/vellum.elf" || exit 2

# boot NAME BENCH QEMU-ARGS...: one boot; its bench: lines go to $TMP/NAME.out
boot() {
    local name=$1 sel=$2 log=$TMP/$1.log
    shift 2
    (cd "$TMP" && timeout -k 2 120 qemu-system-i386 -accel tcg -icount shift=0 -display none \
        -no-reboot -m 128M -nic none -monitor none -serial "file:$log" -kernel vellum.elf \
        -append "bench=$sel" -device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" \
        </dev/null >"$log.qemu" 2>&1)
    local rc=$?
    if [ $rc -ne 1 ] || ! grep -aq '^bench: done .* 0 errors' "$log"; then
        echo "bench: boot '$name' failed (QEMU status $rc); serial log:"
        tr -d '\r' < "$log" | grep -a -v '^initcall' | tail -40; cat "$log.qemu"
        exit 2
    fi
    tr -d '\r' < "$log" | grep -a '^bench: ' | grep -av '^bench: \(running\|start\|done\|skip\)' \
        | sed 's/^bench: //' > "$TMP/$name.out"
}

run=1
while [ $run -le "$RUNS" ]; do
    boot "ram$run" all -initrd ext2.img
    boot "ata$run" readata -drive "file=ext2.img,format=raw,if=ide,index=0,snapshot=on"
    cat "$TMP/ram$run.out" "$TMP/ata$run.out" > "$TMP/run$run"
    run=$((run + 1))
done
[ -n "$RAW" ] && cp "$TMP/run1" "$RAW"
if [ "$SMOKE" = 1 ]; then
    missing=$(grep -v '^#' "$BASELINE" | awk 'NF >= 4 { print $1 }' | while read -r f; do
        grep -q "^$f " "$TMP/run1" || echo "$f"; done)
    if [ -n "$missing" ]; then
        echo "bench: smoke: figures missing:" $missing; exit 1
    fi
    echo "bench: smoke: $(wc -l < "$TMP/run1") figures, every baseline figure present, no errors"
    exit 0
fi

# ---- compare runs, then the baseline
awk -v tol="$TOL" -v runs="$RUNS" -v update="$UPDATE" -v newbase="$TMP/baseline.new" \
    -v basefile="$BASELINE" '
# a figure new to the baseline: counters of events are "eq", the ATA cold
# read (host time) "info", cycles and memory "le"
function checkof(n) {
    if (n in bcheck) return bcheck[n]
    if (n ~ /^read\.ata\.cold$/) return "info"
    if (unit[n] ~ /^(faults|retries|copies|chunks|calls|ios|sectors\/io)$/) return "eq"
    return "le"
}
FILENAME == basefile {
    if ($0 ~ /^#/ || NF < 4) { if (update) hdr = hdr $0 "\n"; next }
    bval[$1] = $2; bcheck[$1] = $4; border[++nb] = $1; next
}
{
    r = FILENAME; sub(/.*run/, "", r)
    if (r == 1) { order[++n] = $1; val[$1] = $2; unit[$1] = $3 }
    else if (!($1 in val) || val[$1] != $2) diff[$1] = diff[$1] " " $2
}
END {
    bad = 0
    printf "%-40s %14s %-11s %14s %8s  %s\n", "figure", "value", "unit", "baseline", "change", "status"
    for (k = 1; k <= n; k++) {
        f = order[k]; v = val[f]; c = checkof(f); st = "ok"; ch = ""
        if (f in bval) {
            b = bval[f]
            if (b != 0) ch = sprintf("%+.1f%%", (v - b) * 100 / b)
            else if (v != 0) ch = "+inf"
            if (c == "info") st = "info"
            else if (c == "eq") { if (v != b) { st = "CHANGED"; bad = 1 } }
            else if (b == 0 ? v > 0 : v > b * (1 + tol / 100)) { st = "REGRESSION"; bad = 1 }
            else if (b != 0 && v < b * (1 - tol / 100)) st = "better"
        } else { b = "-"; st = "new" }
        if ((f in diff) && c != "info") { st = st ",UNREPEATABLE(" diff[f] " )"; bad = 1; ndiff++ }
        printf "%-40s %14s %-11s %14s %8s  %s\n", f, v, unit[f], b, ch, st
    }
    for (k = 1; k <= nb; k++)
        if (!(border[k] in val)) { printf "%-40s %14s %-11s %14s %8s  %s\n", border[k], "-", "", bval[border[k]], "", "MISSING"; bad = 1 }
    if (update) {
        printf "%s", hdr > newbase
        for (k = 1; k <= n; k++) printf "%s %s %s %s\n", order[k], val[order[k]], unit[order[k]], checkof(order[k]) > newbase
    }
    if (runs > 1) printf "\nrepeatability: %d runs, %s\n", runs, ndiff ? "SOME FIGURES DIFFER (see UNREPEATABLE)" : "every compared figure identical in every run"
    exit bad
}' "$BASELINE" "$TMP"/run[0-9]*
rc=$?
if [ "$UPDATE" = 1 ]; then
    cp "$TMP/baseline.new" "$BASELINE" && echo "bench: wrote $BASELINE"
    exit 0
fi
if [ $rc -ne 0 ]; then
    echo "bench: FAILED (tolerance ${TOL}%: see REGRESSION / CHANGED / MISSING / UNREPEATABLE above)"
    exit 1
fi
echo "bench: all figures within ${TOL}% of $BASELINE"
