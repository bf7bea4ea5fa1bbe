#!/bin/bash
# tools/tests/sigfpu.sh: the FPU state in signal frames and sigaltstack(2),
# booted for real (host test; kernel/signal.c, docs/processes.md).
# Builds user/tests/host/glibc_signal.c with the host's gcc -m32 -static
# (skipped if it cannot link), boots it as init on an ext2 root; it forks a
# child that prints "PASS sig.NAME" / "FAIL sig.NAME (why)" for each check
# (registers exact across an FPU-using handler, both sigreturns; a long x87
# and SSE computation interrupted by signals from another process stays
# exact; corrupted frames give SIGSEGV; sigaltstack's errors, SA_ONSTACK,
# SS_AUTODISARM, a stack overflow caught on the alternate stack -> exit 42),
# then prints "sigfpu: done N" and powers off.
source "$(dirname "$0")/../testlib.sh"
T=sigfpu
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-sigfpu.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
mkdir -p "$TMP/root/tests" "$TMP/root/dev" "$TMP/root/tmp"
if ! gcc -m32 -static -O2 -msse2 -Wno-infinite-recursion -o "$TMP/root/tests/glibc_signal" \
        user/tests/host/glibc_signal.c -lm >"$TMP/gcc.log" 2>&1; then
    skip "$T (the host's gcc -m32 -static cannot link: $(head -c 100 "$TMP/gcc.log"))"
    exit 0
fi
cp -a "$BUILD/rootfs/." "$TMP/root/"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 16M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi
LOG=$TMP/serial.log
vellum_qemu "$LOG" 120 -kernel "$KERNEL" -append "root=hda init=/tests/glibc_signal" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }
log | sed -n "s/^\(PASS\|FAIL\) sig\.\(.*\)$/\1 $T.\2/p"
n=$(log | sed -n 's/^sigfpu: done \([0-9]*\)$/\1/p')
npass=$(log | grep -c '^PASS sig\.')
if [ "$n" = 0 ] && [ "$npass" -ge 20 ]; then pass "$T.all_ran"
else fail "$T.all_ran (done line '${n:-none}', $npass PASS lines)"; show_tail "$LOG" 30; fi
if log | grep -q 'bad rt_sigreturn frame'; then pass "$T.bad_frame_reported"
else fail "$T.bad_frame_reported (no 'bad rt_sigreturn frame' line)"; fi
if log | grep -qi 'oops\|panic'; then fail "$T.no_oops"; show_tail "$LOG" 30
else pass "$T.no_oops"; fi
if [ "$rc" = 0 ] && log | grep -qi 'power off'; then pass "$T.power_off"
else fail "$T.power_off ($(qemu_status_text $rc))"; fi
exit 0
