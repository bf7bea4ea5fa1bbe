#!/bin/bash
# tools/tests/systests.sh: the system calls tested from user space ON Vellum
# (host test).  Builds an ext2 root from build/rootfs, boots
# init=/tests/sys_init, which runs files_fs and t_uaccess on the ext2 root
# (/st) and on /tmp (ramfs), files_sys, and files_mission (the write killed
# by SIGKILL, on both; on ext2 it also leaves files with known contents).
# Each "PASS x"/"FAIL x" line of the programs becomes "PASS sys.x"/"FAIL
# sys.x"; each program's exit status is checked; after the power off the
# image must be e2fsck-clean and debugfs must read back exactly the expected
# bytes of the files the mission test left.
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=sys
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-systests.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
gcc -O2 -o "$TMP/vpattern" tools/vpattern.c 2>"$TMP/gcc.log" ||
    { fail "$T.vpattern_build"; show_tail "$TMP/gcc.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
mkdir -p "$TMP/root/tmp"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 64M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi
LOG=$TMP/serial.log
vellum_qemu "$LOG" 90 -kernel "$KERNEL" -append "root=hda init=/tests/sys_init" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }

# The programs' own verdicts, prefixed.
log | sed -n 's/^\(PASS\|FAIL\) \(.*\)$/\1 sys.\2/p'
log | sed -n 's/^\(SKIP\) \(.*\)$/\1 sys.\2/p'

# Every program ran to the end with status 0.
for run in "/tests/files_fs /st" "/tests/files_fs /tmp" "/tests/files_sys -" \
           "/tests/t_uaccess /st" "/tests/t_uaccess /tmp" \
           "/tests/files_mission /tmp" "/tests/files_mission /st"; do
    st=$(log | sed -n "s|^sys_init: $run status \([0-9-]*\)$|\1|p" | tail -1)
    name="$T.status.$(basename "${run% *}")_$(echo "${run#* }" | tr -d /)"
    if [ "$st" = 0 ]; then pass "$name"
    else fail "$name (status '${st:-none}')"; fi
done
if log | grep -q 'Power down\|power off'; then pass "$T.power_off"
else fail "$T.power_off ($(qemu_status_text $rc))"; show_tail "$LOG" 30; fi
if log | grep -qi 'oops\|panic'; then fail "$T.no_oops"; log | grep -i -m3 'oops\|panic'
else pass "$T.no_oops"; fi
# No lock or invariant report either (sendfile(fd, fd) once locked f_pos twice).
if log | grep -q 'BUG:\|WARNING:'; then fail "$T.no_bug_report"; log | grep -m3 'BUG:\|WARNING:'
else pass "$T.no_bug_report"; fi

# The image afterwards.
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi

dump() { debugfs -R "dump $1 $2" "$TMP/root.img" >/dev/null 2>&1 && [ -f "$2" ]; }
# killed.dat: a whole-chunk prefix of the repeated pattern block, the size
# Vellum reported, nothing after.
ksize=$(log | sed -n 's|^mission: /st/killed.dat size \([0-9]*\) .*|\1|p' | tail -1)
if [ -n "$ksize" ] && dump /st/killed.dat "$TMP/killed.dat"; then
    "$TMP/vpattern" systests.kill $((40960 + 123)) > "$TMP/block"
    n=$(( ksize / (40960 + 123) + 1 ))
    for ((i = 0; i < n; i++)); do cat "$TMP/block"; done | head -c "$ksize" > "$TMP/kill.want"
    if [ "$(stat -c %s "$TMP/killed.dat")" = "$ksize" ] && [ $((ksize % 4096)) = 0 ] &&
       cmp -s "$TMP/killed.dat" "$TMP/kill.want"; then
        pass "$T.debugfs.killed_prefix ($ksize bytes)"
    else fail "$T.debugfs.killed_prefix (size $(stat -c %s "$TMP/killed.dat"), Vellum said $ksize)"; fi
else fail "$T.debugfs.killed_prefix (no size line or no file)"; fi
# half.dat: pattern bytes 2048..4095 then 2048 zeros (the never-touched page).
if dump /st/half.dat "$TMP/half.dat"; then
    { "$TMP/vpattern" systests.keep 4096 | tail -c 2048; head -c 2048 /dev/zero; } > "$TMP/half.want"
    if cmp -s "$TMP/half.dat" "$TMP/half.want"; then pass "$T.debugfs.half_contents"
    else fail "$T.debugfs.half_contents ($(cmp "$TMP/half.dat" "$TMP/half.want" 2>&1 | head -1))"; fi
else fail "$T.debugfs.half_contents (no /st/half.dat)"; fi
# wv.dat: exactly the first iovec (pattern bytes 100..399).
if dump /st/wv.dat "$TMP/wv.dat"; then
    "$TMP/vpattern" systests.keep 400 | tail -c 300 > "$TMP/wv.want"
    if cmp -s "$TMP/wv.dat" "$TMP/wv.want"; then pass "$T.debugfs.writev_contents"
    else fail "$T.debugfs.writev_contents (size $(stat -c %s "$TMP/wv.dat"))"; fi
else fail "$T.debugfs.writev_contents (no /st/wv.dat)"; fi
# pwv.dat: pwritev/pwritev2 (RWF_APPEND, RWF_DSYNC at f_pos) from files_fs.
if dump /st/pwv.dat "$TMP/pwv.dat"; then
    if [ "$(cat "$TMP/pwv.dat")" = "Hello Vector tail!" ] && [ "$(stat -c %s "$TMP/pwv.dat")" = 18 ]
    then pass "$T.debugfs.pwritev_contents"
    else fail "$T.debugfs.pwritev_contents ($(head -c 40 "$TMP/pwv.dat" | od -c | head -2))"; fi
else fail "$T.debugfs.pwritev_contents (no /st/pwv.dat)"; fi
# pwv_big.dat: "HIGH" at 4 GiB + 5 (pwritev's high offset half), a hole
# before it.  Not dumped (4 GiB): the block is found with bmap and read from
# the image (1 KiB blocks: logical block 4194304, bytes 5..8).
size=$(debugfs -R "stat /st/pwv_big.dat" "$TMP/root.img" 2>/dev/null | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1)
pblk=$(debugfs -R "bmap /st/pwv_big.dat 4194304" "$TMP/root.img" 2>/dev/null | tail -1)
got=$( [ -n "$pblk" ] && [ "$pblk" != 0 ] && dd if="$TMP/root.img" bs=1024 skip="$pblk" count=1 2>/dev/null | head -c 9 | od -An -c | tr -d ' ')
if [ "$size" = $((4294967296 + 9)) ] && [ "$got" = '\0\0\0\0\0HIGH' ]; then
    pass "$T.debugfs.pwritev_high_offset"
else fail "$T.debugfs.pwritev_high_offset (size '${size:-none}', block '$pblk', bytes '$got')"; fi
