#!/bin/bash
# tools/tests/lowmem.sh: page reclaim, dirty throttling and the OOM killer in
# a 32 MiB guest (host test).  Boots the production kernel with QEMU -m 32M,
# root=hda init=/tests/lowmem (user/tests/lowmem.c) on an ext2 root whose
# /etc/lowmem names the scenario:
#   bigfile   a 128 MiB file written and read back exactly in the guest (four
#             times its memory: only possible if reclaim gives pages back);
#             on the host: e2fsck -fn clean, the file's bytes (debugfs dump)
#             equal to the pattern (tools/vpattern.c)
#   mmap      a 64 MiB file written page by page through a MAP_SHARED
#             mapping, msync'd, unmapped, read back with read() and through
#             a new mapping; reclaim must have unmapped pages; the same host
#             checks
#   hog       a child taking anonymous memory until the OOM killer kills it:
#             its wait status is SIGKILL, the report is Linux's ("invoked
#             oom-killer", "Out of memory: Killed process N (lowmem)"), a file
#             written afterwards reads back, free memory comes back
#   forkbomb  a process group forking and taking memory: OOM kills, then the
#             group killed with SIGKILL and reaped within 10 s, a file
#             written afterwards, free memory back
# The guest prints "lowmem: PASS x" / "lowmem: FAIL x (why)", counted here as
# lowmem.x; every scenario also needs "lowmem: done", no Oops, panic or BUG,
# and e2fsck -fn clean.  Two guests run at a time (about 40 s in all).
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=lowmem
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-lowmem.XXXXXX") || exit 1
trap '[ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT

build_init_test || exit 0

# mkimg MODE SIZE IMAGE: a root with the program, mode in /etc/lowmem.
mkimg() {
    local r=$TMP/root-${3##*/}
    init_root "$r" lowmem
    echo "$1" > "$r/etc/lowmem"
    mke2fs -q -t ext2 -b 4096 -d "$r" "$3" "$2" >"$TMP/mkfs.log" 2>&1 ||
        { fail "$T.mkfs ($1)"; show_tail "$TMP/mkfs.log"; return 1; }
}

# boot NAME IMAGE: QEMU -m 32M until the guest powers off.  In guest time
# (-icount, tools/testlib.sh: vellum_qemu): the program's own limits (the
# 120 s a fork bomb is watched, the 10 s its group has to die) are the same
# work on a loaded machine; the host's 240 s (times TIMEOUT_FACTOR) is the
# last resort.
boot() {
    timeout -k 2 "$(backstop 240)" "$QEMU" -accel tcg ${ICOUNT:+-icount "$ICOUNT"} \
        -display none -no-reboot -m 32M -nic none -smp "${CPUS:-1}" \
        -monitor none -serial "file:$TMP/$1.log" -kernel "$KERNEL" \
        -append "root=hda init=/tests/lowmem" \
        -drive "file=$2,format=raw,if=ide,index=0" </dev/null >"$TMP/$1.qemu" 2>&1
    echo $? > "$TMP/$1.rc"
}

# verdicts NAME: the guest's own PASS/FAIL lines, then the common checks.
verdicts() {
    local log=$TMP/$1.log
    if [ "$(cat "$TMP/$1.rc")" = 124 ]; then
        fail "$T.$1.boot (timed out)"; show_tail "$log" 30; return
    fi
    tr -d '\r' < "$log" | sed -n 's/^lowmem: \(PASS\|FAIL\) \(.*\)/\1 '"$T"'.\2/p'
    if grep -q "^lowmem: done, 0 failures" "$log"; then pass "$T.$1.done"
    else fail "$T.$1.done (no 'lowmem: done, 0 failures')"; show_tail "$log" 30; fi
    if grep -q "Oops\|Kernel panic\|BUG:\|page allocation failure" "$log"; then
        fail "$T.$1.no_errors ($(grep -m1 "Oops\|Kernel panic\|BUG:\|page allocation failure" "$log" | tr -d '\r'))"
    else pass "$T.$1.no_errors"; fi
}
same_bytes() {         # NAME IMAGE PATH KEY LEN
    rm -f "$TMP/dump"
    debugfs -R "dump -p $3 $TMP/dump" "$2" >/dev/null 2>&1
    if [ -f "$TMP/dump" ] && "$VP" "$4" "$5" | cmp -s - "$TMP/dump"; then
        pass "$T.$1.image_bytes ($(sha1sum < "$TMP/dump" | cut -c1-12))"
    else fail "$T.$1.image_bytes ($3: $(stat -c %s "$TMP/dump" 2>/dev/null || echo missing) bytes, not the $5 expected)"; fi
    rm -f "$TMP/dump"
}
oom_report() {         # NAME: Linux's report is in the log
    local log=$TMP/$1.log
    if grep -q "invoked oom-killer: gfp_mask=" "$log" && grep -q "^Mem-Info:" "$log" &&
       grep -q "^Tasks state" "$log" && grep -q "^Out of memory: Killed process [0-9]* (lowmem)" "$log"; then
        pass "$T.$1.oom_report"
    else fail "$T.$1.oom_report (no complete OOM report in the log)"; show_tail "$log" 30; fi
    if grep -q "SIGBUS\|bus error" "$log"; then fail "$T.$1.no_sigbus"; else pass "$T.$1.no_sigbus"; fi
}

mkimg "bigfile 128" 160M "$TMP/bigfile.img" && mkimg "mmap 64" 96M "$TMP/mmap.img" || exit 0
boot bigfile "$TMP/bigfile.img" & boot mmap "$TMP/mmap.img" & wait
verdicts bigfile
fsck_clean "$T.bigfile.fsck" "$TMP/bigfile.img"
same_bytes bigfile "$TMP/bigfile.img" /big big $((128 << 20))
rm -f "$TMP/bigfile.img"
verdicts mmap
fsck_clean "$T.mmap.fsck" "$TMP/mmap.img"
same_bytes mmap "$TMP/mmap.img" /map map $((64 << 20))
rm -f "$TMP/mmap.img"

mkimg hog 16M "$TMP/hog.img" && mkimg forkbomb 16M "$TMP/forkbomb.img" || exit 0
boot hog "$TMP/hog.img" & boot forkbomb "$TMP/forkbomb.img" & wait
for s in hog forkbomb; do
    verdicts $s
    oom_report $s
    fsck_clean "$T.$s.fsck" "$TMP/$s.img"
done
exit 0
