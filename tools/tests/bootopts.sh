#!/bin/bash
# tools/tests/bootopts.sh: nproc= and reboot(2)'s RESTART and HALT, booted
# for real (host test).  /tests/boot_init is copied onto an ext2 root as
# /tests/nproc_5, /tests/reboot_restart and /tests/reboot_halt (it acts on
# its name; see user/tests/boot_init.c) and each is booted as init=:
#   nproc=5 init=/tests/nproc_5   the 5th fork (init + 4 children) is EAGAIN
#   init=/tests/reboot_restart    both are a power off on Vellum (no reset
#   init=/tests/reboot_halt       path): the file written just before without
#                                 a sync must be on the image (debugfs), the
#                                 image e2fsck-clean, QEMU exits 0.
source "$(dirname "$0")/../testlib.sh"
T=bootopts
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-bootopts.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
for n in nproc_5 reboot_restart reboot_halt; do
    cp "$BUILD/user/tests/boot_init" "$TMP/root/tests/$n"
done
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 16M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi

log() { tr -d '\r' < "$LOG"; }
for c in "nproc_5|nproc=5" "reboot_restart|" "reboot_halt|"; do
    IFS='|' read -r name opts <<<"$c"
    LOG=$TMP/$name.log IMG=$TMP/$name.img
    cp "$TMP/root.img" "$IMG"
    vellum_qemu "$LOG" 60 -kernel "$KERNEL" -append "root=hda $opts init=/tests/$name" \
        -drive "file=$IMG,format=raw,if=ide,index=0"
    rc=$?
    log | sed -n "s/^\(PASS\|FAIL\) boot\.\(.*\)$/\1 $T.$name.\2/p"
    ok=1
    nfail=$(log | sed -n 's/^boot_init: done \([0-9]*\)$/\1/p')
    if [ "$nfail" = 0 ]; then pass "$T.$name.ran"
    else fail "$T.$name.ran (done line '${nfail:-none}')"; ok=0; fi
    if [ "$rc" = 0 ] && log | grep -q "power off: root (hda) synced and read-only"; then
        pass "$T.$name.power_off"
    else fail "$T.$name.power_off ($(qemu_status_text $rc))"; ok=0; fi
    if log | grep -qi 'oops\|panic'; then fail "$T.$name.no_oops"; ok=0
    else pass "$T.$name.no_oops"; fi
    if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.$name.fsck_clean"
    else fail "$T.$name.fsck_clean"; show_tail "$TMP/fsck.log"; fi
    if [ "$name" != nproc_5 ]; then
        got=$(debugfs -R "cat /data.txt" "$IMG" 2>/dev/null)
        if [ "$got" = "$name" ]; then pass "$T.$name.data_synced"
        else fail "$T.$name.data_synced (/data.txt is '$got')"; ok=0; fi
    fi
    [ $ok = 1 ] || show_tail "$LOG" 30
done
exit 0
