#!/bin/bash
# tools/conform.sh: the differential conformance suite (user/conform,
# docs/conformance.md).  Layer: host tooling.
#
#   tools/conform.sh [PROGRAM...]            Vellum: boot once, run every
#                    program (or those named) on ramfs (/tmp), on ext2 with
#                    1 KiB blocks and on ext2 with 4 KiB blocks, and
#                    compare with the committed Linux outputs
#                    user/conform/NAME.linux.out, less the observations
#                    user/conform/KNOWN-DIFFERENCES lists
#   tools/conform.sh --linux [--update] [PROGRAM...]
#                    Linux (Debian's 6.1, tools/linuxvm.sh): run them the
#                    same way and check the committed outputs are still
#                    Linux's, exactly; --update rewrites them instead
#
# Every program is built on the host with gcc -m32 -static (glibc) and put
# in one ext2 image (tools/mkrootfs.sh: 1 KiB blocks, Vellum's root file
# system) as /conform/NAME; a second, empty image has 4 KiB blocks.  Vellum
# boots from the first (root=hda), mounts the second (hdb) on /mnt, and its
# /etc/rc runs "NAME ramfs /tmp/conform", "NAME ext2 /home/conform" and
# "NAME ext2_4k /mnt/conform"; Linux boots Debian's kernel with a busybox
# initramfs that mounts a ramfs on /tmp and the first image on /mnt, and
# runs the same lines from /mnt/conform/linux.rc, which mounts the second
# (sdb) on /mnt/mnt.  The output of NAME is its lines "NAME FS: ...".
# Prints PASS/FAIL/SKIP lines (tools/testlib.sh), one per program; exit
# status 0 when nothing failed.  KEEP=1 keeps the temporary directory.
source "$(dirname "$0")/testlib.sh"
SIDE=vellum UPDATE=0 PROGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --linux) SIDE=linux; shift ;;
        --update) UPDATE=1; shift ;;
        -*) echo "conform.sh: unknown option $1" >&2; exit 2 ;;
        *) PROGS+=("$1"); shift ;;
    esac
