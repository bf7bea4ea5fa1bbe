#!/bin/bash
# tools/tests/ucachestat.sh: cachestat(2) from user space ON Vellum (host
# test; lab 1's user-level tests, tools/labs/syscall.tests).  Boots the
# production kernel with init=/tests/cachestat_test on an ext2 root made
# from build/rootfs; each "PASS x"/"FAIL x" of the program (return values,
# errno, counts against page-cache states it made: user/tests/cachestat_test.c)
# becomes "PASS ucachestat.x"/"FAIL ucachestat.x".  The program must reach its
# last line with 0 failures and the machine must power off; the image must
# then be e2fsck-clean.
source "$(dirname "$0")/../testlib.sh"
T=ucachestat
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-ucachestat.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" "$KERNEL" user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 16M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi
LOG=$TMP/serial.log
vellum_qemu "$LOG" "${CACHESTAT_TIMEOUT:-40}" -kernel "$KERNEL" \
    -append "root=hda init=/tests/cachestat_test" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }

log | sed -n "s/^\(PASS\|FAIL\) \(.*\)$/\1 $T.\2/p"
# A kernel without the call says so once; show it under the failures.
log | grep -m2 'LAB: \|system call 451 not implemented' | sed 's/^/    | /'
nfail=$(log | sed -n 's/^cachestat_test: done, \([0-9]*\) failed$/\1/p' | tail -1)
if [ "$nfail" = 0 ]; then pass "$T.ran_to_the_end"
else fail "$T.ran_to_the_end (last line: '$(log | grep '^cachestat_test: done' | tail -1)', $(qemu_status_text $rc))"
     show_tail "$LOG" 15; fi
if log | grep -q 'Power down\|power off'; then pass "$T.power_off"
else fail "$T.power_off ($(qemu_status_text $rc))"; fi
if log | grep -qi 'oops\|panic'; then fail "$T.no_oops"; log | grep -i -m3 'oops\|panic'
else pass "$T.no_oops"; fi
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
