#!/bin/bash
# tools/ubench.sh: the user-space benchmark (user/bench/ubench.c) booted as
# init from an ext2 image and from an ext3 one, on Vellum and (--linux) on
# Debian's Linux 6.1 in the same QEMU (Linux mounts the ext3 image as ext3:
# its ext4 driver, no extents, data=ordered, as Vellum).  Layer: host tooling.  docs/benchmarks.md explains the
# figures ("The user-space benchmark").
#
#   tools/ubench.sh [--linux] [--runs N] [--smoke] [--blocks "1024 4096"] [--fs "ext2 ext3"] [--scale]
#     --linux    also boot Debian's linux-image-6.1.0-*-amd64 with a busybox
#                initramfs and print one table: row, Vellum, Linux, ratio
#     --runs N   boot each configuration N times (default 2); on ext2 every
#                figure but the fsync rows (they wait for the disk, in host
#                time) must be the same in every run; on ext3 a difference
#                is reported, not an error (kjournald's timer commits at a
#                guest time that follows the disk's host-time waits)
#     --smoke    one quick run on Vellum (ubench -q): check only that every
#                figure is printed and there is no error (make check)
#     --fs       the file systems (default both): one image, one table each
#     --scale    also the scaling row (ubench -s N): N processes each
#                overwriting its own file, booted at -smp N for N = 1, 2, 4
#                on the 4 KiB ext2 image, the figure and its ratio to N = 1
#                (with --linux, Linux's at N = 1: its APs do not come up
#                under -icount); --scale-only: that row alone
#   KERNEL=... (default build/vellum.elf), UBENCH=... (build/user/bench/ubench),
#   VELLUM_CACHE=... where the Debian packages are kept (default
#   ~/.cache/vellum; downloaded once with apt-get, then reused offline:
#   tools/linuxvm.sh).
#
# Both kernels run under `-icount shift=0`: the guest's TSC counts guest
# instructions, so ubench's rdtsc deltas are instruction counts.  The ext2
# images are built the same byte for byte every time (fixed UUID, hash seed
# and times) and QEMU is started from a temporary directory with fixed file
# names, so the guest sees the same bytes in every run.
# Exit status: 0 good; 1 an error, a missing or unrepeatable figure; 2 a
# boot or setup failure.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
KERNEL=${KERNEL:-$BUILD/vellum.elf}
UBENCH=${UBENCH:-$BUILD/user/bench/ubench}
RUNS=2 SMOKE=0 LINUX=0 BLOCKS="1024 4096" FSES="ext2 ext3" SCALE=0 SCALE_NS="1 2 4"
while [ $# -gt 0 ]; do
    case "$1" in
        --linux) LINUX=1; shift ;;
        --runs) RUNS=$2; shift 2 ;;
        --smoke) SMOKE=1; RUNS=1; shift ;;
        --blocks) BLOCKS=$2; shift 2 ;;
        --fs) FSES=$2; shift 2 ;;
        --scale) SCALE=1; shift ;;
        --scale-only) SCALE=2; shift ;;
        *) echo "ubench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
