#!/bin/bash
# tools/tests/glibc_files.sh: a static glibc program doing file work on the
# ext2 root (host test; the Linux ABI as glibc uses it).
# Compiles user/tests/host/glibc_files.c with the host's gcc -m32 -static
# (SKIP if the host cannot link it), puts it in a root image as
# /tests/glibc_files with an /etc/rc that runs it and powers off, boots, and
# checks: its PASS/FAIL lines, its exit status, power off, e2fsck, and the
# files it left (read back with debugfs).
source "$(dirname "$0")/../testlib.sh"
T=glibc_files
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-glibcf.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

X=$TMP/extra
mkdir -p "$X/tests" "$X/etc"
if ! gcc -m32 -static -O2 -o "$X/tests/glibc_files" user/tests/host/glibc_files.c >"$TMP/gcc.log" 2>&1; then
    skip "$T (the host's gcc -m32 -static cannot link: $(head -c 100 "$TMP/gcc.log"))"
    exit 0
fi
make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
printf '%s\n' '/tests/glibc_files /home/glibc' 'echo "glibc_files: status $?"' poweroff > "$X/etc/rc"
IMG=$TMP/root.img
bash tools/mkrootfs.sh "$BUILD/rootfs" "$IMG" 32M "$X" >"$TMP/mkfs.log" 2>&1 ||
    { fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0; }
LOG=$TMP/serial.log
vellum_qemu "$LOG" 60 -kernel "$KERNEL" -append "root=hda" \
    -drive "file=$IMG,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }

npass=$(log | grep -c '^glibc_files: PASS')
log | grep '^glibc_files: FAIL' -A1 | sed 's/^glibc_files: /    /'
st=$(log | sed -n 's/^glibc_files: status \([0-9]*\)$/\1/p')
if [ "$st" = 0 ] && [ "$npass" -ge 25 ]; then pass "$T.program ($npass checks)"
else fail "$T.program (status '${st:-none}', $npass checks passed)"; show_tail "$LOG" 20; fi
if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then pass "$T.power_off"
else fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
got=$(debugfs -R "cat /home/glibc/result" "$IMG" 2>/dev/null)
if [ "$got" = $'renamed\nPASS' ]; then pass "$T.result_file"
else fail "$T.result_file (got '$got')"; fi
size=$(debugfs -R "stat /home/glibc/data" "$IMG" 2>/dev/null | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1)
if [ "$size" = 10004 ]; then pass "$T.sparse_size"
else fail "$T.sparse_size (size '$size')"; fi
names=$(debugfs -R "ls /home/glibc" "$IMG" 2>/dev/null | tr -s ' \n' '\n\n' | grep -v '^[0-9(]' | grep -v '^$' | sort | tr '\n' ' ')
if [ "$names" = ". .. data result " ]; then pass "$T.directory"
else fail "$T.directory (names '$names')"; fi
