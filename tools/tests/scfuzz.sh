#!/bin/bash
# tools/tests/scfuzz.sh: the system-call fuzzer (host test; docs/systests.md).
# Boots the production kernel with root=hda init=/tests/scfuzz
# (user/tests/scfuzz.c) on a small ext2 root whose /etc/scfuzz says
# "SEED CHILDREN CALLS FIRST" and /etc/scfuzz.calls lists the system-call
# numbers of kernel/syscall.c's table (Linux's i386 numbers,
# include/uapi/asm/unistd_32.h).  The program forks children that make
# random calls with hostile arguments, twice over the same seeds, and
# compares free memory (MemFree + Cached + Buffers) after the first and
# the second campaign.
#
# Verdicts:
#   scfuzz.no_reports   no oops, panic, BUG, WARNING, hung-task report or
#                       program FAIL line (a slow kill, a leftover file it
#                       could not remove); a report names the children
#                       running when it appeared:
#                         FUZZ_SEED=S SC_FIRST=C SC_CHILDREN=1 tools/tests/scfuzz.sh
#                       reruns one of them
#   scfuzz.finished     the program printed "scfuzz: done" (no hang, no
#                       dead init) with every child reaped
#   scfuzz.no_leak      MemFree + Cached + Buffers after the second campaign
#                       equals MemFree + Cached + Buffers
#                       after the first (the first filled the caches, a few
#                       pages: the inodes of /dev/null and /tmp/scf, the
#                       parent's own stack; the same calls again must give
#                       back every page they take)
#   scfuzz.file         a file written and fsync'd after the campaigns read
#                       back exactly in the guest, and on the host after the
#                       power off (debugfs), the image e2fsck -fn clean
#
# Environment: FUZZ_SEED (1), SC_CHILDREN (60: the short campaign of make
# check; make fuzz runs 2000), SC_CALLS (calls per child, 400), SC_FIRST (0),
# FUZZ_SUMMARY=1, KEEP=1.
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=scfuzz
SEED=${FUZZ_SEED:-1}
CHILDREN=${SC_CHILDREN:-60}
CALLS=${SC_CALLS:-400}
FIRST=${SC_FIRST:-0}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-scfuzz.XXXXXX") || exit 1
trap '[ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
R=$TMP/root
mkdir -p "$R/tests" "$R/etc" "$R/dev" "$R/proc" "$R/tmp"
cp "$BUILD/rootfs/tests/scfuzz" "$R/tests/"
echo "$SEED $CHILDREN $CALLS $FIRST" > "$R/etc/scfuzz"
# The table's names -> numbers (the program itself leaves out the calls
# that would end the test: fork, execve, reboot, mount, ...).  Not
# vellum_debug: Vellum's own call (nr 500) is no part of the Linux ABI
# under test.
sed -n 's/^ *S(\([a-z0-9_]*\),.*/\1/p' kernel/syscall.c | grep -vx vellum_debug | while read -r name; do
    sed -n "s/^#define __NR_$name  *\([0-9]*\)\$/\1/p" include/uapi/asm/unistd_32.h
done | sort -n | uniq | tr '\n' ' ' > "$R/etc/scfuzz.calls"
NCALLS=$(wc -w < "$R/etc/scfuzz.calls")
if [ "$NCALLS" -lt 50 ]; then fail "$T.calls (only $NCALLS numbers from kernel/syscall.c)"; exit 0; fi
mke2fs -q -t ext2 -b 1024 -d "$R" "$TMP/root.img" 8M >"$TMP/mkfs.log" 2>&1 ||
    { fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0; }

LOG=$TMP/serial.log
START=$SECONDS
vellum_qemu "$LOG" $((60 + CHILDREN / 2)) -kernel "$KERNEL" \
    -append "root=hda init=/tests/scfuzz hung_task=20" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
ELAPSED=$((SECONDS - START))
tr -d '\r' < "$LOG" > "$TMP/log"

# Reports, each with the children running when it appeared.
TROUBLE='Oops|Kernel panic|BUG|WARNING:|hung_task: no console|bad page|scfuzz: FAIL'
awk -v trouble="$TROUBLE" '
    /scfuzz: child [0-9]+ start/ { c = $0; sub(/.*child /, "", c); sub(/ .*/, "", c); live[c] = 1; next }
    /scfuzz: child [0-9]+ end/   { c = $0; sub(/.*child /, "", c); sub(/ .*/, "", c); delete live[c]; next }
    $0 ~ trouble && n < 10 {
        who = ""; for (c in live) who = who " " c
        print "    " $0 "   (children running:" who ")"; n++
    }' "$TMP/log" > "$TMP/reports"
if [ -s "$TMP/reports" ]; then
    fail "$T.no_reports (seed $SEED)"; cat "$TMP/reports"
else pass "$T.no_reports"; fi

ends=$(grep -c "scfuzz: child [0-9]* end" "$TMP/log")
if grep -q "scfuzz: done" "$TMP/log" && [ "$ends" -eq $((2 * CHILDREN)) ]; then
    pass "$T.finished"
else
    fail "$T.finished ($ends of $((2 * CHILDREN)) children reaped, QEMU $(qemu_status_text $rc))"
    show_tail "$TMP/log" 30
fi

read -r A B < <(sed -n 's/.*scfuzz: memfree \(-\?[0-9]*\) \(-\?[0-9]*\).*/\1 \2/p' "$TMP/log")
if [ -n "${A:-}" ] && [ "$A" -gt 0 ] && [ "$A" = "$B" ]; then
    pass "$T.no_leak (MemFree + Cached + Buffers $A kB after both campaigns)"
else
    fail "$T.no_leak (MemFree + Cached + Buffers ${A:-?} kB after the first campaign, ${B:-?} kB after the second)"
fi

awk 'BEGIN { for (i = 0; i < 65536; i++) printf "%c", (i * 13 + 5) % 256 }' > "$TMP/want"
rm -f "$TMP/got"
debugfs -R "dump /scfuzz.dat $TMP/got" "$TMP/root.img" >/dev/null 2>&1
if grep -q "scfuzz: file ok" "$TMP/log" && cmp -s "$TMP/got" "$TMP/want" &&
   e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then
    pass "$T.file"
else
    fail "$T.file (in the guest: $(grep -o 'scfuzz: [A-Z ]*file[a-z ]*' "$TMP/log" | head -1); on the host: $(cmp -s "$TMP/got" "$TMP/want" && echo exact || echo differs), e2fsck rc $?)"
    show_tail "$TMP/fsck.log" 10
fi

if [ "${FUZZ_SUMMARY:-}" = 1 ]; then
    echo "scfuzz summary: seed $SEED, children $FIRST..$((FIRST + CHILDREN - 1)) twice, $CALLS calls each ($((2 * CHILDREN * CALLS)) calls), $ELAPSED s"
    grep "scfuzz: seed\|scfuzz: killed\|scfuzz: calls made\|scfuzz: memfree" "$TMP/log" | sed 's/^/  /'
    sed -n 's/.*scfuzz: child [0-9]* end \(0x[0-9a-f]*\).*/\1/p' "$TMP/log" | sort | uniq -c | sort -rn |
        while read -r n st; do
            s=$((st))
            if [ $((s & 0x7f)) -eq 0 ]; then what="exit $((s >> 8))"
            else what="signal $((s & 0x7f))"; fi
            printf '  %6d  %s\n' "$n" "$what"
        done
fi
exit 0