done
C=user/conform
KNOWN=$C/KNOWN-DIFFERENCES
if [ ${#PROGS[@]} -eq 0 ]; then
    for f in $C/*.c; do PROGS+=("$(basename "$f" .c)"); done
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-conform.XXXXXX") || exit 2
if [ "${KEEP:-}" = 1 ]; then echo "conform: files kept in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
T=conformance

# ---- the programs and the image
X=$TMP/extra
mkdir -p "$X/conform" "$X/etc" "$X/home/conform"
for p in "${PROGS[@]}"; do
    [ -f "$C/$p.c" ] || { fail "$T.$p (no $C/$p.c)"; exit 1; }
    if ! gcc -m32 -static -O2 -Wall -o "$X/conform/$p" "$C/$p.c" >"$TMP/gcc.log" 2>&1; then
        if gcc -m32 -static -O2 -o "$TMP/hello" -x c - <<<'int main(void){return 0;}' >/dev/null 2>&1; then
            fail "$T.$p (does not compile)"; show_tail "$TMP/gcc.log"; exit 1
        fi
        skip "$T (the host's gcc -m32 -static cannot link: $(head -c 100 "$TMP/gcc.log"))"
        exit 0
    fi
done
echo 'mount -t ext2 /dev/hdb /mnt' > "$X/etc/rc"
cat > "$X/conform/linux.rc" <<'EOF'
n=0; while [ ! -b /dev/sdb ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
mount -t ext2 /dev/sdb /mnt/mnt
EOF
for p in "${PROGS[@]}"; do
    printf '/conform/%s ramfs /tmp/conform\n/conform/%s ext2 /home/conform\n' "$p" "$p" >> "$X/etc/rc"
    printf '/conform/%s ext2_4k /mnt/conform\n' "$p" >> "$X/etc/rc"
    printf '/mnt/conform/%s ramfs /tmp/conform\n/mnt/conform/%s ext2 /mnt/home/conform\n' "$p" "$p" >> "$X/conform/linux.rc"
    printf '/mnt/conform/%s ext2_4k /mnt/mnt/conform\n' "$p" >> "$X/conform/linux.rc"
done
echo 'echo "conform: done"' | tee -a "$X/conform/linux.rc" >> "$X/etc/rc"
echo poweroff >> "$X/etc/rc"
make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 1; }
IMG=$TMP/conform.img
# 48 MiB: the root (9 MiB), about 750 KiB per static program, room for the
# programs that write on ext2 (32 MiB ran out at 31 programs: ENOSPC).
bash tools/mkrootfs.sh "$BUILD/rootfs" "$IMG" 48M "$X" >"$TMP/mkfs.log" 2>&1 ||
    { fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 1; }
# The 4 KiB image: empty, the same features and fixed identity as
# mkrootfs's (ext2 revision 1, filetype only), /conform made by the program.
IMG4=$TMP/conform4k.img
rm -f "$IMG4"
E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null PATH=$PATH:/usr/sbin:/sbin \
    mke2fs -q -F -t ext2 -r 1 -O none,filetype -b 4096 -m 0 -E root_owner=0:0 \
        -U 5e11d0c0-0000-4000-8000-0000000000f4 "$IMG4" 32M >>"$TMP/mkfs.log" 2>&1 ||
    { fail "$T.mkfs (4 KiB)"; show_tail "$TMP/mkfs.log"; exit 1; }

# ---- the boot
LOG=$TMP/serial.log
if [ $SIDE = vellum ]; then
    vellum_qemu "$LOG" 150 -kernel "$KERNEL" -append "root=hda" \
        -drive "file=$IMG,format=raw,if=ide,index=0" -drive "file=$IMG4,format=raw,if=ide,index=1"
else
    source tools/linuxvm.sh
    linux_setup
    linux_qemu "$LOG" 600 "$IMG" /bin/sh,/mnt/conform/linux.rc "$IMG4"
fi
rc=$?
tr -d '\r' < "$LOG" > "$TMP/log"
if ! grep -q '^conform: done' "$TMP/log"; then
    fail "$T.boot ($SIDE: no 'conform: done'; qemu status $rc)"; show_tail "$LOG" 40; exit 1
fi

# ---- the comparison
# KNOWN-DIFFERENCES: "PROGRAM FS: KEY" lines (FS may be *), each under the
# comment that gives its reason; an observation whose line starts so is
# left out on both sides.
grep -v '^\s*\(#\|$\)' "$KNOWN" 2>/dev/null |
    sed 's/[.[\^$]/\\&/g; s/^\([^ ]*\) \*:/\1 [a-z0-9_]*:/; s/^/^/' > "$TMP/known.re"
echo '^$NEVER' >> "$TMP/known.re"
bad=0
for p in "${PROGS[@]}"; do
    ref=$C/$p.linux.out
    grep -a "^$p [a-z0-9_]*: " "$TMP/log" > "$TMP/$p.out"
    if [ $SIDE = linux ] && [ $UPDATE = 1 ]; then
        cp "$TMP/$p.out" "$ref"; pass "$T.linux.$p (rewrote $ref: $(wc -l < "$ref") lines)"; continue
    fi
    if [ ! -f "$ref" ]; then
        fail "$T.$p (no $ref: make conformance-linux UPDATE=1)"; bad=1; continue
    fi
    if [ $SIDE = linux ]; then
        if diff -u "$ref" "$TMP/$p.out" > "$TMP/$p.diff"; then
            pass "$T.linux.$p ($(wc -l < "$ref") lines as committed)"
        else
            fail "$T.linux.$p (Linux's output is not the committed $ref)"
            sed 's/^/    /' "$TMP/$p.diff"; bad=1
        fi
        continue
    fi
    grep -v -f "$TMP/known.re" "$ref" > "$TMP/$p.ref.cmp"
    grep -v -f "$TMP/known.re" "$TMP/$p.out" > "$TMP/$p.out.cmp"
    if diff -U1 --label "linux ($ref)" --label "vellum" "$TMP/$p.ref.cmp" "$TMP/$p.out.cmp" > "$TMP/$p.diff"; then
        pass "$T.$p ($(wc -l < "$TMP/$p.ref.cmp") lines equal to Linux's, $(($(wc -l < "$ref") - $(wc -l < "$TMP/$p.ref.cmp"))) known differences)"
    else
        fail "$T.$p ($(grep -c '^+[^+]' "$TMP/$p.diff") lines differ from Linux's)"
        sed 's/^/    /' "$TMP/$p.diff"; bad=1
    fi
    # a known difference that no longer differs: say so (the entry can go)
    grep -f "$TMP/known.re" "$ref" > "$TMP/$p.kref"
    grep -f "$TMP/known.re" "$TMP/$p.out" > "$TMP/$p.kout"
    if [ -s "$TMP/$p.kref" ] && cmp -s "$TMP/$p.kref" "$TMP/$p.kout"; then
        echo "    note: $p's known differences are now equal to Linux's; remove them from $KNOWN"
    fi
done
exit $bad