PATH=$PATH:/usr/sbin:/sbin
ROWS="memcpy_bound newfile_4k overwrite_4k overwrite_64k overwrite_1000 read_4k anon_untouched_4k mmap_shared_4k fsync_8m smallfile_fsync"
for f in "$KERNEL" "$UBENCH"; do
    [ -f "$f" ] || { echo "ubench: $f is missing (make $f)"; exit 2; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-ubench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

# ---- the images: /ubench only, 64 MiB, fixed UUID, seed and times; ext3
# adds a journal of 4 MiB (mke2fs's default for 64 MiB at 1 KiB blocks)
FAKE_TIME=1700000000
mkimg() {   # mkimg BLOCKSIZE FS [NAME...] -> $TMP/FSBS.img (ext21024.img ...),
            # /ubench and a copy as each NAME
    local bs=$1 fs=$2 img=$TMP/$2$1.img feat=none,filetype jsize= n
    shift 2
    [ "$fs" = ext3 ] && feat=none,filetype,has_journal jsize="-J size=4"
    rm -rf "$TMP/stage"; mkdir -p "$TMP/stage"
    cp "$UBENCH" "$TMP/stage/ubench"; chmod 755 "$TMP/stage/ubench" "$TMP/stage"
    touch -d @$FAKE_TIME "$TMP/stage/ubench" "$TMP/stage"
    for n in "$@"; do
        cp -p "$TMP/stage/ubench" "$TMP/stage/$n"
        printf 'sif /%s ctime %s\nsif /%s atime %s\n' "$n" $FAKE_TIME "$n" $FAKE_TIME >> "$TMP/fix.extra"
    done
    if ! E2FSPROGS_FAKE_TIME=$FAKE_TIME MKE2FS_CONFIG=/dev/null mke2fs -q -F -t "$fs" -b "$bs" \
            -r 1 -O $feat $jsize -I 128 -m 0 -U 75be4c40-0000-4000-8000-00000000000$((bs / 1024)) \
            -E hash_seed=75be4c40-0000-4000-8000-000000000010,root_owner=0:0 \
            -d "$TMP/stage" "$img" 64M >"$TMP/mkfs.log" 2>&1; then
        echo "ubench: mke2fs failed:"; cat "$TMP/mkfs.log"; exit 2
    fi
    # mke2fs -d copies the host's ctime and atime: set them to the fixed time
    printf 'sif /ubench ctime %s\nsif /ubench atime %s\n' $FAKE_TIME $FAKE_TIME > "$TMP/fix.cmds"
    [ -f "$TMP/fix.extra" ] && cat "$TMP/fix.extra" >> "$TMP/fix.cmds" && rm -f "$TMP/fix.extra"
    E2FSPROGS_FAKE_TIME=$FAKE_TIME debugfs -w -f "$TMP/fix.cmds" "$img" >/dev/null 2>&1
}

# collect LOG OUT: the ubench lines of a serial log; fails unless "done ... 0 errors"
collect() {
    tr -d '\r' < "$1" | grep -a '^ubench: ' > "$2.all"
    grep -q '^ubench: done .* 0 errors' "$2.all" || return 1
    grep -v '^ubench: \(start\|done\|calibrate\)' "$2.all" | sed 's/^ubench: //' > "$2"
}

fail_boot() {  # fail_boot NAME LOG
    echo "ubench: boot '$1' failed; serial log:"
    tr -d '\r' < "$2" | grep -av '^initcall' | tail -40
    [ -f "$2.qemu" ] && cat "$2.qemu"
    exit 2
}

QARG=
[ "$SMOKE" = 1 ] && QARG=-q
cp "$KERNEL" "$TMP/vellum.elf" || exit 2

vellum_qemu_ubench() {   # vellum_qemu_ubench LOG FSBS CPUS INIT
    cp "$TMP/$2.img" "$TMP/disk.img"
    (cd "$TMP" && timeout -k 2 240 qemu-system-i386 -accel tcg -icount shift=0 -display none \
        -smp "$3" -no-reboot -m 256M -nic none -monitor none -serial "file:$1" -kernel vellum.elf \
        -append "root=hda init=$4" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
        -drive file=disk.img,format=raw,if=ide,index=0 </dev/null >"$1.qemu" 2>&1)
}

vellum_boot() {   # vellum_boot FSBS RUN
    local log=$TMP/v$1.$2.log
    vellum_qemu_ubench "$log" "$1" 1 "/ubench${QARG:+ }$QARG"
    collect "$log" "$TMP/v$1.$2" || fail_boot "vellum $1 run $2" "$log"
    grep '^ubench: calibrate' "$TMP/v$1.$2.all" > "$TMP/v$1.cal"
}

# ---- Linux: Debian's kernel and busybox-static (tools/linuxvm.sh, shared
# with tools/conform.sh), fetched once into $VELLUM_CACHE/linux
source tools/linuxvm.sh

linux_boot() {   # linux_boot FSBS RUN
    local log=$TMP/l$1.$2.log
    cp "$TMP/$1.img" "$TMP/disk.img"
    linux_qemu "$log" 600 "$TMP/disk.img" "/mnt/ubench${QARG:+,}$QARG,/mnt"
    collect "$log" "$TMP/l$1.$2" || fail_boot "linux $1 run $2" "$log"
    grep '^ubench: calibrate' "$TMP/l$1.$2.all" > "$TMP/l$1.cal"
}

[ "$LINUX" = 1 ] && linux_setup
bad=0
CONFIGS=
[ "$SCALE" = 2 ] && FSES=
for FS in $FSES; do
    for bs in $BLOCKS; do
        mkimg "$bs" "$FS"
        for run in $(seq 1 "$RUNS"); do
            vellum_boot "$FS$bs" "$run"
            [ "$LINUX" = 1 ] && linux_boot "$FS$bs" "$run"
        done
        CONFIGS="$CONFIGS $FS$bs"
    done
done

# every row printed; Vellum's repeatable except the fsync rows.  Linux's rows may
# move by a few instructions from run to run (its kworkers and timers run
# around the disk's host-time waits): reported, not an error.  The table
# shows each row's lowest figure over the runs, for both kernels (for
# Vellum that changes only fsync, which waits for the disk in host time).
for bs in $CONFIGS; do
    for k in v $([ "$LINUX" = 1 ] && echo l); do
        for row in $ROWS; do
            grep -q "^$row " "$TMP/$k$bs.1" || { echo "ubench: $k $bs: figure $row MISSING"; bad=1; }
        done
        for run in $(seq 2 "$RUNS"); do
            if ! diff <(grep -v 'fsync' "$TMP/$k$bs.1") <(grep -v 'fsync' "$TMP/$k$bs.$run") >/dev/null; then
                if [ $k = l ] || [ "${bs:0:4}" = ext3 ]; then
                    # ext3: kjournald's timer commits in guest time, which
                    # follows host time while the guest waits for the disk
                    echo "ubench: $([ $k = l ] && echo Linux || echo Vellum) $bs: run $run differs from run 1 (not exactly repeatable; the table takes the minimum):"
                    diff "$TMP/$k$bs.1" "$TMP/$k$bs.$run" | grep '^[<>]'
                else
                    echo "ubench: $k $bs: run $run differs from run 1 (UNREPEATABLE):"
                    diff "$TMP/$k$bs.1" "$TMP/$k$bs.$run"; bad=1
                fi
            fi
        done
    done
    for k in v $([ "$LINUX" = 1 ] && echo l); do
        for run in $(seq 1 "$RUNS"); do cat "$TMP/$k$bs.$run"; done |
            awk '!($1 in m) { o[n++] = $1 } !($1 in m) || $2 + 0 < m[$1] + 0 { m[$1] = $2; line[$1] = $0 }
                 END { for (i = 0; i < n; i++) print line[o[i]] }' > "$TMP/$k$bs.min"
    done
done
if [ "$SMOKE" = 1 ]; then
    [ $bad = 0 ] && echo "ubench: smoke: every figure printed, no errors"
    exit $bad
fi

# ---- the scaling row: ubench -s N at -smp N, on a 4 KiB ext2 image; each
# figure the lowest of its runs.  N = 1 and 2 repeat exactly on Vellum;
# at N = 4 the CPUs' interleaving depends on where the ticks fall, which
# the boot's disk reads (host time) move: a few percent from boot to boot,
# reported, not an error (docs/benchmarks.md, "The scaling row").
# Vellum's init gets no arguments from the command line: it runs a copy of
# the program named ubench-sN, which is -s N to it.
if [ "$SCALE" != 0 ]; then
    mkimg 4096 ext2 $(for n in $SCALE_NS; do echo "ubench-s$n"; done)
    for n in $SCALE_NS; do
        for run in $(seq 1 "$RUNS"); do
            log=$TMP/vs$n.$run.log
            vellum_qemu_ubench "$log" ext24096 "$n" "/ubench-s$n"
            collect "$log" "$TMP/vs$n.$run" || fail_boot "vellum scale $n run $run" "$log"
            if [ "$run" -gt 1 ] && ! diff -q "$TMP/vs$n.1" "$TMP/vs$n.$run" >/dev/null; then
                echo "ubench: vellum scale_$n: run $run differs from run 1 (at -smp 4 the CPUs' interleaving follows the boot's disk waits, in host time; the table takes the minimum):"
                diff "$TMP/vs$n.1" "$TMP/vs$n.$run" | grep '^[<>]'
            fi
            # Linux 6.1 does not bring its APs up under -icount: it stops
            # at "x86: Booting SMP configuration:" (sleep=off too), so
            # its row has N = 1 only (docs/benchmarks.md)
            if [ "$LINUX" = 1 ] && [ "$n" = 1 ]; then
                cp "$TMP/ext24096.img" "$TMP/disk.img"
                LINUX_SMP=$n linux_qemu "$TMP/ls$n.$run.log" 600 "$TMP/disk.img" "/mnt/ubench,-s,$n,/mnt"
                collect "$TMP/ls$n.$run.log" "$TMP/ls$n.$run" || fail_boot "linux scale $n run $run" "$TMP/ls$n.$run.log"
            fi
        done
    done
    fig_of() { cat "$TMP/$1$2".[0-9]* 2>/dev/null | awk -v r="scale_$2" '$1 == r && (m == "" || $2 + 0 < m) { m = $2 + 0 } END { print m }'; }
    echo
    echo "scaling: N processes, each overwriting its own cached 1 MiB file (4 KiB writes), at -smp N"
    echo "(instructions per KiB written, every CPU's counted; x N=1: the figure over N = 1's)"
    if [ "$LINUX" = 1 ]; then
        printf '%-8s %10s %8s %10s %8s\n' "N" Vellum "x N=1" Linux "x N=1"
    else
        printf '%-8s %10s %8s\n' "N" Vellum "x N=1"
    fi
    v1=$(fig_of vs 1) l1=$([ "$LINUX" = 1 ] && fig_of ls 1)
    for n in $SCALE_NS; do
        v=$(fig_of vs "$n")
        [ -n "$v" ] || { echo "ubench: vellum scale_$n MISSING"; bad=1; continue; }
        vr=$(awk -v a="$v" -v b="$v1" 'BEGIN { printf "%.2f", a / b }')
        if [ "$LINUX" = 1 ]; then
            l=$(fig_of ls "$n"); l=${l:--}
            printf '%-8s %10s %8s %10s %8s\n' "scale_$n" "$v" "$vr" "$l" \
                "$(awk -v a="$l" -v b="$l1" 'BEGIN { if (b > 0 && a != "-") printf "%.2f", a / b; else print "-" }')"
        else
            printf '%-8s %10s %8s\n' "scale_$n" "$v" "$vr"
        fi
    done
    [ "$SCALE" = 2 ] && exit $bad
fi

# ---- the table
echo
for bs in $CONFIGS; do
    echo "${bs:0:4}, $((${bs:4} / 1024)) KiB blocks ($(sed 's/^ubench: //' "$TMP/v$bs.cal") on Vellum)"
    if [ "$LINUX" = 1 ]; then
        printf '%-20s %12s %12s %8s\n' "row (instr/KiB)" Vellum Linux ratio
        for row in $ROWS; do
            v=$(awk -v r=$row '$1 == r { print $2 }' "$TMP/v$bs.min")
            l=$(awk -v r=$row '$1 == r { print $2 }' "$TMP/l$bs.min")
            printf '%-20s %12s %12s %8s\n' "$row" "$v" "$l" \
                "$(awk -v v="$v" -v l="$l" 'BEGIN { if (l > 0) printf "%.2f", v / l; else print "-" }')"
        done
    else
        printf '%-20s %12s\n' "row (instr/KiB)" Vellum
        for row in $ROWS; do
            printf '%-20s %12s\n' "$row" "$(awk -v r=$row '$1 == r { print $2 }' "$TMP/v$bs.min")"
        done
    fi
    echo
done
if [ "$RUNS" -gt 1 ]; then
    echo "repeatability: $RUNS runs each, $([ $bad = 0 ] && echo "every figure but the fsync rows identical" || echo "SOME FIGURES DIFFER")"
fi
exit $bad
