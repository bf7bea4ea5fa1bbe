#!/bin/bash
# tools/tests/proc_boot.sh: the process layer booted for real (host test).
# Builds an ext2 root from build/rootfs plus a static glibc program compiled
# here (gcc -m32 -static; skipped if the host cannot), boots
# init=/tests/proc_init, which runs /tests/proc_core (fork/exec/signals/
# faults/stress, our libc), /tests/t_proc and the glibc program, prints each
# exit status and powers off.  Checks: the statuses, the segfault report
# lines, a clean power off, and e2fsck on the image afterwards.
source "$(dirname "$0")/../testlib.sh"
T=proc_boot
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-procboot.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
cp "$BUILD/user/tests/proc_core" "$BUILD/user/tests/proc_init" "$TMP/root/tests/" 2>/dev/null
have_glibc=0
if gcc -m32 -static -O2 -o "$TMP/root/tests/glibc_hello" user/tests/host/glibc_hello.c \
        >"$TMP/gcc.log" 2>&1; then
    have_glibc=1
else
    skip "$T.glibc (the host's gcc -m32 -static cannot link: $(head -c 100 "$TMP/gcc.log"))"
fi
mkdir -p "$TMP/root/tmp"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 32M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi
LOG=$TMP/serial.log
vellum_qemu "$LOG" 120 -kernel "$KERNEL" -append "root=hda init=/tests/proc_init" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }
status_of() { log | sed -n "s|^proc_init: $1 status \([0-9-]*\)$|\1|p" | tail -1; }

st=$(status_of /tests/proc_core)
if [ "$st" = 0 ]; then pass "$T.proc_core"
else fail "$T.proc_core (status '${st:-none}': line $(( (${st:-256} >> 8) - 1 )) of proc_core.c)"; fi
st=$(status_of /tests/t_proc)
nfail=$(log | grep -c '^FAIL ')
if [ "$st" = 0 ] && [ "$nfail" = 0 ]; then pass "$T.t_proc"
else fail "$T.t_proc (status '${st:-none}', $nfail FAIL lines)"; fi
if [ $have_glibc = 1 ]; then
    st=$(status_of /tests/glibc_hello)
    if [ "$st" = 0 ] && log | grep -q 'glibc: wrote and read back 100 lines: PASS'; then
        pass "$T.glibc_static"
    else fail "$T.glibc_static (status '${st:-none}')"; fi
fi
for what in "segfault at 0 ip" "(write to a read-only mapping)" "segfault at b"; do
    if log | grep -qF "$what"; then pass "$T.report '$what'"
    else fail "$T.report '$what' (no such report line)"; fi
done
if log | grep -q 'reboot: Power down\|Power down\|power off'; then pass "$T.power_off"
else fail "$T.power_off (qemu status $rc)"; show_tail "$LOG" 30; fi
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
