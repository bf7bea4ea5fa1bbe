#!/bin/bash
# tools/tests/busybox.sh: Debian's busybox-static (i386) on Vellum.
# Layer: host test (the Linux ABI: static glibc, poll, sendfile, statx...).
#
# Fetches busybox into $BUILD/busybox/ once (tools/getbusybox.sh; when it
# cannot be had, prints `SKIP busybox (why)` and stops), builds a root image
# with /bin/busybox, applet symlinks in /bb and tools/tests/busybox/bb_test.sh
# as /tests, and boots it with /etc/rc replaced by bb_rc: our init runs it,
# it runs `busybox sh /tests/bb_test.sh` (echo, ls, cat, wc, mkdir, rm, cp,
# sort, grep, head, tail, sed, a for loop, $(( )), $( ), [ ]) and powers off.
# Checks: the script finished with status 0, no system call was missing
# (-ENOSYS), power off, e2fsck clean, and each output file read back with
# debugfs holds exactly what Linux's busybox would have written.
source "$(dirname "$0")/../testlib.sh"
T=busybox
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-busybox.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

if ! why=$(bash tools/getbusybox.sh "$BUILD/busybox"); then
    skip "busybox ($why)"
    exit 0
fi
BB=$BUILD/busybox/busybox
make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }

X=$TMP/extra
mkdir -p "$X/bin" "$X/bb" "$X/tests" "$X/etc"
cp "$BB" "$X/bin/busybox"
for a in sh echo ls cat wc mkdir rmdir rm cp mv sort grep head tail sed sync \
         test [ true false; do
    ln -s /bin/busybox "$X/bb/$a"
done
cp tools/tests/busybox/bb_test.sh "$X/tests/bb_test.sh"
cp tools/tests/busybox/bb_rc "$X/etc/rc"
IMG=$TMP/bb.img
if ! bash tools/mkrootfs.sh "$BUILD/rootfs" "$IMG" 32M "$X" >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi

LOG=$TMP/serial.log
vellum_qemu "$LOG" 120 -kernel "$KERNEL" -append "root=hda" \
    -drive "file=$IMG,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }

st=$(log | sed -n 's/^bb: status \([0-9]*\)$/\1/p' | tail -1)
if [ "$st" = 0 ] && log | grep -qx 'bb: done'; then pass "$T.script_ran"
else fail "$T.script_ran (status '${st:-none}')"; show_tail "$LOG" 30; fi
if log | grep -q 'bb: .*failed'; then fail "$T.no_errors ($(log | grep 'bb: .*failed' | head -1))"
else pass "$T.no_errors"; fi
missing=$(log | grep 'not implemented (-ENOSYS)' | sed 's/.*system call \([0-9]*\).*/\1/' | sort -un | tr '\n' ' ')
if [ -z "$missing" ]; then pass "$T.no_enosys"
else fail "$T.no_enosys (system calls missing: $missing)"; fi
if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then pass "$T.power_off"
else fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; show_tail "$LOG" 20; fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi

expect() {                             # expect FILE CONTENT (printf %b)
    debugfs -R "cat /home/bb/$1" "$IMG" > "$TMP/got" 2>/dev/null
    printf '%b' "$2" > "$TMP/want"
    if cmp -s "$TMP/got" "$TMP/want"; then pass "$T.$1"
    else fail "$T.$1 (got '$(head -c 80 "$TMP/got" | od -An -c | tr -s ' ' | tr '\n' ' ')')"; fi
}
expect fruit 'cherry\napple\nbanana\n'
expect sorted 'apple\nbanana\ncherry\n'
expect grep.out 'banana\n'
expect head.out 'cherry\n'
expect tail.out 'banana\n'
expect sed.out 'cherry\nApple\nbAnAnA\n'
expect wc.out '3\n'
expect cat.out '40\n'
expect sub/deeper/copy 'cherry\napple\nbanana\n'
expect ls.out 'copy\n'
expect loop.out 'n1\nn2\nn3\n'
expect arith.out '42\n'
expect subst.out 'first=apple\n'
expect test.out 'yes\n'
for gone in doomed gone; do
    if debugfs -R "stat /home/bb/$gone" "$IMG" 2>&1 | grep -q 'File not found'; then pass "$T.removed_$gone"
    else fail "$T.removed_$gone (still there)"; fi
done
